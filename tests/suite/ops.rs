//! Every operation against the dense oracle (`tests/common/oracle.rs`), over random
//! shapes, densities, vector forms, masks, accumulators and descriptors, and several
//! semirings; results must also not depend on the number of threads.
//!
//! Each quickcheck case is built from a [`Seed`] by a SplitMix64 stream, and quickcheck
//! itself draws the seeds from a fixed seed ([`QC_SEED`], or `EDGEBLAS_QC_SEED` in the
//! environment), so a failure replays exactly: its message names the seed, and
//! `replay_one_seed` below runs one seed alone.

use crate::oracle;
use crate::qc;
use crate::random;

use edgeblas::algebra::{BinaryOp, Index, Scalar};
use edgeblas::ops::Accum;
use edgeblas::prelude::*;
use quickcheck::TestResult;

use oracle::{DMat, DVec};
use qc::{Seed, pool, verdict};
use random::{Form, Rng};

/// The seed quickcheck draws case seeds from.
const QC_SEED: u64 = 0x6564_6765_626c_6173;

/// Runs a property on `tests` cases in a 3-thread pool.
fn check(tests: u64, prop: fn(Seed) -> TestResult) {
    qc::check(tests, QC_SEED, prop);
}

// ---- operators -------------------------------------------------------------------

/// `x - y` (wrapping): an accumulator whose argument order shows. A plain closure is a
/// binary operator.
fn minus(x: i64, y: i64) -> i64 {
    x.wrapping_sub(y)
}

/// `y ? x : -x`: an operator over two different types.
fn sign_if(x: i64, y: bool) -> i64 {
    if y { x } else { x.wrapping_neg() }
}

/// A `&dyn BinaryOp` as a sized operator, for the operations that take `&impl BinaryOp`.
#[derive(Clone, Copy)]
struct Dyn<'a, Z>(&'a dyn BinaryOp<Z, Z, Output = Z>);
impl<Z> BinaryOp<Z, Z> for Dyn<'_, Z> {
    type Output = Z;
    fn apply(&self, x: Z, y: Z) -> Z {
        self.0.apply(x, y)
    }
}

type Ops<Z> = &'static [(&'static str, &'static dyn BinaryOp<Z, Z, Output = Z>)];

const OPS_I64: Ops<i64> = &[
    ("plus", &Plus::<i64>::new()),
    ("min", &Min::<i64>::new()),
    ("max", &Max::<i64>::new()),
    ("minus", &minus),
    ("first", &Any::<i64>::new()),
    ("second", &Second::<i64>::new()),
];
const OPS_BOOL: Ops<bool> = &[
    ("lor", &Lor),
    ("land", &Land),
    ("first", &Any::<bool>::new()),
    ("second", &Second::<bool>::new()),
];
const OPS_U32: Ops<u32> = &[
    ("min", &Min::<u32>::new()),
    ("max", &Max::<u32>::new()),
    ("plus", &Plus::<u32>::new()),
    ("first", &Any::<u32>::new()),
    ("second", &Second::<u32>::new()),
];
const OPS_F64: Ops<f64> = &[
    ("max", &Max::<f64>::new()),
    ("min", &Min::<f64>::new()),
    ("times", &Times::<f64>::new()),
    ("second", &Second::<f64>::new()),
];

// ---- values ----------------------------------------------------------------------

/// Small numbers, and now and then +inf (the MIN identity) and -inf (its terminal).
fn tropical_i64(r: &mut Rng) -> i64 {
    match r.below(20) {
        0 => i64::MAX,
        1 => i64::MIN,
        _ => r.range(-20, 20),
    }
}

/// Small numbers, and now and then any 64 bits (products wrap).
fn ring_i64(r: &mut Rng) -> i64 {
    if r.chance(0.2) {
        r.next_u64() as i64
    } else {
        r.range(-5, 5)
    }
}

fn small_i64(r: &mut Rng) -> i64 {
    r.range(-9, 9)
}

/// 0, 1 or 2: a matrix entry that is sometimes false.
fn truthy_i64(r: &mut Rng) -> i64 {
    r.range(0, 2)
}

fn any_bool(r: &mut Rng) -> bool {
    r.chance(0.5)
}

/// Exact under products and maxima: halves, small integers, and +inf (MAX's terminal);
/// no zero, so no `0 * inf`.
fn reliability_f64(r: &mut Rng) -> f64 {
    r.pick(&[-2.0, -1.0, -0.5, 0.5, 1.0, 2.0, 3.0, f64::INFINITY])
}

/// Small numbers, and now and then 0 (MIN's terminal) and `u32::MAX` (its identity).
fn bottleneck_u32(r: &mut Rng) -> u32 {
    match r.below(20) {
        0 => 0,
        1 => u32::MAX,
        _ => r.range(1, 30) as u32,
    }
}

fn index_u32(r: &mut Rng) -> u32 {
    r.range(0, 2000) as u32
}

// ---- the masked write-back, shared by every operation ------------------------------

/// The library side of a case: runs the operation into `w`.
type LibOp<'f, Z> = dyn Fn(&mut Vector<Z>, Option<&Mask>, Accum<'_, Z>, &Descriptor) + 'f;

/// Draws an output `w` (old value and form), a mask (none, structural or valued, any
/// form, complemented or not), an accumulator (none or one of `accums`) and replace;
/// runs `lib` on them and compares with the oracle's write-back of `t`.
fn check_write<Z: Scalar>(
    r: &mut Rng,
    what: &str,
    t: &DVec<Z>,
    gz: &dyn Fn(&mut Rng) -> Z,
    accums: Ops<Z>,
    transpose: bool,
    lib: &LibOp<'_, Z>,
) -> Result<(), String> {
    let len = t.len();
    let (w0, wf) = random::vector_case(r, len, gz);
    let stale = gz(r);
    let mut w = random::to_vector(&w0, wf, stale);

    let kind = r.below(3);
    let complement = r.chance(0.5);
    let (m0, mf) = random::vector_case(r, len, |r| r.range(0, 2) as i32);
    let mv = random::to_vector(&m0, mf, 7);
    let mask = match kind {
        0 => None,
        1 => Some(Mask::structure(&mv)),
        _ => Some(Mask::values(&mv)),
    }
    .map(|m| if complement { m.complement() } else { m });
    let allowed = (kind != 0).then(|| oracle::mask_allows(&m0, kind == 2, complement));

    let ai = r.below(accums.len() + 1);
    let (aname, accum) = if ai == 0 {
        ("none", None)
    } else {
        (accums[ai - 1].0, Some(accums[ai - 1].1))
    };
    let replace = r.chance(0.5);
    let desc = Descriptor { replace, transpose };

    lib(&mut w, mask.as_ref(), accum, &desc);
    let want = oracle::write(&w0, allowed.as_deref(), accum, t, replace);

    let got = w.to_pairs();
    if w.len() == len && w.nvals() == got.len() && got == oracle::pairs(&want) {
        return Ok(());
    }
    let gotd = random::from_vector(&w);
    let at = (0..len.min(gotd.len())).find(|&i| gotd[i] != want[i]);
    Err(format!(
        "{what}: len {len} (got {}, nvals {} for {} pairs); w {wf:?} with {} entries; \
         mask {} {mf:?}{}; accum {aname}; replace {replace}; transpose {transpose}; \
         first difference at {at:?}: got {:?}, want {:?}",
        w.len(),
        w.nvals(),
        got.len(),
        w0.iter().flatten().count(),
        ["none", "structural", "valued"][kind],
        if complement { " complemented" } else { "" },
        at.map(|i| gotd[i]),
        at.map(|i| want[i]),
    ))
}

// ---- products ----------------------------------------------------------------------

/// A product case: a random matrix and vector, `vxm` or `mxv`, transposed or not, any
/// output setting; the result must equal the oracle's.
fn product_case<S, A, U>(
    seed: u64,
    name: &str,
    s: S,
    ga: impl Fn(&mut Rng) -> A,
    gu: impl Fn(&mut Rng) -> U,
    gz: impl Fn(&mut Rng) -> S::Output,
    accums: Ops<S::Output>,
) -> TestResult
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let mut r = Rng::new(seed);
    let push_op = r.chance(0.5);
    let transpose = r.chance(0.5);
    let (nrows, ncols) = random::shape(&mut r);
    let d = random::density(&mut r);
    let a = random::mat(&mut r, nrows, ncols, d, &ga);
    let csr = random::to_csr(&a, ncols);
    // vxm reads u along A's rows, mxv along its columns; transpose swaps them.
    let u_len = if push_op != transpose { nrows } else { ncols };
    let (u0, uf) = random::vector_case(&mut r, u_len, &gu);
    let stale = gu(&mut r);
    let u = random::to_vector(&u0, uf, stale);
    let t = if push_op {
        oracle::vxm(&s, &u0, &a, ncols, transpose)
    } else {
        oracle::mxv(&s, &a, ncols, &u0, transpose)
    };
    let what = format!(
        "seed {seed}: {} over {name}, A {nrows} x {ncols} with {} entries, u {uf:?} with {}",
        if push_op { "vxm" } else { "mxv" },
        csr.nnz(),
        u.nvals()
    );
    verdict(check_write(
        &mut r,
        &what,
        &t,
        &gz,
        accums,
        transpose,
        &|w, m, acc, desc| {
            if push_op {
                ops::vxm(w, m, acc, s, &u, &csr, desc)
            } else {
                ops::mxv(w, m, acc, s, &csr, &u, desc)
            }
        },
    ))
}

fn prop_min_plus(s: Seed) -> TestResult {
    product_case(
        s.0,
        "MinPlus<i64>",
        MinPlus::<i64>::new(),
        tropical_i64,
        tropical_i64,
        tropical_i64,
        OPS_I64,
    )
}

fn prop_max_plus(s: Seed) -> TestResult {
    product_case(
        s.0,
        "MaxPlus<i64>",
        MaxPlus::<i64>::new(),
        tropical_i64,
        tropical_i64,
        tropical_i64,
        OPS_I64,
    )
}

fn prop_plus_times(s: Seed) -> TestResult {
    product_case(
        s.0,
        "PlusTimes<i64>",
        PlusTimes::<i64>::new(),
        ring_i64,
        ring_i64,
        ring_i64,
        OPS_I64,
    )
}

fn prop_or_and(s: Seed) -> TestResult {
    product_case(
        s.0,
        "OrAnd (i64 matrix, bool vector)",
        OrAnd,
        truthy_i64,
        any_bool,
        any_bool,
        OPS_BOOL,
    )
}

fn prop_any_pair(s: Seed) -> TestResult {
    product_case(
        s.0,
        "AnyPair (pattern matrix)",
        AnyPair,
        |_| (),
        small_i64,
        any_bool,
        OPS_BOOL,
    )
}

fn prop_min_second_i(s: Seed) -> TestResult {
    product_case(
        s.0,
        "MinSecondI",
        MinSecondI,
        small_i64,
        any_bool,
        index_u32,
        OPS_U32,
    )
}

fn prop_any_second_i(s: Seed) -> TestResult {
    product_case(
        s.0,
        "AnySecondI (pattern matrix)",
        AnySecondI,
        |_| (),
        index_u32,
        index_u32,
        OPS_U32,
    )
}

fn prop_max_times(s: Seed) -> TestResult {
    product_case(
        s.0,
        "MaxTimes<f64>",
        MaxTimes::<f64>::new(),
        reliability_f64,
        reliability_f64,
        reliability_f64,
        OPS_F64,
    )
}

fn prop_min_max(s: Seed) -> TestResult {
    product_case(
        s.0,
        "MinMax<u32>",
        MinMax::<u32>::new(),
        bottleneck_u32,
        bottleneck_u32,
        bottleneck_u32,
        OPS_U32,
    )
}

#[test]
fn products_min_plus() {
    check(100, prop_min_plus);
}

#[test]
fn products_max_plus() {
    check(100, prop_max_plus);
}

#[test]
fn products_plus_times() {
    check(100, prop_plus_times);
}

#[test]
fn products_or_and() {
    check(100, prop_or_and);
}

#[test]
fn products_any_pair() {
    check(100, prop_any_pair);
}

#[test]
fn products_min_second_i() {
    check(100, prop_min_second_i);
}

#[test]
fn products_any_second_i() {
    check(100, prop_any_second_i);
}

#[test]
fn products_max_times() {
    check(100, prop_max_times);
}

#[test]
fn products_min_max() {
    check(100, prop_min_max);
}

/// Runs one product seed alone: put a failing seed here to debug it.
#[test]
fn replay_one_seed() {
    assert!(!prop_min_plus(Seed(1)).is_failure());
}

// ---- element-wise, apply, select, assign ---------------------------------------------

/// A random length, now and then past one parallel chunk of entries.
fn vec_len(r: &mut Rng) -> usize {
    if r.chance(0.05) {
        r.range(16_385, 40_000) as usize
    } else {
        random::dim(r)
    }
}

fn prop_ewise_add(s: Seed) -> TestResult {
    let mut r = Rng::new(s.0);
    let n = vec_len(&mut r);
    let (u0, uf) = random::vector_case(&mut r, n, small_i64);
    let (v0, vf) = random::vector_case(&mut r, n, small_i64);
    let (u, v) = (
        random::to_vector(&u0, uf, 99),
        random::to_vector(&v0, vf, 99),
    );
    let (opname, op) = OPS_I64[r.below(OPS_I64.len())];
    let t = oracle::ewise_add(&Dyn(op), &u0, &v0);
    let what = format!("seed {}: ewise_add {opname}, u {uf:?}, v {vf:?}", s.0);
    verdict(check_write(
        &mut r,
        &what,
        &t,
        &small_i64,
        OPS_I64,
        false,
        &|w, m, acc, d| ops::ewise_add(w, m, acc, &Dyn(op), &u, &v, d),
    ))
}

fn prop_ewise_mult(s: Seed) -> TestResult {
    let mut r = Rng::new(s.0);
    let n = vec_len(&mut r);
    let (u0, uf) = random::vector_case(&mut r, n, small_i64);
    let u = random::to_vector(&u0, uf, 99);
    if r.chance(0.5) {
        let (v0, vf) = random::vector_case(&mut r, n, small_i64);
        let v = random::to_vector(&v0, vf, 99);
        let (opname, op) = OPS_I64[r.below(OPS_I64.len())];
        let t = oracle::ewise_mult(&Dyn(op), &u0, &v0);
        let what = format!("seed {}: ewise_mult {opname}, u {uf:?}, v {vf:?}", s.0);
        verdict(check_write(
            &mut r,
            &what,
            &t,
            &small_i64,
            OPS_I64,
            false,
            &|w, m, acc, d| ops::ewise_mult(w, m, acc, &Dyn(op), &u, &v, d),
        ))
    } else {
        // Three types: i64 (x) bool -> i64.
        let (v0, vf) = random::vector_case(&mut r, n, any_bool);
        let v = random::to_vector(&v0, vf, true);
        let t = oracle::ewise_mult(&sign_if, &u0, &v0);
        let what = format!("seed {}: ewise_mult sign-if, u {uf:?}, v {vf:?}", s.0);
        verdict(check_write(
            &mut r,
            &what,
            &t,
            &small_i64,
            OPS_I64,
            false,
            &|w, m, acc, d| ops::ewise_mult(w, m, acc, &sign_if, &u, &v, d),
        ))
    }
}

fn prop_apply(s: Seed) -> TestResult {
    let mut r = Rng::new(s.0);
    let n = vec_len(&mut r);
    let (u0, uf) = random::vector_case(&mut r, n, ring_i64);
    let u = random::to_vector(&u0, uf, 99);
    match r.below(3) {
        0 => {
            let f = |x: i64| x.wrapping_mul(3).wrapping_sub(1);
            let t = oracle::apply_indexed(|_, x| f(x), &u0);
            let what = format!("seed {}: apply 3x-1, u {uf:?}", s.0);
            verdict(check_write(
                &mut r,
                &what,
                &t,
                &small_i64,
                OPS_I64,
                false,
                &|w, m, acc, d| ops::apply(w, m, acc, f, &u, d),
            ))
        }
        1 => {
            // A change of type: i64 -> bool.
            let f = |x: i64| x > 0;
            let t = oracle::apply_indexed(|_, x| f(x), &u0);
            let what = format!("seed {}: apply x > 0, u {uf:?}", s.0);
            verdict(check_write(
                &mut r,
                &what,
                &t,
                &any_bool,
                OPS_BOOL,
                false,
                &|w, m, acc, d| ops::apply(w, m, acc, f, &u, d),
            ))
        }
        _ => {
            let f = |i: Index, x: i64| x.wrapping_add(10 * i as i64);
            let t = oracle::apply_indexed(f, &u0);
            let what = format!("seed {}: apply_indexed x + 10 i, u {uf:?}", s.0);
            verdict(check_write(
                &mut r,
                &what,
                &t,
                &small_i64,
                OPS_I64,
                false,
                &|w, m, acc, d| ops::apply_indexed(w, m, acc, f, &u, d),
            ))
        }
    }
}

fn prop_select(s: Seed) -> TestResult {
    let mut r = Rng::new(s.0);
    let n = vec_len(&mut r);
    let (u0, uf) = random::vector_case(&mut r, n, small_i64);
    let u = random::to_vector(&u0, uf, 99);
    type Pred = fn(Index, i64) -> bool;
    let preds: [(&str, Pred); 4] = [
        ("x > 0", |_, x| x > 0),
        ("i % 3 == 0", |i, _| i % 3 == 0),
        ("true", |_, _| true),
        ("false", |_, _| false),
    ];
    let (pname, pred) = preds[r.below(preds.len())];
    let t = oracle::select(pred, &u0);
    let what = format!("seed {}: select {pname}, u {uf:?}", s.0);
    verdict(check_write(
        &mut r,
        &what,
        &t,
        &small_i64,
        OPS_I64,
        false,
        &|w, m, acc, d| ops::select(w, m, acc, pred, &u, d),
    ))
}

fn prop_assign(s: Seed) -> TestResult {
    let mut r = Rng::new(s.0);
    let n = vec_len(&mut r);
    let (u0, uf) = random::vector_case(&mut r, n, small_i64);
    let u = random::to_vector(&u0, uf, 99);
    let what = format!("seed {}: assign, u {uf:?}", s.0);
    verdict(check_write(
        &mut r,
        &what,
        &u0,
        &small_i64,
        OPS_I64,
        false,
        &|w, m, acc, d| ops::assign(w, m, acc, &u, d),
    ))
}

fn prop_assign_scalar(s: Seed) -> TestResult {
    let mut r = Rng::new(s.0);
    let n = vec_len(&mut r);
    let x = small_i64(&mut r);
    let t = oracle::full(n, x);
    let what = format!("seed {}: assign_scalar {x}", s.0);
    verdict(check_write(
        &mut r,
        &what,
        &t,
        &small_i64,
        OPS_I64,
        false,
        &|w, m, acc, d| ops::assign_scalar(w, m, acc, x, d),
    ))
}

#[test]
fn ewise_add_matches_oracle() {
    check(100, prop_ewise_add);
}

#[test]
fn ewise_mult_matches_oracle() {
    check(100, prop_ewise_mult);
}

#[test]
fn apply_matches_oracle() {
    check(100, prop_apply);
}

#[test]
fn select_matches_oracle() {
    check(100, prop_select);
}

#[test]
fn assign_matches_oracle() {
    check(100, prop_assign);
}

#[test]
fn assign_scalar_matches_oracle() {
    check(100, prop_assign_scalar);
}

// ---- extract and assign_reduce (index lists with repeats) ----------------------------

/// An index selection over a dimension of `n`, and the list it stands for: all, a
/// range, or a list in any order with repeats (sorted, reversed, or shuffled; now and
/// then longer than `n`).
fn index_case(r: &mut Rng, n: usize) -> (String, Vec<Index>, u8) {
    let kind = if n == 0 {
        r.below(2) as u8
    } else {
        r.below(5) as u8
    };
    let list: Vec<Index> = match kind {
        0 => (0..n as Index).collect(),
        1 => {
            let lo = r.below(n + 1);
            let hi = lo + r.below(n - lo + 1);
            (lo as Index..hi as Index).collect()
        }
        _ => {
            let len = r.below((2 * n).min(5000) + 2);
            let mut l: Vec<Index> = (0..len).map(|_| r.below(n) as Index).collect();
            match kind {
                2 => l.sort_unstable(),
                3 => l.sort_unstable_by(|a, b| b.cmp(a)),
                _ => {}
            }
            l
        }
    };
    let name = [
        "all",
        "range",
        "sorted list",
        "reversed list",
        "shuffled list",
    ][kind as usize];
    (format!("{name} of {}", list.len()), list, kind)
}

/// The [`Indices`] a case names.
fn indices_of(kind: u8, list: &[Index]) -> Indices<'_> {
    match kind {
        0 => Indices::All,
        1 => match (list.first(), list.last()) {
            (Some(&lo), Some(&hi)) => Indices::Range(lo, hi + 1),
            _ => Indices::Range(0, 0),
        },
        _ => Indices::List(list),
    }
}

/// `w<m> = w (.) u(I)`: `t(k) = u(I[k])` where present, then the write-back.
fn prop_extract(s: Seed) -> TestResult {
    let mut r = Rng::new(s.0);
    let n = vec_len(&mut r);
    let (u0, uf) = random::vector_case(&mut r, n, small_i64);
    let u = random::to_vector(&u0, uf, 99);
    let (iname, list, kind) = index_case(&mut r, n);
    let t: DVec<i64> = list.iter().map(|&i| u0[i as usize]).collect();
    let what = format!("seed {}: extract, u {uf:?} of {n}, I {iname}", s.0);
    verdict(check_write(
        &mut r,
        &what,
        &t,
        &small_i64,
        OPS_I64,
        false,
        &|w, m, acc, d| ops::extract(w, m, acc, &u, &indices_of(kind, &list), d),
    ))
}

/// `w(I[k]) (+)= u(k)` over a monoid: the oracle folds each present `u(k)` into
/// `w(I[k])` in ascending `k`, an absent `w(I[k])` starting from the first term.
fn assign_reduce_case<T: Scalar, M: Monoid<T>>(
    seed: u64,
    name: &str,
    monoid: M,
    value: fn(&mut Rng) -> T,
) -> Result<(), String> {
    let mut r = Rng::new(seed);
    let n = vec_len(&mut r);
    let (w0, wf) = random::vector_case(&mut r, n, value);
    let mut w = random::to_vector(&w0, wf, value(&mut r));
    let (iname, list, kind) = index_case(&mut r, n);
    let (u0, uf) = random::vector_case(&mut r, list.len(), value);
    let u = random::to_vector(&u0, uf, value(&mut r));
    let mut want = w0.clone();
    for (k, x) in u0.iter().enumerate() {
        if let Some(x) = *x {
            let i = list[k] as usize;
            want[i] = Some(want[i].map_or(x, |y| monoid.combine(y, x)));
        }
    }
    ops::assign_reduce(&mut w, monoid, &u, &indices_of(kind, &list));
    let got = w.to_pairs();
    if w.len() == n && w.nvals() == got.len() && got == oracle::pairs(&want) {
        return Ok(());
    }
    let gotd = random::from_vector(&w);
    let at = (0..n.min(gotd.len())).find(|&i| gotd[i] != want[i]);
    Err(format!(
        "seed {seed}: assign_reduce {name}, w {wf:?} of {n} (got len {}), u {uf:?}, \
         I {iname}; first difference at {at:?}: got {:?}, want {:?}",
        w.len(),
        at.map(|i| gotd[i]),
        at.map(|i| want[i]),
    ))
}

fn small_u32(r: &mut Rng) -> u32 {
    r.range(0, 50) as u32
}

fn prop_assign_reduce(s: Seed) -> TestResult {
    verdict(
        assign_reduce_case(s.0, "min u32", Min::<u32>::new(), bottleneck_u32)
            .and_then(|()| assign_reduce_case(s.0, "plus u32", Plus::<u32>::new(), small_u32))
            .and_then(|()| assign_reduce_case(s.0, "min i64", Min::<i64>::new(), tropical_i64))
            .and_then(|()| assign_reduce_case(s.0, "plus i64", Plus::<i64>::new(), small_i64)),
    )
}

#[test]
fn extract_matches_oracle() {
    check(150, prop_extract);
}

#[test]
fn assign_reduce_matches_oracle() {
    check(150, prop_assign_reduce);
}

#[test]
fn assign_reduce_of_long_dense_lists_equals_the_sequential_fold() {
    // Dense w and u with enough terms that integers under MIN, MAX and PLUS take the
    // parallel compare-and-swap scatter (floats keep the sequential loop): hot targets
    // (a tenth of the terms on 16 slots) and the rest spread; 1, 2 and 4 threads.
    fn case<T: Scalar, M: Monoid<T>>(r: &mut Rng, monoid: M, value: fn(&mut Rng) -> T) {
        let (n, terms) = (5000, 300_000);
        let w0: Vec<T> = (0..n).map(|_| value(r)).collect();
        let list: Vec<Index> = (0..terms)
            .map(|_| match r.chance(0.1) {
                true => r.below(16) as Index,
                false => r.below(n) as Index,
            })
            .collect();
        let u0: Vec<T> = (0..terms).map(|_| value(r)).collect();
        let mut want = w0.clone();
        for (&i, &x) in list.iter().zip(&u0) {
            want[i as usize] = monoid.combine(want[i as usize], x);
        }
        for threads in [1, 2, 4] {
            let mut w: Vector<T> = Vector::from_dense(w0.clone());
            let u: Vector<T> = Vector::from_dense(u0.clone());
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| ops::assign_reduce(&mut w, monoid, &u, &Indices::List(&list)));
            assert!(
                w.into_dense(value(r)).into_vec() == want,
                "{threads} threads: not the sequential fold"
            );
        }
    }
    let mut r = Rng::new(77);
    case(&mut r, Min::<u32>::new(), |r| r.below(1 << 20) as u32);
    case(&mut r, Max::<i64>::new(), |r| r.range(-1000, 1000));
    case(&mut r, Plus::<u64>::new(), |r| r.below(1000) as u64);
    case(&mut r, Plus::<i32>::new(), |r| r.range(-50, 50) as i32);
    case(&mut r, Min::<f64>::new(), |r| r.range(-9, 9) as f64 / 4.0);
}

#[test]
fn assign_reduce_combines_repeats_by_hand() {
    // w = [5, -, 7, -]; I = [2, 0, 2, 3, 2]; u = [1, 9, 4, -, 8].
    // MIN: w(0) = min(5, 9) = 5, w(2) = min(7, 1, 4, 8) = 1, w(3) stays absent.
    // PLUS: w(0) = 14, w(2) = 20.
    let list = [2, 0, 2, 3, 2];
    let u = Vector::from_pairs(5, [(0, 1i64), (1, 9), (2, 4), (4, 8)]);
    let w0 = Vector::from_pairs(4, [(0, 5i64), (2, 7)]);
    let mut w = w0.clone();
    ops::assign_reduce(&mut w, Min::<i64>::new(), &u, &Indices::List(&list));
    assert_eq!(w.to_pairs(), vec![(0, 5), (2, 1)]);
    let mut w = w0.clone();
    ops::assign_reduce(&mut w, Plus::<i64>::new(), &u, &Indices::List(&list));
    assert_eq!(w.to_pairs(), vec![(0, 14), (2, 20)]);
    // An empty w takes the sum of the terms.
    let mut w: Vector<i64> = Vector::new(4);
    ops::assign_reduce(&mut w, Plus::<i64>::new(), &u, &Indices::List(&list));
    assert_eq!(w.to_pairs(), vec![(0, 9), (2, 13)]);
}

#[test]
fn extract_repeats_and_reorders_by_hand() {
    let u = Vector::from_pairs(4, [(0, 10i64), (2, 30), (3, 40)]);
    let mut w: Vector<i64> = Vector::new(5);
    ops::extract(
        &mut w,
        None,
        None,
        &u,
        &Indices::List(&[3, 1, 3, 0, 2]),
        &Descriptor::DEFAULT,
    );
    assert_eq!(w.to_pairs(), vec![(0, 40), (2, 40), (3, 10), (4, 30)]);
}

#[test]
#[should_panic(expected = "out of bounds")]
fn extract_panics_on_an_index_out_of_bounds() {
    let u: Vector<i64> = Vector::new(3);
    let mut w: Vector<i64> = Vector::new(1);
    ops::extract(
        &mut w,
        None,
        None,
        &u,
        &Indices::List(&[3]),
        &Descriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "u.len() != |I|")]
fn assign_reduce_panics_on_u_length() {
    let u: Vector<i64> = Vector::new(3);
    let mut w: Vector<i64> = Vector::new(4);
    ops::assign_reduce(&mut w, Min::<i64>::new(), &u, &Indices::List(&[0, 1]));
}

// ---- reduce ------------------------------------------------------------------------

/// `ops::reduce(m, u)` equals the oracle's fold for a random `u` of any form.
fn reduce_case<T: Scalar, M: Monoid<T>>(
    r: &mut Rng,
    name: &str,
    m: M,
    value: impl Fn(&mut Rng) -> T,
) -> Result<(), String> {
    let n = vec_len(r);
    let (u0, uf) = random::vector_case(r, n, &value);
    let stale = value(r);
    let u = random::to_vector(&u0, uf, stale);
    let (got, want) = (ops::reduce(m, &u), oracle::reduce(&m, &u0));
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "reduce {name} over {uf:?} of length {n}, {} entries: got {got:?}, want {want:?}",
            u.nvals()
        ))
    }
}

fn prop_reduce(s: Seed) -> TestResult {
    let r = &mut Rng::new(s.0);
    let pm_one = |r: &mut Rng| r.pick(&[1.0, -1.0, 2.0, 0.5, 1.0, -1.0]);
    let res = match r.below(12) {
        0 => reduce_case(r, "Plus<i64>", Plus::<i64>::new(), ring_i64),
        1 => reduce_case(r, "Min<i64>", Min::<i64>::new(), tropical_i64),
        2 => reduce_case(r, "Max<i32>", Max::<i32>::new(), |r| {
            r.range(-1000, 1000) as i32
        }),
        3 => reduce_case(r, "Times<i64>", Times::<i64>::new(), |r| r.range(-3, 3)),
        4 => reduce_case(r, "Times<f64>", Times::<f64>::new(), pm_one),
        5 => reduce_case(r, "Plus<f64>", Plus::<f64>::new(), |r| {
            r.range(-100, 100) as f64
        }),
        6 => reduce_case(r, "Min<f64>", Min::<f64>::new(), |r| {
            r.pick(&[3.0, -1.5, 7.0, f64::INFINITY, f64::NEG_INFINITY, 0.0])
        }),
        7 => reduce_case(r, "Max<u32>", Max::<u32>::new(), bottleneck_u32),
        8 => reduce_case(r, "Lor", Lor, |r| r.chance(0.02)),
        9 => reduce_case(r, "Land", Land, |r| !r.chance(0.02)),
        10 => reduce_case(r, "Any<i64>", Any::<i64>::new(), |r| r.range(1, 9)),
        _ => reduce_case(r, "Plus<u64>", Plus::<u64>::new(), |r| r.next_u64()),
    };
    verdict(res.map_err(|e| format!("seed {}: {e}", s.0)))
}

#[test]
fn reduce_matches_oracle() {
    check(200, prop_reduce);
}

#[test]
fn reduce_of_nothing_is_the_identity() {
    for form in [Form::Sparse, Form::Bitmap] {
        let u = random::to_vector::<i64>(&vec![None; 100], form, 5);
        assert_eq!(ops::reduce(Plus::<i64>::new(), &u), 0);
        assert_eq!(ops::reduce(Min::<i64>::new(), &u), i64::MAX);
        assert_eq!(ops::reduce(Times::<i64>::new(), &u), 1);
    }
    assert!(!ops::reduce(Lor, &Vector::<bool>::new(0)));
    assert!(ops::reduce(Land, &Vector::<bool>::new(7)));
}

#[test]
fn reduce_any_keeps_the_first_entry() {
    // ANY's identity is only a placeholder: the sum is the first present entry.
    let u = Vector::from_pairs(10, [(3, 42i64), (7, 5)]);
    assert_eq!(ops::reduce(Any::<i64>::new(), &u), 42);
    let mut big = Vector::full(50_000, 9i64);
    big.make_bitmap();
    assert_eq!(ops::reduce(Any::<i64>::new(), &big), 9);
}

// ---- larger deterministic cases, and thread counts ---------------------------------------

/// An `n x n` matrix with about `nnz` random entries, a few hub rows (one long row makes
/// its own push chunk) and a hub column (many terms for one output, across chunks).
fn big_matrix(r: &mut Rng, n: usize, nnz: usize) -> DMat<i32> {
    let mut a: DMat<i32> = oracle::empty_mat(n, n);
    let value = |r: &mut Rng| match r.below(50) {
        0 => i32::MIN,
        _ => r.range(-50, 50) as i32,
    };
    for _ in 0..nnz {
        let (i, j) = (r.below(n), r.below(n));
        a[i][j] = Some(value(r));
    }
    for h in [0, n / 2, n - 1] {
        for x in a[h].iter_mut() {
            if r.chance(0.8) {
                *x = Some(value(r));
            }
        }
    }
    for row in a.iter_mut() {
        if r.chance(0.3) {
            row[7] = Some(value(r));
        }
    }
    a
}

/// A mask of the large cases: its source vector and form, valued or structural, and
/// complemented or not.
struct BigMask {
    source: DVec<i32>,
    form: Form,
    valued: bool,
    complement: bool,
}

/// The masks of the large cases: none, and a few sources, kinds and complements. The
/// output starts empty and there is no accumulator (the write-back is tested above).
fn big_masks(r: &mut Rng, n: usize) -> Vec<Option<BigMask>> {
    let mut out = vec![None];
    for (form, valued, complement) in [
        (Form::Sparse, false, false),
        (Form::Bitmap, true, true),
        (Form::Sparse, true, true),
        (Form::Dense, true, false),
    ] {
        let d = if form == Form::Dense { 1.0 } else { 0.3 };
        let source = random::vec_of(r, n, d, |r| r.range(0, 2) as i32);
        out.push(Some(BigMask {
            source,
            form,
            valued,
            complement,
        }));
    }
    out
}

/// Runs `vxm` and `mxv`, plain and transposed, under each mask, in pools of 1 and 3
/// threads; both must equal the oracle.
#[allow(clippy::too_many_arguments)]
fn big_products<S, U>(
    name: &str,
    s: S,
    a: &DMat<i32>,
    csr: &Csr<i32>,
    u0: &DVec<U>,
    form: Form,
    stale: U,
    r: &mut Rng,
) where
    S: Semiring<i32, U>,
    U: Scalar,
{
    let n = a.len();
    let u = random::to_vector(u0, form, stale);
    let (one, three) = (pool(1), pool(3));
    let masks = big_masks(r, n);
    for push_op in [true, false] {
        for transpose in [false, true] {
            let t = if push_op {
                oracle::vxm(&s, u0, a, n, transpose)
            } else {
                oracle::mxv(&s, a, n, u0, transpose)
            };
            for (mi, spec) in masks.iter().enumerate() {
                let mv = spec
                    .as_ref()
                    .map(|m| random::to_vector(&m.source, m.form, 7));
                let run = || {
                    let mask = mv.as_ref().zip(spec.as_ref()).map(|(v, m)| {
                        let k = if m.valued {
                            Mask::values(v)
                        } else {
                            Mask::structure(v)
                        };
                        if m.complement { k.complement() } else { k }
                    });
                    let desc = Descriptor {
                        replace: false,
                        transpose,
                    };
                    let mut w = Vector::new(n);
                    if push_op {
                        ops::vxm(&mut w, mask.as_ref(), None, s, &u, csr, &desc);
                    } else {
                        ops::mxv(&mut w, mask.as_ref(), None, s, csr, &u, &desc);
                    }
                    w
                };
                let (w1, w3) = (one.install(run), three.install(run));
                let allowed = spec
                    .as_ref()
                    .map(|m| oracle::mask_allows(&m.source, m.valued, m.complement));
                let want = oracle::pairs(&oracle::write(
                    &vec![None; n],
                    allowed.as_deref(),
                    None,
                    &t,
                    false,
                ));
                let case = format!(
                    "{name} {} transpose {transpose} mask {mi}",
                    if push_op { "vxm" } else { "mxv" }
                );
                assert_eq!(w1.to_pairs(), w3.to_pairs(), "{case}: 1 vs 3 threads");
                assert_eq!(w1.to_pairs(), want, "{case}: vs oracle");
                assert_eq!(w1.nvals(), want.len(), "{case}: nvals");
            }
        }
    }
}

#[test]
fn large_products_match_oracle_on_1_and_3_threads() {
    let r = &mut Rng::new(5000);
    let n = 5000;
    let a = big_matrix(r, n, 100_000);
    let csr = random::to_csr(&a, n);
    assert!(csr.nnz() > 100_000);
    // A frontier whose out-degrees sum far past SEQUENTIAL_WORK (16384): the parallel push.
    let u = random::vec_of(r, n, 0.3, |r| r.range(-20, 20) as i32);
    big_products(
        "MinPlus<i32>",
        MinPlus::<i32>::new(),
        &a,
        &csr,
        &u,
        Form::Sparse,
        0,
        r,
    );
    big_products(
        "PlusTimes<i32>",
        PlusTimes::<i32>::new(),
        &a,
        &csr,
        &u,
        Form::Bitmap,
        3,
        r,
    );
    let ub = random::vec_of(r, n, 0.5, |r| r.chance(0.7));
    big_products("OrAnd", OrAnd, &a, &csr, &ub, Form::Bitmap, true, r);
    big_products(
        "MinSecondI",
        MinSecondI,
        &a,
        &csr,
        &ub,
        Form::Sparse,
        true,
        r,
    );
    let full = random::vec_of(r, n, 1.0, |r| r.chance(0.5));
    big_products(
        "AnySecondI",
        AnySecondI,
        &a,
        &csr,
        &full,
        Form::Dense,
        true,
        r,
    );
}

#[test]
fn thread_count_does_not_change_any_result() {
    // Random cases rerun in pools of 1 and 3 threads; the write-back and element-wise
    // results must be identical too.
    let (one, three) = (pool(1), pool(3));
    for seed in 0..30u64 {
        let s = Seed(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for prop in [
            prop_min_plus,
            prop_any_second_i,
            prop_plus_times,
            prop_ewise_add,
            prop_reduce,
            prop_assign_scalar,
        ] {
            assert!(
                !one.install(|| prop(s)).is_failure(),
                "seed {} on 1 thread",
                s.0
            );
            assert!(
                !three.install(|| prop(s)).is_failure(),
                "seed {} on 3 threads",
                s.0
            );
        }
    }
    // The same large push, compared entry for entry.
    let r = &mut Rng::new(77);
    let n = 3000;
    let a = random::to_csr(&big_matrix(r, n, 60_000), n);
    let u = random::to_vector(
        &random::vec_of(r, n, 0.6, |r| r.range(0, 9) as i32),
        Form::Sparse,
        0,
    );
    let run = |s: u32| {
        let mut w = Vector::new(n);
        match s {
            0 => ops::vxm(
                &mut w,
                None,
                None,
                PlusTimes::<i32>::new(),
                &u,
                &a,
                &Descriptor::DEFAULT,
            ),
            _ => ops::vxm(
                &mut w,
                None,
                None,
                MinPlus::<i32>::new(),
                &u,
                &a,
                &Descriptor::DEFAULT,
            ),
        }
        w.to_pairs()
    };
    for s in 0..2 {
        assert_eq!(one.install(|| run(s)), three.install(|| run(s)));
    }
}

// ---- shapes ------------------------------------------------------------------------

fn shapes() -> (Csr<i64>, Vector<i64>, Vector<i64>) {
    (Csr::empty(3, 4), Vector::new(3), Vector::new(4))
}

#[test]
#[should_panic(expected = "u.len() != A.nrows()")]
fn vxm_panics_on_u_length() {
    let (a, _, mut w) = shapes();
    let u = Vector::<i64>::new(4);
    ops::vxm(
        &mut w,
        None,
        None,
        MinPlus::<i64>::new(),
        &u,
        &a,
        &Descriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "w.len() != A.ncols()")]
fn vxm_panics_on_w_length() {
    let (a, u, _) = shapes();
    let mut w = Vector::<i64>::new(3);
    ops::vxm(
        &mut w,
        None,
        None,
        MinPlus::<i64>::new(),
        &u,
        &a,
        &Descriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "u.len() != A.ncols() (transposed vxm)")]
fn transposed_vxm_panics_on_u_length() {
    let (a, u, mut w) = shapes();
    let desc = Descriptor::DEFAULT.with_transpose();
    ops::vxm(&mut w, None, None, MinPlus::<i64>::new(), &u, &a, &desc);
}

#[test]
#[should_panic(expected = "mask.len() != w.len()")]
fn vxm_panics_on_mask_length() {
    let (a, u, mut w) = shapes();
    let m = Vector::<bool>::new(5);
    let mask = Mask::structure(&m);
    ops::vxm(
        &mut w,
        Some(&mask),
        None,
        MinPlus::<i64>::new(),
        &u,
        &a,
        &Descriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "u.len() != A.ncols()")]
fn mxv_panics_on_u_length() {
    let (a, u, _) = shapes();
    let mut w = Vector::<i64>::new(3);
    ops::mxv(
        &mut w,
        None,
        None,
        MinPlus::<i64>::new(),
        &a,
        &u,
        &Descriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "w.len() != A.nrows()")]
fn mxv_panics_on_w_length() {
    let (a, _, mut w) = shapes();
    let u = Vector::<i64>::new(4);
    ops::mxv(
        &mut w,
        None,
        None,
        MinPlus::<i64>::new(),
        &a,
        &u,
        &Descriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "w.len() != A.ncols() (transposed mxv)")]
fn transposed_mxv_panics_on_w_length() {
    let (a, u, _) = shapes();
    let mut w = Vector::<i64>::new(3);
    let desc = Descriptor::DEFAULT.with_transpose();
    ops::mxv(&mut w, None, None, MinPlus::<i64>::new(), &a, &u, &desc);
}

#[test]
#[should_panic(expected = "u.len() != v.len()")]
fn ewise_add_panics_on_lengths() {
    let (_, u, v) = shapes();
    let mut w = Vector::<i64>::new(3);
    ops::ewise_add(
        &mut w,
        None,
        None,
        &Plus::<i64>::new(),
        &u,
        &v,
        &Descriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "w.len() != u.len()")]
fn ewise_mult_panics_on_w_length() {
    let (_, u, _) = shapes();
    let mut w = Vector::<i64>::new(4);
    ops::ewise_mult(
        &mut w,
        None,
        None,
        &Plus::<i64>::new(),
        &u,
        &u,
        &Descriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "w.len() != u.len()")]
fn apply_panics_on_w_length() {
    let (_, u, mut w) = shapes();
    ops::apply(&mut w, None, None, |x: i64| x, &u, &Descriptor::DEFAULT);
}

#[test]
#[should_panic(expected = "w.len() != u.len()")]
fn select_panics_on_w_length() {
    let (_, u, mut w) = shapes();
    ops::select(&mut w, None, None, |_, _| true, &u, &Descriptor::DEFAULT);
}

#[test]
#[should_panic(expected = "w.len() != u.len()")]
fn assign_panics_on_w_length() {
    let (_, u, mut w) = shapes();
    ops::assign(&mut w, None, None, &u, &Descriptor::DEFAULT);
}

#[test]
#[should_panic(expected = "mask.len() != w.len()")]
fn assign_scalar_panics_on_mask_length() {
    let (_, u, mut w) = shapes();
    let mask = Mask::structure(&u);
    ops::assign_scalar(&mut w, Some(&mask), None, 1, &Descriptor::DEFAULT);
}

/// `w = w (.) u` into a dense `w` long enough for the parallel blocks, with `u` dense, a
/// bitmap of full and partial words, and sparse: every index gets `minus(w, u)` where
/// `u` has an entry and keeps `w` elsewhere, for 1 and 3 threads.
#[test]
fn accumulate_into_long_dense_vectors() {
    let n = (1 << 18) + 77;
    let mut r = Rng::new(7);
    let w0: Vec<i64> = (0..n).map(|_| r.below(1000) as i64).collect();
    let full: Vec<i64> = (0..n).map(|_| r.below(1000) as i64).collect();
    // Runs of entries (whole 64-bit words present) and scattered ones.
    let pairs: Vec<(Index, i64)> = (0..n)
        .filter(|&i| (i / 640) % 3 == 0 || r.chance(0.3))
        .map(|i| (i as Index, full[i]))
        .collect();
    let bitmap: Vector<i64> = Vector::from_pairs(n, pairs.iter().copied())
        .into_bitmap()
        .into();
    let sparse = Vector::Sparse(SparseVector::from_pairs(n, pairs.iter().copied()));
    let dense = Vector::from_dense(full.clone());
    for (what, u) in [("dense", &dense), ("bitmap", &bitmap), ("sparse", &sparse)] {
        let mut want = w0.clone();
        for (i, x) in u.to_pairs() {
            want[i as usize] = minus(want[i as usize], x);
        }
        for threads in [1, 3] {
            let mut w = Vector::from_dense(w0.clone());
            pool(threads)
                .install(|| ops::assign(&mut w, None, Some(&minus), u, &Descriptor::DEFAULT));
            assert_eq!(w.format_name(), "dense", "{what}");
            assert_eq!(
                w.into_dense(0).into_vec(),
                want,
                "{what}, {threads} threads"
            );
        }
    }
}

/// `ewise_mult` of a long sparse vector with a dense one (the parallel walk) and with a
/// bitmap (the filtering walk), both operand orders, against the entry-by-entry
/// definition, at 1 and 3 threads.
#[test]
fn ewise_mult_of_a_long_sparse_vector_with_a_dense_or_bitmap_one() {
    let n = 200_000;
    let mut r = Rng::new(17);
    let sparse: Vec<(Index, f64)> = (0..n as Index)
        .filter(|_| r.below(4) == 0)
        .map(|i| (i, 1.0 + (i % 13) as f64))
        .collect();
    let s = Vector::from_pairs(n, sparse.iter().copied());
    let dense = Vector::from_dense((0..n).map(|i| 0.5 + (i % 7) as f64).collect());
    let bitmap = {
        let mut b = Vector::from_pairs(n, (0..n as Index).step_by(3).map(|i| (i, i as f64)));
        b.make_bitmap();
        b
    };
    assert_eq!(
        (dense.format_name(), bitmap.format_name()),
        ("dense", "bitmap")
    );
    for other in [&dense, &bitmap] {
        let want: Vec<(Index, f64)> = sparse
            .iter()
            .filter_map(|&(i, x)| other.get(i as usize).map(|y| (i, x / y)))
            .collect();
        let want_rev: Vec<(Index, f64)> = sparse
            .iter()
            .filter_map(|&(i, x)| other.get(i as usize).map(|y| (i, y / x)))
            .collect();
        for threads in [1, 3] {
            pool(threads).install(|| {
                let mut w = Vector::new(n);
                let d = Descriptor::DEFAULT;
                ops::ewise_mult(&mut w, None, None, &Div::<f64>::new(), &s, other, &d);
                assert_eq!(w.to_pairs(), want, "sparse ./ other at {threads} threads");
                ops::ewise_mult(&mut w, None, None, &Div::<f64>::new(), other, &s, &d);
                assert_eq!(
                    w.to_pairs(),
                    want_rev,
                    "other ./ sparse at {threads} threads"
                );
            });
        }
    }
}

/// `w += f(i, u(i))` into a long dense `w` with no mask (applied straight into `w`, in
/// parallel blocks): every form of `u`, with full and partial bitmap words, against the
/// entry-by-entry definition, at 1 and 3 threads.
#[test]
fn apply_accumulated_into_a_long_dense_vector() {
    let n = 300_000;
    let f = |i: Index, x: i64| x * 3 - i as i64;
    let w0: Vec<i64> = (0..n as i64).map(|i| i % 11).collect();
    // Whole bitmap words (the first 64 K indices), then every third index.
    let pairs = |i: usize| i < 65_536 || i.is_multiple_of(3);
    let sparse = Vector::from_pairs(
        n,
        (0..n)
            .filter(|&i| pairs(i))
            .map(|i| (i as Index, (i % 5) as i64)),
    );
    let mut bitmap = sparse.clone();
    bitmap.make_bitmap();
    let dense = Vector::from_dense((0..n).map(|i| (i % 5) as i64).collect());
    for u in [&sparse, &bitmap, &dense] {
        let mut want = w0.clone();
        for (i, x) in u.to_pairs() {
            want[i as usize] += f(i, x);
        }
        for threads in [1, 3] {
            pool(threads).install(|| {
                let mut w = Vector::from_dense(w0.clone());
                let plus = Plus::<i64>::new();
                ops::apply_indexed(&mut w, None, Some(&plus), f, u, &Descriptor::DEFAULT);
                assert_eq!(w.format_name(), "dense");
                let got: Vec<i64> = (0..n).map(|i| w.get(i).unwrap()).collect();
                assert!(got == want, "{} u at {threads} threads", u.format_name());
            });
        }
    }
}

/// A vector holding every index acts the same in every form: as a structural mask,
/// plain or complemented, of `assign` and `apply` (a full sparse or bitmap vector is
/// read as "all"), and as the sparse operand of `ewise_mult` with a dense one (the
/// result is then dense). A mask that allows nothing (a full vector complemented, an
/// empty list) leaves `w` as GraphBLAS says: cleared under replace, untouched otherwise.
#[test]
fn full_vectors_in_every_form_and_masks_that_allow_nothing() {
    let n = 3000;
    let values: Vec<i64> = (0..n as i64).map(|i| i % 7 - 3).collect();
    let dense = Vector::from_dense(values.clone());
    let sparse = Vector::from_pairs(n, (0..n as Index).map(|i| (i, values[i as usize])));
    let mut bitmap = sparse.clone();
    bitmap.make_bitmap();
    let u = Vector::from_pairs(n, (0..n as Index).step_by(3).map(|i| (i, i as i64)));
    let w0 = Vector::from_pairs(n, (0..n as Index).step_by(2).map(|i| (i, -(i as i64))));
    let plus = Plus::<i64>::new();
    for replace in [false, true] {
        let desc = if replace {
            Descriptor::DEFAULT.with_replace()
        } else {
            Descriptor::DEFAULT
        };
        for accum in [None, Some(&plus as &dyn BinaryOp<i64, i64, Output = i64>)] {
            for complement in [false, true] {
                let run = |m: &Vector<i64>| {
                    let mask = Mask::structure(m);
                    let mask = if complement { mask.complement() } else { mask };
                    let mut a = w0.clone();
                    ops::assign(&mut a, Some(&mask), accum, &u, &desc);
                    let mut b = w0.clone();
                    ops::apply(&mut b, Some(&mask), accum, |x: i64| 2 * x, &u, &desc);
                    (a.to_pairs(), b.to_pairs())
                };
                let want = run(&dense);
                let what = format!(
                    "replace {replace} accum {} complement {complement}",
                    accum.is_some()
                );
                assert_eq!(run(&sparse), want, "sparse mask, {what}");
                assert_eq!(run(&bitmap), want, "bitmap mask, {what}");
                if !complement && accum.is_none() {
                    // Everything allowed: w becomes u (and 2u).
                    let doubled: Vec<(Index, i64)> =
                        u.to_pairs().into_iter().map(|(i, x)| (i, 2 * x)).collect();
                    assert_eq!(want, (u.to_pairs(), doubled), "{what}");
                }
                if complement {
                    // Nothing allowed.
                    let nothing = if replace { Vec::new() } else { w0.to_pairs() };
                    assert_eq!(want.0, nothing, "{what}");
                    assert_eq!(want.1, nothing, "{what}");
                }
            }
            // An empty list allows nothing; so does an empty bitmap, by the general path.
            let empty = Vector::<i64>::new(n);
            let mut empty_bits = empty.clone();
            empty_bits.make_bitmap();
            for m in [&empty, &empty_bits] {
                let mut a = w0.clone();
                ops::assign(&mut a, Some(&Mask::structure(m)), accum, &u, &desc);
                let nothing = if replace { Vec::new() } else { w0.to_pairs() };
                assert_eq!(a.to_pairs(), nothing, "{} empty mask", m.format_name());
            }
        }
    }
    // ewise_mult of a full sparse vector and a dense one: dense, with every product.
    for threads in [1, 3] {
        let t = pool(threads).install(|| {
            let mut t = Vector::new(n);
            ops::ewise_mult(
                &mut t,
                None,
                None,
                &Times::<i64>::new(),
                &sparse,
                &dense,
                &Descriptor::DEFAULT,
            );
            t
        });
        assert_eq!(t.format_name(), "dense", "{threads} threads");
        let want: Vec<(Index, i64)> = (0..n)
            .map(|i| (i as Index, values[i] * values[i]))
            .collect();
        assert_eq!(t.to_pairs(), want, "{threads} threads");
    }
}

/// Long vectors, where `select` filters blocks in parallel and joins them, and where
/// `assign` writes a sparse `u` into a dense `w` through `u`'s own structure (the
/// Bellman-Ford step `dist<s(f)> min= f`) without copying `u`: both against a
/// sequential filter and an entry-by-entry combine, in every form, at 1 to 3 threads.
#[test]
fn long_vectors_select_in_parallel_and_assign_through_their_own_structure() {
    let n = 300_000;
    let mut r = Rng::new(0x005e_1ec7);
    for form in [Form::Sparse, Form::Bitmap, Form::Dense] {
        let mut pairs: Vec<(Index, i64)> = Vec::new();
        for i in 0..n as Index {
            if matches!(form, Form::Dense) || r.chance(0.6) {
                pairs.push((i, r.below(1000) as i64 - 500));
            }
        }
        let mut u = Vector::from_pairs(n, pairs.clone());
        match form {
            Form::Sparse => u.make_sparse(),
            Form::Bitmap => u.make_bitmap(),
            Form::Dense => u = Vector::from_dense(pairs.iter().map(|p| p.1).collect()),
        }
        let keep = |i: Index, x: i64| (i % 7 == 3) != (x > 100);
        let want: Vec<(Index, i64)> = pairs.iter().copied().filter(|&(i, x)| keep(i, x)).collect();
        let base: Vec<i64> = (0..n).map(|i| (i % 1000) as i64 - 500).collect();
        for threads in [1, 2, 3] {
            pool(threads).install(|| {
                let mut f = Vector::from_pairs(n, [(0, 1)]);
                ops::select(
                    &mut f,
                    None,
                    None,
                    keep,
                    &u,
                    &Descriptor::DEFAULT.with_replace(),
                );
                assert_eq!(f.to_pairs(), want, "select, {form:?}, {threads} threads");

                let mut w = Vector::from_dense(base.clone());
                let min = Min::<i64>::new();
                ops::assign(
                    &mut w,
                    Some(&Mask::structure(&f)),
                    Some(&min),
                    &f,
                    &Descriptor::DEFAULT,
                );
                let mut expected = base.clone();
                for &(i, x) in &want {
                    expected[i as usize] = expected[i as usize].min(x);
                }
                assert_eq!(w.to_pairs(), Vector::from_dense(expected).to_pairs());
                assert_eq!(w.format_name(), "dense", "the dense w stays dense");
            });
        }
    }
}
