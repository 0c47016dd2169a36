//! Bellman-Ford with its state on an executor: the CPU's rounds (the frontier is the set
//! of vertices the last round improved; each round takes, per vertex, the lexicographic
//! minimum of (distance, predecessor) over the frontier's arcs), in three kernel passes
//! and one small read back per round, so distances and rounds equal the CPU's. The
//! predecessors are then the CPU's rule, one pass over the reached vertices' arcs: the
//! smallest `u` with `d(u) + w(u, v) = d(v)` (the rounds' own predecessors name a vertex
//! on a negative cycle instead, as on the CPU).

use super::abi::*;
use super::exec::{Exec, Launch};
use crate::error::Result;
use crate::paths::{NegativeCycle, ShortestPaths, find_cycle};

/// Bellman-Ford from `source` over the structure `(a_off, a_idx)` of `n` vertices with
/// arc weights at `weights` (one f64 per arc, in the arcs' order, in memory of `ex`).
/// `source < n` is the caller's contract, and `weights` must stay valid during the call.
///
/// # Errors
/// The outer error is the executor's; the inner one a negative cycle reachable from the
/// source.
pub(crate) fn bellman_ford<E: Exec>(
    ex: &E,
    n: u32,
    a_off: &E::Buf<u64>,
    a_idx: &E::Buf<u32>,
    weights: *const f64,
    source: u32,
) -> Result<Result<ShortestPaths, NegativeCycle>> {
    let len = n as usize;
    let mut dist = ex.alloc::<u64>(len)?;
    ex.fill_u64(&mut dist, f64::INFINITY.to_bits())?;
    ex.write(&mut dist, source as usize, &[0.0f64.to_bits()])?;
    let mut pred = ex.alloc::<u32>(len)?;
    ex.fill_u32(&mut pred, EB_UNREACHED)?;
    let mut key = ex.alloc::<u64>(len)?;
    ex.fill_u64(&mut key, EB_EMPTY_KEY)?;
    let mut arg = ex.alloc::<u32>(len)?;
    ex.fill_u32(&mut arg, EB_UNREACHED)?;
    let mut frontier = ex.alloc::<u32>(len)?;
    ex.write(&mut frontier, 0, &[source])?;
    let mut touched = ex.alloc::<u32>(len)?;
    let mut counters = ex.alloc::<EbRelaxCounters>(1)?;
    let a = EbCsr {
        offsets: ex.addr(a_off),
        indices: ex.addr(a_idx),
        nrows: n,
        ncols: n,
    };
    // The parameters of a pass over `frontier` writing `touched` (lengths 0); the
    // buffers' addresses do not change while they live.
    let (dist_p, pred_p, key_p, arg_p) = (
        ex.addr(&dist) as *mut f64,
        ex.addr(&pred),
        ex.addr(&key),
        ex.addr(&arg),
    );
    let counters_p = ex.addr(&counters);
    let params = |frontier: *mut u32, touched: *mut u32| EbRelaxParams {
        a,
        weights,
        frontier,
        dist: dist_p,
        pred: pred_p,
        key: key_p,
        arg: arg_p,
        touched,
        next: touched,
        counters: counters_p,
        frontier_len: 0,
        touched_len: 0,
    };
    let mut frontier_len = 1u32;
    let mut rounds = 0usize;
    while frontier_len > 0 && rounds < len {
        rounds += 1;
        ex.zero(&mut counters)?;
        let mut p = EbRelaxParams {
            frontier_len,
            ..params(ex.addr(&frontier), ex.addr(&touched))
        };
        ex.run(Launch::RelaxMin(p))?;
        ex.run(Launch::RelaxArg(p))?;
        let c = ex.download(&counters, 1)?[0];
        p.touched_len = c.touched as u32;
        if p.touched_len > 0 {
            ex.run(Launch::RelaxCommit(p))?;
        }
        std::mem::swap(&mut frontier, &mut touched);
        frontier_len = p.touched_len;
    }
    let distances: Vec<f64> = ex
        .download(&dist, len)?
        .into_iter()
        .map(f64::from_bits)
        .collect();
    if frontier_len > 0 {
        let predecessors = ex.download(&pred, len)?;
        let mut changed = ex.download(&frontier, frontier_len as usize)?;
        changed.sort_unstable();
        return Ok(Err(find_cycle(&predecessors, changed)));
    }
    drop((frontier, touched, key, arg, pred, counters));
    let predecessors = tight_predecessors(ex, &[(a, weights)], dist_p, &distances, source)?;
    Ok(Ok(ShortestPaths {
        distances,
        predecessors,
        rounds,
    }))
}

/// The predecessors of exact distances (`dist` in memory of `ex`, `distances` its host
/// copy, `+inf` where unreached) over the arcs of the matrices `arcs` (structure and
/// weights, one f64 per arc in memory of `ex`), by the CPU's rule: for each reached `v`
/// but `source`, the smallest `u` with `dist(u) + w(u, v) == dist(v)` (one pass over
/// the reached vertices' arcs of each matrix, the tight ones meeting at MIN);
/// `u32::MAX` elsewhere.
pub(crate) fn tight_predecessors<E: Exec>(
    ex: &E,
    arcs: &[(EbCsr, *const f64)],
    dist: *mut f64,
    distances: &[f64],
    source: u32,
) -> Result<Vec<u32>> {
    let len = distances.len();
    let reached: Vec<u32> = (0..len as u32)
        .filter(|&v| distances[v as usize].is_finite())
        .collect();
    let mut pred = ex.alloc::<u32>(len)?;
    ex.fill_u32(&mut pred, EB_UNREACHED)?;
    if !reached.is_empty() {
        let list = ex.upload(&reached)?;
        for &(a, weights) in arcs {
            let p = EbRelaxParams {
                a,
                weights,
                frontier: ex.addr(&list),
                dist,
                pred: ex.addr(&pred),
                key: std::ptr::null_mut(),
                arg: std::ptr::null_mut(),
                touched: std::ptr::null_mut(),
                next: std::ptr::null_mut(),
                counters: std::ptr::null_mut(),
                frontier_len: reached.len() as u32,
                touched_len: 0,
            };
            ex.run(Launch::RelaxTight(p))?;
        }
    }
    let mut predecessors = ex.download(&pred, len)?;
    if let Some(p) = predecessors.get_mut(source as usize) {
        *p = EB_UNREACHED;
    }
    Ok(predecessors)
}
