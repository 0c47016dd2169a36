//! The matrix-matrix product `T<M> = A (+).(x) B` on the CPU, two ways:
//!
//! - **saxpy** (Gustavson, SuiteSparse's saxpy3 with coarse tasks): row `i` of `T` is
//!   the sum of the rows `B(k, :)` scaled by `A(i, k)`, accumulated in a dense workspace
//!   of `ncols` slots with a *stamp* per slot (never cleared; a counter moves on per row).
//!   An uncomplemented mask is scattered into the stamps first, so blocked columns cost a
//!   compare; when a row of `B` is much longer than the mask's row, the mask's columns
//!   are looked up in it instead of scanning it (SuiteSparse's `GB_SCAN_M_j_OR_A_k`).
//! - **dot** (SuiteSparse's dot3 and dot2): `T(i, j) = A(i, :) . BT(j, :)` for each
//!   position the mask allows, over the rows of `B'` given explicitly. A dot is a merge
//!   of two sorted rows (or a binary search of the shorter one in the longer one), and
//!   stops at the monoid's terminal value.
//!
//! Both sum the terms of an entry in ascending `k`, starting from the first term, so
//! their results are identical bytes even for floating-point PLUS, and independent of
//! the thread count (each row is computed by one call).

use rayon::prelude::*;

use crate::algebra::{Index, Monoid, Scalar, Semiring};
use crate::descriptor::MatrixMask;
use crate::matrix::Csr;

use super::pool::Pooled;
use super::rows::{
    Placement, RowOut, build_rows, build_rows_out, cost_prefix, cut_rows, cut_rows_by,
};
use super::{PREFETCH_AHEAD, prefetch};

/// A row of `B` at least this long, and 64 times longer than the mask's row, is
/// searched for the mask's columns instead of scanned (SuiteSparse's thresholds).
const SEARCH_MIN_ROW: usize = 256;
/// How much longer than the mask's row a row of `B` must be to be searched.
const SEARCH_RATIO: usize = 64;
/// One dot product binary-searches the shorter row in the longer when the longer is
/// this many times longer (SuiteSparse's dot kernels use 8).
const GALLOP_RATIO: usize = 8;

/// The Gustavson workspace of one task: a stamp and a value per output column.
struct Gustavson<Z> {
    stamp: Vec<u32>,
    vals: Vec<Z>,
    /// The stamp of "allowed, not yet seen" in this row; `mark + 1` is "seen".
    mark: u32,
    /// Columns touched in this row, in discovery order.
    touched: Vec<Index>,
}

impl<Z: Scalar> Gustavson<Z> {
    fn new(ncols: usize) -> Self {
        Gustavson {
            stamp: vec![0; ncols],
            vals: vec![Z::default(); ncols],
            mark: 0,
            touched: Vec::new(),
        }
    }

    /// Moves to a new row: afterwards every stamp is below `mark`.
    #[inline]
    fn next_row(&mut self) {
        if self.mark >= u32::MAX - 4 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.mark = 0;
        }
        self.mark += 2;
        self.touched.clear();
    }
}

/// A [`Gustavson`] workspace of at least `ncols` slots from the thread's pool.
fn pooled<Z: Scalar>(ncols: usize) -> Pooled<Gustavson<Z>> {
    Pooled::take(
        |w: &Gustavson<Z>| w.stamp.len() >= ncols,
        || Gustavson::new(ncols),
    )
}

/// The fixed cost of one saxpy row, in terms: on a road graph's tiny rows it outweighs
/// the terms (measured on triangle counting, where it decides the method).
const SAXPY_ROW: u64 = 8;

/// The estimated cost of saxpy row `i`: its fixed cost plus the terms it computes, where a searched row of
/// `B` costs a binary search per mask column instead of its length. `b_len(k)` is the
/// length of row `k` of `B`.
#[inline]
fn saxpy_row_cost<A: Scalar>(
    a: &Csr<A>,
    b_len: impl Fn(usize) -> usize,
    mask_row: Option<&[Index]>,
    i: usize,
) -> u64 {
    let (ac, _) = a.row(i);
    if ac.is_empty() || mask_row.is_some_and(|m| m.is_empty()) {
        return 0;
    }
    // A row's fixed work: starting the workspace, the mask's scatter, the gather.
    let mut cost = SAXPY_ROW;
    for &k in ac {
        let d = b_len(k as usize);
        cost += match mask_row {
            Some(m) if searched(d, m.len()) => {
                m.len() as u64 * (1 + 4 * (usize::BITS - d.leading_zeros()) as u64)
            }
            _ => d as u64,
        };
    }
    cost + mask_row.map_or(0, |m| m.len() as u64)
}

/// The fixed part of [`saxpy_cost`] under the mask `m`: [`SAXPY_ROW`] for every row with
/// entries in both `A` and the mask (a lower bound of the whole, from the offsets only).
pub(crate) fn saxpy_rows_cost<A: Scalar>(a: &Csr<A>, m: &MatrixMask) -> u64 {
    let rows = (0..a.nrows())
        .into_par_iter()
        .with_min_len(1 << 14)
        .filter(|&i| a.degree(i) > 0 && !m.row(i).is_empty())
        .count();
    SAXPY_ROW * rows as u64
}

/// Whether a row of `B` with `d` entries is searched for the `m` columns of the mask.
#[inline]
fn searched(d: usize, m: usize) -> bool {
    d > SEARCH_MIN_ROW && SEARCH_RATIO * m < d
}

/// The total estimated cost of the saxpy method (see [`saxpy_row_cost`]).
pub(crate) fn saxpy_cost<A, B>(a: &Csr<A>, b: &Csr<B>, mask: Option<&MatrixMask>) -> u64
where
    A: Scalar,
    B: Scalar,
{
    let mask = mask.filter(|m| !m.is_complemented());
    (0..a.nrows())
        .into_par_iter()
        .with_min_len(4096)
        .map(|i| saxpy_row_cost(a, |k| b.degree(k), mask.map(|m| m.row(i)), i))
        .sum()
}

/// [`saxpy_cost`] under an uncomplemented mask, when only the row lengths of `B` are
/// known (`b_len[k]`).
pub(crate) fn saxpy_cost_from_lengths<A: Scalar>(a: &Csr<A>, b_len: &[u64], m: &MatrixMask) -> u64 {
    (0..a.nrows())
        .into_par_iter()
        .with_min_len(4096)
        .map(|i| saxpy_row_cost(a, |k| b_len[k] as usize, Some(m.row(i)), i))
        .sum()
}

/// The estimated cost of the dot method over the mask's entries, given the row lengths
/// of `A` and of `B'` (`bt_len[j]`).
pub(crate) fn dot_cost(
    a_len: impl Fn(usize) -> usize + Sync,
    bt_len: impl Fn(usize) -> u64 + Sync,
    mask: &MatrixMask,
) -> u64 {
    (0..mask.nrows())
        .into_par_iter()
        .with_min_len(4096)
        .map(|i| {
            let da = a_len(i) as u64;
            let mut cost = 0u64;
            for &j in mask.row(i) {
                let db = bt_len(j as usize);
                let (short, long) = (da.min(db), da.max(db));
                cost += 1 + if long > GALLOP_RATIO as u64 * short {
                    short * (1 + (u64::BITS - long.leading_zeros()) as u64)
                } else {
                    short + long
                };
            }
            cost
        })
        .sum()
}

/// `T<M> = A (+).(x) B` by Gustavson saxpy. `T` has entries only where the mask allows.
pub(crate) fn mxm_saxpy<S, A, B>(
    s: S,
    a: &Csr<A>,
    b: &Csr<B>,
    mask: Option<&MatrixMask>,
) -> Csr<S::Output>
where
    S: Semiring<A, B>,
    A: Scalar,
    B: Scalar,
{
    let (nrows, ncols) = (a.nrows(), b.ncols());
    let mask_rows = mask.filter(|m| !m.is_complemented());
    // Without a mask, a row's entries are at most its terms; under one, at most the
    // mask's row.
    let (bounds, bound, prefix);
    let b_max = mask_rows.map_or_else(|| max_degree(b), |_| usize::MAX);
    if b_max <= FLAT_DEGREE {
        // Rows of B are all short: a row's cost is close enough to its fixed cost plus
        // its entries times B's mean row length, which A's offsets give without a pass
        // (the workers take chunks dynamically, so an uneven chunk costs little).
        let mean = (b.nvals() / b.nrows().max(1)).max(1) as u64;
        let off = a.offsets();
        let cost = |i: usize| (1 + SAXPY_ROW) * i as u64 + off[i] * mean;
        if nrows < rayon::current_num_threads() && cost(nrows) >= FEW_ROWS_PUSH_WORK {
            return few_rows_by_columns(s, a, b, mask);
        }
        bounds = cut_rows_by(nrows, cost);
        bound = a.nvals().saturating_mul(b_max);
        prefix = None;
    } else {
        let p = cost_prefix(nrows, |i| {
            saxpy_row_cost(a, |k| b.degree(k), mask_rows.map(|m| m.row(i)), i)
        });
        if nrows < rayon::current_num_threads() && p[nrows] >= FEW_ROWS_PUSH_WORK {
            return few_rows_by_columns(s, a, b, mask);
        }
        bounds = cut_rows(&p);
        // A row's cost less its 1 is at least its terms, and at least its mask's row.
        bound = match mask_rows {
            Some(m) => m.nvals(),
            None => p[nrows] as usize - nrows,
        };
        prefix = Some(p);
    }
    build_rows_out(
        nrows,
        ncols,
        &bounds,
        placement(
            bound,
            &bounds,
            prefix.as_deref(),
            a.nvals() + b.nvals() + nrows,
        ),
        || pooled(ncols),
        |ws, i, out| {
            let ws = &mut **ws;
            match mask {
                None => saxpy_row_unmasked(&s, a, b, &[], i, ws, out),
                Some(m) if m.is_complemented() => {
                    saxpy_row_unmasked(&s, a, b, m.row(i), i, ws, out)
                }
                Some(m) => saxpy_row_masked(&s, a, b, m.row(i), i, ws, out),
            }
        },
    )
}

/// A product bounded by at most this many times its inputs' size writes each chunk
/// straight into the result; a larger bound (a product whose terms far exceed its
/// entries) would reserve too much, so its chunks keep their own arrays.
const BOUND_RATIO: usize = 8;

/// How a product with at most `bound` entries, cut at `bounds` (with the cost `prefix`
/// when it was computed), places its entries, for inputs of `size` entries and rows
/// together.
fn placement(bound: usize, bounds: &[usize], prefix: Option<&[u64]>, size: usize) -> Placement {
    if bound <= BOUND_RATIO.saturating_mul(size.max(1 << 16)) {
        return Placement::Bounded(bound);
    }
    // A chunk's cost bounds its entries: reserve it, up to 2^20 entries.
    let caps = bounds.windows(2).map(|w| match prefix {
        Some(p) => ((p[w[1]] - p[w[0]]) as usize).min(1 << 20),
        None => 0,
    });
    Placement::Hinted(caps.collect())
}

/// B's rows are "flat" when none is longer than this: the product's cost is then
/// estimated from A's row lengths alone.
const FLAT_DEGREE: usize = 64;

/// The longest row of `b`.
fn max_degree<T: Scalar>(b: &Csr<T>) -> usize {
    (0..b.nrows())
        .into_par_iter()
        .with_min_len(1 << 14)
        .map(|k| b.degree(k))
        .max()
        .unwrap_or(0)
}

/// The least estimated work at which a product with fewer rows than threads splits
/// each row by output columns instead of running one row per thread.
const FEW_ROWS_PUSH_WORK: u64 = 1 << 15;

/// `T<M> = A B` for an `A` of fewer rows than threads (a frontier of a few sources):
/// each row is cut into blocks of output columns, computed in parallel, each block a
/// Gustavson row over `B(k, c0..c1)` for every `k` of `A(i, :)` in ascending order. A
/// column's terms are summed in the same order as by one thread, so the result is the
/// same bytes.
fn few_rows_by_columns<S, A, B>(
    s: S,
    a: &Csr<A>,
    b: &Csr<B>,
    mask: Option<&MatrixMask>,
) -> Csr<S::Output>
where
    S: Semiring<A, B>,
    A: Scalar,
    B: Scalar,
{
    let (nrows, ncols) = (a.nrows(), b.ncols());
    let blocks = (2 * rayon::current_num_threads()).min(ncols.max(1));
    let width = ncols.div_ceil(blocks).max(1);
    let mut offsets = Vec::with_capacity(nrows + 1);
    offsets.push(0u64);
    let (mut cols, mut vals) = (Vec::new(), Vec::new());
    for i in 0..nrows {
        let parts: Vec<(Vec<Index>, Vec<S::Output>)> = (0..blocks)
            .into_par_iter()
            .map(|blk| {
                let (c0, c1) = ((blk * width).min(ncols), ((blk + 1) * width).min(ncols));
                let mut ws = pooled(ncols);
                saxpy_row_columns(&s, a, b, mask, i, c0 as Index, c1 as Index, &mut ws)
            })
            .collect();
        for (c, v) in parts {
            cols.extend(c);
            vals.extend(v);
        }
        offsets.push(cols.len() as u64);
    }
    // SAFETY: the blocks cover 0..ncols in order and each emits its columns ascending,
    // so every row is strictly increasing and below ncols; the offsets count the rows.
    unsafe { Csr::new_unchecked(nrows, ncols, offsets, cols, vals) }
}

/// Row `i` of `T<M> = A B` restricted to the columns `c0..c1`.
#[allow(clippy::too_many_arguments)]
fn saxpy_row_columns<S, A, B>(
    s: &S,
    a: &Csr<A>,
    b: &Csr<B>,
    mask: Option<&MatrixMask>,
    i: usize,
    c0: Index,
    c1: Index,
    ws: &mut Gustavson<S::Output>,
) -> (Vec<Index>, Vec<S::Output>)
where
    S: Semiring<A, B>,
    A: Scalar,
    B: Scalar,
{
    let in_block = |row: &[Index]| {
        let lo = row.partition_point(|&c| c < c0);
        lo..lo + row[lo..].partition_point(|&c| c < c1)
    };
    ws.next_row();
    let (mark, seen) = (ws.mark, ws.mark + 1);
    // Under a mask its columns in the block are stamped: blocked when complemented,
    // allowed otherwise.
    let (masked, blocking) = match mask {
        Some(m) => {
            let row = m.row(i);
            for &j in &row[in_block(row)] {
                ws.stamp[j as usize] = mark;
            }
            (!m.is_complemented(), m.is_complemented())
        }
        None => (false, false),
    };
    // Whether a column's first term lands: stamped `mark` under a mask; not stamped
    // `mark` under a complemented one; always without.
    let lands = |st: u32| {
        if masked {
            st == mark
        } else {
            !(blocking && st == mark)
        }
    };
    let (ac, av) = a.row(i);
    for (&k, &x) in ac.iter().zip(av) {
        let (bc, bv) = b.row(k as usize);
        let r = in_block(bc);
        for (&j, &y) in bc[r.clone()].iter().zip(&bv[r]) {
            let ju = j as usize;
            let st = ws.stamp[ju];
            if st == seen {
                add_term(s, &mut ws.vals[ju], s.multiply(x, y, k));
            } else if lands(st) {
                ws.stamp[ju] = seen;
                ws.vals[ju] = s.multiply(x, y, k);
                ws.touched.push(j);
            }
        }
    }
    let (mut cols, mut vals) = (Vec::with_capacity(ws.touched.len()), Vec::new());
    vals.reserve(ws.touched.len());
    if ws.touched.len() * 16 > (c1 - c0) as usize {
        for j in c0..c1 {
            if ws.stamp[j as usize] == seen {
                cols.push(j);
                vals.push(ws.vals[j as usize]);
            }
        }
    } else {
        ws.touched.sort_unstable();
        for &j in &ws.touched {
            cols.push(j);
            vals.push(ws.vals[j as usize]);
        }
    }
    (cols, vals)
}

/// Adds term `z` to slot `j`, which holds a value (stamp `mark + 1`).
#[inline(always)]
fn add_term<S, A, B>(s: &S, slot: &mut S::Output, z: S::Output)
where
    S: Semiring<A, B>,
{
    if !S::FIRST_TERM_IS_SUM {
        *slot = s.add().combine(*slot, z);
    }
}

/// Emits the touched columns of the row (of `ncols` columns: the workspace may be
/// longer) in ascending order.
#[inline]
fn gather_touched<Z: Scalar>(ws: &mut Gustavson<Z>, ncols: usize, out: &mut RowOut<Z>) {
    if ws.touched.len() * 16 > ncols {
        let seen = ws.mark + 1;
        for (j, &st) in ws.stamp[..ncols].iter().enumerate() {
            if st == seen {
                out.push(j as Index, ws.vals[j]);
            }
        }
    } else {
        let t = &mut ws.touched;
        if t.len() <= 24 {
            // Insertion sort: a road graph's rows touch a handful of columns.
            for p in 1..t.len() {
                let x = t[p];
                let mut q = p;
                while q > 0 && t[q - 1] > x {
                    t[q] = t[q - 1];
                    q -= 1;
                }
                t[q] = x;
            }
        } else {
            t.sort_unstable();
        }
        out.cols.extend_from_slice(t);
        out.vals.extend(t.iter().map(|&j| ws.vals[j as usize]));
    }
}

/// One row without a mask, or under a complemented one whose columns `blocked` are
/// stamped out first (none without a mask: a fresh mark matches no stamp).
#[allow(clippy::too_many_arguments)]
fn saxpy_row_unmasked<S, A, B>(
    s: &S,
    a: &Csr<A>,
    b: &Csr<B>,
    blocked: &[Index],
    i: usize,
    ws: &mut Gustavson<S::Output>,
    out: &mut RowOut<S::Output>,
) where
    S: Semiring<A, B>,
    A: Scalar,
    B: Scalar,
{
    ws.next_row();
    let (mark, seen) = (ws.mark, ws.mark + 1);
    let (ac, av) = a.row(i);
    if ac.len() == 1 && blocked.is_empty() {
        // One row of B, scaled: already sorted.
        let k = ac[0];
        let (bc, bv) = b.row(k as usize);
        for (&j, &y) in bc.iter().zip(bv) {
            out.push(j, s.multiply(av[0], y, k));
        }
        return;
    }
    for &j in blocked {
        ws.stamp[j as usize] = mark;
    }
    for (&k, &x) in ac.iter().zip(av) {
        let (bc, bv) = b.row(k as usize);
        for (&j, &y) in bc.iter().zip(bv) {
            let ju = j as usize;
            let st = ws.stamp[ju];
            if st == mark {
                continue;
            }
            let z = s.multiply(x, y, k);
            if st == seen {
                add_term(s, &mut ws.vals[ju], z);
            } else {
                ws.stamp[ju] = seen;
                ws.vals[ju] = z;
                ws.touched.push(j);
            }
        }
    }
    gather_touched(ws, b.ncols(), out);
}

/// One row under a mask: only the mask's columns are computed, and they come out in the
/// mask's (sorted) order, so the row needs no sort.
#[allow(clippy::too_many_arguments)]
fn saxpy_row_masked<S, A, B>(
    s: &S,
    a: &Csr<A>,
    b: &Csr<B>,
    allowed: &[Index],
    i: usize,
    ws: &mut Gustavson<S::Output>,
    out: &mut RowOut<S::Output>,
) where
    S: Semiring<A, B>,
    A: Scalar,
    B: Scalar,
{
    if allowed.is_empty() {
        return;
    }
    ws.next_row();
    let (mark, seen) = (ws.mark, ws.mark + 1);
    for &j in allowed {
        ws.stamp[j as usize] = mark;
    }
    let (lo, hi) = (allowed[0], allowed[allowed.len() - 1]);
    let (ac, av) = a.row(i);
    for (&k, &x) in ac.iter().zip(av) {
        let (bc, bv) = b.row(k as usize);
        if searched(bc.len(), allowed.len()) {
            // Look the mask's columns up in the long row, moving forward only.
            let mut from = 0;
            for &j in allowed {
                from += bc[from..].partition_point(|&c| c < j);
                if from == bc.len() {
                    break;
                }
                if bc[from] == j {
                    let z = s.multiply(x, bv[from], k);
                    let ju = j as usize;
                    if ws.stamp[ju] == seen {
                        add_term(s, &mut ws.vals[ju], z);
                    } else {
                        ws.stamp[ju] = seen;
                        ws.vals[ju] = z;
                    }
                }
            }
            continue;
        }
        // Only the part of the row within the mask's column range can land.
        let start = if bc.first().is_some_and(|&c| c < lo) {
            bc.partition_point(|&c| c < lo)
        } else {
            0
        };
        let cols = &bc[start..];
        for (t, (&j, &y)) in cols.iter().zip(&bv[start..]).enumerate() {
            if j > hi {
                break;
            }
            if let Some(&ja) = cols.get(t + PREFETCH_AHEAD) {
                prefetch(ws.stamp.as_ptr().wrapping_add(ja as usize));
            }
            let ju = j as usize;
            let st = ws.stamp[ju];
            if st == seen {
                add_term(s, &mut ws.vals[ju], s.multiply(x, y, k));
            } else if st == mark {
                ws.stamp[ju] = seen;
                ws.vals[ju] = s.multiply(x, y, k);
            }
        }
    }
    for &j in allowed {
        if ws.stamp[j as usize] == seen {
            out.push(j, ws.vals[j as usize]);
        }
    }
}

/// One dot product `A(i, :) . BT(j, :)` in ascending `k`, stopping at a terminal sum.
#[inline]
pub(crate) fn dot<S, A, B>(
    s: &S,
    ac: &[Index],
    av: &[A],
    bc: &[Index],
    bv: &[B],
) -> Option<S::Output>
where
    S: Semiring<A, B>,
    A: Scalar,
    B: Scalar,
{
    if ac.is_empty() || bc.is_empty() || ac[ac.len() - 1] < bc[0] || bc[bc.len() - 1] < ac[0] {
        return None;
    }
    let add = s.add();
    let mut acc: Option<S::Output> = None;
    // Adds one term; returns true when the sum can no longer change.
    let mut term = |z: S::Output| -> bool {
        let sum = match acc {
            Some(prev) => add.combine(prev, z),
            None => z,
        };
        acc = Some(sum);
        S::FIRST_TERM_IS_SUM || add.is_terminal(&sum)
    };
    for_each_common(ac, bc, |p, q| term(s.multiply(av[p], bv[q], ac[p])));
    acc
}

/// Calls `f(p, q)` for every `ac[p] == bc[q]` of two sorted index lists, in ascending
/// order, until `f` returns true: a merge, or a galloping search of the longer list
/// when it is [`GALLOP_RATIO`] times longer than the other.
#[inline]
pub(crate) fn for_each_common(ac: &[Index], bc: &[Index], mut f: impl FnMut(usize, usize) -> bool) {
    if ac.len() > GALLOP_RATIO * bc.len() {
        let mut from = 0;
        for (q, &k) in bc.iter().enumerate() {
            from += ac[from..].partition_point(|&c| c < k);
            if from == ac.len() {
                break;
            }
            if ac[from] == k && f(from, q) {
                break;
            }
        }
    } else if bc.len() > GALLOP_RATIO * ac.len() {
        let mut from = 0;
        for (p, &k) in ac.iter().enumerate() {
            from += bc[from..].partition_point(|&c| c < k);
            if from == bc.len() {
                break;
            }
            if bc[from] == k && f(p, from) {
                break;
            }
        }
    } else {
        // Branch-free steps: only a match branches (the less-than test of a plain merge
        // is a coin toss for the predictor on intersecting adjacency lists).
        let (mut p, mut q) = (0, 0);
        while p < ac.len() && q < bc.len() {
            let (x, y) = (ac[p], bc[q]);
            if x == y && f(p, q) {
                break;
            }
            p += usize::from(x <= y);
            q += usize::from(y <= x);
        }
    }
}

/// `T<M> = A (+).(x) BT'` by dot products, `bt` holding the rows of `B'`. With an
/// uncomplemented mask only its entries are computed (dot3); otherwise every allowed
/// position of every row is (dot2: for small outputs, or when forced).
pub(crate) fn mxm_dot<S, A, B>(
    s: S,
    a: &Csr<A>,
    bt: &Csr<B>,
    mask: Option<&MatrixMask>,
) -> Csr<S::Output>
where
    S: Semiring<A, B>,
    A: Scalar,
    B: Scalar,
{
    let (nrows, ncols) = (a.nrows(), bt.nrows());
    let prefix = match mask {
        Some(m) if !m.is_complemented() => cost_prefix(nrows, |i| {
            let da = a.degree(i) as u64;
            m.row(i)
                .iter()
                .map(|&j| 1 + da.min(bt.degree(j as usize) as u64))
                .sum()
        }),
        _ => cost_prefix(nrows, |i| (ncols * (1 + a.degree(i).min(64))) as u64),
    };
    let bounds = cut_rows(&prefix);
    build_rows(
        nrows,
        ncols,
        &bounds,
        || (),
        |_, i, cols, vals| {
            let (ac, av) = a.row(i);
            let mut one = |j: Index| {
                let (bc, bv) = bt.row(j as usize);
                if let Some(z) = dot(&s, ac, av, bc, bv) {
                    cols.push(j);
                    vals.push(z);
                }
            };
            match mask {
                Some(m) if !m.is_complemented() => m.row(i).iter().for_each(|&j| one(j)),
                Some(m) => {
                    let blocked = m.row(i);
                    let mut p = 0;
                    for j in 0..ncols as Index {
                        while p < blocked.len() && blocked[p] < j {
                            p += 1;
                        }
                        if p < blocked.len() && blocked[p] == j {
                            continue;
                        }
                        one(j);
                    }
                }
                None => (0..ncols as Index).for_each(one),
            }
        },
    )
}

/// `(+)_{i, j} A(i, j)`: each row summed in column order, the rows' sums summed in
/// row order within blocks of [`REDUCE_BLOCK`] rows, and the blocks' sums in block order
/// (a grouping fixed by the data, so a float sum does not depend on the thread count).
/// `None` when `A` has no entries.
pub(crate) fn reduce_matrix<T: Scalar, M: Monoid<T>>(monoid: &M, a: &Csr<T>) -> Option<T> {
    let blocks: Vec<Option<T>> = (0..a.nrows().div_ceil(REDUCE_BLOCK))
        .into_par_iter()
        .map(|blk| {
            let rows = blk * REDUCE_BLOCK..((blk + 1) * REDUCE_BLOCK).min(a.nrows());
            rows.filter_map(|i| reduce_slice(monoid, a.row(i).1))
                .reduce(|x, y| monoid.combine(x, y))
        })
        .collect();
    blocks
        .into_iter()
        .flatten()
        .reduce(|x, y| monoid.combine(x, y))
}

/// The rows summed together by one task of [`reduce_matrix`].
const REDUCE_BLOCK: usize = 1 << 14;

/// `t(i) = (+)_j A(i, j)` for every non-empty row, in column order, stopping at a
/// terminal value: the rows' sums as `(indices, values)`.
pub(crate) fn reduce_rows<T: Scalar, M: Monoid<T>>(monoid: &M, a: &Csr<T>) -> (Vec<Index>, Vec<T>) {
    let rows: Vec<Index> = (0..a.nrows())
        .into_par_iter()
        .with_min_len(1 << 12)
        .filter(|&i| a.degree(i) > 0)
        .map(|i| i as Index)
        .collect();
    let sums = rows
        .par_iter()
        .with_min_len(1 << 10)
        .map(|&i| reduce_slice(monoid, a.row(i as usize).1).expect("a non-empty row"))
        .collect();
    (rows, sums)
}

/// The monoid sum of `xs` from its first term, in order, stopping at a terminal value;
/// `None` when empty.
#[inline]
pub(crate) fn reduce_slice<T: Scalar, M: Monoid<T>>(monoid: &M, xs: &[T]) -> Option<T> {
    let (&first, rest) = xs.split_first()?;
    let mut acc = first;
    if monoid.is_terminal(&acc) {
        return Some(acc);
    }
    for &x in rest {
        acc = monoid.combine(acc, x);
        if monoid.is_terminal(&acc) {
            break;
        }
    }
    Some(acc)
}
