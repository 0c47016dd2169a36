//! `w<m> = w (.) (u (+).(x) A)`: push, SpMSpV over the out-edges of `u`'s entries.

use crate::algebra::{Scalar, Semiring};
pub use crate::backend::cpu::push::PushMethod;
use crate::backend::cpu::{pull, push, write};
use crate::descriptor::{Descriptor, Mask};
use crate::matrix::Csr;
use crate::vector::Vector;

use super::{Accum, check_mask};

/// `w<m> = w (.) (u (+).(x) A)` -- push: each entry `u(k)` scatters `A(k, j) (x) u(k)` to
/// the `j` the mask allows; the terms of one `j` are summed in ascending `k`.
///
/// With `desc.transpose`, computes `u (+).(x) A'` by pulling over `A`'s rows instead.
/// The result is sparse (push) or a bitmap (pull).
///
/// # Panics
/// If `u.len() != A.nrows()` (or `A.ncols()` transposed), or `w` or the mask do not have
/// the output's length.
///
/// # Method
/// Push chooses its accumulator per call: a sort of the terms when the product is tiny
/// next to the output length, a dense (Gustavson) accumulator otherwise; the result is
/// a bitmap above 4% fill. Every method gives the same bytes, for any thread count.
///
/// # Complexity
/// Push: O(sum of out-degrees of `u`'s entries + the output length), no sort when the
/// output is dense; a tiny product costs a sort of its terms.
pub fn vxm<S, A, U>(
    w: &mut Vector<S::Output>,
    mask: Option<&Mask>,
    accum: Accum<'_, S::Output>,
    semiring: S,
    u: &Vector<U>,
    a: &Csr<A>,
    desc: &Descriptor,
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let t = product(w.len(), mask, semiring, u, a, desc, PushMethod::Auto);
    write::write_back(w, mask, accum, t, true, desc.replace);
}

/// `w<m> = w (.) (w (+).(x) A)` -- [`vxm`] with the output as its input (GrB_vxm with
/// `w` aliased to `u`): the product is computed from the old `w` before the masked
/// write-back, so `w = w min.plus A` is one call with no clone.
///
/// # Panics
/// If `A` is not square with `w.len()` rows, or the mask does not have `w`'s length.
///
/// # Complexity
/// As [`vxm`] with `u = w`.
pub fn vxm_inplace<S, A, Z>(
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
    assert_eq!(a.nrows(), a.ncols(), "A is not square (vxm_inplace)");
    let t = product(w.len(), mask, semiring, w, a, desc, PushMethod::Auto);
    write::write_back(w, mask, accum, t, true, desc.replace);
}

/// [`vxm`] (push form) with the accumulator method forced: for tests that compare the
/// methods byte for byte. Not part of the stable API.
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub fn vxm_with_method<S, A, U>(
    w: &mut Vector<S::Output>,
    mask: Option<&Mask>,
    accum: Accum<'_, S::Output>,
    semiring: S,
    u: &Vector<U>,
    a: &Csr<A>,
    desc: &Descriptor,
    method: PushMethod,
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    assert!(!desc.transpose, "vxm_with_method forces a push method");
    let t = product(w.len(), mask, semiring, u, a, desc, method);
    write::write_back(w, mask, accum, t, true, desc.replace);
}

/// `t = u (+).(x) A` (or `A'` under `desc.transpose`) for an output of `w_len`, after
/// the shape checks: the part of [`vxm`] before the write-back.
fn product<S, A, U>(
    w_len: usize,
    mask: Option<&Mask>,
    semiring: S,
    u: &Vector<U>,
    a: &Csr<A>,
    desc: &Descriptor,
    method: PushMethod,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    if desc.transpose {
        assert_eq!(u.len(), a.ncols(), "u.len() != A.ncols() (transposed vxm)");
        assert_eq!(w_len, a.nrows(), "w.len() != A.nrows() (transposed vxm)");
        check_mask(mask, w_len);
        pull::mxv_pull(semiring, a, u, mask)
    } else {
        assert_eq!(u.len(), a.nrows(), "u.len() != A.nrows()");
        assert_eq!(w_len, a.ncols(), "w.len() != A.ncols()");
        check_mask(mask, w_len);
        push::vxm_push_with(semiring, u, a, mask, method)
    }
}
