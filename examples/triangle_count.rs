//! Triangle counting as a masked product (Sandia LL in LAGraph's terms), written with the
//! public operations only:
//!
//! ```text
//! L      = tril(A, -1)            select: the arcs i -> j with j < i
//! C<L>   = L (+).(pair) L'        C(i, j) = |{k : L(i, k) and L(j, k)}|, only where L(i, j)
//! count  = (+)_{i, j} C(i, j)     each triangle k < j < i counted once, at (i, j)
//! ```
//!
//! `cargo run --release --example triangle_count [-- GRAPH]`: without a file, a Graph500
//! R-MAT graph of scale 14. The graph must be undirected (every edge stored both ways);
//! self-loops are dropped by the strict lower triangle. `edgeblas bench mxm --op tc`
//! times the same sequence.

use std::time::Instant;

use edgeblas::generate::rmat::Rmat;
use edgeblas::io::{ReadOptions, read_graph};
use edgeblas::prelude::*;

/// The number of triangles of the undirected graph `a` (symmetric, pattern).
pub fn triangle_count(a: &Csr<()>) -> u64 {
    let n = a.nrows();
    let d = MatrixDescriptor::DEFAULT;
    let mut l = Csr::<()>::empty(n, n);
    ops::select_matrix(&mut l, None, None, ops::tril(-1), a, &d);
    let mut c = Csr::<u64>::empty(n, n);
    let mask = MatrixMask::structure(&l);
    ops::mxm(
        &mut c,
        Some(&mask),
        None,
        PlusPair::new(),
        &l,
        &l,
        &d.with_transpose_b(),
    );
    ops::reduce_matrix(Plus::new(), &c)
}

#[allow(dead_code)]
fn main() -> edgeblas::Result<()> {
    let a: Csr<()> = match std::env::args().nth(1) {
        Some(path) => {
            let opts = ReadOptions {
                undirected: true,
                ..ReadOptions::default()
            };
            read_graph(path.as_ref(), &opts)?.adjacency
        }
        None => Rmat {
            scale: 14,
            undirected: true,
            ..Rmat::default()
        }
        .generate()?,
    };
    let start = Instant::now();
    let t = triangle_count(&a);
    println!(
        "{} vertices, {} arcs: {} triangles in {:.1} ms",
        a.nrows(),
        a.nvals(),
        t,
        start.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}
