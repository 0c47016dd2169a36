//! The in-place operations (the output is also an input: `w = w min.plus A`) against
//! the ordinary operation given a clone of the output as that input, under quickcheck:
//! random shapes, vector forms, masks (none, structural, valued, complemented),
//! replace, accumulators and transposes.

use crate::qc;
use crate::random;

use edgeblas::algebra::{BinaryOp, Index};
use edgeblas::ops::{self, Accum};
use edgeblas::prelude::*;
use quickcheck::TestResult;

use qc::{Seed, verdict};
use random::{Rng, from_csr, small_dim, to_csr};

/// The seed quickcheck draws case seeds from.
const QC_SEED: u64 = 0x616c_6961_7369_6e67;

/// Runs `prop` on `tests` seeded cases in a 3-thread pool.
fn check(tests: u64, prop: fn(Seed) -> TestResult) {
    qc::check(tests, QC_SEED, prop);
}

fn small(r: &mut Rng) -> i64 {
    r.range(-3, 4)
}

/// `x - y`: an accumulator whose argument order shows.
fn minus(x: i64, y: i64) -> i64 {
    x.wrapping_sub(y)
}

const PLUS: &dyn BinaryOp<i64, i64, Output = i64> = &Plus::<i64>::new();
const MIN: &dyn BinaryOp<i64, i64, Output = i64> = &Min::<i64>::new();
const MINUS: &dyn BinaryOp<i64, i64, Output = i64> = &minus;

/// The mask, accumulator, replace and transpose draws of one case.
#[derive(Debug)]
struct Flags {
    /// 0: no mask; 1: structural; 2: valued.
    mask_kind: usize,
    complement: bool,
    replace: bool,
    /// 0: none; 1: PLUS; 2: MIN; 3: MINUS (a closure).
    accum: usize,
    transpose_a: bool,
    transpose_b: bool,
}

impl Flags {
    fn draw(r: &mut Rng) -> Self {
        Flags {
            mask_kind: r.below(3),
            complement: r.chance(0.4),
            replace: r.chance(0.5),
            accum: r.below(4),
            transpose_a: r.chance(0.35),
            transpose_b: r.chance(0.35),
        }
    }

    fn accum(&self) -> Accum<'static, i64> {
        [None, Some(PLUS), Some(MIN), Some(MINUS)][self.accum]
    }

    fn desc(&self) -> Descriptor {
        Descriptor {
            replace: self.replace,
            transpose: self.transpose_a,
        }
    }

    fn matrix_desc(&self) -> MatrixDescriptor {
        MatrixDescriptor {
            replace: self.replace,
            transpose_a: self.transpose_a,
            transpose_b: self.transpose_b,
        }
    }

    fn mask<'a>(&self, m: &'a Vector<i64>) -> Option<Mask<'a>> {
        let mask = match self.mask_kind {
            0 => return None,
            1 => Mask::structure(m),
            _ => Mask::values(m),
        };
        Some(if self.complement {
            mask.complement()
        } else {
            mask
        })
    }

    fn matrix_mask<'a>(&self, m: &'a Csr<i64>) -> Option<MatrixMask<'a>> {
        let mask = match self.mask_kind {
            0 => return None,
            1 => MatrixMask::structure(m),
            _ => MatrixMask::values(m),
        };
        Some(if self.complement {
            mask.complement()
        } else {
            mask
        })
    }
}

/// A random vector of length `n` in a random form.
fn vector<T: edgeblas::algebra::Scalar>(
    r: &mut Rng,
    n: usize,
    value: impl FnMut(&mut Rng) -> T,
    stale: T,
) -> Vector<T> {
    let (v, form) = random::vector_case(r, n, value);
    random::to_vector(&v, form, stale)
}

/// A random `m x n` matrix.
fn matrix(r: &mut Rng, m: usize, n: usize) -> Csr<i64> {
    let d = random::density(r);
    to_csr(&random::mat(r, m, n, d, small), n)
}

/// Runs `inplace` on a copy of `w`, and `ordinary` on another copy with a clone of `w`
/// as its input; the two outputs must hold the same entries.
fn same_vector(
    what: &str,
    w: &Vector<i64>,
    inplace: impl FnOnce(&mut Vector<i64>),
    ordinary: impl FnOnce(&mut Vector<i64>, &Vector<i64>),
) -> Result<(), String> {
    let mut got = w.clone();
    inplace(&mut got);
    let (mut want, input) = (w.clone(), w.clone());
    ordinary(&mut want, &input);
    if got.len() == want.len() && got.to_pairs() == want.to_pairs() {
        return Ok(());
    }
    Err(format!(
        "{what}: w {} of {}: got {:?}, want {:?}",
        w.format_name(),
        w.len(),
        got.to_pairs(),
        want.to_pairs()
    ))
}

/// The matrix form of [`same_vector`].
fn same_matrix(
    what: &str,
    c: &Csr<i64>,
    inplace: impl FnOnce(&mut Csr<i64>),
    ordinary: impl FnOnce(&mut Csr<i64>, &Csr<i64>),
) -> Result<(), String> {
    let mut got = c.clone();
    inplace(&mut got);
    let (mut want, input) = (c.clone(), c.clone());
    ordinary(&mut want, &input);
    let shape = |x: &Csr<i64>| (x.nrows(), x.ncols());
    if shape(&got) == shape(&want) && from_csr(&got) == from_csr(&want) {
        return Ok(());
    }
    Err(format!(
        "{what}: C {:?}: got {:?}, want {:?}",
        shape(c),
        from_csr(&got),
        from_csr(&want)
    ))
}

fn prop_vector_inplace(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let f = Flags::draw(&mut r);
    let n = small_dim(&mut r);
    let a = matrix(&mut r, n, n);
    let w = vector(&mut r, n, small, 99);
    let u = vector(&mut r, n, small, 99);
    let b = vector(&mut r, n, |r| r.chance(0.5), true);
    let mv = vector(&mut r, n, |r| r.range(0, 2), 7);
    let (mask, accum, desc) = (f.mask(&mv), f.accum(), f.desc());
    let m = mask.as_ref();
    let what = |op: &str| format!("seed {}: {op} with {f:?}", seed.0);
    let keep_if = |x: i64, y: bool| if y { x } else { -x };
    let res = (|| {
        same_vector(
            &what("vxm_inplace min.plus"),
            &w,
            |w| ops::vxm_inplace(w, m, accum, MinPlus::<i64>::new(), &a, &desc),
            |w, x| ops::vxm(w, m, accum, MinPlus::<i64>::new(), x, &a, &desc),
        )?;
        same_vector(
            &what("vxm_inplace plus.times"),
            &w,
            |w| ops::vxm_inplace(w, m, accum, PlusTimes::<i64>::new(), &a, &desc),
            |w, x| ops::vxm(w, m, accum, PlusTimes::<i64>::new(), x, &a, &desc),
        )?;
        same_vector(
            &what("mxv_inplace min.plus"),
            &w,
            |w| ops::mxv_inplace(w, m, accum, MinPlus::<i64>::new(), &a, &desc),
            |w, x| ops::mxv(w, m, accum, MinPlus::<i64>::new(), &a, x, &desc),
        )?;
        same_vector(
            &what("mxv_inplace plus.times"),
            &w,
            |w| ops::mxv_inplace(w, m, accum, PlusTimes::<i64>::new(), &a, &desc),
            |w, x| ops::mxv(w, m, accum, PlusTimes::<i64>::new(), &a, x, &desc),
        )?;
        same_vector(
            &what("apply_inplace"),
            &w,
            |w| ops::apply_inplace(w, m, accum, |x| 2 * x - 1, &desc),
            |w, x| ops::apply(w, m, accum, |x| 2 * x - 1, x, &desc),
        )?;
        let keep = |i: Index, x: i64| x > 0 || i.is_multiple_of(3);
        same_vector(
            &what("select_inplace"),
            &w,
            |w| ops::select_inplace(w, m, accum, keep, &desc),
            |w, x| ops::select(w, m, accum, keep, x, &desc),
        )?;
        same_vector(
            &what("ewise_add_inplace minus"),
            &w,
            |w| ops::ewise_add_inplace(w, m, accum, &minus, &u, &desc),
            |w, x| ops::ewise_add(w, m, accum, &minus, x, &u, &desc),
        )?;
        same_vector(
            &what("ewise_mult_inplace minus"),
            &w,
            |w| ops::ewise_mult_inplace(w, m, accum, &minus, &u, &desc),
            |w, x| ops::ewise_mult(w, m, accum, &minus, x, &u, &desc),
        )?;
        same_vector(
            &what("ewise_mult_inplace i64 x bool"),
            &w,
            |w| ops::ewise_mult_inplace(w, m, accum, &keep_if, &b, &desc),
            |w, x| ops::ewise_mult(w, m, accum, &keep_if, x, &b, &desc),
        )
    })();
    verdict(res)
}

fn prop_matrix_inplace(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let f = Flags::draw(&mut r);
    // Under transpose_a the input is C', which has C's shape only when C is square.
    let m = small_dim(&mut r);
    let n = if f.transpose_a || r.chance(0.5) {
        m
    } else {
        small_dim(&mut r)
    };
    let c = matrix(&mut r, m, n);
    let b = matrix(&mut r, n, n);
    let mk = matrix(&mut r, m, n).map(|x| (x > 0) as i64);
    let (mask, accum, desc) = (f.matrix_mask(&mk), f.accum(), f.matrix_desc());
    let mm = mask.as_ref();
    let what = |op: &str| format!("seed {}: {op} with {f:?}, C {m} x {n}", seed.0);
    let res = (|| {
        same_matrix(
            &what("mxm_inplace min.plus"),
            &c,
            |c| ops::mxm_inplace(c, mm, accum, MinPlus::<i64>::new(), &b, &desc),
            |c, x| ops::mxm(c, mm, accum, MinPlus::<i64>::new(), x, &b, &desc),
        )?;
        same_matrix(
            &what("mxm_inplace plus.times"),
            &c,
            |c| ops::mxm_inplace(c, mm, accum, PlusTimes::<i64>::new(), &b, &desc),
            |c, x| ops::mxm(c, mm, accum, PlusTimes::<i64>::new(), x, &b, &desc),
        )?;
        same_matrix(
            &what("apply_matrix_inplace"),
            &c,
            |c| ops::apply_matrix_inplace(c, mm, accum, |x| 2 * x - 1, &desc),
            |c, x| ops::apply_matrix(c, mm, accum, |x| 2 * x - 1, x, &desc),
        )?;
        same_matrix(
            &what("select_matrix_inplace tril"),
            &c,
            |c| ops::select_matrix_inplace(c, mm, accum, ops::tril(0), &desc),
            |c, x| ops::select_matrix(c, mm, accum, ops::tril(0), x, &desc),
        )?;
        let keep = |i: Index, j: Index, x: i64| x > 0 || i == j;
        same_matrix(
            &what("select_matrix_inplace by value"),
            &c,
            |c| ops::select_matrix_inplace(c, mm, accum, keep, &desc),
            |c, x| ops::select_matrix(c, mm, accum, keep, x, &desc),
        )
    })();
    verdict(res)
}

#[test]
fn vector_inplace_equals_the_op_on_a_clone() {
    check(300, prop_vector_inplace);
}

#[test]
fn matrix_inplace_equals_the_op_on_a_clone() {
    check(300, prop_matrix_inplace);
}

/// The example the in-place forms exist for: Bellman-Ford's `d = d min (d min.plus A)`
/// with no clone of `d`, on a 4-cycle with one shortcut.
///
/// ```text
///   0 --1--> 1 --1--> 2 --1--> 3
///    \______________5_______/^
/// ```
#[test]
fn bellman_ford_in_place() {
    let mut b = CooBuilder::new(4, 4);
    for (i, j, x) in [(0, 1, 1i64), (1, 2, 1), (2, 3, 1), (0, 3, 5)] {
        b.push(i, j, x).unwrap();
    }
    let a = b.build(Duplicates::KeepFirst).unwrap();
    let mut d = Vector::from_pairs(4, [(0, 0i64)]);
    let min = Min::<i64>::new();
    for _ in 0..4 {
        ops::vxm_inplace(
            &mut d,
            None,
            Some(&min),
            MinPlus::<i64>::new(),
            &a,
            &Descriptor::DEFAULT,
        );
    }
    assert_eq!(d.to_pairs(), vec![(0, 0), (1, 1), (2, 2), (3, 3)]);
}
