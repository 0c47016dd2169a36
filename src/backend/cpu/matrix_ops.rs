//! Matrix kernels other than products: element-wise union and intersection, apply and
//! select, extraction `A(I, J)`, the assignment region `C(I, J) = A` and the Kronecker
//! product. Each builds its result row by row with [`build_rows`] (so it does not depend on the
//! thread count) and returns it unmasked; the caller's write-back applies the mask and
//! the accumulator.

use crate::algebra::{Accum, BinaryOp, Index, Scalar};
use crate::matrix::Csr;

use super::mxm::for_each_common;
use super::rows::{
    Placement, RowOut, build_rows, build_rows_out, cost_prefix, cut_rows, cut_rows_by,
    cut_rows_by_entries,
};

/// Marks "not selected" in an inverse index map.
pub(crate) const NONE: Index = Index::MAX;

/// `T = A (+) B` over the union of the structures: `op(a, b)` where both are present,
/// the present one elsewhere. `A` and `B` have the same shape.
pub(crate) fn union<T: Scalar>(
    op: &impl BinaryOp<T, T, Output = T>,
    a: &Csr<T>,
    b: &Csr<T>,
) -> Csr<T> {
    let (oa, ob) = (a.offsets(), b.offsets());
    let bounds = cut_rows_by(a.nrows(), |i| i as u64 + oa[i] + ob[i]);
    build_rows_out(
        a.nrows(),
        a.ncols(),
        &bounds,
        Placement::Bounded(a.nvals() + b.nvals()),
        || (),
        |_, i, out| {
            let RowOut { cols, vals } = out;
            let (ac, av) = a.row(i);
            let (bc, bv) = b.row(i);
            let (mut p, mut q) = (0, 0);
            while p < ac.len() && q < bc.len() {
                match ac[p].cmp(&bc[q]) {
                    std::cmp::Ordering::Less => {
                        cols.push(ac[p]);
                        vals.push(av[p]);
                        p += 1;
                    }
                    std::cmp::Ordering::Greater => {
                        cols.push(bc[q]);
                        vals.push(bv[q]);
                        q += 1;
                    }
                    std::cmp::Ordering::Equal => {
                        cols.push(ac[p]);
                        vals.push(op.apply(av[p], bv[q]));
                        p += 1;
                        q += 1;
                    }
                }
            }
            cols.extend_from_slice(&ac[p..]);
            vals.extend_from_slice(&av[p..]);
            cols.extend_from_slice(&bc[q..]);
            vals.extend_from_slice(&bv[q..]);
        },
    )
}

/// `T = A (x) B` over the intersection of the structures, row by row with
/// [`for_each_common`] (galloping when one row is much longer than the other).
pub(crate) fn intersection<X: Scalar, Y: Scalar, Z: Scalar>(
    op: &impl BinaryOp<X, Y, Output = Z>,
    a: &Csr<X>,
    b: &Csr<Y>,
) -> Csr<Z> {
    // A row costs about its shorter operand row; both rows' lengths are a fair proxy
    // known from the offsets.
    let (oa, ob) = (a.offsets(), b.offsets());
    let bounds = cut_rows_by(a.nrows(), |i| i as u64 + oa[i] + ob[i]);
    build_rows_out(
        a.nrows(),
        a.ncols(),
        &bounds,
        Placement::Bounded(a.nvals().min(b.nvals())),
        || (),
        |_, i, out| {
            let (ac, av) = a.row(i);
            let (bc, bv) = b.row(i);
            for_each_common(ac, bc, |p, q| {
                out.push(ac[p], op.apply(av[p], bv[q]));
                false
            });
        },
    )
}

/// `T(i, j) = f(i, j, A(i, j))` where that is `Some`, over `A`'s structure: apply
/// (always `Some`) and select (`Some(x)` for the entries kept) alike.
pub(crate) fn filter_map<T: Scalar, Z: Scalar>(
    f: &(impl Fn(Index, Index, T) -> Option<Z> + Sync),
    a: &Csr<T>,
) -> Csr<Z> {
    let bounds = cut_rows_by_entries(a);
    // The result keeps at most A's entries.
    build_rows_out(
        a.nrows(),
        a.ncols(),
        &bounds,
        Placement::Bounded(a.nvals()),
        || (),
        |_, i, out| {
            let (ac, av) = a.row(i);
            for (&j, &x) in ac.iter().zip(av) {
                if let Some(z) = f(i as Index, j, x) {
                    out.push(j, z);
                }
            }
        },
    )
}

/// A selection of columns, resolved against a matrix's column count.
pub(crate) enum ColumnPick<'a> {
    /// The columns `lo..hi`, renumbered from 0.
    Range(Index, Index),
    /// An explicit list: output column `p` is input column `list[p]`.
    List(&'a [Index]),
}

impl ColumnPick<'_> {
    fn len(&self) -> usize {
        match self {
            ColumnPick::Range(lo, hi) => (hi - lo) as usize,
            ColumnPick::List(l) => l.len(),
        }
    }
}

/// The inverse of a column list over `ncols` input columns, as CSR: the output
/// positions that take input column `c` are `pos[start[c]..start[c + 1]]`, ascending.
struct Inverse {
    start: Vec<u32>,
    pos: Vec<Index>,
}

fn inverse(list: &[Index], ncols: usize) -> Inverse {
    let mut start = vec![0u32; ncols + 1];
    for &c in list {
        start[c as usize + 1] += 1;
    }
    for c in 0..ncols {
        start[c + 1] += start[c];
    }
    let mut fill = start.clone();
    let mut pos = vec![0; list.len()];
    for (p, &c) in list.iter().enumerate() {
        pos[fill[c as usize] as usize] = p as Index;
        fill[c as usize] += 1;
    }
    Inverse { start, pos }
}

/// `T = A(rows, cols)`: output row `p` is input row `rows[p]`, with its columns picked
/// by `cols`. Every index is in range (the caller checked).
pub(crate) fn extract<T: Scalar>(a: &Csr<T>, rows: &[Index], cols: &ColumnPick<'_>) -> Csr<T> {
    let ncols_out = cols.len();
    let (list, increasing, inv) = match cols {
        ColumnPick::List(l) => {
            let increasing = l.windows(2).all(|w| w[0] < w[1]);
            (*l, increasing, Some(inverse(l, a.ncols())))
        }
        ColumnPick::Range(..) => (&[][..], true, None),
    };
    let bounds = cut_rows(&cost_prefix(rows.len(), |p| {
        a.degree(rows[p] as usize) as u64
    }));
    build_rows(
        rows.len(),
        ncols_out,
        &bounds,
        Vec::<(Index, T)>::new,
        |tmp, p, out_cols, out_vals| {
            let (ac, av) = a.row(rows[p] as usize);
            match cols {
                ColumnPick::Range(lo, hi) => {
                    let s = ac.partition_point(|&c| c < *lo);
                    let e = ac.partition_point(|&c| c < *hi);
                    out_cols.extend(ac[s..e].iter().map(|&c| c - lo));
                    out_vals.extend_from_slice(&av[s..e]);
                }
                ColumnPick::List(_) => {
                    let log = usize::BITS - ac.len().leading_zeros();
                    if list.len() * (log as usize) < ac.len() {
                        // Few picked columns against a long row: search for each, in
                        // output order.
                        for (q, &c) in list.iter().enumerate() {
                            if let Ok(k) = ac.binary_search(&c) {
                                out_cols.push(q as Index);
                                out_vals.push(av[k]);
                            }
                        }
                        return;
                    }
                    let inv = inv.as_ref().expect("a list has its inverse");
                    tmp.clear();
                    for (&c, &x) in ac.iter().zip(av) {
                        let (s, e) = (inv.start[c as usize], inv.start[c as usize + 1]);
                        for &q in &inv.pos[s as usize..e as usize] {
                            tmp.push((q, x));
                        }
                    }
                    if !increasing {
                        tmp.sort_unstable_by_key(|e| e.0);
                    }
                    out_cols.extend(tmp.iter().map(|e| e.0));
                    out_vals.extend(tmp.iter().map(|e| e.1));
                }
            }
        },
    )
}

/// The inverse of a duplicate-free index list over `n` indices: `inv[list[p]] = p`,
/// [`NONE`] elsewhere. `None` if the list repeats an index.
pub(crate) fn inverse_unique(list: &[Index], n: usize) -> Option<Vec<Index>> {
    let mut inv = vec![NONE; n];
    for (p, &i) in list.iter().enumerate() {
        if inv[i as usize] != NONE {
            return None;
        }
        inv[i as usize] = p as Index;
    }
    Some(inv)
}

/// Renumbers new entries `(position in list, value)` into `list[position]` and sorts
/// them into `out` (cleared first); `increasing` says `list` is increasing, so they are
/// already sorted.
pub(crate) fn place<T: Scalar>(
    new: impl Iterator<Item = (Index, T)>,
    list: &[Index],
    increasing: bool,
    out: &mut Vec<(Index, T)>,
) {
    out.clear();
    out.extend(new.map(|(p, x)| (list[p as usize], x)));
    if !increasing {
        out.sort_unstable_by_key(|e| e.0);
    }
}

/// One row (or the vector) of an assignment: the old sorted entries `(oc, ov)` merged
/// with the `new` ones (sorted, in the output's numbering). Where both have an entry the
/// new value wins, or `accum(old, new)`; an old entry alone is kept outside the region
/// (`col_inv[j] == NONE`) or under an accumulator, and deleted otherwise.
pub(crate) fn merge_assigned<T: Scalar>(
    oc: &[Index],
    ov: &[T],
    new: &[(Index, T)],
    col_inv: &[Index],
    accum: Accum<'_, T>,
    cols: &mut Vec<Index>,
    vals: &mut Vec<T>,
) {
    let (mut s, mut t) = (0, 0);
    while s < oc.len() || t < new.len() {
        let jc = oc.get(s).copied().unwrap_or(NONE);
        let ja = new.get(t).map_or(NONE, |e| e.0);
        if s < oc.len() && (t == new.len() || jc < ja) {
            if accum.is_some() || col_inv[jc as usize] == NONE {
                cols.push(jc);
                vals.push(ov[s]);
            }
            s += 1;
        } else if s < oc.len() && jc == ja {
            cols.push(jc);
            vals.push(match accum {
                Some(op) => op.apply(ov[s], new[t].1),
                None => new[t].1,
            });
            s += 1;
            t += 1;
        } else {
            cols.push(ja);
            vals.push(new[t].1);
            t += 1;
        }
    }
}

/// `Z` for `C(rows, cols) = accum ? C(rows, cols) (.) A : A`, everything else of `C`
/// kept. `row_inv` and `col_inv` are [`inverse_unique`] of the lists over `C`'s rows and
/// columns; `A` is `rows.len() x cols.len()`.
pub(crate) fn assign_region<T: Scalar>(
    c: &Csr<T>,
    accum: Accum<'_, T>,
    a: &Csr<T>,
    row_inv: &[Index],
    cols: &[Index],
    col_inv: &[Index],
) -> Csr<T> {
    let increasing = cols.windows(2).all(|w| w[0] < w[1]);
    let bounds = cut_rows(&cost_prefix(c.nrows(), |i| {
        let p = row_inv[i];
        (c.degree(i) + if p == NONE { 0 } else { a.degree(p as usize) }) as u64
    }));
    build_rows(
        c.nrows(),
        c.ncols(),
        &bounds,
        Vec::<(Index, T)>::new,
        |tmp, i, out_cols, out_vals| {
            let (cc, cv) = c.row(i);
            let p = row_inv[i];
            if p == NONE {
                out_cols.extend_from_slice(cc);
                out_vals.extend_from_slice(cv);
                return;
            }
            let (ac, av) = a.row(p as usize);
            place(
                ac.iter().copied().zip(av.iter().copied()),
                cols,
                increasing,
                tmp,
            );
            merge_assigned(cc, cv, tmp, col_inv, accum, out_cols, out_vals);
        },
    )
}

/// `T = kron(A, B)`: `T(i * mb + k, j * nb + l) = op(A(i, j), B(k, l))` for `B`
/// `mb x nb`. The caller checked that the shape fits an [`Index`].
pub(crate) fn kronecker<X: Scalar, Y: Scalar, Z: Scalar>(
    op: &impl BinaryOp<X, Y, Output = Z>,
    a: &Csr<X>,
    b: &Csr<Y>,
) -> Csr<Z> {
    let (mb, nb) = (b.nrows(), b.ncols());
    let nrows = a.nrows() * mb;
    let ncols = a.ncols() * nb;
    let bounds = cut_rows(&cost_prefix(nrows, |r| {
        (a.degree(r / mb) * b.degree(r % mb)) as u64
    }));
    build_rows(
        nrows,
        ncols,
        &bounds,
        || (),
        |_, r, cols, vals| {
            let (ac, av) = a.row(r / mb);
            let (bc, bv) = b.row(r % mb);
            for (&j, &x) in ac.iter().zip(av) {
                let base = j as usize * nb;
                for (&l, &y) in bc.iter().zip(bv) {
                    cols.push((base + l as usize) as Index);
                    vals.push(op.apply(x, y));
                }
            }
        },
    )
}
