//! Operations on matrices other than products: select (tril, triu, ...) and transpose,
//! each ending in the masked write-back `C<M> = C (.) T`.

use crate::algebra::{Accum, Index, Scalar};
use crate::backend::cpu::matrix_ops;
use crate::backend::cpu::write_matrix::write_back_matrix;
use crate::descriptor::{MatrixDescriptor, MatrixMask};
use crate::matrix::Csr;

/// Panics unless the mask (if any) has the output's shape.
pub(crate) fn check_matrix_mask(mask: Option<&MatrixMask>, nrows: usize, ncols: usize) {
    if let Some(m) = mask {
        assert_eq!(
            (m.nrows(), m.ncols()),
            (nrows, ncols),
            "mask shape != C's shape"
        );
    }
}

/// Panics unless `c` is `nrows x ncols`.
pub(crate) fn check_shape<T>(c: &Csr<T>, nrows: usize, ncols: usize, what: &str)
where
    T: Scalar,
{
    assert_eq!(
        (c.nrows(), c.ncols()),
        (nrows, ncols),
        "C's shape != {what}'s shape"
    );
}

/// `A`, or its transpose under `transpose`, borrowed when no transpose is needed.
pub(crate) fn maybe_transposed<T: Scalar>(
    a: &Csr<T>,
    transpose: bool,
) -> std::borrow::Cow<'_, Csr<T>> {
    if transpose {
        std::borrow::Cow::Owned(a.transpose())
    } else {
        std::borrow::Cow::Borrowed(a)
    }
}

/// `C<M> = C (.) A'` -- GrB_transpose. Under `desc.transpose_a` the input is transposed
/// twice, so `T = A`.
///
/// # Panics
/// If `C` is not `ncols(A) x nrows(A)` (or `A`'s shape under `transpose_a`), or the mask
/// has another shape.
pub fn transpose<T: Scalar>(
    c: &mut Csr<T>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, T>,
    a: &Csr<T>,
    desc: &MatrixDescriptor,
) {
    let t = if desc.transpose_a {
        a.clone()
    } else {
        a.transpose()
    };
    check_shape(c, t.nrows(), t.ncols(), "A'");
    check_matrix_mask(mask, c.nrows(), c.ncols());
    write_back_matrix(c, mask, accum, t, false, desc.replace);
}

/// `C<M> = C (.) select(A)` -- the entries of `A` (or `A'` under `desc.transpose_a`) for
/// which `keep(i, j, A(i, j))` holds (GrB_select with an index-unary operator). The
/// built-in predicates are [`tril`], [`triu`], [`diag`], [`offdiag`] and [`value_eq`] ..
/// [`value_le`]; any closure over `(i, j, x)` works too. On a vector (a column) they go
/// through [`column`](fn@column).
///
/// # Panics
/// If the shapes of `C`, `A` and the mask differ.
pub fn select_matrix<T: Scalar>(
    c: &mut Csr<T>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, T>,
    keep: impl Fn(Index, Index, T) -> bool + Sync,
    a: &Csr<T>,
    desc: &MatrixDescriptor,
) {
    let a = maybe_transposed(a, desc.transpose_a);
    check_shape(c, a.nrows(), a.ncols(), "A");
    check_matrix_mask(mask, c.nrows(), c.ncols());
    let t = matrix_ops::filter_map(&|i, j, x| keep(i, j, x).then_some(x), &a);
    write_back_matrix(c, mask, accum, t, false, desc.replace);
}

/// `C<M> = C (.) select(C)` -- [`select_matrix`] with the output as its input: the
/// entries of the old `C` (or `C'` under `desc.transpose_a`) that `keep` keeps, written
/// back through the mask. `C = tril(C)` is one call with no clone.
///
/// # Panics
/// If the mask does not have `C`'s shape, or under `desc.transpose_a` if `C` is not
/// square.
pub fn select_matrix_inplace<T: Scalar>(
    c: &mut Csr<T>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, T>,
    keep: impl Fn(Index, Index, T) -> bool + Sync,
    desc: &MatrixDescriptor,
) {
    let t = {
        let a = maybe_transposed(c, desc.transpose_a);
        check_shape(c, a.nrows(), a.ncols(), "A");
        check_matrix_mask(mask, c.nrows(), c.ncols());
        matrix_ops::filter_map(&|i, j, x| keep(i, j, x).then_some(x), &a)
    };
    write_back_matrix(c, mask, accum, t, false, desc.replace);
}

/// GrB_TRIL: keeps `(i, j)` with `j <= i + k` (k = 0: the lower triangle with the
/// diagonal; k = -1: strictly below it).
pub fn tril<T>(k: i64) -> impl Fn(Index, Index, T) -> bool + Sync + Copy {
    move |i, j, _| j as i64 <= i as i64 + k
}

/// GrB_TRIU: keeps `(i, j)` with `j >= i + k` (k = 1: strictly above the diagonal).
pub fn triu<T>(k: i64) -> impl Fn(Index, Index, T) -> bool + Sync + Copy {
    move |i, j, _| j as i64 >= i as i64 + k
}

/// GrB_DIAG: keeps `(i, j)` with `j == i + k`.
pub fn diag<T>(k: i64) -> impl Fn(Index, Index, T) -> bool + Sync + Copy {
    move |i, j, _| j as i64 == i as i64 + k
}

/// GrB_OFFDIAG: keeps `(i, j)` with `j != i + k` (k = 0: drops self-loops).
pub fn offdiag<T>(k: i64) -> impl Fn(Index, Index, T) -> bool + Sync + Copy {
    move |i, j, _| j as i64 != i as i64 + k
}

/// GrB_ROWINDEX: `(i, j, x) -> i + k`, an entry's row (plus `k`) as its value.
pub fn rowindex<T>(k: i64) -> impl Fn(Index, Index, T) -> i64 + Sync + Copy {
    move |i, _, _| i as i64 + k
}

/// GrB_COLINDEX: `(i, j, x) -> j + k`, an entry's column (plus `k`) as its value.
pub fn colindex<T>(k: i64) -> impl Fn(Index, Index, T) -> i64 + Sync + Copy {
    move |_, j, _| j as i64 + k
}

/// GrB_DIAGINDEX: `(i, j, x) -> j - (i + k)`, the entry's diagonal counted from
/// diagonal `k` (0 on the entries [`diag`]`(k)` keeps).
pub fn diagindex<T>(k: i64) -> impl Fn(Index, Index, T) -> i64 + Sync + Copy {
    move |i, j, _| j as i64 - (i as i64 + k)
}

/// A matrix index-unary operator `f(i, j, x)` (a select predicate such as [`tril`], or
/// [`rowindex`] and the like) as the vector one that [`select`](super::select) and
/// [`apply_indexed`](super::apply_indexed) take: a vector is a column, as in the C API,
/// so its entry `u(i)` is seen at row `i`, column 0 -- `f(i, 0, x)`.
///
/// # Example
/// ```
/// use edgeblas::prelude::*;
/// let u = Vector::from_pairs(4, [(0, 5.0), (3, 0.0)]);
/// let mut w = Vector::new(4);
/// // tril(0) keeps j <= i: with j = 0, every entry of a column.
/// ops::select(&mut w, None, None, ops::column(ops::tril(0)), &u, &Descriptor::DEFAULT);
/// assert_eq!(w.to_pairs(), vec![(0, 5.0), (3, 0.0)]);
/// // triu(0) keeps j >= i: only row 0.
/// ops::select(&mut w, None, None, ops::column(ops::triu(0)), &u, &Descriptor::DEFAULT);
/// assert_eq!(w.to_pairs(), vec![(0, 5.0)]);
/// ```
pub fn column<T, Z>(f: impl Fn(Index, Index, T) -> Z + Sync) -> impl Fn(Index, T) -> Z + Sync {
    move |i, x| f(i, 0, x)
}

macro_rules! value_predicate {
    ($($(#[$doc:meta])* $name:ident: $cmp:tt;)*) => {$(
        $(#[$doc])*
        pub fn $name<T: PartialOrd + Copy + Sync>(
            y: T,
        ) -> impl Fn(Index, Index, T) -> bool + Sync + Copy {
            move |_, _, x| x $cmp y
        }
    )*};
}

value_predicate! {
    /// GrB_VALUEEQ: keeps the entries equal to `y`.
    value_eq: ==;
    /// GrB_VALUENE: keeps the entries not equal to `y`.
    value_ne: !=;
    /// GrB_VALUEGT: keeps the entries greater than `y`.
    value_gt: >;
    /// GrB_VALUEGE: keeps the entries greater than or equal to `y`.
    value_ge: >=;
    /// GrB_VALUELT: keeps the entries less than `y`.
    value_lt: <;
    /// GrB_VALUELE: keeps the entries less than or equal to `y`.
    value_le: <=;
}
