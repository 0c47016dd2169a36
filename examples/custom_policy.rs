//! A user's own direction-switching rule: implement `Policy` and pass it to `bfs`.
//! This one pulls while the frontier holds at least a given share of the vertices not
//! yet visited (a vertex-count rule, where Beamer's looks at edges), and shows its
//! decisions in the trace next to Beamer's.
//!
//! `cargo run --release --example custom_policy`

use edgeblas::algo::bfs::{Beamer, BfsGraph, BfsOptions, Direction, LevelState, Policy, bfs};
use edgeblas::prelude::*;

/// Pull when `|F| >= share * (n - visited + |F|)`.
struct FrontierShare {
    share: f64,
}

impl Policy for FrontierShare {
    fn name(&self) -> String {
        format!("frontier-share({})", self.share)
    }
    fn direction(&self, s: &LevelState) -> Direction {
        let open = (s.vertices - s.visited_vertices + s.frontier_vertices) as f64;
        if s.frontier_vertices as f64 >= self.share * open {
            Direction::Pull
        } else {
            Direction::Push
        }
    }
}

fn main() -> edgeblas::Result<()> {
    // A random graph with a few hubs, both directions stored.
    let n = 50_000;
    let mut seed = 7u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut b = CooBuilder::new(n, n);
    for _ in 0..n * 8 {
        let r = next();
        let i = ((r % n as u64) >> (r >> 61)) as usize;
        let j = (next() % n as u64) as usize;
        b.push(i, j, ())?;
    }
    b.symmetrize();
    let a = b.build(Duplicates::KeepFirst)?;
    let g = BfsGraph::symmetric(&a);
    let opts = BfsOptions {
        trace: true,
        ..Default::default()
    };
    let mine = FrontierShare { share: 0.05 };
    let beamer = Beamer::default();
    let r1 = bfs(&g, &[0], &mine, &opts)?;
    let r2 = bfs(&g, &[0], &beamer, &opts)?;
    for (p, r) in [(&mine as &dyn Policy, &r1), (&beamer, &r2)] {
        let dirs: Vec<&str> = r.trace.iter().map(|t| t.direction.name()).collect();
        let examined: u64 = r.trace.iter().map(|t| t.edges_examined).sum();
        println!("{:<22} {:?}  arcs examined {examined}", p.name(), dirs);
    }
    // Whatever the rule, the search is the same.
    assert_eq!(r1.parents, r2.parents);
    assert_eq!(r1.levels, r2.levels);
    Ok(())
}
