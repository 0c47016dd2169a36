//! Element-wise kernels: union (ewise add), intersection (ewise mult), apply, select and
//! reduce. Each returns the unmasked result `t`; the write-back applies mask and accumulator.

use rayon::prelude::*;

use std::sync::atomic::{AtomicU32, AtomicU64};

use super::SEQUENTIAL_WORK;
use super::words::{Width, Word, as_words, atomic_width, from_bits, is_integer, to_bits};
use crate::algebra::{BinaryOp, Index, Monoid, Scalar};
use crate::vector::{BitmapVector, DenseVector, SparseVector, Vector};

/// `t = u (+) v` over the union of the structures: `op(u, v)` where both are present,
/// the one present elsewhere.
pub(crate) fn union<T: Scalar>(
    op: &impl BinaryOp<T, T, Output = T>,
    u: &Vector<T>,
    v: &Vector<T>,
) -> Vector<T> {
    if let (Vector::Dense(a), Vector::Dense(b)) = (u, v) {
        let z = a
            .as_slice()
            .par_iter()
            .zip(b.as_slice())
            .map(|(&x, &y)| op.apply(x, y))
            .collect();
        return Vector::Dense(DenseVector::from_vec(z));
    }
    let (a, b) = (u.to_pairs(), v.to_pairs());
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let (mut p, mut q) = (0, 0);
    while p < a.len() && q < b.len() {
        match a[p].0.cmp(&b[q].0) {
            std::cmp::Ordering::Less => {
                out.push(a[p]);
                p += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[q]);
                q += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push((a[p].0, op.apply(a[p].1, b[q].1)));
                p += 1;
                q += 1;
            }
        }
    }
    out.extend_from_slice(&a[p..]);
    out.extend_from_slice(&b[q..]);
    sparse_from_sorted(u.len(), out)
}

/// `t = u (x) v` over the intersection of the structures.
pub(crate) fn intersection<X: Scalar, Y: Scalar, Z: Scalar>(
    op: &impl BinaryOp<X, Y, Output = Z>,
    u: &Vector<X>,
    v: &Vector<Y>,
) -> Vector<Z> {
    let n = u.len();
    match (u, v) {
        (Vector::Dense(a), Vector::Dense(b)) => {
            let z = a
                .as_slice()
                .par_iter()
                .zip(b.as_slice())
                .map(|(&x, &y)| op.apply(x, y))
                .collect();
            Vector::Dense(DenseVector::from_vec(z))
        }
        // One side sparse: walk it and look the other up (every index of a dense one).
        (Vector::Sparse(a), other) if !matches!(other, Vector::Sparse(_)) => {
            let dense = matches!(other, Vector::Dense(_));
            sparse_lookup(a, dense, |i, x| other.get(i).map(|y| op.apply(x, y)))
        }
        (other, Vector::Sparse(b)) if !matches!(other, Vector::Sparse(_)) => {
            let dense = matches!(other, Vector::Dense(_));
            sparse_lookup(b, dense, |i, y| other.get(i).map(|x| op.apply(x, y)))
        }
        _ => {
            let (a, b) = (u.to_pairs(), v.to_pairs());
            let mut out = Vec::with_capacity(a.len().min(b.len()));
            let (mut p, mut q) = (0, 0);
            while p < a.len() && q < b.len() {
                match a[p].0.cmp(&b[q].0) {
                    std::cmp::Ordering::Less => p += 1,
                    std::cmp::Ordering::Greater => q += 1,
                    std::cmp::Ordering::Equal => {
                        out.push((a[p].0, op.apply(a[p].1, b[q].1)));
                        p += 1;
                        q += 1;
                    }
                }
            }
            sparse_from_sorted(n, out)
        }
    }
}

/// `t(i) = f(i, u(i))` for every present `i`, in `u`'s own form.
pub(crate) fn apply<T: Scalar, Z: Scalar>(
    f: &(impl Fn(Index, T) -> Z + Sync),
    u: &Vector<T>,
) -> Vector<Z> {
    match u {
        Vector::Sparse(s) => {
            let values = if s.nvals() < SEQUENTIAL_WORK {
                s.iter().map(|(i, x)| f(i, x)).collect()
            } else {
                s.indices()
                    .par_iter()
                    .zip(s.values())
                    .map(|(&i, &x)| f(i, x))
                    .collect()
            };
            // SAFETY: same indices as `s`, which satisfies the invariants.
            Vector::Sparse(unsafe {
                SparseVector::new_unchecked(s.len(), s.indices().to_vec(), values)
            })
        }
        Vector::Bitmap(b) => {
            let values = b
                .values()
                .par_iter()
                .enumerate()
                .map(|(i, &x)| {
                    if b.contains(i) {
                        f(i as Index, x)
                    } else {
                        Z::default()
                    }
                })
                .collect();
            Vector::Bitmap(BitmapVector::from_parts(b.len(), b.bits().to_vec(), values))
        }
        Vector::Dense(d) => Vector::Dense(DenseVector::from_vec(
            d.as_slice()
                .par_iter()
                .enumerate()
                .map(|(i, &x)| f(i as Index, x))
                .collect(),
        )),
    }
}

/// `t = u(i) where pred(i, u(i))`, sparse.
pub(crate) fn select<T: Scalar>(
    pred: &(impl Fn(Index, T) -> bool + Sync),
    u: &Vector<T>,
) -> Vector<T> {
    /// Entries (indices of a bitmap or dense `u`) per parallel task: whole bit words.
    const BLOCK: usize = 1 << 14;
    let n = u.len();
    let span = match u {
        Vector::Sparse(s) => s.nvals(),
        _ => n,
    };
    if span < 4 * BLOCK || rayon::current_num_threads() == 1 {
        // one bin: the entries that pass; the others are dropped
        let bin = |i: Index, x: T| usize::from(!pred(i, x));
        return partition(&bin, 1, u).pop().expect("one bin");
    }
    // Blocks of positions (sparse) or of indices (bitmap, dense), each filtered on its
    // own, then joined in order.
    let block = |b: usize| {
        let (lo, hi) = (b * BLOCK, ((b + 1) * BLOCK).min(span));
        let (mut idx, mut val) = (Vec::new(), Vec::new());
        let mut put = |i: Index, x: T| {
            if pred(i, x) {
                idx.push(i);
                val.push(x);
            }
        };
        match u {
            Vector::Sparse(s) => {
                for (&i, &x) in s.indices()[lo..hi].iter().zip(&s.values()[lo..hi]) {
                    put(i, x);
                }
            }
            Vector::Bitmap(bm) => {
                let vals = bm.values();
                for (wi, &word) in bm.bits()[lo / 64..hi.div_ceil(64)].iter().enumerate() {
                    let mut x = word;
                    while x != 0 {
                        let i = lo + wi * 64 + x.trailing_zeros() as usize;
                        put(i as Index, vals[i]);
                        x &= x - 1;
                    }
                }
            }
            Vector::Dense(d) => {
                for (i, &x) in d.as_slice()[lo..hi].iter().enumerate() {
                    put((lo + i) as Index, x);
                }
            }
        }
        (idx, val)
    };
    let parts: Vec<(Vec<Index>, Vec<T>)> = (0..span.div_ceil(BLOCK))
        .into_par_iter()
        .map(block)
        .collect();
    let total = parts.iter().map(|p| p.0.len()).sum();
    let (mut idx, mut val) = (Vec::with_capacity(total), Vec::with_capacity(total));
    for (i, v) in parts {
        idx.extend_from_slice(&i);
        val.extend_from_slice(&v);
    }
    // SAFETY: blocks in order, each a subsequence of u's entries in index order, below n.
    Vector::Sparse(unsafe { SparseVector::new_unchecked(n, idx, val) })
}

/// `out[b]` = the entries of `u` with `bin(i, u(i)) == b`, for `b < bins`, in one pass;
/// an entry whose bin is `bins` or more is dropped.
pub(crate) fn partition<T: Scalar>(
    bin: &impl Fn(Index, T) -> usize,
    bins: usize,
    u: &Vector<T>,
) -> Vec<Vector<T>> {
    let n = u.len();
    let mut idx: Vec<Vec<Index>> = vec![Vec::new(); bins];
    let mut val: Vec<Vec<T>> = vec![Vec::new(); bins];
    let mut put = |i: Index, x: T| {
        let b = bin(i, x);
        if b < bins {
            idx[b].push(i);
            val[b].push(x);
        }
    };
    match u {
        Vector::Sparse(s) => s.iter().for_each(|(i, x)| put(i, x)),
        Vector::Bitmap(b) => b.iter().for_each(|(i, x)| put(i, x)),
        Vector::Dense(d) => d.iter().for_each(|(i, x)| put(i, x)),
    }
    idx.into_iter()
        .zip(val)
        // SAFETY: each bin is a subsequence of u's entries in index order, below n.
        .map(|(i, v)| Vector::Sparse(unsafe { SparseVector::new_unchecked(n, i, v) }))
        .collect()
}

/// The monoid sum of the present entries, in index order; stops at a terminal value.
///
/// A sum starts from its first entry, not from the identity (which it returns only when
/// there is no entry), as the products do: ANY's identity is a placeholder that ANY
/// would keep (`e (+) x = e`), so starting from it would lose every entry.
pub(crate) fn reduce<T: Scalar, M: Monoid<T>>(m: &M, u: &Vector<T>) -> T {
    // The sum of one run of entries, from its first (a generic function, so that each
    // form of `u` gets its own loop rather than a call per entry).
    fn seq<T: Scalar, M: Monoid<T>>(m: &M, mut it: impl Iterator<Item = T>) -> Option<T> {
        let mut acc = it.next()?;
        if m.is_terminal(&acc) {
            return Some(acc);
        }
        for x in it {
            acc = m.combine(acc, x);
            if m.is_terminal(&acc) {
                break;
            }
        }
        Some(acc)
    }
    // Chunk sums in order; `None` (an empty chunk) is the true identity.
    let join = |a: Option<T>, b: Option<T>| match (a, b) {
        (Some(a), Some(b)) => Some(m.combine(a, b)),
        (a, None) => a,
        (None, b) => b,
    };
    let sum = match u {
        Vector::Sparse(s) if s.nvals() < SEQUENTIAL_WORK => seq(m, s.values().iter().copied()),
        Vector::Sparse(s) => s
            .values()
            .par_chunks(SEQUENTIAL_WORK)
            .map(|c| seq(m, c.iter().copied()))
            .reduce(|| None, join),
        Vector::Dense(d) => d
            .as_slice()
            .par_chunks(SEQUENTIAL_WORK)
            .map(|c| seq(m, c.iter().copied()))
            .reduce(|| None, join),
        Vector::Bitmap(b) => b
            .bits()
            .par_chunks(SEQUENTIAL_WORK / 64)
            .enumerate()
            .map(|(c, words)| {
                let base = c * SEQUENTIAL_WORK;
                let vals = b.values();
                seq(
                    m,
                    words.iter().enumerate().flat_map(|(k, &w)| {
                        crate::vector::bit_positions(w)
                            .map(move |p| vals[base + (k << 6) + p as usize])
                    }),
                )
            })
            .reduce(|| None, join),
    };
    sum.unwrap_or_else(|| m.identity())
}

/// `t(i) = f(i, s(i))` for the entries of `s` where that is `Some`, in `s`'s order;
/// `always` promises that it is always `Some` (the other operand is dense), and then
/// the values are computed in parallel for a long `s`. A result with every index is
/// dense.
fn sparse_lookup<T: Scalar, Z: Scalar>(
    s: &SparseVector<T>,
    always: bool,
    f: impl Fn(usize, T) -> Option<Z> + Sync,
) -> Vector<Z> {
    let (indices, values): (Vec<Index>, Vec<Z>) = if always && s.nvals() >= SEQUENTIAL_WORK {
        let values = s
            .indices()
            .par_iter()
            .zip(s.values())
            .map(|(&i, &x)| f(i as usize, x).expect("a dense operand has every index"))
            .collect();
        if s.nvals() == s.len() {
            // Every index: the result is dense (its indices would be 0..n).
            return Vector::Dense(DenseVector::from_vec(values));
        }
        (s.indices().to_vec(), values)
    } else {
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        for (i, x) in s.iter() {
            if let Some(z) = f(i as usize, x) {
                indices.push(i);
                values.push(z);
            }
        }
        if indices.len() == s.len() {
            return Vector::Dense(DenseVector::from_vec(values));
        }
        (indices, values)
    };
    // SAFETY: a subsequence of `s`'s strictly increasing indices, below its length.
    Vector::Sparse(unsafe { SparseVector::new_unchecked(s.len(), indices, values) })
}

fn sparse_from_sorted<T: Scalar>(n: usize, pairs: Vec<(Index, T)>) -> Vector<T> {
    let (indices, values): (Vec<Index>, Vec<T>) = pairs.into_iter().unzip();
    // SAFETY: every caller builds `pairs` in strictly increasing index order, below n.
    Vector::Sparse(unsafe { SparseVector::new_unchecked(n, indices, values) })
}

/// `t(k) = u(list[k])` where present: dense when `u` is dense, sparse otherwise.
pub(crate) fn gather<T: Scalar>(u: &Vector<T>, list: &[Index]) -> Vector<T> {
    if let Vector::Dense(d) = u {
        let s = d.as_slice();
        let values = if list.len() < SEQUENTIAL_WORK {
            list.iter().map(|&i| s[i as usize]).collect()
        } else {
            list.par_iter().map(|&i| s[i as usize]).collect()
        };
        return Vector::Dense(DenseVector::from_vec(values));
    }
    let pairs: Vec<(Index, T)> = list
        .par_iter()
        .enumerate()
        .filter_map(|(k, &i)| u.get(i as usize).map(|x| (k as Index, x)))
        .collect();
    sparse_from_sorted(list.len(), pairs)
}

/// `w(list[k]) = w(list[k]) (+) u(k)` for every present `u(k)`, in ascending `k`; an
/// absent `w(i)` takes the sum of its terms.
pub(crate) fn scatter_reduce<T: Scalar, M: Monoid<T>>(
    m: &M,
    w: &mut Vector<T>,
    u: &Vector<T>,
    list: &[Index],
) {
    if let (Vector::Dense(wd), Vector::Dense(ud)) = (&mut *w, u) {
        let ws = wd.as_mut_slice();
        let us = ud.as_slice();
        // Integers under an order-free monoid: the terms meet in any order, in parallel,
        // with the same bytes (an integer has one bit pattern per value and no NaN).
        if m.order_free() && is_integer::<T>() && parallel_scatter(list.len()) {
            match atomic_width::<T>() {
                Some(Width::W64) => return scatter_in_place::<T, M, AtomicU64>(m, ws, us, list),
                Some(Width::W32) => return scatter_in_place::<T, M, AtomicU32>(m, ws, us, list),
                None => {}
            }
        }
        for (&i, &x) in list.iter().zip(us) {
            ws[i as usize] = m.combine(ws[i as usize], x);
        }
        return;
    }
    // Terms by target index, stable in k; then each target's sum joins w's old value.
    let mut terms: Vec<(Index, T)> = u
        .to_pairs()
        .into_iter()
        .map(|(k, x)| (list[k as usize], x))
        .collect();
    terms.sort_by_key(|&(i, _)| i);
    let mut sums: Vec<(Index, T)> = Vec::with_capacity(terms.len());
    for (i, x) in terms {
        match sums.last_mut() {
            Some((j, s)) if *j == i => *s = m.combine(*s, x),
            _ => sums.push((i, x)),
        }
    }
    if let Vector::Bitmap(b) = w {
        for (i, s) in sums {
            let v = b.get(i as usize).map_or(s, |y| m.combine(y, s));
            b.set(i as usize, v);
        }
        return;
    }
    let old = w.to_pairs();
    let mut merged = Vec::with_capacity(old.len() + sums.len());
    let (mut p, mut q) = (0, 0);
    while p < old.len() || q < sums.len() {
        if q == sums.len() || (p < old.len() && old[p].0 < sums[q].0) {
            merged.push(old[p]);
            p += 1;
        } else if p == old.len() || sums[q].0 < old[p].0 {
            merged.push(sums[q]);
            q += 1;
        } else {
            merged.push((old[p].0, m.combine(old[p].1, sums[q].1)));
            p += 1;
            q += 1;
        }
    }
    *w = sparse_from_sorted(w.len(), merged);
}

/// Whether [`scatter_reduce`] of `terms` terms is worth spreading over the threads.
fn parallel_scatter(terms: usize) -> bool {
    terms >= 4 * SEQUENTIAL_WORK && rayon::current_num_threads() > 1
}

/// `w(I(k)) (+)= u(k)` for every `k`, in parallel chunks of `k`: each term combined
/// into its slot by a compare-and-swap loop (none when it leaves the slot as it is). The
/// caller has checked that the monoid is order-free over an integer type of `W`'s
/// width, so the slots end with the bytes of the sequential loop.
///
/// # Panics
/// If an index is out of bounds for `w` (the caller resolved them against `w.len()`).
fn scatter_in_place<T: Scalar, M: Monoid<T>, W: Word>(m: &M, w: &mut [T], u: &[T], list: &[Index]) {
    let words: &[W] = as_words(w);
    // SAFETY: `as_words` just checked that T is a primitive of W's size.
    let (to_bits, from_bits) = (
        |z| unsafe { to_bits::<T, W>(z) },
        |b| unsafe { from_bits::<T, W>(b) },
    );
    list.par_chunks(SEQUENTIAL_WORK)
        .zip(u.par_chunks(SEQUENTIAL_WORK))
        .for_each(|(is, xs)| {
            for (&i, &x) in is.iter().zip(xs) {
                let cell = &words[i as usize];
                let mut old = cell.load();
                loop {
                    let new = to_bits(m.combine(from_bits(old), x));
                    if new == old {
                        break;
                    }
                    match cell.swap_if(old, new) {
                        Ok(()) => break,
                        Err(now) => old = now,
                    }
                }
            }
        });
}
