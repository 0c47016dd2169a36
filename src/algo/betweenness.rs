//! Betweenness centrality: Brandes's dependencies summed over a batch of sources, with
//! the sources as the rows of sparse matrices (LAGraph's `LAGr_Betweenness`):
//!
//! ```text
//! P(k, s_k) = 1                               paths: shortest-path counts per source
//! F<!P>     = A(s, :)                          the frontier: depth 1
//! while F has entries:                        forward, one BFS level per step
//!   S[d]    = pattern(F);  P += F
//!   F<!P>   = F (+).(first) A                 replace: count the paths one level down
//! B         = 1 everywhere (ns x n)           B(k, v) = 1 + delta_k(v)
//! for d = depth-1 down to 1:                  backward
//!   W<S[d]>   = B ./ P
//!   W<S[d-1]> = W (+).(first) A'              replace
//!   B        += W .* P
//! bc(v)     = (+)_k B(k, v) - ns
//! ```
//!
//! Arcs are taken as stored (an undirected graph counts each edge both ways); there is no
//! halving and no normalisation. Shortest-path counts are `f64`, as in LAGraph.

use crate::algebra::{Div, Index, Indices, Plus, PlusFirst, Times};
use crate::descriptor::{Descriptor, MatrixDescriptor, MatrixMask};
use crate::matrix::Csr;
use crate::ops;
use crate::vector::Vector;

/// Sources per batch: the rows of the frontier and path matrices.
pub const BATCH: usize = 8;

/// The betweenness of every vertex of `a`, summed over `sources` (repeats count again),
/// in batches of [`BATCH`]. `at` is `A'` (pass `a` itself when `A = A'`).
///
/// # Panics
/// If `a` is not square, `at` is not its shape, or a source is out of range.
pub fn betweenness(a: &Csr<()>, at: &Csr<()>, sources: &[Index]) -> Vec<f64> {
    let n = a.nrows();
    assert_eq!(n, a.ncols(), "betweenness needs a square matrix");
    assert_eq!((at.nrows(), at.ncols()), (n, n), "A' has another shape");
    let mut bc = vec![0.0; n];
    for batch in sources.chunks(BATCH) {
        let part = brandes_batch(a, at, batch);
        for (x, y) in bc.iter_mut().zip(part) {
            *x += y;
        }
    }
    bc
}

/// One batch of sources (the template above, call for call).
pub fn brandes_batch(a: &Csr<()>, at: &Csr<()>, sources: &[Index]) -> Vec<f64> {
    let (n, ns) = (a.nrows(), sources.len());
    let md = MatrixDescriptor::DEFAULT;
    let plus = Plus::<f64>::new();
    // P(k, s_k) = 1
    let mut paths = Csr::new_checked(
        ns,
        n,
        (0..=ns as u64).collect(),
        sources.to_vec(),
        vec![1.0f64; ns],
    )
    .expect("one source per row, each in range");
    // F<!P> = A(s, :)
    let mut rows = Csr::<()>::empty(ns, n);
    ops::extract_matrix(
        &mut rows,
        None,
        None,
        a,
        &Indices::List(sources),
        &Indices::All,
        &md,
    );
    let mut frontier = Csr::<f64>::empty(ns, n);
    ops::apply_matrix(
        &mut frontier,
        Some(&MatrixMask::structure(&paths).complement()),
        None,
        |_| 1.0,
        &rows,
        &md.with_replace(),
    );
    let mut levels: Vec<Csr<()>> = Vec::new();
    while frontier.nvals() > 0 {
        // S[d] = pattern(F); P += F
        levels.push(frontier.pattern());
        ops::assign_matrix(
            &mut paths,
            None,
            Some(&plus),
            &frontier,
            &Indices::All,
            &Indices::All,
            &md,
        );
        // F<!P> = F plus.first A
        let f = std::mem::replace(&mut frontier, Csr::empty(ns, n));
        ops::mxm(
            &mut frontier,
            Some(&MatrixMask::structure(&paths).complement()),
            None,
            PlusFirst::<f64>::new(),
            &f,
            a,
            &md.with_replace(),
        );
    }
    // B = 1 (ns x n, every entry)
    let mut b = Csr::new_checked(
        ns,
        n,
        (0..=ns as u64).map(|k| k * n as u64).collect(),
        (0..ns).flat_map(|_| 0..n as Index).collect(),
        vec![1.0f64; ns * n],
    )
    .expect("a full matrix");
    let mut w = Csr::<f64>::empty(ns, n);
    let mut up = Csr::<f64>::empty(ns, n);
    for d in (1..levels.len()).rev() {
        // W<S[d]> = B ./ P
        ops::ewise_mult_matrix(
            &mut w,
            Some(&MatrixMask::structure(&levels[d])),
            None,
            &Div::<f64>::new(),
            &b,
            &paths,
            &md.with_replace(),
        );
        // W<S[d-1]> = W plus.first A'
        ops::mxm(
            &mut up,
            Some(&MatrixMask::structure(&levels[d - 1])),
            None,
            PlusFirst::<f64>::new(),
            &w,
            at,
            &md.with_replace(),
        );
        // B += W .* P
        ops::ewise_mult_matrix(
            &mut b,
            None,
            Some(&plus),
            &Times::<f64>::new(),
            &up,
            &paths,
            &md,
        );
    }
    // bc(v) = (+)_k B(k, v) - ns
    let mut sums: Vector<f64> = Vector::new(n);
    ops::reduce_rows(
        &mut sums,
        None,
        None,
        plus,
        &b,
        &Descriptor::DEFAULT.with_transpose(),
    );
    sums.into_dense(0.0)
        .into_vec()
        .into_iter()
        .map(|x| x - ns as f64)
        .collect()
}
