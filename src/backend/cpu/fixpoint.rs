//! Rounds of `w (+)= f (+).(x) A` until nothing changes: each round's frontier `f` is the
//! entries the round before changed (those `keep` admits), and the result is every entry
//! any round changed. [`crate::ops::vxm_accumulate_fixpoint`] documents the contract.
//!
//! Two methods, the same result:
//! - **in place** when the additive monoid is [order-free](Monoid::order_free) and the
//!   output a 4- or 8-byte primitive number: the rounds run in one loop with no vector
//!   made between them. Two bitmaps (a workspace kept across calls, as SuiteSparse keeps
//!   its `GB_Werk`, and cleared through the lists it marks) say whether an index joined
//!   this round's list of changes and whether it changed in any round of the call, so a
//!   round costs its terms and its changes, not `n` (O(n / 64) only to read a round's
//!   changes off the bits when they are a sixteenth of `n` or more). A large frontier
//!   goes on in index order, a small one as found. A round with few terms runs on the
//!   calling thread with plain loads and stores; a large one runs on every thread with
//!   compare-and-swap, as [`super::accumulate`]'s in-place method does. Since the
//!   monoid's result does not depend on the order of its terms, neither do the rounds;
//! - **by rounds** otherwise: [`super::accumulate::vxm_accumulate`] once a round.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::accumulate::{combine_shared, differs, take_sorted, vxm_accumulate};
use super::terms::{CHUNK_TERMS, Entries, chunk_bounds, entries, scan_terms_ahead};
use super::words::{Width, Word, as_words, atomic_width};
use super::{PREFETCH_AHEAD, SEQUENTIAL_WORK, prefetch};
use crate::algebra::{Index, Monoid, Scalar, Semiring};
use crate::matrix::Csr;
use crate::vector::{SparseVector, Vector};

/// What [`vxm_accumulate_fixpoint`] did.
pub(crate) struct Rounds<Z> {
    /// Every entry of `w` that some round changed, with its final value, in ascending
    /// index.
    pub(crate) changed: Vector<Z>,
    /// The rounds run (products formed), `0` for an empty frontier.
    pub(crate) rounds: usize,
    /// Whether the last round's frontier came out empty (else `max_rounds` stopped it).
    pub(crate) converged: bool,
}

/// The bitmaps of [`in_place`], all zero between calls: `round` marks the indices listed
/// as changed in the running round, `call` those listed in any round of the call.
struct Marks {
    round: Vec<AtomicU64>,
    call: Vec<AtomicU64>,
}

thread_local! {
    /// The calling thread's bitmaps, kept between calls (a fresh pair per call would cost
    /// a page fault per 4 KiB of them).
    static MARKS: RefCell<Marks> = const { RefCell::new(Marks { round: Vec::new(), call: Vec::new() }) };
}

/// How many frontier entries ahead the one-thread round asks for a row's start (twice
/// this) and its columns and values (this): a road graph's rows are two or three arcs
/// long, so the prefetch within a row alone does not hide the miss on the next row.
const ROWS_AHEAD: usize = 8;

/// From this many changes on, a round's frontier goes on in index order.
const SORTED_FRONTIER: usize = 4096;

/// Rounds of `c = w (+)= f (+).(x) A` (the changed entries), `f = c` filtered by `keep`,
/// from `f = u`, until `f` is empty or `max_rounds` rounds ran.
pub(crate) fn vxm_accumulate_fixpoint<S, A, Z>(
    s: S,
    u: &Vector<Z>,
    a: &Csr<A>,
    w: &mut [Z],
    keep: &(impl Fn(Index, Z) -> bool + Sync),
    max_rounds: usize,
) -> Rounds<Z>
where
    S: Semiring<A, Z, Output = Z>,
    A: Scalar,
    Z: Scalar,
{
    if s.add().order_free() {
        match atomic_width::<Z>() {
            Some(Width::W64) => {
                return in_place::<S, A, Z, AtomicU64>(s, u, a, w, keep, max_rounds);
            }
            Some(Width::W32) => {
                return in_place::<S, A, Z, AtomicU32>(s, u, a, w, keep, max_rounds);
            }
            None => {}
        }
    }
    by_rounds(s, u, a, w, keep, max_rounds)
}

/// The general method: one [`vxm_accumulate`] a round.
fn by_rounds<S, A, Z>(
    s: S,
    u: &Vector<Z>,
    a: &Csr<A>,
    w: &mut [Z],
    keep: &(impl Fn(Index, Z) -> bool + Sync),
    max_rounds: usize,
) -> Rounds<Z>
where
    S: Semiring<A, Z, Output = Z>,
    A: Scalar,
    Z: Scalar,
{
    let n = w.len();
    let mut all: Vec<Index> = Vec::new();
    let mut f = entries(u).into_owned();
    let mut rounds = 0;
    while f.nvals() > 0 && rounds < max_rounds {
        rounds += 1;
        let c = vxm_accumulate(s, &Vector::Sparse(f), a, w);
        let c = entries(&c).into_owned();
        all.extend_from_slice(c.indices());
        let (mut ks, mut vs) = (Vec::new(), Vec::new());
        for (&j, &x) in c.indices().iter().zip(c.values()) {
            if keep(j, x) {
                ks.push(j);
                vs.push(x);
            }
        }
        // SAFETY: a subsequence of c's sorted indices below n.
        f = unsafe { SparseVector::new_unchecked(n, ks, vs) };
    }
    let converged = f.nvals() == 0;
    all.sort_unstable();
    all.dedup();
    let vals = all.iter().map(|&j| w[j as usize]).collect();
    Rounds {
        // SAFETY: sorted, deduplicated indices below n.
        changed: Vector::Sparse(unsafe { SparseVector::new_unchecked(n, all, vals) }),
        rounds,
        converged,
    }
}

/// Sets `j`'s bit in `bits` (plain loads and stores: one thread); whether it was clear.
#[inline(always)]
fn mark(bits: &[AtomicU64], j: Index) -> bool {
    let (word, bit) = (&bits[j as usize >> 6], 1u64 << (j & 63));
    let b = word.load(Ordering::Relaxed);
    if b & bit == 0 {
        word.store(b | bit, Ordering::Relaxed);
        true
    } else {
        false
    }
}

/// Sets `j`'s bit in `bits` from one of several threads; whether this call set it.
#[inline(always)]
fn mark_shared(bits: &[AtomicU64], j: Index) -> bool {
    let (word, bit) = (&bits[j as usize >> 6], 1u64 << (j & 63));
    word.load(Ordering::Relaxed) & bit == 0 && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
}

/// The in-place method, `w` viewed as atomic words `W` in the rounds large enough to
/// share out. The caller has checked that `Z` is a primitive number of `W`'s size and
/// that the monoid is order-free.
fn in_place<S, A, Z, W>(
    s: S,
    u: &Vector<Z>,
    a: &Csr<A>,
    w: &mut [Z],
    keep: &(impl Fn(Index, Z) -> bool + Sync),
    max_rounds: usize,
) -> Rounds<Z>
where
    S: Semiring<A, Z, Output = Z>,
    A: Scalar,
    Z: Scalar,
    W: Word,
{
    let n = w.len();
    let add = s.add();
    let threads = rayon::current_num_threads();
    let (offsets, cols, vals) = (a.offsets(), a.indices(), a.values());
    let deg = |k: Index| a.degree(k as usize);

    let mut marks = MARKS.with(|m| {
        std::mem::replace(
            &mut *m.borrow_mut(),
            Marks {
                round: Vec::new(),
                call: Vec::new(),
            },
        )
    });
    let words_n = n.div_ceil(64);
    if marks.round.len() < words_n {
        marks.round = (0..words_n).map(|_| AtomicU64::new(0)).collect();
        marks.call = (0..words_n).map(|_| AtomicU64::new(0)).collect();
    }
    let (round_bits, call_bits) = (&marks.round[..words_n], &marks.call[..words_n]);

    let (mut fk, mut fv): (Vec<Index>, Vec<Z>) = {
        let u = entries(u);
        (u.indices().to_vec(), u.values().to_vec())
    };
    let mut all: Vec<Index> = Vec::new();
    let mut next: Vec<Index> = Vec::new();
    let mut rounds = 0;
    while !fk.is_empty() && rounds < max_rounds {
        rounds += 1;
        next.clear();
        let work: usize = if threads == 1 {
            0
        } else {
            fk.iter().map(|&k| deg(k)).sum()
        };
        if work < 4 * SEQUENTIAL_WORK {
            // One thread: plain loads and stores, the rows ahead asked for early.
            let row = |k: Index| offsets[k as usize] as usize..offsets[k as usize + 1] as usize;
            for p in 0..fk.len() {
                if let Some(&k2) = fk.get(p + 2 * ROWS_AHEAD) {
                    prefetch(offsets.as_ptr().wrapping_add(k2 as usize));
                }
                if let Some(&k1) = fk.get(p + ROWS_AHEAD) {
                    let s1 = offsets[k1 as usize] as usize;
                    prefetch(cols.as_ptr().wrapping_add(s1));
                    prefetch(vals.as_ptr().wrapping_add(s1));
                }
                if let Some(&k0) = fk.get(p + ROWS_AHEAD / 2) {
                    for &j in cols[row(k0)].iter().take(PREFETCH_AHEAD) {
                        prefetch(w.as_ptr().wrapping_add(j as usize));
                    }
                }
                let (k, x) = (fk[p], fv[p]);
                let r = row(k);
                let end = r.end;
                for t in r {
                    if t + PREFETCH_AHEAD < end {
                        prefetch(w.as_ptr().wrapping_add(cols[t + PREFETCH_AHEAD] as usize));
                    }
                    let j = cols[t];
                    let old = w[j as usize];
                    let new = add.combine(old, s.multiply(vals[t], x, k));
                    if differs(&new, &old) {
                        w[j as usize] = new;
                        if mark(round_bits, j) {
                            next.push(j);
                            if mark(call_bits, j) {
                                all.push(j);
                            }
                        }
                    }
                }
            }
        } else {
            let words: &[W] = as_words(w);
            let bounds = chunk_bounds(&fk, deg, CHUNK_TERMS.max(work / (threads * 8)));
            let lists: Vec<(Vec<Index>, Vec<Index>)> = bounds
                .par_windows(2)
                .map(|r| {
                    let (mut mine, mut first) = (Vec::new(), Vec::new());
                    let ahead = |j: Index| prefetch(words.as_ptr().wrapping_add(j as usize));
                    scan_terms_ahead(
                        &s,
                        a,
                        Entries::Sparse(&fk, &fv),
                        r[0]..r[1],
                        &|_| true,
                        &ahead,
                        &mut |j, term| {
                            // SAFETY: `as_words` checked that Z is a primitive of W's size.
                            if unsafe { combine_shared(&add, &words[j as usize], term) }
                                && mark_shared(round_bits, j)
                            {
                                mine.push(j);
                                if mark_shared(call_bits, j) {
                                    first.push(j);
                                }
                            }
                        },
                    );
                    (mine, first)
                })
                .collect();
            for (mine, first) in lists {
                next.extend_from_slice(&mine);
                all.extend_from_slice(&first);
            }
        }
        // The next frontier: this round's changes with their values after it, the
        // round's bits cleared for the next. A large one in index order, so that the
        // next round reads the rows in order (on a Kronecker graph half the time of a
        // round in the order of discovery); a small one as found (sorting a road graph's
        // rounds of a few hundred costs more than it saves).
        if next.len() >= SORTED_FRONTIER {
            take_sorted(round_bits, &mut next);
        } else {
            for &j in &next {
                round_bits[j as usize >> 6].store(0, Ordering::Relaxed);
            }
        }
        fk.clear();
        fv.clear();
        for &j in &next {
            let x = w[j as usize];
            if keep(j, x) {
                fk.push(j);
                fv.push(x);
            }
        }
    }
    let converged = fk.is_empty();
    let changed = collect(call_bits, w, all);
    MARKS.with(|m| *m.borrow_mut() = marks);
    Rounds {
        changed,
        rounds,
        converged,
    }
}

/// The entries changed in the call, whose bits are set in `bits` (cleared here), in
/// index order.
fn collect<Z: Scalar>(bits: &[AtomicU64], w: &[Z], mut all: Vec<Index>) -> Vector<Z> {
    let n = w.len();
    take_sorted(bits, &mut all);
    let vals = all.iter().map(|&j| w[j as usize]).collect();
    // SAFETY: each index listed once (when its bit was first set), sorted, < n.
    Vector::Sparse(unsafe { SparseVector::new_unchecked(n, all, vals) })
}
