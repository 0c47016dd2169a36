//! The Graphalytics kernels and the LAGraph basic set of `algo` (triangle counting,
//! weakly connected components, PageRank, local clustering, label propagation and
//! betweenness), each against a plain reference written here, on seeded random graphs
//! with hubs, self-loops, repeated arcs, isolated vertices and several components,
//! directed (the CSR as built) and undirected (both arcs stored).

use crate::qc;
use crate::random;

use std::collections::{BTreeSet, VecDeque};

use approx::{abs_diff_eq, relative_eq};
use edgeblas::algo::{PageRankOptions, Presort, Stop, TriangleMethod, WccMethod};
use edgeblas::prelude::*;
use random::Rng;

/// A random graph on `n` vertices from `seed`: the vertices below `n - n/8` are split
/// into 1 to 4 groups and each arc joins two vertices of one group (so there are several
/// components), the last `n/8` are isolated; some arcs are pushed twice, some vertices
/// get a self-loop, and up to two hubs per graph link to a quarter of their group.
/// `undirected` stores both arcs of every edge.
fn graph(seed: u64, n: usize, undirected: bool) -> Csr<()> {
    graph_with_hubs(seed, n, undirected, 0)
}

/// [`graph`] with `hubs` more hubs, each linked to about half of the non-isolated
/// vertices (skewed degrees: what the triangle presort looks for).
fn graph_with_hubs(seed: u64, n: usize, undirected: bool, hubs: usize) -> Csr<()> {
    let mut r = Rng::new(seed);
    let mut b = CooBuilder::<()>::new(n, n);
    let live = n - n / 8;
    let arc = |b: &mut CooBuilder<()>, u: usize, v: usize| {
        b.push(u, v, ()).unwrap();
        if undirected {
            b.push(v, u, ()).unwrap();
        }
    };
    if live > 0 {
        let groups = r.range(1, 4) as usize;
        let bounds: Vec<usize> = (0..=groups).map(|g| g * live / groups).collect();
        let per = r.pick(&[0.5, 1.0, 2.0, 4.0]);
        let m = (per * live as f64) as usize;
        for _ in 0..m {
            let g = r.below(groups);
            let (lo, hi) = (bounds[g], bounds[g + 1]);
            if hi == lo {
                continue;
            }
            let (u, v) = (lo + r.below(hi - lo), lo + r.below(hi - lo));
            arc(&mut b, u, v);
            if r.chance(0.1) {
                arc(&mut b, u, v);
            }
        }
        for _ in 0..r.below(live / 10 + 2) {
            let v = r.below(live);
            arc(&mut b, v, v);
        }
        for _ in 0..r.below(3) {
            let g = r.below(groups);
            let (lo, hi) = (bounds[g], bounds[g + 1]);
            if hi == lo {
                continue;
            }
            let h = lo + r.below(hi - lo);
            for _ in 0..(hi - lo) / 4 {
                let v = lo + r.below(hi - lo);
                if r.chance(0.5) {
                    arc(&mut b, h, v);
                } else {
                    arc(&mut b, v, h);
                }
            }
        }
        for h in 0..hubs.min(live) {
            for _ in 0..live / 2 {
                let v = r.below(live);
                if r.chance(0.5) {
                    arc(&mut b, h, v);
                } else {
                    arc(&mut b, v, h);
                }
            }
        }
    }
    b.build(Duplicates::KeepFirst).unwrap()
}

/// The test graphs: (seed, n, extra hubs), tiny to a few hundred vertices.
const CASES: &[(u64, usize, usize)] = &[
    (1, 0, 0),
    (2, 1, 0),
    (3, 2, 0),
    (4, 3, 0),
    (5, 7, 0),
    (6, 12, 0),
    (7, 30, 0),
    (8, 64, 0),
    (9, 100, 0),
    (10, 150, 0),
    (11, 240, 0),
    (12, 300, 0),
    (13, 120, 4),
    (14, 250, 10),
];

/// Every test graph, directed and undirected: (description, graph, undirected).
fn all_graphs() -> Vec<(String, Csr<()>, bool)> {
    let mut out = Vec::new();
    for &(seed, n, hubs) in CASES {
        for undirected in [false, true] {
            out.push((
                format!("seed {seed}, n {n}, hubs {hubs}, undirected {undirected}"),
                graph_with_hubs(seed, n, undirected, hubs),
                undirected,
            ));
        }
    }
    out
}

/// Out-neighbours as stored (self-loops included).
fn out_lists(a: &Csr<()>) -> Vec<Vec<usize>> {
    (0..a.nrows())
        .map(|i| a.row(i).0.iter().map(|&j| j as usize).collect())
        .collect()
}

/// In-neighbours as stored (self-loops included).
fn in_lists(a: &Csr<()>) -> Vec<Vec<usize>> {
    let mut ins = vec![Vec::new(); a.nrows()];
    for (i, j, ()) in a.iter() {
        ins[j as usize].push(i);
    }
    ins
}

/// `x` and `y` agree to within `tol`, absolutely or relatively.
fn close(x: f64, y: f64, tol: f64) -> bool {
    relative_eq!(x, y, epsilon = tol, max_relative = tol)
}

// ---- triangle counting -------------------------------------------------------------

/// Triangles `{i < j < k}` of the simple undirected graph, self-loops ignored: every
/// `j > i` adjacent to `i` and `k > j` adjacent to `j`, `k` also adjacent to `i`.
fn brute_triangles(a: &Csr<()>) -> u64 {
    let n = a.nrows();
    let mut nb = vec![BTreeSet::new(); n];
    for (i, j, ()) in a.iter() {
        if i != j as usize {
            nb[i].insert(j as usize);
            nb[j as usize].insert(i);
        }
    }
    let mut count = 0;
    for i in 0..n {
        for &j in nb[i].range(i + 1..) {
            count += nb[j].range(j + 1..).filter(|k| nb[i].contains(k)).count() as u64;
        }
    }
    count
}

#[test]
fn triangle_count_matches_brute_force_for_every_method_and_presort() {
    let methods = [
        TriangleMethod::SandiaLL,
        TriangleMethod::SandiaUU,
        TriangleMethod::Burkhardt,
        TriangleMethod::Auto,
    ];
    let presorts = [
        Presort::Auto,
        Presort::None,
        Presort::Ascending,
        Presort::Descending,
    ];
    let mut presorted_by_auto = false;
    for &(seed, n, hubs) in CASES {
        let a = graph_with_hubs(seed, n, true, hubs);
        let want = brute_triangles(&a);
        for method in methods {
            for presort in presorts {
                let t = algo::triangle_count(&Graph::symmetric(&a), method, presort);
                let what = format!("seed {seed}, n {n}, {method:?}, {presort:?}");
                assert_eq!(t.triangles, want, "{what}: triangles");
                assert_ne!(t.method, TriangleMethod::Auto, "{what}");
                assert_ne!(t.presort, Presort::Auto, "{what}");
                let want_method = if method == TriangleMethod::Auto {
                    TriangleMethod::SandiaLL
                } else {
                    method
                };
                assert_eq!(t.method, want_method, "{what}: method run");
                if t.method == TriangleMethod::Burkhardt {
                    assert_eq!(t.presort, Presort::None, "{what}: Burkhardt never sorts");
                } else if presort != Presort::Auto {
                    assert_eq!(t.presort, presort, "{what}: the presort asked for");
                } else if t.presort != Presort::None {
                    presorted_by_auto = true;
                }
            }
        }
    }
    assert!(
        presorted_by_auto,
        "no graph was skewed enough for Presort::Auto to sort: the hubs do not show"
    );
}

#[test]
fn triangle_count_of_small_graphs_by_hand() {
    // K4 (4 triangles), a triangle with a self-loop and a pendant (1), a 4-cycle (0).
    let build = |n: usize, edges: &[(usize, usize)]| {
        let mut b = CooBuilder::<()>::new(n, n);
        for &(u, v) in edges {
            b.push(u, v, ()).unwrap();
            b.push(v, u, ()).unwrap();
        }
        b.build(Duplicates::KeepFirst).unwrap()
    };
    let k4 = build(4, &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
    let loopy = build(4, &[(0, 1), (1, 2), (2, 0), (1, 1), (2, 3)]);
    let c4 = build(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]);
    for (a, want) in [(k4, 4), (loopy, 1), (c4, 0)] {
        for m in [
            TriangleMethod::SandiaLL,
            TriangleMethod::SandiaUU,
            TriangleMethod::Burkhardt,
        ] {
            assert_eq!(
                algo::triangle_count(&Graph::symmetric(&a), m, Presort::Descending).triangles,
                want
            );
        }
    }
}

// ---- weakly connected components -----------------------------------------------------

/// Union-find over the stored arcs (each followed both ways): per vertex, the smallest
/// vertex of its component.
fn union_find_labels(a: &Csr<()>) -> Vec<u32> {
    let n = a.nrows();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for (i, j, ()) in a.iter() {
        let (ri, rj) = (find(&mut parent, i), find(&mut parent, j as usize));
        // The smaller root wins, so each root is its component's smallest vertex.
        if ri < rj {
            parent[rj] = ri;
        } else {
            parent[ri] = rj;
        }
    }
    (0..n).map(|v| find(&mut parent, v) as u32).collect()
}

#[test]
fn wcc_matches_union_find() {
    for (what, a, undirected) in all_graphs() {
        let want = union_find_labels(&a);
        let n = a.nrows();
        let mut size = vec![0usize; n];
        for &l in &want {
            size[l as usize] += 1;
        }
        let count = size.iter().filter(|&&s| s > 0).count();
        let largest = size.iter().copied().max().unwrap_or(0);
        // Arcs followed both ways whatever the input; `symmetric` only for A = A'.
        let mut runs = Vec::new();
        for method in [WccMethod::Afforest, WccMethod::FastSv] {
            let name = method.name();
            let g = Graph::declared(&a, false);
            runs.push((
                format!("{name}, symmetric=false"),
                algo::wcc_with(&g, method),
            ));
            if undirected {
                let g = Graph::declared(&a, true);
                runs.push((
                    format!("{name}, symmetric=true"),
                    algo::wcc_with(&g, method),
                ));
            }
        }
        assert_eq!(algo::wcc(&Graph::declared(&a, false)), runs[0].1, "{what}");
        for (how, c) in runs {
            assert_eq!(c.labels, want, "{what}, {how}: labels");
            assert_eq!(c.count(), count, "{what}, {how}: count");
            assert_eq!(c.largest(), largest, "{what}, {how}: largest");
        }
    }
}

#[test]
fn wcc_sampled_matches_union_find() {
    // The sampling pass (first 4 entries per row, then the stars that the arcs outside
    // the most common one join) on every test graph, symmetrised, whatever its density.
    for (what, a, _) in all_graphs() {
        let s = a.symmetrize(|_, _| ());
        let want = union_find_labels(&a);
        let c = edgeblas::algo::components::fastsv_sampled(&s);
        assert_eq!(c.labels, want, "{what}: sampled labels");
    }
    // Dense enough that `wcc` itself samples: several groups of many arcs per vertex,
    // where a group's smallest vertex is rarely among the first entries of its rows.
    // Past 1,024 vertices the key (the most frequent label) is estimated from a sample.
    for (seed, n) in [(0, 400), (1, 400), (2, 400), (3, 400), (4, 3000), (5, 5000)] {
        let mut r = Rng::new(100 + seed);
        let mut b = CooBuilder::<()>::new(n, n);
        for _ in 0..12 * n {
            let g = r.below(3);
            let (u, v) = (3 * r.below(n / 3) + g, 3 * r.below(n / 3) + g);
            if u < n && v < n && u % 7 != 0 {
                b.push(u, v, ()).unwrap();
            }
        }
        let a = b.build(Duplicates::KeepFirst).unwrap();
        assert!(a.nnz() > 8 * n, "the graph must be dense enough to sample");
        let want = union_find_labels(&a);
        assert_eq!(
            algo::wcc(&Graph::declared(&a, false)).labels,
            want,
            "seed {seed}"
        );
        let fast = edgeblas::algo::components::fastsv(&a.symmetrize(|_, _| ()));
        assert_eq!(fast.labels, want, "seed {seed}: plain FastSV");
    }
    // Many interleaved groups (vertex v in group v % 60), dense inside, so the sample
    // leaves many stars, and a few arcs between random groups that chain them into
    // components of several groups: the contracted graph of stars is large and long.
    for seed in 0..4u64 {
        let (n, groups) = (6000, 60);
        let mut r = Rng::new(200 + seed);
        let mut b = CooBuilder::<()>::new(n, n);
        for _ in 0..10 * n {
            let g = r.below(groups);
            let (u, v) = (
                groups * r.below(n / groups) + g,
                groups * r.below(n / groups) + g,
            );
            b.push(u, v, ()).unwrap();
        }
        for _ in 0..40 {
            let (u, v) = (r.below(n), r.below(n));
            b.push(u, v, ()).unwrap();
        }
        let a = b.build(Duplicates::KeepFirst).unwrap();
        assert!(a.nnz() > 8 * n, "the graph must be dense enough to sample");
        let want = union_find_labels(&a);
        let c = algo::wcc(&Graph::declared(&a, false));
        assert_eq!(c.labels, want, "interleaved groups, seed {seed}");
    }
}

#[test]
fn wcc_of_a_path_given_backwards_joins_it() {
    // 4 -> 3 -> 2 -> 1 -> 0 and 5 isolated: arcs are followed against their direction.
    let mut b = CooBuilder::<()>::new(6, 6);
    for i in 1..5 {
        b.push(i, i - 1, ()).unwrap();
    }
    let a = b.build(Duplicates::Error).unwrap();
    let c = algo::wcc(&Graph::declared(&a, false));
    assert_eq!(c.labels, vec![0, 0, 0, 0, 0, 5]);
    assert_eq!((c.count(), c.largest()), (2, 5));
    let empty = algo::wcc(&Graph::declared(&Csr::<()>::empty(0, 0), false));
    assert_eq!(
        (empty.labels.len(), empty.count(), empty.largest()),
        (0, 0, 0)
    );
}

// ---- PageRank --------------------------------------------------------------------------

/// Power iteration with the Graphalytics semantics over the stored arcs: returns the
/// ranks, the iterations run, and the last L1 change.
fn power_iteration(
    a: &Csr<()>,
    damping: f64,
    max: usize,
    tolerance: Option<f64>,
) -> (Vec<f64>, usize, f64) {
    let n = a.nrows();
    let outs = out_lists(a);
    let mut r = vec![1.0 / n as f64; n];
    let (mut it, mut change) = (0, 0.0);
    while it < max {
        let dangling: f64 = (0..n).filter(|&v| outs[v].is_empty()).map(|v| r[v]).sum();
        let mut next = vec![(1.0 - damping) / n as f64 + damping * dangling / n as f64; n];
        for u in 0..n {
            for &v in &outs[u] {
                next[v] += damping * r[u] / outs[u].len() as f64;
            }
        }
        change = next.iter().zip(&r).map(|(x, y)| (x - y).abs()).sum();
        r = next;
        it += 1;
        if tolerance.is_some_and(|t| change < t) {
            break;
        }
    }
    (r, it, change)
}

fn assert_ranks(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (v, (x, y)) in got.iter().zip(want).enumerate() {
        assert!(
            abs_diff_eq!(x, y, epsilon = 1e-9),
            "{what}: vertex {v}: got {x}, want {y}"
        );
    }
}

#[test]
fn pagerank_matches_power_iteration_for_fixed_iterations() {
    for (what, a, undirected) in all_graphs() {
        if a.nrows() == 0 {
            continue;
        }
        for (damping, k) in [(0.85, 1), (0.85, 7), (0.5, 20), (1.0, 5), (0.0, 2)] {
            let opts = PageRankOptions {
                damping,
                stop: Stop::Iterations(k),
            };
            let (want, _, change) = power_iteration(&a, damping, k, None);
            let mut runs = vec![("symmetric=false", false)];
            if undirected {
                runs.push(("symmetric=true", true));
            }
            for (how, symmetric) in runs {
                let pr = algo::pagerank(&Graph::declared(&a, symmetric), &opts).unwrap();
                let what = format!("{what}, {how}, damping {damping}, {k} iterations");
                assert_eq!(pr.iterations, k, "{what}");
                assert_ranks(&what, &pr.ranks, &want);
                assert!(
                    abs_diff_eq!(pr.change, change, epsilon = 1e-9),
                    "{what}: change"
                );
                let sum: f64 = pr.ranks.iter().sum();
                assert!(
                    abs_diff_eq!(sum, 1.0, epsilon = 1e-9),
                    "{what}: rank sum {sum}"
                );
            }
        }
    }
}

/// In f32 the sweep runs in f32: every rank is an f32 value, within f32 rounding of
/// the f64 power iteration, the same at 1 and 3 threads, and the iteration count and
/// stop rule are the f64 ones.
#[test]
fn pagerank_in_f32_is_f32_close_to_the_power_iteration() {
    use edgeblas::algo::Precision;
    let mut differs = false;
    for (what, a, undirected) in all_graphs() {
        if a.nrows() == 0 {
            continue;
        }
        for (damping, k) in [(0.85, 1), (0.85, 20), (1.0, 5)] {
            let opts = PageRankOptions {
                damping,
                stop: Stop::Iterations(k),
            };
            let (want, _, _) = power_iteration(&a, damping, k, None);
            let g = Graph::declared(&a, undirected);
            let run = |t: usize| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .unwrap()
                    .install(|| algo::pagerank_with(&g, &opts, Precision::F32).unwrap())
            };
            let pr = run(1);
            let what = format!("{what}, damping {damping}, {k} iterations, f32");
            assert_eq!(pr.iterations, k, "{what}");
            assert_eq!(pr.ranks, run(3).ranks, "{what}: 1 and 3 threads differ");
            let n = a.nrows() as f64;
            for (v, (&x, &y)) in pr.ranks.iter().zip(&want).enumerate() {
                assert_eq!(x, x as f32 as f64, "{what}: vertex {v}: {x} is no f32");
                // a few f32 roundings per term and iteration, relative to the ranks' scale
                let tol = 1e-5 * (y.abs() + 1.0 / n);
                assert!(
                    (x - y).abs() <= tol,
                    "{what}: vertex {v}: got {x}, want {y}"
                );
            }
            differs |= pr.ranks != algo::pagerank(&g, &opts).unwrap().ranks;
        }
    }
    assert!(
        differs,
        "the f32 sweep gave the f64 ranks bit for bit everywhere"
    );
}

#[test]
fn pagerank_tolerance_stops_at_the_first_small_change() {
    let mut stopped_early = 0;
    for (what, a, undirected) in all_graphs() {
        if a.nrows() == 0 {
            continue;
        }
        for (tolerance, max) in [(1e-3, 1000), (1e-6, 1000), (1e-9, 1000), (1e-12, 15)] {
            let (want, it, change) = power_iteration(&a, 0.85, max, Some(tolerance));
            // The library's L1 change differs from ours by rounding: a change this close
            // to the tolerance could stop either side of it.
            let (_, _, prev) = power_iteration(&a, 0.85, it.saturating_sub(1), None);
            let near = |x: f64| abs_diff_eq!(x, tolerance, epsilon = 1e-12);
            if near(change) || (it > 1 && near(prev)) {
                continue;
            }
            let opts = PageRankOptions {
                damping: 0.85,
                stop: Stop::Tolerance {
                    tolerance,
                    max_iterations: max,
                },
            };
            let pr = algo::pagerank(&Graph::declared(&a, undirected), &opts).unwrap();
            let what = format!("{what}, tolerance {tolerance}, max {max}");
            assert_eq!(pr.iterations, it, "{what}: iterations");
            assert_ranks(&what, &pr.ranks, &want);
            assert!(
                abs_diff_eq!(pr.change, change, epsilon = 1e-9),
                "{what}: change"
            );
            if it < max {
                stopped_early += 1;
                assert!(pr.change < tolerance, "{what}: stopped on a large change");
            }
        }
    }
    assert!(stopped_early > 10, "the tolerance stop hardly ran");
}

#[test]
fn pagerank_rejects_bad_parameters_and_ranks_nothing_on_an_empty_graph() {
    let a = graph(7, 30, false);
    let bad = [
        (-0.1, Stop::Iterations(3)),
        (1.5, Stop::Iterations(3)),
        (f64::NAN, Stop::Iterations(3)),
        (0.85, Stop::Iterations(0)),
        (
            0.85,
            Stop::Tolerance {
                tolerance: 0.0,
                max_iterations: 10,
            },
        ),
        (
            0.85,
            Stop::Tolerance {
                tolerance: -1.0,
                max_iterations: 10,
            },
        ),
        (
            0.85,
            Stop::Tolerance {
                tolerance: f64::NAN,
                max_iterations: 10,
            },
        ),
        (
            0.85,
            Stop::Tolerance {
                tolerance: f64::INFINITY,
                max_iterations: 10,
            },
        ),
        (
            0.85,
            Stop::Tolerance {
                tolerance: 1e-4,
                max_iterations: 0,
            },
        ),
    ];
    for (damping, stop) in bad {
        let opts = PageRankOptions { damping, stop };
        assert!(opts.check().is_err(), "{opts:?} passes check");
        for g in [&a, &Csr::<()>::empty(0, 0)] {
            match algo::pagerank(&Graph::declared(g, false), &opts) {
                Err(Error::InvalidArgument(_)) => {}
                other => panic!("{opts:?}: {other:?}"),
            }
        }
    }
    for stop in [Stop::Iterations(3), PageRankOptions::default().stop] {
        let opts = PageRankOptions {
            damping: 0.85,
            stop,
        };
        let pr = algo::pagerank(&Graph::declared(&Csr::<()>::empty(0, 0), false), &opts).unwrap();
        assert!(pr.ranks.is_empty());
        assert_eq!(pr.iterations, 0);
    }
}

#[test]
fn pagerank_of_small_graphs_by_hand() {
    // 0 -> 1 alone, damping 0.5, one iteration: vertex 1 dangles.
    // r1(0) = 0.25 + 0.5 * 0.5 / 2 = 0.375; r1(1) = 0.25 + 0.125 + 0.5 * 0.5 = 0.625.
    let mut b = CooBuilder::<()>::new(2, 2);
    b.push(0, 1, ()).unwrap();
    let a = b.build(Duplicates::Error).unwrap();
    let opts = PageRankOptions {
        damping: 0.5,
        stop: Stop::Iterations(1),
    };
    let pr = algo::pagerank(&Graph::declared(&a, false), &opts).unwrap();
    assert_ranks("0 -> 1", &pr.ranks, &[0.375, 0.625]);
    // A cycle keeps the uniform ranks.
    let mut b = CooBuilder::<()>::new(3, 3);
    for i in 0..3 {
        b.push(i, (i + 1) % 3, ()).unwrap();
    }
    let c = b.build(Duplicates::Error).unwrap();
    let pr = algo::pagerank(&Graph::declared(&c, false), &PageRankOptions::default()).unwrap();
    assert_ranks("3-cycle", &pr.ranks, &[1.0 / 3.0; 3]);
    assert_eq!(pr.iterations, 1);
}

// ---- local clustering coefficient ---------------------------------------------------

/// Per vertex: N(v) = in- and out-neighbours without v; the arcs (u, w), u != w, with
/// both ends in N(v), over |N(v)| (|N(v)| - 1); 0 when |N(v)| <= 1.
fn brute_lcc(a: &Csr<()>) -> Vec<f64> {
    let n = a.nrows();
    let (outs, ins) = (out_lists(a), in_lists(a));
    (0..n)
        .map(|v| {
            let nv: BTreeSet<usize> = outs[v]
                .iter()
                .chain(&ins[v])
                .copied()
                .filter(|&u| u != v)
                .collect();
            let d = nv.len();
            if d <= 1 {
                return 0.0;
            }
            let arcs = nv
                .iter()
                .map(|&u| {
                    outs[u]
                        .iter()
                        .filter(|&&w| w != u && nv.contains(&w))
                        .count()
                })
                .sum::<usize>();
            arcs as f64 / (d * (d - 1)) as f64
        })
        .collect()
}

#[test]
fn lcc_matches_the_set_computation() {
    for (what, a, undirected) in all_graphs() {
        let want = brute_lcc(&a);
        let mut runs = vec![("symmetric=false", false)];
        if undirected {
            runs.push(("symmetric=true", true));
        }
        for (how, symmetric) in runs {
            let got = algo::lcc(&Graph::declared(&a, symmetric));
            assert_eq!(got.len(), want.len(), "{what}, {how}");
            for (v, (x, y)) in got.iter().zip(&want).enumerate() {
                assert!(
                    abs_diff_eq!(x, y, epsilon = 1e-9),
                    "{what}, {how}: vertex {v}: got {x}, want {y}"
                );
            }
        }
    }
}

#[test]
fn lcc_of_small_graphs_by_hand() {
    // Directed: 0 -> 1, 0 -> 2, 1 -> 2. N(0) = {1, 2} with one arc 1 -> 2: 1/2.
    // N(2) = {0, 1}, arc 0 -> 1: 1/2. Vertex 3 has a self-loop only: 0.
    let mut b = CooBuilder::<()>::new(4, 4);
    for (u, v) in [(0, 1), (0, 2), (1, 2), (3, 3)] {
        b.push(u, v, ()).unwrap();
    }
    let a = b.build(Duplicates::Error).unwrap();
    assert_eq!(
        algo::lcc(&Graph::declared(&a, false)),
        vec![0.5, 0.5, 0.5, 0.0]
    );
}

// ---- label propagation -------------------------------------------------------------

/// `rounds` synchronous rounds: each vertex takes the most frequent label among its
/// neighbours (the smallest on a tie); a vertex with none keeps its label. Directed
/// (`symmetric` false): out- and in-neighbours as stored both count, so a vertex that is
/// both counts twice (a self-loop too). Symmetric: the stored row only.
fn brute_cdlp(a: &Csr<()>, symmetric: bool, rounds: usize) -> Vec<u32> {
    let n = a.nrows();
    let (outs, ins) = (out_lists(a), in_lists(a));
    let mut labels: Vec<u32> = (0..n as u32).collect();
    for _ in 0..rounds {
        let next = (0..n)
            .map(|v| {
                let mut count = std::collections::BTreeMap::<u32, usize>::new();
                let neighbours: Vec<usize> = if symmetric {
                    outs[v].clone()
                } else {
                    outs[v].iter().chain(&ins[v]).copied().collect()
                };
                for u in neighbours {
                    *count.entry(labels[u]).or_default() += 1;
                }
                // Ascending labels: the first with the largest count is the smallest.
                let mut best: Option<(u32, usize)> = None;
                for (l, c) in count {
                    if best.is_none_or(|(_, bc)| c > bc) {
                        best = Some((l, c));
                    }
                }
                best.map_or(labels[v], |(l, _)| l)
            })
            .collect();
        labels = next;
    }
    labels
}

#[test]
fn cdlp_matches_the_direct_rounds() {
    for (what, a, undirected) in all_graphs() {
        for rounds in 0..=5 {
            let got = algo::cdlp(&Graph::declared(&a, undirected), rounds);
            let want = brute_cdlp(&a, undirected, rounds);
            assert_eq!(got, want, "{what}, {rounds} rounds");
            if undirected {
                // Counting every neighbour twice changes no mode.
                assert_eq!(
                    algo::cdlp(&Graph::declared(&a, false), rounds),
                    want,
                    "{what}, {rounds} rounds, symmetric=false"
                );
            }
        }
    }
}

#[test]
fn cdlp_of_small_graphs_by_hand() {
    // Directed 0 -> 1, 2 -> 1, 1 -> 0: vertex 0 sees 1 twice (both ways) -> 1; vertex 1
    // sees 0 twice and 2 once -> 0; vertex 2 sees 1 -> 1; vertex 3 alone keeps 3.
    let mut b = CooBuilder::<()>::new(4, 4);
    for (u, v) in [(0, 1), (2, 1), (1, 0)] {
        b.push(u, v, ()).unwrap();
    }
    let a = b.build(Duplicates::Error).unwrap();
    assert_eq!(algo::cdlp(&Graph::declared(&a, false), 1), vec![1, 0, 1, 3]);
    // A tie among 0, 1 and 2 at vertex 3 of a star goes to the smallest label.
    let mut b = CooBuilder::<()>::new(4, 4);
    for v in 0..3 {
        b.push(3, v, ()).unwrap();
        b.push(v, 3, ()).unwrap();
    }
    let s = b.build(Duplicates::Error).unwrap();
    assert_eq!(algo::cdlp(&Graph::declared(&s, true), 1), vec![3, 3, 3, 0]);
}

// ---- betweenness -------------------------------------------------------------------

/// Textbook Brandes over the stored arcs: BC(v) = sum over the sources s != v (a repeat
/// counts again) of delta_s(v). No halving, no normalisation.
fn brandes(a: &Csr<()>, sources: &[u32]) -> Vec<f64> {
    let n = a.nrows();
    let outs = out_lists(a);
    let mut bc = vec![0.0; n];
    for &s in sources {
        let s = s as usize;
        let mut dist = vec![usize::MAX; n];
        let mut sigma = vec![0.0f64; n];
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut order = Vec::new();
        dist[s] = 0;
        sigma[s] = 1.0;
        let mut queue = VecDeque::from([s]);
        while let Some(v) = queue.pop_front() {
            order.push(v);
            for &w in &outs[v] {
                if dist[w] == usize::MAX {
                    dist[w] = dist[v] + 1;
                    queue.push_back(w);
                }
                if dist[w] == dist[v] + 1 {
                    sigma[w] += sigma[v];
                    preds[w].push(v);
                }
            }
        }
        let mut delta = vec![0.0f64; n];
        for &w in order.iter().rev() {
            for &v in &preds[w] {
                delta[v] += sigma[v] / sigma[w] * (1.0 + delta[w]);
            }
            if w != s {
                bc[w] += delta[w];
            }
        }
    }
    bc
}

/// Source lists of 1, 3, 8, 9 and 20 vertices (more than one batch of 8 from 9 on),
/// with a repeated source and, where there is one, a source without out-arcs.
fn source_lists(a: &Csr<()>, seed: u64) -> Vec<Vec<u32>> {
    let n = a.nrows();
    let mut r = Rng::new(seed ^ 0xbc);
    let sink = (0..n).find(|&v| a.degree(v) == 0);
    let hub = (0..n).max_by_key(|&v| a.degree(v)).unwrap();
    [1usize, 3, 8, 9, 20]
        .iter()
        .map(|&len| {
            let mut s: Vec<u32> = (0..len).map(|_| r.below(n) as u32).collect();
            if len >= 3 {
                s[0] = hub as u32;
                s[1] = hub as u32;
                if let Some(z) = sink {
                    s[2] = z as u32;
                }
            }
            s
        })
        .collect()
}

#[test]
fn betweenness_matches_brandes() {
    for &(seed, n, hubs) in CASES {
        if n == 0 {
            continue;
        }
        for undirected in [false, true] {
            let a = graph_with_hubs(seed, n, undirected, hubs);
            for sources in source_lists(&a, seed) {
                let want = brandes(&a, &sources);
                // The per-source vector form and LAGraph's batched matrix form.
                for (form, got) in [
                    (
                        "vectors",
                        algo::betweenness(&Graph::declared(&a, undirected), &sources),
                    ),
                    (
                        "batched",
                        algo::betweenness::betweenness_batched(
                            &Graph::declared(&a, undirected),
                            &sources,
                        ),
                    ),
                ] {
                    let what = format!(
                        "{form}: seed {seed}, n {n}, undirected {undirected}, {} sources {sources:?}",
                        sources.len()
                    );
                    assert_eq!(got.len(), n, "{what}");
                    for (v, (x, y)) in got.iter().zip(&want).enumerate() {
                        assert!(close(*x, *y, 1e-9), "{what}: vertex {v}: got {x}, want {y}");
                    }
                }
            }
        }
    }
}

#[test]
fn betweenness_of_small_graphs_by_hand() {
    // The path 0 - 1 - 2 both ways, every source: BC(1) = 2 (0 -> 2 and 2 -> 0).
    let mut b = CooBuilder::<()>::new(3, 3);
    for (u, v) in [(0, 1), (1, 0), (1, 2), (2, 1)] {
        b.push(u, v, ()).unwrap();
    }
    let a = b.build(Duplicates::Error).unwrap();
    assert_eq!(
        algo::betweenness(&Graph::new(&a), &[0, 1, 2]),
        vec![0.0, 2.0, 0.0]
    );
    // A diamond 0 -> {1, 2} -> 3: each middle vertex carries half of the 0 -> 3 paths;
    // the source twice counts twice.
    let mut b = CooBuilder::<()>::new(4, 4);
    for (u, v) in [(0, 1), (0, 2), (1, 3), (2, 3)] {
        b.push(u, v, ()).unwrap();
    }
    let d = b.build(Duplicates::Error).unwrap();
    let got = algo::betweenness(&Graph::new(&d), &[0, 0]);
    assert_eq!(got, vec![0.0, 1.0, 1.0, 0.0]);
    assert_eq!(
        algo::betweenness(&Graph::new(&d), &[]),
        vec![0.0; 4],
        "no sources"
    );
}

// ---- past the sequential cut-off, on 1 and 3 threads -------------------------------

/// A graph of 20,000 vertices (more than one parallel chunk of the kernels), directed
/// and undirected: every algorithm against its reference, in a 1-thread and a 3-thread
/// pool.
#[test]
fn large_graphs_match_the_references_on_1_and_3_threads() {
    for undirected in [false, true] {
        let a = graph_with_hubs(21, 20_000, undirected, 2);
        let n = a.nrows();
        let what = format!("n {n}, {} arcs, undirected {undirected}", a.nnz());
        let g = Graph::declared(&a, undirected);
        let (pr_want, _, _) = power_iteration(&a, 0.85, 10, None);
        let wcc_want = union_find_labels(&a);
        let lcc_want = brute_lcc(&a);
        let cdlp_want = brute_cdlp(&a, undirected, 3);
        let tri_want = undirected.then(|| brute_triangles(&a));
        let sources: Vec<u32> = (0..9).map(|k| (k * 2_203 % n) as u32).collect();
        let bc_want = brandes(&a, &sources);
        for threads in [1, 3] {
            qc::pool(threads).install(|| {
                let what = format!("{what}, {threads} threads");
                let opts = PageRankOptions {
                    damping: 0.85,
                    stop: Stop::Iterations(10),
                };
                let pr = algo::pagerank(&g, &opts).unwrap();
                assert_ranks(&what, &pr.ranks, &pr_want);
                assert_eq!(algo::wcc(&g).labels, wcc_want, "{what}: wcc");
                let lcc = algo::lcc(&g);
                for (v, (x, y)) in lcc.iter().zip(&lcc_want).enumerate() {
                    assert!(
                        abs_diff_eq!(x, y, epsilon = 1e-9),
                        "{what}: lcc({v}) {x}, want {y}"
                    );
                }
                assert_eq!(algo::cdlp(&g, 3), cdlp_want, "{what}: cdlp");
                if let Some(t) = tri_want {
                    for m in [TriangleMethod::Auto, TriangleMethod::Burkhardt] {
                        let got =
                            algo::triangle_count(&Graph::symmetric(&a), m, Presort::Auto).triangles;
                        assert_eq!(got, t, "{what}: {m:?}");
                    }
                }
                let bc = algo::betweenness(&g, &sources);
                for (v, (x, y)) in bc.iter().zip(&bc_want).enumerate() {
                    assert!(close(*x, *y, 1e-9), "{what}: bc({v}) {x}, want {y}");
                }
            });
        }
    }
}

/// FastSV on paths and a star whose vertex numbers are shuffled, the slow cases for
/// pointer jumping: one component each, labelled 0.
#[test]
fn wcc_of_shuffled_paths_and_stars() {
    for (seed, n) in [(31, 2), (32, 100), (33, 5_000), (34, 30_000)] {
        let mut r = Rng::new(seed);
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            p.swap(i, r.below(i + 1));
        }
        for shape in ["path", "star"] {
            let mut b = CooBuilder::<()>::new(n, n);
            for i in 1..n {
                let (u, v) = if shape == "path" {
                    (p[i - 1], p[i])
                } else {
                    (p[0], p[i])
                };
                b.push(u, v, ()).unwrap();
            }
            let a = b.build(Duplicates::Error).unwrap();
            let s = a.symmetrize(|_, _| ());
            for method in [WccMethod::Afforest, WccMethod::FastSv] {
                for (how, g) in [
                    ("directed", Graph::declared(&a, false)),
                    ("symmetrised", Graph::declared(&s, true)),
                ] {
                    let c = algo::wcc_with(&g, method);
                    let what = format!("seed {seed}, {shape} of {n}, {method:?}, {how}");
                    assert_eq!(c.labels, vec![0; n], "{what}");
                    assert_eq!((c.count(), c.largest()), (1, n), "{what}");
                }
            }
            assert_eq!(
                algo::wcc(&Graph::declared(&a, false)).labels,
                union_find_labels(&a)
            );
        }
    }
}

/// Afforest's links race: many threads (more than this machine's cores, so that they
/// interleave) on graphs with a giant component, many small ones and long chains under
/// shuffled numbers, directed and symmetric (where the giant's rows are skipped), run
/// again and again: always the sequential union-find's labels.
#[test]
fn afforest_under_many_threads_matches_union_find() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(8)
        .build()
        .unwrap();
    for seed in 0..6u64 {
        let mut r = Rng::new(700 + seed);
        let n = 20_000 + r.below(10_000);
        let mut perm: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            perm.swap(i, r.below(i + 1));
        }
        let mut b = CooBuilder::<()>::new(n, n);
        // a giant component over the first half, chains over the next quarter, pairs
        // and isolated vertices in the rest
        for _ in 0..3 * n {
            let (u, v) = (r.below(n / 2), r.below(n / 2));
            b.push(perm[u], perm[v], ()).unwrap();
        }
        for i in n / 2 + 1..3 * n / 4 {
            if r.below(50) != 0 {
                b.push(perm[i], perm[i - 1], ()).unwrap();
            }
        }
        for i in (3 * n / 4..n - 1).step_by(3) {
            b.push(perm[i + 1], perm[i], ()).unwrap();
        }
        let a = b.build(Duplicates::KeepFirst).unwrap();
        let s = a.symmetrize(|_, _| ());
        let want = union_find_labels(&a);
        pool.install(|| {
            for round in 0..4 {
                let directed = algo::components::afforest(&a, false);
                assert_eq!(
                    directed.labels, want,
                    "seed {seed}, round {round}, directed"
                );
                let symmetric = algo::components::afforest(&s, true);
                assert_eq!(
                    symmetric.labels, want,
                    "seed {seed}, round {round}, symmetric"
                );
            }
        });
    }
}

/// Deep and wide searches: a chain of 60 diamonds (2^60 shortest paths to the end) and a
/// path of 3,000 vertices (3,000 levels), against Brandes and by hand.
#[test]
fn betweenness_on_diamond_chains_and_long_paths() {
    let k = 60;
    let n = 3 * k + 1;
    let mut b = CooBuilder::<()>::new(n, n);
    for d in 0..k {
        let (s, x, y, t) = (3 * d, 3 * d + 1, 3 * d + 2, 3 * d + 3);
        for (u, v) in [(s, x), (s, y), (x, t), (y, t)] {
            b.push(u, v, ()).unwrap();
        }
    }
    let a = b.build(Duplicates::Error).unwrap();
    let sources = [0, 0, 3, 90, 179, 180];
    let got = algo::betweenness(&Graph::new(&a), &sources);
    let want = brandes(&a, &sources);
    for (v, (x, y)) in got.iter().zip(&want).enumerate() {
        assert!(
            close(*x, *y, 1e-9),
            "diamonds: vertex {v}: got {x}, want {y}"
        );
    }
    // From 0, a junction 3d (0 < d < k) lies on every path to the 3 (k - d) vertices
    // beyond it.
    let from0 = algo::betweenness(&Graph::new(&a), &[0]);
    for d in 1..k {
        assert!(
            close(from0[3 * d], (3 * (k - d)) as f64, 1e-12),
            "junction {d}"
        );
    }

    let n = 3_000;
    let mut b = CooBuilder::<()>::new(n, n);
    for i in 1..n {
        b.push(i - 1, i, ()).unwrap();
        b.push(i, i - 1, ()).unwrap();
    }
    let p = b.build(Duplicates::Error).unwrap();
    let got = algo::betweenness(&Graph::new(&p), &[0]);
    for (v, x) in got.iter().enumerate() {
        let want = if v == 0 { 0.0 } else { (n - 1 - v) as f64 };
        assert_eq!(*x, want, "path vertex {v}");
    }
}
