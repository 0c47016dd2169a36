//! The masked write-back `C<M> = C (.) T` that ends every matrix operation, with the
//! same semantics as the vector one ([`super::write`]): `Z = accum ? C (.) T (union) :
//! T`; then `C(i, j) = Z(i, j)` where the mask allows `(i, j)`, and elsewhere `C(i, j)`
//! is kept (or deleted under replace). Rows are merged in parallel, each in one pass
//! over its three sorted lists.

use crate::algebra::{Accum, Index, Scalar};
use crate::descriptor::MatrixMask;
use crate::matrix::Csr;

use super::rows::{Placement, build_rows_out, cut_rows_by};

/// Writes the computed result `t` into `c`.
///
/// `t_masked` says that `t` has entries only where the mask allows (the masked products
/// compute nothing elsewhere), so with no accumulator and nothing of the old `c` to keep,
/// `t` simply becomes `c`.
pub(crate) fn write_back_matrix<Z: Scalar>(
    c: &mut Csr<Z>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, Z>,
    t: Csr<Z>,
    t_masked: bool,
    replace: bool,
) {
    debug_assert_eq!((c.nrows(), c.ncols()), (t.nrows(), t.ncols()));
    if accum.is_none()
        && match mask {
            None => true,
            Some(_) => t_masked && (replace || c.nvals() == 0),
        }
    {
        *c = t;
        return;
    }
    // A row costs its entries in c and t and the mask's row; the first two, known from
    // the offsets, are proxy enough, and the merge keeps at most both.
    let (oc, ot) = (c.offsets(), t.offsets());
    let bounds = cut_rows_by(c.nrows(), |i| i as u64 + oc[i] + ot[i]);
    let merged = build_rows_out(
        c.nrows(),
        c.ncols(),
        &bounds,
        Placement::Bounded(c.nvals() + t.nvals()),
        || (),
        |_, i, out| merge_row(c, &t, mask, accum, replace, i, &mut out.cols, &mut out.vals),
    );
    *c = merged;
}

/// One row of the write-back: a merge of `c`'s row, `t`'s row and the mask's row.
#[allow(clippy::too_many_arguments)]
fn merge_row<Z: Scalar>(
    c: &Csr<Z>,
    t: &Csr<Z>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, Z>,
    replace: bool,
    i: usize,
    cols: &mut Vec<Index>,
    vals: &mut Vec<Z>,
) {
    let (cc, cv) = c.row(i);
    let (tc, tv) = t.row(i);
    let (mrow, complement) = match mask {
        Some(m) => (m.row(i), m.is_complemented()),
        None => (&[][..], true),
    };
    let (mut a, mut b, mut p) = (0, 0, 0);
    const END: u64 = u32::MAX as u64 + 1;
    while a < cc.len() || b < tc.len() {
        let ja = cc.get(a).map_or(END, |&j| j as u64);
        let jb = tc.get(b).map_or(END, |&j| j as u64);
        let j = ja.min(jb);
        let old = (ja == j).then(|| cv[a]);
        let new = (jb == j).then(|| tv[b]);
        a += old.is_some() as usize;
        b += new.is_some() as usize;
        while p < mrow.len() && (mrow[p] as u64) < j {
            p += 1;
        }
        let in_mask = p < mrow.len() && mrow[p] as u64 == j;
        let keep = if in_mask != complement {
            match (accum, old, new) {
                (Some(op), Some(x), Some(y)) => Some(op.apply(x, y)),
                (Some(_), x, None) => x,
                (_, _, y) => y,
            }
        } else if replace {
            None
        } else {
            old
        };
        if let Some(z) = keep {
            cols.push(j as Index);
            vals.push(z);
        }
    }
}
