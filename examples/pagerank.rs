//! PageRank written with the generic operations only (the LAGraph / Graphalytics form:
//! the dangling vertices' rank is spread over all vertices), over the pattern matrix as
//! the reader gives it: PLUS.SECOND takes every arc as 1, so no values are copied in.
//!
//! `cargo run --release --example pagerank [-- GRAPH [ITERATIONS]]`: without a file, a
//! Graph500 R-MAT graph of scale 14. Prints the time of the iterations and the rank sum
//! (1 up to rounding); `scripts/bench_templates_peers.py` runs the same sequence of
//! operations in SuiteSparse through python-graphblas.

use std::time::Instant;

use edgeblas::generate::rmat::Rmat;
use edgeblas::io::{ReadOptions, read_graph};
use edgeblas::prelude::*;

fn main() -> edgeblas::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a: Csr<()> = match args.first() {
        Some(path) => read_graph(path.as_ref(), &ReadOptions::default())?.adjacency,
        None => Rmat {
            scale: 14,
            undirected: true,
            ..Rmat::default()
        }
        .generate()?,
    };
    let iterations: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let n = a.nrows();
    let (damping, d0) = (0.85, Descriptor::DEFAULT);

    // d(i) = out-degree of i, present only where it is non-zero (the dangling vertices
    // are the complement of d's structure).
    let d: Vector<f64> = Vector::from_pairs(
        n,
        (0..n)
            .filter(|&i| a.degree(i) > 0)
            .map(|i| (i as u32, a.degree(i) as f64)),
    );
    // Whether A is symmetric, found once per graph and remembered by it (as LAGraph
    // caches a graph's symmetry): free when the file said so, a transpose's time for a
    // "general" file. On a symmetric A, `vxm` reads A' as A and pulls.
    let checked = Instant::now();
    let symmetric = a.is_symmetric();
    let check_ms = checked.elapsed().as_secs_f64() * 1e3;
    let start = Instant::now();
    // --- the template ---
    let mut r: Vector<f64> = Vector::full(n, 1.0 / n as f64);
    let (mut w, mut t, mut dangling_r): (Vector<f64>, Vector<f64>, Vector<f64>) =
        (Vector::new(n), Vector::new(n), Vector::new(n));
    for _ in 0..iterations {
        // w = r ./ d: each vertex's share per out-arc (ewise mult, DIV)
        ops::ewise_mult(&mut w, None, None, &Div::<f64>::new(), &r, &d, &d0);
        // dangling = sum of r<!d>: the rank of the vertices without out-arcs
        ops::assign(
            &mut dangling_r,
            Some(&Mask::structure(&d).complement()),
            None,
            &r,
            &d0.with_replace(),
        );
        let dangling = ops::reduce(Plus::<f64>::new(), &dangling_r);
        // t = w plus.second A: the rank flowing into each vertex
        ops::vxm(&mut t, None, None, PlusSecond::<f64>::new(), &w, &a, &d0);
        // r = (1 - damping + damping * dangling) / n, then r += damping * t
        let base = (1.0 - damping + damping * dangling) / n as f64;
        ops::assign_scalar(&mut r, None, None, base, &d0);
        ops::apply(
            &mut r,
            None,
            Some(&Plus::<f64>::new()),
            |x| damping * x,
            &t,
            &d0,
        );
    }
    // --- end of the template ---
    let seconds = start.elapsed().as_secs_f64();
    let sum = ops::reduce(Plus::<f64>::new(), &r);
    println!(
        "pagerank: n {n}, arcs {}, {iterations} iterations in {:.1} ms, rank sum {sum:.12} (symmetric: {symmetric}, checked in {check_ms:.1} ms)",
        a.nnz(),
        seconds * 1e3
    );
    assert!((sum - 1.0).abs() < 1e-9, "the ranks sum to 1");
    Ok(())
}
