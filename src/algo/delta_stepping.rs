//! Single-source shortest paths by delta-stepping (Meyer and Sanders), over the algebra
//! as LAGraph's `LAGr_SingleSourceShortestPath` writes it: vertices settled bucket by
//! bucket (bucket `i` holds the tentative distances `x` with `floor(x / delta) = i`),
//! each bucket relaxed with MIN.PLUS until it stops changing. A bucket's rounds are one
//! [`ops::vxm_accumulate_fixpoint`]: `d min= f min.plus A` from the bucket's vertices,
//! again from those it improved that are still in the bucket, and so on, as one
//! operation that returns every improved entry.
//!
//! Where the light arcs (`w <= delta`) are under half of the arcs they are copied once
//! by `select`, the rounds read only them, and the heavy ones are relaxed once per
//! bucket from the vertices it settled (one [`ops::vxm_accumulate`]): Meyer and Sanders'
//! split, which saves re-reading the many heavy arcs of a Kronecker graph. Otherwise
//! (a road graph) the rounds read all of `A`, as gapbs's do.
//!
//! Where LAGraph selects each bucket from a dense vector of all distances (O(n) per
//! bucket), this template files the improvements by bucket with [`ops::partition`]: a
//! *window* of [`WINDOW_BUCKETS`] bins, each read only when its bucket comes up, and the
//! *rest* beyond it, re-filed when the window runs dry. Every operation then costs
//! about the vertices and arcs it touches, which is what a high-diameter road graph
//! needs.
//!
//! Predecessors come from one final product, `p = d min.plus A` carrying the argument:
//! the smallest `u` with `d(u) + w(u, v) = d(v)`.

use crate::algebra::{Index, Min, MinPlus};
use crate::descriptor::{Descriptor, Mask, MatrixDescriptor};
use crate::graph::Graph;
use crate::matrix::Csr;
use crate::ops;
use crate::vector::Vector;

use super::bellman_ford::{MinPlusArg, ShortestPaths};

/// Buckets per window: the candidates are filed into this many bins, and the rest
/// beyond them is re-filed once per this many buckets, not once per bucket.
pub const WINDOW_BUCKETS: f64 = 16.0;

/// The marker of "no predecessor".
const NONE: Index = Index::MAX;

/// MIN.PLUS over the heavy arcs of `A` (`w > delta`) alone: a light arc gives `+inf`,
/// which improves nothing. Relaxing them through `A` itself saves the copy that
/// `select(A, w > delta)` would make.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeavyMinPlus {
    pub(crate) delta: f64,
}

impl crate::algebra::Semiring<f64, f64> for HeavyMinPlus {
    type Output = f64;
    type Add = Min<f64>;
    #[inline]
    fn add(&self) -> Min<f64> {
        Min::new()
    }
    #[inline]
    fn multiply(&self, w: f64, d: f64, _k: Index) -> f64 {
        if w > self.delta { d + w } else { f64::INFINITY }
    }
}

/// The bucket width chosen when none is given.
///
/// The rule: `delta = 4 x (mean arc weight) / (mean out-degree)`, but never below the
/// smallest positive weight nor above the largest (with no positive weight, 1). A
/// bucket then holds a few rounds of relaxations per vertex, the Meyer-Sanders
/// `Theta(max weight / degree)` for uniform weights; on a low-degree road graph it is
/// about 1.6 mean weights, on a Kronecker graph of degree 30 about an eighth of one.
///
/// # Complexity
/// O(arcs), in one pass over the weights.
pub fn default_delta(a: &Csr<f64>) -> f64 {
    let w = a.values();
    let n = a.nrows().max(1);
    let (mut sum, mut lo, mut hi, mut count) = (0.0f64, f64::INFINITY, 0.0f64, 0usize);
    for &x in w {
        if x > 0.0 && x.is_finite() {
            sum += x;
            count += 1;
            lo = lo.min(x);
            hi = hi.max(x);
        }
    }
    delta_of(sum, count as u64, lo, hi, w.len() as u64, n)
}

/// [`default_delta`] from its pieces: the sum (in arc order), count, smallest and largest
/// of the positive finite weights, the arcs and the vertices (at least 1).
pub(crate) fn delta_of(sum: f64, count: u64, lo: f64, hi: f64, arcs: u64, n: usize) -> f64 {
    if count == 0 {
        return 1.0;
    }
    let mean_w = sum / count as f64;
    let mean_deg = (arcs as f64 / n as f64).max(1.0);
    (4.0 * mean_w / mean_deg).clamp(lo, hi)
}

/// Delta-stepping from `source` over non-negative arc weights `a` (`A(i, j)` = weight
/// of `i -> j`), with bucket width `delta`.
///
/// # Arguments
/// * `a` - square weighted adjacency, weights `>= 0` (zero-weight arcs are fine);
/// * `source` - the start vertex;
/// * `delta` - the bucket width, `> 0` (see [`default_delta`]).
///
/// # Returns
/// Exact distances (`+inf` where unreached) and predecessors: for each reached `v`
/// other than the source, the smallest `u` with `d(u) + w(u, v) = d(v)` (with
/// zero-weight arcs two such choices can point at each other). `rounds` counts the
/// relaxation products: every bucket's rounds, and where the arcs are split, one heavy
/// pass per bucket.
///
/// # Errors
/// [`crate::Error::InvalidArgument`] for a negative or NaN weight, or a `delta` that is
/// not a positive number (Bellman-Ford handles negative arcs).
///
/// # Panics
/// If `a` is not square or `source >= a.nrows()` (caller contracts).
///
/// # Complexity
/// O(arcs x relaxations per vertex + buckets), no O(n) work per bucket.
///
/// # Example
/// ```
/// use edgeblas::algo::delta_stepping;
/// use edgeblas::prelude::*;
/// let mut b = CooBuilder::new(3, 3);
/// for (i, j, w) in [(0, 1, 4.0), (1, 2, 1.0), (0, 2, 7.0)] {
///     b.push(i, j, w).unwrap();
/// }
/// let a = b.build(Duplicates::Error).unwrap();
/// let sp = delta_stepping(&Graph::directed(&a), 0, 2.0).unwrap();
/// assert_eq!(sp.distances, vec![0.0, 4.0, 5.0]);
/// assert_eq!(sp.predecessors[2], 1);
/// ```
pub fn delta_stepping(
    g: &Graph<'_, f64>,
    source: Index,
    delta: f64,
) -> Result<ShortestPaths, crate::Error> {
    delta_stepping_with(g, source, delta, true)
}

/// [`delta_stepping`], with the final predecessor product only when
/// `with_predecessors` (without it, `predecessors` is empty: the distances alone cost
/// one product over every reached arc less).
///
/// # Errors
/// As [`delta_stepping`].
///
/// # Panics
/// As [`delta_stepping`].
pub fn delta_stepping_with(
    g: &Graph<'_, f64>,
    source: Index,
    delta: f64,
    with_predecessors: bool,
) -> Result<ShortestPaths, crate::Error> {
    let a = g.adjacency();
    assert_eq!(a.nrows(), a.ncols(), "A.nrows() != A.ncols()");
    let n = a.nrows();
    assert!((source as usize) < n, "source {source} >= A.nrows() = {n}");
    let heavy_arcs = check_delta(a, delta)?;
    let d0 = Descriptor::DEFAULT;
    let md = MatrixDescriptor::DEFAULT;
    let min = Min::<f64>::new();

    // Where the light arcs (w <= delta) are under half of A, they are copied once, AL =
    // select(A, w <= delta): a bucket's rounds read AL, and the heavy arcs are read
    // through A once per bucket, from the vertices it settled, by a semiring that gives
    // +inf for a light arc (Meyer and Sanders' split). Otherwise a bucket's rounds read
    // all of A, as gapbs's do: a heavy arc then lands beyond the bucket and is not
    // followed further in it, and copying most of A, or reading it twice, costs more
    // than the heavy arcs read again when a vertex improves twice in one bucket.
    let split = heavy_arcs > 0 && (a.nnz() - heavy_arcs) * 2 < a.nnz();
    let light_copy = split.then(|| {
        let mut l = Csr::empty(n, n);
        ops::select_matrix(&mut l, None, None, |_, _, w| w <= delta, a, &md);
        l
    });
    let rounds_over = light_copy.as_ref().unwrap_or(a);

    // dist = +inf, dist(source) = 0 (dense). The candidates are filed by bucket: the
    // window's WINDOW_BUCKETS bins from bucket `base` on, each a list of parts
    // min-merged when its bucket comes up, and the rest beyond them, re-filed when the
    // window runs dry. A bucket is then read alone, never the whole window.
    let mut dist: Vector<f64> = Vector::full(n, f64::INFINITY);
    let src = Vector::from_pairs(n, [(source, 0.0)]);
    ops::assign(&mut dist, None, Some(&min), &src, &d0);
    let bins_n = WINDOW_BUCKETS as usize;
    let mut bins: Vec<Vec<Vector<f64>>> = vec![Vec::new(); bins_n];
    bins[0].push(src);
    let mut base = 0u64;
    let mut rest: Vec<Vector<f64>> = Vec::new();
    let mut cur = 0usize;
    let mut rounds = 0usize;

    loop {
        while cur < bins_n && bins[cur].is_empty() {
            cur += 1;
        }
        if cur == bins_n {
            // The window ran dry: rest = min-merge of every candidate beyond it, fresh
            // only (dist(j) == x); the next window starts at its smallest bucket.
            let merged = merge_min(n, std::mem::take(&mut rest));
            let mut fresh = Vector::new(n);
            let dv = &dist;
            ops::select(&mut fresh, None, None, is_fresh(dv), &merged, &d0);
            if fresh.nvals() == 0 {
                break;
            }
            base = bucket_of(ops::reduce(min, &fresh), delta);
            cur = 0;
            let first = file_bins(&fresh, delta, base, cur, &mut bins, &mut rest);
            bins[0].push(first);
            continue;
        }
        // The current bucket: its bin's fresh candidates.
        let merged = merge_min(n, std::mem::take(&mut bins[cur]));
        let dv = &dist;
        let mut near = Vector::new(n);
        ops::select(&mut near, None, None, is_fresh(dv), &merged, &d0);
        if near.nvals() == 0 {
            continue;
        }
        // The rounds until the bucket stops changing, as one operation: every entry of
        // dist they improved; those still in this bucket go on to the next round.
        let top = base + cur as u64;
        let in_bucket = |_: Index, x: f64| bucket_of(x, delta) <= top;
        let fx = ops::vxm_accumulate_fixpoint(
            &mut dist,
            MinPlus::<f64>::new(),
            &near,
            rounds_over,
            in_bucket,
            usize::MAX,
        );
        rounds += fx.rounds;
        // The improvements beyond the bucket are filed; those in it are settled.
        let inside = file_bins(&fx.changed, delta, base, cur, &mut bins, &mut rest);
        if split {
            // The heavy arcs once, from everything the bucket settled (final distances).
            rounds += 1;
            let settled = merge_min(n, vec![near, inside]);
            let c = ops::vxm_accumulate(&mut dist, HeavyMinPlus { delta }, &settled, a);
            // A heavy arc leaves the bucket, unless rounding kept its end in it: then
            // the bucket runs again from there.
            let back = file_bins(&c, delta, base, cur, &mut bins, &mut rest);
            if back.nvals() > 0 {
                bins[cur].push(back);
            }
        }
    }

    let predecessors = if with_predecessors {
        predecessors(a, &dist, source)
    } else {
        Vec::new()
    };
    Ok(ShortestPaths {
        distances: dist.into_dense(f64::INFINITY).into_vec(),
        predecessors,
        rounds,
    })
}

/// The end of the `buckets` buckets of width `delta` from the one holding `m`:
/// `(floor(m / delta) + buckets) delta`, and always above `m`. (In floating point the
/// quotient may round down across a bucket boundary, `m = 0.6` and `delta = 0.3` giving
/// the bucket `[0.3, 0.6)`, which does not hold `m`: the search would find its bucket
/// empty forever. Nor does `m + delta` exceed `m` when delta is below half of `m`'s
/// ulp.)
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) fn bucket_end(m: f64, delta: f64, buckets: f64) -> f64 {
    let end = (m / delta).floor() * delta + delta * buckets;
    if end > m {
        end
    } else {
        (m + delta * buckets).max(m.next_up())
    }
}

/// The bucket of a distance `x >= 0`: `floor(x / delta)` (by truncation, exact for
/// `x >= 0`, saturating for the huge), the one rule every filing uses, so that no
/// rounding puts a candidate in one bucket by one test and in another by the next.
#[inline]
pub(crate) fn bucket_of(x: f64, delta: f64) -> u64 {
    (x / delta) as u64
}

/// Files improvements `c` by bucket in one pass: those in the window's bins after `cur`
/// (the window starts at bucket `base`) join their bins, those beyond the window the
/// rest; those at or below bin `cur` are returned.
pub(crate) fn file_bins(
    c: &Vector<f64>,
    delta: f64,
    base: u64,
    cur: usize,
    bins: &mut [Vec<Vector<f64>>],
    rest: &mut Vec<Vector<f64>>,
) -> Vector<f64> {
    let bins_n = bins.len();
    let bin = |_, x: f64| {
        let b = bucket_of(x, delta).saturating_sub(base);
        if b <= cur as u64 {
            cur
        } else if b < bins_n as u64 {
            b as usize
        } else {
            bins_n
        }
    };
    let mut parts = ops::partition(c, bins_n + 1, bin);
    if let Some(beyond) = parts.pop().filter(|p| p.nvals() > 0) {
        rest.push(beyond);
    }
    for (b, part) in parts.drain(cur + 1..).enumerate() {
        if part.nvals() > 0 {
            bins[cur + 1 + b].push(part);
        }
    }
    parts.swap_remove(cur)
}

/// Checks delta (positive, finite) and the weights (none negative or NaN) in one
/// parallel pass, and counts the heavy arcs (`w > delta`).
///
/// # Errors
/// [`crate::Error::InvalidArgument`] naming delta or the first bad weight.
pub(crate) fn check_delta(a: &Csr<f64>, delta: f64) -> Result<usize, crate::Error> {
    if !(delta > 0.0 && delta.is_finite()) {
        return Err(crate::Error::InvalidArgument(format!(
            "delta {delta} is not a positive number"
        )));
    }
    use rayon::prelude::*;
    let (bad, heavy_arcs) = a
        .values()
        .par_chunks(1 << 16)
        .map(|c| {
            let bad = c.iter().position(|w| w.is_nan() || *w < 0.0).map(|p| c[p]);
            (bad, c.iter().filter(|&&w| w > delta).count())
        })
        .reduce(|| (None, 0), |(b0, h0), (b1, h1)| (b0.or(b1), h0 + h1));
    if let Some(bad) = bad {
        return Err(crate::Error::InvalidArgument(format!(
            "weight {bad} is negative or not a number: delta-stepping needs weights >= 0 \
             (Bellman-Ford takes negative arcs)"
        )));
    }
    Ok(heavy_arcs)
}

/// `x` is a fresh candidate of `j`: no later improvement superseded it.
pub(crate) fn is_fresh(dist: &Vector<f64>) -> impl Fn(Index, f64) -> bool + Sync + '_ {
    move |j, x| dist.get(j as usize).is_some_and(|d| d == x)
}

/// The min-merge of many sparse vectors, pairwise in rounds: O(total x log count).
pub(crate) fn merge_min(n: usize, mut parts: Vec<Vector<f64>>) -> Vector<f64> {
    let d0 = Descriptor::DEFAULT;
    let min = Min::<f64>::new();
    while parts.len() > 1 {
        let mut next = Vec::with_capacity(parts.len().div_ceil(2));
        let mut it = parts.into_iter();
        while let Some(x) = it.next() {
            match it.next() {
                Some(y) => {
                    let mut z = Vector::new(n);
                    ops::ewise_add(&mut z, None, None, &min, &x, &y, &d0);
                    next.push(z);
                }
                None => next.push(x),
            }
        }
        parts = next;
    }
    parts.pop().unwrap_or_else(|| Vector::new(n))
}

/// Predecessors from exact distances `dist` (dense, `+inf` where unreached):
/// `p<reached, not source> = d min.plus A` carrying the argument, which gives each
/// reached `v` the smallest `u` with `d(u) + w(u, v) = d(v)`, since with exact
/// distances no term is below `d(v)`. `u32::MAX` for the source and unreached vertices.
///
/// # Complexity
/// One product over the reached vertices' arcs.
pub fn predecessors(a: &Csr<f64>, dist: &Vector<f64>, source: Index) -> Vec<Index> {
    let n = dist.len();
    let d0 = Descriptor::DEFAULT;
    let mut reached: Vector<f64> = Vector::new(n);
    ops::select(&mut reached, None, None, |_, x| x.is_finite(), dist, &d0);
    let mut not_source: Vector<f64> = Vector::new(n);
    ops::select(
        &mut not_source,
        None,
        None,
        |j, _| j != source,
        &reached,
        &d0,
    );
    let mut t: Vector<(f64, Index)> = Vector::new(n);
    ops::vxm(
        &mut t,
        Some(&Mask::structure(&not_source)),
        None,
        MinPlusArg,
        &reached,
        a,
        &d0,
    );
    let mut pred = vec![NONE; n];
    for (v, (_, u)) in t.to_pairs() {
        pred[v as usize] = u;
    }
    pred
}
