//! `C<M> = C (.) (A (+).(x) B)` -- GrB_mxm, with the method chosen per call -- and the
//! reductions of a matrix to a vector (GrB_Matrix_reduce_Monoid) and to a scalar.

use crate::algebra::{Accum, Index, Monoid, Scalar, Semiring};
use crate::backend::cpu::choose;
pub use crate::backend::cpu::choose::MxmMethod;
use crate::backend::cpu::mxm as kernel;
use crate::backend::cpu::write::write_back;
use crate::backend::cpu::write_matrix::write_back_matrix;
use crate::descriptor::{Descriptor, Mask, MatrixDescriptor, MatrixMask};
use crate::matrix::Csr;
use crate::vector::{SparseVector, Vector};

use super::check_mask;
use super::matrix::{check_matrix_mask, maybe_transposed};

/// `C<M> = C (.) (A (+).(x) B)` -- GrB_mxm: `T(i, j)` is the monoid sum over `k` of
/// `multiply(A(i, k), B(k, j), k)` (the left operand first), summed in ascending `k`,
/// then written through the mask and the accumulator as every operation is.
/// `desc.transpose_a` and `desc.transpose_b` use `A'` and `B'`.
///
/// # Method
/// The method with the smaller estimated work runs (saxpy touches every term of the
/// rows of `B` it reaches, dot every pair of sorted rows a mask entry names); the choice
/// never changes the result, which is the same bytes whichever method runs:
/// - *saxpy* (Gustavson): row `i` of `T` accumulates the rows `B(k, :)` scaled by
///   `A(i, k)` in a dense workspace; a mask is scattered into it first, and a long row
///   of `B` is searched for the mask's few columns rather than scanned.
/// - *dot*: `T(i, j) = A(i, :) . B(:, j)` for each entry of an uncomplemented mask (the
///   triangle-counting form `C<L> = L L'`), a merge of two sorted rows that stops at the
///   monoid's terminal value. It needs the rows of `B'`: they are at hand under
///   `transpose_b`, and otherwise cost a transpose, which the estimate counts.
///
/// Under a mask that is not complemented the method with the smaller estimated work
/// runs; otherwise saxpy does, except for an output of at most 100 positions.
///
/// # Panics
/// If `ncols(A) != nrows(B)` (after the transposes), or `C` or the mask is not
/// `nrows(A) x ncols(B)`.
pub fn mxm<S, A, B>(
    c: &mut Csr<S::Output>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, S::Output>,
    semiring: S,
    a: &Csr<A>,
    b: &Csr<B>,
    desc: &MatrixDescriptor,
) where
    S: Semiring<A, B>,
    A: Scalar,
    B: Scalar,
{
    mxm_with_method(c, mask, accum, semiring, a, b, desc, MxmMethod::Auto);
}

/// [`mxm`] with the method forced (or [`MxmMethod::Auto`]): for comparing the methods
/// on a workload, as `edgeblas bench mxm --method` does. The result does not depend on
/// the method.
#[allow(clippy::too_many_arguments)]
pub fn mxm_with_method<S, A, B>(
    c: &mut Csr<S::Output>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, S::Output>,
    semiring: S,
    a: &Csr<A>,
    b: &Csr<B>,
    desc: &MatrixDescriptor,
    method: MxmMethod,
) where
    S: Semiring<A, B>,
    A: Scalar,
    B: Scalar,
{
    let t = product((c.nrows(), c.ncols()), mask, semiring, a, b, desc, method);
    write_back_matrix(c, mask, accum, t, true, desc.replace);
}

/// `C<M> = C (.) (C (+).(x) B)` -- [`mxm`] with the output as its left operand (GrB_mxm
/// with `C` aliased to `A`): the product is computed from the old `C` before the masked
/// write-back, so `C = C min.plus B` is one call with no clone. `desc.transpose_a` uses
/// the old `C'`.
///
/// # Panics
/// If `C (+).(x) B` (after the transposes) does not have `C`'s shape, so unless `B` is
/// square with `ncols(C)` rows, or if the mask does not have `C`'s shape.
pub fn mxm_inplace<S, Z, B>(
    c: &mut Csr<Z>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, Z>,
    semiring: S,
    b: &Csr<B>,
    desc: &MatrixDescriptor,
) where
    S: Semiring<Z, B, Output = Z>,
    Z: Scalar,
    B: Scalar,
{
    let shape = (c.nrows(), c.ncols());
    let t = product(shape, mask, semiring, c, b, desc, MxmMethod::Auto);
    write_back_matrix(c, mask, accum, t, true, desc.replace);
}

/// `T = A (+).(x) B` (with the descriptor's transposes) for an output of `c_shape`, after
/// the shape checks: the part of [`mxm`] before the write-back.
#[allow(clippy::too_many_arguments)]
fn product<S, A, B>(
    c_shape: (usize, usize),
    mask: Option<&MatrixMask>,
    semiring: S,
    a: &Csr<A>,
    b: &Csr<B>,
    desc: &MatrixDescriptor,
    method: MxmMethod,
) -> Csr<S::Output>
where
    S: Semiring<A, B>,
    A: Scalar,
    B: Scalar,
{
    let a = maybe_transposed(a, desc.transpose_a);
    // The inner dimension and the output's columns, from B as the product sees it.
    let (inner, ncols) = if desc.transpose_b {
        (b.ncols(), b.nrows())
    } else {
        (b.nrows(), b.ncols())
    };
    assert_eq!(a.ncols(), inner, "ncols(A) != nrows(B) in mxm");
    assert_eq!(
        c_shape,
        (a.nrows(), ncols),
        "C's shape != nrows(A) x ncols(B) in mxm"
    );
    check_matrix_mask(mask, c_shape.0, c_shape.1);
    let method = match method {
        MxmMethod::Auto => choose::mxm(&a, b, mask, desc.transpose_b),
        forced => forced,
    };
    match method {
        MxmMethod::Dot => {
            let bt = maybe_transposed(b, !desc.transpose_b);
            kernel::mxm_dot(semiring, &a, &bt, mask)
        }
        _ => {
            let b = maybe_transposed(b, desc.transpose_b);
            kernel::mxm_saxpy(semiring, &a, &b, mask)
        }
    }
}

/// `w<m> = w (.) reduce(A)` -- GrB_Matrix_reduce_Monoid: `t(i)` is the monoid sum of row
/// `i`'s entries in column order (stopping at a terminal value), for every non-empty row;
/// under `desc.transpose` it is column `i`'s sum, in row order.
///
/// # Panics
/// If `w` does not have `nrows(A)` entries (`ncols(A)` transposed), or the mask does
/// not have `w`'s length.
pub fn reduce_rows<T, M>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    monoid: M,
    a: &Csr<T>,
    desc: &Descriptor,
) where
    T: Scalar,
    M: Monoid<T>,
{
    let a = maybe_transposed(a, desc.transpose);
    assert_eq!(w.len(), a.nrows(), "w.len() != the number of rows reduced");
    check_mask(mask, w.len());
    let (idx, vals) = kernel::reduce_rows(&monoid, &a);
    let t = match mask {
        Some(m) => {
            let (idx, vals): (Vec<Index>, Vec<T>) = idx
                .into_iter()
                .zip(vals)
                .filter(|&(i, _)| m.allows(i as usize))
                .unzip();
            // SAFETY: a subsequence of strictly increasing in-range indices.
            unsafe { SparseVector::new_unchecked(w.len(), idx, vals) }
        }
        // SAFETY: the non-empty rows in ascending order, each below nrows.
        None => unsafe { SparseVector::new_unchecked(w.len(), idx, vals) },
    };
    write_back(w, mask, accum, Vector::Sparse(t), true, desc.replace);
}

/// `s = (+)_{i, j} A(i, j)` -- GrB_Matrix_reduce to a scalar: each row summed in column
/// order, the row sums in row order within fixed blocks of rows, then the blocks' sums
/// in order (the identity when `A` has no entries). The grouping is fixed by the data,
/// so a float sum is the same for any thread count.
pub fn reduce_matrix<T: Scalar, M: Monoid<T>>(monoid: M, a: &Csr<T>) -> T {
    kernel::reduce_matrix(&monoid, a).unwrap_or_else(|| monoid.identity())
}
