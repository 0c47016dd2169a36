//! Pull: `t<m> = A (+).(x) u`, one output row at a time over the row's entries (masked
//! SpMV). A row stops at the monoid's terminal value, or at its first term when the
//! semiring says the first term is the sum: the early exit of bottom-up BFS.

use rayon::prelude::*;

use crate::algebra::{BinaryOp, Index, Monoid, Scalar, Semiring};
use crate::descriptor::{Mask, MaskSet};
use crate::matrix::Csr;
use crate::vector::{BitmapVector, SparseVector, Vector};

/// Rows per parallel task: 16 words of output bits.
const ROWS_PER_TASK: usize = 64 * 16;

/// One output entry: the sum over row `i`'s terms, or `None` when it has none.
#[inline(always)]
fn row_sum<S, A, U>(
    s: &S,
    a: &Csr<A>,
    i: usize,
    get: &impl Fn(usize) -> Option<U>,
) -> Option<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let (cols, vals) = a.row(i);
    let add = s.add();
    // The first present term starts the sum (no identity is assumed: ANY's is a
    // placeholder); the rest add to it with no presence flag in the loop.
    let mut p = 0;
    let mut acc = loop {
        let (&k, &x) = (cols.get(p)?, &vals[p]);
        p += 1;
        if let Some(uk) = get(k as usize) {
            break s.multiply(x, uk, k);
        }
    };
    if S::FIRST_TERM_IS_SUM || add.is_terminal(&acc) {
        return Some(acc);
    }
    for (&k, &x) in cols[p..].iter().zip(&vals[p..]) {
        if let Some(uk) = get(k as usize) {
            acc = add.combine(acc, s.multiply(x, uk, k));
            if add.is_terminal(&acc) {
                break;
            }
        }
    }
    Some(acc)
}

/// `t<m> = A (+).(x) u`. The result is a bitmap, or sparse when the mask is a short
/// list of rows.
pub(crate) fn mxv_pull<S, A, U>(
    s: S,
    a: &Csr<A>,
    u: &Vector<U>,
    mask: Option<&Mask>,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    assert_eq!(u.len(), a.ncols(), "u.len() != A.ncols()");
    // SAFETY (the unchecked reads below): every column index of `a` is below
    // `a.ncols() == u.len()` (the Csr invariant and the assert above), and `u`'s value
    // slots and presence words cover its length.
    match u {
        Vector::Dense(d) => {
            let v = d.as_slice();
            pull_with(s, a, mask, |k| Some(unsafe { *v.get_unchecked(k) }))
        }
        Vector::Bitmap(b) => pull_bitmap(s, a, mask, b),
        Vector::Sparse(sp) => {
            let b = BitmapVector::from_sparse(sp);
            pull_bitmap(s, a, mask, &b)
        }
    }
}

/// [`pull_with`] over a bitmap `u`, reading its words and slots directly.
fn pull_bitmap<S, A, U>(
    s: S,
    a: &Csr<A>,
    mask: Option<&Mask>,
    b: &BitmapVector<U>,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let (bits, vals) = (b.bits(), b.values());
    debug_assert!(bits.len() * 64 >= b.len() && vals.len() >= b.len());
    pull_with(s, a, mask, |k| {
        // SAFETY: k < u.len() (see mxv_pull), so word k / 64 and slot k exist.
        unsafe {
            ((*bits.get_unchecked(k >> 6) >> (k & 63)) & 1 == 1).then(|| *vals.get_unchecked(k))
        }
    })
}

fn pull_with<S, A, U, G>(s: S, a: &Csr<A>, mask: Option<&Mask>, get: G) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
    G: Fn(usize) -> Option<U> + Sync,
{
    let n = a.nrows();
    // A short list of rows: compute just those.
    if let Some(m) = mask
        && !m.is_complemented()
        && let MaskSet::Sorted(rows) = m.set()
    {
        let sums: Vec<Option<S::Output>> = rows
            .par_iter()
            .with_min_len(256)
            .map(|&i| row_sum(&s, a, i as usize, &get))
            .collect();
        let (indices, values): (Vec<Index>, Vec<S::Output>) = rows
            .iter()
            .zip(sums)
            .filter_map(|(&i, z)| z.map(|z| (i, z)))
            .unzip();
        // SAFETY: a subsequence of the mask's strictly increasing rows, all < n.
        return Vector::Sparse(unsafe { SparseVector::new_unchecked(n, indices, values) });
    }
    let allowed = mask.map(|m| m.allowed_words());
    let mut out = BitmapVector::<S::Output>::new(n);
    let (bits, vals) = out.parts_mut();
    let nvals: usize = bits
        .par_chunks_mut(ROWS_PER_TASK / 64)
        .zip(vals.par_chunks_mut(ROWS_PER_TASK))
        .enumerate()
        .map(|(c, (bw, vw))| {
            let mut count = 0usize;
            for (wl, word) in bw.iter_mut().enumerate() {
                let wi = c * (ROWS_PER_TASK / 64) + wl;
                let base = wi << 6;
                let mut todo = match &allowed {
                    Some(al) => al[wi],
                    None if base + 64 <= n => u64::MAX,
                    None => (1u64 << (n - base)) - 1,
                };
                let mut got = 0u64;
                while todo != 0 {
                    let b = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    if let Some(z) = row_sum(&s, a, base + b, &get) {
                        got |= 1 << b;
                        vw[(wl << 6) + b] = z;
                    }
                }
                *word = got;
                count += got.count_ones() as usize;
            }
            count
        })
        .sum();
    out.set_nvals(nvals);
    Vector::Bitmap(out)
}

/// `w(i) = w(i) (.) (A (+).(x) u)(i)` for a dense `w`, a dense or bitmap `u` and no
/// mask: each row's sum combined straight into `w` (rows without a term leave `w(i)`),
/// with no product vector in between. The same bytes as [`mxv_pull`] followed by the
/// accumulating write-back, without its allocation and second pass over `n`.
pub(crate) fn mxv_pull_accumulate<S, A, U>(
    s: S,
    a: &Csr<A>,
    u: &Vector<U>,
    w: &mut [S::Output],
    accum: &dyn BinaryOp<S::Output, S::Output, Output = S::Output>,
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    assert_eq!(u.len(), a.ncols(), "u.len() != A.ncols()");
    assert_eq!(w.len(), a.nrows(), "w.len() != A.nrows()");
    // SAFETY (the unchecked reads): as in mxv_pull, every column index is below
    // a.ncols() == u.len().
    match u {
        Vector::Dense(d) => accumulate_rows_dense(&s, a, w, accum, d.as_slice()),
        Vector::Bitmap(b) => {
            let (bits, vals) = (b.bits(), b.values());
            accumulate_rows(&s, a, w, accum, |k| unsafe {
                ((*bits.get_unchecked(k >> 6) >> (k & 63)) & 1 == 1).then(|| *vals.get_unchecked(k))
            })
        }
        Vector::Sparse(sp) => {
            let b = Vector::Bitmap(BitmapVector::from_sparse(sp));
            mxv_pull_accumulate(s, a, &b, w, accum)
        }
    }
}

/// The rows of [`mxv_pull_accumulate`], in parallel by blocks of rows.
fn accumulate_rows<S, A, U, G>(
    s: &S,
    a: &Csr<A>,
    w: &mut [S::Output],
    accum: &dyn BinaryOp<S::Output, S::Output, Output = S::Output>,
    get: G,
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
    G: Fn(usize) -> Option<U> + Sync,
{
    w.par_chunks_mut(ROWS_PER_TASK)
        .enumerate()
        .for_each(|(c, chunk)| {
            for (l, slot) in chunk.iter_mut().enumerate() {
                if let Some(z) = row_sum(s, a, c * ROWS_PER_TASK + l, &get) {
                    *slot = accum.apply(*slot, z);
                }
            }
        });
}

/// [`accumulate_rows`] over a dense `u`: every term is present, so a row is a plain
/// walk of its entries by position, with no presence test per term.
fn accumulate_rows_dense<S, A, U>(
    s: &S,
    a: &Csr<A>,
    w: &mut [S::Output],
    accum: &dyn BinaryOp<S::Output, S::Output, Output = S::Output>,
    u: &[U],
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let (off, cols, vals) = (a.offsets(), a.indices(), a.values());
    assert!(u.len() >= a.ncols() && off.len() == w.len() + 1 && vals.len() == cols.len());
    // SAFETY (the unchecked reads): row i < w.len() = off.len() - 1 (asserted); the
    // offsets are at most cols.len() (the Csr invariant), which is vals.len()
    // (asserted); every column is below a.ncols() (the Csr invariant) <= u.len()
    // (asserted).
    let term = |p: usize| unsafe {
        let k = *cols.get_unchecked(p) as usize;
        s.multiply(*vals.get_unchecked(p), *u.get_unchecked(k), k as Index)
    };
    w.par_chunks_mut(ROWS_PER_TASK)
        .enumerate()
        .for_each(|(c, chunk)| {
            let add = s.add();
            let base = c * ROWS_PER_TASK;
            for (l, slot) in chunk.iter_mut().enumerate() {
                let (lo, hi) = unsafe {
                    (
                        *off.get_unchecked(base + l) as usize,
                        *off.get_unchecked(base + l + 1) as usize,
                    )
                };
                if lo == hi {
                    continue;
                }
                let mut acc = term(lo);
                if !(S::FIRST_TERM_IS_SUM || add.is_terminal(&acc)) {
                    for p in lo + 1..hi {
                        acc = add.combine(acc, term(p));
                        if add.is_terminal(&acc) {
                            break;
                        }
                    }
                }
                *slot = accum.apply(*slot, acc);
            }
        });
}
