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

/// `w<m> = w (.) (w (+) u)` -- [`ewise_add`] with the output as its first operand:
/// `op(w(i), u(i))` where both are present, the present one elsewhere, computed from
/// the old `w` before the masked write-back.
///
/// # Panics
/// If the lengths of `w`, `u` and the mask differ.
pub fn ewise_add_inplace<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    op: &impl BinaryOp<T, T, Output = T>,
    u: &Vector<T>,
    desc: &Descriptor,
) {
    assert_eq!(w.len(), u.len(), "w.len() != u.len()");
    check_mask(mask, w.len());
    let t = ewise::union(op, w, u);
    write::write_back(w, mask, accum, t, false, desc.replace);
}

/// `w<m> = w (.) (w (x) u)` -- [`ewise_mult`] with the output as its first operand:
/// `op(w(i), u(i))` where both are present, computed from the old `w` before the masked
/// write-back. `u` may have another type.
///
/// # Panics
/// If the lengths of `w`, `u` and the mask differ.
pub fn ewise_mult_inplace<Z: Scalar, Y: Scalar>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    accum: Accum<'_, Z>,
    op: &impl BinaryOp<Z, Y, Output = Z>,
    u: &Vector<Y>,
    desc: &Descriptor,
) {
    assert_eq!(w.len(), u.len(), "w.len() != u.len()");
    check_mask(mask, w.len());
    let t = ewise::intersection(op, w, u);
    write::write_back(w, mask, accum, t, false, desc.replace);
}
