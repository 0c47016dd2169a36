//! `w = w (+) (u (+).(x) A)` into a dense `w`, in place, reporting the entries the
//! product changed: the relaxation of shortest paths (`d min= f min.plus A`, and which
//! distances improved) as one pass over the terms, with no product vector in between.
//!
//! Two methods, the same result:
//! - **in place** when the additive monoid is [order-free](Monoid::order_free) (MIN,
//!   MAX, LOR, LAND) and the output type is a 4- or 8-byte primitive number: every term
//!   is combined straight into `w(j)` (one compare-and-swap loop per term that changes
//!   it, from several threads at once), and the first thread to change `j` lists it.
//!   Since the monoid's result does not depend on the order of its terms, neither do
//!   `w` and the changed set;
//! - **by product** otherwise (float PLUS, ANY, pairs, user types): `t = u (+).(x) A`
//!   by the push's own deterministic methods, then `w(j) (+)= t(j)` entry by entry.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::push::vxm_push;
use super::terms::{CHUNK_TERMS, Entries, chunk_bounds, entries, scan_terms_ahead};
use super::words::{Width, Word, as_words, atomic_width, from_bits, to_bits};
use super::{SEQUENTIAL_WORK, prefetch};
use crate::algebra::{Index, Monoid, Scalar, Semiring};
use crate::matrix::Csr;
use crate::vector::{SparseVector, Vector};

thread_local! {
    /// The calling thread's zeroed bitmap for [`in_place`]'s listed indices.
    static LISTED: RefCell<Vec<AtomicU64>> = const { RefCell::new(Vec::new()) };
}

/// `a` and `b` differ as values: `!=`, except that two NaNs are the same (a NaN
/// combined with a NaN is not a change).
#[inline(always)]
pub(crate) fn differs<Z: PartialEq>(a: &Z, b: &Z) -> bool {
    #[allow(clippy::eq_op)]
    let nan = a != a && b != b;
    a != b && !nan
}

/// `w = w (+) (u (+).(x) A)` for a dense `w` of `A.ncols()` entries; returns the
/// entries of `w` that changed, with their new values, in ascending index.
pub(crate) fn vxm_accumulate<S, A, U>(
    s: S,
    u: &Vector<U>,
    a: &Csr<A>,
    w: &mut [S::Output],
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let n = a.ncols();
    debug_assert_eq!(w.len(), n);
    if !s.add().order_free() {
        return by_product(s, u, a, w);
    }
    match atomic_width::<S::Output>() {
        Some(Width::W64) => in_place::<S, A, U, AtomicU64>(s, u, a, w),
        Some(Width::W32) => in_place::<S, A, U, AtomicU32>(s, u, a, w),
        None => by_product(s, u, a, w),
    }
}

/// The general method: the product by the push, then one combine per entry of it.
fn by_product<S, A, U>(s: S, u: &Vector<U>, a: &Csr<A>, w: &mut [S::Output]) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let add = s.add();
    let t = vxm_push(s, u, a, None);
    combine_changed(add, &t, w)
}

/// `w = w (+) t` for a dense `w` of `t.len()` entries, one combine per entry of the
/// product `t`; returns the entries of `w` that changed, with their new values, in
/// ascending index. [`vxm_accumulate`]'s general method, and the distributed one's
/// last step (`crate::dist::algebra::vxm_accumulate`).
pub(crate) fn combine_changed<M, Z>(add: M, t: &Vector<Z>, w: &mut [Z]) -> Vector<Z>
where
    M: Monoid<Z>,
    Z: Scalar,
{
    let n = w.len();
    debug_assert_eq!(t.len(), n);
    let t = entries(t);
    let (mut idx, mut val) = (Vec::new(), Vec::new());
    for (&j, &x) in t.indices().iter().zip(t.values()) {
        let old = w[j as usize];
        let new = add.combine(old, x);
        if differs(&new, &old) {
            w[j as usize] = new;
            idx.push(j);
            val.push(new);
        }
    }
    // SAFETY: a subsequence of t's indices, which strictly increase below n.
    Vector::Sparse(unsafe { SparseVector::new_unchecked(n, idx, val) })
}

/// The in-place method: terms combined straight into `w`, viewed as atomic words `W`.
/// The caller has checked that `S::Output` is a primitive number of `W`'s size and
/// alignment and that the monoid is order-free.
fn in_place<S, A, U, W>(s: S, u: &Vector<U>, a: &Csr<A>, w: &mut [S::Output]) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
    W: Word,
{
    let n = w.len();
    let add = s.add();
    let u = entries(u);
    let (ks, us) = (u.indices(), u.values());
    let deg = |k: Index| a.degree(k as usize);
    let work: usize = ks.iter().map(|&k| deg(k)).sum();
    let threads = rayon::current_num_threads();

    if work < 4 * SEQUENTIAL_WORK || threads == 1 {
        // One thread: plain loads and stores; the changed indices sorted at the end.
        let mut changed = Vec::new();
        let slots = w.as_ptr();
        let ahead = |j: Index| prefetch(slots.wrapping_add(j as usize));
        scan_terms_ahead(
            &s,
            a,
            Entries::Sparse(ks, us),
            0..ks.len(),
            &|_| true,
            &ahead,
            &mut |j, term| {
                let old = w[j as usize];
                let new = add.combine(old, term);
                if differs(&new, &old) {
                    w[j as usize] = new;
                    changed.push(j);
                }
            },
        );
        changed.sort_unstable();
        changed.dedup();
        let vals = changed.iter().map(|&j| w[j as usize]).collect();
        // SAFETY: sorted, deduplicated column indices < n.
        return Vector::Sparse(unsafe { SparseVector::new_unchecked(n, changed, vals) });
    }

    let words: &[W] = as_words(w);
    // The bits of the listed indices: kept zeroed between calls and reused, since a
    // fresh one per call costs a page fault per 4 KiB.
    let mut listed = LISTED.with(|l| std::mem::take(&mut *l.borrow_mut()));
    if listed.len() < n.div_ceil(64) {
        listed = (0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    }

    // Chunks of u's entries of about equal terms.
    let bounds = chunk_bounds(ks, deg, CHUNK_TERMS.max(work / (threads * 8)));
    let lists: Vec<Vec<Index>> = bounds
        .par_windows(2)
        .map(|r| {
            let mut mine = Vec::new();
            let ahead = |j: Index| prefetch(words.as_ptr().wrapping_add(j as usize));
            scan_terms_ahead(
                &s,
                a,
                Entries::Sparse(ks, us),
                r[0]..r[1],
                &|_| true,
                &ahead,
                &mut |j, term| {
                    // SAFETY: `as_words` checked that S::Output is a primitive of W's size.
                    if unsafe { combine_shared(&add, &words[j as usize], term) } {
                        let bit = 1u64 << (j & 63);
                        let prev = listed[j as usize >> 6].fetch_or(bit, Ordering::Relaxed);
                        if prev & bit == 0 {
                            mine.push(j);
                        }
                    }
                },
            );
            mine
        })
        .collect();
    // The changed indices in order, their bits cleared.
    let mut changed = lists.concat();
    take_sorted(&listed[..n.div_ceil(64)], &mut changed);
    LISTED.with(|l| *l.borrow_mut() = listed);
    let vals = changed.iter().map(|&j| w[j as usize]).collect();
    // SAFETY: each index listed once (the first to set its bit), sorted, < n.
    Vector::Sparse(unsafe { SparseVector::new_unchecked(n, changed, vals) })
}

/// Combines `term` into the atomic word `cell` (`z = z (+) term`) by compare-and-swap,
/// from one of several threads; whether this call changed the value (two NaNs are the
/// same value).
///
/// # Safety
/// `Z` is a primitive number of `W`'s size, as [`as_words`] checks.
#[inline(always)]
pub(crate) unsafe fn combine_shared<Z: Scalar, W: Word>(
    add: &impl Monoid<Z>,
    cell: &W,
    term: Z,
) -> bool {
    let mut old = cell.load();
    loop {
        // SAFETY: the caller's contract.
        let o = unsafe { from_bits::<Z, W>(old) };
        let new = add.combine(o, term);
        if !differs(&new, &o) {
            return false;
        }
        // SAFETY: as above.
        match cell.swap_if(old, unsafe { to_bits::<Z, W>(new) }) {
            Ok(()) => return true,
            Err(now) => old = now,
        }
    }
}

/// Puts `list`, the indices whose bits are set in `bits`, in index order and clears
/// their bits: read off the bits when the list is long (O(bits / 64)), else sorted.
pub(crate) fn take_sorted(bits: &[AtomicU64], list: &mut Vec<Index>) {
    if list.len().saturating_mul(16) >= bits.len() * 64 {
        const WORDS: usize = 1 << 10;
        *list = bits
            .par_chunks(WORDS)
            .enumerate()
            .flat_map_iter(|(c, part)| {
                part.iter().enumerate().flat_map(move |(i, word)| {
                    let mut b = word.swap(0, Ordering::Relaxed);
                    std::iter::from_fn(move || {
                        (b != 0).then(|| {
                            let j = ((c * WORDS + i) * 64) as Index + b.trailing_zeros();
                            b &= b - 1;
                            j
                        })
                    })
                })
            })
            .collect();
    } else {
        if list.len() >= SEQUENTIAL_WORK {
            list.par_sort_unstable();
        } else {
            list.sort_unstable();
        }
        for &j in list.iter() {
            bits[j as usize >> 6].store(0, Ordering::Relaxed);
        }
    }
}
