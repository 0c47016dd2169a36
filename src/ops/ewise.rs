//! Element-wise add (union of structures) and mult (intersection).

use crate::algebra::{BinaryOp, Scalar};
use crate::backend::cpu::{ewise, write};
use crate::descriptor::{Descriptor, Mask};
use crate::vector::Vector;

use super::{Accum, check_mask};

/// `w<m> = w (.) (u (+) v)` -- union: `op(u(i), v(i))` where both are present, the
/// present one elsewhere (GrB_eWiseAdd).
///
/// # Panics
/// If the lengths of `w`, `u`, `v` and the mask differ.
pub fn ewise_add<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    op: &impl BinaryOp<T, T, Output = T>,
    u: &Vector<T>,
    v: &Vector<T>,
    desc: &Descriptor,
) {
    assert_eq!(u.len(), v.len(), "u.len() != v.len()");
    assert_eq!(w.len(), u.len(), "w.len() != u.len()");
    check_mask(mask, w.len());
    let t = ewise::union(op, u, v);
    write::write_back(w, mask, accum, t, false, desc.replace);
}

/// `w<m> = w (.) (u (x) v)` -- intersection: `op(u(i), v(i))` where both are present
/// (GrB_eWiseMult).
///
/// # Panics
/// If the lengths of `w`, `u`, `v` and the mask differ.
pub fn ewise_mult<X: Scalar, Y: Scalar, Z: Scalar>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    accum: Accum<'_, Z>,
    op: &impl BinaryOp<X, Y, Output = Z>,
    u: &Vector<X>,
    v: &Vector<Y>,
    desc: &Descriptor,
) {
    assert_eq!(u.len(), v.len(), "u.len() != v.len()");
    assert_eq!(w.len(), u.len(), "w.len() != u.len()");
    check_mask(mask, w.len());
    let t = ewise::intersection(op, u, v);
    write::write_back(w, mask, accum, t, false, desc.replace);
}
