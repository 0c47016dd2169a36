//! The built-in binary operators against plain arithmetic, the pattern semirings against
//! PLUS.TIMES / MIN.PLUS with explicit ones, closures against the built-in operators they
//! spell out, and `Vector::set` / `remove` against a map.

use std::collections::BTreeMap;

use edgeblas::algebra::{BinaryOp, Compose, Monoid, Semiring};
use edgeblas::prelude::*;
use quickcheck::QuickCheck;

fn qc() -> QuickCheck {
    QuickCheck::new().tests(300)
}

#[test]
fn binary_operators_match_arithmetic() {
    fn prop(x: i32, y: i32, a: f64, b: f64) -> bool {
        Minus::new().apply(x, y) == x.wrapping_sub(y)
            && Rminus::new().apply(x, y) == y.wrapping_sub(x)
            && Div::new().apply(x, y) == if y == 0 { 0 } else { x.wrapping_div(y) }
            && Rdiv::new().apply(x, y) == if x == 0 { 0 } else { y.wrapping_div(x) }
            && (Div::new().apply(a, b).to_bits() == (a / b).to_bits()
                || (a / b).is_nan() && Div::new().apply(a, b).is_nan())
            && First::<i32>::new().apply(x, a) == x
            && Pair::<u8>::new().apply(x, a) == 1
            && EqOp::new().apply(x, y) == (x == y)
            && NeOp::new().apply(x, y) == (x != y)
            && LtOp::new().apply(x, y) == (x < y)
            && LeOp::new().apply(x, y) == (x <= y)
            && GtOp::new().apply(x, y) == (x > y)
            && GeOp::new().apply(x, y) == (x >= y)
            && Lxor.combine(x > 0, y > 0) == ((x > 0) != (y > 0))
            && Lxor.combine(Lxor.identity(), x > 0) == (x > 0)
            && Min::<usize>::new().combine(x as u32 as usize, y as u32 as usize)
                == (x as u32 as usize).min(y as u32 as usize)
    }
    qc().quickcheck(prop as fn(i32, i32, f64, f64) -> bool);
}

#[test]
fn pattern_semirings_equal_explicit_ones() {
    fn prop(arcs: Vec<(u8, u8)>, u: Vec<(u8, i32)>) -> bool {
        let n = 32;
        let mut b = CooBuilder::new(n, n);
        for &(i, j) in &arcs {
            b.push(i as usize % n, j as usize % n, ()).unwrap();
        }
        let p = b.build(Duplicates::KeepFirst).unwrap();
        let ones = p.map(|_| 1i64);
        let u = Vector::from_pairs(
            n,
            u.iter().map(|&(i, x)| ((i as usize % n) as u32, x as i64)),
        );
        let d = Descriptor::DEFAULT;
        let mut w1: Vector<i64> = Vector::new(n);
        let mut w2: Vector<i64> = Vector::new(n);
        ops::vxm(&mut w1, None, None, PlusSecond::<i64>::new(), &u, &p, &d);
        ops::vxm(&mut w2, None, None, PlusTimes::<i64>::new(), &u, &ones, &d);
        let zeros = p.map(|_| 0i64);
        let mut w3: Vector<i64> = Vector::new(n);
        let mut w4: Vector<i64> = Vector::new(n);
        ops::mxv(&mut w3, None, None, MinSecond::<i64>::new(), &p, &u, &d);
        ops::mxv(&mut w4, None, None, MinPlus::<i64>::new(), &zeros, &u, &d);
        let _ = MinSecond::<i64>::new().multiply((), 3, 0);
        w1 == w2 && w3 == w4
    }
    qc().quickcheck(prop as fn(Vec<(u8, u8)>, Vec<(u8, i32)>) -> bool);
}

#[test]
fn set_and_remove_match_a_map() {
    fn prop(ops_: Vec<(bool, u8, i16)>, form: u8) -> bool {
        let n = 40;
        let mut v: Vector<i16> = match form % 3 {
            0 => Vector::new(n),
            1 => Vector::Bitmap(Vector::<i16>::new(n).into_bitmap()),
            _ => Vector::from_dense(vec![7; n]),
        };
        let mut m: BTreeMap<u32, i16> = v.to_pairs().into_iter().collect();
        for (set, i, x) in ops_ {
            let i = i as usize % n;
            if set {
                v.set(i, x);
                m.insert(i as u32, x);
            } else {
                v.remove(i);
                m.remove(&(i as u32));
            }
        }
        v.to_pairs() == m.into_iter().collect::<Vec<_>>() && v.nvals() == v.to_pairs().len()
    }
    qc().quickcheck(prop as fn(Vec<(bool, u8, i16)>, u8) -> bool);
}

// ---- closures as operators -------------------------------------------------------

/// A random `n`-vector of small f64 values (exact in sums and products) from pairs.
fn fvec(n: usize, pairs: &[(u8, i8)]) -> Vector<f64> {
    Vector::from_pairs(
        n,
        pairs
            .iter()
            .map(|&(i, x)| ((i as usize % n) as u32, x as f64)),
    )
}

#[test]
fn closure_accumulator_equals_builtin() {
    fn prop(w: Vec<(u8, i8)>, u: Vec<(u8, i8)>) -> bool {
        let n = 24;
        let (w0, u) = (fvec(n, &w), fvec(n, &u));
        let d = Descriptor::DEFAULT;
        let (mut w1, mut w2) = (w0.clone(), w0);
        ops::apply(
            &mut w1,
            None,
            Some(&|a: f64, b: f64| a.min(b)),
            |x| x,
            &u,
            &d,
        );
        ops::apply(&mut w2, None, Some(&Min::<f64>::new()), |x| x, &u, &d);
        w1 == w2
    }
    qc().quickcheck(prop as fn(Vec<(u8, i8)>, Vec<(u8, i8)>) -> bool);
}

#[test]
fn closure_ewise_ops_equal_builtin() {
    fn prop(u: Vec<(u8, i8)>, v: Vec<(u8, i8)>) -> bool {
        let n = 24;
        let (u, v) = (fvec(n, &u), fvec(n, &v));
        let d = Descriptor::DEFAULT;
        let plus = |a: f64, b: f64| a + b;
        let times = |a: f64, b: f64| a * b;
        let mut add = (Vector::new(n), Vector::new(n));
        ops::ewise_add(&mut add.0, None, None, &plus, &u, &v, &d);
        ops::ewise_add(&mut add.1, None, None, &Plus::<f64>::new(), &u, &v, &d);
        let mut mult = (Vector::new(n), Vector::new(n));
        ops::ewise_mult(&mut mult.0, None, None, &times, &u, &v, &d);
        ops::ewise_mult(&mut mult.1, None, None, &Times::<f64>::new(), &u, &v, &d);
        add.0 == add.1 && mult.0 == mult.1
    }
    qc().quickcheck(prop as fn(Vec<(u8, i8)>, Vec<(u8, i8)>) -> bool);
}

#[test]
fn compose_min_closure_equals_min_plus() {
    fn prop(arcs: Vec<(u8, u8, i8)>, u: Vec<(u8, i8)>) -> bool {
        let n = 24;
        let mut b = CooBuilder::new(n, n);
        for &(i, j, x) in &arcs {
            b.push(i as usize % n, j as usize % n, x as f64).unwrap();
        }
        let a = b.build(Duplicates::KeepFirst).unwrap();
        let u = fvec(n, &u);
        let d = Descriptor::DEFAULT;
        // MIN.PLUS, its multiply a closure; the matrix entry comes first.
        let min_closure = Compose(Min::<f64>::new(), |a: f64, u: f64| a + u);
        let (mut w1, mut w2) = (Vector::new(n), Vector::new(n));
        ops::vxm(&mut w1, None, None, min_closure, &u, &a, &d);
        ops::vxm(&mut w2, None, None, MinPlus::<f64>::new(), &u, &a, &d);
        w1 == w2
    }
    qc().quickcheck(prop as fn(Vec<(u8, u8, i8)>, Vec<(u8, i8)>) -> bool);
}
