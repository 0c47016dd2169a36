//! Scatter: a big push under an [order-free](Monoid::order_free) monoid (MIN, MAX) into
//! a 4- or 8-byte primitive output, cut by `u`'s entries instead of by output columns.
//! Each thread walks its own rows once and combines every term straight into the
//! result's slot with a compare-and-swap; a presence bit per output says which slots
//! got a term (a term equal to the identity still counts). When the product has enough
//! terms (`choose::push`'s rule), each thread has slots of its own instead, combined with
//! plain loads and stores and merged afterwards: no locked instruction, and no cache line
//! traded between cores.
//!
//! The slots start at the monoid's identity, so a slot ends as the monoid's sum of its
//! terms in whatever order they came. That is the same value as the ascending-`k` sum of
//! the other methods, and the same bytes unless two of an output's terms are equal as
//! values but not as bits (`0.0` and `-0.0`: the built-in MIN and MAX keep `-0.0` in any
//! order, but a user's order-free monoid may keep the first to arrive) or a term
//! is NaN (MIN ignores it, but an output whose terms are all NaN is the last of them in
//! order, where the slot would keep the identity): then the product is redone by the
//! column push. Integers never take that way back.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::terms::{CHUNK_TERMS, Entries, by_fill, chunk_bounds_by, scan_terms_ahead};
use super::words::{Width, Word, as_words, atomic_width, from_bits, to_bits};
use super::{SEQUENTIAL_WORK, prefetch};
use crate::algebra::{Index, Monoid, Scalar, Semiring};
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
    private: bool,
) -> Option<Vector<S::Output>>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    match atomic_width::<S::Output>() {
        Some(Width::W64) => scatter::<S, A, U, AtomicU64>(s, rows, a, mask, work, private),
        Some(Width::W32) => scatter::<S, A, U, AtomicU32>(s, rows, a, mask, work, private),
        None => unreachable!("push_scatter called on an ineligible output type"),
    }
}

fn scatter<S, A, U, W>(
    s: &S,
    rows: Entries<'_, U>,
    a: &Csr<A>,
    mask: Option<&Mask>,
    work: usize,
    private: bool,
) -> Option<Vector<S::Output>>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
    W: Word,
{
    let n = a.ncols();
    let threads = rayon::current_num_threads();
    if private {
        return scatter_private::<S, A, U, W>(s, rows, a, mask, work, threads);
    }
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
    let allowed = |j: Index| {
        allowed_words
            .as_ref()
            .is_none_or(|w| (w[j as usize >> 6] >> (j & 63)) & 1 == 1)
    };
    let ahead = |j: Index| prefetch(words.as_ptr().wrapping_add(j as usize));
    let order_matters = AtomicBool::new(false);

    let run = |range: std::ops::Range<usize>| {
        let mut tie = false;
        scan_terms_ahead(s, a, rows, range, &allowed, &ahead, &mut |j, z| {
            let j = j as usize;
            let bit = 1u64 << (j & 63);
            let word = &present[j >> 6];
            if word.load(Ordering::Relaxed) & bit == 0 {
                word.fetch_or(bit, Ordering::Relaxed);
            }
            let cell = &words[j];
            let mut old = cell.load();
            loop {
                let o = from_bits(old);
                tie |= order_shows(z, o, to_bits);
                let nb = to_bits(add.combine(o, z));
                if nb == old {
                    break;
                }
                match cell.swap_if(old, nb) {
                    Ok(()) => break,
                    Err(now) => old = now,
                }
            }
        });
        if tie {
            order_matters.store(true, Ordering::Relaxed);
        }
    };
    if work < SEQUENTIAL_WORK || threads == 1 {
        run(0..rows.len());
    } else {
        // Chunks of about equal terms; any cut gives the same result.
        chunks(rows, a, work, threads)
            .par_windows(2)
            .for_each(|r| run(r[0]..r[1]));
    }
    if order_matters.load(Ordering::Relaxed) {
        return None;
    }
    Some(by_fill(BitmapVector::from_parts(n, bits, slots)))
}

/// Whether the order of arrival could show when term `z` meets slot value `o`: they are
/// equal as values but not in bits (`0.0` and `-0.0`), or one is NaN. Every combine of
/// both scatters, and the merge of private slots, asks it.
#[inline(always)]
fn order_shows<Z: Copy + PartialEq, B: PartialEq>(z: Z, o: Z, bits: impl Fn(Z) -> B) -> bool {
    #[allow(clippy::eq_op)]
    let nan = (z != z) | (o != o);
    nan | ((z == o) & (bits(z) != bits(o)))
}

/// The scatter's chunks of `rows`: runs of about equal terms, in order.
fn chunks<A: Scalar, U: Copy>(
    rows: Entries<'_, U>,
    a: &Csr<A>,
    work: usize,
    threads: usize,
) -> Vec<usize> {
    chunk_bounds_by(
        rows.len(),
        |p| a.degree(rows.get(p).0 as usize),
        CHUNK_TERMS.max(work / (threads * 8)),
    )
}

/// One thread's slots and presence bits.
type Part<T> = (Vec<T>, Vec<u64>);

/// The scatter with slots private to each thread (see `choose::push`'s rule): every chunk of
/// `u`'s entries combines into its thread's slots with plain loads and stores, then the
/// slots are merged output by output. Same result, and same `None`, as the shared form.
fn scatter_private<S, A, U, W>(
    s: &S,
    rows: Entries<'_, U>,
    a: &Csr<A>,
    mask: Option<&Mask>,
    work: usize,
    threads: usize,
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
    let nwords = n.div_ceil(64);
    // SAFETY: the caller (`scatter`, after `eligible`) made sure S::Output is a
    // primitive number of W's size.
    let bits_of = |z| unsafe { to_bits::<S::Output, W>(z) };
    let identity_bits = bits_of(identity);
    // The hot loop stores every combine without a branch and sets a presence bit only
    // for a term equal to the identity (rare): any other term leaves its slot different
    // from the identity, which is how presence is read back afterwards. One copy of it
    // per mask case.
    #[inline(always)]
    fn terms<S, A, U, W>(
        s: &S,
        rows: Entries<'_, U>,
        a: &Csr<A>,
        (slots, bits): &mut Part<S::Output>,
        range: std::ops::Range<usize>,
        allowed: impl Fn(Index) -> bool,
    ) -> bool
    where
        S: Semiring<A, U>,
        A: Scalar,
        U: Scalar,
        W: Word,
    {
        // SAFETY (to_bits): the caller checked that S::Output is a primitive number of
        // W's size.
        let bits_of = |z| unsafe { to_bits::<S::Output, W>(z) };
        let add = s.add();
        let identity_bits = bits_of(add.identity());
        assert_eq!(slots.len(), a.ncols());
        let base = slots.as_ptr();
        let ahead = |j: Index| prefetch(base.wrapping_add(j as usize));
        let mut tie = false;
        scan_terms_ahead(s, a, rows, range, &allowed, &ahead, &mut |j, z| {
            let j = j as usize;
            // SAFETY: a Csr's column indices are below ncols() == slots.len().
            let slot = unsafe { slots.get_unchecked_mut(j) };
            let o = *slot;
            tie |= order_shows(z, o, bits_of);
            *slot = add.combine(o, z);
            if bits_of(z) == identity_bits {
                bits[j >> 6] |= 1u64 << (j & 63);
            }
        });
        tie
    }
    let allowed_words = mask.map(|m| m.allowed_words());
    let run = |part: &mut Part<S::Output>, range: std::ops::Range<usize>| -> bool {
        match &allowed_words {
            Some(w) => terms::<S, A, U, W>(s, rows, a, part, range, |j| {
                (w[j as usize >> 6] >> (j & 63)) & 1 == 1
            }),
            None => terms::<S, A, U, W>(s, rows, a, part, range, |_| true),
        }
    };

    let parts: Vec<Mutex<Option<Part<S::Output>>>> =
        (0..threads).map(|_| Mutex::new(None)).collect();
    let order_matters = AtomicBool::new(false);
    chunks(rows, a, work, threads).par_windows(2).for_each(|r| {
        let t = rayon::current_thread_index().unwrap_or(0) % threads;
        let mut part = parts[t].lock().unwrap_or_else(|e| e.into_inner());
        let part = part.get_or_insert_with(|| (vec![identity; n], vec![0; nwords]));
        if run(part, r[0]..r[1]) {
            order_matters.store(true, Ordering::Relaxed);
        }
    });
    if order_matters.load(Ordering::Relaxed) {
        return None;
    }
    let mut parts: Vec<Part<S::Output>> = parts
        .into_iter()
        .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect();
    let Some((mut slots, mut bits)) = parts.pop() else {
        return Some(Vector::new(n));
    };
    // Merge the other parts into the last, in blocks of 64 K outputs; a slot is present
    // when it differs from the identity or its bit says a term equal to it arrived.
    const BLOCK_WORDS: usize = 1024;
    let tie = slots
        .par_chunks_mut(BLOCK_WORDS * 64)
        .zip(bits.par_chunks_mut(BLOCK_WORDS))
        .enumerate()
        .map(|(b, (slots, bits))| {
            let mut tie = false;
            let o0 = b * BLOCK_WORDS * 64;
            for (other, obits) in &parts {
                for (i, slot) in slots.iter_mut().enumerate() {
                    let z = other[o0 + i];
                    if bits_of(z) == identity_bits {
                        continue;
                    }
                    tie |= order_shows(z, *slot, bits_of);
                    *slot = add.combine(*slot, z);
                }
                for (mine, theirs) in bits.iter_mut().zip(&obits[b * BLOCK_WORDS..]) {
                    *mine |= theirs;
                }
            }
            for (w, word) in bits.iter_mut().enumerate() {
                let end = slots.len().min(w * 64 + 64);
                for (bit, slot) in slots[w * 64..end].iter().enumerate() {
                    *word |= u64::from(bits_of(*slot) != identity_bits) << bit;
                }
            }
            tie
        })
        .reduce(|| false, |x, y| x || y);
    if tie {
        return None;
    }
    Some(by_fill(BitmapVector::from_parts(n, bits, slots)))
}
