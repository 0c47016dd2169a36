//! The laws of every built-in monoid and semiring: identity, associativity,
//! commutativity where claimed, terminal absorbs; for semirings also the add identity
//! annihilating the multiply and the multiply distributing over the add, where claimed.
//!
//! A checker runs a law over every pair or triple of a sample set and returns the first
//! counterexample; quickcheck supplies the sets (random values plus each domain's
//! special ones: the identity, the terminal, the extremes). Floats use small integers
//! and infinities, so every law that holds holds exactly. The negative controls at the
//! end show the checkers do fail on broken algebra.

use std::fmt::Debug;

use edgeblas::algebra::{Index, Monoid, Semiring};
use edgeblas::prelude::*;
use quickcheck::{Gen, QuickCheck, TestResult};

/// Seed of every quickcheck run here.
const QC_SEED: u64 = 0x6c61_7773;

fn qc() -> QuickCheck {
    QuickCheck::new().rng(Gen::from_size_and_seed(100, QC_SEED))
}

type Law = Result<(), String>;

fn verdict(r: Law) -> TestResult {
    match r {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(e),
    }
}

// ---- the checkers --------------------------------------------------------------------

/// `e (+) x = x` for every sample.
fn left_identity<T: Copy + PartialEq + Debug, M: Monoid<T>>(m: &M, xs: &[T]) -> Law {
    let e = m.identity();
    match xs.iter().find(|&&x| m.combine(e, x) != x) {
        Some(x) => Err(format!("identity {e:?} (+) {x:?} != {x:?}")),
        None => Ok(()),
    }
}

/// `x (+) e = x` for every sample.
fn right_identity<T: Copy + PartialEq + Debug, M: Monoid<T>>(m: &M, xs: &[T]) -> Law {
    let e = m.identity();
    match xs.iter().find(|&&x| m.combine(x, e) != x) {
        Some(x) => Err(format!("{x:?} (+) identity {e:?} != {x:?}")),
        None => Ok(()),
    }
}

/// `(a (+) b) (+) c = a (+) (b (+) c)` for every triple.
fn associative<T: Copy + PartialEq + Debug, M: Monoid<T>>(m: &M, xs: &[T]) -> Law {
    for &a in xs {
        for &b in xs {
            for &c in xs {
                let (l, r) = (m.combine(m.combine(a, b), c), m.combine(a, m.combine(b, c)));
                if l != r {
                    return Err(format!("({a:?} (+) {b:?}) (+) {c:?} = {l:?} but {r:?}"));
                }
            }
        }
    }
    Ok(())
}

/// `a (+) b = b (+) a` for every pair.
fn commutative<T: Copy + PartialEq + Debug, M: Monoid<T>>(m: &M, xs: &[T]) -> Law {
    for &a in xs {
        for &b in xs {
            if m.combine(a, b) != m.combine(b, a) {
                return Err(format!("{a:?} (+) {b:?} != {b:?} (+) {a:?}"));
            }
        }
    }
    Ok(())
}

/// The terminal `t`, if any, is terminal and absorbs: `t (+) x = x (+) t = t`; and no
/// other sample claims to be terminal (a false claim would stop a sum early).
fn terminal_absorbs<T: Copy + PartialEq + Debug, M: Monoid<T>>(m: &M, xs: &[T]) -> Law {
    let Some(t) = m.terminal() else {
        return match xs.iter().find(|x| m.is_terminal(x)) {
            Some(x) => Err(format!("no terminal, yet {x:?} is_terminal")),
            None => Ok(()),
        };
    };
    if !m.is_terminal(&t) {
        return Err(format!("terminal {t:?} is not is_terminal"));
    }
    for &x in xs {
        if m.combine(t, x) != t || m.combine(x, t) != t {
            return Err(format!("terminal {t:?} does not absorb {x:?}"));
        }
        if x != t && m.is_terminal(&x) {
            return Err(format!("{x:?} is_terminal but is not the terminal {t:?}"));
        }
    }
    Ok(())
}

/// Every law a commutative monoid with a (two-sided) identity claims.
fn commutative_monoid<T: Copy + PartialEq + Debug, M: Monoid<T>>(m: &M, xs: &[T]) -> Law {
    left_identity(m, xs)?;
    right_identity(m, xs)?;
    associative(m, xs)?;
    commutative(m, xs)?;
    terminal_absorbs(m, xs)
}

/// `z (x) a = a (x) z = z` for every sample: `z` annihilates the multiply.
fn annihilates<T, S>(s: &S, z: T, xs: &[T]) -> Law
where
    T: Copy + PartialEq + Debug,
    S: Semiring<T, T, Output = T>,
{
    for &a in xs {
        if s.multiply(z, a, 0) != z || s.multiply(a, z, 0) != z {
            return Err(format!("{z:?} does not annihilate {a:?}"));
        }
    }
    Ok(())
}

/// `a (x) (b (+) c) = (a (x) b) (+) (a (x) c)` and
/// `(a (+) b) (x) c = (a (x) c) (+) (b (x) c)` for every triple.
fn distributes<T, S>(s: &S, xs: &[T]) -> Law
where
    T: Copy + PartialEq + Debug,
    S: Semiring<T, T, Output = T>,
{
    let (add, mul) = (s.add(), |a, b| s.multiply(a, b, 0));
    for &a in xs {
        for &b in xs {
            for &c in xs {
                let (l, r) = (mul(a, add.combine(b, c)), add.combine(mul(a, b), mul(a, c)));
                if l != r {
                    return Err(format!("{a:?} (x) ({b:?} (+) {c:?}) = {l:?} but {r:?}"));
                }
                let (l, r) = (mul(add.combine(a, b), c), add.combine(mul(a, c), mul(b, c)));
                if l != r {
                    return Err(format!("({a:?} (+) {b:?}) (x) {c:?} = {l:?} but {r:?}"));
                }
            }
        }
    }
    Ok(())
}

// ---- sample sets -----------------------------------------------------------------------

/// At most six random values, then the specials.
fn samples<T: Copy>(random: Vec<T>, specials: &[T]) -> Vec<T> {
    let mut xs: Vec<T> = random.into_iter().take(6).collect();
    xs.extend_from_slice(specials);
    xs
}

macro_rules! int_specials {
    ($t:ty) => {
        [<$t>::MIN, <$t>::MAX, 0, 1, 2, <$t>::MIN + 1, <$t>::MAX - 1]
    };
}

/// Small integers as floats, with the infinities when `inf`.
fn float_samples<F: Copy>(random: Vec<i8>, conv: fn(i8) -> F, infs: &[F]) -> Vec<F> {
    let mut xs: Vec<F> = random
        .into_iter()
        .take(6)
        .chain([0, 1, -1, 2])
        .map(conv)
        .collect();
    xs.extend_from_slice(infs);
    xs
}

// ---- monoids ---------------------------------------------------------------------------

macro_rules! int_monoid_laws {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[test]
        fn $name() {
            fn prop(random: Vec<$t>) -> TestResult {
                let xs = samples(random, &int_specials!($t));
                verdict(
                    commutative_monoid(&Min::<$t>::new(), &xs)
                        .map_err(|e| format!("Min: {e}"))
                        .and(commutative_monoid(&Max::<$t>::new(), &xs).map_err(|e| format!("Max: {e}")))
                        .and(commutative_monoid(&Plus::<$t>::new(), &xs).map_err(|e| format!("Plus: {e}")))
                        .and(commutative_monoid(&Times::<$t>::new(), &xs).map_err(|e| format!("Times: {e}")))
                        .and(any_laws(&xs)),
                )
            }
            qc().quickcheck(prop as fn(Vec<$t>) -> TestResult);
            // The claimed identities and terminals themselves.
            assert_eq!(Min::<$t>::new().identity(), <$t>::MAX);
            assert_eq!(Min::<$t>::new().terminal(), Some(<$t>::MIN));
            assert_eq!(Max::<$t>::new().identity(), <$t>::MIN);
            assert_eq!(Max::<$t>::new().terminal(), Some(<$t>::MAX));
            assert_eq!(Plus::<$t>::new().identity(), 0);
            assert_eq!(Plus::<$t>::new().terminal(), None);
            assert_eq!(Times::<$t>::new().identity(), 1);
            assert_eq!(Times::<$t>::new().terminal(), Some(0));
        }
    )*};
}

int_monoid_laws!(
    monoid_laws_i32: i32,
    monoid_laws_i64: i64,
    monoid_laws_u32: u32,
    monoid_laws_u64: u64,
);

macro_rules! float_monoid_laws {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[test]
        fn $name() {
            fn prop(random: Vec<i8>) -> TestResult {
                let conv = |x: i8| x as $t;
                let with_inf = float_samples(random.clone(), conv, &[<$t>::INFINITY, <$t>::NEG_INFINITY]);
                // PLUS and TIMES without infinities: inf - inf and 0 * inf are NaN.
                let finite = float_samples(random, conv, &[]);
                verdict(
                    commutative_monoid(&Min::<$t>::new(), &with_inf)
                        .map_err(|e| format!("Min: {e}"))
                        .and(commutative_monoid(&Max::<$t>::new(), &with_inf).map_err(|e| format!("Max: {e}")))
                        .and(commutative_monoid(&Plus::<$t>::new(), &finite).map_err(|e| format!("Plus: {e}")))
                        .and(commutative_monoid(&Times::<$t>::new(), &finite).map_err(|e| format!("Times: {e}")))
                        .and(any_laws(&with_inf)),
                )
            }
            qc().quickcheck(prop as fn(Vec<i8>) -> TestResult);
            assert_eq!(Min::<$t>::new().identity(), <$t>::INFINITY);
            assert_eq!(Min::<$t>::new().terminal(), Some(<$t>::NEG_INFINITY));
            assert_eq!(Max::<$t>::new().identity(), <$t>::NEG_INFINITY);
            assert_eq!(Max::<$t>::new().terminal(), Some(<$t>::INFINITY));
            assert_eq!(Plus::<$t>::new().terminal(), None);
            // 0 * inf = NaN: zero is not terminal for float TIMES.
            assert_eq!(Times::<$t>::new().terminal(), None);
        }
    )*};
}

float_monoid_laws!(monoid_laws_f32: f32, monoid_laws_f64: f64);

/// ANY keeps its first operand: associative, every value terminal, the identity only a
/// right identity, and not commutative.
fn any_laws<T: edgeblas::algebra::Scalar>(xs: &[T]) -> Law {
    let any = Any::<T>::new();
    right_identity(&any, xs).map_err(|e| format!("Any: {e}"))?;
    associative(&any, xs).map_err(|e| format!("Any: {e}"))?;
    if let Some(x) = xs.iter().find(|x| !any.is_terminal(x)) {
        return Err(format!("Any: {x:?} is not terminal"));
    }
    for &a in xs {
        for &b in xs {
            if any.combine(a, b) != a {
                return Err(format!("Any: {a:?} (+) {b:?} is not {a:?}"));
            }
        }
    }
    Ok(())
}

#[test]
fn any_is_not_commutative() {
    // ANY claims no commutativity, and the checker sees it: it keeps the first.
    assert!(commutative(&Any::<i64>::new(), &[1, 2]).is_err());
    assert!(left_identity(&Any::<i64>::new(), &[5]).is_err());
    assert!(any_laws(&[false, true]).is_ok());
}

#[test]
fn boolean_monoid_laws() {
    // Exhaustive over {false, true}.
    let xs = [false, true];
    commutative_monoid(&Lor, &xs).unwrap();
    commutative_monoid(&Land, &xs).unwrap();
    assert_eq!((Lor.identity(), Lor.terminal()), (false, Some(true)));
    assert_eq!((Land.identity(), Land.terminal()), (true, Some(false)));
    any_laws(&xs).unwrap();
}

// ---- semirings -------------------------------------------------------------------------

/// The add monoid of a semiring: commutative with a two-sided identity, or ANY.
fn add_laws<A, U, S>(s: &S, xs: &[S::Output]) -> Law
where
    S: Semiring<A, U>,
{
    commutative_monoid(&s.add(), xs)
}

macro_rules! int_semiring_laws {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[test]
        fn $name() {
            fn prop(random: Vec<$t>) -> TestResult {
                let xs = samples(random, &int_specials!($t));
                let (inf, neg_inf) = (<$t>::MAX, <$t>::MIN);
                let r = (|| -> Law {
                    // MIN.PLUS: +inf (the add identity) absorbs in the multiply.
                    let s = MinPlus::<$t>::new();
                    add_laws(&s, &xs)?;
                    annihilates(&s, inf, &xs).map_err(|e| format!("MinPlus: {e}"))?;
                    distributes(&s, &xs).map_err(|e| format!("MinPlus: {e}"))?;
                    // MAX.PLUS: -inf absorbs.
                    let s = MaxPlus::<$t>::new();
                    add_laws(&s, &xs)?;
                    annihilates(&s, neg_inf, &xs).map_err(|e| format!("MaxPlus: {e}"))?;
                    distributes(&s, &xs).map_err(|e| format!("MaxPlus: {e}"))?;
                    // MIN.MAX: max(+inf, a) = +inf.
                    let s = MinMax::<$t>::new();
                    add_laws(&s, &xs)?;
                    annihilates(&s, inf, &xs).map_err(|e| format!("MinMax: {e}"))?;
                    distributes(&s, &xs).map_err(|e| format!("MinMax: {e}"))?;
                    // PLUS.TIMES, wrapping: the ring of integers modulo 2^bits.
                    let s = PlusTimes::<$t>::new();
                    add_laws(&s, &xs)?;
                    annihilates(&s, 0, &xs).map_err(|e| format!("PlusTimes: {e}"))?;
                    distributes(&s, &xs).map_err(|e| format!("PlusTimes: {e}"))?;
                    // MAX.TIMES: distributes on non-negative values small enough not to wrap.
                    let s = MaxTimes::<$t>::new();
                    add_laws(&s, &xs)?;
                    let small: Vec<$t> = xs.iter().map(|&x| (x % 1000).max(0)).collect();
                    distributes(&s, &small).map_err(|e| format!("MaxTimes: {e}"))
                })();
                verdict(r)
            }
            qc().quickcheck(prop as fn(Vec<$t>) -> TestResult);
        }
    )*};
}

int_semiring_laws!(
    semiring_laws_i32: i32,
    semiring_laws_i64: i64,
    semiring_laws_u32: u32,
    semiring_laws_u64: u64,
);

macro_rules! float_semiring_laws {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[test]
        fn $name() {
            fn prop(random: Vec<i8>) -> TestResult {
                let conv = |x: i8| x as $t;
                let (inf, neg_inf) = (<$t>::INFINITY, <$t>::NEG_INFINITY);
                let with_inf = float_samples(random.clone(), conv, &[inf, neg_inf]);
                let finite = float_samples(random.clone(), conv, &[]);
                let r = (|| -> Law {
                    let s = MinPlus::<$t>::new();
                    add_laws(&s, &with_inf)?;
                    annihilates(&s, inf, &with_inf).map_err(|e| format!("MinPlus: {e}"))?;
                    distributes(&s, &with_inf).map_err(|e| format!("MinPlus: {e}"))?;
                    let s = MaxPlus::<$t>::new();
                    add_laws(&s, &with_inf)?;
                    annihilates(&s, neg_inf, &with_inf).map_err(|e| format!("MaxPlus: {e}"))?;
                    distributes(&s, &with_inf).map_err(|e| format!("MaxPlus: {e}"))?;
                    let s = MinMax::<$t>::new();
                    add_laws(&s, &with_inf)?;
                    annihilates(&s, inf, &with_inf).map_err(|e| format!("MinMax: {e}"))?;
                    distributes(&s, &with_inf).map_err(|e| format!("MinMax: {e}"))?;
                    // PLUS.TIMES: exact on small integers (products of three stay below 2^24).
                    let s = PlusTimes::<$t>::new();
                    add_laws(&s, &finite)?;
                    annihilates(&s, 0.0, &finite).map_err(|e| format!("PlusTimes: {e}"))?;
                    distributes(&s, &finite).map_err(|e| format!("PlusTimes: {e}"))?;
                    // MAX.TIMES: distributes on non-negative values (reliabilities).
                    let s = MaxTimes::<$t>::new();
                    add_laws(&s, &with_inf)?;
                    let nonneg: Vec<$t> = finite.iter().map(|x| x.abs()).collect();
                    distributes(&s, &nonneg).map_err(|e| format!("MaxTimes: {e}"))
                })();
                verdict(r)
            }
            qc().quickcheck(prop as fn(Vec<i8>) -> TestResult);
        }
    )*};
}

float_semiring_laws!(semiring_laws_f32: f32, semiring_laws_f64: f64);

#[test]
fn or_and_laws() {
    // Exhaustive: OR is a commutative monoid, false annihilates AND, AND distributes.
    let xs = [false, true];
    let s = OrAnd;
    add_laws::<bool, bool, _>(&s, &xs).unwrap();
    annihilates(&s, false, &xs).unwrap();
    distributes(&s, &xs).unwrap();
    // A valued matrix entry counts by its truth.
    assert!(<OrAnd as Semiring<i64, bool>>::multiply(&s, 3, true, 0));
    assert!(!<OrAnd as Semiring<i64, bool>>::multiply(&s, 0, true, 0));
}

fn positional_laws(random: Vec<u32>) -> TestResult {
    let xs = samples(random, &[0, 1, 2, u32::MAX, u32::MAX - 1]);
    // MIN.SECONDI: MIN over indices, a commutative monoid with terminal 0.
    let r = add_laws::<(), (), _>(&MinSecondI, &xs)
        .map_err(|e| format!("MinSecondI: {e}"))
        // ANY.SECONDI and ANY.PAIR: ANY.
        .and(any_laws::<Index>(&xs))
        .and(any_laws::<bool>(&[false, true]));
    verdict(r)
}

#[test]
fn positional_and_any_semiring_laws() {
    qc().quickcheck(positional_laws as fn(Vec<u32>) -> TestResult);
    assert_eq!(
        <MinSecondI as Semiring<(), ()>>::multiply(&MinSecondI, (), (), 7),
        7
    );
    assert_eq!(
        <AnySecondI as Semiring<(), ()>>::multiply(&AnySecondI, (), (), 7),
        7
    );
    assert!(<AnyPair as Semiring<i64, i64>>::multiply(&AnyPair, 0, 0, 7));
}

/// MIN.SECONDI's claim `FIRST_TERM_IS_SUM`: over terms in ascending `k`, the sum is the
/// first term (what lets a pull row stop at its first match).
fn first_term_is_sum(mut ks: Vec<u32>) -> TestResult {
    if ks.is_empty() {
        return TestResult::discard();
    }
    ks.sort_unstable();
    let s = MinSecondI;
    let terms: Vec<Index> = ks
        .iter()
        .map(|&k| <MinSecondI as Semiring<(), ()>>::multiply(&s, (), (), k))
        .collect();
    let add = <MinSecondI as Semiring<(), ()>>::add(&s);
    let sum = terms[1..].iter().fold(terms[0], |a, &b| add.combine(a, b));
    TestResult::from_bool(sum == terms[0])
}

#[test]
fn min_second_i_first_term_is_sum() {
    const { assert!(<MinSecondI as Semiring<(), ()>>::FIRST_TERM_IS_SUM) };
    qc().quickcheck(first_term_is_sum as fn(Vec<u32>) -> TestResult);
}

// ---- negative controls: the checkers can fail ----------------------------------------------

/// `a - b`, identity 0: a deliberately broken monoid (neither associative nor
/// commutative, and 0 is only a right identity).
#[derive(Clone, Copy)]
struct Minus;
impl Monoid<i64> for Minus {
    fn identity(&self) -> i64 {
        0
    }
    fn combine(&self, a: i64, b: i64) -> i64 {
        a.wrapping_sub(b)
    }
}

/// PLUS that claims 0 is terminal: a false claim that would stop sums early.
#[derive(Clone, Copy)]
struct PlusClaimingZeroTerminal;
impl Monoid<i64> for PlusClaimingZeroTerminal {
    fn identity(&self) -> i64 {
        0
    }
    fn combine(&self, a: i64, b: i64) -> i64 {
        a.wrapping_add(b)
    }
    fn terminal(&self) -> Option<i64> {
        Some(0)
    }
}

/// MIN.TIMES: TIMES does not distribute over MIN once negatives appear.
#[derive(Clone, Copy)]
struct MinTimes;
impl Semiring<i64, i64> for MinTimes {
    type Output = i64;
    type Add = Min<i64>;
    fn add(&self) -> Min<i64> {
        Min::new()
    }
    fn multiply(&self, a: i64, u: i64, _k: Index) -> i64 {
        a.wrapping_mul(u)
    }
}

#[test]
fn checkers_reject_a_monoid_that_is_not_associative() {
    assert!(associative(&Minus, &[1, 2, 3]).is_err());
    assert!(commutative(&Minus, &[1, 2]).is_err());
    assert!(left_identity(&Minus, &[1]).is_err());
    assert!(right_identity(&Minus, &[1]).is_ok());
    // The quickcheck property that passes for the built-ins fails for it.
    fn prop(random: Vec<i64>) -> TestResult {
        verdict(commutative_monoid(
            &Minus,
            &samples(random, &int_specials!(i64)),
        ))
    }
    assert!(qc().quicktest(prop as fn(Vec<i64>) -> TestResult).is_err());
}

#[test]
fn checkers_reject_a_false_terminal() {
    assert!(terminal_absorbs(&PlusClaimingZeroTerminal, &[0, 5]).is_err());
    assert!(terminal_absorbs(&Plus::<i64>::new(), &[0, 5]).is_ok());
}

#[test]
fn checkers_reject_a_semiring_that_does_not_distribute() {
    assert!(distributes(&MinTimes, &[-1, 1, 2]).is_err());
    assert!(distributes(&MinTimes, &[0, 1, 2]).is_ok());
    assert!(annihilates(&MinTimes, i64::MAX, &[2]).is_err());
}

/// Float MIN and MAX are C's `fmin` and `fmax`: NaN is ignored, so with NaN among the
/// terms they stay associative and commutative (compared as values, a NaN equal to a
/// NaN), which is what lets every product method group the terms its own way.
#[test]
fn float_min_and_max_ignore_nan_in_any_grouping() {
    fn check<M: Monoid<f64>>(name: &str, m: M) {
        let xs = [
            f64::NAN,
            -f64::NAN,
            1.5,
            -2.0,
            0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        for &x in &xs {
            for &y in &xs {
                let xy = m.combine(x, y);
                assert!(same(xy, m.combine(y, x)), "{name}({x}, {y}) commutes");
                if x.is_nan() != y.is_nan() {
                    let other = if x.is_nan() { y } else { x };
                    assert!(same(xy, other), "{name}({x}, {y}) ignores the NaN");
                }
                for &z in &xs {
                    let (l, r) = (m.combine(xy, z), m.combine(x, m.combine(y, z)));
                    assert!(same(l, r), "{name}: ({x} {y}) {z} != {x} ({y} {z})");
                }
            }
        }
        assert!(
            m.combine(f64::NAN, f64::NAN).is_nan(),
            "{name} of NaNs only"
        );
    }
    check("min", Min::<f64>::new());
    check("max", Max::<f64>::new());
}
