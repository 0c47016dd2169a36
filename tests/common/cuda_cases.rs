//! The cases both CUDA test files run: the host build of the kernels
//! (`cuda_host_kernels.rs`, everywhere) and the GPU (`cuda_parity.rs`, where one is
//! present). Each compares a backend's BFS and Bellman-Ford with the CPU's, element by
//! element, on random graphs (hubs above the push kernel's big-vertex threshold
//! included), R-MAT graphs and the real graphs of ../shared/data when present.
//!
//! Included as `#[path = "common/cuda_cases.rs"] mod cuda_cases;` next to `oracle.rs`
//! and `random.rs` (it names `super::random`).

#![allow(dead_code)]

use std::path::Path;

use edgeblas::algo::bellman_ford::{NegativeCycle, ShortestPaths, bellman_ford};
use edgeblas::algo::bfs::{Beamer, BfsGraph, BfsOptions, BfsResult, Policy, bfs, builtin_policies};
use edgeblas::generate::rmat::Rmat;
use edgeblas::io::{ReadOptions, read_graph};
use edgeblas::prelude::*;

use super::random::{Rng, random_dag, random_weighted};

/// A backend's BFS.
pub type BfsFn<'a> = &'a dyn Fn(
    &BfsGraph<'_, ()>,
    &[Index],
    &dyn Policy,
    &BfsOptions,
) -> edgeblas::Result<BfsResult>;
/// A backend's Bellman-Ford.
pub type BfFn<'a> =
    &'a dyn Fn(&Csr<f64>, Index) -> edgeblas::Result<Result<ShortestPaths, NegativeCycle>>;

/// `n` vertices, about `m` skewed arcs, and `hubs` vertices of 3000 out-arcs (above the
/// push kernel's block-per-vertex threshold of 2048); symmetric on request.
pub fn random_graph(seed: u64, n: usize, m: usize, hubs: usize, symmetric: bool) -> Csr<()> {
    let mut r = Rng::new(seed);
    let mut b = CooBuilder::new(n, n);
    for _ in 0..m {
        let i = if r.next_u64() & 1 == 0 {
            r.below(n.div_ceil(16))
        } else {
            r.below(n)
        };
        b.push(i, r.below(n), ()).unwrap();
    }
    for h in 0..hubs {
        let hub = r.below(n);
        for _ in 0..3000 {
            b.push(hub, r.below(n), ()).unwrap();
        }
        // something points at the hub, so it is found at a later level too
        b.push((hub + 1 + h) % n, hub, ()).unwrap();
    }
    if symmetric {
        b.symmetrize();
    }
    b.build(Duplicates::KeepFirst).unwrap()
}

/// The backend's search equals the CPU's: parents, levels, counts, and the trace's
/// directions, frontiers and examined arcs level by level.
pub fn same_search(
    what: &str,
    g: &BfsGraph<'_, ()>,
    sources: &[Index],
    opts: &BfsOptions,
    run: BfsFn<'_>,
) {
    for p in builtin_policies() {
        let want = bfs(g, sources, p.as_ref(), opts).unwrap();
        let got = run(g, sources, p.as_ref(), opts).unwrap();
        let ctx = format!("{what}, policy {}, sources {sources:?}, {opts:?}", p.name());
        assert_eq!(got.levels, want.levels, "levels: {ctx}");
        assert_eq!(got.parents, want.parents, "parents: {ctx}");
        assert_eq!(
            (got.reached, got.max_depth, got.complete),
            (want.reached, want.max_depth, want.complete),
            "counts: {ctx}"
        );
        assert_eq!(got.trace.len(), want.trace.len(), "trace length: {ctx}");
        for (a, b) in got.trace.iter().zip(&want.trace) {
            assert_eq!(
                (
                    a.level,
                    a.direction,
                    a.frontier_vertices,
                    a.frontier_edges,
                    a.edges_examined
                ),
                (
                    b.level,
                    b.direction,
                    b.frontier_vertices,
                    b.frontier_edges,
                    b.edges_examined
                ),
                "trace: {ctx}"
            );
        }
    }
}

/// BFS on random graphs, directed and symmetric, with hubs, several and repeated
/// sources, depth limits and targets, and R-MAT graphs.
pub fn bfs_cases(run: BfsFn<'_>) {
    let traced = BfsOptions {
        trace: true,
        ..BfsOptions::default()
    };
    for seed in 1..=3 {
        for symmetric in [false, true] {
            let a = random_graph(seed, 4000, 24_000, 2, symmetric);
            let g = if symmetric {
                BfsGraph::symmetric(&a)
            } else {
                BfsGraph::directed(&a)
            };
            let what = format!("random seed {seed} symmetric {symmetric}");
            same_search(&what, &g, &[0], &traced, run);
            same_search(&what, &g, &[7, 3, 7, 3999], &traced, run);
            let limited = BfsOptions {
                max_depth: Some(2),
                ..traced
            };
            same_search(&what, &g, &[1], &limited, run);
            let target = BfsOptions {
                target: Some(1234),
                ..traced
            };
            same_search(&what, &g, &[2], &target, run);
        }
    }
    for scale in [10, 13] {
        let a = Rmat {
            scale,
            edge_factor: 16,
            undirected: true,
            seed: scale as u64,
            ..Rmat::default()
        }
        .generate()
        .unwrap();
        let g = BfsGraph::symmetric(&a);
        let hub = (0..a.nrows()).max_by_key(|&v| a.degree(v)).unwrap() as Index;
        let what = format!("rmat scale {scale}");
        same_search(&what, &g, &[hub], &traced, run);
        same_search(&what, &g, &[0], &BfsOptions::default(), run);
    }
    // An empty graph and a single vertex.
    let one = CooBuilder::<()>::new(1, 1)
        .build(Duplicates::Error)
        .unwrap();
    same_search("one vertex", &BfsGraph::directed(&one), &[0], &traced, run);
}

/// Bad sources are errors, not panics.
pub fn bfs_errors(run: BfsFn<'_>) {
    let a = random_graph(9, 50, 200, 0, false);
    let g = BfsGraph::directed(&a);
    let o = BfsOptions::default();
    assert!(run(&g, &[], &Beamer::default(), &o).is_err());
    assert!(run(&g, &[50], &Beamer::default(), &o).is_err());
    let t = BfsOptions {
        target: Some(99),
        ..o
    };
    assert!(run(&g, &[0], &Beamer::default(), &t).is_err());
}

fn same_paths(what: &str, a: &Csr<f64>, source: Index, run: BfFn<'_>) {
    let want = bellman_ford(&Graph::directed(a), source);
    let got = run(a, source).unwrap();
    match (got, want) {
        (Ok(g), Ok(w)) => {
            // bit for bit, -0 and +0 counted as one distance
            let bits = |d: &[f64]| d.iter().map(|x| (x + 0.0).to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&g.distances), bits(&w.distances), "distances: {what}");
            assert_eq!(g.predecessors, w.predecessors, "predecessors: {what}");
            assert_eq!(g.rounds, w.rounds, "rounds: {what}");
        }
        (Err(g), Err(w)) => {
            assert_eq!(g.vertex, w.vertex, "cycle vertex: {what}");
            assert_eq!(g.cycle, w.cycle, "cycle: {what}");
        }
        (g, w) => panic!("{what}: backend {g:?}, cpu {w:?}"),
    }
}

/// Bellman-Ford: integer weights (ties), fractional weights, negative arcs on DAGs,
/// negative cycles, unit weights on R-MAT.
pub fn bellman_ford_cases(run: BfFn<'_>) {
    for seed in 1..=3 {
        let a = random_weighted(seed, 2000, 12_000, 1, 5);
        same_paths(&format!("integer weights seed {seed}"), &a, 0, run);
        let f = random_weighted(seed, 2000, 12_000, 1, 0);
        same_paths(&format!("fractional weights seed {seed}"), &f, 3, run);
        let d = random_dag(seed, 2000, 20_000);
        same_paths(&format!("dag seed {seed}"), &d, 0, run);
        let c = random_weighted(seed, 300, 1200, -2, 6);
        same_paths(&format!("maybe negative cycles seed {seed}"), &c, 0, run);
    }
    let mut b = CooBuilder::new(4, 4);
    for (i, j, w) in [(0, 1, 1.0), (1, 2, -3.0), (2, 1, 1.0), (2, 3, 1.0)] {
        b.push(i, j, w).unwrap();
    }
    let cyc = b.build(Duplicates::Error).unwrap();
    same_paths("a negative cycle", &cyc, 0, run);
    let r = Rmat {
        scale: 11,
        edge_factor: 8,
        undirected: true,
        ..Rmat::default()
    }
    .generate()
    .unwrap()
    .map(|_| 1.0);
    same_paths("rmat unit weights", &r, 0, run);
    assert!(
        run(&r, r.nrows() as Index).is_err(),
        "a source outside the graph"
    );
}

/// The real graphs of ../shared/data/real (skipped, with a note, when absent).
pub fn real_graph_cases(run: BfsFn<'_>, run_bf: BfFn<'_>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/real");
    if !dir.is_dir() {
        println!("SKIP real graphs: {} is absent", dir.display());
        return;
    }
    for (file, undirected) in [
        ("email-Eu-core.txt", false),
        ("wiki-Vote.txt", false),
        ("ego-Facebook.txt", true),
        ("p2p-Gnutella31.txt.gz", false),
        ("luxembourg_osm.mtx.gz", true),
    ] {
        let opts = ReadOptions {
            undirected,
            ..ReadOptions::default()
        };
        let gph = read_graph(&dir.join(file), &opts).unwrap();
        let a = gph.adjacency;
        let g = BfsGraph::detect(&a);
        let traced = BfsOptions {
            trace: true,
            ..BfsOptions::default()
        };
        same_search(file, &g, &[0], &traced, run);
        same_paths(file, &a.map(|_| 1.0), 0, run_bf);
    }
}
