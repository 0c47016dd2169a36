//! Assign a vector or a scalar to the whole of `w` under a mask.

use crate::algebra::Scalar;
use crate::backend::cpu::write;
use crate::descriptor::{Descriptor, Mask, MaskSet};
use crate::vector::{BitmapVector, SparseVector, Vector};

use super::{Accum, check_mask};

/// `w<m> = w (.) u` -- GrB_assign of a whole vector.
///
/// # Panics
/// If the lengths of `w`, `u` and the mask differ.
pub fn assign<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    u: &Vector<T>,
    desc: &Descriptor,
) {
    assert_eq!(w.len(), u.len(), "w.len() != u.len()");
    check_mask(mask, w.len());
    // A mask that allows nothing needs none of u (no copy of a long u).
    match mask {
        Some(m) if m.allows_none() => {
            write::write_back(w, mask, accum, Vector::new(u.len()), false, desc.replace)
        }
        _ => write::write_back_borrowed(w, mask, accum, u, desc.replace),
    }
}

/// `w<m> = w (.) x` -- the scalar `x` at every index the mask allows (every index
/// without a mask). With a mask that lists a few indices (a frontier), the cost is
/// proportional to their number, not to `w.len()`.
///
/// # Panics
/// If the mask's length differs from `w`'s.
pub fn assign_scalar<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    x: T,
    desc: &Descriptor,
) {
    check_mask(mask, w.len());
    let n = w.len();
    let t = match mask {
        None => Vector::full(n, x),
        Some(m) => match m.set() {
            MaskSet::Sorted(s) if !m.is_complemented() => {
                // SAFETY: a mask's sorted set is strictly increasing and below n.
                Vector::Sparse(unsafe {
                    SparseVector::new_unchecked(n, s.to_vec(), vec![x; s.len()])
                })
            }
            MaskSet::All if !m.is_complemented() => Vector::full(n, x),
            _ => Vector::Bitmap(BitmapVector::from_parts(
                n,
                m.allowed_words().into_owned(),
                vec![x; n],
            )),
        },
    };
    write::write_back(w, mask, accum, t, true, desc.replace);
}
