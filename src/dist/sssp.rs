//! Single-source shortest paths over row blocks: [`crate::algo::bellman_ford()`]'s rounds
//! with each rank holding its vertices' distances and its rows of `A` (the
//! out-arcs, with their weights), each round's product a distributed
//! [`super::algebra::vxm`] (each rank pushes its piece of the frontier through its
//! rows, the terms sent to their columns' owners):
//!
//! ```text
//! f = {source: 0}
//! repeat:  t = f min.plus A                        (distributed vxm)
//!          c = select(t < dist);  dist<c> min= t;  f = c
//! until no rank's f has an entry (one allreduce a round), at most n rounds
//! ```
//!
//! A minimum over a set of sums is the same whatever the order of its terms, and each
//! sum `f(k) + A(k, j)` is the same on every rank, so distances, rounds and the
//! negative-cycle verdict are identical to one process for every `P`. A negative cycle is
//! named as one process names it: the rounds again with each round's argmin. [`predecessors`]
//! gives the CLI's rule (the smallest `u` with `d(u) + w(u, v) = d(v)`), one more
//! product. [`delta_stepping`] runs the CPU's buckets over row blocks with the same
//! [`super::algebra::vxm_accumulate`], and [`default_delta`] is the one process's to the bit.

use super::algebra::{mxv, vxm_accumulate};
use super::net::Net;
use super::partition::{Partition, RowBlocks};
use crate::algebra::{Index, Min, MinPlus};
use crate::algo::bellman_ford::{MinPlusArg, NegativeCycle, ShortestPaths};
use crate::descriptor::{Descriptor, Mask, MatrixDescriptor};
use crate::matrix::Csr;
use crate::ops;
use crate::paths::{NONE, find_cycle};
use crate::vector::Vector;

/// This rank's rows of `A'` with their weights, from its rows of `A` (`offsets` from 0,
/// one per owned row plus one; `weights` one per arc, or `None` for weight 1 on every
/// arc): the exchange the distributed BFS builds its rows of `A'` with (`transpose_rows`),
/// carrying the weights. Each row's in-neighbors ascend, as in
/// [`Csr::transpose`]. Collective.
///
/// # Panics
/// When `offsets`, `indices` or `weights` do not fit this rank's block.
pub fn in_rows_weighted(
    net: &Net,
    part: &RowBlocks,
    offsets: &[u64],
    indices: &[Index],
    weights: Option<&[f64]>,
) -> Csr<f64> {
    let me = part.range(net.rank());
    assert_eq!(offsets.len(), me.len() + 1, "offsets != owned rows + 1");
    if let Some(w) = weights {
        assert_eq!(w.len(), indices.len(), "weights != arcs");
    }
    let (in_offsets, in_indices, in_weights) =
        super::bfs::transpose_rows(net, part, offsets, indices, weights);
    let in_weights = in_weights.unwrap_or_else(|| vec![1.0; in_indices.len()]);
    // SAFETY: `in_offsets` rises from 0 to the arcs received, one per owned row plus
    // one; every row's sources ascend (transpose_rows), are unrepeated (the rows of A are) and
    // are vertices (below n).
    unsafe {
        Csr::new_unchecked(
            me.len(),
            part.vertices(),
            in_offsets,
            in_indices,
            in_weights,
        )
    }
}

/// What [`bellman_ford`] found when a negative cycle is reachable from the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleFound {
    /// On rank 0, the cycle (as [`crate::algo::bellman_ford()`] names it); `None`
    /// elsewhere.
    pub cycle: Option<NegativeCycle>,
}

/// One rank's share of shortest paths: its block's distances and predecessors.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalPaths {
    /// The owned vertices' distances (`+inf` where unreached).
    pub distances: Vec<f64>,
    /// The owned vertices' predecessors (`u32::MAX` for none), global vertex numbers;
    /// empty when the method does not compute them ([`delta_stepping`]: see
    /// [`predecessors`]).
    pub predecessors: Vec<Index>,
    /// Rounds (products) the search took, the same on every rank.
    pub rounds: usize,
}

impl LocalPaths {
    /// The whole [`ShortestPaths`] on rank 0 (`None` elsewhere). Collective.
    pub fn gather(&self, net: &Net) -> Option<ShortestPaths> {
        let distances = net.gatherv_root(&self.distances);
        let predecessors = net.gatherv_root(&self.predecessors);
        distances
            .zip(predecessors)
            .map(|(distances, predecessors)| ShortestPaths {
                distances,
                predecessors,
                rounds: self.rounds,
            })
    }
}

/// Bellman-Ford from `source` over the distributed graph whose rows of `A` (with the
/// arcs' weights) this rank holds in `a` (its block's rows, all `n` columns).
/// Collective: every rank passes the same `part` and `source`.
///
/// The rounds are the CPU's [`crate::algo::bellman_ford()`]'s, distances only: `f` =
/// the entries of `dist` that `f min.plus A` improves, each round a distributed
/// [`super::algebra::vxm_accumulate`] (every rank pushes its piece of `f` through its
/// rows, the terms go to their columns' owners). MIN is order-free, so each entry is
/// exactly one process's. (A pull through the rows of `A'` was slower at every frontier
/// size measured, at one and two ranks; BENCHMARKS.md.)
///
/// # Returns
/// This rank's share of one process's result: the same distances and rounds;
/// `predecessors` empty, as one process's `bellman_ford_with(.., false)` ([`predecessors`]
/// gives them by the CLI's rule, one more product). [`LocalPaths::gather`] puts them
/// together on rank 0.
///
/// # Errors
/// [`CycleFound`] on every rank when a negative cycle is reachable from the source
/// (the cycle itself on rank 0, found as one process finds it: the rounds again with
/// each round's argmin, over the rows of `A'` built then by [`in_rows_weighted`]).
///
/// # Panics
/// When `a` does not fit this rank's block or `source >= n`.
pub fn bellman_ford(
    net: &Net,
    part: &RowBlocks,
    a: &Csr<f64>,
    source: Index,
) -> Result<LocalPaths, CycleFound> {
    let n = part.vertices();
    let me = part.range(net.rank());
    assert!((source as usize) < n, "source {source} >= n = {n}");
    assert_eq!(a.nrows(), me.len(), "A rows != the rows of this block");
    let (mut dist, mut f) = start(&me, source);
    let mut rounds = 0;
    let mut live = global_nvals(net, &[&f]);
    while live > 0 && rounds < n {
        rounds += 1;
        f = vxm_accumulate(net, part, &mut dist, MinPlus::<f64>::new(), &f, a);
        live = global_nvals(net, &[&f]);
    }
    if live > 0 {
        drop((dist, f));
        let at = in_rows_weighted(net, part, a.offsets(), a.indices(), Some(a.values()));
        return Err(negative_cycle(net, part, &at, source));
    }
    Ok(LocalPaths {
        distances: dist.into_dense(f64::INFINITY).into_vec(),
        predecessors: Vec::new(),
        rounds,
    })
}

/// The start of a search from `source` over this rank's block `me`: `dist = +inf` and
/// `f = {source: 0}` on the rank that owns it (empty elsewhere), `dist<f> = f`.
fn start(me: &std::ops::Range<usize>, source: Index) -> (Vector<f64>, Vector<f64>) {
    let rows = me.len();
    let mut dist: Vector<f64> = Vector::full(rows, f64::INFINITY);
    let mut f: Vector<f64> = Vector::new(rows);
    if me.contains(&(source as usize)) {
        let ls = source - me.start as Index;
        f = Vector::from_pairs(rows, [(ls, 0.0)]);
        let d0 = Descriptor::DEFAULT;
        ops::assign(&mut dist, Some(&Mask::structure(&f)), None, &f, &d0);
    }
    (dist, f)
}

/// The rounds of [`bellman_ford`] again with each round's argmin kept (a distributed
/// [`mxv`] over MIN.PLUS carrying the argument), run when `n` rounds did not settle the
/// distances: a vertex still changing leads back along those predecessors to a cycle
/// of negative weight, named on rank 0. Collective.
fn negative_cycle(net: &Net, part: &RowBlocks, at: &Csr<f64>, source: Index) -> CycleFound {
    let n = part.vertices();
    let me = part.range(net.rank());
    assert!((source as usize) < n, "source {source} >= n = {n}");
    assert_eq!(at.nrows(), me.len(), "A' rows != the rows of this block");
    let rows = me.len();
    let d0 = Descriptor::DEFAULT;
    let replace = d0.with_replace();
    let (mut dist, mut f) = start(&me, source);
    let mut pred: Vector<Index> = Vector::full(rows, NONE);
    let mut rounds = 0;
    let mut live = global_nvals(net, &[&f]);
    while live > 0 && rounds < n {
        rounds += 1;
        // t = A' min.plus f with the argmin: t(j) = min_k (f(k) + A(k, j), k)
        let mut t: Vector<(f64, Index)> = Vector::new(rows);
        mxv(net, part, &mut t, None, None, MinPlusArg, at, &f, &d0);
        // c = select(t(j) < dist(j)); f = c's distances; dist<f> min= f; pred<c> = argmin
        let mut c: Vector<(f64, Index)> = Vector::new(rows);
        let dv = &dist;
        ops::select(
            &mut c,
            None,
            None,
            |j, (x, _)| dv.get(j as usize).is_some_and(|old| x < old),
            &t,
            &replace,
        );
        let mut next: Vector<f64> = Vector::new(rows);
        ops::apply(&mut next, None, None, |(x, _)| x, &c, &replace);
        let mask = Mask::structure(&c);
        ops::assign(&mut dist, Some(&mask), Some(&Min::<f64>::new()), &next, &d0);
        ops::apply(&mut pred, Some(&mask), None, |(_, k)| k, &c, &d0);
        drop(mask);
        f = next;
        live = global_nvals(net, &[&f]);
    }
    debug_assert!(live > 0, "the rounds before found a negative cycle");
    let predecessors = pred.into_dense(NONE).into_vec();
    let changed: Vec<Index> = f
        .to_pairs()
        .into_iter()
        .map(|(v, _)| v + me.start as Index)
        .collect();
    let changed = net.gatherv_root(&changed);
    let predecessors = net.gatherv_root(&predecessors);
    CycleFound {
        cycle: predecessors.zip(changed).map(|(p, c)| find_cycle(&p, c)),
    }
}

/// Predecessors from exact distances, distributed: this rank's `dist` (its block's
/// distances, `+inf` where unreached) and rows of `A'` give, for each owned reached `v`
/// but the source, the smallest `u` with `d(u) + w(u, v) = d(v)`
/// ([`crate::algo::delta_stepping::predecessors`]'s rule), by one masked distributed
/// product. Returns this rank's predecessors (`u32::MAX` for the source and unreached
/// vertices). Collective.
///
/// # Panics
/// When `at` or `dist` does not fit this rank's block.
pub fn predecessors(
    net: &Net,
    part: &RowBlocks,
    at: &Csr<f64>,
    dist: &[f64],
    source: Index,
) -> Vec<Index> {
    let me = part.range(net.rank());
    let rows = me.len();
    assert_eq!(dist.len(), rows, "dist.len() != the rows of this block");
    let d0 = Descriptor::DEFAULT;
    let reached: Vector<f64> = Vector::from_pairs(
        rows,
        dist.iter()
            .enumerate()
            .filter(|(_, d)| d.is_finite())
            .map(|(v, &d)| (v as Index, d)),
    );
    let mut not_source: Vector<f64> = Vector::new(rows);
    let ls = me
        .contains(&(source as usize))
        .then(|| (source as usize - me.start) as Index);
    ops::select(
        &mut not_source,
        None,
        None,
        |j, _| Some(j) != ls,
        &reached,
        &d0,
    );
    let mut t: Vector<(f64, Index)> = Vector::new(rows);
    mxv(
        net,
        part,
        &mut t,
        Some(&Mask::structure(&not_source)),
        None,
        MinPlusArg,
        at,
        &reached,
        &d0,
    );
    let mut pred = vec![NONE; rows];
    for (v, (_, u)) in t.to_pairs() {
        pred[v as usize] = u;
    }
    pred
}

/// The entries of `parts` on all ranks together.
fn global_nvals(net: &Net, parts: &[&Vector<f64>]) -> u64 {
    let mine: u64 = parts.iter().map(|v| v.nvals() as u64).sum();
    net.allreduce_sum(&[mine])[0]
}

/// The smallest value of `v` over all ranks (`+inf` when none has an entry).
fn global_min(net: &Net, v: &Vector<f64>) -> f64 {
    let mine = ops::reduce(Min::<f64>::new(), v);
    net.allgatherv(&[mine])
        .into_iter()
        .fold(f64::INFINITY, f64::min)
}

/// Delta-stepping from `source` with bucket width `delta` over the distributed graph
/// whose rows of `A` (out-arcs, weights `>= 0`) this rank holds in `a` (its block's rows,
/// all `n` columns). The buckets, bins and rounds of one process's
/// [`crate::algo::delta_stepping::delta_stepping_with`]: each bucket's rounds one
/// [`super::algebra::vxm_accumulate_fixpoint`] over MIN.PLUS, and where the light arcs
/// are under half of the arcs (copied then, as one process does), the heavy ones once a
/// bucket by a distributed [`super::algebra::vxm_accumulate`]; every choice made on
/// global counts and minima: distances and rounds identical to one process for the same
/// `delta`. Predecessors are left to [`predecessors`]. Collective.
///
/// # Errors
/// [`crate::Error::InvalidArgument`] on every rank for a `delta` that is not a positive
/// number, or a weight on any rank that is negative or not a number.
///
/// # Panics
/// When `a` does not fit this rank's block or `source >= n`.
pub fn delta_stepping(
    net: &Net,
    part: &RowBlocks,
    a: &Csr<f64>,
    source: Index,
    delta: f64,
) -> crate::Result<LocalPaths> {
    use crate::algo::delta_stepping::{
        HeavyMinPlus, WINDOW_BUCKETS, bucket_of, file_bins, is_fresh, merge_min,
    };
    let n = part.vertices();
    let me = part.range(net.rank());
    let rows = me.len();
    assert!((source as usize) < n, "source {source} >= n = {n}");
    assert_eq!(a.nrows(), rows, "A's rows != the rows of this block");
    if !(delta > 0.0 && delta.is_finite()) {
        return Err(crate::Error::InvalidArgument(format!(
            "delta {delta} is not a positive number"
        )));
    }
    // A bad weight anywhere: the smallest rank's first, for the message.
    let bad = a.values().iter().find(|w| w.is_nan() || **w < 0.0).copied();
    let bads = net.allgatherv(&[bad.map_or(0.0, |x| x), bad.is_some() as u64 as f64]);
    if let Some(b) = bads.chunks_exact(2).find(|c| c[1] == 1.0) {
        return Err(crate::Error::InvalidArgument(format!(
            "weight {} is negative or not a number: delta-stepping needs weights >= 0 \
             (Bellman-Ford takes negative arcs)",
            b[0]
        )));
    }
    let d0 = Descriptor::DEFAULT;
    let md = MatrixDescriptor::DEFAULT;
    let heavy_here = a.values().iter().filter(|&&w| w > delta).count() as u64;
    let [heavy_arcs, arcs] = net.allreduce_sum(&[heavy_here, a.nnz() as u64])[..] else {
        unreachable!("two sums")
    };
    // As one process: the light arcs copied once when they are under half of A (and the
    // heavy ones relaxed once a bucket), else the rounds read all of A.
    let split = heavy_arcs > 0 && (arcs - heavy_arcs) * 2 < arcs;
    let light_copy = split.then(|| {
        let mut l = Csr::empty(rows, n);
        ops::select_matrix(&mut l, None, None, |_, _, w| w <= delta, a, &md);
        l
    });
    let rounds_over = light_copy.as_ref().unwrap_or(a);

    let mut dist: Vector<f64> = Vector::full(rows, f64::INFINITY);
    let src = match me.contains(&(source as usize)) {
        true => Vector::from_pairs(rows, [(source - me.start as Index, 0.0)]),
        false => Vector::new(rows),
    };
    ops::assign(&mut dist, None, Some(&Min::<f64>::new()), &src, &d0);
    let bins_n = WINDOW_BUCKETS as usize;
    let mut bins: Vec<Vec<Vector<f64>>> = vec![Vec::new(); bins_n];
    bins[0].push(src);
    let mut base = 0u64;
    let mut rest: Vec<Vector<f64>> = Vec::new();
    let mut cur = 0usize;
    let mut rounds = 0usize;
    loop {
        while cur < bins_n && global_nvals(net, &bins[cur].iter().collect::<Vec<_>>()) == 0 {
            bins[cur].clear();
            cur += 1;
        }
        if cur == bins_n {
            let merged = merge_min(rows, std::mem::take(&mut rest));
            let mut fresh = Vector::new(rows);
            ops::select(&mut fresh, None, None, is_fresh(&dist), &merged, &d0);
            if global_nvals(net, &[&fresh]) == 0 {
                break;
            }
            base = bucket_of(global_min(net, &fresh), delta);
            cur = 0;
            let first = file_bins(&fresh, delta, base, cur, &mut bins, &mut rest);
            bins[0].push(first);
            continue;
        }
        let merged = merge_min(rows, std::mem::take(&mut bins[cur]));
        let mut near = Vector::new(rows);
        ops::select(&mut near, None, None, is_fresh(&dist), &merged, &d0);
        if global_nvals(net, &[&near]) == 0 {
            continue;
        }
        let top = base + cur as u64;
        let fx = super::algebra::vxm_accumulate_fixpoint(
            net,
            part,
            &mut dist,
            MinPlus::<f64>::new(),
            &near,
            rounds_over,
            |_, x: f64| bucket_of(x, delta) <= top,
            usize::MAX,
        );
        rounds += fx.rounds;
        let inside = file_bins(&fx.changed, delta, base, cur, &mut bins, &mut rest);
        if split {
            rounds += 1;
            let settled = merge_min(rows, vec![near, inside]);
            let heavy_only = HeavyMinPlus { delta };
            let c = vxm_accumulate(net, part, &mut dist, heavy_only, &settled, a);
            let back = file_bins(&c, delta, base, cur, &mut bins, &mut rest);
            bins[cur].push(back);
        }
    }
    Ok(LocalPaths {
        distances: dist.into_dense(f64::INFINITY).into_vec(),
        predecessors: Vec::new(),
        rounds,
    })
}

/// [`crate::algo::delta_stepping::default_delta`] of the distributed graph whose rows of
/// `A` this rank holds in `a`, equal to one process's to the bit: the mean weight's sum
/// runs in arc order, rank after rank (each rank continues the sum of the ranks before
/// it: `P` small exchanges), and the other pieces are exact counts and extremes.
/// Collective.
pub fn default_delta(net: &Net, part: &RowBlocks, a: &Csr<f64>) -> f64 {
    let positive = |x: &&f64| **x > 0.0 && x.is_finite();
    let mut sum = 0.0f64;
    for r in 0..part.ranks() {
        if r == net.rank() {
            sum = a.values().iter().filter(positive).fold(sum, |s, &x| s + x);
        }
        // Everyone learns rank r's running sum.
        sum = net.allgatherv(&[sum])[r];
    }
    let (lo, hi) = a
        .values()
        .iter()
        .filter(positive)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    let count = a.values().iter().filter(positive).count() as u64;
    let c = net.allreduce_sum(&[count, a.nnz() as u64]);
    let extremes = net.allgatherv(&[lo, hi]);
    let lo = extremes
        .chunks_exact(2)
        .fold(f64::INFINITY, |m, e| m.min(e[0]));
    let hi = extremes.chunks_exact(2).fold(0.0f64, |m, e| m.max(e[1]));
    crate::algo::delta_stepping::delta_of(sum, c[0], lo, hi, c[1], part.vertices().max(1))
}
