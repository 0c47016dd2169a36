//! The three directions side by side: always push (top-down), always pull (bottom-up)
//! and Beamer's direction-optimizing switch, each with its per-level trace, on an R-MAT
//! graph (or the graph file given as the first argument). The parents agree exactly.
//!
//! `cargo run --release --example bfs_push_pull [-- FILE]`

use edgeblas::algo::bfs::{Beamer, BfsGraph, BfsOptions, Policy, Pull, Push, bfs};
use edgeblas::generate::rmat::Rmat;
use edgeblas::io::{ReadOptions, read_graph};

/// A seeded Graph500-style R-MAT graph (A=.57, B=.19, C=.19), both arc directions.
fn main() -> edgeblas::Result<()> {
    let (a, symmetric, source) = match std::env::args().nth(1) {
        Some(path) => {
            let g = read_graph(path.as_ref(), &ReadOptions::default())?;
            let s = (0..g.vertices())
                .max_by_key(|&v| g.adjacency.degree(v))
                .unwrap_or(0);
            (g.adjacency, !g.directed, s as u32)
        }
        None => {
            let a = Rmat {
                undirected: true,
                ..Rmat::default()
            }
            .generate()?;
            let s = (0..a.nrows()).max_by_key(|&v| a.degree(v)).unwrap_or(0);
            (a, true, s as u32)
        }
    };
    let g = if symmetric {
        BfsGraph::symmetric(&a)
    } else {
        BfsGraph::directed(&a)
    };
    g.prepare();
    println!("{} vertices, {} arcs, source {source}", a.nrows(), a.nnz());
    let opts = BfsOptions {
        trace: true,
        ..Default::default()
    };
    let policies: [&dyn Policy; 3] = [&Push, &Pull, &Beamer::default()];
    let mut parents = Vec::new();
    for p in policies {
        let t = std::time::Instant::now();
        let r = bfs(&g, &[source], p, &opts)?;
        let secs = t.elapsed().as_secs_f64();
        println!(
            "\n{}: reached {}, depth {}, {:.3} ms, {:.3} GTEPS",
            p.name(),
            r.reached,
            r.max_depth,
            secs * 1e3,
            r.traversed_edges(&a) as f64 / secs / 1e9
        );
        println!("  level dir   frontier  frontier-edges   examined      ms");
        for l in &r.trace {
            println!(
                "  {:>5} {:<5} {:>8} {:>15} {:>10} {:>7.3}",
                l.level,
                l.direction.name(),
                l.frontier_vertices,
                l.frontier_edges,
                l.edges_examined,
                l.seconds * 1e3
            );
        }
        parents.push(r.parents);
    }
    assert!(parents.windows(2).all(|w| w[0] == w[1]));
    println!("\nall three directions chose the same parents");
    Ok(())
}
