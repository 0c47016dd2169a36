//! Matrix kernels other than products: element-wise union and intersection, apply,
//! extraction `A(I, J)`, the assignment region `C(I, J) = A` and the Kronecker product.
//! Each builds its result row by row with [`build_rows`] (so it does not depend on the
//! thread count) and returns it unmasked; the caller's write-back applies the mask and
//! the accumulator.

use crate::algebra::{Accum, BinaryOp, Index, Scalar};
use crate::matrix::Csr;

use super::rows::{build_rows, cost_prefix, cut_rows};

/// Marks "not selected" in an inverse index map.
pub(crate) const NONE: Index = Index::MAX;

/// `T = A (+) B` over the union of the structures: `op(a, b)` where both are present,
/// the present one elsewhere. `A` and `B` have the same shape.
pub(crate) fn union<T: Scalar>(
    op: &impl BinaryOp<T, T, Output = T>,
    a: &Csr<T>,
    b: &Csr<T>,
) -> Csr<T> {
    let bounds = cut_rows(&cost_prefix(a.nrows(), |i| {
        (a.degree(i) + b.degree(i)) as u64
    }));
    build_rows(
        a.nrows(),
        a.ncols(),
        &bounds,
        || (),
        |_, i, cols, vals| {
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

/// `T = A (x) B` over the intersection of the structures. When one row is much longer
/// than the other, the short one's columns are searched for in it (galloping), so the
/// cost is about `short * log(long / short)`, not `short + long`.
pub(crate) fn intersection<X: Scalar, Y: Scalar, Z: Scalar>(
    op: &impl BinaryOp<X, Y, Output = Z>,
    a: &Csr<X>,
    b: &Csr<Y>,
) -> Csr<Z> {
    let bounds = cut_rows(&cost_prefix(a.nrows(), |i| {
        a.degree(i).min(b.degree(i)) as u64
    }));
    build_rows(
        a.nrows(),
        a.ncols(),
        &bounds,
        || (),
        |_, i, cols, vals| {
            let (ac, av) = a.row(i);
            let (bc, bv) = b.row(i);
            if ac.len() * 8 < bc.len() {
                let mut from = 0;
                for (&j, &x) in ac.iter().zip(av) {
                    let q = from + bc[from..].partition_point(|&c| c < j);
                    if q < bc.len() && bc[q] == j {
                        cols.push(j);
                        vals.push(op.apply(x, bv[q]));
                    }
                    from = q;
                }
            } else if bc.len() * 8 < ac.len() {
                let mut from = 0;
                for (&j, &y) in bc.iter().zip(bv) {
                    let p = from + ac[from..].partition_point(|&c| c < j);
                    if p < ac.len() && ac[p] == j {
                        cols.push(j);
                        vals.push(op.apply(av[p], y));
                    }
                    from = p;
                }
            } else {
                let (mut p, mut q) = (0, 0);
                while p < ac.len() && q < bc.len() {
                    match ac[p].cmp(&bc[q]) {
                        std::cmp::Ordering::Less => p += 1,
                        std::cmp::Ordering::Greater => q += 1,
                        std::cmp::Ordering::Equal => {
                            cols.push(ac[p]);
                            vals.push(op.apply(av[p], bv[q]));
                            p += 1;
                            q += 1;
                        }
                    }
                }
            }
        },
    )
}

/// `T(i, j) = f(i, j, A(i, j))` over `A`'s structure.
pub(crate) fn apply<T: Scalar, Z: Scalar>(
    f: &(impl Fn(Index, Index, T) -> Z + Sync),
    a: &Csr<T>,
) -> Csr<Z> {
    let bounds = cut_rows(&cost_prefix(a.nrows(), |i| a.degree(i) as u64));
    build_rows(
        a.nrows(),
        a.ncols(),
        &bounds,
        || (),
        |_, i, cols, vals| {
            let (ac, av) = a.row(i);
            cols.extend_from_slice(ac);
            vals.extend(ac.iter().zip(av).map(|(&j, &x)| f(i as Index, j, x)));
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
            // A's row p, renumbered into C's columns, sorted.
            let (ac, av) = a.row(p as usize);
            tmp.clear();
            tmp.extend(ac.iter().zip(av).map(|(&q, &x)| (cols[q as usize], x)));
            if !increasing {
                tmp.sort_unstable_by_key(|e| e.0);
            }
            let (mut s, mut t) = (0, 0);
            while s < cc.len() || t < tmp.len() {
                let jc = cc.get(s).copied().unwrap_or(NONE);
                let ja = tmp.get(t).map_or(NONE, |e| e.0);
                if s < cc.len() && (t == tmp.len() || jc < ja) {
                    // Only C has (i, jc): kept outside the region or under an
                    // accumulator, deleted inside the region otherwise.
                    if accum.is_some() || col_inv[jc as usize] == NONE {
                        out_cols.push(jc);
                        out_vals.push(cv[s]);
                    }
                    s += 1;
                } else if s < cc.len() && jc == ja {
                    out_cols.push(jc);
                    out_vals.push(match accum {
                        Some(op) => op.apply(cv[s], tmp[t].1),
                        None => tmp[t].1,
                    });
                    s += 1;
                    t += 1;
                } else {
                    out_cols.push(ja);
                    out_vals.push(tmp[t].1);
                    t += 1;
                }
            }
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
