//! `w<m> = w (.) (A (+).(x) u)`: pull, masked SpMV with early exit.

use crate::algebra::{Scalar, Semiring};
use crate::backend::cpu::{pull, push, write};
use crate::descriptor::{Descriptor, Mask};
use crate::matrix::Csr;
use crate::vector::Vector;

use super::{Accum, check_mask};

/// `w<m> = w (.) (A (+).(x) u)` -- pull: one row of `A` per output entry the mask
/// allows; a row stops at the monoid's terminal value (or at its first term when the
/// semiring's first term is its sum, as for `MinSecondI` over sorted rows).
///
/// In BFS, `A` here is the transpose of the adjacency (in-edges), so the row of an
/// unvisited vertex lists its possible parents. With `desc.transpose`, computes
/// `A' (+).(x) u` by pushing over `A`'s rows instead. The result is a bitmap (sparse when
/// the mask is a plain list of rows, or when pushing).
///
/// # Panics
/// If `u.len() != A.ncols()` (or `A.nrows()` transposed), or `w` or the mask do not have
/// the output's length.
///
/// # Complexity
/// O(entries scanned in the allowed rows), at most nnz(A).
pub fn mxv<S, A, U>(
    w: &mut Vector<S::Output>,
    mask: Option<&Mask>,
    accum: Accum<'_, S::Output>,
    semiring: S,
    a: &Csr<A>,
    u: &Vector<U>,
    desc: &Descriptor,
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    // w (.)= A u into a dense w with no mask: each row's sum goes straight into w.
    if let (None, Some(acc), false, false, Vector::Dense(d)) =
        (mask, accum, desc.transpose, desc.replace, &mut *w)
    {
        pull::mxv_pull_accumulate(semiring, a, u, d.as_mut_slice(), acc);
        return;
    }
    let t = product(w.len(), mask, semiring, a, u, desc);
    write::write_back(w, mask, accum, t, true, desc.replace);
}

/// `w<m> = w (.) (A (+).(x) w)` -- [`mxv`] with the output as its input (GrB_mxv with
/// `w` aliased to `u`): the product is computed from the old `w` before the masked
/// write-back, so `w = A plus.times w` is one call with no clone.
///
/// # Panics
/// If `A` is not square with `w.len()` rows, or the mask does not have `w`'s length.
///
/// # Complexity
/// As [`mxv`] with `u = w`.
pub fn mxv_inplace<S, A, Z>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    accum: Accum<'_, Z>,
    semiring: S,
    a: &Csr<A>,
    desc: &Descriptor,
) where
    S: Semiring<A, Z, Output = Z>,
    A: Scalar,
    Z: Scalar,
{
    assert_eq!(a.nrows(), a.ncols(), "A is not square (mxv_inplace)");
    let t = product(w.len(), mask, semiring, a, w, desc);
    write::write_back(w, mask, accum, t, true, desc.replace);
}

/// `t = A (+).(x) u` (or `A'` under `desc.transpose`) for an output of `w_len`, after
/// the shape checks: the part of [`mxv`] before the write-back.
fn product<S, A, U>(
    w_len: usize,
    mask: Option<&Mask>,
    semiring: S,
    a: &Csr<A>,
    u: &Vector<U>,
    desc: &Descriptor,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    if desc.transpose {
        assert_eq!(u.len(), a.nrows(), "u.len() != A.nrows() (transposed mxv)");
        assert_eq!(w_len, a.ncols(), "w.len() != A.ncols() (transposed mxv)");
        check_mask(mask, w_len);
        push::vxm_push(semiring, u, a, mask)
    } else {
        assert_eq!(u.len(), a.ncols(), "u.len() != A.ncols()");
        assert_eq!(w_len, a.nrows(), "w.len() != A.nrows()");
        check_mask(mask, w_len);
        pull::mxv_pull(semiring, a, u, mask)
    }
}
