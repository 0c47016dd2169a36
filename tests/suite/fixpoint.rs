//! `ops::vxm_accumulate_fixpoint` (rounds of `w (+)= f (+).(x) A`, each from the entries
//! the round before changed that `keep` admits) against the loop it stands for: one
//! `ops::vxm_accumulate` a round and a `select` by `keep`. The same `w`, the same
//! changed set with the final values, the same count of rounds and the same stop, for
//! both methods (in place, for order-free monoids on primitive numbers; by rounds,
//! otherwise), on rounds small enough for one thread and big enough for many, at 1, 2
//! and 4 threads. Several calls run on one thread in a row, so the workspace it keeps
//! between calls must come back clean.

use crate::random;

use edgeblas::algebra::{Index, Scalar, Semiring};
use edgeblas::prelude::*;
use random::{Rng, graph};

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
}

/// What a run gives: the new `w`, the changed entries, the rounds and the stop.
type Outcome<Z> = (Vec<Z>, Vec<(Index, Z)>, usize, bool);

/// The loop the operation stands for, from plain `vxm_accumulate` and `select`.
fn reference<S, A, Z>(
    s: S,
    w0: &[Z],
    u: &Vector<Z>,
    a: &Csr<A>,
    keep: &(impl Fn(Index, Z) -> bool + Sync),
    max_rounds: usize,
) -> Outcome<Z>
where
    S: Semiring<A, Z, Output = Z>,
    A: Scalar,
    Z: Scalar,
{
    let mut w = Vector::Dense(DenseVector::from_vec(w0.to_vec()));
    let mut f = u.clone();
    let mut changed: Vec<Index> = Vec::new();
    let mut rounds = 0;
    while f.nvals() > 0 && rounds < max_rounds {
        rounds += 1;
        let c = ops::vxm_accumulate(&mut w, s, &f, a);
        changed.extend(c.to_pairs().iter().map(|p| p.0));
        let mut next = Vector::new(c.len());
        ops::select(&mut next, None, None, keep, &c, &Descriptor::DEFAULT);
        f = next;
    }
    changed.sort_unstable();
    changed.dedup();
    let w = w.into_dense(w0[0]).into_vec();
    let pairs = changed.iter().map(|&j| (j, w[j as usize])).collect();
    (w, pairs, rounds, f.nvals() == 0)
}

/// Equal, with two NaNs the same.
fn same<Z: PartialEq>(x: &Z, y: &Z) -> bool {
    #[allow(clippy::eq_op)]
    let nan = x != x && y != y;
    x == y || nan
}

/// Runs the operation on `cases` (each `(what, w0, u)`), one after another on one
/// thread of a pool of 1, 2 and 4, against the reference.
#[allow(clippy::type_complexity)]
fn check<S, A, Z>(
    s: S,
    a: &Csr<A>,
    cases: &[(String, Vec<Z>, Vector<Z>)],
    keep: impl Fn(Index, Z) -> bool + Sync + Copy,
    max_rounds: usize,
) where
    S: Semiring<A, Z, Output = Z>,
    A: Scalar,
    Z: Scalar,
{
    let want: Vec<Outcome<Z>> = cases
        .iter()
        .map(|(_, w0, u)| reference(s, w0, u, a, &keep, max_rounds))
        .collect();
    for threads in [1, 2, 4] {
        let got: Vec<Outcome<Z>> = pool(threads).install(|| {
            cases
                .iter()
                .map(|(_, w0, u)| {
                    let mut w = Vector::Dense(DenseVector::from_vec(w0.to_vec()));
                    let r = ops::vxm_accumulate_fixpoint(&mut w, s, u, a, keep, max_rounds);
                    let w = w.into_dense(w0[0]).into_vec();
                    (w, r.changed.to_pairs(), r.rounds, r.converged)
                })
                .collect()
        });
        for ((what, _, _), (g, e)) in cases.iter().zip(got.iter().zip(&want)) {
            assert!(
                g.0.len() == e.0.len() && g.0.iter().zip(&e.0).all(|(x, y)| same(x, y)),
                "{what}, {threads} threads: w differs"
            );
            assert_eq!(
                g.1.iter().map(|p| p.0).collect::<Vec<_>>(),
                e.1.iter().map(|p| p.0).collect::<Vec<_>>(),
                "{what}, {threads} threads: changed indices"
            );
            assert!(
                g.1.iter().zip(&e.1).all(|(x, y)| same(&x.1, &y.1)),
                "{what}, {threads} threads: changed values"
            );
            assert_eq!((g.2, g.3), (e.2, e.3), "{what}, {threads} threads: rounds");
        }
    }
}

/// A frontier of `k` random entries and a starting `w` with a random share set.
fn case<Z: Scalar>(
    r: &mut Rng,
    what: &str,
    n: usize,
    k: usize,
    fill: Z,
    val: impl Fn(&mut Rng) -> Z,
) -> (String, Vec<Z>, Vector<Z>) {
    let w0: Vec<Z> = (0..n)
        .map(|_| if r.chance(0.2) { val(r) } else { fill })
        .collect();
    let pairs: Vec<(Index, Z)> = (0..k).map(|_| (r.below(n) as Index, val(r))).collect();
    let mut u = Vector::from_pairs(n, pairs);
    if r.chance(0.3) {
        u.make_bitmap();
    }
    (format!("{what} n={n} k={k}"), w0, u)
}

#[test]
fn min_plus_rounds_below_a_bound_match_the_loop() {
    let mut r = Rng::new(31);
    // one vertex (one thread's rounds), a few, and a tenth of the graph (shared rounds)
    for (n, deg) in [(400, 3), (30_000, 3), (60_000, 6)] {
        let a = graph(&mut r, n, deg, |r| r.range(0, 40) as f64);
        let cases: Vec<_> = [1, 20, n / 10]
            .iter()
            .map(|&k| {
                case(&mut r, "f64", n, k, f64::INFINITY, |r| {
                    r.range(0, 30) as f64
                })
            })
            .collect();
        // a delta-stepping bucket: go on from what stays below 60
        check(
            MinPlus::<f64>::new(),
            &a,
            &cases,
            |_, x: f64| x < 60.0,
            usize::MAX,
        );
        // Bellman-Ford: every change goes on
        check(MinPlus::<f64>::new(), &a, &cases, |_, _| true, usize::MAX);
        // stopped early
        check(MinPlus::<f64>::new(), &a, &cases, |_, _| true, 2);
        check(MinPlus::<f64>::new(), &a, &cases, |_, _| true, 0);

        let a = graph(&mut r, n, deg, |r| r.range(0, 40) as u32);
        let cases: Vec<_> = [1, 20, n / 10]
            .iter()
            .map(|&k| case(&mut r, "u32", n, k, u32::MAX, |r| r.range(0, 30) as u32))
            .collect();
        check(
            MinPlus::<u32>::new(),
            &a,
            &cases,
            |j, x: u32| x < 80 || j % 2 == 0,
            usize::MAX,
        );
    }
}

#[test]
fn other_order_free_monoids_and_widths_match_the_loop() {
    let mut r = Rng::new(32);
    for (n, deg) in [(500, 4), (40_000, 5)] {
        // negative arcs and cycles: the rounds never settle, so a cap stops them
        let a = graph(&mut r, n, deg, |r| r.range(-3, 40));
        let cases: Vec<_> = [1, n / 8]
            .iter()
            .map(|&k| case(&mut r, "i64", n, k, i64::MAX, |r| r.range(0, 50)))
            .collect();
        check(MinPlus::<i64>::new(), &a, &cases, |_, _| true, 7);
        // bottleneck paths (MIN.MAX) over f32
        let a = graph(&mut r, n, deg, |r| r.range(1, 100) as f32);
        let cases: Vec<_> = [1, n / 8]
            .iter()
            .map(|&k| {
                case(&mut r, "f32", n, k, f32::INFINITY, |r| {
                    r.range(1, 100) as f32
                })
            })
            .collect();
        check(
            MinMax::<f32>::new(),
            &a,
            &cases,
            |_, x: f32| x < 60.0,
            usize::MAX,
        );
        // MIN.SECOND over i32 labels: label propagation to components
        let a = graph(&mut r, n, deg, |_| 1i32);
        let cases: Vec<_> = [1, n]
            .iter()
            .map(|&k| {
                case(&mut r, "i32", n, k, i32::MAX, |r| {
                    r.range(0, 1_000_000) as i32
                })
            })
            .collect();
        check(MinSecond::<i32>::new(), &a, &cases, |_, _| true, usize::MAX);
    }
}

#[test]
fn the_general_method_matches_the_loop() {
    let mut r = Rng::new(33);
    for (n, deg) in [(300, 3), (20_000, 4)] {
        // float PLUS is not order-free: each round is the product's fixed association
        let a = graph(&mut r, n, deg, |r| r.range(0, 100) as f64 / 128.0);
        let cases: Vec<_> = [1, n / 10]
            .iter()
            .map(|&k| {
                case(&mut r, "plus.times", n, k, 0.0, |r| {
                    r.range(0, 100) as f64 / 16.0
                })
            })
            .collect();
        check(PlusTimes::<f64>::new(), &a, &cases, |_, x: f64| x < 1e6, 6);
        // bytes: MIN is order-free, but no atomic word of one byte is used
        let a = graph(&mut r, n, deg, |r| r.range(0, 9) as u8);
        let cases: Vec<_> = [1, n / 10]
            .iter()
            .map(|&k| case(&mut r, "u8", n, k, u8::MAX, |r| r.range(0, 30) as u8))
            .collect();
        check(
            MinPlus::<u8>::new(),
            &a,
            &cases,
            |_, x: u8| x < 90,
            usize::MAX,
        );
        // booleans: LOR is order-free but bool is no number word
        let a = graph(&mut r, n, deg, |r| r.chance(0.7));
        let cases: Vec<_> = [1, n / 10]
            .iter()
            .map(|&k| case(&mut r, "or.and", n, k, false, |r| r.chance(0.9)))
            .collect();
        check(OrAnd, &a, &cases, |_, _| true, usize::MAX);
    }
}

/// Every round count and stop on a path: the rounds walk it one vertex at a time.
#[test]
fn a_path_takes_one_round_a_vertex_and_a_cap_stops_it() {
    let n = 100;
    let mut b = CooBuilder::new(n, n);
    for i in 0..n - 1 {
        b.push(i, i + 1, 1.0).unwrap();
    }
    let a = b.build(Duplicates::Error).unwrap();
    for cap in [0, 1, 50, 98, 99, 100, usize::MAX] {
        let mut w = Vector::full(n, f64::INFINITY);
        w.set(0, 0.0);
        let u = Vector::from_pairs(n, [(0, 0.0)]);
        let r = ops::vxm_accumulate_fixpoint(&mut w, MinPlus::new(), &u, &a, |_, _| true, cap);
        // round k reaches vertex k; a 100th round finds nothing to change
        let reached = cap.min(n - 1);
        assert_eq!(r.rounds, cap.min(n), "cap {cap}");
        assert_eq!(r.converged, cap >= n, "cap {cap}");
        let want: Vec<(Index, f64)> = (1..=reached).map(|j| (j as Index, j as f64)).collect();
        assert_eq!(r.changed.to_pairs(), want, "cap {cap}");
    }
    // an empty frontier: no round, nothing changed, converged
    let mut w = Vector::full(n, f64::INFINITY);
    let r =
        ops::vxm_accumulate_fixpoint(&mut w, MinPlus::new(), &Vector::new(n), &a, |_, _| true, 5);
    assert_eq!((r.rounds, r.converged, r.changed.nvals()), (0, true, 0));
}

#[test]
#[should_panic(expected = "w must be dense")]
fn a_sparse_w_is_refused() {
    let a = graph(&mut Rng::new(1), 10, 2, |_| 1.0f64);
    let mut w: Vector<f64> = Vector::new(10);
    let u = Vector::from_pairs(10, [(0, 0.0)]);
    let _ = ops::vxm_accumulate_fixpoint(&mut w, MinPlus::<f64>::new(), &u, &a, |_, _| true, 1);
}
