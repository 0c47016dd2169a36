//! Building a [`Csr`] row by row in parallel: the skeleton of every matrix operation.
//!
//! A kernel says how to produce one output row (appending its sorted entries); this
//! module cuts the rows into chunks of about equal cost, runs the chunks on rayon, each
//! with its own workspace, and concatenates the chunks' arrays in row order. Each row is
//! computed by one call, whatever the chunking, so the result does not depend on the
//! number of threads.

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
    let nrows = prefix.len() - 1;
    let total = prefix[nrows];
    let chunks = ((total / SEQUENTIAL_WORK as u64) as usize).clamp(1, MAX_CHUNKS);
    let mut bounds = Vec::with_capacity(chunks + 1);
    bounds.push(0);
    for c in 1..chunks {
        let target = total / chunks as u64 * c as u64;
        let r = prefix.partition_point(|&p| p < target).min(nrows);
        if r > *bounds.last().unwrap() {
            bounds.push(r);
        }
    }
    if *bounds.last().unwrap() != nrows || bounds.len() == 1 {
        bounds.push(nrows);
    }
    bounds
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

/// Builds an `nrows x ncols` matrix whose row `i` is what `row(&mut ws, i, &mut cols,
/// &mut vals)` appends (sorted, no duplicates, every column below `ncols`: the caller's
/// promise, checked in debug builds). `bounds` comes from [`cut_rows`]; each chunk makes
/// one workspace with `init`.
pub(crate) fn build_rows<Z: Scalar, W>(
    nrows: usize,
    ncols: usize,
    bounds: &[usize],
    init: impl Fn() -> W + Sync,
    row: impl Fn(&mut W, usize, &mut Vec<Index>, &mut Vec<Z>) + Sync,
) -> Csr<Z> {
    build_rows_reserving(nrows, ncols, bounds, |_, _| 0, init, row)
}

/// [`build_rows`], each chunk of rows `lo..hi` first reserving `capacity(lo, hi)`
/// entries: a bound the caller knows (a product's term count) saves the regrowth of
/// the chunk's arrays.
pub(crate) fn build_rows_reserving<Z: Scalar, W>(
    nrows: usize,
    ncols: usize,
    bounds: &[usize],
    capacity: impl Fn(usize, usize) -> usize + Sync,
    init: impl Fn() -> W + Sync,
    row: impl Fn(&mut W, usize, &mut Vec<Index>, &mut Vec<Z>) + Sync,
) -> Csr<Z> {
    debug_assert_eq!(bounds.first(), Some(&0));
    debug_assert_eq!(bounds.last(), Some(&nrows));
    let run = |c: usize| {
        let (lo, hi) = (bounds[c], bounds[c + 1]);
        let mut ws = init();
        let mut counts = Vec::with_capacity(hi - lo);
        let cap = capacity(lo, hi);
        let (mut cols, mut vals) = (Vec::with_capacity(cap), Vec::with_capacity(cap));
        for i in lo..hi {
            let before = cols.len();
            row(&mut ws, i, &mut cols, &mut vals);
            debug_assert_eq!(cols.len(), vals.len());
            debug_assert!(cols[before..].windows(2).all(|w| w[0] < w[1]));
            debug_assert!(cols[before..].iter().all(|&j| (j as usize) < ncols));
            counts.push((cols.len() - before) as u64);
        }
        (counts, cols, vals)
    };
    let nchunks = bounds.len().saturating_sub(1);
    let parts: Vec<(Vec<u64>, Vec<Index>, Vec<Z>)> = if nchunks <= 1 {
        (0..nchunks).map(run).collect()
    } else {
        (0..nchunks).into_par_iter().map(run).collect()
    };
    concat(nrows, ncols, parts)
}

/// Concatenates per-chunk `(row counts, columns, values)` in chunk order.
fn concat<Z: Scalar>(
    nrows: usize,
    ncols: usize,
    parts: Vec<(Vec<u64>, Vec<Index>, Vec<Z>)>,
) -> Csr<Z> {
    let total: usize = parts.iter().map(|p| p.1.len()).sum();
    let mut offsets = Vec::with_capacity(nrows + 1);
    offsets.push(0u64);
    let mut acc = 0u64;
    for (counts, _, _) in &parts {
        for &c in counts {
            acc += c;
            offsets.push(acc);
        }
    }
    debug_assert_eq!(offsets.len(), nrows + 1);
    if parts.len() == 1 {
        let (_, cols, vals) = parts.into_iter().next().unwrap();
        // SAFETY: every row was appended sorted and in range (checked in debug builds),
        // and the offsets are the running sum of the row counts.
        return unsafe { Csr::new_unchecked(nrows, ncols, offsets, cols, vals) };
    }
    // Each chunk copies into its own slice of the result, in parallel.
    let mut cols = vec![0 as Index; total];
    let mut vals = vec![Z::default(); total];
    let mut col_slices = Vec::with_capacity(parts.len());
    let mut val_slices = Vec::with_capacity(parts.len());
    let (mut cr, mut vr) = (&mut cols[..], &mut vals[..]);
    for p in &parts {
        let (c, rest_c) = std::mem::take(&mut cr).split_at_mut(p.1.len());
        let (v, rest_v) = std::mem::take(&mut vr).split_at_mut(p.1.len());
        col_slices.push(c);
        val_slices.push(v);
        (cr, vr) = (rest_c, rest_v);
    }
    parts
        .par_iter()
        .zip(col_slices)
        .zip(val_slices)
        .for_each(|((p, c), v)| {
            c.copy_from_slice(&p.1);
            v.copy_from_slice(&p.2);
        });
    // SAFETY: as above; the chunks cover the rows in order.
    unsafe { Csr::new_unchecked(nrows, ncols, offsets, cols, vals) }
}
