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

use crate::algebra::{Div, Index, Indices, Plus, PlusFirst, PlusSecond, Times};
use crate::descriptor::{Descriptor, Mask, MatrixDescriptor, MatrixMask};
use crate::graph::Graph;
use crate::matrix::Csr;
use crate::ops;
use crate::vector::{BitmapVector, Vector};

/// Sources per batch of [`betweenness_batched`]: the rows of its frontier and path
/// matrices.
pub const BATCH: usize = 8;

/// The betweenness of every vertex of `a`, summed over `sources` (repeats count again),
/// one source at a time with sparse per-level vectors, so a level costs its frontier's
/// work and not the vertex count (a road network has thousands of levels):
///
/// ```text
/// forward:   f<!visited> = f plus.second A        vxm (push), visited a bitmap
///            visited<f>  = f;  sigma[d] = f        the path counts of level d
/// backward:  w = B[d] ./ sigma[d]
///            t<sigma[d-1]> = w plus.second A'      vxm over the in-edges
///            B[d-1] = 1 + t .* sigma[d-1];  bc += B[d] - 1
/// ```
///
/// [`betweenness_batched`] is LAGraph's form, a batch of sources as matrix rows; the
/// two agree (tests/suite/algorithms.rs). `A'` is `g`'s cached in-edges (`A` itself when `g`
/// is symmetric).
///
/// # Panics
/// If `A` is not square or a source is out of range.
pub fn betweenness(g: &Graph<'_, ()>, sources: &[Index]) -> Vec<f64> {
    let (a, at) = with_in_edges(g);
    let n = a.nrows();
    let d0 = Descriptor::DEFAULT;
    let (plus, sr) = (Plus::<f64>::new(), PlusSecond::<f64>::new());
    let mut bc: Vector<f64> = Vector::full(n, 0.0);
    for &s in sources {
        assert!((s as usize) < n, "source {s} out of range");
        // forward
        let mut visited: Vector<f64> = Vector::Bitmap(BitmapVector::new(n));
        visited.set(s as usize, 1.0);
        let mut sigma: Vec<Vector<f64>> = vec![Vector::from_pairs(n, [(s, 1.0)])];
        loop {
            let mut next: Vector<f64> = Vector::new(n);
            let f = sigma.last().expect("level 0 is there");
            ops::vxm(
                &mut next,
                Some(&Mask::structure(&visited).complement()),
                None,
                sr,
                f,
                a,
                &d0,
            );
            if next.nvals() == 0 {
                break;
            }
            ops::assign(
                &mut visited,
                Some(&Mask::structure(&next)),
                None,
                &next,
                &d0,
            );
            sigma.push(next);
        }
        // backward; B of the deepest level is 1
        let (mut w, mut t, mut tp, mut delta) = (
            Vector::new(n),
            Vector::new(n),
            Vector::new(n),
            Vector::new(n),
        );
        let mut b: Vector<f64> = Vector::new(n);
        ops::apply(&mut b, None, None, |_| 1.0, &sigma[sigma.len() - 1], &d0);
        for d in (1..sigma.len()).rev() {
            // bc += B[d] - 1
            ops::apply(&mut delta, None, None, |x| x - 1.0, &b, &d0);
            ops::assign(&mut bc, None, Some(&plus), &delta, &d0);
            if d == 1 {
                break;
            }
            // w = B[d] ./ sigma[d];  t<sigma[d-1]> = w plus.second A'
            ops::ewise_mult(&mut w, None, None, &Div::<f64>::new(), &b, &sigma[d], &d0);
            ops::vxm(
                &mut t,
                Some(&Mask::structure(&sigma[d - 1])),
                None,
                sr,
                &w,
                at,
                &d0.with_replace(),
            );
            // B[d-1] = 1 + t .* sigma[d-1]
            ops::ewise_mult(
                &mut tp,
                None,
                None,
                &Times::<f64>::new(),
                &t,
                &sigma[d - 1],
                &d0,
            );
            ops::apply(
                &mut b,
                None,
                None,
                |_| 1.0,
                &sigma[d - 1],
                &d0.with_replace(),
            );
            ops::assign(&mut b, None, Some(&plus), &tp, &d0);
        }
    }
    bc.into_dense(0.0).into_vec()
}

/// [`betweenness`] in LAGraph's form: the sources in batches of [`BATCH`], each batch
/// the rows of the frontier and path matrices (the template above).
///
/// # Panics
/// As [`betweenness`].
pub fn betweenness_batched(g: &Graph<'_, ()>, sources: &[Index]) -> Vec<f64> {
    let n = with_in_edges(g).0.nrows();
    let mut bc = vec![0.0; n];
    for batch in sources.chunks(BATCH) {
        let part = brandes_batch(g, batch);
        for (x, y) in bc.iter_mut().zip(part) {
            *x += y;
        }
    }
    bc
}

/// `A` and `A'` of a square graph (`A'` is `A` for a symmetric one).
///
/// # Panics
/// If `A` is not square.
fn with_in_edges<'g>(g: &'g Graph<'_, ()>) -> (&'g Csr<()>, &'g Csr<()>) {
    let a = g.adjacency();
    assert_eq!(a.nrows(), a.ncols(), "betweenness needs a square matrix");
    (a, if g.is_symmetric() { a } else { g.in_edges() })
}

/// One batch of sources (the template above, call for call).
///
/// # Panics
/// As [`betweenness`].
pub fn brandes_batch(g: &Graph<'_, ()>, sources: &[Index]) -> Vec<f64> {
    let (a, at) = with_in_edges(g);
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
