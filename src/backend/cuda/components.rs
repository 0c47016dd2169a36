//! Weakly connected components over the device algebra, written once over [`Exec`] (the
//! GPU, or the host build of the kernels in the tests): the FastSV rounds of the CPU's
//! `algo::components`, operation for operation, with `extract` and `assign_reduce`
//! taking their index lists from a device vector:
//!
//! ```text
//! f = gp = mngp = [0, 1, ..., n-1]
//! repeat:
//!   mngp  min=  S min.second gp          mxv
//!   f(f)  min=  mngp                     assign_reduce (compare-and-swap MIN)
//!   f     min=  mngp,  f  min=  gp       assign, MIN accumulator
//!   f     =     f(f),  gp' = f(f)        extract, twice
//! until gp' == gp                        ewise_mult MINUS, reduce MAX
//! ```
//!
//! The CPU's sampling pass (Afforest's) is not run here: it builds a sample graph and a
//! remainder on the host. Every round keeps each value inside its component and only
//! lowers it, so the labels end as the CPU's: each vertex's smallest component member.
//! The rounds may differ in number from the CPU's (which counts its sampling rounds).

use super::exec::Exec;
use super::ops::{CsrView, DVec, MaskView, pack, typed};
use crate::algebra::{Index, Max, Min, MinSecond, Minus};
use crate::algo::components::Components;
use crate::descriptor::Descriptor;
use crate::error::Result;
use crate::vector::Vector;

/// FastSV over the symmetric pattern `s` (`n` vertices) on executor `ex`.
pub(crate) fn fastsv<E: Exec>(ex: &E, s: CsrView, n: usize) -> Result<Components> {
    let d0 = Descriptor::DEFAULT;
    let none = MaskView::NONE;
    let min = Min::<Index>::new();
    let elem = std::mem::size_of::<Index>();
    let iota: Vector<Index> = Vector::from_dense((0..n as Index).collect());
    let mut f = pack::upload(ex, &iota)?;
    let mut gp = f.duplicate(ex)?;
    let mut mngp = f.duplicate(ex)?;
    let mut diff = DVec::new(ex, n, elem)?;
    let mut rounds = 0;
    loop {
        rounds += 1;
        // mngp min= S min.second gp
        typed::mxv::<E, _, (), Index>(
            ex,
            &mut mngp,
            none,
            Some(&min),
            MinSecond::<Index>::new(),
            s,
            &gp,
            &d0,
        )?;
        // f(f) min= mngp, the indices f before the step
        let parents = f.duplicate(ex)?;
        typed::assign_reduce(ex, &mut f, min, &mngp, &parents)?;
        drop(parents);
        // f min= mngp; f min= gp
        typed::assign(ex, &mut f, none, Some(&min), &mngp, &d0)?;
        typed::assign(ex, &mut f, none, Some(&min), &gp, &d0)?;
        // f = f(f), then gp' = f(f)
        let jump = |f: &DVec<E>| -> Result<DVec<E>> {
            let mut to = DVec::new(ex, n, elem)?;
            typed::extract::<E, Index>(ex, &mut to, none, None, f, f, &d0)?;
            Ok(to)
        };
        f = jump(&f)?;
        let next = jump(&f)?;
        // changed: some gp'(i) != gp(i), i.e. a nonzero (wrapping) difference
        typed::ewise(
            ex,
            false,
            &mut diff,
            none,
            None,
            &Minus::<Index>::new(),
            &gp,
            &next,
            &d0,
        )?;
        let changed = typed::reduce(ex, Max::<Index>::new(), &diff)? != 0;
        gp = next;
        if !changed {
            break;
        }
    }
    let labels = pack::download::<E, Index>(ex, &gp)?
        .into_dense(0)
        .into_vec();
    Ok(Components { labels, rounds })
}
