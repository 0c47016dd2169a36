//! PageRank with the LDBC Graphalytics semantics, over the generic operations:
//!
//! ```text
//! d       = out-degrees (present where non-zero; the dangling vertices are the others)
//! r       = 1/n everywhere
//! repeat:
//!   w       = r ./ (d / damping)           ewise_mult, DIV: each vertex's damped share per arc
//!                                           (d = +inf at a dangling vertex: w = 0 there)
//!   dangle  = (+) r(dangling)               extract: the rank of the vertices without out-arcs
//!   r'      = (1 - damping + damping * dangle) / n
//!   r'     += A' (+).(second) w             mxv over the in-edges, accumulated: the rank flowing in
//!   change  = (+) |r' - r|                  ewise_add: the L1 change, for the tolerance stop
//! ```
//!
//! For an undirected graph `A' = A` and no transpose is made.

use rayon::prelude::*;

use crate::algebra::{Arith, BinaryOp, Div, Index, Indices, Number, Plus, PlusSecond};
use crate::descriptor::Descriptor;
use crate::graph::Graph;
use crate::ops;
use crate::vector::Vector;
use crate::{Error, Result};

/// When PageRank stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    /// Exactly this many iterations (Graphalytics runs a fixed count).
    Iterations(usize),
    /// When the L1 change of one iteration falls below `tolerance`, or after
    /// `max_iterations`.
    Tolerance {
        /// The L1 change to stop at.
        tolerance: f64,
        /// The most iterations to run.
        max_iterations: usize,
    },
}

/// PageRank's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageRankOptions {
    /// The damping factor `d` in `[0, 1]` (0.85 by default).
    pub damping: f64,
    /// When to stop (tolerance 1e-4, at most 1000 iterations, by default).
    pub stop: Stop,
}

impl Default for PageRankOptions {
    fn default() -> Self {
        PageRankOptions {
            damping: 0.85,
            stop: Stop::Tolerance {
                tolerance: 1e-4,
                max_iterations: 1000,
            },
        }
    }
}

/// The ranks and how they were reached.
#[derive(Clone, Debug, PartialEq)]
pub struct PageRank {
    /// One rank per vertex; they sum to 1 up to rounding.
    pub ranks: Vec<f64>,
    /// Iterations run.
    pub iterations: usize,
    /// The L1 change of the last iteration (0 when none ran).
    pub change: f64,
}

impl PageRankOptions {
    /// Checks the parameters.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a damping outside `[0, 1]`, zero iterations, or a
    /// tolerance that is not a positive number.
    pub fn check(&self) -> Result<()> {
        if !(0.0..=1.0).contains(&self.damping) {
            return Err(Error::InvalidArgument(format!(
                "damping {}: must be in [0, 1]",
                self.damping
            )));
        }
        match self.stop {
            Stop::Iterations(0) => Err(Error::InvalidArgument(
                "iterations: must be at least 1".into(),
            )),
            Stop::Tolerance { tolerance, .. } if !(tolerance.is_finite() && tolerance > 0.0) => {
                Err(Error::InvalidArgument(format!(
                    "tolerance {tolerance}: must be a positive number"
                )))
            }
            Stop::Tolerance {
                max_iterations: 0, ..
            } => Err(Error::InvalidArgument(
                "iterations: must be at least 1".into(),
            )),
            _ => Ok(()),
        }
    }
}

/// The float type PageRank sweeps in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// `f32` ranks and shares (as gapbs's `pr`): half the bytes per vertex read by the
    /// pull, about 7 significant digits. Ranks are widened to `f64` on return.
    F32,
    /// `f64` throughout (the default; what the Graphalytics reference outputs need).
    #[default]
    F64,
}

impl std::str::FromStr for Precision {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "f32" => Ok(Precision::F32),
            "f64" => Ok(Precision::F64),
            _ => Err(Error::InvalidArgument(format!(
                "precision {s:?}: expected f32 or f64"
            ))),
        }
    }
}

/// PageRank of the graph `g` (`A(i, j)` = arc `i -> j`; its in-edges are `g`'s cached
/// transpose, or `A` itself when `g` is symmetric) with the Graphalytics semantics: the rank of the dangling
/// vertices is spread over all vertices. An empty graph has no ranks. In `f64`; see
/// [`pagerank_with`] for `f32`.
///
/// # Errors
/// The parameter errors of [`PageRankOptions::check`].
///
/// # Panics
/// If `a` is not square.
pub fn pagerank(g: &Graph<'_, ()>, opts: &PageRankOptions) -> Result<PageRank> {
    pagerank_with(g, opts, Precision::F64)
}

/// [`pagerank`] in the given float [`Precision`]: the same operations (`ewise_mult`,
/// `extract`, `reduce`, `assign`, the accumulated `mxv` over the in-edges) over `f32`
/// or `f64` vectors. The ranks (and the change) are returned as `f64` either way.
///
/// # Errors
/// The parameter errors of [`PageRankOptions::check`].
///
/// # Panics
/// If `a` is not square.
pub fn pagerank_with(
    g: &Graph<'_, ()>,
    opts: &PageRankOptions,
    precision: Precision,
) -> Result<PageRank> {
    opts.check()?;
    let a = g.adjacency();
    assert_eq!(a.nrows(), a.ncols(), "pagerank needs a square matrix");
    if a.nrows() == 0 {
        return Ok(PageRank {
            ranks: Vec::new(),
            iterations: 0,
            change: 0.0,
        });
    }
    match precision {
        Precision::F64 => sweep::<f64>(g, opts),
        Precision::F32 => sweep::<f32>(g, opts),
    }
}

/// A float PageRank can sweep in.
pub(crate) trait RankFloat:
    Number
    + Arith
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + Into<f64>
{
    /// The nearest value to `x`.
    fn of(x: f64) -> Self;
    /// `|self|`.
    fn abs(self) -> Self;
}

impl RankFloat for f64 {
    fn of(x: f64) -> f64 {
        x
    }
    fn abs(self) -> f64 {
        f64::abs(self)
    }
}

impl RankFloat for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn abs(self) -> f32 {
        f32::abs(self)
    }
}

/// The iterations of [`pagerank_with`] in `F`, on a non-empty square graph.
fn sweep<F: RankFloat>(g: &Graph<'_, ()>, opts: &PageRankOptions) -> Result<PageRank> {
    let a = g.adjacency();
    let n = a.nrows();
    let at = if g.is_symmetric() { a } else { g.in_edges() };
    let (damping, d0) = (opts.damping, Descriptor::DEFAULT);
    let (max, tolerance) = match opts.stop {
        Stop::Iterations(k) => (k, None),
        Stop::Tolerance {
            tolerance,
            max_iterations,
        } => (max_iterations, Some(tolerance)),
    };
    // dd(i) = outdeg(i) / damping, +inf for a dangling vertex (so w is 0 there and every
    // vector stays dense: the pull then reads w by plain indexing).
    // Both are a pass over the offsets, in parallel.
    let dd: Vector<F> = Vector::from_dense(
        (0..n)
            .into_par_iter()
            .map(|i| match a.degree(i) {
                0 => F::of(f64::INFINITY),
                k => F::of(k as f64 / damping),
            })
            .collect(),
    );
    let dangling: Vec<Index> = (0..n as Index)
        .into_par_iter()
        .filter(|&i| a.degree(i as usize) == 0)
        .collect();
    let mut r: Vector<F> = Vector::full(n, F::of(1.0 / n as f64));
    let (mut w, mut next, mut dangling_r, mut diff) = (
        Vector::new(n),
        Vector::new(n),
        Vector::new(dangling.len()),
        Vector::new(n),
    );
    let (mut iterations, mut change) = (0, 0.0);
    while iterations < max {
        // w = r ./ dd: each vertex's damped share per out-arc
        ops::ewise_mult(&mut w, None, None, &Div::<F>::new(), &r, &dd, &d0);
        // dangle = (+) r(dangling)
        ops::extract(
            &mut dangling_r,
            None,
            None,
            &r,
            &Indices::List(&dangling),
            &d0,
        );
        let dangle: f64 = ops::reduce(Plus::<F>::new(), &dangling_r).into();
        // next = (1 - damping + damping * dangle) / n;  next += A' plus.second w
        let base = F::of((1.0 - damping + damping * dangle) / n as f64);
        ops::assign_scalar(&mut next, None, None, base, &d0);
        ops::mxv(
            &mut next,
            None,
            Some(&Plus::<F>::new()),
            PlusSecond::<F>::new(),
            at,
            &w,
            &d0,
        );
        iterations += 1;
        // change = (+) |next - r|, needed to stop on a tolerance or after the last round
        if tolerance.is_some() || iterations == max {
            ops::ewise_add(&mut diff, None, None, &AbsDiff, &next, &r, &d0);
            change = ops::reduce(Plus::<F>::new(), &diff).into();
        }
        std::mem::swap(&mut r, &mut next);
        if tolerance.is_some_and(|tol| change < tol) {
            break;
        }
    }
    let ranks = r.into_dense(F::zero()).into_vec();
    Ok(PageRank {
        ranks: ranks.into_iter().map(Into::into).collect(),
        iterations,
        change,
    })
}

/// `|x - y|`, for the L1 change.
struct AbsDiff;

impl<F: RankFloat> BinaryOp<F, F> for AbsDiff {
    type Output = F;
    fn apply(&self, x: F, y: F) -> F {
        (x - y).abs()
    }
}
