//! A small dense reference implementation of the operations, written apart from the
//! library's kernels: the executable spec the tests compare against (as SuiteSparse's
//! `Test/GB_spec_*.m`).
//!
//! A matrix is `Vec<Vec<Option<T>>>` (rows), a vector `Vec<Option<T>>`; `None` is an
//! absent entry. Every operation is computed in two plain steps, GraphBLAS style:
//!
//! ```text
//! t    = the operation's result, over every index (no mask, no early exit)
//! z    = accum ? union(w, t, accum(w(i), t(i))) : t
//! w(i) = mask allows i ? z(i) : (replace ? absent : w(i))
//! ```
//!
//! A product entry folds the semiring's add monoid over its terms in ascending inner
//! index `k`, starting from the first term (so an entry with no terms is absent, and
//! a monoid whose identity is only a placeholder, such as ANY, still gives the first
//! term). Only the algebra (the traits and the built-in operators) is shared with the
//! library; nothing here knows about push, pull, bitmaps or thread counts.

#![allow(dead_code)]

use edgeblas::algebra::{BinaryOp, Index, Monoid, Semiring, Truthy};

/// A dense matrix of optional entries, row-major.
pub type DMat<T> = Vec<Vec<Option<T>>>;
/// A dense vector of optional entries.
pub type DVec<T> = Vec<Option<T>>;

/// `nrows x ncols` with no entries.
pub fn empty_mat<T: Copy>(nrows: usize, ncols: usize) -> DMat<T> {
    vec![vec![None; ncols]; nrows]
}

/// `A'`; `ncols` is `A`'s column count, passed because a matrix with no rows cannot say.
pub fn transpose<T: Copy>(a: &DMat<T>, ncols: usize) -> DMat<T> {
    let mut t = empty_mat(ncols, a.len());
    for (i, row) in a.iter().enumerate() {
        for (j, x) in row.iter().enumerate() {
            t[j][i] = *x;
        }
    }
    t
}

/// Present entries as `(index, value)`, ascending: what `Vector::to_pairs` returns.
pub fn pairs<T: Copy>(v: &DVec<T>) -> Vec<(Index, T)> {
    v.iter()
        .enumerate()
        .filter_map(|(i, x)| x.map(|x| (i as Index, x)))
        .collect()
}

/// Present entries as `(row, col, value)`, row-major: what `Csr::iter` returns.
pub fn triples<T: Copy>(a: &DMat<T>) -> Vec<(usize, Index, T)> {
    let mut out = Vec::new();
    for (i, row) in a.iter().enumerate() {
        for (j, x) in row.iter().enumerate() {
            if let Some(x) = x {
                out.push((i, j as Index, *x));
            }
        }
    }
    out
}

/// Which indices a mask allows: `None` (no mask) allows all; otherwise the present
/// entries of `m` (structural) or the present and truthy ones (valued), complemented
/// on request.
pub fn mask_allows<M: Copy + Truthy>(m: &DVec<M>, valued: bool, complement: bool) -> Vec<bool> {
    m.iter()
        .map(|x| {
            let inside = match x {
                None => false,
                Some(v) => !valued || v.truthy(),
            };
            inside != complement
        })
        .collect()
}

/// Folds `terms` (already in ascending `k`) with the monoid, starting from the first.
fn fold<Z: Copy, M: Monoid<Z>>(m: &M, terms: impl Iterator<Item = Z>) -> Option<Z> {
    let mut acc = None;
    for z in terms {
        acc = Some(match acc {
            None => z,
            Some(prev) => m.combine(prev, z),
        });
    }
    acc
}

/// `t(i) = (+)_k M(i,k) (x) u(k)`: each output folds one row of `M`.
fn by_rows<S, A, U>(s: &S, m: &DMat<A>, u: &DVec<U>) -> DVec<S::Output>
where
    S: Semiring<A, U>,
    A: Copy,
    U: Copy,
{
    let add = s.add();
    m.iter()
        .map(|row| {
            assert_eq!(row.len(), u.len(), "oracle: u.len() != inner dimension");
            let mut acc = None;
            for k in 0..row.len() {
                if let (Some(x), Some(y)) = (row[k], u[k]) {
                    let z = s.multiply(x, y, k as Index);
                    acc = Some(match acc {
                        None => z,
                        Some(prev) => add.combine(prev, z),
                    });
                }
            }
            acc
        })
        .collect()
}

/// `t(j) = (+)_k M(k,j) (x) u(k)`: each output folds one column of `M`. Computed row by
/// row of `M` (k ascending, each term added to its output's running sum) only because a
/// column walk of a large dense matrix is slow; the order of terms is the same.
fn by_cols<S, A, U>(s: &S, m: &DMat<A>, m_ncols: usize, u: &DVec<U>) -> DVec<S::Output>
where
    S: Semiring<A, U>,
    A: Copy,
    U: Copy,
{
    assert_eq!(m.len(), u.len(), "oracle: u.len() != inner dimension");
    let add = s.add();
    let mut t: DVec<S::Output> = vec![None; m_ncols];
    for (k, (row, uk)) in m.iter().zip(u).enumerate() {
        let Some(uk) = *uk else { continue };
        for (j, x) in row.iter().enumerate() {
            if let Some(x) = *x {
                let z = s.multiply(x, uk, k as Index);
                t[j] = Some(match t[j] {
                    None => z,
                    Some(prev) => add.combine(prev, z),
                });
            }
        }
    }
    t
}

/// `t = B (+).(x) u` with `B = A` or `A'`: `t(i) = (+)_k B(i,k) (x) u(k)`. `a_ncols` is
/// passed because a matrix with no rows cannot say.
pub fn mxv<S, A, U>(
    s: &S,
    a: &DMat<A>,
    a_ncols: usize,
    u: &DVec<U>,
    transpose: bool,
) -> DVec<S::Output>
where
    S: Semiring<A, U>,
    A: Copy,
    U: Copy,
{
    if transpose {
        // A'(i,k) = A(k,i): output i folds column i of A.
        by_cols(s, a, a_ncols, u)
    } else {
        assert_eq!(u.len(), a_ncols, "oracle mxv: u.len() != A.ncols()");
        by_rows(s, a, u)
    }
}

/// `t = u (+).(x) B` with `B = A` or `A'`: `t(j) = (+)_k B(k,j) (x) u(k)`; the multiply
/// still takes the matrix entry first.
pub fn vxm<S, A, U>(
    s: &S,
    u: &DVec<U>,
    a: &DMat<A>,
    a_ncols: usize,
    transpose: bool,
) -> DVec<S::Output>
where
    S: Semiring<A, U>,
    A: Copy,
    U: Copy,
{
    if transpose {
        // A'(k,j) = A(j,k): output j folds row j of A.
        assert_eq!(u.len(), a_ncols, "oracle vxm: u.len() != A.ncols()");
        by_rows(s, a, u)
    } else {
        by_cols(s, a, a_ncols, u)
    }
}

/// `t = u (+) v`: `op(u(i), v(i))` where both are present, the present one elsewhere.
pub fn ewise_add<T: Copy>(
    op: &impl BinaryOp<T, T, Output = T>,
    u: &DVec<T>,
    v: &DVec<T>,
) -> DVec<T> {
    assert_eq!(u.len(), v.len());
    u.iter()
        .zip(v)
        .map(|(x, y)| match (*x, *y) {
            (Some(x), Some(y)) => Some(op.apply(x, y)),
            (x, None) => x,
            (None, y) => y,
        })
        .collect()
}

/// `t = u (x) v`: `op(u(i), v(i))` where both are present.
pub fn ewise_mult<X: Copy, Y: Copy, Z>(
    op: &impl BinaryOp<X, Y, Output = Z>,
    u: &DVec<X>,
    v: &DVec<Y>,
) -> DVec<Z> {
    assert_eq!(u.len(), v.len());
    u.iter()
        .zip(v)
        .map(|(x, y)| match (*x, *y) {
            (Some(x), Some(y)) => Some(op.apply(x, y)),
            _ => None,
        })
        .collect()
}

/// `t(i) = f(i, u(i))` where `u(i)` is present.
pub fn apply_indexed<T: Copy, Z>(f: impl Fn(Index, T) -> Z, u: &DVec<T>) -> DVec<Z> {
    u.iter()
        .enumerate()
        .map(|(i, x)| x.map(|x| f(i as Index, x)))
        .collect()
}

/// `t(i) = u(i)` where `u(i)` is present and `pred(i, u(i))`.
pub fn select<T: Copy>(pred: impl Fn(Index, T) -> bool, u: &DVec<T>) -> DVec<T> {
    u.iter()
        .enumerate()
        .map(|(i, x)| x.filter(|&x| pred(i as Index, x)))
        .collect()
}

/// The monoid sum of the present entries in index order, from the first; the identity
/// when there are none.
pub fn reduce<T: Copy, M: Monoid<T>>(m: &M, u: &DVec<T>) -> T {
    fold(m, u.iter().filter_map(|x| *x)).unwrap_or_else(|| m.identity())
}

/// `t(i) = x` at every index.
pub fn full<T: Copy>(len: usize, x: T) -> DVec<T> {
    vec![Some(x); len]
}

/// The write-back `w<m> = w (.) t`: accumulate (union with `accum(w(i), t(i))`), then
/// keep `z(i)` where the mask allows `i`, and elsewhere the old `w(i)` (or nothing
/// under replace).
pub fn write<Z: Copy>(
    w: &DVec<Z>,
    allowed: Option<&[bool]>,
    accum: Option<&dyn BinaryOp<Z, Z, Output = Z>>,
    t: &DVec<Z>,
    replace: bool,
) -> DVec<Z> {
    assert_eq!(w.len(), t.len(), "oracle write: w.len() != t.len()");
    if let Some(m) = allowed {
        assert_eq!(m.len(), w.len(), "oracle write: mask length");
    }
    (0..w.len())
        .map(|i| {
            let z = match accum {
                None => t[i],
                Some(op) => match (w[i], t[i]) {
                    (Some(x), Some(y)) => Some(op.apply(x, y)),
                    (x, None) => x,
                    (None, y) => y,
                },
            };
            if allowed.is_none_or(|m| m[i]) {
                z
            } else if replace {
                None
            } else {
                w[i]
            }
        })
        .collect()
}

/// A matrix mask's verdicts: everything without a mask, else the present (and, valued,
/// truthy) entries of `m`, complemented on request.
pub fn mat_allowed<M: Copy + Truthy>(
    m: Option<&DMat<M>>,
    shape: (usize, usize),
    valued: bool,
    complement: bool,
) -> Vec<Vec<bool>> {
    match m {
        None => vec![vec![true; shape.1]; shape.0],
        Some(m) => m
            .iter()
            .map(|row| mask_allows(row, valued, complement))
            .collect(),
    }
}

/// The matrix write-back `C<M> = C (.) T`: [`write`] on every row.
pub fn write_mat<Z: Copy>(
    c: &DMat<Z>,
    allowed: &[Vec<bool>],
    accum: Option<&dyn BinaryOp<Z, Z, Output = Z>>,
    t: &DMat<Z>,
    replace: bool,
) -> DMat<Z> {
    assert_eq!(c.len(), t.len(), "oracle write_mat: row counts");
    c.iter()
        .zip(t)
        .zip(allowed)
        .map(|((crow, trow), ok)| write(crow, Some(ok), accum, trow, replace))
        .collect()
}
