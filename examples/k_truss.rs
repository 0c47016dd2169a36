//! The k-truss (LAGraph's `LAGraph_KTruss`), written with the public operations only: the
//! largest subgraph in which every edge lies on at least k - 2 triangles of the subgraph.
//!
//! ```text
//! C = offdiag(A)                         the graph without self-loops
//! repeat
//!     C<C> = C (+).(pair) C'             C(i, j) = the triangles on edge (i, j)
//!     C    = select(C, C(i, j) >= k - 2) drop the edges on too few triangles
//! until no edge is dropped
//! ```
//!
//! The result holds, for every edge of the k-truss, its support: the triangles on it.
//! `cargo run --release --example k_truss [-- GRAPH [K]]`: without a file, a Graph500
//! R-MAT graph of scale 12, k = 5. The graph must be undirected.

use std::time::Instant;

use edgeblas::generate::rmat::Rmat;
use edgeblas::io::{ReadOptions, read_graph};
use edgeblas::prelude::*;

/// The k-truss of the undirected graph `a` (`k >= 3`), each edge with its support, and
/// the number of rounds it took.
pub fn k_truss(a: &Csr<()>, k: u32) -> (Csr<u32>, usize) {
    assert!(k >= 3, "k-truss needs k >= 3");
    let n = a.nrows();
    let d = MatrixDescriptor::DEFAULT;
    let mut c = Csr::<()>::empty(n, n);
    ops::select_matrix(&mut c, None, None, ops::offdiag(0), a, &d);
    let mut rounds = 0;
    loop {
        rounds += 1;
        let mut support = Csr::<u32>::empty(n, n);
        let mask = MatrixMask::structure(&c);
        ops::mxm(
            &mut support,
            Some(&mask),
            None,
            PlusPair::new(),
            &c,
            &c,
            &d.with_transpose_b(),
        );
        let mut kept = Csr::<u32>::empty(n, n);
        ops::select_matrix(&mut kept, None, None, |_, _, s| s + 2 >= k, &support, &d);
        if kept.nvals() == c.nvals() {
            return (kept, rounds);
        }
        c = kept.pattern();
    }
}

#[allow(dead_code)]
fn main() -> edgeblas::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a: Csr<()> = match args.first() {
        Some(path) => {
            let opts = ReadOptions {
                undirected: true,
                ..ReadOptions::default()
            };
            read_graph(path.as_ref(), &opts)?.adjacency
        }
        None => Rmat {
            scale: 12,
            undirected: true,
            ..Rmat::default()
        }
        .generate()?,
    };
    let k: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    if k < 3 {
        eprintln!("error: K must be at least 3");
        std::process::exit(2);
    }
    let start = Instant::now();
    let (t, rounds) = k_truss(&a, k);
    println!(
        "{}-truss: {} of {} arcs kept after {} rounds, in {:.1} ms",
        k,
        t.nvals(),
        a.nvals(),
        rounds,
        start.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}
