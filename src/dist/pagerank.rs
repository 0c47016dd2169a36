//! PageRank over row blocks: the CPU sweep ([`crate::algo::pagerank()`], Graphalytics
//! semantics) with each rank holding its vertices' ranks and its rows of `A'`, and the
//! product `A' (+).(second) w` a distributed [`super::algebra::mxv`].
//!
//! # Float rule
//! Every rank's rows are summed in the CPU's order, so a row's sum is the one process's
//! for the same `w`. Two sums cross the ranks: the rank of the dangling vertices and the
//! L1 change, each a sum of per-rank partial sums (MPI_Allreduce), whose order of
//! additions differs from one process's. The ranks therefore agree with the one-process
//! result to within a few units in the last place of those sums carried through the
//! iterations: `|r_P(v) - r_1(v)| <= 1e-12 * max(r_1(v), 1/n)` in `f64`, and the
//! iteration count is the same unless the last change falls within that rounding of the
//! tolerance.

use super::algebra::mxv;
use super::net::Net;
use super::partition::{Partition, RowBlocks};
use crate::algebra::{Div, Index, Indices, Plus, PlusSecond};
use crate::algo::pagerank::{PageRank, PageRankOptions, Stop};
use crate::descriptor::Descriptor;
use crate::error::Result;
use crate::matrix::Csr;
use crate::ops;
use crate::vector::Vector;

/// PageRank of the distributed graph: `at` is this rank's rows of `A'` (its vertices'
/// in-arcs, all `n` columns), `out_degrees` its vertices' out-degrees. Collective: every
/// rank passes the same `part` and `opts`.
///
/// # Returns
/// On rank 0 the whole [`PageRank`] (ranks gathered, in `f64`); `None` elsewhere.
///
/// # Errors
/// The parameter errors of [`PageRankOptions::check`] (the same on every rank, before any
/// communication).
///
/// # Panics
/// When `at` or `out_degrees` does not fit this rank's block.
pub fn pagerank(
    net: &Net,
    part: &RowBlocks,
    at: &Csr<()>,
    out_degrees: &[u64],
    opts: &PageRankOptions,
) -> Result<Option<PageRank>> {
    opts.check()?;
    let n = part.vertices();
    let me = part.range(net.rank());
    assert_eq!(
        out_degrees.len(),
        me.len(),
        "out_degrees.len() != block rows"
    );
    let (damping, d0) = (opts.damping, Descriptor::DEFAULT);
    let (max, tolerance) = match opts.stop {
        Stop::Iterations(k) => (k, None),
        Stop::Tolerance {
            tolerance,
            max_iterations,
        } => (max_iterations, Some(tolerance)),
    };
    let dd: Vector<f64> = Vector::from_dense(
        out_degrees
            .iter()
            .map(|&k| match k {
                0 => f64::INFINITY,
                k => k as f64 / damping,
            })
            .collect(),
    );
    let dangling: Vec<Index> = (0..me.len() as Index)
        .filter(|&i| out_degrees[i as usize] == 0)
        .collect();
    let rows = me.len();
    let mut r: Vector<f64> = Vector::full(rows, 1.0 / n as f64);
    let (mut w, mut next, mut dangling_r, mut diff) = (
        Vector::new(rows),
        Vector::new(rows),
        Vector::new(dangling.len()),
        Vector::new(rows),
    );
    let (mut iterations, mut change) = (0, 0.0);
    while iterations < max {
        // w = r ./ dd: each vertex's damped share per out-arc (owned vertices)
        ops::ewise_mult(&mut w, None, None, &Div::<f64>::new(), &r, &dd, &d0);
        // dangle = (+) r(dangling), over the ranks
        ops::extract(
            &mut dangling_r,
            None,
            None,
            &r,
            &Indices::List(&dangling),
            &d0,
        );
        let mine: f64 = ops::reduce(Plus::<f64>::new(), &dangling_r);
        let dangle = net.allreduce_sum_f64(&[mine])[0];
        // next = (1 - damping + damping * dangle) / n;  next += A' plus.second w
        let base = (1.0 - damping + damping * dangle) / n as f64;
        ops::assign_scalar(&mut next, None, None, base, &d0);
        mxv(
            net,
            part,
            &mut next,
            None,
            Some(&Plus::<f64>::new()),
            PlusSecond::<f64>::new(),
            at,
            &w,
            &d0,
        );
        iterations += 1;
        if tolerance.is_some() || iterations == max {
            ops::ewise_add(&mut diff, None, None, &AbsDiff, &next, &r, &d0);
            let mine: f64 = ops::reduce(Plus::<f64>::new(), &diff);
            change = net.allreduce_sum_f64(&[mine])[0];
        }
        std::mem::swap(&mut r, &mut next);
        if tolerance.is_some_and(|tol| change < tol) {
            break;
        }
    }
    let ranks = r.into_dense(0.0).into_vec();
    Ok(net.gatherv_root(&ranks).map(|ranks| PageRank {
        ranks,
        iterations,
        change,
    }))
}

/// `|x - y|`, for the L1 change.
struct AbsDiff;

impl crate::algebra::BinaryOp<f64, f64> for AbsDiff {
    type Output = f64;
    fn apply(&self, x: f64, y: f64) -> f64 {
        (x - y).abs()
    }
}
