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
    let t = if desc.transpose {
        assert_eq!(u.len(), a.nrows(), "u.len() != A.nrows() (transposed mxv)");
        assert_eq!(w.len(), a.ncols(), "w.len() != A.ncols() (transposed mxv)");
        check_mask(mask, w.len());
        push::vxm_push(semiring, u, a, mask)
    } else {
        assert_eq!(u.len(), a.ncols(), "u.len() != A.ncols()");
        assert_eq!(w.len(), a.nrows(), "w.len() != A.nrows()");
        check_mask(mask, w.len());
        pull::mxv_pull(semiring, a, u, mask)
    };
    write::write_back(w, mask, accum, t, true, desc.replace);
}
