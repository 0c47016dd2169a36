//! GraphBLAS C API conformance where edgeblas once differed from SuiteSparse:GraphBLAS:
//! a vector is a column (positional operators see `u(i)` at row `i`, column 0), and the
//! tie rule of MIN and MAX on signed zeros. Each expected value is what SuiteSparse 9.4.5
//! (python-graphblas 2025.2.0) gives for the same call; python/tests/test_differential.py
//! checks the rest of the algebra against it.

use edgeblas::algebra::BinaryOp;
use edgeblas::prelude::*;

/// The vector: entries at 0 and 3, values 5.0 and 0.0 (an explicit zero).
fn u() -> Vector<f64> {
    Vector::from_pairs(4, [(0, 5.0), (3, 0.0)])
}

fn selected(pred: impl Fn(u32, f64) -> bool + Sync) -> Vec<(u32, f64)> {
    let mut w = Vector::new(4);
    ops::select(&mut w, None, None, pred, &u(), &Descriptor::DEFAULT);
    w.to_pairs()
}

fn applied(f: impl Fn(u32, f64) -> i64 + Sync) -> Vec<(u32, i64)> {
    let mut w = Vector::new(4);
    ops::apply_indexed(&mut w, None, None, f, &u(), &Descriptor::DEFAULT);
    w.to_pairs()
}

#[test]
fn select_on_a_vector_sees_a_column() {
    // tril 0 keeps j <= i + 0: with j = 0, every row.
    assert_eq!(
        selected(ops::column(ops::tril(0))),
        vec![(0, 5.0), (3, 0.0)]
    );
    // triu 0 keeps j >= i: only row 0.
    assert_eq!(selected(ops::column(ops::triu(0))), vec![(0, 5.0)]);
    assert_eq!(
        selected(ops::column(ops::triu(-3))),
        vec![(0, 5.0), (3, 0.0)]
    );
    assert_eq!(selected(ops::column(ops::tril(-1))), vec![(3, 0.0)]);
    assert_eq!(selected(ops::column(ops::diag(0))), vec![(0, 5.0)]);
    assert_eq!(selected(ops::column(ops::diag(-3))), vec![(3, 0.0)]);
    assert_eq!(selected(ops::column(ops::offdiag(0))), vec![(3, 0.0)]);
    assert_eq!(selected(ops::column(ops::value_ne(0.0))), vec![(0, 5.0)]);
}

#[test]
fn index_apply_on_a_vector_sees_a_column() {
    assert_eq!(applied(ops::column(ops::rowindex(0))), vec![(0, 0), (3, 3)]);
    assert_eq!(applied(ops::column(ops::rowindex(2))), vec![(0, 2), (3, 5)]);
    assert_eq!(applied(ops::column(ops::colindex(0))), vec![(0, 0), (3, 0)]);
    assert_eq!(applied(ops::column(ops::colindex(7))), vec![(0, 7), (3, 7)]);
    // j - (i + k)
    assert_eq!(
        applied(ops::column(ops::diagindex(1))),
        vec![(0, -1), (3, -4)]
    );
}

#[test]
fn index_ops_on_a_matrix() {
    let mut b = CooBuilder::new(2, 3);
    for (i, j, x) in [(0, 2, 1.0), (1, 0, 2.0)] {
        b.push(i, j, x).unwrap();
    }
    let a: Csr<f64> = b.build(Duplicates::Error).unwrap();
    let md = MatrixDescriptor::DEFAULT;
    let run = |f: &(dyn Fn(u32, u32, f64) -> i64 + Sync)| {
        let mut c = Csr::empty(2, 3);
        ops::apply_matrix_indexed(&mut c, None, None, f, &a, &md);
        c.values().to_vec()
    };
    assert_eq!(run(&ops::rowindex(1)), vec![1, 2]);
    assert_eq!(run(&ops::colindex(0)), vec![2, 0]);
    assert_eq!(run(&ops::diagindex(0)), vec![2, -1]);
    // SuiteSparse: DIAGINDEX with thunk 2 gives 0 at (0, 2) and -3 at (1, 0).
    assert_eq!(run(&ops::diagindex(2)), vec![0, -3]);
}

fn bits(x: f64) -> u64 {
    x.to_bits()
}

#[test]
fn min_and_max_keep_negative_zero_on_a_tie_in_either_order() {
    for (x, y) in [(0.0, -0.0), (-0.0, 0.0)] {
        assert_eq!(bits(Max::<f64>::new().apply(x, y)), bits(-0.0));
        assert_eq!(bits(Min::<f64>::new().apply(x, y)), bits(-0.0));
        assert_eq!(
            bits(Max::<f32>::new().apply(x as f32, y as f32) as f64),
            bits(-0.0)
        );
    }
    assert_eq!(bits(Max::<f64>::new().apply(0.0, 0.0)), bits(0.0));
    assert_eq!(bits(Min::<f64>::new().apply(0.0, 0.0)), bits(0.0));
    assert_eq!(
        Max::<f64>::new().apply(f64::NAN, -0.0).to_bits(),
        bits(-0.0)
    );
    assert_eq!(Min::<i32>::new().apply(3, 3), 3);
}

/// The example: `C(0,0) = inf`, `C accum= A max.times B` with accum DIV, where
/// the products are `0.0` (k = 0) and `-0.0` (k = 1). SuiteSparse keeps `-0.0` and gives
/// `inf / -0.0 = -inf`; so does every order here.
#[test]
fn max_times_signed_zero_tie_then_div_accumulate() {
    let cases: [([f64; 2], [f64; 2]); 4] = [
        ([1.0, -1.0], [0.0, 0.0]),
        ([-1.0, 1.0], [0.0, 0.0]),
        ([0.0, -0.0], [1.0, 1.0]),
        ([-0.0, 0.0], [1.0, 1.0]),
    ];
    for (av, bv) in cases {
        let mut ab = CooBuilder::new(1, 2);
        ab.push(0, 0, av[0]).unwrap();
        ab.push(0, 1, av[1]).unwrap();
        let a: Csr<f64> = ab.build(Duplicates::Error).unwrap();
        let mut bb = CooBuilder::new(2, 1);
        bb.push(0, 0, bv[0]).unwrap();
        bb.push(1, 0, bv[1]).unwrap();
        let b: Csr<f64> = bb.build(Duplicates::Error).unwrap();
        let mut cb = CooBuilder::new(1, 1);
        cb.push(0, 0, f64::INFINITY).unwrap();
        let mut c: Csr<f64> = cb.build(Duplicates::Error).unwrap();
        let div = |x: f64, y: f64| x / y;
        let acc: Option<&dyn BinaryOp<f64, f64, Output = f64>> = Some(&div);
        ops::mxm(
            &mut c,
            None,
            acc,
            MaxTimes::<f64>::new(),
            &a,
            &b,
            &MatrixDescriptor::DEFAULT,
        );
        assert_eq!(c.values(), &[f64::NEG_INFINITY], "A = {av:?}, B = {bv:?}");

        // The same product as a vector: w = A max.times u, then u' max.times A'.
        let u = Vector::from_pairs(2, [(0, bv[0]), (1, bv[1])]);
        let mut w = Vector::new(1);
        ops::mxv(
            &mut w,
            None,
            None,
            MaxTimes::<f64>::new(),
            &a,
            &u,
            &Descriptor::DEFAULT,
        );
        assert_eq!(
            w.to_pairs().iter().map(|p| bits(p.1)).collect::<Vec<_>>(),
            vec![bits(-0.0)]
        );
        let mut w = Vector::new(1);
        let at = a.transpose();
        ops::vxm(
            &mut w,
            None,
            None,
            MaxTimes::<f64>::new(),
            &u,
            &at,
            &Descriptor::DEFAULT,
        );
        assert_eq!(
            w.to_pairs().iter().map(|p| bits(p.1)).collect::<Vec<_>>(),
            vec![bits(-0.0)]
        );
    }
}

/// A reduction of tied zeros: `-0.0` wherever it is among the terms.
#[test]
fn max_reduce_of_signed_zeros_is_negative_zero() {
    for v in [[0.0, -0.0, 0.0], [-0.0, 0.0, 0.0], [0.0, 0.0, -0.0]] {
        let u = Vector::from_pairs(3, [(0, v[0]), (1, v[1]), (2, v[2])]);
        assert_eq!(
            bits(ops::reduce(Max::<f64>::new(), &u)),
            bits(-0.0),
            "{v:?}"
        );
        assert_eq!(
            bits(ops::reduce(Min::<f64>::new(), &u)),
            bits(-0.0),
            "{v:?}"
        );
    }
}
