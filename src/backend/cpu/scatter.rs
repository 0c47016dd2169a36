//! Scatter: a big push under an [order-free](Monoid::order_free) monoid (MIN, MAX) into
//! a 4- or 8-byte primitive output, cut by `u`'s entries instead of by output columns.
//! Each thread walks its own rows once and combines every term straight into the
//! result's slot with a compare-and-swap; a presence bit per output says which slots
//! got a term (a term equal to the identity still counts).
//!
//! The slots start at the monoid's identity, so a slot ends as the monoid's sum of its
//! terms in whatever order they came. That is the same value as the ascending-`k` sum of
//! the other methods, and the same bytes unless two of an output's terms are equal as
//! values but not as bits (`0.0` and `-0.0`, where the first to arrive stays) or a term
//! is NaN (MIN ignores it, but an output whose terms are all NaN is the last of them in
//! order, where the slot would keep the identity): then the product is redone by the
//! column push. Integers never take that way back.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::SEQUENTIAL_WORK;
use super::accumulate::{CHUNK_TERMS, Width, Word, as_words, atomic_width, from_bits, to_bits};
use super::push::{Entries, by_fill, chunk_bounds_by};
use crate::algebra::{Monoid, Scalar, Semiring};
use crate::descriptor::Mask;
use crate::matrix::Csr;
use crate::vector::{BitmapVector, Vector};

/// Whether [`push_scatter`] can compute `u (+).(x) A` under this semiring.
pub(crate) fn eligible<S, A, U>(s: &S) -> bool
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    s.add().order_free() && atomic_width::<S::Output>().is_some()
}

/// `t<m> = u (+).(x) A` by scatter over the rows of `u`'s entries, or `None` when an
/// output's terms were ties of different bits or NaN (see the module's comment). The
/// caller has checked [`eligible`].
pub(crate) fn push_scatter<S, A, U>(
    s: &S,
    rows: Entries<'_, U>,
    a: &Csr<A>,
    mask: Option<&Mask>,
    work: usize,
) -> Option<Vector<S::Output>>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    match atomic_width::<S::Output>() {
        Some(Width::W64) => scatter::<S, A, U, AtomicU64>(s, rows, a, mask, work),
        Some(Width::W32) => scatter::<S, A, U, AtomicU32>(s, rows, a, mask, work),
        None => unreachable!("push_scatter called on an ineligible output type"),
    }
}

fn scatter<S, A, U, W>(
    s: &S,
    rows: Entries<'_, U>,
    a: &Csr<A>,
    mask: Option<&Mask>,
    work: usize,
) -> Option<Vector<S::Output>>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
    W: Word,
{
    let n = a.ncols();
    let add = s.add();
    let identity = add.identity();
    let mut slots: Vec<S::Output> = vec![identity; n];
    let mut bits: Vec<u64> = vec![0; n.div_ceil(64)];
    let words: &[W] = as_words(&mut slots);
    let present: &[AtomicU64] = as_words(&mut bits);
    // SAFETY: `as_words` just checked that S::Output is a primitive of W's size.
    let to_bits = |z| unsafe { to_bits::<S::Output, W>(z) };
    let from_bits = |b| unsafe { from_bits::<S::Output, W>(b) };
    let allowed_words = mask.map(|m| m.allowed_words());
    let order_matters = AtomicBool::new(false);
    let offsets = a.offsets();
    let (cols_all, vals_all) = (a.indices(), a.values());

    let run = |lo: usize, hi: usize| {
        let mut tie = false;
        for p in lo..hi {
            let (k, uk) = rows.get(p);
            let (s0, e0) = (
                offsets[k as usize] as usize,
                offsets[k as usize + 1] as usize,
            );
            for (&j, &x) in cols_all[s0..e0].iter().zip(&vals_all[s0..e0]) {
                let j = j as usize;
                if let Some(w) = &allowed_words
                    && (w[j >> 6] >> (j & 63)) & 1 == 0
                {
                    continue;
                }
                let z = s.multiply(x, uk, k);
                let bit = 1u64 << (j & 63);
                let word = &present[j >> 6];
                if word.load(Ordering::Relaxed) & bit == 0 {
                    word.fetch_or(bit, Ordering::Relaxed);
                }
                let cell = &words[j];
                let mut old = cell.load();
                loop {
                    let o = from_bits(old);
                    let new = add.combine(o, z);
                    let nb = to_bits(new);
                    if nb == old {
                        // No change. A term equal to the slot in value but not in bits
                        // (0.0 and -0.0), or a NaN anywhere, makes the order matter.
                        #[allow(clippy::eq_op)]
                        let nan = z != z || o != o;
                        tie |= nan || (z == o && to_bits(z) != old);
                        break;
                    }
                    match cell.swap_if(old, nb) {
                        Ok(()) => break,
                        Err(now) => old = now,
                    }
                }
            }
        }
        if tie {
            order_matters.store(true, Ordering::Relaxed);
        }
    };
    let nu = rows.len();
    let threads = rayon::current_num_threads();
    if work < SEQUENTIAL_WORK || threads == 1 {
        run(0, nu);
    } else {
        // Chunks of about equal terms; any cut gives the same result.
        let bounds = chunk_bounds_by(
            nu,
            |p| a.degree(rows.get(p).0 as usize),
            CHUNK_TERMS.max(work / (threads * 8)),
        );
        bounds.par_windows(2).for_each(|r| run(r[0], r[1]));
    }
    if order_matters.load(Ordering::Relaxed) {
        return None;
    }
    Some(by_fill(BitmapVector::from_parts(n, bits, slots)))
}
