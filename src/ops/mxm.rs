//! `C<M> = C (.) (A (+).(x) B)` -- GrB_mxm, with the method chosen per call -- and the
//! reductions of a matrix to a vector (GrB_Matrix_reduce_Monoid) and to a scalar.

use crate::algebra::{Accum, Index, Monoid, Scalar, Semiring};
use crate::backend::cpu::mxm::{self as kernel, dot_cost, saxpy_cost, saxpy_cost_from_lengths};
use crate::backend::cpu::write::write_back;
use crate::backend::cpu::write_matrix::write_back_matrix;
use crate::descriptor::{Descriptor, Mask, MatrixDescriptor, MatrixMask};
use crate::matrix::Csr;
use crate::vector::{SparseVector, Vector};

use super::check_mask;
use super::matrix::{check_matrix_mask, maybe_transposed};

/// How [`mxm_with_method`] computes the product.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MxmMethod {
    /// Chosen per call by the estimated work (what [`mxm`] does).
    Auto,
    /// Gustavson saxpy over the rows of `B`.
    Saxpy,
    /// Dot products over the rows of `B'`.
    Dot,
}

/// `C<M> = C (.) (A (+).(x) B)` -- GrB_mxm: `T(i, j)` is the monoid sum over `k` of
/// `multiply(A(i, k), B(k, j), k)` (the left operand first), summed in ascending `k`,
/// then written through the mask and the accumulator as every operation is.
/// `desc.transpose_a` and `desc.transpose_b` use `A'` and `B'`.
///
/// # Method
/// Chosen per call, as SuiteSparse:GraphBLAS does (see ENGINE.md); the choice never
/// changes the result, which is the same bytes whichever method runs:
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

/// [`mxm`] with the method forced: for tests that compare the methods byte for byte, and
/// for benchmarks. Not part of the stable API.
#[doc(hidden)]
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
        MxmMethod::Auto => choose(&a, b, mask, desc.transpose_b),
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

/// What a transpose costs per entry of the transposed matrix, in saxpy terms.
const TRANSPOSE_PER_ENTRY: u64 = 6;

/// The method [`mxm`] runs: the one with less estimated work. `b` is as given, so
/// `b_is_bt` says that its rows are the rows of `B'`.
fn choose<A: Scalar, B: Scalar>(
    a: &Csr<A>,
    b: &Csr<B>,
    mask: Option<&MatrixMask>,
    b_is_bt: bool,
) -> MxmMethod {
    let ncols = if b_is_bt { b.nrows() } else { b.ncols() };
    match mask {
        Some(m) if !m.is_complemented() => {
            // A transpose writes every entry of B once, at a random place, into fresh
            // memory: about TRANSPOSE_PER_ENTRY saxpy terms an entry (measured on the
            // road graph's triangle count, where it decides the method).
            let transpose = TRANSPOSE_PER_ENTRY * b.nvals() as u64;
            // The method that needs no transpose wins outright when its whole estimate is
            // below the other's transpose, and then the other's estimate, itself a pass
            // over B, is never made: a product with a small A (a frontier of a few rows)
            // must not cost O(nvals(B)) to plan.
            // A merge step of a dot costs about twice a saxpy term (branchy, two
            // streams): measured on triangle counting and the masked square of
            // Kronecker 18, where the plain estimates favour dot and saxpy is 2x faster.
            let (dot, saxpy) = if b_is_bt {
                let dot = 2 * dot_cost(|i| a.degree(i), |j| b.degree(j) as u64, m);
                // Saxpy costs at least the transpose and the fixed cost of its rows.
                if dot <= transpose + kernel::saxpy_rows_cost(a, m) {
                    return MxmMethod::Dot;
                }
                // Saxpy over B's rows: B' transposed back, with the row lengths of B'.
                let mut b_len = vec![0u64; b.ncols()];
                b.indices().iter().for_each(|&k| b_len[k as usize] += 1);
                (dot, transpose + saxpy_cost_from_lengths(a, &b_len, m))
            } else {
                let saxpy = saxpy_cost(a, b, Some(m));
                if saxpy <= transpose {
                    return MxmMethod::Saxpy;
                }
                // The row lengths of B' are B's column counts.
                let mut bt_len = vec![0u64; b.ncols()];
                b.indices().iter().for_each(|&j| bt_len[j as usize] += 1);
                (
                    transpose + 2 * dot_cost(|i| a.degree(i), |j| bt_len[j], m),
                    saxpy,
                )
            };
            if dot < saxpy {
                MxmMethod::Dot
            } else {
                MxmMethod::Saxpy
            }
        }
        _ if a.nrows() * ncols <= 100 => MxmMethod::Dot,
        _ => MxmMethod::Saxpy,
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
