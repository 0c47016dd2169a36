//! Apply a function to every entry, and select the entries a predicate keeps.

use crate::algebra::{Index, Scalar};
use crate::backend::cpu::{ewise, write};
use crate::descriptor::{Descriptor, Mask};
use crate::vector::Vector;

use super::{Accum, check_mask};

/// `w<m> = w (.) f(u)` -- `f` applied to every present entry (GrB_apply).
///
/// # Panics
/// If the lengths of `w`, `u` and the mask differ.
pub fn apply<T: Scalar, Z: Scalar>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    accum: Accum<'_, Z>,
    f: impl Fn(T) -> Z + Sync,
    u: &Vector<T>,
    desc: &Descriptor,
) {
    apply_indexed(w, mask, accum, |_, x| f(x), u, desc)
}

/// `w<m> = w (.) f(i, u(i))` -- a positional apply (GrB_apply with an IndexUnaryOp):
/// `f` also sees the index. A vector is a column: `i` is the entry's row and its column
/// is 0, so GrB_ROWINDEX is `i`, GrB_COLINDEX is 0, and a matrix operator such as
/// [`rowindex`](super::rowindex) goes through [`column`](super::column).
///
/// # Panics
/// If the lengths of `w`, `u` and the mask differ.
pub fn apply_indexed<T: Scalar, Z: Scalar>(
    w: &mut Vector<Z>,
    mask: Option<&Mask>,
    accum: Accum<'_, Z>,
    f: impl Fn(Index, T) -> Z + Sync,
    u: &Vector<T>,
    desc: &Descriptor,
) {
    assert_eq!(w.len(), u.len(), "w.len() != u.len()");
    check_mask(mask, w.len());
    // Accumulating into a dense w with no mask: f's values go straight into w, with no
    // vector in between (what the write-back would do with them, entry for entry).
    if let (Some(op), None, Vector::Dense(d)) = (accum, mask, &mut *w) {
        write::accumulate_dense(d.as_mut_slice(), op, u, f);
        return;
    }
    let t = ewise::apply(&f, u);
    write::write_back(w, mask, accum, t, false, desc.replace);
}

/// `w<m> = w (.) select(u)` -- the entries of `u` for which `pred(i, u(i))` holds
/// (GrB_select). A vector is a column: `i` is the entry's row and its column is 0, so
/// GrB_TRIL with `k = 0` keeps every entry and GrB_TRIU keeps only row 0; pass the
/// built-in predicates through [`column`](super::column): `column(tril(k))`.
///
/// # Panics
/// If the lengths of `w`, `u` and the mask differ.
pub fn select<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    pred: impl Fn(Index, T) -> bool + Sync,
    u: &Vector<T>,
    desc: &Descriptor,
) {
    assert_eq!(w.len(), u.len(), "w.len() != u.len()");
    check_mask(mask, w.len());
    let t = ewise::select(&pred, u);
    write::write_back(w, mask, accum, t, false, desc.replace);
}

/// `out[b] = select(u, bin(i, u(i)) == b)` for every `b < bins`, in one pass: several
/// GrB_select calls with disjoint predicates at once (an extension), as a frontier is
/// filed into buckets. An entry whose bin is `bins` or more is in no output. The outputs
/// are sparse, each of `u`'s length.
///
/// # Complexity
/// O(nvals(u)) (O(len(u)) for a bitmap `u`), sequential.
///
/// # Example
/// ```
/// use edgeblas::prelude::*;
/// let u = Vector::from_pairs(6, [(0, 1.0), (2, 5.0), (3, 9.0), (5, 2.0)]);
/// let parts = ops::partition(&u, 2, |_, x| if x < 3.0 { 0 } else if x < 6.0 { 1 } else { 2 });
/// assert_eq!(parts[0].to_pairs(), vec![(0, 1.0), (5, 2.0)]);
/// assert_eq!(parts[1].to_pairs(), vec![(2, 5.0)]); // 9.0 went to bin 2: dropped
/// ```
pub fn partition<T: Scalar>(
    u: &Vector<T>,
    bins: usize,
    bin: impl Fn(Index, T) -> usize,
) -> Vec<Vector<T>> {
    ewise::partition(&bin, bins, u)
}

/// `w<m> = w (.) f(w)` -- [`apply`] with the output as its input: `f` is applied to the
/// old entries of `w` before the masked write-back.
///
/// # Panics
/// If the mask does not have `w`'s length.
pub fn apply_inplace<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    f: impl Fn(T) -> T + Sync,
    desc: &Descriptor,
) {
    check_mask(mask, w.len());
    let t = ewise::apply(&|_, x| f(x), w);
    write::write_back(w, mask, accum, t, false, desc.replace);
}

/// `w<m> = w (.) select(w)` -- [`select`] with the output as its input: the entries of
/// the old `w` for which `pred(i, w(i))` holds, written back through the mask.
///
/// # Panics
/// If the mask does not have `w`'s length.
pub fn select_inplace<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    pred: impl Fn(Index, T) -> bool + Sync,
    desc: &Descriptor,
) {
    check_mask(mask, w.len());
    let t = ewise::select(&pred, w);
    write::write_back(w, mask, accum, t, false, desc.replace);
}
