//! Extraction `C = A(I, J)` (and a row or a column into a vector) and assignment
//! `C(I, J) = A`, `w(I) = u`, with [`Indices`] for `I` and `J`.

use crate::algebra::{Accum, Index, Indices, Scalar};
use crate::backend::cpu::matrix_ops::{self, ColumnPick};
use crate::backend::cpu::write;
use crate::backend::cpu::write_matrix::write_back_matrix;
use crate::descriptor::{Descriptor, Mask, MatrixDescriptor, MatrixMask};
use crate::matrix::Csr;
use crate::vector::Vector;

use super::check_mask;
use super::matrix::{check_matrix_mask, check_shape, maybe_transposed};

/// The column pick for `cols` over `n` columns, checked.
fn column_pick<'a>(cols: &Indices<'a>, n: usize) -> ColumnPick<'a> {
    cols.check(n, "J");
    match *cols {
        Indices::All => ColumnPick::Range(0, n as Index),
        Indices::Range(lo, hi) => ColumnPick::Range(lo, hi),
        Indices::List(l) => ColumnPick::List(l),
    }
}

/// `C<M> = C (.) A(I, J)` -- GrB_Matrix_extract: `C(p, q) = A(I[p], J[q])`, `C` of
/// shape `|I| x |J|`. `I` and `J` may repeat indices and come in any order. Under
/// `desc.transpose_a` the source is `A'`.
///
/// # Panics
/// If an index is out of bounds, `C` is not `|I| x |J|`, or the mask has another shape.
pub fn extract_matrix<T: Scalar>(
    c: &mut Csr<T>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, T>,
    a: &Csr<T>,
    rows: &Indices<'_>,
    cols: &Indices<'_>,
    desc: &MatrixDescriptor,
) {
    let a = maybe_transposed(a, desc.transpose_a);
    let rows = rows.resolve(a.nrows(), "I");
    let pick = column_pick(cols, a.ncols());
    check_shape(c, rows.len(), cols.count(a.ncols()), "A(I, J)");
    check_matrix_mask(mask, c.nrows(), c.ncols());
    let t = matrix_ops::extract(&a, &rows, &pick);
    write_back_matrix(c, mask, accum, t, false, desc.replace);
}

/// `w<m> = w (.) A(i, J)` -- row `i` of `A` at the columns `J` (`w.len() == |J|`).
/// Under `desc.transpose` it is column `i` of `A` at the rows `J` (GrB_Col_extract with
/// the transpose, which reads a row).
///
/// # Panics
/// If `i` or an index of `J` is out of bounds, or the lengths of `w`, `J` and the mask
/// differ.
pub fn extract_row<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    a: &Csr<T>,
    i: Index,
    cols: &Indices<'_>,
    desc: &Descriptor,
) {
    if desc.transpose {
        let plain = Descriptor {
            transpose: false,
            ..*desc
        };
        return extract_col(w, mask, accum, a, cols, i, &plain);
    }
    assert!(
        (i as usize) < a.nrows(),
        "row {i} out of bounds for {} rows",
        a.nrows()
    );
    let pick = column_pick(cols, a.ncols());
    assert_eq!(w.len(), cols.count(a.ncols()), "w.len() != |J|");
    check_mask(mask, w.len());
    let row = matrix_ops::extract(a, &[i], &pick);
    let (_, _, _, idx, vals) = row.into_parts();
    let t = Vector::from_pairs(w.len(), idx.into_iter().zip(vals));
    write::write_back(w, mask, accum, t, false, desc.replace);
}

/// `w<m> = w (.) A(I, j)` -- GrB_Col_extract: column `j` of `A` at the rows `I`
/// (`w.len() == |I|`), each found by a binary search of its row. Under
/// `desc.transpose` it is row `j` of `A` at the columns `I`.
///
/// # Panics
/// If `j` or an index of `I` is out of bounds, or the lengths of `w`, `I` and the mask
/// differ.
pub fn extract_col<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    a: &Csr<T>,
    rows: &Indices<'_>,
    j: Index,
    desc: &Descriptor,
) {
    if desc.transpose {
        let plain = Descriptor {
            transpose: false,
            ..*desc
        };
        return extract_row(w, mask, accum, a, j, rows, &plain);
    }
    assert!(
        (j as usize) < a.ncols(),
        "column {j} out of bounds for {} columns",
        a.ncols()
    );
    let rows = rows.resolve(a.nrows(), "I");
    assert_eq!(w.len(), rows.len(), "w.len() != |I|");
    check_mask(mask, w.len());
    let pairs: Vec<(Index, T)> = rows
        .iter()
        .enumerate()
        .filter_map(|(p, &r)| {
            let (cols, vals) = a.row(r as usize);
            cols.binary_search(&j).ok().map(|k| (p as Index, vals[k]))
        })
        .collect();
    let t = Vector::from_pairs(w.len(), pairs);
    write::write_back(w, mask, accum, t, false, desc.replace);
}

/// The inverse of an assignment's index list, which must not repeat an index.
fn unique_inverse(list: &[Index], n: usize, what: &str) -> Vec<Index> {
    matrix_ops::inverse_unique(list, n)
        .unwrap_or_else(|| panic!("{what}: an assignment's index list repeats an index"))
}

/// `C<M>(I, J) = C(I, J) (.) A` -- GrB_Matrix_assign: `A` (or `A'` under
/// `desc.transpose_a`), of shape `|I| x |J|`, is written at `C(I[p], J[q])`. Inside the
/// region an entry of `C` that `A` lacks is deleted (kept under an accumulator); outside
/// it `C` is unchanged. The mask has `C`'s shape and applies to the whole of `C`, so
/// under replace the entries it does not allow are deleted everywhere.
///
/// # Panics
/// If an index is out of bounds or repeated, `A` is not `|I| x |J|`, or the mask does
/// not have `C`'s shape.
pub fn assign_matrix<T: Scalar>(
    c: &mut Csr<T>,
    mask: Option<&MatrixMask>,
    accum: Accum<'_, T>,
    a: &Csr<T>,
    rows: &Indices<'_>,
    cols: &Indices<'_>,
    desc: &MatrixDescriptor,
) {
    let a = maybe_transposed(a, desc.transpose_a);
    let rows = rows.resolve(c.nrows(), "I");
    let cols = cols.resolve(c.ncols(), "J");
    assert_eq!(
        (a.nrows(), a.ncols()),
        (rows.len(), cols.len()),
        "A's shape != |I| x |J|"
    );
    check_matrix_mask(mask, c.nrows(), c.ncols());
    let row_inv = unique_inverse(&rows, c.nrows(), "I");
    let col_inv = unique_inverse(&cols, c.ncols(), "J");
    let z = matrix_ops::assign_region(c, accum, &a, &row_inv, &cols, &col_inv);
    write_back_matrix(c, mask, None, z, false, desc.replace);
}

/// `w<m>(I) = w(I) (.) u` -- GrB_Vector_assign: `u` (of length `|I|`) is written at
/// `w(I[p])`. Inside `I` an entry of `w` that `u` lacks is deleted (kept under an
/// accumulator); outside `I`, `w` is unchanged. The mask has `w`'s length and applies to
/// the whole of `w`.
///
/// # Panics
/// If an index is out of bounds or repeated, `u.len() != |I|`, or the mask's length
/// differs from `w`'s.
pub fn assign_indices<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    u: &Vector<T>,
    indices: &Indices<'_>,
    desc: &Descriptor,
) {
    let list = indices.resolve(w.len(), "I");
    assert_eq!(u.len(), list.len(), "u.len() != |I|");
    check_mask(mask, w.len());
    let inv = unique_inverse(&list, w.len(), "I");
    let mut new = Vec::with_capacity(u.nvals());
    let increasing = list.windows(2).all(|x| x[0] < x[1]);
    matrix_ops::place(u.to_pairs().into_iter(), &list, increasing, &mut new);
    let (oc, ov): (Vec<Index>, Vec<T>) = w.to_pairs().into_iter().unzip();
    let (mut cols, mut vals) = (Vec::new(), Vec::new());
    matrix_ops::merge_assigned(&oc, &ov, &new, &inv, accum, &mut cols, &mut vals);
    let z = Vector::from_pairs(w.len(), cols.into_iter().zip(vals));
    write::write_back(w, mask, None, z, false, desc.replace);
}

/// `w<m> = w (.) u(I)` -- GrB_Vector_extract: `t(k) = u(I[k])` where `u(I[k])` is
/// present, `t` of length `|I|`. `I` may repeat indices and come in any order (FastSV's
/// grandparent step is `gp = f(f)`).
///
/// # Panics
/// If an index is out of bounds, or the lengths of `w`, `I` and the mask differ.
pub fn extract<T: Scalar>(
    w: &mut Vector<T>,
    mask: Option<&Mask>,
    accum: Accum<'_, T>,
    u: &Vector<T>,
    indices: &Indices<'_>,
    desc: &Descriptor,
) {
    let list = indices.resolve(u.len(), "I");
    assert_eq!(w.len(), list.len(), "w.len() != |I|");
    check_mask(mask, w.len());
    let t = crate::backend::cpu::ewise::gather(u, &list);
    write::write_back(w, mask, accum, t, false, desc.replace);
}

/// `w(I[k]) = w(I[k]) (+) u(k)` for every present `u(k)`, the terms that land on one
/// index combined by the monoid in ascending `k` (where `w(I[k])` is absent, the terms'
/// sum is stored). `I` may repeat indices: this is the scatter-reduce that GrB_assign
/// leaves undefined for repeated indices, and LAGraph writes by hand for FastSV's
/// hooking step `f(f) min= mngp`.
///
/// # Panics
/// If an index is out of bounds for `w`, or `u.len() != |I|`.
pub fn assign_reduce<T: Scalar, M: crate::algebra::Monoid<T>>(
    w: &mut Vector<T>,
    monoid: M,
    u: &Vector<T>,
    indices: &Indices<'_>,
) {
    let list = indices.resolve(w.len(), "I");
    assert_eq!(u.len(), list.len(), "u.len() != |I|");
    crate::backend::cpu::ewise::scatter_reduce(&monoid, w, u, &list);
}
