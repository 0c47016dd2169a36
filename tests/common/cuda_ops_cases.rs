//! The device algebra's test cases, shared by the host build (tests/cuda_host_ops.rs)
//! and the GPU (tests/cuda_ops_gpu.rs): random matrices, vectors and masks, every
//! built-in semiring over every type it takes, `mxv` and `vxm` in both directions, every
//! mask form (none, structural, valued over several types, complemented), accumulators
//! and replace; `ewise_add`, `ewise_mult`, `apply`, `assign` and `reduce`; each result
//! compared with the CPU's `edgeblas::ops`. Exact monoids must give the CPU's bytes;
//! float PLUS sums agree within a relative 1e-9 (f64) or 1e-4 (f32).
//!
//! Included next to `oracle.rs` and `random.rs`.

#![allow(dead_code)]

use edgeblas::algebra::*;
use edgeblas::cuda::{DeviceValue, UnaryOp};
use edgeblas::descriptor::{Descriptor, Mask};
use edgeblas::matrix::Csr;
use edgeblas::ops;
use edgeblas::vector::Vector;

use super::random::{self, Rng};

/// A mask as a runner builds its own: the vector, structure or values, complemented.
pub struct MaskArg<'a> {
    /// The mask vector.
    pub v: &'a MaskVec,
    /// Structural (else valued).
    pub structure: bool,
    /// Complemented.
    pub complement: bool,
}

/// Where the device algebra runs: the host build or a GPU, on host operands.
pub trait Runner {
    /// `cuda::ops::mxv`.
    #[allow(clippy::too_many_arguments)]
    fn mxv<S, A, U>(
        &self,
        w: &mut Vector<S::Output>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, S::Output>,
        s: S,
        a: &Csr<A>,
        u: &Vector<U>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>
    where
        S: Semiring<A, U> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        U: DeviceValue;
    /// `cuda::ops::vxm`.
    #[allow(clippy::too_many_arguments)]
    fn vxm<S, A, U>(
        &self,
        w: &mut Vector<S::Output>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, S::Output>,
        s: S,
        u: &Vector<U>,
        a: &Csr<A>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>
    where
        S: Semiring<A, U> + 'static,
        S::Output: DeviceValue,
        A: DeviceValue,
        U: DeviceValue;
    /// `cuda::ops::ewise_add`.
    #[allow(clippy::too_many_arguments)]
    fn ewise_add<T: DeviceValue, O: BinaryOp<T, T, Output = T>>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        op: &O,
        u: &Vector<T>,
        v: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>;
    /// `cuda::ops::ewise_mult`.
    #[allow(clippy::too_many_arguments)]
    fn ewise_mult<T: DeviceValue, O: BinaryOp<T, T, Output = T>>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        op: &O,
        u: &Vector<T>,
        v: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>;
    /// `cuda::ops::apply`.
    fn apply<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        f: UnaryOp<'_, T>,
        u: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>;
    /// `cuda::ops::assign`.
    fn assign<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        u: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>;
    /// `cuda::ops::select`.
    fn select<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        pred: edgeblas::cuda::SelectOp<T>,
        u: &Vector<T>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>;
    /// `cuda::ops::assign_scalar`.
    fn assign_scalar<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        x: T,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>;
    /// `cuda::ops::reduce`.
    fn reduce<T: DeviceValue, M: Monoid<T> + 'static>(
        &self,
        m: M,
        u: &Vector<T>,
    ) -> edgeblas::Result<T>;
    /// `cuda::ops::extract`, the indices a vector.
    fn extract<T: DeviceValue>(
        &self,
        w: &mut Vector<T>,
        mask: Option<&MaskArg<'_>>,
        accum: Accum<'_, T>,
        u: &Vector<T>,
        indices: &Vector<Index>,
        desc: &Descriptor,
    ) -> edgeblas::Result<()>;
    /// `cuda::ops::assign_reduce`, the indices a vector.
    fn assign_reduce<T: DeviceValue, M: Monoid<T> + 'static>(
        &self,
        w: &mut Vector<T>,
        m: M,
        u: &Vector<T>,
        indices: &Vector<Index>,
    ) -> edgeblas::Result<()>;
}

/// A value the tests compare: exactly (bytes) or within the float order rule.
pub trait Same: DeviceValue + PartialOrd {
    fn same(a: Self, b: Self, exact: bool) -> bool;
    /// A random value (small, with the type's extremes now and then).
    fn random(r: &mut Rng) -> Self;
}

macro_rules! same_int {
    ($($t:ty: $lo:expr, $hi:expr);*) => {$(
        impl Same for $t {
            fn same(a: Self, b: Self, _exact: bool) -> bool {
                a == b
            }
            fn random(r: &mut Rng) -> Self {
                match r.below(40) {
                    0 => <$t>::MAX,
                    1 => <$t>::MIN,
                    _ => r.range($lo, $hi) as $t,
                }
            }
        }
    )*};
}
same_int!(u32: 0, 40; u64: 0, 40; i32: -20, 20; i64: -20, 20);

macro_rules! same_float {
    ($($t:ty: $tol:expr);*) => {$(
        impl Same for $t {
            fn same(a: Self, b: Self, exact: bool) -> bool {
                if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) {
                    return true;
                }
                if exact {
                    return false;
                }
                if a == b {
                    return true; // 0.0 and -0.0: a sum started from the identity
                }
                let scale = a.abs().max(b.abs()).max(1.0);
                (a - b).abs() <= $tol * scale
            }
            fn random(r: &mut Rng) -> Self {
                match r.below(40) {
                    0 => <$t>::INFINITY,
                    1 => <$t>::NEG_INFINITY,
                    _ => r.range(-200, 200) as $t / 7.0,
                }
            }
        }
    )*};
}
same_float!(f32: 1e-4; f64: 1e-9);

impl Same for bool {
    fn same(a: Self, b: Self, _exact: bool) -> bool {
        a == b
    }
    fn random(r: &mut Rng) -> Self {
        r.chance(0.6)
    }
}

impl Same for () {
    fn same(_: Self, _: Self, _: bool) -> bool {
        true
    }
    fn random(_: &mut Rng) -> Self {}
}

fn assert_same<T: Same>(cpu: &Vector<T>, dev: &Vector<T>, exact: bool, what: &str) {
    let (c, d) = (cpu.to_pairs(), dev.to_pairs());
    let ci: Vec<Index> = c.iter().map(|p| p.0).collect();
    let di: Vec<Index> = d.iter().map(|p| p.0).collect();
    assert_eq!(ci, di, "{what}: the entries' indices differ");
    for ((i, x), (_, y)) in c.iter().zip(&d) {
        assert!(
            T::same(*x, *y, exact),
            "{what}: entry {i}: CPU {x:?}, device (host build) {y:?}"
        );
    }
}

fn random_vector<T: Same>(r: &mut Rng, len: usize) -> Vector<T> {
    let (v, form) = random::vector_case(r, len, T::random);
    random::to_vector(&v, form, T::default())
}

fn random_matrix<T: Same>(r: &mut Rng, m: usize, n: usize) -> Csr<T> {
    let d = random::density(r);
    let a = random::mat(r, m, n, d, T::random);
    random::to_csr(&a, n)
}

/// A mask vector of one of several types (the valued test reads each type's zero).
pub enum MaskVec {
    Unit(Vector<()>),
    Bool(Vector<bool>),
    I32(Vector<i32>),
    U32(Vector<u32>),
    F64(Vector<f64>),
}

impl MaskVec {
    fn random(r: &mut Rng, len: usize) -> Self {
        match r.below(4) {
            0 => MaskVec::Unit(random_vector(r, len)),
            1 => MaskVec::Bool(random_vector(r, len)),
            2 => {
                let (v, f) = random::vector_case(r, len, |r| r.range(-1, 1) as i32);
                MaskVec::I32(random::to_vector(&v, f, 7))
            }
            _ => {
                let (v, f) = random::vector_case(r, len, |r| r.pick(&[0.0, -0.0, 0.5, f64::NAN]));
                MaskVec::F64(random::to_vector(&v, f, 1.0))
            }
        }
    }

    /// The CPU mask of this vector.
    pub fn mask(&self, structure: bool, complement: bool) -> Mask<'_> {
        fn one<T: DeviceValue + Truthy>(
            v: &Vector<T>,
            structure: bool,
            complement: bool,
        ) -> Mask<'_> {
            let m = if structure {
                Mask::structure(v)
            } else {
                Mask::values(v)
            };
            if complement { m.complement() } else { m }
        }
        match self {
            MaskVec::Unit(v) => one(v, structure, complement),
            MaskVec::Bool(v) => one(v, structure, complement),
            MaskVec::I32(v) => one(v, structure, complement),
            MaskVec::U32(v) => one(v, structure, complement),
            MaskVec::F64(v) => one(v, structure, complement),
        }
    }
}

/// One random product case of semiring `s`: `mxv` or `vxm`, either direction, a random
/// mask, accumulator, replace and initial `w`; the host build against the CPU.
fn product_case<R: Runner, S, A, U>(
    run: &R,
    r: &mut Rng,
    name: &str,
    s: S,
    accums: &[&dyn BinaryOp<S::Output, S::Output, Output = S::Output>],
    exact: bool,
) where
    S: Semiring<A, U> + 'static,
    S::Output: Same,
    A: Same,
    U: Same,
{
    let (m, n) = random::shape(r);
    let a: Csr<A> = random_matrix(r, m, n);
    let pull = r.chance(0.5);
    let transpose = r.chance(0.3);
    // mxv: u has A's columns; vxm: A's rows; transposing swaps them.
    let (ulen, wlen) = if pull != transpose { (n, m) } else { (m, n) };
    let u: Vector<U> = random_vector(r, ulen);
    let w0: Vector<S::Output> = if r.chance(0.4) {
        Vector::new(wlen)
    } else {
        random_vector(r, wlen)
    };
    let mv = r.chance(0.7).then(|| MaskVec::random(r, wlen));
    let (structure, complement) = (r.chance(0.5), r.chance(0.5));
    let cm_own = mv.as_ref().map(|v| v.mask(structure, complement));
    let hm_own = mv.as_ref().map(|v| MaskArg {
        v,
        structure,
        complement,
    });
    let accum = if r.chance(0.5) {
        None
    } else {
        Some(accums[r.below(accums.len())])
    };
    let desc = Descriptor {
        replace: r.chance(0.3),
        transpose,
    };
    let what = format!(
        "{name}: {} {m}x{n} nnz {} u {} w {} mask {:?} accum {} {desc:?}",
        if pull { "mxv" } else { "vxm" },
        a.nnz(),
        u.nvals(),
        w0.nvals(),
        mv.as_ref().map(|_| (structure, complement)),
        accum.is_some(),
    );
    let (mut cpu, mut dev) = (w0.clone(), w0);
    let (cm, hm) = (cm_own.as_ref(), hm_own.as_ref());
    if pull {
        ops::mxv(&mut cpu, cm, accum, s, &a, &u, &desc);
        run.mxv(&mut dev, hm, accum, s, &a, &u, &desc).unwrap();
    } else {
        ops::vxm(&mut cpu, cm, accum, s, &u, &a, &desc);
        run.vxm(&mut dev, hm, accum, s, &u, &a, &desc).unwrap();
    }
    assert_same(&cpu, &dev, exact, &what);
}

const CASES: usize = 40;

fn products<R: Runner, S, A, U>(
    run: &R,
    seed: u64,
    name: &str,
    s: S,
    accums: &[&dyn BinaryOp<S::Output, S::Output, Output = S::Output>],
    exact: bool,
) where
    S: Semiring<A, U> + 'static,
    S::Output: Same,
    A: Same,
    U: Same,
{
    let mut r = Rng::new(seed);
    for _ in 0..CASES {
        product_case::<R, S, A, U>(run, &mut r, name, s, accums, exact);
    }
}

/// Every arithmetic semiring over `T`, with MIN, MAX and PLUS accumulators.
pub fn arith_semirings<R: Runner, T: Same + Number>(run: &R, seed: u64, ty: &str, float: bool)
where
    Min<T>: BinaryOp<T, T, Output = T>,
{
    let (min, max, plus) = (Min::<T>::new(), Max::<T>::new(), Plus::<T>::new());
    let acc: [&dyn BinaryOp<T, T, Output = T>; 3] = [&min, &max, &plus];
    let sum_exact = !float;
    products::<R, _, T, T>(
        run,
        seed,
        &format!("MinPlus<{ty}>"),
        MinPlus::<T>::new(),
        &acc,
        true,
    );
    products::<R, _, T, T>(
        run,
        seed + 1,
        &format!("MaxPlus<{ty}>"),
        MaxPlus::<T>::new(),
        &acc,
        true,
    );
    products::<R, _, T, T>(
        run,
        seed + 2,
        &format!("PlusTimes<{ty}>"),
        PlusTimes::<T>::new(),
        &acc,
        sum_exact,
    );
    products::<R, _, T, T>(
        run,
        seed + 3,
        &format!("MaxTimes<{ty}>"),
        MaxTimes::<T>::new(),
        &acc,
        true,
    );
    products::<R, _, T, T>(
        run,
        seed + 4,
        &format!("MinMax<{ty}>"),
        MinMax::<T>::new(),
        &acc,
        true,
    );
    products::<R, _, (), bool>(
        run,
        seed + 5,
        &format!("PlusPair<{ty}>"),
        PlusPair::<T>::new(),
        &acc,
        sum_exact,
    );
    products::<R, _, T, bool>(
        run,
        seed + 6,
        &format!("PlusFirst<{ty}>"),
        PlusFirst::<T>::new(),
        &acc,
        sum_exact,
    );
    products::<R, _, T, ()>(
        run,
        seed + 7,
        &format!("MinFirst<{ty}>"),
        MinFirst::<T>::new(),
        &acc,
        true,
    );
    products::<R, _, T, T>(
        run,
        seed + 8,
        &format!("MaxFirst<{ty}>"),
        MaxFirst::<T>::new(),
        &acc,
        true,
    );
    products::<R, _, (), T>(
        run,
        seed + 9,
        &format!("PlusSecond<{ty}>"),
        PlusSecond::<T>::new(),
        &acc,
        sum_exact,
    );
    products::<R, _, bool, T>(
        run,
        seed + 10,
        &format!("MinSecond<{ty}>"),
        MinSecond::<T>::new(),
        &acc,
        true,
    );
    products::<R, _, T, T>(
        run,
        seed + 11,
        &format!("MaxSecond<{ty}>"),
        MaxSecond::<T>::new(),
        &acc,
        true,
    );
}

/// The Boolean and positional semirings (OrAnd, AnyPair, MinSecondI, AnySecondI).
pub fn boolean_and_positional<R: Runner>(run: &R) {
    let (lor, land, lxor) = (Lor, Land, Lxor);
    let b: [&dyn BinaryOp<bool, bool, Output = bool>; 3] = [&lor, &land, &lxor];
    products::<R, _, (), bool>(run, 700, "OrAnd over a pattern", OrAnd, &b, true);
    products::<R, _, bool, bool>(run, 701, "OrAnd over bool", OrAnd, &b, true);
    products::<R, _, (), ()>(run, 702, "OrAnd over patterns", OrAnd, &b, true);
    products::<R, _, f64, i32>(run, 703, "AnyPair", AnyPair, &b, true);
    let (min, max, plus) = (Min::<u32>::new(), Max::<u32>::new(), Plus::<u32>::new());
    let i: [&dyn BinaryOp<u32, u32, Output = u32>; 3] = [&min, &max, &plus];
    products::<R, _, (), ()>(run, 704, "MinSecondI", MinSecondI, &i, true);
    products::<R, _, f64, bool>(run, 705, "MinSecondI over values", MinSecondI, &i, true);
    products::<R, _, (), ()>(run, 706, "AnySecondI", AnySecondI, &i, true);
    products::<R, _, i64, u64>(run, 707, "AnySecondI over values", AnySecondI, &i, true);
}

/// A unary operator: its name, the device form and the CPU closure.
pub type Unary<'a, T> = (&'a str, UnaryOp<'a, T>, &'a (dyn Fn(T) -> T + Sync));

/// Element-wise, apply, assign and reduce over `T` with the given operators.
fn elementwise<R: Runner, T: Same>(
    run: &R,
    seed: u64,
    ty: &str,
    binops: &[(&str, &dyn BinaryOp<T, T, Output = T>)],
    unary: &[Unary<'_, T>],
    monoids: &dyn Fn(&Vector<T>),
    exact: bool,
) {
    let mut r = Rng::new(seed);
    for case in 0..CASES * 3 {
        let n = if r.chance(0.1) {
            r.range(2000, 5000) as usize
        } else {
            random::dim(&mut r)
        };
        let u: Vector<T> = random_vector(&mut r, n);
        let v: Vector<T> = random_vector(&mut r, n);
        let w0: Vector<T> = if r.chance(0.4) {
            Vector::new(n)
        } else {
            random_vector(&mut r, n)
        };
        let mv = r.chance(0.7).then(|| MaskVec::random(&mut r, n));
        let (structure, complement) = (r.chance(0.5), r.chance(0.5));
        let cm_own = mv.as_ref().map(|v| v.mask(structure, complement));
        let hm_own = mv.as_ref().map(|v| MaskArg {
            v,
            structure,
            complement,
        });
        let (cm, hm) = (cm_own.as_ref(), hm_own.as_ref());
        let accum = if r.chance(0.5) {
            None
        } else {
            Some(binops[r.below(binops.len())].1)
        };
        let desc = Descriptor {
            replace: r.chance(0.3),
            transpose: false,
        };
        let (opname, op) = binops[r.below(binops.len())];
        let what = |f: &str| {
            format!(
                "{ty} case {case} {f} n {n} op {opname} mask {:?} accum {} {desc:?}",
                mv.as_ref().map(|_| (structure, complement)),
                accum.is_some()
            )
        };
        // ewise_add and ewise_mult: the operator through the trait object's built-in.
        struct Op<'a, T>(&'a dyn BinaryOp<T, T, Output = T>);
        impl<T> BinaryOp<T, T> for Op<'_, T> {
            type Output = T;
            fn apply(&self, x: T, y: T) -> T {
                self.0.apply(x, y)
            }
            fn op_code(&self) -> u32 {
                self.0.op_code()
            }
        }
        let (mut c, mut d) = (w0.clone(), w0.clone());
        ops::ewise_add(&mut c, cm, accum, &Op(op), &u, &v, &desc);
        run.ewise_add(&mut d, hm, accum, &Op(op), &u, &v, &desc)
            .unwrap();
        assert_same(&c, &d, true, &what("ewise_add"));
        let (mut c, mut d) = (w0.clone(), w0.clone());
        ops::ewise_mult(&mut c, cm, accum, &Op(op), &u, &v, &desc);
        run.ewise_mult(&mut d, hm, accum, &Op(op), &u, &v, &desc)
            .unwrap();
        assert_same(&c, &d, true, &what("ewise_mult"));
        let (uname, f, cpu_f) = unary[r.below(unary.len())];
        let (mut c, mut d) = (w0.clone(), w0.clone());
        ops::apply(&mut c, cm, accum, cpu_f, &u, &desc);
        run.apply(&mut d, hm, accum, f, &u, &desc).unwrap();
        assert_same(&c, &d, true, &what(&format!("apply {uname}")));
        let (mut c, mut d) = (w0.clone(), w0.clone());
        ops::assign(&mut c, cm, accum, &u, &desc);
        run.assign(&mut d, hm, accum, &u, &desc).unwrap();
        assert_same(&c, &d, true, &what("assign"));
        let x = T::random(&mut r);
        let k = r.below(n + 1) as Index;
        use edgeblas::cuda::SelectOp as P;
        let preds = [
            P::ValueEq(x),
            P::ValueNe(x),
            P::ValueLt(x),
            P::ValueLe(x),
            P::ValueGt(x),
            P::ValueGe(x),
            P::IndexLt(k),
            P::IndexGe(k),
        ];
        let pred = preds[r.below(preds.len())];
        let (mut c, mut d) = (w0.clone(), w0.clone());
        ops::select(&mut c, cm, accum, |i, y| pred.holds(i, y), &u, &desc);
        run.select(&mut d, hm, accum, pred, &u, &desc).unwrap();
        assert_same(&c, &d, true, &what(&format!("select {pred:?}")));
        let (mut c, mut d) = (w0.clone(), w0.clone());
        ops::assign_scalar(&mut c, cm, accum, x, &desc);
        run.assign_scalar(&mut d, hm, accum, x, &desc).unwrap();
        assert_same(&c, &d, true, &what("assign_scalar"));
        monoids(&u);
    }
    let _ = exact;
}

fn reduce_same<R: Runner, T: Same, M: Monoid<T> + 'static>(
    run: &R,
    m: M,
    u: &Vector<T>,
    exact: bool,
    what: &str,
) {
    let c = ops::reduce(m, u);
    let d = run.reduce(m, u).unwrap();
    assert!(
        T::same(c, d, exact),
        "reduce {what} over {} entries of {}: CPU {c:?}, host build {d:?}",
        u.nvals(),
        u.len()
    );
}

macro_rules! numeric_elementwise {
    ($name:ident, $t:ty, $seed:expr, $float:expr, |$x:ident| $neg:expr, |$y:ident| $abs:expr) => {
        /// Element-wise operations, apply, assign and reduce over the type.
        pub fn $name<R: Runner>(run: &R) {
            let (plus, times, min, max) = (
                Plus::<$t>::new(),
                Times::<$t>::new(),
                Min::<$t>::new(),
                Max::<$t>::new(),
            );
            let (minus, rminus, div, rdiv) = (
                Minus::<$t>::new(),
                Rminus::<$t>::new(),
                Div::<$t>::new(),
                Rdiv::<$t>::new(),
            );
            let (first, second, any, pair) = (
                First::<$t>::new(),
                Second::<$t>::new(),
                Any::<$t>::new(),
                Pair::<$t>::new(),
            );
            let binops: Vec<(&str, &dyn BinaryOp<$t, $t, Output = $t>)> = vec![
                ("plus", &plus),
                ("times", &times),
                ("min", &min),
                ("max", &max),
                ("minus", &minus),
                ("rminus", &rminus),
                ("div", &div),
                ("rdiv", &rdiv),
                ("first", &first),
                ("second", &second),
                ("any", &any),
                ("pair", &pair),
            ];
            let c: $t = 3 as $t;
            let neg = |$x: $t| -> $t { $neg };
            let abs = |$y: $t| -> $t { $abs };
            let id = |x: $t| x;
            let one = |_: $t| 1 as $t;
            let b1 = bind_first(Minus::<$t>::new(), c);
            let b2 = bind_second(Div::<$t>::new(), c);
            let unary: Vec<Unary<'_, $t>> = vec![
                ("identity", UnaryOp::Identity, &id),
                ("ainv", UnaryOp::Ainv, &neg),
                ("abs", UnaryOp::Abs, &abs),
                ("one", UnaryOp::One, &one),
                ("bind_first minus", UnaryOp::BindFirst(&minus, c), &b1),
                ("bind_second div", UnaryOp::BindSecond(&div, c), &b2),
            ];
            let float: bool = $float;
            elementwise::<R, $t>(
                run,
                $seed,
                stringify!($t),
                &binops,
                &unary,
                &|u| {
                    reduce_same(run, Min::<$t>::new(), u, true, "min");
                    reduce_same(run, Max::<$t>::new(), u, true, "max");
                    reduce_same(run, Plus::<$t>::new(), u, !float, "plus");
                    reduce_same(run, Times::<$t>::new(), u, !float, "times");
                    reduce_same(run, Any::<$t>::new(), u, true, "any");
                },
                true,
            );
        }
    };
}
numeric_elementwise!(
    elementwise_over_u32,
    u32,
    800,
    false,
    |x| x.wrapping_neg(),
    |x| x
);
numeric_elementwise!(
    elementwise_over_u64,
    u64,
    810,
    false,
    |x| x.wrapping_neg(),
    |x| x
);
numeric_elementwise!(
    elementwise_over_i32,
    i32,
    820,
    false,
    |x| x.wrapping_neg(),
    |x| x.wrapping_abs()
);
numeric_elementwise!(
    elementwise_over_i64,
    i64,
    830,
    false,
    |x| x.wrapping_neg(),
    |x| x.wrapping_abs()
);
numeric_elementwise!(elementwise_over_f32, f32, 840, true, |x| -x, |x| x.abs());
numeric_elementwise!(elementwise_over_f64, f64, 850, true, |x| -x, |x| x.abs());

/// Element-wise operations, apply, assign and reduce over bool.
pub fn elementwise_over_bool<R: Runner>(run: &R) {
    let (lor, land, lxor, first, second, any) = (
        Lor,
        Land,
        Lxor,
        First::<bool>::new(),
        Second::<bool>::new(),
        Any::<bool>::new(),
    );
    let binops: Vec<(&str, &dyn BinaryOp<bool, bool, Output = bool>)> = vec![
        ("lor", &lor),
        ("land", &land),
        ("lxor", &lxor),
        ("first", &first),
        ("second", &second),
        ("any", &any),
    ];
    let id = |x: bool| x;
    let b1 = bind_first(Land, true);
    let b2 = bind_second(Lxor, true);
    let unary: Vec<Unary<'_, bool>> = vec![
        ("identity", UnaryOp::Identity, &id),
        ("bind_first land", UnaryOp::BindFirst(&land, true), &b1),
        ("bind_second lxor", UnaryOp::BindSecond(&lxor, true), &b2),
    ];
    elementwise::<R, bool>(
        run,
        860,
        "bool",
        &binops,
        &unary,
        &|u| {
            reduce_same(run, Lor, u, true, "lor");
            reduce_same(run, Land, u, true, "land");
            reduce_same(run, Lxor, u, true, "lxor");
            reduce_same(run, Any::<bool>::new(), u, true, "any");
        },
        true,
    );
}

/// A device PageRank: graph, options, precision.
pub type PageRankRun<'a> = dyn Fn(
        &edgeblas::graph::Graph<'_, ()>,
        &edgeblas::algo::pagerank::PageRankOptions,
        edgeblas::algo::pagerank::Precision,
    ) -> edgeblas::Result<edgeblas::algo::pagerank::PageRank>
    + 'a;

/// PageRank on the device (`run`) against the CPU's `algo::pagerank_with` on random
/// directed graphs (with dangling vertices) and symmetric ones, in f64 and f32, for a
/// fixed count and to a tolerance: the same iterations, ranks within float rounding.
pub fn pagerank_cases(run: &PageRankRun) {
    use edgeblas::algo::pagerank::{PageRankOptions, Precision, Stop};
    use edgeblas::graph::Graph;
    use edgeblas::matrix::{CooBuilder, Duplicates};
    let mut r = Rng::new(900);
    for case in 0..24 {
        let n = [1, 2, 7, 64, 300, 2500, 5000][case % 7];
        let deg = r.range(0, 6) as usize;
        let a: Csr<()> = random::graph(&mut r, n, deg, |_| ());
        let sym = case % 3 == 0;
        let a = if sym {
            let mut b = CooBuilder::new(n, n);
            for i in 0..n {
                for &j in a.row(i).0 {
                    b.push(i, j as usize, ()).unwrap();
                    b.push(j as usize, i, ()).unwrap();
                }
            }
            b.build(Duplicates::KeepFirst).unwrap()
        } else {
            a
        };
        let g = if sym {
            Graph::symmetric(&a)
        } else {
            Graph::directed(&a)
        };
        let stop = if r.chance(0.5) {
            Stop::Iterations(r.range(1, 30) as usize)
        } else {
            Stop::Tolerance {
                tolerance: 1e-6,
                max_iterations: 100,
            }
        };
        let opts = PageRankOptions {
            damping: r.pick(&[0.85, 0.5, 1.0, 0.0]),
            stop,
        };
        for (precision, tol) in [(Precision::F64, 1e-12), (Precision::F32, 1e-5)] {
            let cpu = edgeblas::algo::pagerank_with(&g, &opts, precision).unwrap();
            let dev = run(&g, &opts, precision).unwrap();
            let what = format!(
                "case {case}: n {n} nnz {} sym {sym} {opts:?} {precision:?}",
                a.nnz()
            );
            assert_eq!(cpu.iterations, dev.iterations, "{what}: iterations");
            assert_eq!(cpu.ranks.len(), dev.ranks.len(), "{what}");
            for (i, (x, y)) in cpu.ranks.iter().zip(&dev.ranks).enumerate() {
                assert!(
                    (x - y).abs() <= tol * x.abs().max(1.0 / n as f64),
                    "{what}: rank {i}: CPU {x}, device {y}"
                );
            }
            assert!(
                (cpu.change - dev.change).abs() <= tol * cpu.change.max(1e-6) * n as f64,
                "{what}: change {} vs {}",
                cpu.change,
                dev.change
            );
        }
    }
}

/// A random index list of `len` entries below `bound` (repeats likely), and the same as a
/// dense vector.
fn random_indices(r: &mut Rng, len: usize, bound: usize) -> (Vec<Index>, Vector<Index>) {
    let list: Vec<Index> = (0..len)
        .map(|_| {
            if r.chance(0.3) {
                // a few hot targets: many terms land on one index
                r.below(bound.min(3)) as Index
            } else {
                r.below(bound) as Index
            }
        })
        .collect();
    let v = Vector::from_dense(list.clone());
    (list, v)
}

/// `extract` over type `T`: random `u`, index lists with repeats, masks, accumulators
/// and replace, against the CPU's `ops::extract`.
fn extract_cases<R: Runner, T: Same>(
    run: &R,
    r: &mut Rng,
    ty: &str,
    accum: &dyn BinaryOp<T, T, Output = T>,
) {
    for case in 0..CASES {
        let ulen = random::dim(r).max(1);
        let wlen = random::dim(r);
        let u: Vector<T> = random_vector(r, ulen);
        let (list, iv) = random_indices(r, wlen, ulen);
        let w0: Vector<T> = if r.chance(0.4) {
            Vector::new(wlen)
        } else {
            random_vector(r, wlen)
        };
        let mv = r.chance(0.6).then(|| MaskVec::random(r, wlen));
        let (structure, complement) = (r.chance(0.5), r.chance(0.5));
        let cm_own = mv.as_ref().map(|v| v.mask(structure, complement));
        let hm_own = mv.as_ref().map(|v| MaskArg {
            v,
            structure,
            complement,
        });
        let acc = r.chance(0.5).then_some(accum);
        let desc = Descriptor {
            replace: r.chance(0.3),
            transpose: false,
        };
        let what = format!(
            "extract {ty} case {case}: u {} of {ulen}, |I| {wlen}, w {} mask {:?} accum {} {desc:?}",
            u.nvals(),
            w0.nvals(),
            mv.as_ref().map(|_| (structure, complement)),
            acc.is_some()
        );
        let (mut cpu, mut dev) = (w0.clone(), w0);
        ops::extract(
            &mut cpu,
            cm_own.as_ref(),
            acc,
            &u,
            &Indices::List(&list),
            &desc,
        );
        run.extract(&mut dev, hm_own.as_ref(), acc, &u, &iv, &desc)
            .unwrap();
        assert_same(&cpu, &dev, true, &what);
    }
}

/// `assign_reduce` under monoid `m` over `T`: random `w`, `u` and index lists with
/// repeats (many terms on one index), against the CPU's `ops::assign_reduce`.
fn assign_reduce_cases<R: Runner, T: Same, M: Monoid<T> + 'static>(
    run: &R,
    r: &mut Rng,
    what: &str,
    m: M,
) {
    for case in 0..CASES {
        let wlen = random::dim(r).max(1);
        let ulen = random::dim(r);
        let u: Vector<T> = random_vector(r, ulen);
        let (list, iv) = random_indices(r, ulen, wlen);
        let w0: Vector<T> = if r.chance(0.3) {
            Vector::new(wlen)
        } else {
            random_vector(r, wlen)
        };
        let w = format!(
            "assign_reduce {what} case {case}: w {} of {wlen}, u {} of {ulen}",
            w0.nvals(),
            u.nvals()
        );
        let (mut cpu, mut dev) = (w0.clone(), w0);
        ops::assign_reduce(&mut cpu, m, &u, &Indices::List(&list));
        run.assign_reduce(&mut dev, m, &u, &iv).unwrap();
        assert_same(&cpu, &dev, true, &w);
    }
}

/// `extract` and `assign_reduce` with the index list on the device: every type for
/// `extract`, every monoid the device scatters with; bad index lists are errors.
pub fn indexed<R: Runner>(run: &R) {
    let mut r = Rng::new(950);
    extract_cases::<R, u32>(run, &mut r, "u32", &Min::<u32>::new());
    extract_cases::<R, u64>(run, &mut r, "u64", &Plus::<u64>::new());
    extract_cases::<R, i32>(run, &mut r, "i32", &Max::<i32>::new());
    extract_cases::<R, i64>(run, &mut r, "i64", &Minus::<i64>::new());
    extract_cases::<R, f32>(run, &mut r, "f32", &Min::<f32>::new());
    extract_cases::<R, f64>(run, &mut r, "f64", &Plus::<f64>::new());
    extract_cases::<R, bool>(run, &mut r, "bool", &Lor);
    extract_cases::<R, ()>(run, &mut r, "()", &First::<()>::new());
    macro_rules! int_monoids {
        ($($t:ty),*) => {$(
            assign_reduce_cases::<R, $t, _>(run, &mut r, concat!("min ", stringify!($t)), Min::<$t>::new());
            assign_reduce_cases::<R, $t, _>(run, &mut r, concat!("max ", stringify!($t)), Max::<$t>::new());
            assign_reduce_cases::<R, $t, _>(run, &mut r, concat!("plus ", stringify!($t)), Plus::<$t>::new());
            assign_reduce_cases::<R, $t, _>(run, &mut r, concat!("times ", stringify!($t)), Times::<$t>::new());
        )*};
    }
    int_monoids!(u32, u64, i32, i64);
    assign_reduce_cases::<R, bool, _>(run, &mut r, "lor", Lor);
    assign_reduce_cases::<R, bool, _>(run, &mut r, "land", Land);

    // An index past u (extract) or w (assign_reduce), or an absent one, is an error.
    let u: Vector<f64> = Vector::from_dense(vec![1.0, 2.0, 3.0]);
    let bad = Vector::from_dense(vec![0 as Index, 3]);
    let mut w: Vector<f64> = Vector::new(2);
    let d0 = Descriptor::DEFAULT;
    let e = run.extract(&mut w, None, None, &u, &bad, &d0).unwrap_err();
    assert!(
        matches!(&e, edgeblas::Error::InvalidArgument(m) if m.contains("index 3 is out of bounds for length 3")),
        "{e}"
    );
    let holey: Vector<Index> = Vector::from_pairs(2, [(1, 0)]);
    let e = run
        .extract(&mut w, None, None, &u, &holey, &d0)
        .unwrap_err();
    assert!(
        matches!(&e, edgeblas::Error::InvalidArgument(m) if m.contains("1 of its 2 entries")),
        "{e}"
    );
    let mut wi: Vector<u32> = Vector::new(3);
    let ui: Vector<u32> = Vector::from_dense(vec![5, 6]);
    let e = run
        .assign_reduce(
            &mut wi,
            Min::<u32>::new(),
            &ui,
            &Vector::from_dense(vec![0, 7]),
        )
        .unwrap_err();
    assert!(
        matches!(&e, edgeblas::Error::InvalidArgument(m) if m.contains("index 7 is out of bounds for length 3")),
        "{e}"
    );
    // A monoid whose sum depends on the order of the terms has no scatter kernel.
    let mut wf: Vector<f64> = Vector::new(3);
    let e = run
        .assign_reduce(
            &mut wf,
            Plus::<f64>::new(),
            &u,
            &Vector::from_dense(vec![0, 0, 1]),
        )
        .unwrap_err();
    assert!(
        matches!(&e, edgeblas::Error::Unsupported(m) if m.contains("scatter") && m.contains("min_u32")),
        "{e}"
    );
}

/// A wcc on the device (or its host build).
pub type WccRun<'a> = dyn Fn(&edgeblas::graph::Graph<'_, ()>) -> edgeblas::Result<edgeblas::algo::components::Components>
    + 'a;

/// The device wcc against the CPU's on random graphs (directed and symmetric, sparse
/// enough for many components), long paths under scrambled ids (many rounds) and the
/// edge cases: the labels must be the CPU's, element for element.
pub fn wcc_cases(run: &WccRun) {
    use edgeblas::graph::Graph;
    use edgeblas::matrix::{CooBuilder, Duplicates};
    let mut r = Rng::new(960);
    let check = |a: &Csr<()>, sym: bool, what: &str| {
        let g = if sym {
            Graph::symmetric(a)
        } else {
            Graph::directed(a)
        };
        let cpu = edgeblas::algo::wcc(&g);
        let dev = run(&g).unwrap();
        assert_eq!(cpu.labels, dev.labels, "{what}: labels");
        assert!(
            dev.rounds >= 1 || a.nrows() == 0,
            "{what}: rounds {}",
            dev.rounds
        );
    };
    for case in 0..30 {
        let n = [1, 2, 7, 64, 300, 2500, 5000][case % 7];
        let deg = r.range(0, 4) as usize;
        let a: Csr<()> = random::graph(&mut r, n, deg, |_| ());
        check(
            &a,
            false,
            &format!("case {case}: directed n {n} nnz {}", a.nnz()),
        );
        let mut b = CooBuilder::new(n, n);
        for i in 0..n {
            for &j in a.row(i).0 {
                b.push(i, j as usize, ()).unwrap();
                b.push(j as usize, i, ()).unwrap();
            }
        }
        let s = b.build(Duplicates::KeepFirst).unwrap();
        check(
            &s,
            true,
            &format!("case {case}: symmetric n {n} nnz {}", s.nnz()),
        );
    }
    // Three paths of 700 vertices under scrambled ids: the labels must travel far.
    let n = 2100usize;
    let id = |v: usize| (v * 1237 + 511) % n;
    let mut b = CooBuilder::new(n, n);
    for p in 0..3 {
        for k in 0..699 {
            let (x, y) = (id(p * 700 + k), id(p * 700 + k + 1));
            b.push(x, y, ()).unwrap();
        }
    }
    let paths = b.build(Duplicates::KeepFirst).unwrap();
    check(&paths, false, "three scrambled paths");
    // No arcs, and no vertices.
    check(&Csr::<()>::empty(5, 5), true, "five isolated vertices");
    check(&Csr::<()>::empty(0, 0), true, "empty graph");
    // A non-square adjacency is an error, not a panic.
    let rect = Csr::<()>::empty(2, 3);
    assert!(matches!(
        run(&Graph::directed(&rect)),
        Err(edgeblas::Error::InvalidArgument(_))
    ));
}

/// A delta-stepping on the device (or its host build).
pub type SsspRun<'a> = dyn Fn(
        &edgeblas::graph::Graph<'_, f64>,
        Index,
        f64,
    ) -> edgeblas::Result<edgeblas::algo::bellman_ford::ShortestPaths>
    + 'a;

/// The device delta-stepping against the CPU's on random weighted graphs: integer
/// weights (ties, zeros) and fractional ones, deltas from below the smallest weight
/// (every arc heavy) to above the largest (none), long paths; distances byte for byte
/// and the predecessors exactly. Bad input is the CPU's errors.
pub fn delta_stepping_cases(run: &SsspRun) {
    use edgeblas::algo::delta_stepping::delta_stepping;
    use edgeblas::graph::Graph;
    let check = |a: &Csr<f64>, source: Index, delta: f64, what: &str| {
        let g = Graph::directed(a);
        let cpu = delta_stepping(&g, source, delta).unwrap();
        let dev = run(&g, source, delta).unwrap();
        let bits = |d: &[f64]| d.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(&cpu.distances),
            bits(&dev.distances),
            "{what}: distances"
        );
        assert_eq!(cpu.predecessors, dev.predecessors, "{what}: predecessors");
    };
    let mut seed = 970;
    for &(n, m) in &[
        (1, 0),
        (2, 1),
        (10, 30),
        (200, 800),
        (1000, 3000),
        (3000, 6000),
    ] {
        for &(lo, hi) in &[(0, 3), (1, 100), (1, 0)] {
            seed += 1;
            let a = random::random_weighted(seed, n, m, lo, hi);
            for delta in [0.5, 2.0, 25.0, 1e9] {
                let source = (seed as usize % n) as Index;
                check(
                    &a,
                    source,
                    delta,
                    &format!("n {n} m {m} weights {lo}..{hi} delta {delta} source {source}"),
                );
            }
        }
    }
    // A long path with fractional weights: many buckets, one vertex each.
    let n = 1500;
    let mut b = edgeblas::matrix::CooBuilder::new(n, n);
    for v in 0..n - 1 {
        b.push(v, v + 1, 0.1 + (v % 7) as f64 / 3.0).unwrap();
        if v % 10 == 0 {
            b.push(v + 1, v, 5.0).unwrap();
        }
    }
    let path = b.build(edgeblas::matrix::Duplicates::KeepFirst).unwrap();
    check(&path, 0, 0.3, "a long path");
    check(&path, 700, 4.0, "a long path from its middle");
    // Bad input: the CPU's errors, never a panic.
    let g = Graph::directed(&path);
    let err = |r: edgeblas::Result<_>, want: &str| match r {
        Err(edgeblas::Error::InvalidArgument(m)) => assert!(m.contains(want), "{m}"),
        Err(e) => panic!("{want}: {e}"),
        Ok(_) => panic!("{want}: no error"),
    };
    err(run(&g, 0, 0.0), "delta 0 is not a positive number");
    err(run(&g, 0, f64::NAN), "is not a positive number");
    err(run(&g, n as Index, 1.0), "is not in the graph");
    let neg = random::random_weighted(5, 10, 30, -3, 3);
    err(
        run(&Graph::directed(&neg), 0, 1.0),
        "delta-stepping needs weights >= 0",
    );
}

/// A CDLP on the device (or its host build).
pub type CdlpRun<'a> =
    dyn Fn(&edgeblas::graph::Graph<'_, ()>, usize) -> edgeblas::Result<Vec<Index>> + 'a;

/// The device CDLP against the CPU's on random graphs, directed (in- and out-neighbours
/// both counting) and symmetric, with self-loops, isolated vertices and hubs (long rows
/// take the heap sort), for 0 to 10 rounds: the labels element for element.
pub fn cdlp_cases(run: &CdlpRun) {
    use edgeblas::graph::Graph;
    use edgeblas::matrix::{CooBuilder, Duplicates};
    let mut r = Rng::new(990);
    for case in 0..24 {
        let n = [1, 2, 7, 64, 300, 2500][case % 6];
        let deg = r.range(0, 5) as usize;
        let mut b = CooBuilder::new(n, n);
        let a0: Csr<()> = random::graph(&mut r, n, deg, |_| ());
        for i in 0..n {
            for &j in a0.row(i).0 {
                b.push(i, j as usize, ()).unwrap();
            }
        }
        // A hub: vertex 0 linked to most others, so its row is long.
        if case % 4 == 1 {
            for j in (0..n).step_by(2) {
                b.push(0, j, ()).unwrap();
            }
        }
        let a = b.build(Duplicates::KeepFirst).unwrap();
        let iterations = [0, 1, 3, 10][case % 4];
        let d = Graph::directed(&a);
        assert_eq!(
            edgeblas::algo::cdlp(&d, iterations),
            run(&d, iterations).unwrap(),
            "case {case}: directed n {n} nnz {} rounds {iterations}",
            a.nnz()
        );
        let s = a.symmetrize(|_, _| ());
        let sg = Graph::symmetric(&s);
        assert_eq!(
            edgeblas::algo::cdlp(&sg, iterations),
            run(&sg, iterations).unwrap(),
            "case {case}: symmetric n {n} nnz {} rounds {iterations}",
            s.nnz()
        );
    }
    assert!(
        run(&Graph::directed(&Csr::<()>::empty(0, 0)), 3)
            .unwrap()
            .is_empty()
    );
    assert!(matches!(
        run(&Graph::directed(&Csr::<()>::empty(2, 3)), 1),
        Err(edgeblas::Error::InvalidArgument(_))
    ));
}

/// The structure of `v` as a mask, complemented or not.
fn structure_of(v: &MaskVec, complement: bool) -> MaskArg<'_> {
    MaskArg {
        v,
        structure: true,
        complement,
    }
}

/// BFS written as the plain sequence of device operations (the CPU's
/// `algo::bfs::bfs_template`, call for call): from `q = {source: source}`, each level
/// `q<!parents, replace> = q min.secondi A` (push) or `A' min.secondi q` (pull, over
/// `at`, when `pull(depth)` says so), then `parents<q> = q` and `levels<q> = depth`.
/// Parents and levels as the CPU's `BfsResult` spells them (`u32::MAX` unreached).
pub fn bfs_by_template<R: Runner>(
    run: &R,
    a: &Csr<()>,
    at: &Csr<()>,
    source: Index,
    pull: &dyn Fn(u32) -> bool,
) -> edgeblas::Result<(Vec<Index>, Vec<u32>)> {
    let n = a.nrows();
    let (d0, replace) = (Descriptor::DEFAULT, Descriptor::DEFAULT.with_replace());
    let mut q: Vector<Index> = Vector::from_pairs(n, [(source, source)]);
    let mut parents = MaskVec::U32(q.clone());
    let mut levels: Vector<u32> = Vector::new(n);
    let first = MaskVec::U32(q.clone());
    run.assign_scalar(
        &mut levels,
        Some(&structure_of(&first, false)),
        None,
        0,
        &d0,
    )?;
    let mut depth = 0u32;
    while q.nvals() > 0 {
        depth += 1;
        let mut next: Vector<Index> = Vector::new(n);
        let not_visited = structure_of(&parents, true);
        if pull(depth) {
            run.mxv(
                &mut next,
                Some(&not_visited),
                None,
                MinSecondI,
                at,
                &q,
                &replace,
            )?;
        } else {
            run.vxm(
                &mut next,
                Some(&not_visited),
                None,
                MinSecondI,
                &q,
                a,
                &replace,
            )?;
        }
        q = next;
        let frontier = MaskVec::U32(q.clone());
        let MaskVec::U32(p) = &mut parents else {
            unreachable!("parents is a u32 vector")
        };
        run.assign(p, Some(&structure_of(&frontier, false)), None, &q, &d0)?;
        run.assign_scalar(
            &mut levels,
            Some(&structure_of(&frontier, false)),
            None,
            depth,
            &d0,
        )?;
    }
    let MaskVec::U32(p) = parents else {
        unreachable!("parents is a u32 vector")
    };
    Ok((
        p.into_dense(u32::MAX).into_vec(),
        levels.into_dense(u32::MAX).into_vec(),
    ))
}

/// Bellman-Ford written as the plain sequence of device operations (the CPU's
/// `examples/bellman_ford.rs` template): `t = f min.plus A`; `d = dist - t` on `t`'s
/// entries; `f<select(d > 0), replace> = t`, the entries that improve; `dist<f> min= f`;
/// until `f` is empty (or `n` rounds). The distances (`+inf` unreached) and the rounds.
pub fn bellman_ford_by_template<R: Runner>(
    run: &R,
    a: &Csr<f64>,
    source: Index,
) -> edgeblas::Result<(Vec<f64>, usize)> {
    let n = a.nrows();
    let (d0, replace) = (Descriptor::DEFAULT, Descriptor::DEFAULT.with_replace());
    let mut dist: Vector<f64> = Vector::full(n, f64::INFINITY);
    dist.set(source as usize, 0.0);
    let mut f: Vector<f64> = Vector::from_pairs(n, [(source, 0.0)]);
    let mut rounds = 0;
    while f.nvals() > 0 && rounds < n {
        let mut t: Vector<f64> = Vector::new(n);
        run.vxm(&mut t, None, None, MinPlus::<f64>::new(), &f, a, &d0)?;
        let mut d: Vector<f64> = Vector::new(n);
        run.ewise_mult(&mut d, None, None, &Minus::<f64>::new(), &dist, &t, &d0)?;
        let mut better: Vector<f64> = Vector::new(n);
        let gt = edgeblas::cuda::SelectOp::ValueGt(0.0);
        run.select(&mut better, None, None, gt, &d, &d0)?;
        let better = MaskVec::F64(better);
        run.assign(
            &mut f,
            Some(&structure_of(&better, false)),
            None,
            &t,
            &replace,
        )?;
        let changed = MaskVec::F64(f.clone());
        let min = Min::<f64>::new();
        run.assign(
            &mut dist,
            Some(&structure_of(&changed, false)),
            Some(&min),
            &f,
            &d0,
        )?;
        rounds += 1;
    }
    Ok((dist.into_dense(f64::INFINITY).into_vec(), rounds))
}

/// The BFS and Bellman-Ford templates over the device algebra against the CPU's
/// searches on random graphs (directed and symmetric, sparse to dense, a long path):
/// BFS parents and levels exactly, pushing, pulling and switching; Bellman-Ford
/// distances byte for byte (MIN of one addition per path is exact).
pub fn templates<R: Runner>(run: &R) {
    use edgeblas::algo::bfs::{BfsGraph, BfsOptions, Push, bfs};
    use edgeblas::graph::Graph;
    let mut r = Rng::new(1400);
    let mut graphs: Vec<Csr<()>> = (0..12)
        .map(|case| {
            let n = [1, 2, 9, 64, 300, 1500][case % 6];
            let deg = r.range(0, 6) as usize;
            random::graph(&mut r, n, deg, |_| ())
        })
        .collect();
    // A path of 400 vertices under scrambled ids: 399 levels.
    let n = 400usize;
    let id = |v: usize| (v * 263 + 101) % n;
    let mut b = edgeblas::matrix::CooBuilder::new(n, n);
    for k in 0..n - 1 {
        b.push(id(k), id(k + 1), ()).unwrap();
    }
    graphs.push(b.build(edgeblas::matrix::Duplicates::KeepFirst).unwrap());
    for (case, a) in graphs.iter().enumerate() {
        let n = a.nrows();
        let at = a.transpose();
        let source = r.below(n) as Index;
        let what = format!("case {case}: n {n} nnz {} source {source}", a.nnz());
        let cpu = bfs(
            &BfsGraph::directed(a),
            &[source],
            &Push,
            &BfsOptions::default(),
        )
        .unwrap();
        let rules: [(&str, &dyn Fn(u32) -> bool); 3] = [
            ("push", &|_| false),
            ("pull", &|_| true),
            ("switching", &|d| d % 3 == 2),
        ];
        for (name, rule) in rules {
            let (parents, levels) = bfs_by_template(run, a, &at, source, rule).unwrap();
            assert_eq!(
                parents, cpu.parents,
                "{what}: BFS template ({name}) parents"
            );
            assert_eq!(levels, cpu.levels, "{what}: BFS template ({name}) levels");
        }
        // Bellman-Ford over integer weights with zeros and ties, and fractional ones.
        for frac in [false, true] {
            let w = a.map(|_| ());
            let (off, cols) = (w.offsets().to_vec(), w.indices().to_vec());
            let vals: Vec<f64> = (0..cols.len())
                .map(|_| match frac {
                    false => r.range(0, 9) as f64,
                    true => r.range(1, 1000) as f64 / 7.0,
                })
                .collect();
            let wa = Csr::new_checked(n, n, off, cols, vals).unwrap();
            let cpu = edgeblas::algo::bellman_ford(&Graph::directed(&wa), source).unwrap();
            let (dist, rounds) = bellman_ford_by_template(run, &wa, source).unwrap();
            let bits = |d: &[f64]| d.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&dist),
                bits(&cpu.distances),
                "{what}: Bellman-Ford template distances (fractional {frac})"
            );
            assert!(rounds <= n, "{what}: {rounds} rounds");
        }
    }
}
