//! Push: `t<m> = u (+).(x) A` over the out-edges of the entries of `u` (SpMSpV, saxpy):
//! each entry `k` scatters `A(k, j) (x) u(k)` to every `j` the mask allows; the terms of
//! one `j` are summed in ascending `k`.
//!
//! The method is chosen per call (after SuiteSparse's saxpy3, lighter; `choose.rs` holds the rule):
//! - **sort** (tiny products: work far below the output length): the chunk's terms are
//!   stably sorted by `j` and each run summed; the cost is the terms, not `n`;
//! - **columns** (big products, at least a quarter of `n` in flops; SuiteSparse's saxbit
//!   with private fine tasks, cut by output instead of by input): ranges of output
//!   columns, each summing every term that lands in it into the result's bitmap in
//!   ascending `k`; nothing to merge, and the bytes do not depend on the ranges;
//! - **Gustavson** (between): a dense accumulator with generation stamps, never
//!   cleared; only the distinct outputs are sorted, or the stamps scanned in order when
//!   the chunk's output is dense;
//! - **scatter** (in place of columns and Gustavson, under an order-free monoid into a
//!   primitive number: MIN, MAX): chunks of `u`'s rows, each term combined into the
//!   result's slot by compare-and-swap (`scatter.rs`); the same bytes, see there;
//! - **pull** (in place of columns, when `A` is known to be symmetric and the flops reach
//!   a quarter of its entries): a dot product per output over `A`'s rows (`pull.rs`),
//!   with the bytes of the column push.
//!
//! For sort and Gustavson, work is cut into chunks of `u`'s entries by flops, with a chunk size fixed by the data
//! (never by the thread count), and the chunks' results are merged per output index in
//! chunk order: the sum of every output entry has the same association for any number
//! of threads, so float results are byte-identical across thread counts. Output ranges
//! merge in parallel, straight into a bitmap when the result is dense (above 4% fill).

use std::mem::MaybeUninit;

use rayon::prelude::*;

use super::choose::{self, PushMethod, PushSize};
use super::pool::Pooled;
use super::scatter;
use super::terms::{Entries, by_fill, chunk_bounds, entries, scan_terms, scan_terms_ahead};
use super::{SEQUENTIAL_WORK, prefetch};
use crate::algebra::{Index, Monoid, Scalar, Semiring};
use crate::descriptor::{Mask, MaskSet};
use crate::matrix::Csr;
use crate::vector::{BitmapVector, SparseVector, Vector};

/// Flops per chunk at least; a chunk's accumulator costs about its output length, so
/// chunks are also at least `min(n, work / MAX_CHUNKS)` flops.
const CHUNK_WORK: usize = 1 << 16;
/// The most chunks a product is cut into (a property of the data, not of the machine).
const MAX_CHUNKS: usize = 64;

/// `t<m> = u (+).(x) A`, restricted to the mask, by the method chosen for the sizes.
pub(crate) fn vxm_push<S, A, U>(
    s: S,
    u: &Vector<U>,
    a: &Csr<A>,
    mask: Option<&Mask>,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    vxm_push_with(s, u, a, mask, PushMethod::Auto)
}

/// [`vxm_push`] with the accumulator forced (tests compare the methods byte for byte).
pub(crate) fn vxm_push_with<S, A, U>(
    s: S,
    u: &Vector<U>,
    a: &Csr<A>,
    mask: Option<&Mask>,
    method: PushMethod,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let n = a.ncols();
    // A dense u is read in place: its entries are every k, and its terms every entry of A.
    let listed;
    let (rows, work) = match u {
        Vector::Dense(d) => (Entries::Dense(d.as_slice()), a.nnz()),
        _ => {
            listed = entries(u);
            let ks = listed.indices();
            let work: usize = if ks.len() < SEQUENTIAL_WORK {
                ks.iter().map(|&k| a.degree(k as usize)).sum()
            } else {
                ks.par_iter().map(|&k| a.degree(k as usize)).sum()
            };
            (Entries::Sparse(ks, listed.values()), work)
        }
    };
    let symmetric = a.known_symmetric();
    let choice = choose::push(
        method,
        &PushSize {
            work,
            n,
            nnz: a.nnz(),
            symmetric,
            scatter: scatter::eligible(&s),
            threads: rayon::current_num_threads(),
        },
    );
    let method = match choice.method {
        PushMethod::Pull if symmetric => return push_by_pull(s, u, a, mask),
        PushMethod::Pull => return push_by_pull(s, u, &a.transpose(), mask),
        PushMethod::Scatter | PushMethod::ScatterPrivate => {
            let private = choice.method == PushMethod::ScatterPrivate;
            if let Some(t) = scatter::push_scatter(&s, rows, a, mask, work, private) {
                return t;
            }
            choice.otherwise
        }
        m => m,
    };
    if method == PushMethod::Columns {
        return push_columns(&s, rows, a, mask, work);
    }
    // Sort and Gustavson walk a list of entries (a dense u's made here).
    let dense_listed;
    let (ks, us) = match rows {
        Entries::Sparse(ks, us) => (ks, us),
        Entries::Dense(_) => {
            dense_listed = entries(u);
            (dense_listed.indices(), dense_listed.values())
        }
    };
    let degrees = |k: Index| a.degree(k as usize);
    // A mask as presence words when the product is big enough to pay for them, so each
    // term costs one bit test instead of a binary search.
    let words = mask.and_then(|m| match m.set() {
        MaskSet::Sorted(_) if !choose::push_mask_words(work, n) => None,
        _ => Some(m.allowed_words()),
    });
    let allowed = |j: Index| match (&words, mask) {
        (Some(w), _) => (w[j as usize >> 6] >> (j & 63)) & 1 == 1,
        (None, Some(m)) => m.allows(j as usize),
        (None, None) => true,
    };
    let add = s.add();
    // Chunks of about equal flops, in order of k; their size depends on the data only.
    let bounds = chunk_bounds(ks, degrees, CHUNK_WORK.max(n.min(work / MAX_CHUNKS)));

    let run_chunk = |ws: &mut Workspace<S::Output>, r: std::ops::Range<usize>| match method {
        PushMethod::Sort => {
            let mut terms = Vec::with_capacity(ks[r.clone()].iter().map(|&k| degrees(k)).sum());
            scan_terms(&s, a, &ks[r.clone()], &us[r], &allowed, &mut |j, z| {
                terms.push((j, z))
            });
            combine_sorted(&add, terms)
        }
        _ => {
            ws.begin();
            let (stamps, slots) = (ws.stamp.as_ptr(), ws.acc.as_ptr());
            let ahead = |j: Index| {
                prefetch(stamps.wrapping_add(j as usize));
                prefetch(slots.wrapping_add(j as usize));
            };
            scan_terms_ahead(
                &s,
                a,
                Entries::Sparse(ks, us),
                r,
                &allowed,
                &ahead,
                &mut |j, z| ws.add_term(&add, j, z),
            );
            ws.finish(n)
        }
    };
    // The sort method needs no workspace.
    let ws_len = if method == PushMethod::Sort { 0 } else { n };
    if bounds.len() == 2 {
        let mut ws = pooled(ws_len);
        let (i, v) = run_chunk(&mut ws, 0..ks.len());
        // SAFETY: the chunk's indices strictly increase and are column indices < n.
        return Vector::Sparse(unsafe { SparseVector::new_unchecked(n, i, v) });
    }
    let chunks: Vec<(Vec<Index>, Vec<S::Output>)> = bounds
        .par_windows(2)
        .map_init(|| pooled(ws_len), |ws, w| run_chunk(&mut *ws, w[0]..w[1]))
        .collect();
    merge_chunks(n, &add, &chunks)
}

/// `u (+).(x) A` as a pull over the rows of `at`, which is `A'` (or `A` itself when
/// symmetric): each output `j` sums `A(k, j) (x) u(k)` in ascending `k`, the first term
/// starting the sum, as [`push_columns`] does. The result's form follows its fill
/// ([`by_fill`]).
fn push_by_pull<S, A, U>(s: S, u: &Vector<U>, at: &Csr<A>, mask: Option<&Mask>) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    match super::pull::mxv_pull(s, at, u, mask) {
        Vector::Bitmap(b) => by_fill(b),
        t => t,
    }
}

/// `t<m> = u (+).(x) A` with the output cut into ranges of columns (whole bit words):
/// each range walks every entry of `u`, finds the part of row `k` inside the range by a
/// binary search, and sums its terms straight into the result's bitmap and value slots
/// in ascending `k` (the first term starts a sum, as in a pull). There is nothing to
/// merge, and the result does not depend on the ranges, so the ranges follow the
/// thread count: one range per thread for short rows (a search per row and range is
/// then not free), four per thread otherwise, cut at quantiles of a sample of the
/// columns so that skewed in-degrees still split evenly.
fn push_columns<S, A, U>(
    s: &S,
    u: Entries<'_, U>,
    a: &Csr<A>,
    mask: Option<&Mask>,
    work: usize,
) -> Vector<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let n = a.ncols();
    let nu = u.len();
    let threads = if work < SEQUENTIAL_WORK {
        1
    } else {
        rayon::current_num_threads()
    };
    let per_thread = if work >= nu.saturating_mul(64) { 4 } else { 1 };
    let bounds = column_ranges(a, &u, n, threads * per_thread);
    let words = mask.map(|m| m.allowed_words());
    let mut bits = vec![0u64; n.div_ceil(64)];
    let mut slots: Vec<MaybeUninit<S::Output>> = Vec::with_capacity(n);
    // SAFETY: MaybeUninit needs no initialisation; every range writes all its slots
    // before anything reads them.
    unsafe { slots.set_len(n) };
    let mut parts = Vec::with_capacity(bounds.len());
    let (mut bw, mut vw) = (&mut bits[..], &mut slots[..]);
    for r in bounds.windows(2) {
        let (lo, hi) = (r[0], r[1]);
        let (b, bt) = bw.split_at_mut(hi.div_ceil(64) - lo / 64);
        let (v, vt) = vw.split_at_mut(hi - lo);
        parts.push((lo, hi, b, v));
        (bw, vw) = (bt, vt);
    }
    let run = |(lo, hi, bw, vw): (usize, usize, &mut [u64], &mut [MaybeUninit<S::Output>])| {
        vw.iter_mut()
            .for_each(|x| *x = MaybeUninit::new(S::Output::default()));
        // SAFETY: every slot was just initialised; MaybeUninit<Z> has Z's layout.
        let vw: &mut [S::Output] =
            unsafe { std::slice::from_raw_parts_mut(vw.as_mut_ptr().cast(), vw.len()) };
        match &words {
            Some(w) => columns_range(s, &u, a, lo, hi, bw, vw, |j| {
                (w[j >> 6] >> (j & 63)) & 1 == 1
            }),
            None => columns_range(s, &u, a, lo, hi, bw, vw, |_| true),
        }
    };
    if parts.len() == 1 {
        run(parts.pop().expect("one range"));
    } else {
        parts.into_par_iter().with_max_len(1).for_each(run);
    }
    // SAFETY: every range initialised all of its slots, and the ranges cover 0..n.
    let values: Vec<S::Output> = unsafe {
        let mut slots = std::mem::ManuallyDrop::new(slots);
        Vec::from_raw_parts(slots.as_mut_ptr().cast(), n, slots.capacity())
    };
    by_fill(BitmapVector::from_parts(n, bits, values))
}

/// One range `lo..hi` of [`push_columns`]: sums every allowed term `A(k, j) (x) u(k)` with
/// `lo <= j < hi` into the range's presence words `bw` and value slots `vw` (`vw[j -
/// lo]`), in ascending `k`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn columns_range<S, A, U>(
    s: &S,
    u: &Entries<'_, U>,
    a: &Csr<A>,
    lo: usize,
    hi: usize,
    bw: &mut [u64],
    vw: &mut [S::Output],
    allowed: impl Fn(usize) -> bool,
) where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let (offsets, cols_all, vals_all) = (a.offsets(), a.indices(), a.values());
    let add = s.add();
    assert!(vw.len() == hi - lo && bw.len() == (hi - lo).div_ceil(64));
    for p in 0..u.len() {
        let (k, uk) = u.get(p);
        let (s0, e0) = (
            offsets[k as usize] as usize,
            offsets[k as usize + 1] as usize,
        );
        let (cols, vals) = (&cols_all[s0..e0], &vals_all[s0..e0]);
        let first = if lo == 0 {
            0
        } else {
            cols.partition_point(|&j| (j as usize) < lo)
        };
        for (&j, &x) in cols[first..].iter().zip(&vals[first..]) {
            let j = j as usize;
            if j >= hi {
                break;
            }
            if !allowed(j) {
                continue;
            }
            let z = s.multiply(x, uk, k);
            let l = j - lo;
            let (wi, bit) = (l >> 6, 1u64 << (l & 63));
            // SAFETY: lo <= j < hi, so l < hi - lo == vw.len() and l / 64 < bw.len()
            // (asserted above).
            unsafe {
                let word = bw.get_unchecked_mut(wi);
                let slot = vw.get_unchecked_mut(l);
                if *word & bit != 0 {
                    if !add.is_terminal(slot) {
                        *slot = add.combine(*slot, z);
                    }
                } else {
                    *word |= bit;
                    *slot = z;
                }
            }
        }
    }
}

/// `parts` ranges of output columns `0 = b0 < b1 < .. = n`, inner bounds on whole bit
/// words, cut at quantiles of the columns of a sample of `u`'s rows.
fn column_ranges<A: Scalar, U: Copy>(
    a: &Csr<A>,
    u: &Entries<'_, U>,
    n: usize,
    parts: usize,
) -> Vec<usize> {
    if parts <= 1 || n <= 64 {
        return vec![0, n];
    }
    const SAMPLE: usize = 1 << 14;
    let nu = u.len();
    let step = (nu / 1024).max(1);
    let mut sample: Vec<Index> = Vec::new();
    for p in (0..nu).step_by(step) {
        sample.extend_from_slice(a.row(u.get(p).0 as usize).0);
        if sample.len() >= SAMPLE {
            break;
        }
    }
    let mut bounds = vec![0usize];
    if sample.is_empty() {
        let width = n.div_ceil(parts).div_ceil(64) * 64;
        bounds.extend((1..parts).map(|r| (r * width).min(n)));
    } else {
        sample.sort_unstable();
        bounds.extend((1..parts).map(|r| {
            let j = sample[r * sample.len() / parts] as usize;
            (j / 64 * 64).min(n)
        }));
    }
    bounds.push(n);
    bounds.dedup();
    bounds
}

/// A [`Workspace`] of at least `n` slots from the thread's pool (none for `n == 0`).
fn pooled<Z: Scalar>(n: usize) -> Pooled<Workspace<Z>> {
    if n == 0 {
        return Pooled::unpooled(Workspace::new(0));
    }
    Pooled::take(|w: &Workspace<Z>| w.stamp.len() >= n, || Workspace::new(n))
}

/// A dense accumulator: a value slot and a generation stamp per output index. `stamp[j]
/// == gen` means slot `j` holds a sum of this round; stamps are never cleared, only
/// outgrown.
struct Workspace<Z> {
    stamp: Vec<u32>,
    acc: Vec<MaybeUninit<Z>>,
    gen_: u32,
    touched: Vec<Index>,
}

impl<Z: Scalar> Workspace<Z> {
    fn new(n: usize) -> Self {
        let mut acc = Vec::with_capacity(n);
        // SAFETY: MaybeUninit needs no initialisation; a slot is read only after it was
        // written in the same generation.
        unsafe { acc.set_len(n) };
        Workspace {
            stamp: vec![0; n],
            acc,
            gen_: 0,
            touched: Vec::new(),
        }
    }

    /// Starts a round: every slot counts as empty.
    fn begin(&mut self) {
        self.gen_ = self.gen_.wrapping_add(1);
        if self.gen_ == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.gen_ = 1;
        }
        self.touched.clear();
    }

    /// Adds one term to slot `j` (terms of a slot arrive in ascending `k`).
    #[inline(always)]
    fn add_term<M: Monoid<Z>>(&mut self, add: &M, j: Index, z: Z) {
        let j = j as usize;
        if self.stamp[j] == self.gen_ {
            // SAFETY: stamped in this generation, so written.
            let old = unsafe { self.acc[j].assume_init() };
            if !add.is_terminal(&old) {
                self.acc[j] = MaybeUninit::new(add.combine(old, z));
            }
        } else {
            self.stamp[j] = self.gen_;
            self.acc[j] = MaybeUninit::new(z);
            self.touched.push(j as Index);
        }
    }

    /// The round's sums, sorted by index.
    fn finish(&mut self, n: usize) -> (Vec<Index>, Vec<Z>) {
        let g = self.gen_;
        let mut idx = std::mem::take(&mut self.touched);
        if idx.len().saturating_mul(8) > n {
            // Dense output: the stamps in order give the sorted list for free.
            idx.clear();
            idx.extend((0..n as Index).filter(|&j| self.stamp[j as usize] == g));
        } else {
            idx.sort_unstable();
        }
        // SAFETY: every touched slot was written in this generation.
        let vals = idx
            .iter()
            .map(|&j| unsafe { self.acc[j as usize].assume_init() })
            .collect();
        (idx, vals)
    }
}

/// Merges per-chunk sorted results into one vector; the terms of an index are combined
/// in chunk order. Output ranges run in parallel; a dense result is written as a bitmap.
fn merge_chunks<Z: Scalar, M: Monoid<Z>>(
    n: usize,
    add: &M,
    chunks: &[(Vec<Index>, Vec<Z>)],
) -> Vector<Z> {
    let entries: usize = chunks.iter().map(|c| c.0.len()).sum();
    let threads = rayon::current_num_threads();
    if entries.saturating_mul(16) < n {
        // Few entries over a long output: merge by sorting the (already combined) terms
        // of each range; the cost follows the entries, not n.
        let nranges = (threads * 4).max(1);
        let width = n.div_ceil(nranges).max(1);
        let parts: Vec<(Vec<Index>, Vec<Z>)> = (0..nranges)
            .into_par_iter()
            .map(|r| {
                let (lo, hi) = (r * width, ((r + 1) * width).min(n));
                let mut terms = Vec::new();
                for c in chunks {
                    let (i, v) = slice(c, lo, hi);
                    terms.extend(i.iter().copied().zip(v.iter().copied()));
                }
                combine_sorted(add, terms)
            })
            .collect();
        let mut indices = Vec::with_capacity(entries);
        let mut values = Vec::with_capacity(entries);
        for (i, v) in parts {
            indices.extend_from_slice(&i);
            values.extend_from_slice(&v);
        }
        // SAFETY: ranges are disjoint and ascending, each strictly increasing within.
        return Vector::Sparse(unsafe { SparseVector::new_unchecked(n, indices, values) });
    }
    // Ranges of whole bit words; each combines its slice of every chunk in place.
    let words_per_range = n.div_ceil(64).div_ceil(threads * 8).max(1);
    let width = words_per_range * 64;
    let mut out = BitmapVector::<Z>::new(n);
    let (bits, vals) = out.parts_mut();
    let nvals: usize = bits
        .par_chunks_mut(words_per_range)
        .zip(vals.par_chunks_mut(width))
        .enumerate()
        .map(|(r, (bw, vw))| {
            let lo = r * width;
            let hi = lo + vw.len();
            let mut count = 0;
            for c in chunks {
                let (i, v) = slice(c, lo, hi);
                for (&j, &z) in i.iter().zip(v) {
                    let l = j as usize - lo;
                    let (w, b) = (l >> 6, 1u64 << (l & 63));
                    if bw[w] & b != 0 {
                        if !add.is_terminal(&vw[l]) {
                            vw[l] = add.combine(vw[l], z);
                        }
                    } else {
                        bw[w] |= b;
                        vw[l] = z;
                        count += 1;
                    }
                }
            }
            count
        })
        .sum();
    out.set_nvals(nvals);
    if nvals.saturating_mul(50) <= n {
        // A hysteresis band, as SuiteSparse's bitmap switch has: back to sparse at 2% fill.
        return Vector::Sparse(out.to_sparse());
    }
    Vector::Bitmap(out)
}

/// The part of a sorted chunk result with indices in `lo..hi`.
fn slice<Z>(c: &(Vec<Index>, Vec<Z>), lo: usize, hi: usize) -> (&[Index], &[Z]) {
    let a0 = c.0.partition_point(|&j| (j as usize) < lo);
    let a1 = c.0.partition_point(|&j| (j as usize) < hi);
    (&c.0[a0..a1], &c.1[a0..a1])
}

/// Sorts terms by index, keeping the order of arrival within an index, and sums each
/// run in that order.
///
/// The sort is on packed `(index, arrival)` keys, one `u64` each: the keys are distinct,
/// so an unstable sort of them gives the stable order, and sorting 8-byte integers is
/// several times cheaper than a stable sort of `(Index, Z)` pairs (the sort was a
/// third of delta-stepping's time on a road graph, where every push is small).
fn combine_sorted<Z: Scalar, M: Monoid<Z>>(
    add: &M,
    mut terms: Vec<(Index, Z)>,
) -> (Vec<Index>, Vec<Z>) {
    let mut indices: Vec<Index> = Vec::with_capacity(terms.len());
    let mut values: Vec<Z> = Vec::with_capacity(terms.len());
    let mut push = |j: Index, z: Z| {
        if indices.last() == Some(&j) {
            let last = values.last_mut().expect("parallel arrays");
            if !add.is_terminal(last) {
                *last = add.combine(*last, z);
            }
        } else {
            indices.push(j);
            values.push(z);
        }
    };
    if terms.windows(2).all(|w| w[0].0 <= w[1].0) {
        // Already in order (a single row, or rows with disjoint ascending columns).
        for (j, z) in terms {
            push(j, z);
        }
    } else if u32::try_from(terms.len()).is_ok() {
        let mut keys: Vec<u64> = terms
            .iter()
            .enumerate()
            .map(|(p, &(j, _))| (u64::from(j) << 32) | p as u64)
            .collect();
        keys.sort_unstable();
        for key in keys {
            push((key >> 32) as Index, terms[key as u32 as usize].1);
        }
    } else {
        terms.sort_by_key(|e| e.0);
        for (j, z) in terms {
            push(j, z);
        }
    }
    (indices, values)
}
