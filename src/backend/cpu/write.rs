//! The masked write-back `w<m> = w (.) t` that ends every operation (GraphBLAS semantics):
//! `z = accum ? w (.) t (union) : t`; then `w(i) = z(i)` where the mask allows `i`, and
//! elsewhere `w(i)` is kept (or deleted under replace).

use std::borrow::Cow;

use crate::algebra::{Accum, BinaryOp, Index, Scalar};
use crate::descriptor::{Mask, MaskSet};
use crate::vector::{BitmapVector, SparseVector, Vector};

/// [`write_back`] of a `t` the caller only borrows (`assign`'s `u`): the in-place cases
/// read it where it is, the others take a copy.
pub(crate) fn write_back_borrowed<Z: Scalar>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    accum: Accum<'_, Z>,
    t: &Vector<Z>,
    replace: bool,
) {
    write_back_cow(w, mask, accum, Cow::Borrowed(t), false, replace);
}

/// Writes the computed result `t` into `w`.
///
/// `t_masked` says that `t` has entries only where the mask allows (the products compute
/// nothing elsewhere), which lets the common cases skip every index `t` does not touch.
pub(crate) fn write_back<Z: Scalar>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    accum: Accum<'_, Z>,
    t: Vector<Z>,
    t_masked: bool,
    replace: bool,
) {
    write_back_cow(w, mask, accum, Cow::Owned(t), t_masked, replace);
}

/// [`write_back`] of an owned or a borrowed `t`: only the cases that keep `t` as (part
/// of) the result take it, copying a borrowed one.
fn write_back_cow<Z: Scalar>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    accum: Accum<'_, Z>,
    t: Cow<'_, Vector<Z>>,
    t_masked: bool,
    replace: bool,
) {
    debug_assert_eq!(w.len(), t.len());
    // w = t: no accumulator, and nothing of the old w survives.
    if accum.is_none()
        && match mask {
            None => true,
            Some(_) => t_masked && (replace || w.nvals() == 0),
        }
    {
        *w = t.into_owned();
        return;
    }
    // w = t restricted to the mask: no accumulator, and nothing of the old w survives.
    if accum.is_none()
        && let Some(m) = mask
        && (replace || w.nvals() == 0)
    {
        *w = restrict(t.into_owned(), m);
        return;
    }
    if !replace && !matches!(w, Vector::Sparse(_)) {
        match accum {
            Some(op) => return accumulate_in_place(w, mask, op, &t),
            None => {
                if let Some(m) = mask
                    && !m.is_complemented()
                {
                    return assign_in_place(w, m, &t);
                }
            }
        }
    }
    merge(w, mask, accum, &t, replace);
}

/// The entries of `t` the mask allows, as whole words of presence bits where `t` is a
/// bitmap or dense (O(n / 64) plus its values, which are moved, not copied), by one walk
/// where `t` is sparse. The result is sparse below 2% fill.
fn restrict<Z: Scalar>(t: Vector<Z>, m: &Mask) -> Vector<Z> {
    let n = t.len();
    let out = match t {
        Vector::Sparse(ts) => {
            let (idx, vals): (Vec<Index>, Vec<Z>) = match m.set() {
                MaskSet::Sorted(s) if !m.is_complemented() => {
                    let mut p = 0;
                    ts.iter()
                        .filter(|&(i, _)| {
                            while p < s.len() && s[p] < i {
                                p += 1;
                            }
                            p < s.len() && s[p] == i
                        })
                        .unzip()
                }
                _ => ts.iter().filter(|&(i, _)| m.allows(i as usize)).unzip(),
            };
            // SAFETY: a subsequence of t's strictly increasing indices, all below n.
            return Vector::Sparse(unsafe { SparseVector::new_unchecked(n, idx, vals) });
        }
        Vector::Bitmap(tb) => {
            let allowed = m.allowed_words();
            let (mut bits, values) = tb.into_parts();
            bits.iter_mut()
                .zip(allowed.iter())
                .for_each(|(b, a)| *b &= a);
            BitmapVector::from_parts(n, bits, values)
        }
        Vector::Dense(td) => {
            if matches!(m.set(), MaskSet::All) && !m.is_complemented() {
                return Vector::Dense(td);
            }
            BitmapVector::from_parts(n, m.allowed_words().into_owned(), td.into_vec())
        }
    };
    if out.nvals() == n {
        Vector::Dense(crate::vector::DenseVector::from_vec(out.into_parts().1))
    } else if out.nvals().saturating_mul(50) <= n {
        Vector::Sparse(out.to_sparse())
    } else {
        Vector::Bitmap(out)
    }
}

/// `w<m> (.)= t` for a bitmap or dense `w`: only the entries of `t` change anything.
fn accumulate_in_place<Z: Scalar>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    op: &dyn BinaryOp<Z, Z, Output = Z>,
    t: &Vector<Z>,
) {
    // A sorted mask over a sparse t is walked along t (both ascending), not searched.
    if let (Some(m), Vector::Sparse(ts)) = (mask, t)
        && let MaskSet::Sorted(s) = m.set()
        && !m.is_complemented()
    {
        // The mask is t's own structure (`w<s(t)> (.)= t`): it allows every entry.
        if s[..] == *ts.indices() {
            return accumulate_in_place(w, None, op, t);
        }
        let mut p = 0;
        let (idx, vals): (Vec<Index>, Vec<Z>) = ts
            .iter()
            .filter(|&(i, _)| {
                while p < s.len() && s[p] < i {
                    p += 1;
                }
                p < s.len() && s[p] == i
            })
            .unzip();
        // SAFETY: a subsequence of t's strictly increasing indices, all below its length.
        let kept = Vector::Sparse(unsafe { SparseVector::new_unchecked(t.len(), idx, vals) });
        return accumulate_in_place(w, None, op, &kept);
    }
    let allowed = |i: usize| mask.is_none_or(|m| m.allows(i));
    if mask.is_none()
        && let Vector::Dense(d) = w
    {
        return accumulate_dense(d.as_mut_slice(), op, t, |_, x| x);
    }
    match w {
        Vector::Dense(d) => {
            let s = d.as_mut_slice();
            for_each_entry(t, |i, x| {
                if allowed(i) {
                    s[i] = op.apply(s[i], x);
                }
            });
        }
        Vector::Bitmap(b) => {
            for_each_entry(t, |i, x| {
                if allowed(i) {
                    let z = match b.get(i) {
                        Some(old) => op.apply(old, x),
                        None => x,
                    };
                    b.set(i, z);
                }
            });
        }
        Vector::Sparse(_) => unreachable!("sparse outputs take the merge path"),
    }
}

/// `w(i) = op(w(i), f(i, u(i)))` for every entry of `u`, on a dense `w` in place: the
/// write-back of an accumulated operation with no mask, and an apply fused with it (no
/// vector in between). `op` is called once per 64 entries over whole words of a dense or
/// bitmap `u` (through `dyn BinaryOp`, one dynamic call per slice).
pub(crate) fn accumulate_dense<T: Scalar, Z: Scalar>(
    w: &mut [Z],
    op: &dyn BinaryOp<Z, Z, Output = Z>,
    u: &Vector<T>,
    f: impl Fn(Index, T) -> Z + Sync,
) {
    use rayon::prelude::*;
    /// Indices per parallel block: a multiple of 64, so blocks hold whole bitmap words.
    const BLOCK: usize = 1 << 14;
    let par = w.len() >= 4 * BLOCK;
    // Entries lo..lo + len (len <= 64) of a dense run of u, through f, into `a`.
    let run = |a: &mut [Z], vals: &[T], lo: usize| {
        let mut buf = [Z::default(); 64];
        for (k, (b, &x)) in buf.iter_mut().zip(vals).enumerate() {
            *b = f((lo + k) as Index, x);
        }
        op.accumulate_slice(a, &buf[..a.len()]);
    };
    match u {
        Vector::Dense(ud) => {
            let us = ud.as_slice();
            let block = |(bi, a): (usize, &mut [Z])| {
                let base = bi * BLOCK;
                for (c, a64) in a.chunks_mut(64).enumerate() {
                    let lo = base + 64 * c;
                    run(a64, &us[lo..lo + a64.len()], lo);
                }
            };
            if par {
                w.par_chunks_mut(BLOCK).enumerate().for_each(block);
            } else {
                block((0, w));
            }
        }
        Vector::Bitmap(b) => {
            let (bits, vals) = (b.bits(), b.values());
            let block = |(bi, a): (usize, &mut [Z])| {
                let base = bi * BLOCK;
                for (k, &word) in bits[base / 64..(base + a.len()).div_ceil(64)]
                    .iter()
                    .enumerate()
                {
                    let lo = k * 64;
                    if word == u64::MAX && lo + 64 <= a.len() {
                        let at = base + lo;
                        run(&mut a[lo..lo + 64], &vals[at..at + 64], at);
                        continue;
                    }
                    let mut x = word;
                    while x != 0 {
                        let i = lo + x.trailing_zeros() as usize;
                        a[i] = op.apply(a[i], f((base + i) as Index, vals[base + i]));
                        x &= x - 1;
                    }
                }
            };
            if par {
                w.par_chunks_mut(BLOCK).enumerate().for_each(block);
            } else {
                block((0, w));
            }
        }
        Vector::Sparse(s) => {
            for (i, x) in s.iter() {
                let i = i as usize;
                w[i] = op.apply(w[i], f(i as Index, x));
            }
        }
    }
}

/// `w<m> = t` (no accumulator, mask not complemented, no replace) for a bitmap or dense
/// `w`: only the indices the mask names change.
fn assign_in_place<Z: Scalar>(w: &mut Vector<Z>, m: &Mask, t: &Vector<Z>) {
    // A dense w stays dense when t has an entry wherever a sparse mask allows: then the
    // write costs the mask's entries, not a conversion of w (O(n)) and back.
    if let (Vector::Dense(d), MaskSet::Sorted(s)) = (&mut *w, m.set()) {
        // t's value at each of the mask's (sorted) indices, by one merge walk when t
        // is sparse; None as soon as one is missing.
        let picked: Option<Vec<Z>> = match t {
            Vector::Sparse(ts) => {
                let (ti, tv) = (ts.indices(), ts.values());
                let mut p = 0;
                s.iter()
                    .map(|&i| {
                        while p < ti.len() && ti[p] < i {
                            p += 1;
                        }
                        (p < ti.len() && ti[p] == i).then(|| tv[p])
                    })
                    .collect()
            }
            _ => s.iter().map(|&i| t.get(i as usize)).collect(),
        };
        if let Some(vals) = picked {
            let out = d.as_mut_slice();
            for (&i, x) in s.iter().zip(vals) {
                out[i as usize] = x;
            }
            return;
        }
    }
    let mut b = match std::mem::replace(w, Vector::new(0)) {
        Vector::Bitmap(b) => b,
        other => other.into_bitmap(),
    };
    let mut visit = |i: usize| match t.get(i) {
        Some(x) => b.set(i, x),
        None => b.remove(i),
    };
    match m.set() {
        MaskSet::All => (0..m.len()).for_each(&mut visit),
        MaskSet::Sorted(s) => s.iter().for_each(|&i| visit(i as usize)),
        MaskSet::Bits(bits) => {
            for (wi, &word) in bits.iter().enumerate() {
                let mut x = word;
                while x != 0 {
                    visit((wi << 6) | x.trailing_zeros() as usize);
                    x &= x - 1;
                }
            }
        }
    }
    *w = if b.nvals() == b.len() {
        Vector::Dense(b.to_dense(Z::default()))
    } else {
        Vector::Bitmap(b)
    };
}

/// The general case: a sorted merge of the old `w` and `t`, O(nvals(w) + nvals(t)).
fn merge<Z: Scalar>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    accum: Accum<'_, Z>,
    t: &Vector<Z>,
    replace: bool,
) {
    let old = w.to_pairs();
    let new = t.to_pairs();
    let allowed = |i: Index| mask.is_none_or(|m| m.allows(i as usize));
    let mut out: Vec<(Index, Z)> = Vec::with_capacity(old.len().max(new.len()));
    let (mut a, mut b) = (0, 0);
    while a < old.len() || b < new.len() {
        let ia = old.get(a).map_or(Index::MAX as u64 + 1, |e| e.0 as u64);
        let ib = new.get(b).map_or(Index::MAX as u64 + 1, |e| e.0 as u64);
        let i = ia.min(ib) as Index;
        let wi = (ia == i as u64).then(|| old[a].1);
        let ti = (ib == i as u64).then(|| new[b].1);
        a += wi.is_some() as usize;
        b += ti.is_some() as usize;
        let z = match (accum, wi, ti) {
            (Some(op), Some(x), Some(y)) => Some(op.apply(x, y)),
            (Some(_), x, None) => x,
            (_, _, y) => y,
        };
        let keep = if allowed(i) {
            z
        } else if replace {
            None
        } else {
            wi
        };
        if let Some(v) = keep {
            out.push((i, v));
        }
    }
    let len = w.len();
    let (indices, values): (Vec<Index>, Vec<Z>) = out.into_iter().unzip();
    // SAFETY: the merge visits indices in strictly increasing order, all below len.
    let sparse = unsafe { SparseVector::new_unchecked(len, indices, values) };
    *w = match w {
        Vector::Sparse(_) => Vector::Sparse(sparse),
        _ if sparse.nvals() == len => Vector::Dense(sparse.to_dense(Z::default())),
        _ => Vector::Bitmap(BitmapVector::from_sparse(&sparse)),
    };
}

/// Calls `f(i, x)` for every present entry of `v`, in ascending index order.
#[inline]
pub(crate) fn for_each_entry<Z: Scalar>(v: &Vector<Z>, mut f: impl FnMut(usize, Z)) {
    match v {
        Vector::Sparse(s) => s.iter().for_each(|(i, x)| f(i as usize, x)),
        Vector::Bitmap(b) => {
            let vals = b.values();
            for (wi, &word) in b.bits().iter().enumerate() {
                let mut x = word;
                while x != 0 {
                    let i = (wi << 6) | x.trailing_zeros() as usize;
                    f(i, vals[i]);
                    x &= x - 1;
                }
            }
        }
        Vector::Dense(d) => d.as_slice().iter().enumerate().for_each(|(i, &x)| f(i, x)),
    }
}
