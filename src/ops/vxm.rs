//! `w<m> = w (.) (u (+).(x) A)`: push, SpMSpV over the out-edges of `u`'s entries.

use crate::algebra::{Index, Scalar, Semiring};
pub use crate::backend::cpu::choose::PushMethod;
use crate::backend::cpu::{accumulate, fixpoint, pull, push, write};
use crate::descriptor::{Descriptor, Mask};
use crate::matrix::Csr;
use crate::vector::Vector;

use super::{Accum, check_mask};

/// `w<m> = w (.) (u (+).(x) A)` -- push: each entry `u(k)` scatters `A(k, j) (x) u(k)` to
/// the `j` the mask allows; the terms of one `j` are summed in ascending `k`.
///
/// With `desc.transpose`, computes `u (+).(x) A'` by pulling over `A`'s rows instead.
/// The result's form follows its fill: sparse below 2%, dense when every index is
/// present, a bitmap between (push); a bitmap or sparse (pull).
///
/// # Panics
/// If `u.len() != A.nrows()` (or `A.ncols()` transposed), or `w` or the mask do not have
/// the output's length.
///
/// # Method
/// The method follows the work: the fewer terms `f` (the out-degrees of `u`'s entries)
/// against the output length `n`, the less of `n` a method may touch, so tiny products
/// sort their terms, big ones sum by ranges of columns (or pull, over a symmetric `A`),
/// and those between use a Gustavson workspace (or scatter, under MIN and MAX); every
/// method gives the same result. In detail (`backend::cpu::choose` holds the thresholds):
/// - `32 f < n`, a tiny product: the terms are sorted by output index and summed per run;
/// - `4 f >= n`, a big one (a dense `u` always): the output is cut into ranges of
///   columns, one task each, and every term is summed straight into the result's
///   bitmap in ascending `k`: no merge, and the same bytes as a pull over the transpose;
/// - between: chunks of `u`'s entries cut by flops, each into a Gustavson accumulator
///   with generation stamps, merged in chunk order.
///
/// Under an order-free monoid (MIN, MAX) into a 4- or 8-byte primitive number, the
/// middle and big products scatter instead: chunks of `u`'s entries, each term combined
/// into its output slot by compare-and-swap or, when the product has at least a quarter
/// as many terms as `threads * n`, into slots private to each thread that are merged at
/// the end; with the same bytes as the other methods (a product whose order could show,
/// through float ties of `0.0` and `-0.0` or a NaN term, is redone by columns).
///
/// When `A` is known to be symmetric (see [`Csr::is_symmetric`]: a graph read from an
/// undirected or Matrix Market symmetric file, a generated undirected graph, a
/// symmetrized pattern, or any matrix once checked), `A'` is `A` at hand, and a big
/// product whose flops reach a quarter of `nnz(A)` pulls instead: one dot product per
/// output over `A`'s rows, in parallel by output, with the same bytes as the column push.
///
/// Under an exact monoid (integers, MIN, MAX, ANY, booleans, positional) every method
/// gives the same bytes. Under float PLUS each method gives the same bytes for any
/// thread count, and the methods agree within a few ulps (they associate differently).
///
/// # Complexity
/// Push: O(f + n / 64) for the big products (plus `n` when the result is not sparse),
/// O(f + n) for the middle ones, O(f log f) for a tiny one; the pull over a symmetric
/// `A`, O(nnz(A) + n).
pub fn vxm<S, A, U>(
    w: &mut Vector<S::Output>,
    mask: Option<&Mask>,
    accum: Accum<'_, S::Output>,
    semiring: S,
    u: &Vector<U>,
    a: &Csr<A>,
    desc: &Descriptor,
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let t = product(w.len(), mask, semiring, u, a, desc, PushMethod::Auto);
    write::write_back(w, mask, accum, t, true, desc.replace);
}

/// `w<m> = w (.) (w (+).(x) A)` -- [`vxm`] with the output as its input (GrB_vxm with
/// `w` aliased to `u`): the product is computed from the old `w` before the masked
/// write-back, so `w = w min.plus A` is one call with no clone.
///
/// # Panics
/// If `A` is not square with `w.len()` rows, or the mask does not have `w`'s length.
///
/// # Complexity
/// As [`vxm`] with `u = w`.
pub fn vxm_inplace<S, A, Z>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    accum: Accum<'_, Z>,
    semiring: S,
    a: &Csr<A>,
    desc: &Descriptor,
) where
    S: Semiring<A, Z, Output = Z>,
    A: Scalar,
    Z: Scalar,
{
    assert_eq!(a.nrows(), a.ncols(), "A is not square (vxm_inplace)");
    let t = product(w.len(), mask, semiring, w, a, desc, PushMethod::Auto);
    write::write_back(w, mask, accum, t, true, desc.replace);
}

/// `w = w (+) (u (+).(x) A)` on a dense `w`, in place, returning the entries of `w`
/// that changed, with their new values -- GrB_vxm with the semiring's own monoid as the
/// accumulator and no mask, plus the set a frontier-driven algorithm needs next.
///
/// This is the relaxation of shortest paths: `c = vxm_accumulate(&mut d, MinPlus, &f,
/// &A)` is `t = f min.plus A; c = select(t < d); d min= c` in one pass over the terms,
/// with no product vector in between (Bellman-Ford's and delta-stepping's rounds). It
/// equals that sequence: `w` after the call equals `w (+) t` entry by entry, and the
/// result holds exactly the `j` where that differs from the old `w(j)` (two NaNs count
/// as equal). Under float MIN or MAX a NaN term is dropped and a NaN in `w` gives way
/// to any term, as in `vxm` (the monoids are C's `fmin` and `fmax`).
///
/// # Panics
/// If `w` is not dense (make it with [`Vector::full`]), or `u.len() != A.nrows()` or
/// `w.len() != A.ncols()`.
///
/// # Method
/// When the semiring's monoid is [order-free](crate::algebra::Monoid::order_free)
/// (MIN, MAX, LOR, LAND) and the output a 4- or 8-byte primitive number, each term is
/// combined straight into `w(j)` (compare-and-swap when several threads run), which
/// gives the same `w` and the same changed set in any order; otherwise the product is
/// formed by [`vxm`]'s push and combined entry by entry. Either way the result does not
/// depend on the thread count.
///
/// # Complexity
/// O(f) for f terms (the out-degrees of `u`'s entries), plus O(c log c) to order `c`
/// changed entries (O(n / 64) when they are many).
///
/// # Example
/// ```
/// use edgeblas::prelude::*;
/// let mut b = CooBuilder::new(3, 3);
/// for (i, j, w) in [(0, 1, 4.0), (0, 2, 9.0), (1, 2, 1.0)] {
///     b.push(i, j, w).unwrap();
/// }
/// let a = b.build(Duplicates::Error).unwrap();
/// let mut d = Vector::full(3, f64::INFINITY);
/// d.set(0, 0.0);
/// d.set(2, 5.0);
/// let f = Vector::from_pairs(3, [(0, 0.0)]);
/// let c = ops::vxm_accumulate(&mut d, MinPlus::new(), &f, &a);
/// assert_eq!(c.to_pairs(), vec![(1, 4.0)]); // 9 does not improve d(2) = 5
/// assert_eq!(d.get(1), Some(4.0));
/// ```
pub fn vxm_accumulate<S, A, U>(
    w: &mut Vector<S::Output>,
    semiring: S,
    u: &Vector<U>,
    a: &Csr<A>,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    assert_eq!(u.len(), a.nrows(), "u.len() != A.nrows()");
    assert_eq!(w.len(), a.ncols(), "w.len() != A.ncols()");
    match w {
        Vector::Dense(d) => accumulate::vxm_accumulate(semiring, u, a, d.as_mut_slice()),
        _ => panic!("vxm_accumulate: w must be dense (Vector::full)"),
    }
}

/// What [`vxm_accumulate_fixpoint`] did: the entries it changed and its rounds.
#[derive(Clone, Debug)]
pub struct Fixpoint<Z> {
    /// Every entry of `w` that some round changed, with its final value, in ascending
    /// index (a sparse vector of `w`'s length).
    pub changed: Vector<Z>,
    /// The rounds run, each one product (`0` when `u` is empty).
    pub rounds: usize,
    /// Whether the rounds stopped because the frontier came out empty; `false` when
    /// `max_rounds` stopped them first.
    pub converged: bool,
}

/// Rounds of [`vxm_accumulate`] until nothing changes: from `f = u`, each round computes
/// `c = vxm_accumulate(w, semiring, f, A)` and continues from `f = select(c, keep)`,
/// until `f` is empty or `max_rounds` rounds ran; returns every entry any round changed.
///
/// This is a frontier-driven fixpoint as one operation: the light-arc rounds of a
/// delta-stepping bucket (`keep` = "below the bucket's end"), Bellman-Ford's rounds
/// (`keep` = always, `max_rounds` = `n`), the rounds of a label propagation under
/// MIN.SECOND. Between rounds nothing is formed but the next frontier, so a round
/// costs its terms and its changes, not `n`: what a high-diameter graph with thousands
/// of small rounds needs.
///
/// The result is exactly the loop above's (the same `w`, the same changed set, the
/// same count of rounds): each round reads the frontier's values as the round before
/// left them, whatever the number of threads. `keep(j, x)` sees an entry's value after
/// the round that changed it.
///
/// # Panics
/// If `w` is not dense (make it with [`Vector::full`]), or `u.len() != A.nrows()` or
/// `w.len() != A.ncols()` (a frontier of `w`'s entries needs a square `A`).
///
/// # Method
/// When the monoid is [order-free](crate::algebra::Monoid::order_free) and the output a
/// 4- or 8-byte primitive number, the rounds run in place, as [`vxm_accumulate`]'s, in
/// one loop with two bitmaps (a workspace kept by the calling thread across calls)
/// saying whether an index was listed this round or earlier in the call; small rounds
/// run on the calling thread, and a large frontier goes on in index order. Otherwise
/// each round is one [`vxm_accumulate`].
///
/// # Complexity
/// O(terms + changes) a round, plus O(c log c) to order the `c` changed entries at the
/// end (O(n / 64) when they are many). The first call on a thread allocates the
/// bitmaps, 2 bits per index.
///
/// # Example
/// ```
/// use edgeblas::prelude::*;
/// // a path 0 -> 1 -> 2 -> 3 of weights 1, 1, 5
/// let mut b = CooBuilder::new(4, 4);
/// for (i, j, w) in [(0, 1, 1.0), (1, 2, 1.0), (2, 3, 5.0)] {
///     b.push(i, j, w).unwrap();
/// }
/// let a = b.build(Duplicates::Error).unwrap();
/// let mut d = Vector::full(4, f64::INFINITY);
/// d.set(0, 0.0);
/// let f = Vector::from_pairs(4, [(0, 0.0)]);
/// // go on only from distances below 2: vertex 2 (at 2) is reached but not expanded
/// let r = ops::vxm_accumulate_fixpoint(&mut d, MinPlus::new(), &f, &a, |_, x| x < 2.0, usize::MAX);
/// assert_eq!(r.changed.to_pairs(), vec![(1, 1.0), (2, 2.0)]);
/// assert_eq!((r.rounds, r.converged), (2, true));
/// ```
pub fn vxm_accumulate_fixpoint<S, A, Z>(
    w: &mut Vector<Z>,
    semiring: S,
    u: &Vector<Z>,
    a: &Csr<A>,
    keep: impl Fn(Index, Z) -> bool + Sync,
    max_rounds: usize,
) -> Fixpoint<Z>
where
    S: Semiring<A, Z, Output = Z>,
    A: Scalar,
    Z: Scalar,
{
    assert_eq!(u.len(), a.nrows(), "u.len() != A.nrows()");
    assert_eq!(w.len(), a.ncols(), "w.len() != A.ncols()");
    assert_eq!(
        a.nrows(),
        a.ncols(),
        "A is not square: a frontier of w's entries needs it"
    );
    match w {
        Vector::Dense(d) => {
            let r = fixpoint::vxm_accumulate_fixpoint(
                semiring,
                u,
                a,
                d.as_mut_slice(),
                &keep,
                max_rounds,
            );
            Fixpoint {
                changed: r.changed,
                rounds: r.rounds,
                converged: r.converged,
            }
        }
        _ => panic!("vxm_accumulate_fixpoint: w must be dense (Vector::full)"),
    }
}

/// [`vxm`] (push form) with the accumulator method forced: for tests that compare the
/// methods byte for byte. Not part of the stable API.
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub fn vxm_with_method<S, A, U>(
    w: &mut Vector<S::Output>,
    mask: Option<&Mask>,
    accum: Accum<'_, S::Output>,
    semiring: S,
    u: &Vector<U>,
    a: &Csr<A>,
    desc: &Descriptor,
    method: PushMethod,
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    assert!(!desc.transpose, "vxm_with_method forces a push method");
    let t = product(w.len(), mask, semiring, u, a, desc, method);
    write::write_back(w, mask, accum, t, true, desc.replace);
}

/// `t = u (+).(x) A` (or `A'` under `desc.transpose`) for an output of `w_len`, after
/// the shape checks: the part of [`vxm`] before the write-back.
fn product<S, A, U>(
    w_len: usize,
    mask: Option<&Mask>,
    semiring: S,
    u: &Vector<U>,
    a: &Csr<A>,
    desc: &Descriptor,
    method: PushMethod,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    if desc.transpose {
        assert_eq!(u.len(), a.ncols(), "u.len() != A.ncols() (transposed vxm)");
        assert_eq!(w_len, a.nrows(), "w.len() != A.nrows() (transposed vxm)");
        check_mask(mask, w_len);
        pull::mxv_pull(semiring, a, u, mask)
    } else {
        assert_eq!(u.len(), a.nrows(), "u.len() != A.nrows()");
        assert_eq!(w_len, a.ncols(), "w.len() != A.ncols()");
        check_mask(mask, w_len);
        push::vxm_push_with(semiring, u, a, mask, method)
    }
}
