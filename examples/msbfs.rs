//! Multi-source BFS as matrix products (the batched BFS of LAGraph's betweenness), written
//! with the public operations only. Row `s` of the frontier `F` is the frontier of the
//! search from `sources[s]`; one level of all searches at once is one masked product:
//!
//! ```text
//! F      = the sources, one row each           (s x n)
//! repeat while F has entries, depth = 0, 1, ...
//!   L<F>         = depth                      apply: the level of every new vertex
//!   F<!L, repl>  = F (any).(pair) A           mxm: the next frontiers, unvisited only
//! ```
//!
//! `cargo run --release --example msbfs [-- GRAPH [SOURCES]]`: without a file, a Graph500
//! R-MAT graph of scale 14 searched from vertices 0..8; SOURCES is a comma list.

use std::time::Instant;

use edgeblas::generate::rmat::Rmat;
use edgeblas::io::{ReadOptions, read_graph};
use edgeblas::prelude::*;

/// `L(s, v)`: the number of hops from `sources[s]` to `v`, absent where `v` is not
/// reachable. Panics if a source is not a vertex of `a`.
pub fn multi_source_bfs(a: &Csr<()>, sources: &[Index]) -> Csr<u32> {
    let (s, n) = (sources.len(), a.nrows());
    let offsets = (0..=s as u64).collect();
    let mut f = Csr::new_checked(s, n, offsets, sources.to_vec(), vec![(); s])
        .expect("every source is a vertex");
    let mut levels = Csr::<u32>::empty(s, n);
    let d = MatrixDescriptor::DEFAULT;
    let mut depth = 0u32;
    while f.nvals() > 0 {
        let frontier = MatrixMask::structure(&f);
        ops::apply_matrix(&mut levels, Some(&frontier), None, |_| depth, &f, &d);
        let unvisited = MatrixMask::structure(&levels).complement();
        let mut next = Csr::<bool>::empty(s, n);
        ops::mxm(
            &mut next,
            Some(&unvisited),
            None,
            AnyPair::new(),
            &f,
            a,
            &d.with_replace(),
        );
        f = next.pattern();
        depth += 1;
    }
    levels
}

#[allow(dead_code)]
fn main() -> edgeblas::Result<()> {
    let mut args = std::env::args().skip(1);
    let a: Csr<()> = match args.next() {
        Some(path) => read_graph(path.as_ref(), &ReadOptions::default())?.adjacency,
        None => Rmat {
            scale: 14,
            undirected: true,
            ..Rmat::default()
        }
        .generate()?,
    };
    let sources: Vec<Index> = match args.next() {
        Some(list) => list
            .split(',')
            .map(|x| {
                x.trim().parse().map_err(|_| {
                    edgeblas::Error::InvalidArgument(format!("source {x:?} is not a vertex id"))
                })
            })
            .collect::<edgeblas::Result<_>>()?,
        None => (0..8.min(a.nrows() as Index)).collect(),
    };
    if let Some(&bad) = sources.iter().find(|&&x| x as usize >= a.nrows()) {
        return Err(edgeblas::Error::InvalidArgument(format!(
            "source {bad} is not a vertex (the graph has {})",
            a.nrows()
        )));
    }
    let start = Instant::now();
    let levels = multi_source_bfs(&a, &sources);
    let elapsed = start.elapsed().as_secs_f64() * 1e3;
    for (s, &src) in sources.iter().enumerate() {
        let (_, lv) = levels.row(s);
        let depth = lv.iter().max().copied().unwrap_or(0);
        println!("source {src}: {} reached, depth {depth}", lv.len());
    }
    println!("{} searches in {elapsed:.1} ms", sources.len());
    Ok(())
}
