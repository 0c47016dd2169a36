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
    if !desc.transpose {
        return vxm_with_method(w, mask, accum, semiring, u, a, desc, PushMethod::Auto);
    }
    assert_eq!(u.len(), a.ncols(), "u.len() != A.ncols() (transposed vxm)");
    assert_eq!(w.len(), a.nrows(), "w.len() != A.nrows() (transposed vxm)");
    check_mask(mask, w.len());
    let t = pull::mxv_pull(semiring, a, u, mask);
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
    assert_eq!(u.len(), a.nrows(), "u.len() != A.nrows()");
    assert_eq!(w.len(), a.ncols(), "w.len() != A.ncols()");
    check_mask(mask, w.len());
    let t = push::vxm_push_with(semiring, u, a, mask, method);
    write::write_back(w, mask, accum, t, true, desc.replace);
}
