//! Local clustering coefficient with the LDBC Graphalytics semantics, on directed and
//! undirected graphs, as one masked product:
//!
//! ```text
//! S      = offdiag(pattern(A (+) A'))      N(v) as a set: in- and out-neighbours, not v
//! A0     = offdiag(A)                      the arcs, self-loops dropped
//! M<S>   = A0 (+).(pair) S                 M(u, v) = |out(u) ∩ N(v)|, for u in N(v)
//! count  = column sums of M                count(v) = arcs (u, w) with u, w in N(v)
//! deg    = row counts of S                 |N(v)|
//! lcc(v) = count(v) / (deg(v) (deg(v) - 1)), 0 when deg(v) <= 1
//! ```
//!
//! For an undirected graph `A0 = S` and `M` is the per-edge triangle count, so
//! `count(v)` is twice the triangles at `v` (each edge is two arcs).

use crate::algebra::{Plus, PlusPair};
use crate::descriptor::{Descriptor, MatrixDescriptor, MatrixMask};
use crate::matrix::Csr;
use crate::ops;
use crate::vector::Vector;

/// The clustering coefficient of every vertex of `a` (pass `symmetric` when `A = A'`).
///
/// # Panics
/// If `a` is not square.
pub fn lcc(a: &Csr<()>, symmetric: bool) -> Vec<f64> {
    assert_eq!(a.nrows(), a.ncols(), "lcc needs a square matrix");
    let n = a.nrows();
    let (d0, md) = (Descriptor::DEFAULT, MatrixDescriptor::DEFAULT);
    // A0 = offdiag(A); S = offdiag(A + A')
    let mut a0 = Csr::<()>::empty(n, n);
    ops::select_matrix(&mut a0, None, None, ops::offdiag(0), a, &md);
    let s = if symmetric {
        a0.clone()
    } else {
        a0.symmetrize(|_, _| ())
    };
    // M<S> = A0 plus.pair S (S = S', so the dot method finds S' at hand)
    let mut m = Csr::<u64>::empty(n, n);
    ops::mxm(
        &mut m,
        Some(&MatrixMask::structure(&s)),
        None,
        PlusPair::<u64>::new(),
        &a0,
        &s,
        &md.with_transpose_b(),
    );
    // count = column sums of M (row sums when M is symmetric)
    let mut count: Vector<u64> = Vector::new(n);
    let desc = if symmetric { d0 } else { d0.with_transpose() };
    ops::reduce_rows(&mut count, None, None, Plus::<u64>::new(), &m, &desc);
    let count = count.into_dense(0).into_vec();
    (0..n)
        .map(|v| {
            let d = s.degree(v) as f64;
            if d <= 1.0 {
                0.0
            } else {
                count[v] as f64 / (d * (d - 1.0))
            }
        })
        .collect()
}
