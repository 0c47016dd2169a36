//! `ops::vxm_accumulate` (`w (+)= u (+).(x) A` on a dense `w`, returning what changed)
//! against the plain sequence it fuses: `t = u (+).(x) A` by `vxm`, then `w(j) (+) t(j)`
//! entry by entry, the changed set being where that differs from the old `w(j)`. Both
//! methods (in place, for order-free monoids on primitive numbers; by product,
//! otherwise) on products small enough for one thread and big enough for many, at 1, 2
//! and 4 threads, with results identical across thread counts. Also `ops::partition`
//! (one pass of several selections), which delta-stepping files its improvements with.

use crate::random;

use edgeblas::algebra::{Index, Monoid, Scalar, Semiring};
use edgeblas::algo::bellman_ford::MinPlusArg;
use edgeblas::prelude::*;
use random::{Rng, graph};

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
}

/// A sparse vector with each index present with probability `p`, sometimes a bitmap.
fn frontier<T: Scalar>(r: &mut Rng, n: usize, p: f64, val: impl Fn(&mut Rng) -> T) -> Vector<T> {
    let mut pairs: Vec<(Index, T)> = Vec::new();
    for i in 0..n as Index {
        if r.chance(p) {
            pairs.push((i, val(r)));
        }
    }
    let mut v = Vector::from_pairs(n, pairs);
    if r.chance(0.3) {
        v.make_bitmap();
    }
    v
}

/// The new `w` and the changed entries.
type Outcome<Z> = (Vec<Z>, Vec<(Index, Z)>);

/// The sequence `vxm_accumulate` fuses: the new `w` and the changed entries.
fn reference<S, A, U>(s: S, w: &[S::Output], u: &Vector<U>, a: &Csr<A>) -> Outcome<S::Output>
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let mut t = Vector::new(a.ncols());
    ops::vxm(&mut t, None, None, s, u, a, &Descriptor::DEFAULT);
    let mut w = w.to_vec();
    let mut changed = Vec::new();
    for (j, x) in t.to_pairs() {
        let old = w[j as usize];
        let new = s.add().combine(old, x);
        #[allow(clippy::eq_op)]
        let both_nan = old != old && new != new;
        if new != old && !both_nan {
            w[j as usize] = new;
            changed.push((j, new));
        }
    }
    (w, changed)
}

/// Runs `vxm_accumulate` at 1, 2 and 4 threads and checks each against the reference.
fn check<S, A, U>(what: &str, s: S, w0: &[S::Output], u: &Vector<U>, a: &Csr<A>)
where
    S: Semiring<A, U>,
    A: Scalar,
    U: Scalar,
{
    let (want_w, want_c) = reference(s, w0, u, a);
    for threads in [1, 2, 4] {
        let (w, c) = pool(threads).install(|| {
            let mut w = Vector::Dense(DenseVector::from_vec(w0.to_vec()));
            let c = ops::vxm_accumulate(&mut w, s, u, a);
            (w, c)
        });
        let w = w.into_dense(w0[0]).into_vec();
        let same = |x: &S::Output, y: &S::Output| {
            #[allow(clippy::eq_op)]
            let nan = x != x && y != y;
            x == y || nan
        };
        assert!(
            w.len() == want_w.len() && w.iter().zip(&want_w).all(|(x, y)| same(x, y)),
            "{what}, {threads} threads: w differs"
        );
        let got_c = c.to_pairs();
        assert_eq!(
            got_c.len(),
            want_c.len(),
            "{what}, {threads} threads: changed count"
        );
        assert!(
            got_c
                .iter()
                .zip(&want_c)
                .all(|(g, e)| g.0 == e.0 && same(&g.1, &e.1)),
            "{what}, {threads} threads: changed entries differ"
        );
    }
}

/// A starting `w`: every entry `fill`, except a random share set from `val`.
fn start<T: Scalar>(r: &mut Rng, n: usize, fill: T, val: impl Fn(&mut Rng) -> T) -> Vec<T> {
    (0..n)
        .map(|_| if r.chance(0.3) { val(r) } else { fill })
        .collect()
}

#[test]
fn min_plus_over_every_primitive_width_matches_the_sequence() {
    let mut r = Rng::new(11);
    // small products (one thread's path) and big ones (many chunks, compare-and-swap)
    for (n, deg, p) in [(300, 3, 0.05), (20_000, 8, 0.3), (50_000, 4, 1.0)] {
        let a = graph(&mut r, n, deg, |r| r.range(0, 50) as f64);
        let u = frontier(&mut r, n, p, |r| r.range(0, 100) as f64);
        let w0 = start(&mut r, n, f64::INFINITY, |r| r.range(0, 200) as f64);
        check(&format!("f64 n={n}"), MinPlus::<f64>::new(), &w0, &u, &a);

        // few changes: the changed list sorted rather than read off the bitmap
        let w0 = vec![3.0; n];
        check(
            &format!("f64 few n={n}"),
            MinPlus::<f64>::new(),
            &w0,
            &u,
            &a,
        );

        let a = graph(&mut r, n, deg, |r| r.range(0, 50) as f32);
        let u = frontier(&mut r, n, p, |r| r.range(0, 100) as f32);
        let w0 = start(&mut r, n, f32::INFINITY, |r| r.range(0, 200) as f32);
        check(&format!("f32 n={n}"), MinPlus::<f32>::new(), &w0, &u, &a);

        let a = graph(&mut r, n, deg, |r| r.range(-20, 50));
        let u = frontier(&mut r, n, p, |r| r.range(-100, 100));
        let w0 = start(&mut r, n, i64::MAX, |r| r.range(-200, 200));
        check(&format!("i64 n={n}"), MinPlus::<i64>::new(), &w0, &u, &a);

        let a = graph(&mut r, n, deg, |r| r.range(0, 50) as u32);
        let u = frontier(&mut r, n, p, |r| r.range(0, 100) as u32);
        let w0 = start(&mut r, n, u32::MAX, |r| r.range(0, 200) as u32);
        check(&format!("u32 n={n}"), MinPlus::<u32>::new(), &w0, &u, &a);

        let a = graph(&mut r, n, deg, |r| r.range(-20, 50) as i32);
        let u = frontier(&mut r, n, p, |r| r.range(-100, 100) as i32);
        let w0 = start(&mut r, n, i32::MIN, |r| r.range(-200, 200) as i32);
        check(
            &format!("i32 max.plus n={n}"),
            MaxPlus::<i32>::new(),
            &w0,
            &u,
            &a,
        );
    }
}

#[test]
fn other_monoids_go_through_the_product_and_match_the_sequence() {
    let mut r = Rng::new(12);
    for (n, deg, p) in [(300, 3, 0.05), (20_000, 8, 0.3)] {
        // float PLUS: not order-free, so the product's fixed association
        let a = graph(&mut r, n, deg, |r| r.range(0, 1000) as f64 / 7.0);
        let u = frontier(&mut r, n, p, |r| r.range(0, 1000) as f64 / 3.0);
        let w0 = start(&mut r, n, 0.0, |r| r.range(0, 200) as f64 / 11.0);
        check(
            &format!("plus.times f64 n={n}"),
            PlusTimes::<f64>::new(),
            &w0,
            &u,
            &a,
        );
        // a pair value (distance, argmin: Bellman-Ford's): no atomic word holds it
        let a = graph(&mut r, n, deg, |r| r.range(0, 50) as f64);
        let u = frontier(&mut r, n, p, |r| r.range(0, 100) as f64);
        let w0 = start(&mut r, n, (f64::INFINITY, u32::MAX), |r| {
            (r.range(0, 200) as f64, r.below(n) as u32)
        });
        check(&format!("min.plus.arg n={n}"), MinPlusArg, &w0, &u, &a);
        // booleans: LOR is order-free but bool is not a number word
        let a = graph(&mut r, n, deg, |r| r.chance(0.5));
        let u = frontier(&mut r, n, p, |r| r.chance(0.5));
        let w0 = start(&mut r, n, false, |r| r.chance(0.5));
        check(&format!("or.and n={n}"), OrAnd, &w0, &u, &a);
    }
}

#[test]
fn nan_in_w_gives_way_and_nan_terms_are_dropped() {
    let n = 40_000;
    let mut r = Rng::new(13);
    // NaN in w only: MIN is fmin, so a NaN entry with a term takes the term, whichever
    // method
    let a = graph(&mut r, n, 6, |r| r.range(0, 5) as f64);
    let u = frontier(&mut r, n, 0.5, |r| r.range(0, 10) as f64);
    let w0 = start(&mut r, n, f64::NAN, |r| r.range(0, 20) as f64);
    check("nan in w", MinPlus::<f64>::new(), &w0, &u, &a);
    let (w, c) = reference(MinPlus::<f64>::new(), &w0, &u, &a);
    assert!(c.iter().any(|&(j, _)| w0[j as usize].is_nan()));
    assert!(c.iter().all(|&(_, x)| !x.is_nan()));
    let mut t = Vector::new(n);
    ops::vxm(
        &mut t,
        None,
        None,
        MinPlus::<f64>::new(),
        &u,
        &a,
        &Descriptor::DEFAULT,
    );
    for (j, x) in t.to_pairs() {
        assert!(!w[j as usize].is_nan() && w[j as usize] <= x, "entry {j}");
    }
    // NaN weights: the terms they make are dropped, as if the arcs were absent
    let with_nan = graph(&mut r, n, 6, |r| {
        if r.chance(0.2) {
            f64::NAN
        } else {
            r.range(0, 5) as f64
        }
    });
    let mut without = Csr::empty(n, n);
    ops::select_matrix(
        &mut without,
        None,
        None,
        |_, _, w: f64| !w.is_nan(),
        &with_nan,
        &MatrixDescriptor::DEFAULT,
    );
    let w0 = start(&mut r, n, f64::INFINITY, |r| r.range(0, 20) as f64);
    let (want_w, want_c) = reference(MinPlus::<f64>::new(), &w0, &u, &without);
    for threads in [1, 2] {
        let (w, c) = pool(threads).install(|| {
            let mut w = Vector::Dense(DenseVector::from_vec(w0.clone()));
            let c = ops::vxm_accumulate(&mut w, MinPlus::<f64>::new(), &u, &with_nan);
            (w, c)
        });
        assert_eq!(w.into_dense(0.0).into_vec(), want_w, "{threads} threads");
        assert_eq!(c.to_pairs(), want_c, "{threads} threads");
    }
}

#[test]
#[should_panic(expected = "w must be dense")]
fn a_sparse_w_is_refused() {
    let a = graph(&mut Rng::new(1), 10, 2, |_| 1.0f64);
    let mut w: Vector<f64> = Vector::new(10);
    let u = Vector::from_pairs(10, [(0, 0.0)]);
    let _ = ops::vxm_accumulate(&mut w, MinPlus::<f64>::new(), &u, &a);
}

/// `ops::partition` equals one `select` per bin, for every form of `u`, and drops the
/// entries whose bin is out of range.
#[test]
fn partition_equals_one_select_per_bin() {
    let mut r = Rng::new(14);
    for n in [0usize, 1, 50, 5000] {
        for form in 0..3 {
            let mut u = frontier(&mut r, n, 0.4, |r| r.range(0, 100) as f64);
            match form {
                1 => u.make_bitmap(),
                2 => u = Vector::Dense(u.into_dense(7.0)),
                _ => {}
            }
            let bin = |i: Index, x: f64| (x as usize / 25 + i as usize % 2) % 5;
            let parts = ops::partition(&u, 4, bin);
            assert_eq!(parts.len(), 4);
            let mut kept = 0;
            for (b, part) in parts.iter().enumerate() {
                let mut want = Vector::new(n);
                ops::select(
                    &mut want,
                    None,
                    None,
                    |i, x| bin(i, x) == b,
                    &u,
                    &Descriptor::DEFAULT,
                );
                assert_eq!(
                    part.to_pairs(),
                    want.to_pairs(),
                    "n {n} form {form} bin {b}"
                );
                assert_eq!(part.len(), n);
                kept += part.nvals();
            }
            let dropped = u
                .to_pairs()
                .iter()
                .filter(|&&(i, x)| bin(i, x) >= 4)
                .count();
            assert_eq!(kept + dropped, u.nvals());
        }
    }
}

/// `mxv` with an accumulator into a dense `w` and no mask (each row's sum combined
/// straight into `w`, with no product vector) gives the bytes of the product followed by
/// the write-back (the same call on a full bitmap `w`), for dense, bitmap and sparse
/// `u`, float PLUS and integer MIN, at 1, 2 and 4 threads, rows without a term keeping
/// their old value.
#[test]
fn mxv_accumulated_into_a_dense_w_equals_product_then_write_back() {
    let d0 = Descriptor::DEFAULT;
    for (seed, n, deg) in [(1u64, 37usize, 2usize), (2, 5000, 3), (3, 70_000, 4)] {
        let mut r = Rng::new(seed);
        let a = graph(&mut r, n, deg, |r| r.below(100) as f64 / 8.0);
        let ai = a.map(|x| x as i64);
        let w0: Vec<f64> = (0..n).map(|_| r.below(1000) as f64 / 3.0).collect();
        for p in [1.0, 0.3, 0.001] {
            let u = frontier(&mut r, n, p, |r| r.below(50) as f64 - 10.5);
            let u = if p == 1.0 {
                Vector::from_dense(u.into_dense(0.0).into_vec())
            } else {
                u
            };
            let ui: Vector<i64> =
                Vector::from_pairs(n, u.to_pairs().into_iter().map(|(i, x)| (i, x as i64)));
            let run_f = |w: &mut Vector<f64>| {
                ops::mxv(
                    w,
                    None,
                    Some(&Plus::<f64>::new()),
                    PlusTimes::<f64>::new(),
                    &a,
                    &u,
                    &d0,
                )
            };
            let run_i = |w: &mut Vector<i64>| {
                ops::mxv(
                    w,
                    None,
                    Some(&Min::<i64>::new()),
                    MinPlus::<i64>::new(),
                    &ai,
                    &ui,
                    &d0,
                )
            };
            let mut want_f = Vector::from_dense(w0.clone());
            want_f.make_bitmap();
            assert_eq!(
                want_f.format_name(),
                "bitmap",
                "the reference takes the write-back"
            );
            run_f(&mut want_f);
            let w0i: Vec<i64> = w0.iter().map(|&x| x as i64).collect();
            let mut want_i = Vector::from_dense(w0i.clone());
            want_i.make_bitmap();
            run_i(&mut want_i);
            for threads in [1, 2, 4] {
                let what = format!("n {n}, p {p}, {threads} threads");
                let mut w = Vector::from_dense(w0.clone());
                pool(threads).install(|| run_f(&mut w));
                assert_eq!(w.format_name(), "dense", "{what}");
                let (got, want) = (w.to_pairs(), want_f.to_pairs());
                assert_eq!(got.len(), want.len(), "{what}");
                for ((i, x), (_, y)) in got.iter().zip(&want) {
                    assert_eq!(x.to_bits(), y.to_bits(), "{what}: w({i})");
                }
                let mut w = Vector::from_dense(w0i.clone());
                pool(threads).install(|| run_i(&mut w));
                assert_eq!(w.to_pairs(), want_i.to_pairs(), "{what}, MIN.PLUS i64");
            }
        }
    }
}

/// The same for the semirings whose rows stop early (OR.AND at its terminal `true`,
/// MIN.SECONDI at its first term) over a dense `u`: the fused pull stops where the
/// product does, and gives the bytes of the product followed by the write-back.
#[test]
fn mxv_accumulated_with_an_early_exit_equals_product_then_write_back() {
    let d0 = Descriptor::DEFAULT;
    for (seed, n, deg) in [(11u64, 40usize, 3usize), (12, 6000, 5)] {
        let mut r = Rng::new(seed);
        let a = graph(&mut r, n, deg, |_| ());
        let ub: Vector<bool> = Vector::from_dense((0..n).map(|_| r.chance(0.3)).collect());
        let ui: Vector<u32> = Vector::from_dense((0..n).map(|_| r.below(9) as u32).collect());
        let wb0: Vec<bool> = (0..n).map(|_| r.chance(0.2)).collect();
        let wi0: Vec<u32> = (0..n).map(|_| r.below(2 * n) as u32).collect();
        let run_b = |w: &mut Vector<bool>| ops::mxv(w, None, Some(&Lor), OrAnd, &a, &ub, &d0);
        let run_i = |w: &mut Vector<u32>| {
            ops::mxv(w, None, Some(&Min::<u32>::new()), MinSecondI, &a, &ui, &d0)
        };
        let mut want_b = Vector::from_dense(wb0.clone());
        want_b.make_bitmap();
        run_b(&mut want_b);
        let mut want_i = Vector::from_dense(wi0.clone());
        want_i.make_bitmap();
        run_i(&mut want_i);
        for threads in [1, 2] {
            let mut wb = Vector::from_dense(wb0.clone());
            pool(threads).install(|| run_b(&mut wb));
            assert_eq!(wb.format_name(), "dense");
            assert_eq!(
                wb.to_pairs(),
                want_b.to_pairs(),
                "OR.AND, n {n}, {threads} threads"
            );
            let mut wi = Vector::from_dense(wi0.clone());
            pool(threads).install(|| run_i(&mut wi));
            assert_eq!(wi.format_name(), "dense");
            assert_eq!(
                wi.to_pairs(),
                want_i.to_pairs(),
                "MIN.SECONDI, n {n}, {threads} threads"
            );
        }
    }
}
