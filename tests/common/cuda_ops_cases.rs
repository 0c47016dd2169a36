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
