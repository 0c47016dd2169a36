//! The algorithm templates of `examples/` (triangle counting, k-truss, multi-source
//! BFS), each run through
//! its library function against a brute force written here, on random graphs with hubs.

#[path = "../../examples/k_truss.rs"]
mod k_truss;
#[path = "../../examples/msbfs.rs"]
mod msbfs;
#[path = "../../examples/triangle_count.rs"]
mod triangle_count;

use crate::random;

use std::collections::{BTreeMap, BTreeSet};

use edgeblas::prelude::*;
use random::Rng;

/// A random undirected graph: `m` random edges (self-loops and repeats included) and a
/// few hubs, stored both ways.
fn graph(seed: u64, n: usize, m: usize, hubs: usize) -> Csr<()> {
    let mut r = Rng::new(seed);
    let mut b = CooBuilder::<()>::new(n, n);
    let mut edge = |u: usize, v: usize| {
        b.push(u, v, ()).unwrap();
        b.push(v, u, ()).unwrap();
    };
    for _ in 0..m {
        edge(r.below(n), r.below(n));
    }
    for h in 0..hubs {
        for _ in 0..n / 4 {
            edge(h, r.below(n));
        }
    }
    b.build(Duplicates::KeepFirst).unwrap()
}

/// Neighbour sets without self-loops.
fn neighbours(a: &Csr<()>) -> Vec<BTreeSet<usize>> {
    (0..a.nrows())
        .map(|i| {
            a.row(i)
                .0
                .iter()
                .map(|&j| j as usize)
                .filter(|&j| j != i)
                .collect()
        })
        .collect()
}

#[test]
fn triangle_count_matches_brute_force() {
    for (seed, n, m, hubs) in [
        (1, 0, 0, 0),
        (2, 1, 3, 0),
        (3, 50, 300, 1),
        (4, 2000, 8000, 3),
    ] {
        let a = graph(seed, n, m, hubs);
        let nb = neighbours(&a);
        let mut brute = 0u64;
        for i in 0..n {
            for &j in nb[i].iter().filter(|&&j| j < i) {
                brute += nb[j]
                    .iter()
                    .filter(|&&k| k < j && nb[i].contains(&k))
                    .count() as u64;
            }
        }
        assert_eq!(triangle_count::triangle_count(&a), brute, "seed {seed}");
    }
}

/// The k-truss by peeling: drop every edge on fewer than k - 2 triangles, recount, until
/// nothing changes; each kept edge with its support.
fn brute_truss(a: &Csr<()>, k: usize) -> BTreeMap<(usize, usize), u32> {
    let mut nb = neighbours(a);
    loop {
        let mut drop = Vec::new();
        let mut support = BTreeMap::new();
        for (i, ni) in nb.iter().enumerate() {
            for &j in ni {
                let s = ni.intersection(&nb[j]).count();
                if s + 2 < k {
                    drop.push((i, j));
                } else {
                    support.insert((i, j), s as u32);
                }
            }
        }
        if drop.is_empty() {
            return support;
        }
        for (i, j) in drop {
            nb[i].remove(&j);
        }
    }
}

#[test]
fn k_truss_matches_peeling() {
    for (seed, n, m, hubs, k) in [
        (5, 0, 0, 0, 3),
        (6, 30, 200, 0, 3),
        (7, 60, 500, 1, 4),
        (8, 400, 3000, 2, 5),
        (9, 400, 3000, 2, 8),
    ] {
        let a = graph(seed, n, m, hubs);
        let (t, _) = k_truss::k_truss(&a, k);
        let got: BTreeMap<(usize, usize), u32> =
            t.iter().map(|(i, j, s)| ((i, j as usize), s)).collect();
        assert_eq!(got, brute_truss(&a, k as usize), "seed {seed}, k {k}");
    }
}

/// Hop counts from `src` by a queue BFS over the rows of `a`.
fn queue_bfs(a: &Csr<()>, src: usize) -> BTreeMap<usize, u32> {
    let mut level = BTreeMap::from([(src, 0u32)]);
    let mut queue = std::collections::VecDeque::from([src]);
    while let Some(u) = queue.pop_front() {
        let d = level[&u];
        for &v in a.row(u).0 {
            level.entry(v as usize).or_insert_with(|| {
                queue.push_back(v as usize);
                d + 1
            });
        }
    }
    level
}

#[test]
fn msbfs_matches_one_queue_bfs_per_source() {
    for (seed, n, m, hubs, directed) in [
        (10, 1, 0, 0, false),
        (11, 40, 30, 0, false),
        (12, 300, 600, 2, false),
        (13, 300, 500, 1, true),
    ] {
        let a = if directed {
            let mut r = Rng::new(seed);
            let mut b = CooBuilder::<()>::new(n, n);
            for _ in 0..m {
                b.push(r.below(n), r.below(n), ()).unwrap();
            }
            b.build(Duplicates::KeepFirst).unwrap()
        } else {
            graph(seed, n, m, hubs)
        };
        // Repeated sources are separate searches.
        let sources: Vec<Index> = (0..n.min(6) as Index).chain([0]).collect();
        let levels = msbfs::multi_source_bfs(&a, &sources);
        assert_eq!((levels.nrows(), levels.ncols()), (sources.len(), n));
        for (s, &src) in sources.iter().enumerate() {
            let (cols, vals) = levels.row(s);
            let got: BTreeMap<usize, u32> = cols
                .iter()
                .zip(vals)
                .map(|(&v, &d)| (v as usize, d))
                .collect();
            assert_eq!(
                got,
                queue_bfs(&a, src as usize),
                "seed {seed}, source {src}"
            );
        }
    }
}
