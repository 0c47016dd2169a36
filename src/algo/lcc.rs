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
//! For an undirected graph `count(v)` is twice the triangles at `v` (each edge is two
//! arcs), and they are counted by the ordered products of triangle counting instead
//! (`lcc_undirected` below): on Kronecker scale 18, 3.5 s against 32 s for `M<S>`, which
//! enumerates every wedge of a hub.

use crate::algebra::{Plus, PlusPair};
use crate::descriptor::{Descriptor, MatrixDescriptor, MatrixMask};
use crate::graph::Graph;
use crate::matrix::Csr;
use crate::ops;
use crate::vector::Vector;

/// The clustering coefficient of every vertex of `g` (directed or not: a symmetric `g`
/// takes the undirected form, which needs no `A + A'`).
///
/// # Panics
/// If `a` is not square.
pub fn lcc(g: &Graph<'_, ()>) -> Vec<f64> {
    let a = g.adjacency();
    assert_eq!(a.nrows(), a.ncols(), "lcc needs a square matrix");
    if g.is_symmetric() {
        return lcc_undirected(a);
    }
    let n = a.nrows();
    let (d0, md) = (Descriptor::DEFAULT, MatrixDescriptor::DEFAULT);
    // A0 = offdiag(A); S = offdiag(A + A')
    let mut a0 = Csr::<()>::empty(n, n);
    ops::select_matrix(&mut a0, None, None, ops::offdiag(0), a, &md);
    let s = a0.symmetrize(|_, _| ());
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
    let desc = d0.with_transpose();
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

/// The undirected case from the per-vertex triangle counts of the ordered products, each
/// triangle `k < j < i` found once (after the presort of triangle counting):
///
/// ```text
/// L      = tril(A(p, p), -1)
/// C<L>   = L (+).(pair) L'        C(i, j): triangles whose two largest vertices are i, j
/// C2<L>  = L (+).(pair) L         C2(i, k): those whose largest and smallest are i, k
/// tri    = rowsum(C) + colsum(C) + colsum(C2)      once for each of the three vertices
/// lcc(v) = 2 tri(v) / (deg(v) (deg(v) - 1))
/// ```
///
/// The full masked product of [`lcc`] counts every wedge of a hub; these count each
/// triangle three times over in all.
fn lcc_undirected(a: &Csr<()>) -> Vec<f64> {
    use crate::algo::triangles::{degree_order, permuted, skewed};
    let n = a.nrows();
    let (d0, md) = (Descriptor::DEFAULT, MatrixDescriptor::DEFAULT);
    // The presort of triangle counting, when the degrees are skewed: s = A(p, p).
    let sorted;
    let (s, p): (&Csr<()>, Option<Vec<crate::algebra::Index>>) = if skewed(a) {
        let p = degree_order(a, false);
        sorted = permuted(a, &p);
        (&sorted, Some(p))
    } else {
        (a, None)
    };
    let mut l = Csr::<()>::empty(n, n);
    ops::select_matrix(&mut l, None, None, ops::tril(-1), s, &md);
    let mask = MatrixMask::structure(&l);
    let (mut c, mut c2) = (Csr::<u64>::empty(n, n), Csr::<u64>::empty(n, n));
    let pair = PlusPair::<u64>::new();
    ops::mxm(
        &mut c,
        Some(&mask),
        None,
        pair,
        &l,
        &l,
        &md.with_transpose_b(),
    );
    ops::mxm(&mut c2, Some(&mask), None, pair, &l, &l, &md);
    // tri = rowsum(C) + colsum(C) + colsum(C2), in the sorted order
    let plus = Plus::<u64>::new();
    let mut tri: Vector<u64> = Vector::full(n, 0);
    ops::reduce_rows(&mut tri, None, Some(&plus), plus, &c, &d0);
    ops::reduce_rows(&mut tri, None, Some(&plus), plus, &c, &d0.with_transpose());
    ops::reduce_rows(&mut tri, None, Some(&plus), plus, &c2, &d0.with_transpose());
    let tri = tri.into_dense(0).into_vec();
    let mut out = vec![0.0; n];
    for q in 0..n {
        // |N(v)|: the row of the sorted matrix without its diagonal entry
        let d = (s.degree(q) - usize::from(s.get(q, q).is_some())) as f64;
        if d > 1.0 {
            let v = p.as_ref().map_or(q, |p| p[q] as usize);
            out[v] = 2.0 * tri[q] as f64 / (d * (d - 1.0));
        }
    }
    out
}
