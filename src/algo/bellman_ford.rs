//! Single-source shortest paths by Bellman-Ford: the BFS template with the semiring
//! swapped for MIN.PLUS, an accumulate-min into the distances, and the vertices whose
//! distance changed as the next frontier. Negative arcs are fine; a negative cycle
//! reachable from the source is an error naming a vertex on it.

use crate::algebra::{Index, Min, MinPlus, Monoid, Semiring};
use crate::descriptor::{Descriptor, Mask};
use crate::graph::Graph;
use crate::ops;
use crate::paths::{NONE, find_cycle};
use crate::vector::Vector;

// The result types live in `crate::paths`, below both `algo` and the backends that
// compute them (the CUDA Bellman-Ford); this is their public path.
pub use crate::paths::{NegativeCycle, ShortestPaths};

/// MIN over `(distance, vertex)` pairs in lexicographic order: the shortest distance,
/// and among equal distances the smallest vertex. Identity `(+inf, MAX)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct MinLex;

impl Monoid<(f64, Index)> for MinLex {
    #[inline]
    fn identity(&self) -> (f64, Index) {
        (f64::INFINITY, NONE)
    }
    #[inline]
    fn combine(&self, a: (f64, Index), b: (f64, Index)) -> (f64, Index) {
        if b.0 < a.0 || (b.0 == a.0 && b.1 < a.1) {
            b
        } else {
            a
        }
    }
}

/// MIN.PLUS carrying its argument: `t(j) = min_k (u(k) + A(k, j), k)` under [`MinLex`],
/// so a product gives each vertex its new distance and the frontier vertex it came
/// from (the predecessor).
#[derive(Clone, Copy, Debug, Default)]
pub struct MinPlusArg;

impl Semiring<f64, f64> for MinPlusArg {
    type Output = (f64, Index);
    type Add = MinLex;
    #[inline]
    fn add(&self) -> MinLex {
        MinLex
    }
    #[inline]
    fn multiply(&self, w: f64, d: f64, k: Index) -> (f64, Index) {
        (d + w, k)
    }
}

/// Bellman-Ford from `source` over arc weights `a` (`A(i, j)` = weight of `i -> j`).
///
/// Each round is one [`ops::vxm_accumulate`], `d min= f min.plus A` in place, returning
/// the improved entries as the next frontier `f` (the vertices whose distance changed);
/// the predecessors come once at the end from the tight arcs
/// ([`super::delta_stepping::predecessors`]), as for delta-stepping.
///
/// # Arguments
/// * `a` - square weighted adjacency (any sign; for an unweighted graph use
///   `g.map(|_| 1.0)`);
/// * `source` - the start vertex.
///
/// # Returns
/// Distances (`+inf` where unreached) and predecessors: for each reached `v` other than
/// the source, the smallest `u` with `d(u) + w(u, v) = d(v)` (with zero-weight cycles two
/// such choices can point at each other); `u32::MAX` for the source and unreached
/// vertices. `rounds` counts the products.
///
/// # Errors
/// [`NegativeCycle`] when a cycle of negative weight is reachable from the source.
///
/// # Panics
/// If `a` is not square or `source >= a.nrows()` (caller contracts; the CLI checks ids).
///
/// # Complexity
/// O(rounds x arcs out of the changed vertices); at most n rounds.
///
/// # Example
/// ```
/// use edgeblas::algo::bellman_ford;
/// use edgeblas::prelude::*;
/// //  0 --4--> 1 --(-2)--> 2
/// //  0 -----------3-----> 2
/// let mut b = CooBuilder::new(3, 3);
/// for (i, j, w) in [(0, 1, 4.0), (1, 2, -2.0), (0, 2, 3.0)] {
///     b.push(i, j, w).unwrap();
/// }
/// let a = b.build(Duplicates::Error).unwrap();
/// let sp = bellman_ford(&Graph::directed(&a), 0).unwrap();
/// assert_eq!(sp.distances, vec![0.0, 4.0, 2.0]);
/// assert_eq!(sp.predecessors[2], 1);
/// ```
pub fn bellman_ford(g: &Graph<'_, f64>, source: Index) -> Result<ShortestPaths, NegativeCycle> {
    bellman_ford_with(g, source, true)
}

/// [`bellman_ford`], with the final predecessor product only when `with_predecessors`
/// (without it, `predecessors` is empty: the distances alone cost one product over the
/// reached arcs less).
///
/// # Errors
/// As [`bellman_ford`].
///
/// # Panics
/// As [`bellman_ford`].
pub fn bellman_ford_with(
    g: &Graph<'_, f64>,
    source: Index,
    with_predecessors: bool,
) -> Result<ShortestPaths, NegativeCycle> {
    let a = g.adjacency();
    assert_eq!(a.nrows(), a.ncols(), "A.nrows() != A.ncols()");
    let n = a.nrows();
    assert!((source as usize) < n, "source {source} >= A.nrows() = {n}");
    // dist = +inf; dist(source) = 0; f = the changed set with its distances
    let mut dist: Vector<f64> = Vector::full(n, f64::INFINITY);
    let src = Vector::from_pairs(n, [(source, 0.0)]);
    ops::assign(
        &mut dist,
        None,
        Some(&Min::<f64>::new()),
        &src,
        &Descriptor::DEFAULT,
    );
    let mut f = src;
    let mut rounds = 0;
    while f.nvals() > 0 && rounds < n {
        rounds += 1;
        // f = the entries of dist that f min.plus A improves; dist min= them
        f = ops::vxm_accumulate(&mut dist, MinPlus::<f64>::new(), &f, a);
    }
    if f.nvals() > 0 {
        // Still changing after n rounds: a negative cycle. The rounds again, with each
        // round's argmin kept, to name a vertex on it.
        return Err(negative_cycle(a, source));
    }
    let predecessors = if with_predecessors {
        super::delta_stepping::predecessors(a, &dist, source)
    } else {
        Vec::new()
    };
    Ok(ShortestPaths {
        distances: dist.into_dense(f64::INFINITY).into_vec(),
        predecessors,
        rounds,
    })
}

/// The rounds of [`bellman_ford`] with each round's argmin as the predecessor (the
/// lexicographic MIN.PLUS carrying the argument), run when `n` rounds did not settle the
/// distances: a vertex still changing leads back along those predecessors to a cycle of
/// negative weight.
fn negative_cycle(a: &crate::matrix::Csr<f64>, source: Index) -> NegativeCycle {
    let n = a.nrows();
    let d0 = Descriptor::DEFAULT;
    let replace = d0.with_replace();
    let mut dist: Vector<f64> = Vector::full(n, f64::INFINITY);
    let src = Vector::from_pairs(n, [(source, true)]);
    ops::assign_scalar(&mut dist, Some(&Mask::structure(&src)), None, 0.0, &d0);
    let mut pred: Vector<Index> = Vector::full(n, NONE);
    let mut f: Vector<f64> = Vector::from_pairs(n, [(source, 0.0)]);
    let mut rounds = 0;
    while f.nvals() > 0 && rounds < n {
        rounds += 1;
        // t = f min.plus A, with the argmin: t(j) = min_k (f(k) + A(k, j), k)
        let mut t: Vector<(f64, Index)> = Vector::new(n);
        ops::vxm(&mut t, None, None, MinPlusArg, &f, a, &d0);
        // c = select(t(j) < dist(j)): the vertices the round improves
        let mut c: Vector<(f64, Index)> = Vector::new(n);
        let dv = &dist;
        ops::select(
            &mut c,
            None,
            None,
            |j, (x, _)| dv.get(j as usize).is_some_and(|old| x < old),
            &t,
            &replace,
        );
        // f = c's distances; dist<f> min= f; pred<c> = c's argmin
        let mut next: Vector<f64> = Vector::new(n);
        ops::apply(&mut next, None, None, |(x, _)| x, &c, &replace);
        let mask = Mask::structure(&c);
        ops::assign(&mut dist, Some(&mask), Some(&Min::<f64>::new()), &next, &d0);
        ops::apply(&mut pred, Some(&mask), None, |(_, k)| k, &c, &d0);
        drop(mask);
        f = next;
    }
    let predecessors = pred.into_dense(NONE).into_vec();
    find_cycle(&predecessors, f.to_pairs().into_iter().map(|(v, _)| v))
}
