//! PageRank over the device algebra, written once over [`Exec`] (the GPU, or the host
//! build of the kernels in the tests): the CPU's `algo::pagerank` iteration, operation
//! for operation, with the device's built-in operators standing in for its closures:
//!
//! ```text
//! w      = r ./ dd                          ewise_mult, DIV (dd = outdeg / damping, +inf if 0)
//! dangle = (+) (r .first marks)             ewise_mult, FIRST with the dangling marks; reduce
//! r'     = base everywhere                  apply, FIRST with `base` bound: (1 - d + d dangle) / n
//! r'    += A' (+).(second) w                mxv over the in-edges, PLUS accumulator
//! change = (+) |r' - r|                     ewise_add MINUS, apply ABS, reduce
//! ```

use super::abi::*;
use super::exec::Exec;
use super::ops::{CsrView, DVec, MaskView, pack, typed};
use crate::algebra::{Div, First, Minus, Plus, PlusSecond};
use crate::algo::pagerank::{PageRank, PageRankOptions, RankFloat, Stop};
use crate::descriptor::Descriptor;
use crate::error::Result;
use crate::vector::Vector;

/// The iterations on a non-empty square graph whose in-edges are `at` (`n` vertices)
/// and whose out-degrees are `outdeg`.
pub(crate) fn sweep<E: Exec, F: RankFloat>(
    ex: &E,
    at: CsrView,
    outdeg: &[u64],
    opts: &PageRankOptions,
) -> Result<PageRank> {
    let n = outdeg.len();
    let (damping, d0) = (opts.damping, Descriptor::DEFAULT);
    let (max, tolerance) = match opts.stop {
        Stop::Iterations(k) => (k, None),
        Stop::Tolerance {
            tolerance,
            max_iterations,
        } => (max_iterations, Some(tolerance)),
    };
    let dd: Vector<F> = Vector::from_dense(
        outdeg
            .iter()
            .map(|&k| match k {
                0 => F::of(f64::INFINITY),
                k => F::of(k as f64 / damping),
            })
            .collect(),
    );
    let marks: Vector<F> = Vector::from_pairs(
        n,
        outdeg
            .iter()
            .enumerate()
            .filter(|p| *p.1 == 0)
            .map(|(i, _)| (i as u32, F::one())),
    );
    let dd = pack::upload(ex, &dd)?;
    let marks = pack::upload(ex, &marks)?;
    let elem = std::mem::size_of::<F>();
    let mut r = pack::upload(ex, &Vector::full(n, F::of(1.0 / n as f64)))?;
    let mut w = DVec::new(ex, n, elem)?;
    let mut next = DVec::new(ex, n, elem)?;
    let mut dangling_r = DVec::new(ex, n, elem)?;
    let mut diff = DVec::new(ex, n, elem)?;
    let none = MaskView::NONE;
    let (mut iterations, mut change) = (0, 0.0);
    while iterations < max {
        typed::ewise(
            ex,
            false,
            &mut w,
            none,
            None,
            &Div::<F>::new(),
            &r,
            &dd,
            &d0,
        )?;
        typed::ewise(
            ex,
            false,
            &mut dangling_r,
            none,
            None,
            &First::<F>::new(),
            &r,
            &marks,
            &d0,
        )?;
        let dangle: f64 = typed::reduce(ex, Plus::<F>::new(), &dangling_r)?.into();
        let base = F::of((1.0 - damping + damping * dangle) / n as f64);
        let first = First::<F>::new();
        typed::apply(
            ex,
            &mut next,
            none,
            None,
            EB_UNARY_BIND_FIRST,
            Some((&first, base)),
            &r,
            &d0,
        )?;
        let plus = Plus::<F>::new();
        typed::mxv::<E, _, (), F>(
            ex,
            &mut next,
            none,
            Some(&plus),
            PlusSecond::<F>::new(),
            at,
            &w,
            &d0,
        )?;
        iterations += 1;
        if tolerance.is_some() || iterations == max {
            typed::ewise(
                ex,
                true,
                &mut diff,
                none,
                None,
                &Minus::<F>::new(),
                &next,
                &r,
                &d0,
            )?;
            let d = diff.duplicate(ex)?;
            typed::apply::<E, F>(ex, &mut diff, none, None, EB_UNARY_ABS, None, &d, &d0)?;
            change = typed::reduce(ex, Plus::<F>::new(), &diff)?.into();
        }
        std::mem::swap(&mut r, &mut next);
        if tolerance.is_some_and(|tol| change < tol) {
            break;
        }
    }
    let ranks = pack::download::<E, F>(ex, &r)?
        .into_dense(F::zero())
        .into_vec();
    Ok(PageRank {
        ranks: ranks.into_iter().map(Into::into).collect(),
        iterations,
        change,
    })
}
