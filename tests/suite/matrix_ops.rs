//! The matrix operations other than mxm -- ewise add and mult, apply (plain, bound,
//! index-aware), select (positional and by value), transpose, extract, assign and
//! kronecker -- and the vector extract and assign, against a dense oracle written here
//! (over the shared write-back of `common/oracle.rs`), under quickcheck: random shapes
//! (empty, rectangular, zero-sized), masks (none, structural, valued, complemented),
//! replace, accumulators and the transposes of either input.

use crate::oracle;
use crate::qc;
use crate::random;

use edgeblas::algebra::{BinaryOp, Index, Indices};
use edgeblas::ops::{self, Accum};
use edgeblas::prelude::*;
use quickcheck::TestResult;

use oracle::{DMat, DVec, empty_mat, mask_allows, mat_allowed, transpose, write, write_mat};
use qc::{Seed, pool, verdict};
use random::{Rng, from_csr, from_vector, small_dim, to_csr};

/// The seed quickcheck draws case seeds from.
const QC_SEED: u64 = 0x6d61_745f_6f70_7321;

/// Runs `prop` on `tests` seeded cases in a 3-thread pool.
fn check(tests: u64, prop: fn(Seed) -> TestResult) {
    qc::check(tests, QC_SEED, prop);
}

fn density(r: &mut Rng) -> f64 {
    r.pick(&[0.0, 0.02, 0.1, 0.3, 0.6, 1.0])
}

fn small(r: &mut Rng) -> i64 {
    r.range(-3, 4)
}

/// The mask, accumulator, replace and transpose draws of one case.
#[derive(Debug)]
struct Flags {
    /// 0: no mask; 1: structural; 2: valued.
    mask_kind: usize,
    complement: bool,
    replace: bool,
    /// 0: none; 1: PLUS; 2: MIN.
    accum: usize,
    transpose_a: bool,
    transpose_b: bool,
}

impl Flags {
    fn draw(r: &mut Rng) -> Self {
        Flags {
            mask_kind: r.below(3),
            complement: r.chance(0.35),
            replace: r.chance(0.4),
            accum: r.below(3),
            transpose_a: r.chance(0.35),
            transpose_b: r.chance(0.35),
        }
    }

    fn desc(&self) -> MatrixDescriptor {
        MatrixDescriptor {
            replace: self.replace,
            transpose_a: self.transpose_a,
            transpose_b: self.transpose_b,
        }
    }

    fn vdesc(&self) -> Descriptor {
        Descriptor {
            replace: self.replace,
            transpose: self.transpose_a,
        }
    }

    fn accum(&self) -> Accum<'static, i64> {
        static PLUS: Plus<i64> = Plus::new();
        static MIN: Min<i64> = Min::new();
        match self.accum {
            0 => None,
            1 => Some(&PLUS),
            _ => Some(&MIN),
        }
    }
}

/// A random operand whose effective shape (after the transpose flag) is `shape`: the
/// dense effective matrix, and the library matrix as stored.
fn operand(r: &mut Rng, shape: (usize, usize), transposed: bool) -> (DMat<i64>, Csr<i64>) {
    let d = density(r);
    if transposed {
        let stored = random::mat(r, shape.1, shape.0, d, small);
        (transpose(&stored, shape.0), to_csr(&stored, shape.0))
    } else {
        let a = random::mat(r, shape.0, shape.1, d, small);
        let c = to_csr(&a, shape.1);
        (a, c)
    }
}

/// One matrix case: draws C's old value and the mask for an `m x n` output, computes
/// the expected result with `want(c0, allowed, accum)`, runs `call` on the library and
/// compares.
fn matrix_case(
    r: &mut Rng,
    f: &Flags,
    (m, n): (usize, usize),
    want: impl FnOnce(&DMat<i64>, &[Vec<bool>], Accum<'_, i64>) -> DMat<i64>,
    call: impl FnOnce(&mut Csr<i64>, Option<&MatrixMask>, Accum<'_, i64>, &MatrixDescriptor),
    what: &str,
) -> Result<(), String> {
    let dc = density(r);
    let c0 = random::mat(r, m, n, dc, small);
    let dm = density(r);
    let mk = random::mat(r, m, n, dm, |r| r.range(0, 2));
    let ok = mat_allowed(
        (f.mask_kind > 0).then_some(&mk),
        (m, n),
        f.mask_kind == 2,
        f.complement,
    );
    let expect = want(&c0, &ok, f.accum());
    let mcsr = to_csr(&mk, n);
    let mask = match f.mask_kind {
        0 => None,
        1 => Some(MatrixMask::structure(&mcsr)),
        _ => Some(MatrixMask::values(&mcsr)),
    }
    .map(|x| if f.complement { x.complement() } else { x });
    let mut c = to_csr(&c0, n);
    call(&mut c, mask.as_ref(), f.accum(), &f.desc());
    if from_csr(&c) == expect {
        Ok(())
    } else {
        Err(format!("{what} differs from the oracle: {m}x{n} {f:?}"))
    }
}

/// The plain write-back of an operation's result `t`.
fn plain(
    t: DMat<i64>,
    replace: bool,
) -> impl FnOnce(&DMat<i64>, &[Vec<bool>], Accum<'_, i64>) -> DMat<i64> {
    move |c0, ok, accum| write_mat(c0, ok, accum, &t, replace)
}

/// Element by element over two equal shapes.
fn zip_mat(
    a: &DMat<i64>,
    b: &DMat<i64>,
    f: impl Fn(Option<i64>, Option<i64>) -> Option<i64>,
) -> DMat<i64> {
    a.iter()
        .zip(b)
        .map(|(ra, rb)| ra.iter().zip(rb).map(|(&x, &y)| f(x, y)).collect())
        .collect()
}

fn prop_ewise(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let f = Flags::draw(&mut r);
    let (m, n) = (small_dim(&mut r), small_dim(&mut r));
    let (da, ca) = operand(&mut r, (m, n), f.transpose_a);
    let (db, cb) = operand(&mut r, (m, n), f.transpose_b);
    let res = if r.chance(0.5) {
        let op = Max::<i64>::new();
        let t = zip_mat(&da, &db, |x, y| match (x, y) {
            (Some(x), Some(y)) => Some(op.apply(x, y)),
            (x, None) => x,
            (None, y) => y,
        });
        matrix_case(
            &mut r,
            &f,
            (m, n),
            plain(t, f.replace),
            |c, mask, accum, desc| ops::ewise_add_matrix(c, mask, accum, &op, &ca, &cb, desc),
            "ewise_add_matrix",
        )
    } else {
        // MINUS is not commutative: the operands must not be swapped.
        let op = Minus::<i64>::new();
        let t = zip_mat(&da, &db, |x, y| match (x, y) {
            (Some(x), Some(y)) => Some(op.apply(x, y)),
            _ => None,
        });
        matrix_case(
            &mut r,
            &f,
            (m, n),
            plain(t, f.replace),
            |c, mask, accum, desc| ops::ewise_mult_matrix(c, mask, accum, &op, &ca, &cb, desc),
            "ewise_mult_matrix",
        )
    };
    verdict(res)
}

/// ewise_mult with operands of different lengths per row (a hub row against a short
/// one) takes the galloping path; the mixed-type form (i64 x bool -> i64) too.
#[test]
fn ewise_mult_gallops_and_mixes_types() {
    let n = 500;
    let mut r = Rng::new(7);
    let da = random::mat(&mut r, 3, n, 0.9, small);
    let db: DMat<bool> = random::mat(&mut r, 3, n, 0.01, |r| r.chance(0.5));
    let (ca, cb) = (to_csr(&da, n), to_csr(&db, n));
    let mut c: Csr<i64> = Csr::empty(3, n);
    // A plain closure is a binary operator.
    let keep_if = |x: i64, y: bool| if y { x } else { 0 };
    ops::ewise_mult_matrix(
        &mut c,
        None,
        None,
        &keep_if,
        &ca,
        &cb,
        &MatrixDescriptor::DEFAULT,
    );
    let want: DMat<i64> = da
        .iter()
        .zip(&db)
        .map(|(ra, rb)| {
            ra.iter()
                .zip(rb)
                .map(|(x, y)| match (x, y) {
                    (Some(x), Some(y)) => Some(keep_if(*x, *y)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    assert_eq!(from_csr(&c), want);
    // And the other way round: the short row first.
    let mut c2: Csr<i64> = Csr::empty(3, n);
    ops::ewise_mult_matrix(
        &mut c2,
        None,
        None,
        &Times::<i64>::new(),
        &to_csr(&db, n).map(|b| b as i64),
        &ca,
        &MatrixDescriptor::DEFAULT,
    );
    let want2 = zip_mat(
        &db.iter()
            .map(|row| row.iter().map(|x| x.map(|b| b as i64)).collect())
            .collect(),
        &da,
        |x, y| Some(x? * y?),
    );
    assert_eq!(from_csr(&c2), want2);
}

fn prop_apply_select_transpose(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let f = Flags::draw(&mut r);
    let (m, n) = (small_dim(&mut r), small_dim(&mut r));
    let (da, ca) = operand(&mut r, (m, n), f.transpose_a);
    let map = |g: &dyn Fn(usize, usize, i64) -> Option<i64>| -> DMat<i64> {
        da.iter()
            .enumerate()
            .map(|(i, row)| {
                row.iter()
                    .enumerate()
                    .map(|(j, x)| x.and_then(|x| g(i, j, x)))
                    .collect()
            })
            .collect()
    };
    let k = r.range(-3, 4);
    let y = small(&mut r);
    let res = match r.below(9) {
        0 => matrix_case(
            &mut r,
            &f,
            (m, n),
            plain(map(&|_, _, x| Some(x * x - 1)), f.replace),
            |c, mask, accum, desc| ops::apply_matrix(c, mask, accum, |x: i64| x * x - 1, &ca, desc),
            "apply_matrix",
        ),
        1 => matrix_case(
            &mut r,
            &f,
            (m, n),
            plain(map(&|_, _, x| Some(y - x)), f.replace),
            |c, mask, accum, desc| {
                let g = bind_first(Minus::<i64>::new(), y);
                ops::apply_matrix(c, mask, accum, g, &ca, desc)
            },
            "apply_matrix(bind_first(MINUS))",
        ),
        2 => matrix_case(
            &mut r,
            &f,
            (m, n),
            plain(map(&|_, _, x| Some(x - y)), f.replace),
            |c, mask, accum, desc| {
                let g = bind_second(Minus::<i64>::new(), y);
                ops::apply_matrix(c, mask, accum, g, &ca, desc)
            },
            "apply_matrix(bind_second(MINUS))",
        ),
        3 => matrix_case(
            &mut r,
            &f,
            (m, n),
            plain(
                map(&|i, j, x| Some(10 * i as i64 - j as i64 + x)),
                f.replace,
            ),
            |c, mask, accum, desc| {
                ops::apply_matrix_indexed(
                    c,
                    mask,
                    accum,
                    |i, j, x: i64| 10 * i as i64 - j as i64 + x,
                    &ca,
                    desc,
                )
            },
            "apply_matrix_indexed",
        ),
        4 => matrix_case(
            &mut r,
            &f,
            (m, n),
            plain(
                map(&|i, j, x| (j as i64 <= i as i64 + k).then_some(x)),
                f.replace,
            ),
            |c, mask, accum, desc| ops::select_matrix(c, mask, accum, ops::tril(k), &ca, desc),
            "select_matrix(tril)",
        ),
        5 => matrix_case(
            &mut r,
            &f,
            (m, n),
            plain(
                map(&|i, j, x| (j as i64 != i as i64 + k).then_some(x)),
                f.replace,
            ),
            |c, mask, accum, desc| ops::select_matrix(c, mask, accum, ops::offdiag(k), &ca, desc),
            "select_matrix(offdiag)",
        ),
        6 => {
            let which = r.below(6);
            let pred = |x: i64| match which {
                0 => x == y,
                1 => x != y,
                2 => x > y,
                3 => x >= y,
                4 => x < y,
                _ => x <= y,
            };
            matrix_case(
                &mut r,
                &f,
                (m, n),
                plain(map(&|_, _, x| pred(x).then_some(x)), f.replace),
                |c, mask, accum, desc| match which {
                    0 => ops::select_matrix(c, mask, accum, ops::value_eq(y), &ca, desc),
                    1 => ops::select_matrix(c, mask, accum, ops::value_ne(y), &ca, desc),
                    2 => ops::select_matrix(c, mask, accum, ops::value_gt(y), &ca, desc),
                    3 => ops::select_matrix(c, mask, accum, ops::value_ge(y), &ca, desc),
                    4 => ops::select_matrix(c, mask, accum, ops::value_lt(y), &ca, desc),
                    _ => ops::select_matrix(c, mask, accum, ops::value_le(y), &ca, desc),
                },
                "select_matrix(value)",
            )
        }
        _ => {
            // C = A' of the effective A: shape n x m. Under transpose_a the library
            // transposes the stored A' twice.
            let t = transpose(&da, n);
            matrix_case(
                &mut r,
                &f,
                (n, m),
                plain(t, f.replace),
                |c, mask, accum, desc| ops::transpose(c, mask, accum, &ca, desc),
                "transpose",
            )
        }
    };
    verdict(res)
}

/// Random index lists over a dimension of `n`: All, a range, or a list in random
/// order (with repeats when `repeats`).
fn indices(r: &mut Rng, n: usize, repeats: bool) -> (Vec<Index>, IndexKind) {
    match r.below(4) {
        0 => ((0..n as Index).collect(), IndexKind::All),
        1 => {
            let lo = r.below(n + 1);
            let hi = lo + r.below(n - lo + 1);
            ((lo as Index..hi as Index).collect(), IndexKind::Range)
        }
        _ => {
            let len = r.below(n + 3);
            let mut list: Vec<Index> = Vec::new();
            if n > 0 {
                for _ in 0..len {
                    list.push(r.below(n) as Index);
                }
            }
            if !repeats {
                list.sort_unstable();
                list.dedup();
                // A random order.
                for p in (1..list.len()).rev() {
                    list.swap(p, r.below(p + 1));
                }
            }
            if r.chance(0.3) {
                list.sort_unstable();
            }
            (list, IndexKind::List)
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum IndexKind {
    All,
    Range,
    List,
}

fn as_indices(list: &[Index], kind: IndexKind) -> Indices<'_> {
    match kind {
        IndexKind::All => Indices::All,
        IndexKind::Range => match (list.first(), list.last()) {
            (Some(&lo), Some(&hi)) => Indices::Range(lo, hi + 1),
            _ => Indices::Range(0, 0),
        },
        IndexKind::List => Indices::List(list),
    }
}

fn prop_extract_assign(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let f = Flags::draw(&mut r);
    let (m, n) = (small_dim(&mut r), small_dim(&mut r));
    let res = if r.chance(0.5) {
        // C = A(I, J) from an m x n A.
        let (da, ca) = operand(&mut r, (m, n), f.transpose_a);
        let (rows, rk) = indices(&mut r, m, true);
        let (cols, ck) = indices(&mut r, n, true);
        let t: DMat<i64> = rows
            .iter()
            .map(|&i| cols.iter().map(|&j| da[i as usize][j as usize]).collect())
            .collect();
        matrix_case(
            &mut r,
            &f,
            (rows.len(), cols.len()),
            plain(t, f.replace),
            |c, mask, accum, desc| {
                ops::extract_matrix(
                    c,
                    mask,
                    accum,
                    &ca,
                    &as_indices(&rows, rk),
                    &as_indices(&cols, ck),
                    desc,
                )
            },
            &format!("extract_matrix {rk:?} {ck:?}"),
        )
    } else {
        // C(I, J) = A into an m x n C; A is |I| x |J|.
        let (rows, rk) = indices(&mut r, m, false);
        let (cols, ck) = indices(&mut r, n, false);
        let (da, ca) = operand(&mut r, (rows.len(), cols.len()), f.transpose_a);
        let replace = f.replace;
        matrix_case(
            &mut r,
            &f,
            (m, n),
            |c0, ok, accum| {
                let mut z = c0.clone();
                for (p, &i) in rows.iter().enumerate() {
                    for (q, &j) in cols.iter().enumerate() {
                        let (i, j) = (i as usize, j as usize);
                        z[i][j] = match (accum, c0[i][j], da[p][q]) {
                            (Some(op), Some(x), Some(y)) => Some(op.apply(x, y)),
                            (Some(_), x, None) => x,
                            (_, _, y) => y,
                        };
                    }
                }
                write_mat(c0, ok, None, &z, replace)
            },
            |c, mask, accum, desc| {
                ops::assign_matrix(
                    c,
                    mask,
                    accum,
                    &ca,
                    &as_indices(&rows, rk),
                    &as_indices(&cols, ck),
                    desc,
                )
            },
            &format!("assign_matrix {rk:?} {ck:?}"),
        )
    };
    verdict(res)
}

fn prop_kronecker(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let f = Flags::draw(&mut r);
    let small_dim = |r: &mut Rng| r.pick(&[0usize, 1, 2, 3, 5, 7]);
    let (ma, na, mb, nb) = (
        small_dim(&mut r),
        small_dim(&mut r),
        small_dim(&mut r),
        small_dim(&mut r),
    );
    let (da, ca) = operand(&mut r, (ma, na), f.transpose_a);
    let (db, cb) = operand(&mut r, (mb, nb), f.transpose_b);
    let op = Minus::<i64>::new();
    let mut t = empty_mat(ma * mb, na * nb);
    for i in 0..ma {
        for j in 0..na {
            for k in 0..mb {
                for l in 0..nb {
                    if let (Some(x), Some(y)) = (da[i][j], db[k][l]) {
                        t[i * mb + k][j * nb + l] = Some(op.apply(x, y));
                    }
                }
            }
        }
    }
    verdict(matrix_case(
        &mut r,
        &f,
        (ma * mb, na * nb),
        plain(t, f.replace),
        |c, mask, accum, desc| ops::kronecker(c, mask, accum, &op, &ca, &cb, desc),
        "kronecker",
    ))
}

/// One vector case: `w` of length `len`, its mask, the expected result by `want`.
fn vector_case(
    r: &mut Rng,
    f: &Flags,
    len: usize,
    want: impl FnOnce(&DVec<i64>, &[bool], Accum<'_, i64>) -> DVec<i64>,
    call: impl FnOnce(&mut Vector<i64>, Option<&Mask>, Accum<'_, i64>, &Descriptor),
    what: &str,
) -> Result<(), String> {
    let (w0, form) = random::vector_case(r, len, small);
    let (mk, mform) = random::vector_case(r, len, |r| r.range(0, 2));
    let ok = if f.mask_kind == 0 {
        vec![true; len]
    } else {
        mask_allows(&mk, f.mask_kind == 2, f.complement)
    };
    let expect = want(&w0, &ok, f.accum());
    let mvec = random::to_vector(&mk, mform, 0);
    let mask = match f.mask_kind {
        0 => None,
        1 => Some(Mask::structure(&mvec)),
        _ => Some(Mask::values(&mvec)),
    }
    .map(|x| if f.complement { x.complement() } else { x });
    let mut w = random::to_vector(&w0, form, 99);
    call(&mut w, mask.as_ref(), f.accum(), &f.vdesc());
    if from_vector(&w) == expect {
        Ok(())
    } else {
        Err(format!(
            "{what} differs from the oracle: len {len} {f:?}\nw0 {w0:?}\ngot {:?}\nwant {expect:?}",
            from_vector(&w)
        ))
    }
}

fn prop_vector_extract_assign(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let f = Flags::draw(&mut r);
    let (m, n) = (small_dim(&mut r), small_dim(&mut r));
    let replace = f.replace;
    let res = match r.below(3) {
        0 | 1 if m > 0 && n > 0 => {
            let d = density(&mut r);
            let a = random::mat(&mut r, m, n, d, small);
            let ca = to_csr(&a, n);
            let row = r.below(2) == 0;
            // A(i, J), or A(I, j); under the transpose flag the other of the two.
            let reads_row = row != f.transpose_a;
            let (fixed, span) = if reads_row { (m, n) } else { (n, m) };
            let at = r.below(fixed);
            let (list, kind) = indices(&mut r, span, true);
            let t: DVec<i64> = list
                .iter()
                .map(|&x| {
                    if reads_row {
                        a[at][x as usize]
                    } else {
                        a[x as usize][at]
                    }
                })
                .collect();
            vector_case(
                &mut r,
                &f,
                list.len(),
                |w0, ok, accum| write(w0, Some(ok), accum, &t, replace),
                |w, mask, accum, desc| {
                    let ix = as_indices(&list, kind);
                    if row {
                        ops::extract_row(w, mask, accum, &ca, at as Index, &ix, desc)
                    } else {
                        ops::extract_col(w, mask, accum, &ca, &ix, at as Index, desc)
                    }
                },
                &format!("extract_{} {kind:?}", if row { "row" } else { "col" }),
            )
        }
        _ => {
            let (list, kind) = indices(&mut r, m, false);
            let (u, uform) = random::vector_case(&mut r, list.len(), small);
            let uv = random::to_vector(&u, uform, 77);
            vector_case(
                &mut r,
                &f,
                m,
                |w0, ok, accum| {
                    let mut z = w0.clone();
                    for (p, &i) in list.iter().enumerate() {
                        let i = i as usize;
                        z[i] = match (accum, w0[i], u[p]) {
                            (Some(op), Some(x), Some(y)) => Some(op.apply(x, y)),
                            (Some(_), x, None) => x,
                            (_, _, y) => y,
                        };
                    }
                    write(w0, Some(ok), None, &z, replace)
                },
                |w, mask, accum, desc| {
                    ops::assign_indices(w, mask, accum, &uv, &as_indices(&list, kind), desc)
                },
                &format!("assign_indices {kind:?}"),
            )
        }
    };
    verdict(res)
}

#[test]
fn ewise_matches_oracle() {
    check(400, prop_ewise);
}

#[test]
fn apply_select_transpose_match_oracle() {
    check(500, prop_apply_select_transpose);
}

#[test]
fn extract_assign_match_oracle() {
    check(500, prop_extract_assign);
}

#[test]
fn kronecker_matches_oracle() {
    check(300, prop_kronecker);
}

#[test]
fn vector_extract_assign_match_oracle() {
    check(400, prop_vector_extract_assign);
}

/// The results do not depend on the thread count: one build at 1 thread and at 3 on a
/// matrix large enough to be cut into many chunks.
#[test]
fn thread_count_does_not_change_results() {
    let mut r = Rng::new(11);
    let n = 3000;
    let a = random::mat(&mut r, n, 200, 0.05, small);
    let b = random::mat(&mut r, n, 200, 0.05, small);
    let (ca, cb) = (to_csr(&a, 200), to_csr(&b, 200));
    let run = |threads: usize| {
        pool(threads).install(|| {
            let mut c = Csr::empty(n, 200);
            ops::ewise_add_matrix(
                &mut c,
                None,
                None,
                &Plus::<i64>::new(),
                &ca,
                &cb,
                &MatrixDescriptor::DEFAULT,
            );
            let rows: Vec<Index> = (0..n as Index).rev().step_by(3).collect();
            let mut e = Csr::empty(rows.len(), 200);
            ops::extract_matrix(
                &mut e,
                None,
                None,
                &c,
                &Indices::List(&rows),
                &Indices::All,
                &MatrixDescriptor::DEFAULT,
            );
            (c, e)
        })
    };
    let (c1, e1) = run(1);
    let (c3, e3) = run(3);
    assert_eq!(from_csr(&c1), from_csr(&c3));
    assert_eq!(from_csr(&e1), from_csr(&e3));
    let sum = zip_mat(&a, &b, |x, y| match (x, y) {
        (Some(x), Some(y)) => Some(x + y),
        (x, None) => x,
        (None, y) => y,
    });
    assert_eq!(from_csr(&c1), sum);
}

#[test]
#[should_panic(expected = "repeats an index")]
fn assign_rejects_repeated_indices() {
    let mut c: Csr<i64> = Csr::empty(4, 4);
    let a: Csr<i64> = Csr::empty(2, 1);
    ops::assign_matrix(
        &mut c,
        None,
        None,
        &a,
        &Indices::List(&[1, 1]),
        &Indices::List(&[0]),
        &MatrixDescriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "out of bounds")]
fn extract_rejects_out_of_bounds_indices() {
    let a: Csr<i64> = Csr::empty(4, 4);
    let mut c: Csr<i64> = Csr::empty(1, 4);
    ops::extract_matrix(
        &mut c,
        None,
        None,
        &a,
        &Indices::List(&[4]),
        &Indices::All,
        &MatrixDescriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "shape")]
fn ewise_add_rejects_shape_mismatch() {
    let a: Csr<i64> = Csr::empty(3, 4);
    let b: Csr<i64> = Csr::empty(4, 3);
    let mut c: Csr<i64> = Csr::empty(3, 4);
    ops::ewise_add_matrix(
        &mut c,
        None,
        None,
        &Plus::<i64>::new(),
        &a,
        &b,
        &MatrixDescriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "does not fit a u32 index")]
fn kronecker_rejects_overflowing_shapes() {
    let a: Csr<i64> = Csr::empty(1 << 17, 1);
    let b: Csr<i64> = Csr::empty(1 << 17, 1);
    let mut c: Csr<i64> = Csr::empty(1, 1);
    ops::kronecker(
        &mut c,
        None,
        None,
        &Times::<i64>::new(),
        &a,
        &b,
        &MatrixDescriptor::DEFAULT,
    );
}
