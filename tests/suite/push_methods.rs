//! The push methods of `vxm` (sort, Gustavson, columns, chosen) on products big enough
//! to be cut into many chunks: under an exact semiring every method gives the same bytes
//! as a sequential reference that sums each output in ascending k, for any thread count;
//! under float PLUS each method gives the same bytes for any thread count, sort and
//! Gustavson (which share their chunks) the same bytes, columns the same bytes as a pull
//! over the transpose (as does the pull method, which `vxm` chooses by itself on a
//! symmetric matrix), and all of them agree within a few ulps.

use crate::random;

use edgeblas::algebra::Index;
use edgeblas::ops::PushMethod;
use edgeblas::prelude::*;
use random::{Rng, graph};

/// A vector with each index present with probability `p`, in the given form.
fn frontier<T: edgeblas::algebra::Scalar>(
    r: &mut Rng,
    n: usize,
    p: f64,
    val: impl Fn(&mut Rng) -> T,
) -> Vector<T> {
    let mut pairs: Vec<(Index, T)> = Vec::new();
    for i in 0..n as Index {
        if r.chance(p) {
            pairs.push((i, val(r)));
        }
    }
    let mut v = Vector::from_pairs(n, pairs);
    match r.below(3) {
        0 => {}
        1 => v.make_bitmap(),
        _ => {
            if v.nvals() == n {
                v = Vector::Dense(v.into_dense(val(r)));
            } else {
                v.make_bitmap()
            }
        }
    }
    v
}

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
}

/// `u (+).(x) A` under the mask by the push method forced, in a pool of `threads`.
fn product<S, A, U>(
    method: PushMethod,
    threads: usize,
    mask: Option<&Mask>,
    s: S,
    u: &Vector<U>,
    a: &Csr<A>,
) -> Vector<S::Output>
where
    S: edgeblas::algebra::Semiring<A, U>,
    A: edgeblas::algebra::Scalar,
    U: edgeblas::algebra::Scalar,
{
    let mut w = Vector::new(a.ncols());
    pool(threads).install(|| {
        ops::vxm_with_method(&mut w, mask, None, s, u, a, &Descriptor::DEFAULT, method)
    });
    w
}

/// Each entry's index and the bits of its value: equal only when byte for byte.
fn bits(w: &Vector<f64>) -> Vec<(Index, u64)> {
    w.to_pairs()
        .into_iter()
        .map(|(i, x)| (i, x.to_bits()))
        .collect()
}

/// The bits of `u min.plus A` (floats, no mask) by the method forced, in a pool of
/// `threads`.
fn min_plus_bits(
    method: PushMethod,
    threads: usize,
    u: &Vector<f64>,
    a: &Csr<f64>,
) -> Vec<(Index, u64)> {
    bits(&product(method, threads, None, MinPlus::<f64>::new(), u, a))
}

/// `u min.plus A` summed per output in ascending k, one term at a time.
fn reference_min_plus(u: &Vector<i64>, a: &Csr<i64>, mask: Option<&[bool]>) -> Vec<(Index, i64)> {
    let mut acc: Vec<Option<i64>> = vec![None; a.ncols()];
    for (k, uk) in u.to_pairs() {
        let (cols, vals) = a.row(k as usize);
        for (&j, &x) in cols.iter().zip(vals) {
            if mask.is_some_and(|m| !m[j as usize]) {
                continue;
            }
            let z = x.saturating_add(uk);
            acc[j as usize] = Some(acc[j as usize].map_or(z, |o| o.min(z)));
        }
    }
    acc.iter()
        .enumerate()
        .filter_map(|(j, z)| z.map(|z| (j as Index, z)))
        .collect()
}

#[test]
fn methods_agree_with_reference_on_many_chunks() {
    let mut r = Rng::new(7);
    for (n, deg) in [(20_000, 30), (300_000, 2), (5_000, 200)] {
        let a = graph(&mut r, n, deg, |r| r.range(0, 1000));
        for p in [0.0005, 0.05, 0.6, 1.0] {
            let u = frontier(&mut r, n, p, |r| r.range(0, 1000));
            let masked = r.chance(0.5);
            let keep: Vec<bool> = (0..n).map(|_| r.chance(0.7)).collect();
            let mvec = Vector::from_pairs(
                n,
                (0..n as Index)
                    .filter(|&i| keep[i as usize])
                    .map(|i| (i, true)),
            );
            let mask = masked.then(|| Mask::structure(&mvec));
            let expected = reference_min_plus(&u, &a, masked.then_some(&keep[..]));
            let mut results = Vec::new();
            for threads in [1, 2, 3] {
                for method in [
                    PushMethod::Auto,
                    PushMethod::Sort,
                    PushMethod::Gustavson,
                    PushMethod::Columns,
                    PushMethod::Pull,
                    PushMethod::Scatter,
                    PushMethod::ScatterPrivate,
                ] {
                    let w = product(
                        method,
                        threads,
                        mask.as_ref(),
                        MinPlus::<i64>::new(),
                        &u,
                        &a,
                    );
                    assert_eq!(
                        w.to_pairs(),
                        expected,
                        "n {n} p {p} threads {threads} {method:?}"
                    );
                    results.push(w);
                }
            }
        }
    }
}

#[test]
fn float_sums_are_identical_across_threads_and_close_across_methods() {
    let mut r = Rng::new(11);
    let n = 50_000;
    let a = graph(&mut r, n, 40, |r| r.below(1 << 20) as f64 / 7.0);
    let at = a.transpose();
    for p in [0.01, 0.3, 1.0] {
        let u = frontier(&mut r, n, p, |r| r.below(1 << 20) as f64 / 3.0);
        let run = |method: PushMethod, threads: usize| {
            product(method, threads, None, PlusTimes::<f64>::new(), &u, &a)
        };
        let methods = [
            PushMethod::Auto,
            PushMethod::Sort,
            PushMethod::Gustavson,
            PushMethod::Columns,
            PushMethod::Pull,
        ];
        let one: Vec<Vector<f64>> = methods.iter().map(|&m| run(m, 1)).collect();
        for (m, w1) in methods.iter().zip(&one) {
            for threads in [2, 4] {
                let wt = run(*m, threads);
                assert_eq!(bits(&wt), bits(w1), "p {p} threads {threads} {m:?}");
            }
        }
        assert_eq!(bits(&one[1]), bits(&one[2]), "p {p}: sort and Gustavson");
        // Columns sums each output in ascending k, as a pull over the transpose does.
        let mut pulled: Vector<f64> = Vector::new(n);
        ops::mxv(
            &mut pulled,
            None,
            None,
            PlusTimes::<f64>::new(),
            &at,
            &u,
            &Descriptor::DEFAULT,
        );
        assert_eq!(bits(&one[3]), bits(&pulled), "p {p}: columns and pull");
        assert_eq!(bits(&one[4]), bits(&pulled), "p {p}: the forced pull");
        let (x, y) = (one[2].to_pairs(), one[3].to_pairs());
        assert_eq!(x.len(), y.len(), "p {p}: the same pattern");
        for ((i, a), (j, b)) in x.into_iter().zip(y) {
            assert_eq!(i, j);
            assert!(
                (a - b).abs() <= 1e-12 * a.abs().max(b.abs()),
                "p {p} index {i}: {a} vs {b}"
            );
        }
    }
}

/// On a matrix known to be symmetric, `vxm` pulls over its rows where it would push by
/// columns: the same bytes as the column push, for any thread count, form of `u` and
/// mask, under float PLUS and exact MIN.
#[test]
fn a_symmetric_matrix_is_pulled_with_the_bytes_of_the_column_push() {
    let mut r = Rng::new(23);
    let n = 40_000;
    let a = graph(&mut r, n, 6, |r| r.below(1 << 20) as f64 / 7.0).symmetrize(f64::min);
    assert!(a.is_symmetric(), "symmetrize(min) of positive values");
    let ai = a.map(|x| x as i64);
    for p in [0.01, 0.3, 0.9, 1.0] {
        let u = frontier(&mut r, n, p, |r| r.below(1 << 20) as f64 / 3.0);
        let ui = Vector::from_pairs(n, u.to_pairs().into_iter().map(|(k, x)| (k, x as i64)));
        let keep = frontier(&mut r, n, 0.5, |_| true);
        for mask in [
            None,
            Some(Mask::structure(&keep)),
            Some(Mask::structure(&keep).complement()),
        ] {
            let run = |method: PushMethod, threads: usize| {
                let m = mask.as_ref();
                let w = product(method, threads, m, PlusTimes::<f64>::new(), &u, &a);
                let wi = product(method, threads, m, MinPlus::<i64>::new(), &ui, &ai);
                (bits(&w), wi.to_pairs())
            };
            let columns = run(PushMethod::Columns, 1);
            for threads in [1, 2, 3] {
                for method in [PushMethod::Auto, PushMethod::Pull] {
                    let got = run(method, threads);
                    // Auto may take another method when the product is small: then the
                    // float sums may differ in the last bits, MIN never.
                    if method == PushMethod::Pull || p >= 0.3 {
                        assert_eq!(got.0, columns.0, "p {p} threads {threads} {method:?}");
                    }
                    assert_eq!(got.1, columns.1, "p {p} threads {threads} {method:?}");
                }
            }
        }
    }
}

/// Float MIN.PLUS with terms that tie as values but not as bits (`0.0` and `-0.0`) and
/// NaN terms in some outputs: every method gives the bytes of the column push, which
/// sums in ascending k, at every thread count: the chunked ones because MIN (fmin) does
/// not care how its terms are grouped, and the scatter, whose order of arrival is free,
/// because it redoes such a product by columns.
#[test]
fn float_min_gives_the_same_bytes_by_every_method_even_with_signed_zeros_and_nan() {
    let mut r = Rng::new(31);
    let n = 30_000;
    for case in 0..4 {
        // case 0: plain values; 1: zeros of both signs; 2: a few NaN weights; 3: both.
        let zeros = case & 1 == 1;
        let nans = case & 2 == 2;
        let a = graph(&mut r, n, 12, |r| {
            if nans && r.chance(0.0005) {
                f64::NAN
            } else if zeros && r.chance(0.5) {
                if r.chance(0.5) { 0.0 } else { -0.0 }
            } else {
                r.below(1000) as f64
            }
        });
        for p in [0.01, 0.2, 1.0] {
            let u = frontier(&mut r, n, p, |r| {
                if zeros && r.chance(0.5) {
                    if r.chance(0.5) { 0.0 } else { -0.0 }
                } else {
                    r.below(1000) as f64
                }
            });
            let run = |method, threads| min_plus_bits(method, threads, &u, &a);
            let want = run(PushMethod::Columns, 1);
            for threads in [1, 2, 4] {
                for method in [
                    PushMethod::Scatter,
                    PushMethod::ScatterPrivate,
                    PushMethod::Auto,
                    PushMethod::Gustavson,
                ] {
                    assert_eq!(
                        run(method, threads),
                        want,
                        "case {case} p {p} threads {threads} {method:?}"
                    );
                }
            }
        }
    }
}

/// A tie that no thread sees on its own: output `j < n/2` gets `0.0` from row `j` and
/// `-0.0` from row `j + n/2` and nothing else, so with the rows cut among threads the
/// two meet only where the private slots are merged. The merge must send the product
/// back to the ordered methods (every one keeps `-0.0`, MIN's tie rule).
#[test]
fn a_tie_between_threads_is_caught_where_the_private_slots_merge() {
    let half = 100_000;
    let n = 2 * half;
    let mut b = CooBuilder::new(n, n + 8);
    for k in 0..n {
        let zero = if k < half { 0.0 } else { -0.0 };
        b.push(k, k % half, zero).unwrap();
        // filler terms into outputs past n, so that the product is big enough to be
        // cut into many chunks
        for f in 0..8 {
            b.push(k, n + f, (k % 97) as f64 + 1.0).unwrap();
        }
    }
    let a = b.build(Duplicates::Error).unwrap();
    let u = Vector::from_dense((0..n).map(|k| if k < half { 0.0 } else { -0.0 }).collect());
    let run = |method, threads| min_plus_bits(method, threads, &u, &a);
    let want = run(PushMethod::Columns, 1);
    // MIN's tie rule: -0.0 of the two, whichever comes first (Number::tie).
    assert_eq!(want[0], (0, (-0.0f64).to_bits()), "the tie rule keeps -0.0");
    for threads in [2, 3, 4] {
        for method in [
            PushMethod::ScatterPrivate,
            PushMethod::Scatter,
            PushMethod::Auto,
        ] {
            assert_eq!(run(method, threads), want, "threads {threads} {method:?}");
        }
    }
}
