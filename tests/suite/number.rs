//! A numeric type of the user's own gets every built-in arithmetic operator, monoid and
//! semiring from num-traits' `Zero`, `One` and `Bounded` and one empty `impl Number`
//! (issue 12 item 4). The oracle is the same computation over the primitive the type
//! wraps: the products, reductions and identities must agree value for value.

use std::ops::{Add, Mul};

use edgeblas::algebra::{Monoid, Number, Semiring};
use edgeblas::num_traits::{Bounded, One, Zero};
use edgeblas::prelude::*;
use rand_pcg::Pcg64;
use rand_pcg::rand_core::Rng;

/// An integer type that knows nothing of edgeblas beyond `impl Number for Cents {}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
struct Cents(i64);

impl Add for Cents {
    type Output = Cents;
    fn add(self, o: Cents) -> Cents {
        Cents(self.0 + o.0)
    }
}
impl Mul for Cents {
    type Output = Cents;
    fn mul(self, o: Cents) -> Cents {
        Cents(self.0 * o.0)
    }
}
impl Zero for Cents {
    fn zero() -> Cents {
        Cents(0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0
    }
}
impl One for Cents {
    fn one() -> Cents {
        Cents(1)
    }
}
impl Bounded for Cents {
    fn min_value() -> Cents {
        Cents(i64::MIN)
    }
    fn max_value() -> Cents {
        Cents(i64::MAX)
    }
}
impl Number for Cents {}

/// A float-like type that overrides the two extremes with its infinities, as the
/// built-in floats do (num-traits' `Bounded` gives the finite extremes).
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
struct Meters(f64);

impl Add for Meters {
    type Output = Meters;
    fn add(self, o: Meters) -> Meters {
        Meters(self.0 + o.0)
    }
}
impl Mul for Meters {
    type Output = Meters;
    fn mul(self, o: Meters) -> Meters {
        Meters(self.0 * o.0)
    }
}
impl Zero for Meters {
    fn zero() -> Meters {
        Meters(0.0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0.0
    }
}
impl One for Meters {
    fn one() -> Meters {
        Meters(1.0)
    }
}
impl Bounded for Meters {
    fn min_value() -> Meters {
        Meters(f64::MIN)
    }
    fn max_value() -> Meters {
        Meters(f64::MAX)
    }
}
impl Number for Meters {
    fn lowest() -> Meters {
        Meters(f64::NEG_INFINITY)
    }
    fn highest() -> Meters {
        Meters(f64::INFINITY)
    }
}

/// A random `n x m` matrix with about `per_row` entries a row, values in -9..=9.
fn random_matrix(n: usize, m: usize, per_row: usize, seed: u64) -> Csr<i64> {
    let mut rng = Pcg64::new(seed as u128, 0xa02b_dbf7_bb3c_0a7a_c28f_a16a_64ab_f96d);
    let mut b = CooBuilder::new(n, m);
    for i in 0..n {
        for _ in 0..per_row {
            let j = rng.next_u64() as usize % m;
            let x = (rng.next_u64() % 19) as i64 - 9;
            b.push(i, j, x).unwrap();
        }
    }
    b.build(Duplicates::KeepLast).unwrap()
}

fn random_vector(n: usize, seed: u64) -> Vector<i64> {
    let mut rng = Pcg64::new(seed as u128, 0x5851_f42d_4c95_7f2d_1405_7b7e_f767_814f);
    let mut pairs = Vec::new();
    for i in 0..n {
        let r = rng.next_u64();
        if !r.is_multiple_of(3) {
            pairs.push((i as u32, ((r >> 8) % 19) as i64 - 9));
        }
    }
    Vector::from_pairs(n, pairs)
}

fn cents(v: &Vector<i64>) -> Vector<Cents> {
    Vector::from_pairs(
        v.len(),
        v.to_pairs().into_iter().map(|(i, x)| (i, Cents(x))),
    )
}

fn from_cents(v: &Vector<Cents>) -> Vec<(u32, i64)> {
    v.to_pairs().into_iter().map(|(i, x)| (i, x.0)).collect()
}

/// `u A` over the same semiring for `i64` and for `Cents`, compared entry for entry.
fn check_vxm<S, C>(name: &str, s: S, c: C, seed: u64)
where
    S: Semiring<i64, i64, Output = i64> + Copy,
    C: Semiring<Cents, Cents, Output = Cents> + Copy,
{
    let a = random_matrix(40, 30, 4, seed);
    let u = random_vector(40, seed + 1);
    let ac = a.map(Cents);
    let mut w = Vector::new(30);
    ops::vxm(&mut w, None, None, s, &u, &a, &Descriptor::DEFAULT);
    let mut wc = Vector::new(30);
    ops::vxm(
        &mut wc,
        None,
        None,
        c,
        &cents(&u),
        &ac,
        &Descriptor::DEFAULT,
    );
    assert!(
        w.nvals() > 0,
        "{name}: the product is empty, the test shows nothing"
    );
    assert_eq!(from_cents(&wc), w.to_pairs(), "{name}");
}

#[test]
fn a_num_traits_integer_gets_every_arithmetic_semiring() {
    for seed in [1, 2, 3] {
        check_vxm("MIN.PLUS", MinPlus::new(), MinPlus::new(), seed);
        check_vxm("MAX.PLUS", MaxPlus::new(), MaxPlus::new(), seed);
        check_vxm("PLUS.TIMES", PlusTimes::new(), PlusTimes::new(), seed);
        check_vxm("MAX.TIMES", MaxTimes::new(), MaxTimes::new(), seed);
        check_vxm("MIN.MAX", MinMax::new(), MinMax::new(), seed);
        check_vxm("MIN.FIRST", MinFirst::new(), MinFirst::new(), seed);
        check_vxm("PLUS.SECOND", PlusSecond::new(), PlusSecond::new(), seed);
    }
}

#[test]
fn a_num_traits_integer_multiplies_matrices_and_reduces() {
    let a = random_matrix(25, 20, 3, 7);
    let b = random_matrix(20, 15, 3, 8);
    let mut c = Csr::empty(25, 15);
    ops::mxm(
        &mut c,
        None,
        None,
        PlusTimes::new(),
        &a,
        &b,
        &MatrixDescriptor::DEFAULT,
    );
    let mut cc = Csr::empty(25, 15);
    let (ac, bc) = (a.map(Cents), b.map(Cents));
    ops::mxm(
        &mut cc,
        None,
        None,
        PlusTimes::new(),
        &ac,
        &bc,
        &MatrixDescriptor::DEFAULT,
    );
    assert!(c.nvals() > 0);
    assert_eq!(cc.map(|x| x.0), c);

    assert_eq!(
        ops::reduce_matrix(Min::new(), &ac).0,
        ops::reduce_matrix(Min::new(), &a)
    );
    assert_eq!(
        ops::reduce_matrix(Max::new(), &ac).0,
        ops::reduce_matrix(Max::new(), &a)
    );
    assert_eq!(
        ops::reduce_matrix(Plus::new(), &ac).0,
        ops::reduce_matrix(Plus::new(), &a)
    );
}

#[test]
fn the_identities_and_terminals_come_from_num_traits_unless_overridden() {
    // Integers: Bounded's extremes, Zero and One.
    assert_eq!(Min::<Cents>::new().identity(), Cents(i64::MAX));
    assert_eq!(Min::<Cents>::new().terminal(), Some(Cents(i64::MIN)));
    assert_eq!(Max::<Cents>::new().identity(), Cents(i64::MIN));
    assert_eq!(Max::<Cents>::new().terminal(), Some(Cents(i64::MAX)));
    assert_eq!(Plus::<Cents>::new().identity(), Cents(0));
    assert_eq!(Times::<Cents>::new().identity(), Cents(1));
    // The default claims nothing it cannot know: zero is not TIMES's terminal.
    assert_eq!(Times::<Cents>::new().terminal(), None);
    assert_eq!(Times::<i64>::new().terminal(), Some(0));
    // An override wins over Bounded, as for the built-in floats.
    assert_eq!(Min::<Meters>::new().identity(), Meters(f64::INFINITY));
    assert_eq!(Max::<Meters>::new().identity(), Meters(f64::NEG_INFINITY));
    assert_eq!(Min::<f64>::new().identity(), f64::INFINITY);
    assert_eq!(
        Min::<f64>::new().identity(),
        Min::<Meters>::new().identity().0
    );
}

#[test]
fn a_float_like_type_finds_the_same_shortest_paths_as_f64() {
    let a = random_matrix(60, 60, 3, 11).map(|x| (x + 10) as f64 / 4.0);
    let am = a.map(Meters);
    let mut d = Vector::full(60, f64::INFINITY);
    d.set(0, 0.0);
    let mut dm = Vector::full(60, Meters::highest());
    dm.set(0, Meters(0.0));
    for _ in 0..60 {
        let (min, minm) = (Min::<f64>::new(), Min::<Meters>::new());
        ops::vxm_inplace(
            &mut d,
            None,
            Some(&min),
            MinPlus::new(),
            &a,
            &Descriptor::DEFAULT,
        );
        ops::vxm_inplace(
            &mut dm,
            None,
            Some(&minm),
            MinPlus::new(),
            &am,
            &Descriptor::DEFAULT,
        );
    }
    let reached = d.to_pairs().iter().filter(|(_, x)| x.is_finite()).count();
    assert!(
        reached > 10,
        "only {reached} vertices reached: the test shows little"
    );
    let dm: Vec<(u32, f64)> = dm.to_pairs().into_iter().map(|(i, x)| (i, x.0)).collect();
    assert_eq!(dm, d.to_pairs());
}
