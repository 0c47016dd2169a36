//! `ops::mxm`, `ops::reduce_rows` and `ops::reduce_matrix` against a dense oracle written
//! here, over random shapes (empty, rectangular, zero-sized), densities, semirings,
//! matrix masks (structural, valued, complemented), replace, accumulators and both
//! transposes; every method forced on the same inputs gives the same bytes, for any
//! thread count; and the laws (associativity, distributivity) over exact types.

use crate::oracle;
use crate::qc;
use crate::random;

use std::collections::BTreeMap;

use edgeblas::algebra::{BinaryOp, Index, Monoid, Scalar, Semiring};
use edgeblas::ops::{self, Accum, MxmMethod};
use edgeblas::prelude::*;
use quickcheck::TestResult;

use oracle::{DMat, mat_allowed, transpose, write_mat};
use qc::{Seed, pool};
use random::{Rng, from_csr, to_csr};

/// The seed quickcheck draws case seeds from.
const QC_SEED: u64 = 0x6d78_6d5f_7465_7374;

/// Runs `prop` on `tests` seeded cases in a 3-thread pool.
fn check(tests: u64, prop: fn(Seed) -> TestResult) {
    qc::check(tests, QC_SEED, prop);
}

// ---------------------------------------------------------------------------------
// The oracle: the product over every position, then the GraphBLAS write-back.

/// `T(i, j) = (+)_k A(i, k) (x) B(k, j)`, folded from the first term in ascending `k`.
fn product<S: Semiring<A, B>, A: Copy, B: Copy>(
    s: &S,
    a: &DMat<A>,
    b: &DMat<B>,
    inner: usize,
    ncols: usize,
) -> DMat<S::Output> {
    let add = s.add();
    a.iter()
        .map(|row| {
            (0..ncols)
                .map(|j| {
                    let mut acc = None;
                    for k in 0..inner {
                        if let (Some(x), Some(y)) = (row[k], b[k][j]) {
                            let z = s.multiply(x, y, k as Index);
                            acc = Some(acc.map_or(z, |p| add.combine(p, z)));
                        }
                    }
                    acc
                })
                .collect()
        })
        .collect()
}

// ---------------------------------------------------------------------------------
// Random cases.

/// A dimension for a dense triple product: 0, 1, tiny, around a word, or a few dozen.
fn dim(r: &mut Rng) -> usize {
    match r.below(100) {
        0..=4 => 0,
        5..=12 => 1,
        13..=49 => r.range(2, 9) as usize,
        50..=74 => r.range(60, 70) as usize,
        _ => r.range(10, 40) as usize,
    }
}

fn density(r: &mut Rng) -> f64 {
    r.pick(&[0.0, 0.02, 0.1, 0.3, 0.6, 1.0])
}

/// Everything one case draws besides the operands' values.
#[derive(Debug)]
struct Setup {
    m: usize,
    k: usize,
    n: usize,
    transpose_a: bool,
    transpose_b: bool,
    /// 0: no mask; 1: structural; 2: valued.
    mask_kind: usize,
    complement: bool,
    replace: bool,
    accum: bool,
}

impl Setup {
    fn draw(r: &mut Rng) -> Self {
        Setup {
            m: dim(r),
            k: dim(r),
            n: dim(r),
            transpose_a: r.chance(0.3),
            transpose_b: r.chance(0.4),
            mask_kind: r.below(3),
            complement: r.chance(0.35),
            replace: r.chance(0.4),
            accum: r.chance(0.4),
        }
    }

    fn desc(&self) -> MatrixDescriptor {
        MatrixDescriptor {
            replace: self.replace,
            transpose_a: self.transpose_a,
            transpose_b: self.transpose_b,
        }
    }
}

/// One case of `C<M> = C (.) A (+).(x) B` for semiring `s`, checked against the oracle
/// with every method. `value` draws the operands' entries; `cval` C's old entries.
fn one_case<S, T, Z>(
    r: &mut Rng,
    s: S,
    accum_op: &dyn BinaryOp<Z, Z, Output = Z>,
    mut value: impl FnMut(&mut Rng) -> T,
    mut cval: impl FnMut(&mut Rng) -> Z,
) -> Result<(), String>
where
    S: Semiring<T, T, Output = Z>,
    T: Scalar,
    Z: Scalar,
{
    let st = Setup::draw(r);
    let (m, k, n) = (st.m, st.k, st.n);
    // The operands as stored: A' and B' under the transpose flags.
    let a_shape = if st.transpose_a { (k, m) } else { (m, k) };
    let b_shape = if st.transpose_b { (n, k) } else { (k, n) };
    let (da, db) = (density(r), density(r));
    let a = random::mat(r, a_shape.0, a_shape.1, da, &mut value);
    let b = random::mat(r, b_shape.0, b_shape.1, db, &mut value);
    let dc = density(r);
    let c0 = random::mat(r, m, n, dc, &mut cval);
    let dm = density(r);
    let mk = random::mat(r, m, n, dm, |r| r.range(0, 2));
    let a_eff = if st.transpose_a {
        transpose(&a, a_shape.1)
    } else {
        a.clone()
    };
    let b_eff = if st.transpose_b {
        transpose(&b, b_shape.1)
    } else {
        b.clone()
    };
    let t = product(&s, &a_eff, &b_eff, k, n);
    let mask_d = (st.mask_kind > 0).then_some(&mk);
    let ok = mat_allowed(mask_d, (m, n), st.mask_kind == 2, st.complement);
    let accum: Accum<'_, Z> = st.accum.then_some(accum_op);
    let want = write_mat(&c0, &ok, accum, &t, st.replace);

    let (ca, cb) = (to_csr(&a, a_shape.1), to_csr(&b, b_shape.1));
    let mcsr = to_csr(&mk, n);
    let mask = match st.mask_kind {
        0 => None,
        1 => Some(MatrixMask::structure(&mcsr)),
        _ => Some(MatrixMask::values(&mcsr)),
    };
    let mask = mask.map(|x| if st.complement { x.complement() } else { x });
    let mut first: Option<Csr<Z>> = None;
    for method in [MxmMethod::Auto, MxmMethod::Saxpy, MxmMethod::Dot] {
        let mut c = to_csr(&c0, n);
        ops::mxm_with_method(
            &mut c,
            mask.as_ref(),
            accum,
            s,
            &ca,
            &cb,
            &st.desc(),
            method,
        );
        if from_csr(&c) != want {
            return Err(format!("{method:?} differs from the oracle: {st:?}"));
        }
        match &first {
            None => first = Some(c),
            Some(f) if !same_bytes(f, &c) => return Err(format!("{method:?} bytes: {st:?}")),
            Some(_) => {}
        }
    }
    Ok(())
}

/// The same structure and the same value bytes (floats compared by their bits).
fn same_bytes<Z: Scalar>(x: &Csr<Z>, y: &Csr<Z>) -> bool {
    let bytes = |v: &[Z]| {
        // SAFETY: Scalar values are plain Copy data; read them as bytes.
        unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
            .to_vec()
    };
    x.offsets() == y.offsets()
        && x.indices() == y.indices()
        && bytes(x.values()) == bytes(y.values())
}

fn small_i64(r: &mut Rng) -> i64 {
    r.range(-3, 4)
}

fn prop_integer_semirings(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let res = match r.below(6) {
        0 => one_case(
            &mut r,
            PlusTimes::<i64>::new(),
            &Plus::<i64>::new(),
            small_i64,
            small_i64,
        ),
        1 => one_case(
            &mut r,
            MinPlus::<i64>::new(),
            &Min::<i64>::new(),
            small_i64,
            small_i64,
        ),
        2 => one_case(
            &mut r,
            PlusPair::<i64>::new(),
            &Plus::<i64>::new(),
            small_i64,
            small_i64,
        ),
        3 => one_case(
            &mut r,
            MaxFirst::<i64>::new(),
            &Min::<i64>::new(),
            small_i64,
            small_i64,
        ),
        4 => one_case(&mut r, MinSecondI, &Max::<Index>::new(), small_i64, |r| {
            r.below(50) as Index
        }),
        _ => one_case(
            &mut r,
            AnySecondI,
            &Second::<Index>::new(),
            small_i64,
            |r| r.below(50) as Index,
        ),
    };
    match res {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(format!("seed {}: {e}", seed.0)),
    }
}

#[test]
fn mxm_matches_the_oracle_for_every_mask_accumulator_and_transpose() {
    check(400, prop_integer_semirings);
}

fn prop_boolean_and_terminal(seed: Seed) -> TestResult {
    // LOR.LAND over bool stops at true; MIN.PLUS over u32 has terminal 0 at weights 0.
    let mut r = Rng::new(seed.0);
    let res = if r.chance(0.5) {
        one_case(
            &mut r,
            LorLand::default(),
            &Lor,
            |r| r.chance(0.7),
            |r| r.chance(0.5),
        )
    } else {
        one_case(
            &mut r,
            MinPlus::<u32>::new(),
            &Min::<u32>::new(),
            |r| r.below(2) as u32,
            |r| r.below(3) as u32,
        )
    };
    match res {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(format!("seed {}: {e}", seed.0)),
    }
}

#[test]
fn terminal_monoids_stop_early_with_the_same_result() {
    check(150, prop_boolean_and_terminal);
}

/// Floats: every method gives the same bytes, at 1 and 3 threads, and they match the
/// oracle (which folds in the same order) bit for bit.
fn prop_float_bytes(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let f = |r: &mut Rng| (r.range(-1000, 1000) as f64) / 7.0 + 1e-3 * r.below(9) as f64;
    let res = one_case(&mut r, PlusTimes::<f64>::new(), &Plus::<f64>::new(), f, f);
    match res {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(format!("seed {}: {e}", seed.0)),
    }
}

#[test]
fn float_products_are_the_same_bytes_whatever_the_method() {
    check(150, prop_float_bytes);
}

// ---------------------------------------------------------------------------------
// A larger graph: several parallel tasks, hub rows long enough to be searched for the
// mask's columns, against a sparse reference.

/// A random symmetric pattern on `n` vertices with `m` random edges plus hubs.
fn graph(seed: u64, n: usize, m: usize, hubs: usize) -> Csr<()> {
    let mut r = Rng::new(seed);
    let mut b = CooBuilder::<()>::new(n, n);
    for _ in 0..m {
        let (u, v) = (r.below(n), r.below(n));
        b.push(u, v, ()).unwrap();
        b.push(v, u, ()).unwrap();
    }
    for h in 0..hubs {
        for _ in 0..n / 3 {
            let v = r.below(n);
            b.push(h, v, ()).unwrap();
            b.push(v, h, ()).unwrap();
        }
    }
    b.build(Duplicates::KeepFirst).unwrap()
}

/// `C<M> = A A` over PLUS.PAIR by maps: the reference for big cases.
fn masked_square_reference(a: &Csr<()>, mask: &Csr<()>) -> BTreeMap<(usize, Index), u64> {
    let mut out = BTreeMap::new();
    for i in 0..a.nrows() {
        let mut row: BTreeMap<Index, u64> = BTreeMap::new();
        for &k in a.row(i).0 {
            for &j in a.row(k as usize).0 {
                *row.entry(j).or_default() += 1;
            }
        }
        for &j in mask.row(i).0 {
            if let Some(&x) = row.get(&j) {
                out.insert((i, j), x);
            }
        }
    }
    out
}

#[test]
fn masked_square_of_a_graph_with_hubs_is_the_same_by_every_method() {
    let a = graph(7, 3000, 6000, 3);
    let l = {
        let mut l = Csr::<()>::empty(3000, 3000);
        ops::select_matrix(
            &mut l,
            None,
            None,
            ops::tril(-1),
            &a,
            &MatrixDescriptor::DEFAULT,
        );
        l
    };
    let want = masked_square_reference(&a, &a);
    for threads in [1, 3] {
        pool(threads).install(|| {
            for method in [MxmMethod::Auto, MxmMethod::Saxpy, MxmMethod::Dot] {
                let mut c = Csr::<u64>::empty(3000, 3000);
                let mask = MatrixMask::structure(&a);
                let d = MatrixDescriptor::DEFAULT;
                ops::mxm_with_method(
                    &mut c,
                    Some(&mask),
                    None,
                    PlusPair::new(),
                    &a,
                    &a,
                    &d,
                    method,
                );
                let got: BTreeMap<(usize, Index), u64> =
                    c.iter().map(|(i, j, x)| ((i, j), x)).collect();
                assert_eq!(got, want, "{method:?} at {threads} threads");
            }
            // Triangles: C<L> = L L' over PLUS.PAIR, each triangle once.
            let mut tri = Vec::new();
            for method in [MxmMethod::Auto, MxmMethod::Saxpy, MxmMethod::Dot] {
                let mut c = Csr::<u64>::empty(3000, 3000);
                let mask = MatrixMask::structure(&l);
                let d = MatrixDescriptor::DEFAULT.with_transpose_b();
                ops::mxm_with_method(
                    &mut c,
                    Some(&mask),
                    None,
                    PlusPair::new(),
                    &l,
                    &l,
                    &d,
                    method,
                );
                tri.push(ops::reduce_matrix(Plus::<u64>::new(), &c));
            }
            let brute = brute_triangles(&a);
            assert!(tri.iter().all(|&t| t == brute), "{tri:?} != {brute}");
        });
    }
}

/// Triangles by checking every wedge `i > j > k` of a symmetric pattern.
fn brute_triangles(a: &Csr<()>) -> u64 {
    let mut t = 0;
    for i in 0..a.nrows() {
        for &j in a.row(i).0.iter().filter(|&&j| (j as usize) < i) {
            for &k in a.row(j as usize).0.iter().filter(|&&k| k < j) {
                if a.get(i, k as usize).is_some() {
                    t += 1;
                }
            }
        }
    }
    t
}

#[test]
fn unmasked_and_complemented_products_of_a_graph_agree_across_methods_and_threads() {
    let a = graph(11, 800, 2000, 2);
    let w = a.map(|_| 1.5f64);
    let run = |mask: Option<&MatrixMask>, method| {
        let mut c = Csr::<f64>::empty(800, 800);
        let d = MatrixDescriptor::DEFAULT;
        ops::mxm_with_method(&mut c, mask, None, PlusTimes::new(), &w, &w, &d, method);
        c
    };
    let plain = pool(1).install(|| run(None, MxmMethod::Saxpy));
    assert_rows(
        &plain,
        &plain_product_reference(&w, &w),
        "saxpy at 1 thread",
    );
    for threads in [1, 3] {
        pool(threads).install(|| {
            assert!(same_bytes(&plain, &run(None, MxmMethod::Auto)));
            assert!(same_bytes(&plain, &run(None, MxmMethod::Dot)));
            let comp = MatrixMask::structure(&a).complement();
            let s = run(Some(&comp), MxmMethod::Saxpy);
            assert!(same_bytes(&s, &run(Some(&comp), MxmMethod::Dot)));
            assert_eq!(
                s.nvals() + masked_square_reference(&a, &a).len(),
                plain.nvals()
            );
        });
    }
}

/// `A B` over PLUS.TIMES by maps, in ascending `k` per entry: the reference for big
/// cases (float sums in the same order as the library's, so equal bytes).
fn plain_product_reference(a: &Csr<f64>, b: &Csr<f64>) -> Vec<BTreeMap<Index, f64>> {
    (0..a.nrows())
        .map(|i| {
            let mut row: BTreeMap<Index, f64> = BTreeMap::new();
            let (ac, av) = a.row(i);
            for (&k, &x) in ac.iter().zip(av) {
                let (bc, bv) = b.row(k as usize);
                for (&j, &y) in bc.iter().zip(bv) {
                    row.entry(j).and_modify(|z| *z += x * y).or_insert(x * y);
                }
            }
            row
        })
        .collect()
}

fn assert_rows(c: &Csr<f64>, want: &[BTreeMap<Index, f64>], what: &str) {
    assert_eq!(c.nrows(), want.len());
    for (i, row) in want.iter().enumerate() {
        let (cols, vals) = c.row(i);
        assert!(
            cols.iter().copied().eq(row.keys().copied())
                && vals
                    .iter()
                    .zip(row.values())
                    .all(|(x, y)| x.to_bits() == y.to_bits()),
            "{what}: row {i}"
        );
    }
}

/// Products cut into many chunks, both ways the result's arrays are filled: a graph of
/// short rows (estimated from the offsets, written straight into the result) and one
/// with hubs whose terms far exceed its entries (each chunk's own arrays, concatenated).
#[test]
fn large_products_are_the_same_bytes_at_any_thread_count() {
    // Weights 1/3..1/9: their sums depend on the order of the terms.
    let weighted = |g: Csr<()>| {
        let vals = (0..g.nvals())
            .map(|e| 1.0 / ((e * 7919) % 7 + 3) as f64)
            .collect();
        let n = g.nrows();
        Csr::new_checked(n, n, g.offsets().to_vec(), g.indices().to_vec(), vals).unwrap()
    };
    let flat = weighted(graph(5, 30_000, 60_000, 0));
    let hubs = weighted(graph(7, 3000, 6000, 3));
    for (what, a) in [("short rows", &flat), ("hubs", &hubs)] {
        let want = plain_product_reference(a, a);
        let n = a.nrows();
        let comp = MatrixMask::structure(a).complement();
        for threads in [1, 2, 3] {
            pool(threads).install(|| {
                let d = MatrixDescriptor::DEFAULT;
                let mut c = Csr::<f64>::empty(n, n);
                let m = MxmMethod::Saxpy;
                ops::mxm_with_method(&mut c, None, None, PlusTimes::new(), a, a, &d, m);
                assert_rows(&c, &want, &format!("{what} at {threads} threads"));
                // The complement drops exactly A's positions.
                let mut cc = Csr::<f64>::empty(n, n);
                ops::mxm_with_method(&mut cc, Some(&comp), None, PlusTimes::new(), a, a, &d, m);
                let kept: Vec<BTreeMap<Index, f64>> = want
                    .iter()
                    .enumerate()
                    .map(|(i, row)| {
                        let mut row = row.clone();
                        for j in a.row(i).0 {
                            row.remove(j);
                        }
                        row
                    })
                    .collect();
                assert_rows(
                    &cc,
                    &kept,
                    &format!("{what}, complemented, at {threads} threads"),
                );
            });
        }
    }
}

// ---------------------------------------------------------------------------------
// Laws over exact types.

fn dense_add<T: Copy>(x: &DMat<T>, y: &DMat<T>, op: impl Fn(T, T) -> T) -> DMat<T> {
    x.iter()
        .zip(y)
        .map(|(rx, ry)| {
            rx.iter()
                .zip(ry)
                .map(|(&a, &b)| match (a, b) {
                    (Some(a), Some(b)) => Some(op(a, b)),
                    (a, b) => a.or(b),
                })
                .collect()
        })
        .collect()
}

fn mul<S: Semiring<T, T, Output = T>, T: Scalar>(s: S, a: &Csr<T>, b: &Csr<T>) -> Csr<T> {
    let mut c = Csr::empty(a.nrows(), b.ncols());
    ops::mxm(&mut c, None, None, s, a, b, &MatrixDescriptor::DEFAULT);
    c
}

fn prop_laws(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let (m, k, n, p) = (dim(&mut r), dim(&mut r), dim(&mut r), dim(&mut r));
    let v = |r: &mut Rng| r.range(-5, 6);
    let da = density(&mut r);
    let a = random::mat(&mut r, m, k, da, v);
    let db = density(&mut r);
    let b = random::mat(&mut r, k, n, db, v);
    let db2 = density(&mut r);
    let b2 = random::mat(&mut r, k, n, db2, v);
    let dc = density(&mut r);
    let c = random::mat(&mut r, n, p, dc, v);
    let (ca, cb, cb2, cc) = (to_csr(&a, k), to_csr(&b, n), to_csr(&b2, n), to_csr(&c, p));
    // Associativity, over PLUS.TIMES (wrapping i64) and MIN.PLUS.
    let pt = PlusTimes::<i64>::new();
    let lhs = mul(pt, &mul(pt, &ca, &cb), &cc);
    let rhs = mul(pt, &ca, &mul(pt, &cb, &cc));
    // Zero entries are values, not absences: compare with explicit zeros dropped, since
    // (AB)C and A(BC) may store an entry whose terms cancel in one and not the other.
    let nz = |x: &Csr<i64>| {
        from_csr(x)
            .into_iter()
            .map(|r| {
                r.into_iter()
                    .map(|e| e.filter(|&v| v != 0))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    if nz(&lhs) != nz(&rhs) {
        return TestResult::error(format!("seed {}: PLUS.TIMES not associative", seed.0));
    }
    let mp = MinPlus::<i64>::new();
    if from_csr(&mul(mp, &mul(mp, &ca, &cb), &cc)) != from_csr(&mul(mp, &ca, &mul(mp, &cb, &cc))) {
        return TestResult::error(format!("seed {}: MIN.PLUS not associative", seed.0));
    }
    // Distributivity: A (B min B2) = (A B) min (A B2), the second written with the
    // accumulator: C = A B; C min= A B2.
    let sum = to_csr(&dense_add(&b, &b2, |x, y| x.min(y)), n);
    let lhs = mul(mp, &ca, &sum);
    let mut rhs = mul(mp, &ca, &cb);
    let minacc = Min::<i64>::new();
    ops::mxm(
        &mut rhs,
        None,
        Some(&minacc),
        mp,
        &ca,
        &cb2,
        &MatrixDescriptor::DEFAULT,
    );
    if from_csr(&lhs) != from_csr(&rhs) {
        return TestResult::error(format!("seed {}: MIN.PLUS not distributive", seed.0));
    }
    TestResult::passed()
}

#[test]
fn mxm_is_associative_and_distributive_over_exact_semirings() {
    check(150, prop_laws);
}

#[test]
fn pattern_matrices_multiply_without_values() {
    let a = graph(3, 300, 900, 1);
    let ones = a.map(|_| 1i64);
    let mut x = Csr::<i64>::empty(300, 300);
    let mut y = Csr::<i64>::empty(300, 300);
    let d = MatrixDescriptor::DEFAULT;
    ops::mxm(&mut x, None, None, PlusPair::new(), &a, &a, &d);
    ops::mxm(&mut y, None, None, PlusTimes::new(), &ones, &ones, &d);
    assert_eq!(from_csr(&x), from_csr(&y));
    // PLUS.FIRST with a pattern right operand: the left operand's values, summed.
    let mut z = Csr::<i64>::empty(300, 300);
    ops::mxm(&mut z, None, None, PlusFirst::new(), &ones, &a, &d);
    assert_eq!(from_csr(&z), from_csr(&y));
}

// ---------------------------------------------------------------------------------
// Reductions.

fn prop_reduce(seed: Seed) -> TestResult {
    let mut r = Rng::new(seed.0);
    let (m, n) = (dim(&mut r), dim(&mut r));
    let da = density(&mut r);
    let a = random::mat(&mut r, m, n, da, |r| r.range(-9, 10));
    let tr = r.chance(0.5);
    let len = if tr { n } else { m };
    let w0: Vec<Option<i64>> = (0..len)
        .map(|_| r.chance(0.4).then(|| r.range(-9, 10)))
        .collect();
    let mk: Vec<Option<i64>> = (0..len)
        .map(|_| r.chance(0.5).then(|| r.range(0, 2)))
        .collect();
    let (valued, complement, replace) = (r.chance(0.5), r.chance(0.4), r.chance(0.4));
    let use_mask = r.chance(0.6);
    let use_accum = r.chance(0.5);
    let rows = if tr { transpose(&a, n) } else { a.clone() };
    let plus = Plus::<i64>::new();
    let t: Vec<Option<i64>> = rows
        .iter()
        .map(|row| {
            row.iter()
                .flatten()
                .copied()
                .reduce(|x, y| x.wrapping_add(y))
        })
        .collect();
    let z: Vec<Option<i64>> = w0
        .iter()
        .zip(&t)
        .map(|(&old, &new)| match (use_accum, old, new) {
            (true, Some(x), Some(y)) => Some(x + y),
            (true, x, None) => x,
            (_, _, y) => y,
        })
        .collect();
    let want: Vec<Option<i64>> = (0..len)
        .map(|i| {
            let inside = mk[i].is_some_and(|v| !valued || v != 0);
            if !use_mask || inside != complement {
                z[i]
            } else if replace {
                None
            } else {
                w0[i]
            }
        })
        .collect();
    let mut w = Vector::from_pairs(
        len,
        w0.iter()
            .enumerate()
            .filter_map(|(i, x)| x.map(|x| (i as Index, x))),
    );
    let mv = Vector::from_pairs(
        len,
        mk.iter()
            .enumerate()
            .filter_map(|(i, x)| x.map(|x| (i as Index, x))),
    );
    let mask = if valued {
        Mask::values(&mv)
    } else {
        Mask::structure(&mv)
    };
    let mask = if complement { mask.complement() } else { mask };
    let desc = Descriptor {
        replace,
        transpose: tr,
    };
    let accum: Accum<'_, i64> = use_accum.then_some(&plus as &dyn BinaryOp<i64, i64, Output = i64>);
    let ca = to_csr(&a, n);
    ops::reduce_rows(&mut w, use_mask.then_some(&mask), accum, plus, &ca, &desc);
    let got: Vec<Option<i64>> = (0..len).map(|i| w.get(i)).collect();
    if got != want {
        return TestResult::error(format!("seed {}: reduce_rows {got:?} != {want:?}", seed.0));
    }
    let total: i64 = a.iter().flatten().flatten().sum();
    if ops::reduce_matrix(plus, &ca) != total {
        return TestResult::error(format!("seed {}: reduce_matrix", seed.0));
    }
    TestResult::passed()
}

#[test]
fn reductions_match_the_oracle() {
    check(300, prop_reduce);
    // A terminal monoid stops, and an empty matrix reduces to the identity.
    let e = Csr::<i64>::empty(3, 0);
    assert_eq!(ops::reduce_matrix(Min::<i64>::new(), &e), i64::MAX);
    let b = to_csr(
        &vec![vec![Some(true), Some(false)], vec![None, Some(false)]],
        2,
    );
    assert!(ops::reduce_matrix(Lor, &b));
    assert!(!ops::reduce_matrix(Land, &b));
}

// ---------------------------------------------------------------------------------
// Contract violations.

#[test]
#[should_panic(expected = "ncols(A) != nrows(B)")]
fn mismatched_inner_dimensions_panic() {
    let a = Csr::<i64>::empty(2, 3);
    let b = Csr::<i64>::empty(4, 2);
    let mut c = Csr::<i64>::empty(2, 2);
    ops::mxm(
        &mut c,
        None,
        None,
        PlusTimes::new(),
        &a,
        &b,
        &MatrixDescriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "C's shape")]
fn a_wrong_output_shape_panics() {
    let a = Csr::<i64>::empty(2, 3);
    let b = Csr::<i64>::empty(3, 2);
    let mut c = Csr::<i64>::empty(3, 2);
    ops::mxm(
        &mut c,
        None,
        None,
        PlusTimes::new(),
        &a,
        &b,
        &MatrixDescriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "mask shape")]
fn a_wrong_mask_shape_panics() {
    let a = Csr::<i64>::empty(2, 3);
    let b = Csr::<i64>::empty(3, 2);
    let m = Csr::<()>::empty(2, 3);
    let mut c = Csr::<i64>::empty(2, 2);
    let mask = MatrixMask::structure(&m);
    ops::mxm(
        &mut c,
        Some(&mask),
        None,
        PlusTimes::new(),
        &a,
        &b,
        &MatrixDescriptor::DEFAULT,
    );
}

#[test]
#[should_panic(expected = "w.len()")]
fn reduce_into_a_wrong_length_panics() {
    let a = Csr::<i64>::empty(2, 3);
    let mut w = Vector::<i64>::new(3);
    ops::reduce_rows(&mut w, None, None, Plus::new(), &a, &Descriptor::DEFAULT);
}

/// A frontier of one or two rows times a big graph (the few-rows path: each row split by
/// output columns across threads) gives the same float bytes as the dot method and as
/// one thread, plain, under a mask and under a complemented mask.
#[test]
fn few_row_products_split_by_columns_are_the_same_bytes() {
    let n = 6000;
    let g = graph(77, n, 60_000, 3);
    // B(k, j) = a value that makes float sums order-sensitive.
    let values: Vec<f64> = (0..g.nvals() as u64)
        .map(|i| 1.0 / (1.0 + (i * 2654435761 % 1000) as f64))
        .collect();
    let b = Csr::new_checked(n, n, g.offsets().to_vec(), g.indices().to_vec(), values).unwrap();
    let d = MatrixDescriptor::DEFAULT;
    for rows in [1usize, 2] {
        let mut r = Rng::new(rows as u64);
        let mut fb = CooBuilder::<f64>::new(rows, n);
        for i in 0..rows {
            for _ in 0..n / 2 {
                fb.push(i, r.below(n), 0.5 + r.below(100) as f64 / 7.0)
                    .unwrap();
            }
        }
        let f = fb.build(Duplicates::KeepFirst).unwrap();
        let mut mb = CooBuilder::<()>::new(rows, n);
        for i in 0..rows {
            for _ in 0..n / 3 {
                mb.push(i, r.below(n), ()).unwrap();
            }
        }
        let m = mb.build(Duplicates::KeepFirst).unwrap();
        for masking in 0..3 {
            let mask = match masking {
                0 => None,
                1 => Some(MatrixMask::structure(&m)),
                _ => Some(MatrixMask::structure(&m).complement()),
            };
            let run = |threads: usize, method: MxmMethod| {
                pool(threads).install(|| {
                    let mut c = Csr::<f64>::empty(rows, n);
                    ops::mxm_with_method(
                        &mut c,
                        mask.as_ref(),
                        None,
                        PlusTimes::<f64>::new(),
                        &f,
                        &b,
                        &d,
                        method,
                    );
                    c
                })
            };
            let one = run(1, MxmMethod::Saxpy);
            let split = run(3, MxmMethod::Saxpy);
            let dot = run(3, MxmMethod::Dot);
            assert!(
                one.nvals() > 0,
                "rows {rows}, masking {masking}: a non-empty product"
            );
            assert!(
                same_bytes(&one, &split),
                "rows {rows}, masking {masking}: split rows"
            );
            assert!(
                same_bytes(&one, &dot),
                "rows {rows}, masking {masking}: dot"
            );
        }
    }
}
