//! Element-wise operations on matrices: add (union), mult (intersection), apply (plain,
//! with a bound scalar, or index-aware) and the Kronecker product, each ending in the
//! masked write-back `C<M> = C (.) T`.

use crate::algebra::{Accum, BinaryOp, Index, Scalar};
use crate::backend::cpu::matrix_ops;
use crate::backend::cpu::write_matrix::write_back_matrix;
use crate::descriptor::{MatrixDescriptor, MatrixMask};
use crate::matrix::Csr;

use super::matrix::{check_matrix_mask, check_shape, maybe_transposed};

/// Panics unless the element-wise operands have one shape.
fn check_same_shape<X: Scalar, Y: Scalar>(a: &Csr<X>, b: &Csr<Y>) {
    assert_eq!(
        (b.nrows(), b.ncols()),
        (a.nrows(), a.ncols()),
        "B's shape != A's shape"
    );
}

/// `C<M> = C (.) (A (+) B)` -- union: `op(A(i, j), B(i, j))` where both are present,
/// the present one elsewhere (GrB_Matrix_eWiseAdd). `desc.transpose_a` and
/// `transpose_b` use `A'` and `B'`.
///
/// # Panics
/// If the shapes of `C`, `A`, `B` (after the transposes) and the mask differ.
pub fn ewise_add_matrix<T: Scalar>(
    c: &mut Csr<T>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, T>,
    op: &impl BinaryOp<T, T, Output = T>,
    a: &Csr<T>,
    b: &Csr<T>,
    desc: &MatrixDescriptor,
) {
    let a = maybe_transposed(a, desc.transpose_a);
    let b = maybe_transposed(b, desc.transpose_b);
    check_same_shape(&a, &b);
    check_shape(c, a.nrows(), a.ncols(), "A");
    check_matrix_mask(mask, c.nrows(), c.ncols());
    let t = matrix_ops::union(op, &a, &b);
    write_back_matrix(c, mask, accum, t, false, desc.replace);
}

/// `C<M> = C (.) (A (x) B)` -- intersection: `op(A(i, j), B(i, j))` where both are
/// present (GrB_Matrix_eWiseMult). The three types may differ.
///
/// # Panics
/// If the shapes of `C`, `A`, `B` (after the transposes) and the mask differ.
pub fn ewise_mult_matrix<X: Scalar, Y: Scalar, Z: Scalar>(
    c: &mut Csr<Z>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, Z>,
    op: &impl BinaryOp<X, Y, Output = Z>,
    a: &Csr<X>,
    b: &Csr<Y>,
    desc: &MatrixDescriptor,
) {
    let a = maybe_transposed(a, desc.transpose_a);
    let b = maybe_transposed(b, desc.transpose_b);
    check_same_shape(&a, &b);
    check_shape(c, a.nrows(), a.ncols(), "A");
    check_matrix_mask(mask, c.nrows(), c.ncols());
    let t = matrix_ops::intersection(op, &a, &b);
    write_back_matrix(c, mask, accum, t, false, desc.replace);
}

/// `C<M> = C (.) f(A)` -- `f` applied to every entry (GrB_Matrix_apply). With
/// [`bind_first`](crate::algebra::bind_first) or
/// [`bind_second`](crate::algebra::bind_second), `f` is a binary operator with a bound
/// scalar (GrB_Matrix_apply_BinaryOp1st / 2nd).
///
/// # Panics
/// If the shapes of `C`, `A` (after `desc.transpose_a`) and the mask differ.
pub fn apply_matrix<T: Scalar, Z: Scalar>(
    c: &mut Csr<Z>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, Z>,
    f: impl Fn(T) -> Z + Sync,
    a: &Csr<T>,
    desc: &MatrixDescriptor,
) {
    apply_matrix_indexed(c, mask, accum, |_, _, x| f(x), a, desc)
}

/// `C<M> = C (.) f(i, j, A(i, j))` -- an index-aware apply (GrB_Matrix_apply with a
/// GrB_IndexUnaryOp: [`rowindex`](super::rowindex), [`colindex`](super::colindex),
/// [`diagindex`](super::diagindex), or any closure over `(i, j, x)`).
/// Under `desc.transpose_a`, `(i, j)` are positions in `A'`.
///
/// # Panics
/// If the shapes of `C`, `A` (after `desc.transpose_a`) and the mask differ.
pub fn apply_matrix_indexed<T: Scalar, Z: Scalar>(
    c: &mut Csr<Z>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, Z>,
    f: impl Fn(Index, Index, T) -> Z + Sync,
    a: &Csr<T>,
    desc: &MatrixDescriptor,
) {
    let a = maybe_transposed(a, desc.transpose_a);
    check_shape(c, a.nrows(), a.ncols(), "A");
    check_matrix_mask(mask, c.nrows(), c.ncols());
    let t = matrix_ops::filter_map(&|i, j, x| Some(f(i, j, x)), &a);
    write_back_matrix(c, mask, accum, t, false, desc.replace);
}

/// `C<M> = C (.) f(C)` -- [`apply_matrix`] with the output as its input: `f` is applied
/// to the old entries of `C` (or `C'` under `desc.transpose_a`) before the masked
/// write-back.
///
/// # Panics
/// If the mask does not have `C`'s shape, or under `desc.transpose_a` if `C` is not
/// square.
pub fn apply_matrix_inplace<T: Scalar>(
    c: &mut Csr<T>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, T>,
    f: impl Fn(T) -> T + Sync,
    desc: &MatrixDescriptor,
) {
    let t = {
        let a = maybe_transposed(c, desc.transpose_a);
        check_shape(c, a.nrows(), a.ncols(), "A");
        check_matrix_mask(mask, c.nrows(), c.ncols());
        matrix_ops::filter_map(&|_, _, x| Some(f(x)), &a)
    };
    write_back_matrix(c, mask, accum, t, false, desc.replace);
}

/// `C<M> = C (.) kron(A, B)` -- GrB_kronecker: for `B` of shape `mb x nb`,
/// `C(i * mb + k, j * nb + l) = op(A(i, j), B(k, l))`.
///
/// # Panics
/// If `C` is not `(nrows(A) * mb) x (ncols(A) * nb)` (after the transposes), if that
/// shape does not fit an [`Index`], or the mask has another shape.
pub fn kronecker<X: Scalar, Y: Scalar, Z: Scalar>(
    c: &mut Csr<Z>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, Z>,
    op: &impl BinaryOp<X, Y, Output = Z>,
    a: &Csr<X>,
    b: &Csr<Y>,
    desc: &MatrixDescriptor,
) {
    let a = maybe_transposed(a, desc.transpose_a);
    let b = maybe_transposed(b, desc.transpose_b);
    let nrows = a.nrows().checked_mul(b.nrows());
    let ncols = a.ncols().checked_mul(b.ncols());
    let fits = |n: Option<usize>| n.is_some_and(|n| n <= Index::MAX as usize);
    assert!(
        fits(nrows) && fits(ncols),
        "kron(A, B) of {}x{} and {}x{} does not fit a u32 index",
        a.nrows(),
        a.ncols(),
        b.nrows(),
        b.ncols()
    );
    check_shape(c, nrows.unwrap(), ncols.unwrap(), "kron(A, B)");
    check_matrix_mask(mask, c.nrows(), c.ncols());
    let t = matrix_ops::kronecker(op, &a, &b);
    write_back_matrix(c, mask, accum, t, false, desc.replace);
}
