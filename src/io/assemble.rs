//! From parsed records to the adjacency: CSR assembly with duplicate counting, weights
//! combined by `min`, and the undirected closure `A ∪ A'`.

use rayon::prelude::*;

use super::text::Part;
use crate::algebra::Index;
use crate::matrix::Csr;

/// How records become arcs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Each record is the arc `src -> dst`.
    Directed,
    /// Each record is an undirected edge; duplicates are counted on `(src, dst)` as written.
    Undirected,
    /// Each record is an undirected edge; duplicates are counted on unordered pairs
    /// (Matrix Market symmetric).
    Symmetric,
}

/// The adjacency pattern, the weights (when `weighted`) and the number of duplicate
/// records, for an `n x n` graph whose records are `parts` (every index below `n`).
pub(crate) fn build(
    n: usize,
    mut parts: Vec<Part>,
    weighted: bool,
    shape: Shape,
) -> (Csr<()>, Option<Vec<f64>>, u64) {
    if shape == Shape::Symmetric {
        // One canonical orientation (lower triangle), so a pair given both ways counts once.
        parts.par_iter_mut().for_each(|p| {
            for (s, d) in p.src.iter_mut().zip(p.dst.iter_mut()) {
                if *s < *d {
                    std::mem::swap(s, d);
                }
            }
        });
    }
    if shape == Shape::Symmetric {
        // Both arcs of every edge at once: one sort gives A ∪ A'. Each canonical pair
        // kept is one stored arc on the diagonal or two off it.
        let records: usize = parts.iter().map(|p| p.src.len()).sum();
        let both = both_directions(&parts, weighted);
        drop(parts);
        let (pattern, weights, _) = directed_csr(n, &both, weighted);
        let pairs = (pattern.nnz() + pattern.count_diagonal()) / 2;
        // Every arc was placed with its reverse.
        return (
            pattern.assume_symmetric(),
            weights,
            (records - pairs) as u64,
        );
    }
    let (pattern, weights, dups) = directed_csr(n, &parts, weighted);
    drop(parts);
    if shape == Shape::Directed {
        return (pattern, weights, dups);
    }
    let (pattern, weights) = symmetrize(&pattern, weights.as_deref());
    (pattern.assume_symmetric(), weights, dups)
}

/// Every record `(s, d)` and, when `s != d`, its reverse `(d, s)`, part by part.
fn both_directions(parts: &[Part], weighted: bool) -> Vec<Part> {
    parts
        .par_iter()
        .map(|p| {
            let cap = 2 * p.src.len();
            let mut q = Part {
                src: Vec::with_capacity(cap),
                dst: Vec::with_capacity(cap),
                w: Vec::with_capacity(if weighted { cap } else { 0 }),
            };
            for k in 0..p.src.len() {
                let (s, d) = (p.src[k], p.dst[k]);
                q.src.push(s);
                q.dst.push(d);
                if s != d {
                    q.src.push(d);
                    q.dst.push(s);
                }
                if weighted {
                    q.w.push(p.w[k]);
                    if s != d {
                        q.w.push(p.w[k]);
                    }
                }
            }
            q
        })
        .collect()
}

/// `A ∪ A'` with weights combined by `min`.
pub(crate) fn symmetrize(a: &Csr<()>, weights: Option<&[f64]>) -> (Csr<()>, Option<Vec<f64>>) {
    match weights {
        None => (a.symmetrize(|x, _| x), None),
        Some(w) => {
            let (pattern, w) = split_values(with_values(a, w).symmetrize(min_total));
            (pattern, Some(w))
        }
    }
}

/// The smaller in IEEE total order (`-0.0 < +0.0`): what duplicate arcs keep.
fn min_total(x: f64, y: f64) -> f64 {
    if y.total_cmp(&x).is_lt() { y } else { x }
}

/// The pattern and the values of a weighted matrix.
pub(crate) fn split_values(m: Csr<f64>) -> (Csr<()>, Vec<f64>) {
    let (nrows, ncols, offsets, indices, values) = m.into_parts();
    let unit = vec![(); indices.len()];
    // SAFETY: the structure comes from a valid Csr, unchanged; `()` values are one per index.
    let pattern = unsafe { Csr::new_unchecked(nrows, ncols, offsets, indices, unit) };
    (pattern, values)
}

/// The pattern `a` with values `w` (one per stored entry).
pub(crate) fn with_values(a: &Csr<()>, w: &[f64]) -> Csr<f64> {
    assert_eq!(w.len(), a.nnz(), "weights.len() != adjacency.nnz()");
    // SAFETY: the structure is `a`'s, a valid Csr; one value per index (asserted).
    unsafe {
        Csr::new_unchecked(
            a.nrows(),
            a.ncols(),
            a.offsets().to_vec(),
            a.indices().to_vec(),
            w.to_vec(),
        )
    }
}

/// At most `2^BUCKET_BITS` row buckets in the first sorting pass.
const BUCKET_BITS: u32 = 10;

/// A record on its way into the CSR: the key `src << 32 | dst`, and maybe a weight.
trait Entry: Copy + Default + Send + Sync {
    fn key(&self) -> u64;
    fn weight(&self) -> f64;
    /// Sorts by key; among equal keys the entry to keep (the lightest) comes first.
    fn sort(run: &mut [Self]);
    /// The order of [`Entry::sort`].
    fn before(&self, other: &Self) -> bool;
}

impl Entry for u64 {
    #[inline(always)]
    fn key(&self) -> u64 {
        *self
    }
    #[inline(always)]
    fn weight(&self) -> f64 {
        0.0
    }
    fn sort(run: &mut [Self]) {
        run.sort_unstable();
    }
    #[inline(always)]
    fn before(&self, other: &Self) -> bool {
        self < other
    }
}

impl Entry for (u64, f64) {
    #[inline(always)]
    fn key(&self) -> u64 {
        self.0
    }
    #[inline(always)]
    fn weight(&self) -> f64 {
        self.1
    }
    fn sort(run: &mut [Self]) {
        run.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    }
    #[inline(always)]
    fn before(&self, other: &Self) -> bool {
        self.0 < other.0 || (self.0 == other.0 && self.1.total_cmp(&other.1).is_lt())
    }
}

#[inline(always)]
fn key(src: u32, dst: u32) -> u64 {
    (src as u64) << 32 | dst as u64
}

/// Sorts a bucket of rows `first_row .. first_row + rows` by key: a counting sort by row,
/// then each row by itself (most rows are short).
fn sort_bucket<E: Entry>(run: &mut [E], first_row: usize, rows: usize) {
    if rows <= 1 || run.len() < 64 {
        E::sort(run);
        return;
    }
    let row_of = |e: &E| (e.key() >> 32) as usize - first_row;
    let mut next = vec![0usize; rows + 1];
    for e in run.iter() {
        next[row_of(e) + 1] += 1;
    }
    for r in 0..rows {
        next[r + 1] += next[r];
    }
    let ends: Vec<usize> = next[1..].to_vec();
    let scratch = run.to_vec();
    for e in scratch {
        let r = row_of(&e);
        run[next[r]] = e;
        next[r] += 1;
    }
    let mut s = 0;
    for e in ends {
        match e - s {
            0 | 1 => {}
            2..=24 => insertion_sort(&mut run[s..e]),
            _ => E::sort(&mut run[s..e]),
        }
        s = e;
    }
}

/// Sorts a short run (the common row length) without a call into the library sort.
#[inline]
fn insertion_sort<E: Entry>(run: &mut [E]) {
    for i in 1..run.len() {
        let x = run[i];
        let mut j = i;
        while j > 0 && x.before(&run[j - 1]) {
            run[j] = run[j - 1];
            j -= 1;
        }
        run[j] = x;
    }
}

/// Splits `data` into consecutive pieces of the given lengths.
fn split_lengths<X>(mut data: &mut [X], lens: impl Iterator<Item = usize>) -> Vec<&mut [X]> {
    let mut out = Vec::new();
    for len in lens {
        let (head, tail) = data.split_at_mut(len);
        out.push(head);
        data = tail;
    }
    out
}

/// The `n x n` CSR of the arcs `src -> dst` of `parts`, rows sorted, repeated arcs stored
/// once with the lightest weight: `(pattern, weights, duplicates)`, what
/// `CooBuilder::build_counted` / `build_combine(Min)` compute, in parallel throughout and
/// with no per-vertex work beyond the offsets.
///
/// Pass 1 distributes the records by row bucket (`src >> shift`, at most 1024 buckets):
/// every part counts its records per bucket, and writes them, in order, to its own range
/// of every bucket. Pass 2 sorts each bucket by `(src, dst, weight)` (skipped when already
/// sorted, as most files are) and keeps the first of each run of equal arcs: the minimum,
/// in IEEE total order, so the result does not depend on the order of the records. Pass 3
/// writes each bucket's arcs and its rows' offsets. All three are deterministic.
fn directed_csr(n: usize, parts: &[Part], weighted: bool) -> (Csr<()>, Option<Vec<f64>>, u64) {
    if weighted {
        sorted_csr(n, parts, true, |p, k| (key(p.src[k], p.dst[k]), p.w[k]))
    } else {
        sorted_csr(n, parts, false, |p, k| key(p.src[k], p.dst[k]))
    }
}

fn sorted_csr<E: Entry>(
    n: usize,
    parts: &[Part],
    weighted: bool,
    make: impl Fn(&Part, usize) -> E + Sync,
) -> (Csr<()>, Option<Vec<f64>>, u64) {
    let total: usize = parts.iter().map(|p| p.src.len()).sum();
    if n == 0 {
        return (Csr::empty(0, 0), weighted.then(Vec::new), 0);
    }
    let bits = usize::BITS - (n - 1).leading_zeros();
    let shift = bits.saturating_sub(BUCKET_BITS);
    let nb = ((n - 1) >> shift) + 1;

    // Pass 1: per-part bucket counts, then every part writes its own ranges.
    let hist: Vec<Vec<usize>> = parts
        .par_iter()
        .map(|p| {
            let mut h = vec![0usize; nb];
            for &s in &p.src {
                h[s as usize >> shift] += 1;
            }
            h
        })
        .collect();
    let mut bounds = vec![0usize; nb + 1];
    for b in 0..nb {
        bounds[b + 1] = bounds[b] + hist.iter().map(|h| h[b]).sum::<usize>();
    }
    let mut buf = vec![E::default(); total];
    {
        let lens = (0..nb).flat_map(|b| hist.iter().map(move |h| h[b]));
        let mut per_part: Vec<Vec<&mut [E]>> =
            (0..parts.len()).map(|_| Vec::with_capacity(nb)).collect();
        for (k, piece) in split_lengths(&mut buf, lens).into_iter().enumerate() {
            per_part[k % parts.len()].push(piece);
        }
        parts.par_iter().zip(per_part).for_each(|(p, mut out)| {
            let mut fill = vec![0usize; nb];
            for k in 0..p.src.len() {
                let b = p.src[k] as usize >> shift;
                out[b][fill[b]] = make(p, k);
                fill[b] += 1;
            }
        });
    }

    // Pass 2: sort each bucket, keep the first of each run of equal keys.
    let mut buckets = split_lengths(&mut buf, bounds.windows(2).map(|w| w[1] - w[0]));
    let kept: Vec<usize> = buckets
        .par_iter_mut()
        .enumerate()
        .map(|(b, run)| {
            if !run.is_sorted_by(|a, b| a.key() < b.key()) {
                let first_row = b << shift;
                sort_bucket(run, first_row, (1usize << shift).min(n - first_row));
            }
            let mut w = 0usize;
            for r in 0..run.len() {
                if w == 0 || run[w - 1].key() != run[r].key() {
                    run[w] = run[r];
                    w += 1;
                }
            }
            w
        })
        .collect();

    // Pass 3: each bucket writes its arcs and the end offsets of its rows.
    let mut start = vec![0usize; nb + 1];
    for b in 0..nb {
        start[b + 1] = start[b] + kept[b];
    }
    let m = start[nb];
    let mut indices = vec![0 as Index; m];
    let mut values = vec![0.0f64; if weighted { m } else { 0 }];
    let mut offsets = vec![0u64; n + 1];
    let idx = split_lengths(&mut indices, kept.iter().copied());
    let val = split_lengths(
        &mut values,
        kept.iter().map(|&k| if weighted { k } else { 0 }),
    );
    let ends: Vec<&mut [u64]> = offsets[1..].chunks_mut(1 << shift).collect();
    buckets
        .into_par_iter()
        .zip(idx)
        .zip(val)
        .zip(ends)
        .enumerate()
        .for_each(|(b, (((run, idx), val), ends))| {
            let (first_row, base) = (b << shift, start[b] as u64);
            let mut row = 0usize;
            for (q, e) in run[..kept[b]].iter().enumerate() {
                idx[q] = e.key() as Index;
                if weighted {
                    val[q] = e.weight();
                }
                let s = (e.key() >> 32) as usize - first_row;
                while row < s {
                    ends[row] = base + q as u64;
                    row += 1;
                }
            }
            for end in &mut ends[row..] {
                *end = base + kept[b] as u64;
            }
        });
    let dups = (total - m) as u64;
    let unit = vec![(); m];
    // SAFETY: every bucket holds the rows `b << shift ..` in key order, so each row's
    // columns strictly increase after the de-duplication; every column came from a
    // parser that mapped it into 0..n; `offsets` ends every row at the running count of
    // kept arcs, so it never decreases and ends at m = indices.len().
    let pattern = unsafe { Csr::new_unchecked(n, n, offsets, indices, unit) };
    (pattern, weighted.then_some(values), dups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algebra::Min;
    use crate::matrix::{CooBuilder, Duplicates};

    /// Seeded records split into parts of uneven sizes, many repeats.
    fn records(seed: u64, n: u32, m: usize) -> Vec<Part> {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut parts = vec![Part::default()];
        for _ in 0..m {
            if next() % 97 == 0 {
                parts.push(Part::default());
            }
            let p = parts.last_mut().unwrap();
            p.src.push((next() % n as u64) as u32);
            p.dst.push((next() % n as u64) as u32);
            p.w.push((next() % 7) as f64 - 3.0);
        }
        parts
    }

    #[test]
    fn counting_build_equals_coo_builder() {
        for (seed, n, m) in [
            (1, 1, 10),
            (2, 5, 200),
            (3, 50, 5000),
            (4, 3000, 40000),
            (5, 7, 0),
        ] {
            let parts = records(seed, n, m);
            let mut coo = CooBuilder::new(n as usize, n as usize);
            let mut pat = CooBuilder::new(n as usize, n as usize);
            for p in &parts {
                coo.extend_from_slices(&p.src, &p.dst, &p.w);
                pat.extend_from_slices(&p.src, &p.dst, &vec![(); p.src.len()]);
            }
            let want = coo.build_combine(Min::new());
            let (want_pat, want_dups) = pat.build_counted(Duplicates::KeepFirst).unwrap();
            let (got, w, dups) = directed_csr(n as usize, &parts, true);
            assert_eq!(got, want.pattern(), "seed {seed}");
            assert_eq!(w.as_deref(), Some(want.values()), "seed {seed}");
            assert_eq!(dups, want_dups, "seed {seed}");
            let (got, w, dups) = directed_csr(n as usize, &parts, false);
            assert_eq!((got, w, dups), (want_pat, None, want_dups), "seed {seed}");
        }
    }

    #[test]
    fn symmetric_shapes() {
        let parts = records(9, 40, 3000);
        let (a, w, _) = build(40, records(9, 40, 3000), true, Shape::Undirected);
        let (d, dw, _) = directed_csr(40, &parts, true);
        let both = with_values(&d, dw.as_deref().unwrap()).symmetrize(min_total);
        assert_eq!(with_values(&a, w.as_deref().unwrap()), both);
        assert!(both.is_symmetric());
        let (s, _, dups) = build(40, records(9, 40, 3000), false, Shape::Symmetric);
        assert_eq!(s, a);
        assert_eq!(dups as usize, 3000 - (s.nnz() + s.count_diagonal()) / 2);
        // Both shapes are known symmetric from how they were built, and are.
        for m in [&a, &s] {
            assert!(m.known_symmetric() && m.transpose() == *m);
        }
        let (d, _, _) = build(40, records(9, 40, 3000), false, Shape::Directed);
        assert!(!d.known_symmetric());
    }
}
