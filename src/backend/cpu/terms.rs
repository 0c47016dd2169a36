//! Walking the terms `A(k, j) (x) u(k)` of a push: the entries of `u`, their chunks of
//! about equal work, the scan of their rows with its prefetch, and the form of a result
//! by its fill. Shared by the push's methods, the scatter and the in-place accumulate.

use super::PREFETCH_AHEAD;
use crate::algebra::{Index, Scalar, Semiring};
use crate::matrix::Csr;
use crate::vector::{BitmapVector, SparseVector, Vector};

/// Terms per parallel chunk, at least, where terms combine in any order (here and in
/// the scatter).
pub(crate) const CHUNK_TERMS: usize = 1 << 13;

/// The entries of `u` as sorted parallel arrays (borrowed when `u` is sparse).
pub(crate) fn entries<U: Scalar>(u: &Vector<U>) -> std::borrow::Cow<'_, SparseVector<U>> {
    match u {
        Vector::Sparse(s) => std::borrow::Cow::Borrowed(s),
        Vector::Bitmap(b) => std::borrow::Cow::Owned(b.to_sparse()),
        Vector::Dense(d) => std::borrow::Cow::Owned(d.to_sparse()),
    }
}

/// Cuts the entries `ks` into runs of about `target` flops each (by `degrees`), in
/// order: the start of every run, then `ks.len()`.
pub(crate) fn chunk_bounds(
    ks: &[Index],
    degrees: impl Fn(Index) -> usize,
    target: usize,
) -> Vec<usize> {
    chunk_bounds_by(ks.len(), |p| degrees(ks[p]), target)
}

/// [`chunk_bounds`] over `len` entries whose flops `weight(p)` gives by position (a
/// dense `u` has no index list).
pub(crate) fn chunk_bounds_by(
    len: usize,
    weight: impl Fn(usize) -> usize,
    target: usize,
) -> Vec<usize> {
    let target = target.max(1);
    let mut bounds = vec![0usize];
    let mut acc = 0usize;
    for p in 0..len {
        acc += weight(p);
        if acc >= target && p + 1 < len {
            bounds.push(p + 1);
            acc = 0;
        }
    }
    bounds.push(len);
    bounds
}

/// The entries of `u` for [`push_columns`] and the scatter: sorted pairs, or every index
/// of a dense `u`.
#[derive(Clone, Copy)]
pub(crate) enum Entries<'a, U> {
    /// Sorted indices and their values.
    Sparse(&'a [Index], &'a [U]),
    /// Every index, with these values.
    Dense(&'a [U]),
}

impl<U: Copy> Entries<'_, U> {
    pub(crate) fn len(&self) -> usize {
        match self {
            Entries::Sparse(k, _) => k.len(),
            Entries::Dense(u) => u.len(),
        }
    }

    #[inline(always)]
    pub(crate) fn get(&self, p: usize) -> (Index, U) {
        match self {
            Entries::Sparse(k, u) => (k[p], u[p]),
            Entries::Dense(u) => (p as Index, u[p]),
        }
    }
}

/// A product computed into a bitmap, in the form its fill calls for: dense when every
/// index is present, sparse at 2 % or less, a bitmap between.
pub(crate) fn by_fill<Z: Scalar>(out: BitmapVector<Z>) -> Vector<Z> {
    let (n, nvals) = (out.len(), out.nvals());
    if nvals == n {
        let (_, values) = out.into_parts();
        return Vector::Dense(crate::vector::DenseVector::from_vec(values));
    }
    if nvals.saturating_mul(50) <= n {
        return Vector::Sparse(out.to_sparse());
    }
    Vector::Bitmap(out)
}

/// Calls `f(j, A(k, j) (x) u(k))` for every entry `(k, u(k))` given and every `j` of row
/// `k` the mask allows, in ascending `k` and then `j`.
#[inline(always)]
pub(crate) fn scan_terms<S, A, U>(
    s: &S,
    a: &Csr<A>,
    ks: &[Index],
    us: &[U],
    allowed: &impl Fn(Index) -> bool,
    f: &mut impl FnMut(Index, S::Output),
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    scan_terms_ahead(
        s,
        a,
        Entries::Sparse(ks, us),
        0..ks.len(),
        allowed,
        &|_| {},
        f,
    )
}

/// [`scan_terms`] over the entries `range` of `rows` (positions, not indices), that also
/// calls `ahead(j)` with the column [`PREFETCH_AHEAD`] terms further along the row, for
/// `f`'s slot to be asked of the cache in time.
#[inline(always)]
pub(crate) fn scan_terms_ahead<S, A, U>(
    s: &S,
    a: &Csr<A>,
    rows: Entries<'_, U>,
    range: std::ops::Range<usize>,
    allowed: &impl Fn(Index) -> bool,
    ahead: &impl Fn(Index),
    f: &mut impl FnMut(Index, S::Output),
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let (offsets, cols_all, vals_all) = (a.offsets(), a.indices(), a.values());
    for p in range {
        let (k, uk) = rows.get(p);
        let (s0, e0) = (
            offsets[k as usize] as usize,
            offsets[k as usize + 1] as usize,
        );
        let (cols, vals) = (&cols_all[s0..e0], &vals_all[s0..e0]);
        for (t, (&j, &x)) in cols.iter().zip(vals).enumerate() {
            if let Some(&ja) = cols.get(t + PREFETCH_AHEAD) {
                ahead(ja);
            }
            if allowed(j) {
                f(j, s.multiply(x, uk, k));
            }
        }
    }
}
