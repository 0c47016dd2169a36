//! Community detection by label propagation with the LDBC Graphalytics semantics
//! (synchronous rounds; each vertex takes its neighbours' most frequent label, the
//! smallest on a tie; a directed graph's in- and out-neighbours both count, a vertex
//! that is both counting twice), over the generic operations:
//!
//! ```text
//! M      = A (+) A'                     ewise_add over counts: M(i, j) in {1, 2} (directed);
//!                                       M = A for an undirected graph
//! L      = [0, 1, ..., n-1]
//! repeat k times:
//!   P    = the n x n matrix with P(j, L(j)) = 1
//!   K    = M (+).(first) P              K(i, l) = how often label l is on i's neighbours
//!   E    = apply(K): (i, l, c) -> c << 32 | (2^32 - 1 - l)   count first, then smaller label
//!   best = reduce_rows(MAX, E)          the most frequent label of each non-isolated row
//!   L<best> = 2^32 - 1 - low32(best)
//! ```
//!
//! Labels are vertex indices; the readers keep indices in the order of the ids as
//! written, so "the smallest label" is the smallest id, as Graphalytics asks.

use crate::algebra::{Index, Max, Plus, PlusFirst};
use crate::descriptor::{Descriptor, Mask, MatrixDescriptor};
use crate::graph::Graph;
use crate::matrix::Csr;
use crate::ops;
use crate::vector::Vector;

/// The label-count matrix `M` of `g`: `A` itself (values 1) when `g` is symmetric,
/// otherwise `A + A'` over counts, so a neighbour both ways counts twice.
pub fn neighbour_counts(g: &Graph<'_, ()>) -> Csr<u32> {
    let a = g.adjacency();
    let ones = a.map(|_| 1u32);
    if g.is_symmetric() {
        return ones;
    }
    let n = a.nrows();
    let mut m = Csr::<u32>::empty(n, n);
    let t = g.in_edges().map(|_| 1u32);
    ops::ewise_add_matrix(
        &mut m,
        None,
        None,
        &Plus::<u32>::new(),
        &ones,
        &t,
        &MatrixDescriptor::DEFAULT,
    );
    m
}

/// `iterations` rounds of label propagation on `g`.
/// Returns each vertex's final label (a vertex index). A vertex without neighbours
/// keeps its own label.
///
/// # Panics
/// If `a` is not square.
pub fn cdlp(g: &Graph<'_, ()>, iterations: usize) -> Vec<Index> {
    let a = g.adjacency();
    assert_eq!(a.nrows(), a.ncols(), "cdlp needs a square matrix");
    let m = neighbour_counts(g);
    cdlp_on_counts(&m, iterations)
}

/// The rounds over a prepared count matrix `m` (see [`neighbour_counts`]).
pub fn cdlp_on_counts(m: &Csr<u32>, iterations: usize) -> Vec<Index> {
    let n = m.nrows();
    let (d0, md) = (Descriptor::DEFAULT, MatrixDescriptor::DEFAULT);
    let mut labels: Vector<Index> = Vector::from_dense((0..n as Index).collect());
    let mut best: Vector<u64> = Vector::new(n);
    let mut k = Csr::<u32>::empty(n, n);
    let mut e = Csr::<u64>::empty(n, n);
    let mut decoded: Vector<Index> = Vector::new(n);
    for _ in 0..iterations {
        // P(j, L(j)) = 1
        let l = labels.clone().into_dense(0).into_vec();
        let p = Csr::new_checked(n, n, (0..=n as u64).collect(), l, vec![(); n])
            .expect("one label per row, each below n");
        // K = M plus.first P
        ops::mxm(&mut k, None, None, PlusFirst::<u32>::new(), m, &p, &md);
        // E(i, l) = count << 32 | !l ; best = max per row
        ops::apply_matrix_indexed(
            &mut e,
            None,
            None,
            |_, l, c| (u64::from(c) << 32) | u64::from(Index::MAX - l),
            &k,
            &md,
        );
        ops::reduce_rows(&mut best, None, None, Max::<u64>::new(), &e, &d0);
        // L<best> = the label of the best entry
        ops::apply(
            &mut decoded,
            None,
            None,
            |x: u64| Index::MAX - (x as Index),
            &best,
            &d0,
        );
        ops::assign(
            &mut labels,
            Some(&Mask::structure(&decoded)),
            None,
            &decoded,
            &d0,
        );
    }
    labels.into_dense(0).into_vec()
}
