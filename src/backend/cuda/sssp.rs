//! Delta-stepping over the device algebra, written once over [`Exec`] (the GPU, or the
//! host build of the kernels in the tests): LAGraph's formulation, each bucket selected
//! from the dense distances (a GPU pass over `n` costs little next to a launch), the
//! light arcs `AL` relaxed until the bucket stops changing, then the heavy arcs `AH`
//! once from the bucket's members:
//!
//! ```text
//! t = +inf, t(s) = 0;  settled = {}
//! repeat:
//!   m = min t<!settled, finite>; stop if none          select, reduce
//!   hi = the end of m's bucket (multiples of delta)
//!   f = t<!settled> where t < hi;  members = {}         select
//!   while f has an entry:
//!     members += f                                       assign
//!     req = f min.plus AL                                vxm (push)
//!     imp = where req - t < 0                            ewise_mult MINUS, select
//!     t<imp> min= req;  f = t<imp> where t < hi          assign, select
//!   req = t<members> min.plus AH;  t<imp> min= req       (imp as above)
//!   settled += members
//! ```
//!
//! Weights are `>= 0`, so `fl(d + w) >= d`: a settled vertex is never improved, and the
//! distances end as the least fixed point of `d(v) = min d(u) + w(u, v)` (each the
//! smallest left-to-right sum along a path), which is what every method of the CPU
//! computes: the CPU's distances byte for byte. Buckets are the CPU's (multiples of
//! delta, by `algo::delta_stepping::bucket_end`); the relaxation count may still differ
//! from the CPU's, which keeps its candidates sparse.

use super::abi::EB_TYPE_F64;
use super::exec::Exec;
use super::ops::{self as dops, CsrView, DVec, MaskView, pack, typed};
use crate::algebra::{Min, MinPlus, Minus};
use crate::algo::delta_stepping::bucket_end;
use crate::cuda::SelectOp;
use crate::descriptor::Descriptor;
use crate::error::Result;
use crate::vector::Vector;

/// The f64 slots of a vector.
const F64: usize = std::mem::size_of::<f64>();

/// Delta-stepping from `source` over the light arcs `light` (`w <= delta`) and the heavy
/// ones `heavy` (none when there are none) of an `n`-vertex graph whose weights are all
/// `>= 0` (the caller checks): the distances, dense on `ex` (`+inf` where unreached),
/// and the relaxations run (products).
pub(crate) fn delta_stepping<E: Exec>(
    ex: &E,
    light: CsrView,
    heavy: Option<CsrView>,
    n: usize,
    source: u32,
    delta: f64,
) -> Result<(DVec<E>, usize)> {
    let d0 = Descriptor::DEFAULT;
    let none = MaskView::NONE;
    let min = Min::<f64>::new();
    let mut init = vec![f64::INFINITY; n];
    init[source as usize] = 0.0;
    let mut t = pack::upload(ex, &Vector::from_dense(init))?;
    let mut settled = DVec::new(ex, n, F64)?;
    let mut rounds = 0;
    loop {
        // The smallest distance not settled, if any vertex is reached and unsettled.
        let open = MaskView::of(ex, &settled, EB_TYPE_F64, true, true);
        let mut rest = DVec::new(ex, n, F64)?;
        typed::select(
            ex,
            &mut rest,
            open,
            None,
            SelectOp::ValueLt(f64::INFINITY),
            &t,
            &d0,
        )?;
        let Some(m) = dops::reduce(ex, "min_f64", &rest)? else {
            break;
        };
        drop(rest);
        let m = f64::from_bits(m);
        // The bucket holding m, as the CPU's: its end always above m.
        let hi = bucket_end(m, delta, 1.0);
        let mut f = DVec::new(ex, n, F64)?;
        typed::select(ex, &mut f, open, None, SelectOp::ValueLt(hi), &t, &d0)?;
        let mut members = DVec::new(ex, n, F64)?;
        while dops::reduce(ex, "any_f64", &f)?.is_some() {
            rounds += 1;
            typed::assign(ex, &mut members, none, Some(&min), &f, &d0)?;
            let req = relax(ex, light, &f)?;
            let imp = improve(ex, &mut t, &req)?;
            let mut next = DVec::new(ex, n, F64)?;
            let at = MaskView::of(ex, &imp, EB_TYPE_F64, true, false);
            typed::select(ex, &mut next, at, None, SelectOp::ValueLt(hi), &t, &d0)?;
            f = next;
        }
        if let Some(h) = heavy {
            rounds += 1;
            let mut from = DVec::new(ex, n, F64)?;
            let at = MaskView::of(ex, &members, EB_TYPE_F64, true, false);
            typed::assign::<E, f64>(ex, &mut from, at, None, &t, &d0)?;
            let req = relax(ex, h, &from)?;
            improve(ex, &mut t, &req)?;
        }
        typed::assign(ex, &mut settled, none, Some(&min), &members, &d0)?;
    }
    Ok((t, rounds))
}

/// `req = f min.plus A`, a push over `a`'s rows.
fn relax<E: Exec>(ex: &E, a: CsrView, f: &DVec<E>) -> Result<DVec<E>> {
    let mut req = DVec::new(ex, a.a.ncols as usize, F64)?;
    typed::vxm::<E, _, f64, f64>(
        ex,
        &mut req,
        MaskView::NONE,
        None,
        MinPlus::<f64>::new(),
        f,
        a,
        &Descriptor::DEFAULT,
    )?;
    Ok(req)
}

/// `t<imp> min= req` where `imp` is where `req < t` (`req - t < 0`; `t` is dense);
/// returns `imp`.
fn improve<E: Exec>(ex: &E, t: &mut DVec<E>, req: &DVec<E>) -> Result<DVec<E>> {
    let d0 = Descriptor::DEFAULT;
    let none = MaskView::NONE;
    let mut diff = DVec::new(ex, t.len, F64)?;
    typed::ewise(
        ex,
        false,
        &mut diff,
        none,
        None,
        &Minus::<f64>::new(),
        req,
        t,
        &d0,
    )?;
    let mut imp = DVec::new(ex, t.len, F64)?;
    typed::select(ex, &mut imp, none, None, SelectOp::ValueLt(0.0), &diff, &d0)?;
    let at = MaskView::of(ex, &imp, EB_TYPE_F64, true, false);
    typed::assign(ex, t, at, Some(&Min::<f64>::new()), req, &d0)?;
    Ok(imp)
}
