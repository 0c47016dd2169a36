//! The device algebra's operations over an executor: every one computes `t` with one
//! kernel family of csrc/ops.cuh, then writes `w<m> = w (.) t` with the write-back
//! family, as the CPU's `ops` do. Written once over [`Exec`], so the host build of the
//! kernels runs the very same sequence of launches in the tests.
//!
//! A vector is presence bits (32 per word) and one value slot per index (a bitmap: any
//! fill). Kernels are chosen by name, `eb_{family}_{semiring or monoid}_{type}`; a name
//! that build.rs did not instantiate is an [`Error::Unsupported`] listing those it did.

use std::any::TypeId;
use std::ffi::c_void;

use super::abi::*;
use super::exec::{Exec, Launch};
use super::host::HOST_OPS;
use crate::algebra::{self, Accum, BinaryOp, Monoid, Scalar, Semiring, op_code};
use crate::descriptor::Descriptor;
use crate::error::{Error, Result};

// The operator numbers of the algebra are the kernels'.
const _: () = {
    assert!(op_code::FIRST == EB_OP_FIRST && op_code::SECOND == EB_OP_SECOND);
    assert!(op_code::PLUS == EB_OP_PLUS && op_code::TIMES == EB_OP_TIMES);
    assert!(op_code::MIN == EB_OP_MIN && op_code::MAX == EB_OP_MAX);
    assert!(op_code::MINUS == EB_OP_MINUS && op_code::RMINUS == EB_OP_RMINUS);
    assert!(op_code::DIV == EB_OP_DIV && op_code::RDIV == EB_OP_RDIV);
    assert!(op_code::ANY == EB_OP_ANY && op_code::LOR == EB_OP_LOR);
    assert!(op_code::LAND == EB_OP_LAND && op_code::LXOR == EB_OP_LXOR);
    assert!(op_code::PAIR == EB_OP_PAIR && op_code::NONE == EB_OP_NONE);
};

/// A vector on an executor: `len` presence bits and, unless the type is `()`, one value
/// slot of `elem` bytes per index (in 8-byte words, so every type is aligned).
pub(crate) struct DVec<E: Exec> {
    pub(crate) len: usize,
    pub(crate) elem: usize,
    pub(crate) bits: E::Buf<u32>,
    pub(crate) vals: Option<E::Buf<u64>>,
}

impl<E: Exec> DVec<E> {
    /// An empty vector of `len` slots of `elem` bytes.
    pub(crate) fn new(ex: &E, len: usize, elem: usize) -> Result<Self> {
        Ok(DVec {
            len,
            elem,
            bits: ex.alloc::<u32>(len.div_ceil(32))?,
            vals: if elem == 0 {
                None
            } else {
                Some(ex.alloc::<u64>((len * elem).div_ceil(8))?)
            },
        })
    }

    /// From presence words (32 bits each) and the values' bytes, 8-byte words.
    pub(crate) fn from_parts(
        ex: &E,
        len: usize,
        elem: usize,
        bits: &[u32],
        vals: &[u64],
    ) -> Result<Self> {
        Ok(DVec {
            len,
            elem,
            bits: ex.upload(bits)?,
            vals: if elem == 0 {
                None
            } else {
                Some(ex.upload(vals)?)
            },
        })
    }

    /// The presence words and value words.
    pub(crate) fn parts(&self, ex: &E) -> Result<(Vec<u32>, Vec<u64>)> {
        let bits = ex.download(&self.bits, self.len.div_ceil(32))?;
        let vals = match &self.vals {
            Some(v) => ex.download(v, (self.len * self.elem).div_ceil(8))?,
            None => Vec::new(),
        };
        Ok((bits, vals))
    }

    pub(crate) fn bits_ptr(&self, ex: &E) -> *mut u32 {
        ex.addr(&self.bits)
    }

    pub(crate) fn vals_ptr(&self, ex: &E) -> *mut c_void {
        match &self.vals {
            Some(v) => ex.addr(v).cast(),
            None => std::ptr::null_mut(),
        }
    }

    /// The number of present entries: the presence words read back and counted (the
    /// values stay where they are).
    pub(crate) fn nvals(&self, ex: &E) -> Result<usize> {
        let bits = ex.download(&self.bits, self.len.div_ceil(32))?;
        Ok(bits.iter().map(|w| w.count_ones() as usize).sum())
    }

    /// A copy (same executor).
    pub(crate) fn duplicate(&self, ex: &E) -> Result<Self> {
        let (b, v) = self.parts(ex)?;
        DVec::from_parts(ex, self.len, self.elem, &b, &v)
    }
}

/// A CSR matrix as the kernels read it: structure and values (null: a pattern).
#[derive(Clone, Copy)]
pub(crate) struct CsrView {
    pub(crate) a: EbCsr,
    pub(crate) values: *const c_void,
}

/// A mask as the kernels read it (`flags == 0`: none).
#[derive(Clone, Copy)]
pub(crate) struct MaskView {
    pub(crate) bits: *const u32,
    pub(crate) values: *const c_void,
    pub(crate) ty: u32,
    pub(crate) flags: u32,
}

impl MaskView {
    /// No mask.
    pub(crate) const NONE: MaskView = MaskView {
        bits: std::ptr::null(),
        values: std::ptr::null(),
        ty: 0,
        flags: 0,
    };

    /// The mask of vector `m` (of type code `ty`): its structure or its true values,
    /// complemented or not.
    pub(crate) fn of<E: Exec>(
        ex: &E,
        m: &DVec<E>,
        ty: u32,
        structure: bool,
        complement: bool,
    ) -> MaskView {
        let mut flags = EB_MASK_ON;
        if structure {
            flags |= EB_MASK_STRUCTURE;
        }
        if complement {
            flags |= EB_MASK_COMPLEMENT;
        }
        MaskView {
            bits: m.bits_ptr(ex),
            values: m.vals_ptr(ex),
            ty,
            flags,
        }
    }
}

/// The kernels' name for a value type, and its code for a valued mask.
pub(crate) fn type_code<T: 'static>() -> Option<(&'static str, u32)> {
    let id = TypeId::of::<T>();
    let table: [(TypeId, &str, u32); 8] = [
        (TypeId::of::<()>(), "unit", EB_TYPE_UNIT),
        (TypeId::of::<bool>(), "bool", EB_TYPE_BOOL),
        (TypeId::of::<u32>(), "u32", EB_TYPE_U32),
        (TypeId::of::<u64>(), "u64", EB_TYPE_U64),
        (TypeId::of::<i32>(), "i32", EB_TYPE_I32),
        (TypeId::of::<i64>(), "i64", EB_TYPE_I64),
        (TypeId::of::<f32>(), "f32", EB_TYPE_F32),
        (TypeId::of::<f64>(), "f64", EB_TYPE_F64),
    ];
    table
        .iter()
        .find(|(t, _, _)| *t == id)
        .map(|&(_, n, c)| (n, c))
}

/// The kernel name of a value type, or the error saying which the device has.
pub(crate) fn type_name<T: 'static>() -> Result<&'static str> {
    type_code::<T>().map(|c| c.0).ok_or_else(|| {
        Error::Unsupported(format!(
            "CUDA: no device kernels for values of type {}; the device has (), bool, u32, \
             u64, i32, i64, f32 and f64",
            std::any::type_name::<T>()
        ))
    })
}

macro_rules! arith_semirings {
    ($id:expr; $($t:ty => $ty:literal),*) => {$(
        if $id == TypeId::of::<algebra::MinPlus<$t>>() { return Some(concat!("min_plus_", $ty)); }
        if $id == TypeId::of::<algebra::MaxPlus<$t>>() { return Some(concat!("max_plus_", $ty)); }
        if $id == TypeId::of::<algebra::PlusTimes<$t>>() { return Some(concat!("plus_times_", $ty)); }
        if $id == TypeId::of::<algebra::MaxTimes<$t>>() { return Some(concat!("max_times_", $ty)); }
        if $id == TypeId::of::<algebra::MinMax<$t>>() { return Some(concat!("min_max_", $ty)); }
        if $id == TypeId::of::<algebra::PlusPair<$t>>() { return Some(concat!("plus_pair_", $ty)); }
        if $id == TypeId::of::<algebra::PlusFirst<$t>>() { return Some(concat!("plus_first_", $ty)); }
        if $id == TypeId::of::<algebra::MinFirst<$t>>() { return Some(concat!("min_first_", $ty)); }
        if $id == TypeId::of::<algebra::MaxFirst<$t>>() { return Some(concat!("max_first_", $ty)); }
        if $id == TypeId::of::<algebra::PlusSecond<$t>>() { return Some(concat!("plus_second_", $ty)); }
        if $id == TypeId::of::<algebra::MinSecond<$t>>() { return Some(concat!("min_second_", $ty)); }
        if $id == TypeId::of::<algebra::MaxSecond<$t>>() { return Some(concat!("max_second_", $ty)); }
    )*};
}

fn builtin_semiring(id: TypeId) -> Option<&'static str> {
    arith_semirings!(id; u32 => "u32", u64 => "u64", i32 => "i32", i64 => "i64", f32 => "f32", f64 => "f64");
    if id == TypeId::of::<algebra::OrAnd>() {
        return Some("lor_land_bool");
    }
    if id == TypeId::of::<algebra::AnyPair>() {
        return Some("any_pair_bool");
    }
    if id == TypeId::of::<algebra::MinSecondI>() {
        return Some("min_secondi_u32");
    }
    if id == TypeId::of::<algebra::AnySecondI>() {
        return Some("any_secondi_u32");
    }
    None
}

/// What the device offers, for the errors.
const AVAILABLE_SEMIRINGS: &str = "MinPlus, MaxPlus, PlusTimes, MaxTimes, MinMax, PlusPair, \
    PlusFirst, MinFirst, MaxFirst, PlusSecond, MinSecond and MaxSecond over u32, u64, i32, \
    i64, f32 and f64; OrAnd (bool or pattern operands), AnyPair, MinSecondI and AnySecondI";

/// The kernel suffix of semiring `S` over matrix entries `A` and vector entries `U`
/// (`min_plus_f64`), or the error naming what the device has.
pub(crate) fn semiring_name<S: 'static, A: 'static, U: 'static>() -> Result<&'static str> {
    let name = builtin_semiring(TypeId::of::<S>()).ok_or_else(|| {
        Error::Unsupported(format!(
            "CUDA: no device kernels for the semiring {}; the device has the built-in {}",
            std::any::type_name::<S>(),
            AVAILABLE_SEMIRINGS
        ))
    })?;
    // OrAnd reads both operands as Booleans: the device takes bool or pattern ones.
    if name == "lor_land_bool" {
        let ok = |t: TypeId| t == TypeId::of::<bool>() || t == TypeId::of::<()>();
        if !ok(TypeId::of::<A>()) || !ok(TypeId::of::<U>()) {
            return Err(Error::Unsupported(format!(
                "CUDA: OrAnd on the device takes bool or () operands, not {} and {}",
                std::any::type_name::<A>(),
                std::any::type_name::<U>()
            )));
        }
    }
    Ok(name)
}

/// The kernel suffix of a built-in monoid over `T` (`plus_f64`).
pub(crate) fn monoid_name<M: 'static, T: 'static>() -> Result<&'static str> {
    let id = TypeId::of::<M>();
    macro_rules! monoids {
        ($($t:ty => $ty:literal),*) => {$(
            if id == TypeId::of::<algebra::Min<$t>>() { return Ok(concat!("min_", $ty)); }
            if id == TypeId::of::<algebra::Max<$t>>() { return Ok(concat!("max_", $ty)); }
            if id == TypeId::of::<algebra::Plus<$t>>() { return Ok(concat!("plus_", $ty)); }
            if id == TypeId::of::<algebra::Times<$t>>() { return Ok(concat!("times_", $ty)); }
            if id == TypeId::of::<algebra::Any<$t>>() { return Ok(concat!("any_", $ty)); }
        )*};
    }
    monoids!(u32 => "u32", u64 => "u64", i32 => "i32", i64 => "i64", f32 => "f32", f64 => "f64");
    if id == TypeId::of::<algebra::Lor>() {
        return Ok("lor_bool");
    }
    if id == TypeId::of::<algebra::Land>() {
        return Ok("land_bool");
    }
    if id == TypeId::of::<algebra::Lxor>() {
        return Ok("lxor_bool");
    }
    if id == TypeId::of::<algebra::Any<bool>>() {
        return Ok("any_bool");
    }
    Err(Error::Unsupported(format!(
        "CUDA: no device kernels for the monoid {} over {}; the device has Min, Max, Plus, \
         Times and Any over u32, u64, i32, i64, f32 and f64, and Lor, Land, Lxor and Any \
         over bool",
        std::any::type_name::<M>(),
        std::any::type_name::<T>()
    )))
}

/// A built-in binary operator's number, or the error for any other.
pub(crate) fn op_number(code: u32, what: &str) -> Result<u32> {
    if code == op_code::NONE {
        return Err(Error::Unsupported(format!(
            "CUDA: the {what} is not a built-in operator; the device has First, Second, \
             Plus, Times, Min, Max, Minus, Rminus, Div, Rdiv, Any, Pair, Lor, Land and Lxor"
        )));
    }
    Ok(code)
}

/// The static name of kernel `eb_{family}_{suffix}`, or the error listing the instances.
pub(crate) fn kernel(family: &str, suffix: &str) -> Result<&'static str> {
    let want = format!("eb_{family}_{suffix}");
    HOST_OPS
        .iter()
        .find(|(n, _)| *n == want)
        .map(|(n, _)| *n)
        .ok_or_else(|| {
            let mut have: Vec<&str> = HOST_OPS
                .iter()
                .filter_map(|(n, _)| n.strip_prefix(&format!("eb_{family}_")))
                .collect();
            have.sort_unstable();
            Error::Unsupported(format!(
                "CUDA: no device kernel {want}; {family} has: {}",
                have.join(", ")
            ))
        })
}

/// `p` reading vector `u` and writing vector `t`: their presence words and values.
fn reading_into<E: Exec>(mut p: EbOpParams, ex: &E, u: &DVec<E>, t: &DVec<E>) -> EbOpParams {
    p.u_bits = u.bits_ptr(ex);
    p.u_values = u.vals_ptr(ex);
    p.w_bits = t.bits_ptr(ex);
    p.w_values = t.vals_ptr(ex);
    p
}

pub(crate) fn params(items: u64, n: usize) -> EbOpParams {
    EbOpParams {
        a: NO_CSR,
        a_values: std::ptr::null(),
        u_bits: std::ptr::null(),
        u_values: std::ptr::null(),
        v_bits: std::ptr::null(),
        v_values: std::ptr::null(),
        w_bits: std::ptr::null_mut(),
        w_values: std::ptr::null_mut(),
        m_bits: std::ptr::null(),
        m_values: std::ptr::null(),
        list: std::ptr::null(),
        stamp: std::ptr::null_mut(),
        scalar: 0,
        items,
        n: n as u32,
        m_type: 0,
        m_flags: 0,
        op: 0,
        op2: 0,
        replace: 0,
        pass: 0,
        pad: 0,
        b: NO_CSR,
        b_values: std::ptr::null(),
        mm: NO_CSR,
        c_offsets: std::ptr::null(),
        c_indices: std::ptr::null_mut(),
        c_values: std::ptr::null_mut(),
        counts: std::ptr::null_mut(),
        ws_offsets: std::ptr::null(),
        ws_keys: std::ptr::null_mut(),
        ws_values: std::ptr::null_mut(),
    }
}

/// No matrix.
pub(crate) const NO_CSR: EbCsr = EbCsr {
    offsets: std::ptr::null(),
    indices: std::ptr::null(),
    nrows: 0,
    ncols: 0,
};

fn with_mask(mut p: EbOpParams, m: MaskView) -> EbOpParams {
    p.m_bits = m.bits;
    p.m_values = m.values;
    p.m_type = m.ty;
    p.m_flags = m.flags;
    p
}

/// `w<m> = w (.) t` (accumulator `accum`, an `EB_OP_*`; `EB_OP_NONE` for none).
pub(crate) fn write_back<E: Exec>(
    ex: &E,
    ty: &str,
    w: &mut DVec<E>,
    mask: MaskView,
    accum: u32,
    t: &DVec<E>,
    replace: bool,
) -> Result<()> {
    let name = kernel("write", ty)?;
    let mut p = with_mask(params(w.len.div_ceil(32) as u64, w.len), mask);
    p.w_bits = w.bits_ptr(ex);
    p.w_values = w.vals_ptr(ex);
    p.v_bits = t.bits_ptr(ex);
    p.v_values = t.vals_ptr(ex);
    p.op = accum;
    p.replace = replace as u32;
    ex.run(Launch::Op(name, p))
}

/// `t<m> = A (+).(x) u`, pull: one row of `a` per output (`a.nrows` of them).
pub(crate) fn pull<E: Exec>(
    ex: &E,
    semiring: &str,
    elem: usize,
    mask: MaskView,
    a: CsrView,
    u: &DVec<E>,
) -> Result<DVec<E>> {
    let name = kernel("mxv_pull", semiring)?;
    let n = a.a.nrows as usize;
    let t = DVec::new(ex, n, elem)?;
    let mut p = reading_into(with_mask(params(n as u64, n), mask), ex, u, &t);
    p.a = a.a;
    p.a_values = a.values;
    ex.run(Launch::Op(name, p))?;
    Ok(t)
}

/// The indices of `u`'s entries (ascending on the host; in any order on the device),
/// by the frontier conversion kernel.
fn entries<E: Exec>(ex: &E, u: &DVec<E>) -> Result<(E::Buf<u32>, usize)> {
    let list = ex.alloc::<u32>(u.len)?;
    let counters = ex.alloc::<EbLevelCounters>(1)?;
    let p = EbConvertParams {
        a_offsets: std::ptr::null(),
        queue: ex.addr(&list),
        big: std::ptr::null_mut(),
        bits: u.bits_ptr(ex),
        counters: ex.addr(&counters),
        queue_len: 0,
        nwords: u.len.div_ceil(32) as u32,
    };
    ex.run(Launch::BitsToQueue(p))?;
    let k = ex.download(&counters, 1)?[0].vertices as usize;
    Ok((list, k))
}

/// `t<m> = u (+).(x) A`, push: every entry `u(k)` scatters over row `k` of `a` (`a.ncols`
/// outputs). Exact monoids combine terms in any order (compare-and-swap); ANY keeps the
/// term of the smallest `k` (two passes); float PLUS and TIMES sum in arrival order on
/// the device (ascending `k` on the host).
pub(crate) fn push<E: Exec>(
    ex: &E,
    semiring: &str,
    elem: usize,
    mask: MaskView,
    a: CsrView,
    u: &DVec<E>,
) -> Result<DVec<E>> {
    let name = kernel("vxm_push", semiring)?;
    let init = kernel("vxm_init", semiring)?;
    let n = a.a.ncols as usize;
    let t = DVec::new(ex, n, elem)?;
    let (list, k) = entries(ex, u)?;
    let any = semiring.starts_with("any_");
    let mut stamp = ex.alloc::<u32>(if any { n } else { 1 })?;
    if any {
        ex.fill_u32(&mut stamp, EB_UNREACHED)?;
    } else {
        let mut p = params(n as u64, n);
        p.w_values = t.vals_ptr(ex);
        ex.run(Launch::Op(init, p))?;
    }
    if k == 0 {
        return Ok(t);
    }
    let mut p = reading_into(with_mask(params(k as u64, n), mask), ex, u, &t);
    p.a = a.a;
    p.a_values = a.values;
    p.list = ex.addr(&list);
    p.stamp = ex.addr(&stamp);
    ex.run(Launch::Op(name, p))?;
    if any {
        p.pass = 1;
        ex.run(Launch::Op(name, p))?;
    }
    Ok(t)
}

/// `t = u op v` over the union (`add`) or the intersection of the structures.
pub(crate) fn ewise<E: Exec>(
    ex: &E,
    ty: &str,
    add: bool,
    op: u32,
    u: &DVec<E>,
    v: &DVec<E>,
) -> Result<DVec<E>> {
    let name = kernel(if add { "ewise_add" } else { "ewise_mult" }, ty)?;
    let t = DVec::new(ex, u.len, u.elem)?;
    let mut p = reading_into(params(u.len.div_ceil(32) as u64, u.len), ex, u, &t);
    p.v_bits = v.bits_ptr(ex);
    p.v_values = v.vals_ptr(ex);
    p.op = op;
    ex.run(Launch::Op(name, p))?;
    Ok(t)
}

/// `t = f(u)`: unary operator `unary` (EB_UNARY_*), with bound operator `op2` and
/// operand bits `scalar` for the bound forms.
pub(crate) fn apply<E: Exec>(
    ex: &E,
    ty: &str,
    unary: u32,
    op2: u32,
    scalar: u64,
    u: &DVec<E>,
) -> Result<DVec<E>> {
    let name = kernel("apply", ty)?;
    let t = DVec::new(ex, u.len, u.elem)?;
    let mut p = reading_into(params(u.len.div_ceil(32) as u64, u.len), ex, u, &t);
    p.op = unary;
    p.op2 = op2;
    p.scalar = scalar;
    ex.run(Launch::Op(name, p))?;
    Ok(t)
}

/// `t = u` where predicate `pred` (EB_SELECT_*) holds against `scalar`.
pub(crate) fn select<E: Exec>(
    ex: &E,
    ty: &str,
    pred: u32,
    scalar: u64,
    u: &DVec<E>,
) -> Result<DVec<E>> {
    let name = kernel("select", ty)?;
    let t = DVec::new(ex, u.len, u.elem)?;
    let mut p = reading_into(params(u.len.div_ceil(32) as u64, u.len), ex, u, &t);
    p.op = pred;
    p.scalar = scalar;
    ex.run(Launch::Op(name, p))?;
    Ok(t)
}

/// `t = x` at every index (`x`'s bytes in the low bytes of `scalar`).
pub(crate) fn fill<E: Exec>(
    ex: &E,
    ty: &str,
    len: usize,
    elem: usize,
    scalar: u64,
) -> Result<DVec<E>> {
    let name = kernel("fill", ty)?;
    let t = DVec::new(ex, len, elem)?;
    let mut p = params(len.div_ceil(32) as u64, len);
    p.w_bits = t.bits_ptr(ex);
    p.w_values = t.vals_ptr(ex);
    p.scalar = scalar;
    ex.run(Launch::Op(name, p))?;
    Ok(t)
}

/// `t(i) = u(I(i))` where that entry is present, `I` at `list` (`n` indices, each below
/// `u.len`: the caller's to check).
pub(crate) fn gather<E: Exec>(
    ex: &E,
    ty: &str,
    n: usize,
    list: *const u32,
    u: &DVec<E>,
) -> Result<DVec<E>> {
    let name = kernel("gather", ty)?;
    let t = DVec::new(ex, n, u.elem)?;
    let mut p = reading_into(params(n.div_ceil(32) as u64, n), ex, u, &t);
    p.list = list;
    ex.run(Launch::Op(name, p))?;
    Ok(t)
}

/// `t(I(i)) (+)= u(i)` for every present `u(i)` into a new vector of `len` slots (a slot
/// no term reaches stays absent), `I` at `list` (`u.len` indices, each below `len`: the
/// caller's to check); `monoid` is the kernels' name of it (`min_u32`).
pub(crate) fn scatter<E: Exec>(
    ex: &E,
    monoid: &str,
    len: usize,
    list: *const u32,
    u: &DVec<E>,
) -> Result<DVec<E>> {
    let name = kernel("scatter", monoid)?;
    let init = kernel("slot_init", monoid)?;
    let t = DVec::new(ex, len, u.elem)?;
    let mut p = params(len as u64, len);
    p.w_values = t.vals_ptr(ex);
    ex.run(Launch::Op(init, p))?;
    let mut p = reading_into(params(u.len as u64, len), ex, u, &t);
    p.list = list;
    ex.run(Launch::Op(name, p))?;
    Ok(t)
}

/// The monoid sum of `u`'s entries, in index order by segments of EB_REDUCE_SEG, the
/// segments' sums summed again the same way: the value's bytes (as the low bytes of a
/// u64), or `None` when `u` has no entry.
pub(crate) fn reduce<E: Exec>(ex: &E, monoid: &str, u: &DVec<E>) -> Result<Option<u64>> {
    reduce_from(ex, monoid, u.len, u.elem, u.bits_ptr(ex), u.vals_ptr(ex))
}

/// [`reduce`] of the vector of `len` slots of `elem` bytes at `bits` and `vals`.
pub(crate) fn reduce_from<E: Exec>(
    ex: &E,
    monoid: &str,
    len: usize,
    elem: usize,
    bits: *const u32,
    vals: *const c_void,
) -> Result<Option<u64>> {
    let name = kernel("reduce", monoid)?;
    let seg = EB_REDUCE_SEG as usize;
    let mut cur: Option<DVec<E>> = None;
    loop {
        let (src_len, src_bits, src_vals) = match &cur {
            Some(c) => (
                c.len,
                c.bits_ptr(ex).cast_const(),
                c.vals_ptr(ex).cast_const(),
            ),
            None => (len, bits, vals),
        };
        let segs = src_len.div_ceil(seg).max(1);
        let t = DVec::new(ex, segs, elem)?;
        let mut p = params(segs as u64, src_len);
        p.u_bits = src_bits;
        p.u_values = src_vals;
        p.w_bits = t.bits_ptr(ex);
        p.w_values = t.vals_ptr(ex);
        ex.run(Launch::Op(name, p))?;
        if segs == 1 {
            let (bits, vals) = t.parts(ex)?;
            return Ok((bits[0] & 1 == 1).then(|| vals.first().copied().unwrap_or(0)));
        }
        cur = Some(t);
    }
}

/// Host vectors to and from the executor's form.
pub(crate) mod pack {
    use super::*;
    use crate::vector::{BitmapVector, Vector};

    /// The presence words (32 bits) and value words of `v`.
    pub(crate) fn pack<T: Scalar>(v: &Vector<T>) -> (Vec<u32>, Vec<u64>) {
        let b = v.clone().into_bitmap();
        let n = b.len();
        let mut bits: Vec<u32> = b
            .bits()
            .iter()
            .flat_map(|&w| [w as u32, (w >> 32) as u32])
            .collect();
        bits.truncate(n.div_ceil(32));
        (bits, values_to_words(b.values()))
    }

    /// Values as 8-byte words (zero padding at the end).
    pub(crate) fn values_to_words<T: Scalar>(v: &[T]) -> Vec<u64> {
        let size = std::mem::size_of_val(v);
        let mut out = vec![0u64; size.div_ceil(8)];
        if size > 0 {
            // SAFETY: the device value types are plain numbers and bool (all bytes
            // initialised); `out` holds at least `size` bytes.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    v.as_ptr().cast::<u8>(),
                    out.as_mut_ptr().cast::<u8>(),
                    size,
                )
            };
        }
        out
    }

    /// `len` values of `T` from 8-byte words.
    pub(crate) fn words_to_values<T: Scalar>(w: &[u64], len: usize) -> Vec<T> {
        let mut out = vec![T::default(); len];
        let size = std::mem::size_of::<T>() * len;
        if size > 0 {
            // SAFETY: the words hold `size` bytes written from values of the same T (by
            // `values_to_words` or a kernel of T's instance; a bool slot holds 0 or 1).
            unsafe {
                std::ptr::copy_nonoverlapping(
                    w.as_ptr().cast::<u8>(),
                    out.as_mut_ptr().cast::<u8>(),
                    size,
                )
            };
        }
        out
    }

    /// A bitmap vector from presence words (32 bits) and value words. Slots of absent
    /// entries are reset to the default value.
    pub(crate) fn unpack<T: Scalar>(len: usize, bits: &[u32], vals: &[u64]) -> Vector<T> {
        let mut words: Vec<u64> = bits
            .chunks(2)
            .map(|p| p[0] as u64 | (p.get(1).copied().unwrap_or(0) as u64) << 32)
            .collect();
        words.resize(len.div_ceil(64), 0);
        let mut values = words_to_values::<T>(vals, len);
        for (i, x) in values.iter_mut().enumerate() {
            if words[i >> 6] >> (i & 63) & 1 == 0 {
                *x = T::default();
            }
        }
        Vector::Bitmap(BitmapVector::from_parts(len, words, values))
    }

    /// A vector on the executor.
    pub(crate) fn upload<E: Exec, T: Scalar>(ex: &E, v: &Vector<T>) -> Result<DVec<E>> {
        let (bits, vals) = pack(v);
        DVec::from_parts(ex, v.len(), std::mem::size_of::<T>(), &bits, &vals)
    }

    /// A vector back from the executor.
    pub(crate) fn download<E: Exec, T: Scalar>(ex: &E, v: &DVec<E>) -> Result<Vector<T>> {
        let (bits, vals) = v.parts(ex)?;
        Ok(unpack(v.len, &bits, &vals))
    }

    /// A value from the low bytes of a word.
    pub(crate) fn scalar_from_word<T: Scalar>(w: u64) -> T {
        words_to_values::<T>(&[w], 1)[0]
    }

    /// A value's bytes as the low bytes of a word.
    pub(crate) fn scalar_to_word<T: Scalar>(x: T) -> u64 {
        values_to_words(&[x]).first().copied().unwrap_or(0)
    }
}

/// Index type check: the kernels use u32 indices.
pub(crate) fn fits(n: usize) -> Result<()> {
    if n >= EB_UNREACHED as usize {
        return Err(Error::Unsupported(format!(
            "CUDA: length {n}; the device kernels index with u32 below {EB_UNREACHED}"
        )));
    }
    Ok(())
}

/// The accumulator's number (`EB_OP_NONE` for none).
pub(crate) fn accum_code<Z>(accum: Accum<'_, Z>) -> Result<u32> {
    match accum {
        None => Ok(EB_OP_NONE),
        Some(op) => op_number(op.op_code(), "accumulator"),
    }
}

/// The typed operations: names looked up from the Rust types, then the families above.
/// Shapes are the callers' to check.
pub(crate) mod typed {
    use super::*;

    /// `w<m> = w (.) (A (+).(x) u)`: pull over `a` (push over it when transposed).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn mxv<E: Exec, S, A, U>(
        ex: &E,
        w: &mut DVec<E>,
        mask: MaskView,
        accum: Accum<'_, S::Output>,
        _semiring: S,
        a: CsrView,
        u: &DVec<E>,
        desc: &Descriptor,
    ) -> Result<()>
    where
        S: Semiring<A, U> + 'static,
        A: 'static,
        U: 'static,
    {
        let sr = semiring_name::<S, A, U>()?;
        let ty = type_name::<S::Output>()?;
        let acc = accum_code(accum)?;
        let elem = std::mem::size_of::<S::Output>();
        let t = if desc.transpose {
            push(ex, sr, elem, mask, a, u)?
        } else {
            pull(ex, sr, elem, mask, a, u)?
        };
        write_back(ex, ty, w, mask, acc, &t, desc.replace)
    }

    /// `w<m> = w (.) (u (+).(x) A)`: push over `a` (pull over it when transposed).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn vxm<E: Exec, S, A, U>(
        ex: &E,
        w: &mut DVec<E>,
        mask: MaskView,
        accum: Accum<'_, S::Output>,
        _semiring: S,
        u: &DVec<E>,
        a: CsrView,
        desc: &Descriptor,
    ) -> Result<()>
    where
        S: Semiring<A, U> + 'static,
        A: 'static,
        U: 'static,
    {
        let sr = semiring_name::<S, A, U>()?;
        let ty = type_name::<S::Output>()?;
        let acc = accum_code(accum)?;
        let elem = std::mem::size_of::<S::Output>();
        let t = if desc.transpose {
            pull(ex, sr, elem, mask, a, u)?
        } else {
            push(ex, sr, elem, mask, a, u)?
        };
        write_back(ex, ty, w, mask, acc, &t, desc.replace)
    }

    /// `w<m> = w (.) (u op v)`, union (`add`) or intersection.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn ewise<E: Exec, T: Scalar>(
        ex: &E,
        add: bool,
        w: &mut DVec<E>,
        mask: MaskView,
        accum: Accum<'_, T>,
        op: &dyn BinaryOp<T, T, Output = T>,
        u: &DVec<E>,
        v: &DVec<E>,
        desc: &Descriptor,
    ) -> Result<()> {
        let ty = type_name::<T>()?;
        let acc = accum_code(accum)?;
        let code = op_number(op.op_code(), "element-wise operator")?;
        let t = super::ewise(ex, ty, add, code, u, v)?;
        write_back(ex, ty, w, mask, acc, &t, desc.replace)
    }

    /// `w<m> = w (.) f(u)`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn apply<E: Exec, T: Scalar>(
        ex: &E,
        w: &mut DVec<E>,
        mask: MaskView,
        accum: Accum<'_, T>,
        unary: u32,
        bound: Option<(&dyn BinaryOp<T, T, Output = T>, T)>,
        u: &DVec<E>,
        desc: &Descriptor,
    ) -> Result<()> {
        let ty = type_name::<T>()?;
        let acc = accum_code(accum)?;
        let (op2, scalar) = match bound {
            Some((op, x)) => (
                op_number(op.op_code(), "bound operator")?,
                pack::scalar_to_word(x),
            ),
            None => (EB_OP_NONE, 0),
        };
        let t = super::apply(ex, ty, unary, op2, scalar, u)?;
        write_back(ex, ty, w, mask, acc, &t, desc.replace)
    }

    /// `w<m> = w (.) u`.
    pub(crate) fn assign<E: Exec, T: Scalar>(
        ex: &E,
        w: &mut DVec<E>,
        mask: MaskView,
        accum: Accum<'_, T>,
        u: &DVec<E>,
        desc: &Descriptor,
    ) -> Result<()> {
        let ty = type_name::<T>()?;
        let acc = accum_code(accum)?;
        write_back(ex, ty, w, mask, acc, u, desc.replace)
    }

    /// `w<m> = w (.) select(u)`.
    pub(crate) fn select<E: Exec, T: Scalar>(
        ex: &E,
        w: &mut DVec<E>,
        mask: MaskView,
        accum: Accum<'_, T>,
        pred: crate::cuda::SelectOp<T>,
        u: &DVec<E>,
        desc: &Descriptor,
    ) -> Result<()> {
        use crate::cuda::SelectOp as P;
        let ty = type_name::<T>()?;
        let acc = accum_code(accum)?;
        let v = pack::scalar_to_word;
        let (code, scalar) = match pred {
            P::ValueEq(s) => (EB_SELECT_VALUE_EQ, v(s)),
            P::ValueNe(s) => (EB_SELECT_VALUE_NE, v(s)),
            P::ValueLt(s) => (EB_SELECT_VALUE_LT, v(s)),
            P::ValueLe(s) => (EB_SELECT_VALUE_LE, v(s)),
            P::ValueGt(s) => (EB_SELECT_VALUE_GT, v(s)),
            P::ValueGe(s) => (EB_SELECT_VALUE_GE, v(s)),
            P::IndexLt(k) => (EB_SELECT_INDEX_LT, k as u64),
            P::IndexGe(k) => (EB_SELECT_INDEX_GE, k as u64),
        };
        let t = super::select(ex, ty, code, scalar, u)?;
        write_back(ex, ty, w, mask, acc, &t, desc.replace)
    }

    /// `w<m> = w (.) x` at every index.
    pub(crate) fn assign_scalar<E: Exec, T: Scalar>(
        ex: &E,
        w: &mut DVec<E>,
        mask: MaskView,
        accum: Accum<'_, T>,
        x: T,
        desc: &Descriptor,
    ) -> Result<()> {
        let ty = type_name::<T>()?;
        let acc = accum_code(accum)?;
        let t = super::fill(ex, ty, w.len, w.elem, pack::scalar_to_word(x))?;
        write_back(ex, ty, w, mask, acc, &t, desc.replace)
    }

    /// Whether `indices` can index a vector of `bound` slots: every entry present and
    /// below `bound` (one read-back of its presence words and one `reduce`), else the
    /// error naming the operation `what`.
    pub(crate) fn check_indices<E: Exec>(
        ex: &E,
        indices: &DVec<E>,
        bound: usize,
        what: &str,
    ) -> Result<()> {
        let present = indices.nvals(ex)?;
        if present != indices.len {
            return Err(Error::InvalidArgument(format!(
                "{what}: the index vector has {present} of its {} entries; every one must \
                 be present",
                indices.len
            )));
        }
        if indices.len > 0 {
            let max = reduce(ex, algebra::Max::<u32>::new(), indices)?;
            if max as usize >= bound {
                return Err(Error::InvalidArgument(format!(
                    "{what}: index {max} is out of bounds for length {bound}"
                )));
            }
        }
        Ok(())
    }

    /// `w<m> = w (.) u(I)`, `I` the values of `indices` (a `u32` vector with every entry
    /// present, each below `u.len`: the caller's to check).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn extract<E: Exec, T: Scalar>(
        ex: &E,
        w: &mut DVec<E>,
        mask: MaskView,
        accum: Accum<'_, T>,
        u: &DVec<E>,
        indices: &DVec<E>,
        desc: &Descriptor,
    ) -> Result<()> {
        let ty = type_name::<T>()?;
        let acc = accum_code(accum)?;
        let list = indices.vals_ptr(ex).cast_const().cast::<u32>();
        let t = super::gather(ex, ty, indices.len, list, u)?;
        write_back(ex, ty, w, mask, acc, &t, desc.replace)
    }

    /// `w(I(k)) = w(I(k)) (+) u(k)` for every present `u(k)`, `I` the values of
    /// `indices` (every entry present, each below `w.len`: the caller's to check).
    pub(crate) fn assign_reduce<E: Exec, T: Scalar, M: Monoid<T> + 'static>(
        ex: &E,
        w: &mut DVec<E>,
        _monoid: M,
        u: &DVec<E>,
        indices: &DVec<E>,
    ) -> Result<()> {
        let name = monoid_name::<M, T>()?;
        let ty = type_name::<T>()?;
        let op = match name.split('_').next() {
            Some("min") => EB_OP_MIN,
            Some("max") => EB_OP_MAX,
            Some("plus") => EB_OP_PLUS,
            Some("times") => EB_OP_TIMES,
            Some("lor") => EB_OP_LOR,
            Some("land") => EB_OP_LAND,
            _ => EB_OP_NONE,
        };
        let list = indices.vals_ptr(ex).cast_const().cast::<u32>();
        // The name is looked up first: a monoid without a scatter kernel (ANY, LXOR,
        // float PLUS) is the error listing those there are.
        let t = super::scatter(ex, name, w.len, list, u)?;
        write_back(ex, ty, w, MaskView::NONE, op, &t, false)
    }

    /// `s = (+)_i u(i)`, the identity when `u` has no entry.
    pub(crate) fn reduce<E: Exec, T: Scalar, M: Monoid<T> + 'static>(
        ex: &E,
        monoid: M,
        u: &DVec<E>,
    ) -> Result<T> {
        let name = monoid_name::<M, T>()?;
        Ok(match super::reduce(ex, name, u)? {
            Some(w) => pack::scalar_from_word(w),
            None => monoid.identity(),
        })
    }
}
