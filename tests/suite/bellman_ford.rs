//! Bellman-Ford by MIN.PLUS: distances against an independent edge-relaxation
//! Bellman-Ford and Dijkstra on random graphs (negative arcs included), predecessors
//! that form a shortest-path tree, thread-count independence, and negative cycles.

use crate::random;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use approx::assert_relative_eq;
use edgeblas::algo::bellman_ford::{NegativeCycle, bellman_ford};
use edgeblas::prelude::*;
use random::{Rng, random_dag, random_weighted};

/// Plain Bellman-Ford over the arc list; `None` on a reachable negative cycle.
fn reference(a: &Csr<f64>, s: usize) -> Option<Vec<f64>> {
    let n = a.nrows();
    let mut d = vec![f64::INFINITY; n];
    d[s] = 0.0;
    for round in 0..=n {
        let mut changed = false;
        for (i, j, w) in a.iter() {
            if d[i].is_finite() && d[i] + w < d[j as usize] {
                d[j as usize] = d[i] + w;
                changed = true;
            }
        }
        if !changed {
            return Some(d);
        }
        if round == n {
            return None;
        }
    }
    None
}

fn dijkstra(a: &Csr<f64>, s: usize) -> Vec<f64> {
    let n = a.nrows();
    let mut d = vec![f64::INFINITY; n];
    d[s] = 0.0;
    let mut h = BinaryHeap::new();
    h.push(Reverse((0u64, s)));
    while let Some(Reverse((du, u))) = h.pop() {
        let du = du as f64;
        if du > d[u] {
            continue;
        }
        let (cols, ws) = a.row(u);
        for (&v, &w) in cols.iter().zip(ws) {
            let nd = du + w;
            if nd < d[v as usize] {
                d[v as usize] = nd;
                h.push(Reverse((nd as u64, v as usize)));
            }
        }
    }
    d
}

/// Predecessors are the smallest tails of tight arcs (the brute-force rule), and with
/// positive weights they form a tree rooted at the source (a zero-weight cycle may make
/// two tight choices point at each other).
fn check_tree(a: &Csr<f64>, s: usize, d: &[f64], pred: &[u32]) {
    let n = a.nrows();
    assert_eq!(
        pred,
        smallest_tight_predecessors(a, s, d),
        "the predecessor rule"
    );
    let positive = a.values().iter().all(|&w| w > 0.0);
    for v in 0..n {
        if v == s && d[s] == 0.0 {
            assert_eq!(pred[v], u32::MAX, "the source has no predecessor");
            continue;
        }
        if !d[v].is_finite() {
            assert_eq!(pred[v], u32::MAX);
            continue;
        }
        let p = pred[v] as usize;
        let w = a.get(p, v).expect("predecessor arc exists");
        assert_eq!(d[p] + w, d[v], "arc {p} -> {v} is tight");
        // walking up reaches the source within n steps
        let (mut x, mut k) = (v, 0);
        while positive && x != s {
            x = pred[x] as usize;
            k += 1;
            assert!(k <= n, "predecessor cycle through {v}");
        }
    }
}

fn pool(t: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build()
        .unwrap()
}

#[test]
fn nonnegative_weights_match_dijkstra_and_the_reference() {
    for (seed, n, m, low) in [
        (1, 1, 0, 0),
        (2, 10, 30, 0),
        (3, 200, 1000, 0),
        (4, 3000, 20_000, 0),
        (5, 3000, 20_000, 1), // positive: the predecessors form a tree
    ] {
        let a = random_weighted(seed, n, m, low, 50);
        for s in [0, n / 2] {
            let want = dijkstra(&a, s);
            assert_eq!(reference(&a, s).unwrap(), want);
            for t in [1, 2, 3] {
                let sp = pool(t).install(|| bellman_ford(&Graph::directed(&a), s as u32).unwrap());
                assert_eq!(sp.distances, want, "seed {seed} source {s} {t}T");
                check_tree(&a, s, &sp.distances, &sp.predecessors);
            }
        }
    }
}

#[test]
fn negative_arcs_without_cycles_match_the_reference() {
    for seed in 0..20 {
        let a = random_dag(seed, 300, 3000);
        let want = reference(&a, 0).unwrap();
        let sp = bellman_ford(&Graph::directed(&a), 0).unwrap();
        assert_eq!(sp.distances, want);
        check_tree(&a, 0, &sp.distances, &sp.predecessors);
        let sp2 = pool(2).install(|| bellman_ford(&Graph::directed(&a), 0).unwrap());
        assert_eq!(sp, sp2);
    }
    // Mixed signs on a general graph: keep the cases the reference says have no cycle.
    let mut checked = 0;
    for seed in 100..200 {
        let a = random_weighted(seed, 60, 150, -2, 20);
        if let Some(want) = reference(&a, 0) {
            let sp = bellman_ford(&Graph::directed(&a), 0).unwrap();
            assert_eq!(sp.distances, want, "seed {seed}");
            check_tree(&a, 0, &sp.distances, &sp.predecessors);
            checked += 1;
        } else {
            assert!(
                bellman_ford(&Graph::directed(&a), 0).is_err(),
                "seed {seed}"
            );
        }
    }
    assert!(checked > 10);
}

/// The reported cycle exists, is negative, and contains the named vertex.
fn check_cycle(a: &Csr<f64>, c: &NegativeCycle) {
    assert_eq!(c.cycle[0], c.vertex);
    let k = c.cycle.len();
    let mut sum = 0.0;
    for i in 0..k {
        let (u, v) = (c.cycle[i] as usize, c.cycle[(i + 1) % k] as usize);
        sum += a.get(u, v).expect("cycle arc exists");
    }
    assert!(sum < 0.0, "cycle weight {sum}");
}

#[test]
fn negative_cycles_are_reported_with_a_vertex_on_them() {
    // 0 -> 1 -> 2 -> 3 -> 1 with weight -1 around 1..3, plus a tail 3 -> 4.
    let mut b = CooBuilder::new(6, 6);
    for (i, j, w) in [
        (0, 1, 1.0),
        (1, 2, 1.0),
        (2, 3, 1.0),
        (3, 1, -3.0),
        (3, 4, 2.0),
        (5, 5, -1.0),
    ] {
        b.push(i, j, w).unwrap();
    }
    let a = b.build(Duplicates::Error).unwrap();
    let c = bellman_ford(&Graph::directed(&a), 0).unwrap_err();
    assert!([1, 2, 3].contains(&c.vertex), "{c:?}");
    check_cycle(&a, &c);
    assert!(c.to_string().contains("negative cycle"));
    let e: edgeblas::Error = c.into();
    assert!(e.to_string().contains("negative cycle"));
    // The self-loop cycle at 5 is not reachable from 0, but it is from 5.
    let c = bellman_ford(&Graph::directed(&a), 5).unwrap_err();
    assert_eq!(c.vertex, 5);
    assert_eq!(c.cycle, vec![5]);
    // From 4 nothing negative is reachable.
    let sp = bellman_ford(&Graph::directed(&a), 4).unwrap();
    assert_eq!(sp.reached(), 1);

    // Random graphs with a planted negative cycle reachable from the source.
    for seed in 0..10 {
        let mut r = Rng::new(seed + 1000);
        let n = 200;
        let mut b = CooBuilder::new(n, n);
        for _ in 0..800 {
            b.push(r.below(n), r.below(n), (r.next_u64() % 10 + 1) as f64)
                .unwrap();
        }
        let cyc: Vec<usize> = (0..4).map(|_| r.below(n)).collect();
        for v in &cyc {
            b.push(0, *v, 1.0).unwrap();
        }
        for k in 0..cyc.len() {
            b.push(cyc[k], cyc[(k + 1) % cyc.len()], -100.0).unwrap();
        }
        let a = b.build(Duplicates::KeepLast).unwrap();
        if reference(&a, 0).is_some() {
            continue;
        }
        let c = bellman_ford(&Graph::directed(&a), 0).unwrap_err();
        check_cycle(&a, &c);
    }
}

#[test]
fn unit_weights_give_bfs_levels() {
    use edgeblas::algo::bfs::{Beamer, BfsGraph, BfsOptions, bfs};
    let w = random_weighted(7, 2000, 8000, 1, 1);
    let p = w.pattern();
    let r = bfs(
        &BfsGraph::directed(&p),
        &[0],
        &Beamer::default(),
        &BfsOptions::default(),
    )
    .unwrap();
    let sp = bellman_ford(&Graph::directed(&w), 0).unwrap();
    for v in 0..w.nrows() {
        match r.level(v) {
            Some(l) => assert_eq!(sp.distances[v], l as f64),
            None => assert!(sp.distances[v].is_infinite()),
        }
    }
}

// ---- delta-stepping -------------------------------------------------------------

use edgeblas::algo::delta_stepping::{default_delta, delta_stepping, delta_stepping_with};

/// The predecessor rule, by brute force over the in-arcs: the smallest `u` with
/// `d(u) + w(u, v) = d(v)`, none for the source and unreached vertices.
fn smallest_tight_predecessors(a: &Csr<f64>, s: usize, d: &[f64]) -> Vec<u32> {
    let n = a.nrows();
    let mut p = vec![u32::MAX; n];
    for (u, v, w) in a.iter() {
        let v = v as usize;
        if v != s && d[u].is_finite() && d[u] + w == d[v] && (u as u32) < p[v] {
            p[v] = u as u32;
        }
    }
    p
}

#[test]
fn delta_stepping_matches_dijkstra_for_any_delta_with_zero_weights() {
    for (seed, n, m) in [
        (11, 1, 0),
        (12, 10, 30),
        (13, 200, 1000),
        (14, 3000, 20_000),
        (15, 5000, 6000), // many unreached vertices
    ] {
        let a = random_weighted(seed, n, m, 0, 50);
        for s in [0, n / 2] {
            let want = dijkstra(&a, s);
            let pred = smallest_tight_predecessors(&a, s, &want);
            // light arcs copied (0.5, 7), read through A beside heavy ones (30), all light (50, 1e6)
            for delta in [0.5, 1.0, 7.0, 30.0, 50.0, 1e6, default_delta(&a)] {
                for t in [1, 3] {
                    let sp = pool(t)
                        .install(|| delta_stepping(&Graph::directed(&a), s as u32, delta).unwrap());
                    assert_eq!(
                        sp.distances, want,
                        "seed {seed} source {s} delta {delta} {t}T"
                    );
                    assert_eq!(
                        sp.predecessors, pred,
                        "seed {seed} source {s} delta {delta}"
                    );
                }
            }
        }
    }
}

#[test]
fn delta_stepping_over_many_buckets_and_windows() {
    // Weights up to 1000 on a sparse graph with a small delta: thousands of buckets, the
    // window re-split many times, candidates superseded across windows.
    let a = random_weighted(21, 20_000, 60_000, 1, 1000);
    let want = dijkstra(&a, 7);
    for delta in [3.0, 40.0, default_delta(&a)] {
        let sp = delta_stepping(&Graph::directed(&a), 7, delta).unwrap();
        assert_eq!(sp.distances, want, "delta {delta}");
        let bare = delta_stepping_with(&Graph::directed(&a), 7, delta, false).unwrap();
        assert_eq!(bare.distances, want);
        assert!(bare.predecessors.is_empty());
    }
}

#[test]
fn delta_stepping_ends_where_a_bucket_boundary_rounds() {
    // A path whose distances fall on multiples of 0.1 while delta is 0.3: 0.6 / 0.3
    // rounds below 2, so the bucket computed for a distance of 0.6 was [0.3, 0.6), which
    // does not hold it, and the search looped forever.
    let n = 400;
    let mut b = CooBuilder::new(n, n);
    for v in 0..n - 1 {
        b.push(v, v + 1, 0.1 + (v % 7) as f64 / 3.0).unwrap();
        if v % 10 == 0 {
            b.push(v + 1, v, 5.0).unwrap();
        }
    }
    let a = b.build(Duplicates::KeepFirst).unwrap();
    // (dijkstra() above keys its heap by integers: the Bellman-Ford reference here.)
    let want = reference(&a, 0).unwrap();
    for delta in [0.1, 0.3, 0.7] {
        let sp = delta_stepping(&Graph::directed(&a), 0, delta).unwrap();
        assert_eq!(sp.distances, want, "delta {delta}");
    }
    // A delta below half an ulp of the distances: m + delta == m.
    let mut b = CooBuilder::new(3, 3);
    b.push(0, 1, 1e17).unwrap();
    b.push(1, 2, 1.0).unwrap();
    let big = b.build(Duplicates::KeepFirst).unwrap();
    let sp = delta_stepping(&Graph::directed(&big), 0, 1e-3).unwrap();
    assert_eq!(Some(sp.distances), reference(&big, 0));
}

#[test]
fn delta_stepping_rejects_negative_weights_and_bad_deltas() {
    let mut b = CooBuilder::new(3, 3);
    for (i, j, w) in [(0, 1, 1.0), (1, 2, -1.0)] {
        b.push(i, j, w).unwrap();
    }
    let a = b.build(Duplicates::Error).unwrap();
    let e = delta_stepping(&Graph::directed(&a), 0, 1.0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("negative"), "{e}");
    let ok = random_weighted(3, 10, 20, 0, 5);
    for d in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let e = delta_stepping(&Graph::directed(&ok), 0, d)
            .unwrap_err()
            .to_string();
        assert!(e.contains("delta"), "{d}: {e}");
    }
}

#[test]
fn default_delta_follows_the_documented_rule() {
    // 4 x mean weight / mean degree, clamped to [smallest, largest positive weight].
    let a = random_weighted(5, 1000, 4000, 1, 100);
    let w = a.values();
    let mean_w = w.iter().sum::<f64>() / w.len() as f64;
    let mean_deg = w.len() as f64 / 1000.0;
    let lo = w.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = w.iter().cloned().fold(0.0, f64::max);
    let want = (4.0 * mean_w / mean_deg).clamp(lo, hi);
    assert_relative_eq!(default_delta(&a), want, max_relative = 1e-9);
    // no positive weight: 1
    let z = random_weighted(5, 10, 20, 0, 0);
    assert_eq!(default_delta(&z), 1.0);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn delta_stepping_on_real_road_graphs_matches_dijkstra() {
    use std::path::PathBuf;
    let root = std::env::var_os("EDGEBLAS_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")));
    let path = root.join("real/luxembourg_osm.mtx.gz");
    if !path.is_file() {
        println!("SKIP: {} not found", path.display());
        return;
    }
    let g = edgeblas::io::read_graph(&path, &edgeblas::io::ReadOptions::default()).unwrap();
    // Seeded weights 1..1000, the same on both arcs of an edge.
    let a = g.adjacency.map(|_| 0.0);
    let mut b = CooBuilder::new(a.nrows(), a.ncols());
    for (i, j, _) in a.iter() {
        let (lo, hi) = ((i as u64).min(j as u64), (i as u64).max(j as u64));
        let h = (lo.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ hi).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        b.push(i, j as usize, (1 + (h >> 33) % 1000) as f64)
            .unwrap();
    }
    let a = b.build(Duplicates::KeepFirst).unwrap();
    for s in [0, a.nrows() / 3] {
        let want = dijkstra(&a, s);
        let sp = delta_stepping(&Graph::directed(&a), s as u32, default_delta(&a)).unwrap();
        assert_eq!(sp.distances, want, "source {s}");
        assert_eq!(sp.predecessors, smallest_tight_predecessors(&a, s, &want));
    }
}
