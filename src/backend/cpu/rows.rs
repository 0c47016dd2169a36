//! Building a [`Csr`] row by row in parallel: the skeleton of every matrix operation.
//!
//! A kernel says how to produce one output row (appending its sorted entries); this
//! module cuts the rows into chunks of about equal cost and runs the chunks on rayon,
//! each worker with its own workspace. When the caller can bound the result's entries,
//! each finished chunk is copied (from a buffer still in cache) straight into the final
//! arrays, as soon as the chunks before it are done, so the result's memory is written
//! once; otherwise the chunks keep their arrays and they are concatenated in row order.
//! Each row is computed by one call, whatever the chunking, so the result does not
//! depend on the number of threads.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::algebra::{Index, Scalar};
use crate::matrix::Csr;

use super::SEQUENTIAL_WORK;

/// The most chunks one build is cut into.
const MAX_CHUNKS: usize = 256;

/// Row boundaries `[0, ..., nrows]` cutting `cost` (a cost per row, summed in `prefix`
/// form: `prefix[i]` is the cost of rows `0..i`, `prefix.len() == nrows + 1`) into
/// chunks of at least [`SEQUENTIAL_WORK`] cost each, at most [`MAX_CHUNKS`] of them.
pub(crate) fn cut_rows(prefix: &[u64]) -> Vec<usize> {
    cut_rows_by(prefix.len() - 1, |i| prefix[i])
}

/// [`cut_rows`] for a prefix given as a non-decreasing function of the row, `prefix(i)`
/// being the cost of rows `0..i` (for `i` in `0..=nrows`): a prefix that is known
/// without a pass over the rows (their entries, from a matrix's offsets) costs no pass.
pub(crate) fn cut_rows_by(nrows: usize, prefix: impl Fn(usize) -> u64) -> Vec<usize> {
    let total = prefix(nrows);
    let chunks = ((total / SEQUENTIAL_WORK as u64) as usize).clamp(1, MAX_CHUNKS);
    let mut bounds = Vec::with_capacity(chunks + 1);
    bounds.push(0);
    for c in 1..chunks {
        let target = total / chunks as u64 * c as u64;
        // The first row whose prefix reaches the target.
        let (mut lo, mut hi) = (0usize, nrows);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if prefix(mid) < target {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo > *bounds.last().unwrap() {
            bounds.push(lo);
        }
    }
    if *bounds.last().unwrap() != nrows || bounds.len() == 1 {
        bounds.push(nrows);
    }
    bounds
}

/// [`cut_rows`] for rows whose cost is 1 plus their entries in `a`: from the offsets,
/// with no pass over the rows.
pub(crate) fn cut_rows_by_entries<T: Scalar>(a: &Csr<T>) -> Vec<usize> {
    let off = a.offsets();
    cut_rows_by(a.nrows(), |i| i as u64 + off[i])
}

/// The cost prefix of rows whose cost is `1 + row_cost(i)`. The costs of a long run of
/// rows are computed in parallel blocks (a row's cost is usually a handful of random
/// reads, so a million rows are worth two threads), then summed in order.
pub(crate) fn cost_prefix(nrows: usize, row_cost: impl Fn(usize) -> u64 + Sync) -> Vec<u64> {
    const BLOCK: usize = 1 << 14;
    let mut prefix = Vec::with_capacity(nrows + 1);
    prefix.push(0u64);
    if nrows < 4 * BLOCK {
        let mut acc = 0u64;
        for i in 0..nrows {
            acc += 1 + row_cost(i);
            prefix.push(acc);
        }
        return prefix;
    }
    prefix.resize(nrows + 1, 0);
    // Each block writes its rows' running sums within the block, and returns its total.
    let totals: Vec<u64> = prefix[1..]
        .par_chunks_mut(BLOCK)
        .enumerate()
        .map(|(b, out)| {
            let mut acc = 0u64;
            for (r, slot) in out.iter_mut().enumerate() {
                acc += 1 + row_cost(b * BLOCK + r);
                *slot = acc;
            }
            acc
        })
        .collect();
    let mut base = 0u64;
    let bases: Vec<u64> = totals
        .iter()
        .map(|&t| {
            let b = base;
            base += t;
            b
        })
        .collect();
    prefix[1..]
        .par_chunks_mut(BLOCK)
        .zip(bases)
        .for_each(|(out, b)| out.iter_mut().for_each(|x| *x += b));
    prefix
}

/// Where a kernel appends the entries of its rows: sorted, no duplicates, every column
/// below the result's `ncols` (the kernel's promise, checked in debug builds).
pub(crate) struct RowOut<Z> {
    /// The columns appended so far in this chunk.
    pub(crate) cols: Vec<Index>,
    /// Their values.
    pub(crate) vals: Vec<Z>,
}

impl<Z: Scalar> RowOut<Z> {
    /// Appends entry `(j, z)`.
    #[inline(always)]
    pub(crate) fn push(&mut self, j: Index, z: Z) {
        self.cols.push(j);
        self.vals.push(z);
    }
}

/// What the caller of [`build_rows_out`] knows of the result's size.
pub(crate) enum Placement {
    /// At most this many entries in all: the result's arrays are reserved once and
    /// every chunk is copied into them as soon as the chunks before it are done.
    Bounded(usize),
    /// No useful bound; `caps[c]` entries are reserved for chunk `c` (rows
    /// `bounds[c]..bounds[c + 1]`), whose arrays are concatenated at the end.
    Hinted(Vec<usize>),
}

/// Builds an `nrows x ncols` matrix whose row `i` is what `row(&mut ws, i, &mut cols,
/// &mut vals)` appends (see [`RowOut`]); `bounds` comes from [`cut_rows`].
pub(crate) fn build_rows<Z: Scalar, W>(
    nrows: usize,
    ncols: usize,
    bounds: &[usize],
    init: impl Fn() -> W + Sync,
    row: impl Fn(&mut W, usize, &mut Vec<Index>, &mut Vec<Z>) + Sync,
) -> Csr<Z> {
    build_rows_out(
        nrows,
        ncols,
        bounds,
        Placement::Hinted(Vec::new()),
        init,
        |ws, i, out| row(ws, i, &mut out.cols, &mut out.vals),
    )
}

/// A chunk's rows, computed: the running ends of its rows (from the chunk's start),
/// their columns and values.
struct Chunk<Z> {
    ends: Vec<u64>,
    cols: Vec<Index>,
    vals: Vec<Z>,
}

impl<Z> Chunk<Z> {
    fn empty() -> Self {
        Chunk {
            ends: Vec::new(),
            cols: Vec::new(),
            vals: Vec::new(),
        }
    }
}

/// Builds an `nrows x ncols` matrix whose row `i` is what `row(&mut ws, i, &mut out)`
/// pushes, placed as `placement` says. `bounds` comes from [`cut_rows`]; each worker
/// makes one workspace with `init`.
///
/// # Panics
/// If the rows have more entries than a [`Placement::Bounded`] bound.
pub(crate) fn build_rows_out<Z: Scalar, W>(
    nrows: usize,
    ncols: usize,
    bounds: &[usize],
    placement: Placement,
    init: impl Fn() -> W + Sync,
    row: impl Fn(&mut W, usize, &mut RowOut<Z>) + Sync,
) -> Csr<Z> {
    debug_assert_eq!(bounds.first(), Some(&0));
    debug_assert_eq!(bounds.last(), Some(&nrows));
    let nchunks = bounds.len().saturating_sub(1);
    // Computes chunk `c` into `buf` (cleared first).
    let run = |ws: &mut W, c: usize, buf: &mut Chunk<Z>| {
        buf.ends.clear();
        let mut out = RowOut {
            cols: std::mem::take(&mut buf.cols),
            vals: std::mem::take(&mut buf.vals),
        };
        out.cols.clear();
        out.vals.clear();
        for i in bounds[c]..bounds[c + 1] {
            let before = out.cols.len();
            row(ws, i, &mut out);
            debug_assert_eq!(out.cols.len(), out.vals.len());
            debug_assert!(out.cols[before..].windows(2).all(|w| w[0] < w[1]));
            debug_assert!(out.cols[before..].iter().all(|&j| (j as usize) < ncols));
            buf.ends.push(out.cols.len() as u64);
        }
        buf.cols = out.cols;
        buf.vals = out.vals;
    };
    match placement {
        // One chunk (a small result): computed here, its arrays become the result's,
        // with nothing to schedule or copy.
        _ if nchunks <= 1 => {
            let mut buf = Chunk::empty();
            if nchunks == 1 {
                run(&mut init(), 0, &mut buf);
            }
            if let Placement::Bounded(total) = placement {
                assert!(
                    buf.cols.len() <= total,
                    "a bounded build produced more entries than its bound"
                );
            }
            concat(nrows, ncols, vec![buf])
        }
        Placement::Bounded(total) => build_bounded(nrows, ncols, bounds, total, init, run),
        Placement::Hinted(caps) => {
            let parts: Vec<Chunk<Z>> = (0..nchunks)
                .into_par_iter()
                .with_max_len(1)
                .map(|c| {
                    let cap = caps.get(c).copied().unwrap_or(0);
                    let mut buf = Chunk {
                        ends: Vec::with_capacity(bounds[c + 1] - bounds[c]),
                        cols: Vec::with_capacity(cap),
                        vals: Vec::with_capacity(cap),
                    };
                    run(&mut init(), c, &mut buf);
                    buf
                })
                .collect();
            concat(nrows, ncols, parts)
        }
    }
}

/// A raw pointer that may cross threads: the writers it is handed to write disjoint
/// ranges.
#[derive(Clone, Copy)]
struct Shared<T>(*mut T);
// SAFETY: only used to write disjoint ranges of one allocation from several threads,
// all joined before the allocation is used again.
unsafe impl<T: Send> Send for Shared<T> {}
unsafe impl<T: Send> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// The pointer (a method, so that closures capture the whole `Shared`).
    fn at(self, k: usize) -> *mut T {
        self.0.wrapping_add(k)
    }
}

/// The [`Placement::Bounded`] build: workers take the chunks in order from a counter;
/// a finished chunk is parked until every chunk before it has finished, and then copied
/// into the result's arrays (reserved once for `total` entries) by whichever worker
/// completed the run of finished chunks. A worker reuses its buffers from chunk to
/// chunk, so what it copies is still in cache.
fn build_bounded<Z: Scalar, W>(
    nrows: usize,
    ncols: usize,
    bounds: &[usize],
    total: usize,
    init: impl Fn() -> W + Sync,
    run: impl Fn(&mut W, usize, &mut Chunk<Z>) + Sync,
) -> Csr<Z> {
    let nchunks = bounds.len().saturating_sub(1);
    let mut cols: Vec<Index> = Vec::with_capacity(total);
    let mut vals: Vec<Z> = Vec::with_capacity(total);
    let mut offsets: Vec<u64> = Vec::with_capacity(nrows + 1);
    let (cp, vp, op) = (
        Shared(cols.as_mut_ptr()),
        Shared(vals.as_mut_ptr()),
        Shared(offsets.as_mut_ptr()),
    );
    struct State<Z> {
        parked: Vec<Option<Chunk<Z>>>,
        /// The first chunk not yet placed, and where it starts.
        next: usize,
        start: usize,
        spare: Vec<Chunk<Z>>,
    }
    let state = Mutex::new(State {
        parked: (0..nchunks).map(|_| None).collect(),
        next: 0,
        start: 0,
        spare: Vec::new(),
    });
    let counter = AtomicUsize::new(0);
    let work = || {
        let mut ws = init();
        let mut buf = Chunk::empty();
        loop {
            let c = counter.fetch_add(1, Ordering::Relaxed);
            if c >= nchunks {
                break;
            }
            run(&mut ws, c, &mut buf);
            // Park this chunk, and take every chunk that can now be placed.
            let ready: Vec<(usize, usize, Chunk<Z>)> = {
                let mut guard = state.lock().expect("no worker panics holding the lock");
                let st = &mut *guard;
                st.parked[c] = Some(buf);
                let mut ready = Vec::new();
                let mut over = false;
                while st.next < nchunks {
                    let Some(len) = st.parked[st.next].as_ref().map(|d| d.cols.len()) else {
                        break;
                    };
                    if st.start + len > total {
                        over = true;
                        break;
                    }
                    let done = st.parked[st.next].take().expect("parked above");
                    ready.push((st.next, st.start, done));
                    st.start += len;
                    st.next += 1;
                }
                buf = st.spare.pop().unwrap_or_else(Chunk::empty);
                drop(guard);
                // Not while holding the lock, which would poison it for the others.
                assert!(
                    !over,
                    "a bounded build produced more entries than its bound"
                );
                ready
            };
            for (c, start, done) in ready {
                let len = done.cols.len();
                // SAFETY: chunk `c` owns entries `start..start + len`, within the
                // reserved `total` (asserted above), and rows `bounds[c] + 1..=
                // bounds[c + 1]` of the offsets, within `nrows + 1`; no other chunk
                // writes there.
                unsafe {
                    std::ptr::copy_nonoverlapping(done.cols.as_ptr(), cp.at(start), len);
                    std::ptr::copy_nonoverlapping(done.vals.as_ptr(), vp.at(start), len);
                    let ends = op.at(bounds[c] + 1);
                    for (r, &e) in done.ends.iter().enumerate() {
                        ends.add(r).write(start as u64 + e);
                    }
                }
                let mut st = state.lock().expect("no worker panics holding the lock");
                st.spare.push(done);
            }
        }
    };
    let workers = rayon::current_num_threads().min(nchunks);
    if workers <= 1 {
        work();
    } else {
        (0..workers).into_par_iter().for_each(|_| work());
    }
    let st = state.into_inner().expect("every worker has finished");
    debug_assert_eq!(st.next, nchunks);
    // SAFETY: the chunks covered rows 0..nrows in order and were all placed: entries
    // 0..st.start and offsets 1..=nrows are written; offset 0 is written here. Every
    // row was pushed sorted and in range (checked in debug builds).
    unsafe {
        op.at(0).write(0);
        offsets.set_len(nrows + 1);
        cols.set_len(st.start);
        vals.set_len(st.start);
    }
    if cols.capacity() > st.start + st.start / 8 {
        cols.shrink_to_fit();
        vals.shrink_to_fit();
    }
    // SAFETY: as above: the chunks' rows, sorted and in range, at their running ends.
    unsafe { Csr::new_unchecked(nrows, ncols, offsets, cols, vals) }
}

/// Concatenates the chunks in order: row ends made absolute, arrays copied in parallel.
fn concat<Z: Scalar>(nrows: usize, ncols: usize, parts: Vec<Chunk<Z>>) -> Csr<Z> {
    let total: usize = parts.iter().map(|p| p.cols.len()).sum();
    let mut offsets = Vec::with_capacity(nrows + 1);
    offsets.push(0u64);
    let mut base = 0u64;
    for p in &parts {
        offsets.extend(p.ends.iter().map(|&e| base + e));
        base += p.cols.len() as u64;
    }
    debug_assert_eq!(offsets.len(), nrows + 1);
    let (cols, vals) = if parts.len() == 1 {
        let p = parts.into_iter().next().expect("one part");
        (p.cols, p.vals)
    } else {
        let mut cols = vec![0 as Index; total];
        let mut vals = vec![Z::default(); total];
        let mut slices = Vec::with_capacity(parts.len());
        let (mut cr, mut vr) = (&mut cols[..], &mut vals[..]);
        for p in &parts {
            let (c, rest_c) = std::mem::take(&mut cr).split_at_mut(p.cols.len());
            let (v, rest_v) = std::mem::take(&mut vr).split_at_mut(p.cols.len());
            slices.push((c, v));
            (cr, vr) = (rest_c, rest_v);
        }
        parts.par_iter().zip(slices).for_each(|(p, (c, v))| {
            c.copy_from_slice(&p.cols);
            v.copy_from_slice(&p.vals);
        });
        (cols, vals)
    };
    // SAFETY: every row was appended sorted and in range (checked in debug builds),
    // the chunks cover the rows in order, and the offsets are the running row ends.
    unsafe { Csr::new_unchecked(nrows, ncols, offsets, cols, vals) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row `i` of the test matrix: `i % 7` entries at columns `i % 5 + 3 t`.
    fn row_of(i: usize, out: &mut RowOut<u64>) {
        for t in 0..i % 7 {
            out.push((i % 5 + 3 * t) as Index, (i * 31 + t) as u64);
        }
    }

    fn expected(nrows: usize) -> Csr<u64> {
        let mut out = RowOut {
            cols: Vec::new(),
            vals: Vec::new(),
        };
        let mut offsets = vec![0u64];
        for i in 0..nrows {
            row_of(i, &mut out);
            offsets.push(out.cols.len() as u64);
        }
        Csr::new_checked(nrows, 32, offsets, out.cols, out.vals).unwrap()
    }

    fn same(x: &Csr<u64>, y: &Csr<u64>) -> bool {
        x.offsets() == y.offsets() && x.indices() == y.indices() && x.values() == y.values()
    }

    #[test]
    fn every_placement_builds_the_same_matrix_at_any_thread_count() {
        for nrows in [0, 1, 5, 1000, 100_000] {
            let want = expected(nrows);
            let bounds = cut_rows_by(nrows, |i| 4 * i as u64);
            for threads in [1, 2, 3, 7] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| {
                    for placement in [
                        Placement::Bounded(want.nvals()),
                        Placement::Bounded(3 * want.nvals() + 5),
                        Placement::Hinted(Vec::new()),
                        Placement::Hinted(vec![10; bounds.len()]),
                    ] {
                        let got = build_rows_out(
                            nrows,
                            32,
                            &bounds,
                            placement,
                            || (),
                            |_, i, out| row_of(i, out),
                        );
                        assert!(same(&got, &want), "{nrows} rows at {threads} threads");
                    }
                });
            }
        }
    }

    /// Builds the test matrix of `nrows` rows, cut into `chunks` chunks, under a bound
    /// one entry short of its entries.
    fn build_one_short_of_its_entries(nrows: usize, chunks: usize) {
        let bounds = cut_rows_by(nrows, |i| 4 * i as u64);
        assert_eq!(bounds.len(), chunks + 1);
        let nvals = expected(nrows).nvals();
        build_rows_out(
            nrows,
            32,
            &bounds,
            Placement::Bounded(nvals - 1),
            || (),
            |_, i, out| row_of(i, out),
        );
    }

    #[test]
    #[should_panic(expected = "more entries than its bound")]
    fn a_bounded_build_past_its_bound_panics_instead_of_writing_past_it() {
        build_one_short_of_its_entries(100_000, 24);
    }

    #[test]
    #[should_panic(expected = "more entries than its bound")]
    fn a_one_chunk_bounded_build_past_its_bound_panics_too() {
        build_one_short_of_its_entries(1000, 1);
    }

    #[test]
    fn a_cut_starts_each_chunk_at_the_first_row_reaching_its_share() {
        let n = 50_000usize;
        let prefix: Vec<u64> = (0..=n as u64).map(|i| i * i / 7).collect();
        let bounds = cut_rows_by(n, |i| prefix[i]);
        let total = prefix[n];
        let chunks = ((total / SEQUENTIAL_WORK as u64) as usize).clamp(1, MAX_CHUNKS);
        let mut want = vec![0];
        for c in 1..chunks {
            let target = total / chunks as u64 * c as u64;
            let r = prefix.partition_point(|&p| p < target).min(n);
            if r > *want.last().unwrap() {
                want.push(r);
            }
        }
        want.push(n);
        assert_eq!(bounds, want);
        assert!(bounds.windows(2).all(|w| w[0] < w[1]));
    }
}
