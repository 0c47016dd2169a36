//! BFS: levels and parents against a plain queue BFS on random graphs, for every policy,
//! thread count and the template; trace, depth limit, target, several sources; the
//! validator; and the reference figures of ../shared/data/real (skipped when absent).

use crate::random;

use std::collections::VecDeque;
use std::path::Path;

use edgeblas::algo::bfs::{
    Beamer, BfsGraph, BfsOptions, BfsResult, Direction, LevelState, Policy, Pull, Push, bfs,
    bfs_template, builtin_policies,
};
use edgeblas::algo::validate::{BfsViolation, validate_bfs};
use edgeblas::io::{ReadOptions, read_graph};
use edgeblas::prelude::*;
use random::Rng;

/// A random graph: `n` vertices, about `m` arcs, a few hubs; symmetric on request.
fn random_graph(seed: u64, n: usize, m: usize, symmetric: bool) -> Csr<()> {
    let mut r = Rng::new(seed);
    let mut b = CooBuilder::new(n, n);
    for _ in 0..m {
        // skew: half the arcs touch the first n/16 vertices
        let i = if r.next_u64() & 1 == 0 {
            r.below(n.div_ceil(16))
        } else {
            r.below(n)
        };
        let j = r.below(n);
        b.push(i, j, ()).unwrap();
    }
    if symmetric {
        b.symmetrize();
    }
    b.build(Duplicates::KeepFirst).unwrap()
}

/// Queue BFS for levels, then the smallest parent on the previous level.
fn reference(a: &Csr<()>, sources: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let n = a.nrows();
    let mut level = vec![u32::MAX; n];
    let mut q = VecDeque::new();
    for &s in sources {
        if level[s as usize] == u32::MAX {
            level[s as usize] = 0;
            q.push_back(s as usize);
        }
    }
    while let Some(u) = q.pop_front() {
        for &v in a.row(u).0 {
            if level[v as usize] == u32::MAX {
                level[v as usize] = level[u] + 1;
                q.push_back(v as usize);
            }
        }
    }
    let mut parent = vec![u32::MAX; n];
    for &s in sources {
        parent[s as usize] = s;
    }
    for u in 0..n {
        if level[u] == u32::MAX {
            continue;
        }
        for &v in a.row(u).0 {
            let v = v as usize;
            if level[v] == level[u] + 1 && (u as u32) < parent[v] {
                parent[v] = u as u32;
            }
        }
    }
    (level, parent)
}

fn policies() -> Vec<Box<dyn Policy>> {
    let mut p = builtin_policies();
    // aggressive switching: exercises push <-> pull conversions at every level
    p.push(Box::new(Beamer {
        alpha: 1e9,
        beta: 1.0,
    }));
    p
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

#[test]
fn every_policy_thread_count_and_the_template_match_a_queue_bfs() {
    for (seed, n, m, sym) in [
        (1, 1, 0, false),
        (2, 7, 12, false),
        (3, 64, 200, true),
        (4, 65, 130, false),
        (5, 500, 3000, false),
        (6, 3000, 9000, true),
        (7, 20_000, 400_000, false),
        (8, 20_000, 200_000, true),
    ] {
        let a = random_graph(seed, n, m, sym);
        let g = if sym {
            BfsGraph::symmetric(&a)
        } else {
            BfsGraph::directed(&a)
        };
        let mut r = Rng::new(seed * 77);
        let source_sets: Vec<Vec<u32>> = vec![
            vec![0],
            vec![r.below(n) as u32],
            vec![r.below(n) as u32, r.below(n) as u32, 0],
        ];
        for sources in &source_sets {
            let (lv, pa) = reference(&a, sources);
            for p in policies() {
                for threads in [1, 2, 3] {
                    let res = pool(threads)
                        .install(|| bfs(&g, sources, p.as_ref(), &BfsOptions::default()).unwrap());
                    assert_eq!(
                        res.levels,
                        lv,
                        "levels: seed {seed} {} {threads}T",
                        p.name()
                    );
                    assert_eq!(
                        res.parents,
                        pa,
                        "parents: seed {seed} {} {threads}T",
                        p.name()
                    );
                    assert!(res.complete);
                    validate_bfs(&a, sources, &res).unwrap();
                }
                let t = bfs_template(&g, sources, p.as_ref(), &BfsOptions::default()).unwrap();
                assert_eq!(t.levels, lv, "template levels: seed {seed} {}", p.name());
                assert_eq!(t.parents, pa, "template parents: seed {seed} {}", p.name());
            }
        }
    }
}

/// A high-diameter graph whose levels are a few thousand arcs each: the push levels
/// that a team of spinning threads splits into chunks (the road-graph case). A grid with
/// random extra arcs, so that many heads have several frontier parents at once.
#[test]
fn mid_sized_push_levels_on_a_team_match_a_queue_bfs() {
    let (w, h) = (700usize, 600usize);
    let n = w * h;
    let mut r = Rng::new(99);
    let mut b = CooBuilder::new(n, n);
    for i in 0..h {
        for j in 0..w {
            let v = i * w + j;
            if j + 1 < w {
                b.push(v, v + 1, ()).unwrap();
            }
            if i + 1 < h {
                b.push(v, v + w, ()).unwrap();
            }
            if r.below(8) == 0 && i + 2 < h && j + 3 < w {
                b.push(v, v + 2 * w + 3, ()).unwrap();
            }
        }
    }
    b.symmetrize();
    let a = b.build(Duplicates::KeepFirst).unwrap();
    let g = BfsGraph::symmetric(&a);
    for sources in [
        vec![0u32],
        vec![(n / 2 + w / 2) as u32],
        vec![5, (n - 1) as u32],
    ] {
        let (lv, pa) = reference(&a, &sources);
        for threads in [2, 3, 4] {
            let res =
                pool(threads).install(|| bfs(&g, &sources, &Push, &BfsOptions::default()).unwrap());
            assert_eq!(res.levels, lv, "levels {sources:?} {threads}T");
            assert_eq!(res.parents, pa, "parents {sources:?} {threads}T");
            let res = pool(threads)
                .install(|| bfs(&g, &sources, &Beamer::default(), &BfsOptions::default()).unwrap());
            assert_eq!(res.parents, pa, "beamer parents {sources:?} {threads}T");
        }
    }
}

#[test]
fn directions_follow_the_policy_and_the_trace_adds_up() {
    let a = random_graph(11, 20_000, 300_000, true);
    let g = BfsGraph::symmetric(&a);
    let opts = BfsOptions {
        trace: true,
        ..Default::default()
    };
    let push = bfs(&g, &[0], &Push, &opts).unwrap();
    assert!(push.trace.iter().all(|t| t.direction == Direction::Push));
    let pull = bfs(&g, &[0], &Pull, &opts).unwrap();
    assert!(pull.trace.iter().all(|t| t.direction == Direction::Pull));
    let beamer = bfs(&g, &[0], &Beamer::default(), &opts).unwrap();
    assert!(beamer.trace.iter().any(|t| t.direction == Direction::Pull));
    assert_eq!(beamer.trace[0].direction, Direction::Push);
    for r in [&push, &pull, &beamer] {
        assert_eq!(r.trace.len() as u32, r.max_depth + 1);
        let fsum: usize = r.trace.iter().map(|t| t.frontier_vertices).sum();
        assert_eq!(fsum, r.reached);
        for (k, t) in r.trace.iter().enumerate() {
            assert_eq!(t.level, k as u32);
            let want = r.levels.iter().filter(|&&l| l == k as u32).count();
            assert_eq!(t.frontier_vertices, want);
        }
    }
    // push examines exactly the out-arcs of the reached vertices
    let arcs: u64 = push.trace.iter().map(|t| t.edges_examined).sum();
    let reached_arcs: u64 = (0..a.nrows())
        .filter(|&v| push.levels[v] != u32::MAX)
        .map(|v| a.degree(v) as u64)
        .sum();
    assert_eq!(arcs, reached_arcs);
    // pull's early exit examines fewer arcs than push on this dense graph
    let pulled: u64 = beamer.trace.iter().map(|t| t.edges_examined).sum();
    assert!(pulled < arcs);
    assert_eq!(push.parents, beamer.parents);
}

/// A user's policy: pull exactly on the levels in a list.
struct OnLevels(Vec<u32>);
impl Policy for OnLevels {
    fn name(&self) -> String {
        "on-levels".into()
    }
    fn direction(&self, s: &LevelState) -> Direction {
        if self.0.contains(&s.depth) {
            Direction::Pull
        } else {
            Direction::Push
        }
    }
}

#[test]
fn a_custom_policy_is_obeyed() {
    let a = random_graph(12, 5000, 40_000, false);
    let g = BfsGraph::directed(&a);
    let p = OnLevels(vec![1, 3]);
    let opts = BfsOptions {
        trace: true,
        ..Default::default()
    };
    let r = bfs(&g, &[0], &p, &opts).unwrap();
    for t in &r.trace {
        let want = if [1, 3].contains(&t.level) {
            Direction::Pull
        } else {
            Direction::Push
        };
        assert_eq!(t.direction, want);
    }
    assert_eq!((r.levels, r.parents), reference(&a, &[0]));
}

#[test]
fn depth_limit_and_target_stop_early() {
    let a = random_graph(13, 5000, 15_000, false);
    let g = BfsGraph::directed(&a);
    let (lv, pa) = reference(&a, &[0]);
    let full_depth = lv
        .iter()
        .filter(|&&l| l != u32::MAX)
        .max()
        .copied()
        .unwrap();
    assert!(full_depth >= 3);
    for p in policies() {
        for d in 0..=full_depth + 1 {
            let opts = BfsOptions {
                max_depth: Some(d),
                ..Default::default()
            };
            let r = bfs(&g, &[0], p.as_ref(), &opts).unwrap();
            let t = bfs_template(&g, &[0], p.as_ref(), &opts).unwrap();
            for v in 0..a.nrows() {
                let (wl, wp) = if lv[v] <= d {
                    (lv[v], pa[v])
                } else {
                    (u32::MAX, u32::MAX)
                };
                assert_eq!(
                    (r.levels[v], r.parents[v]),
                    (wl, wp),
                    "depth {d} {}",
                    p.name()
                );
            }
            assert_eq!(r.levels, t.levels);
            assert_eq!(r.complete, d >= full_depth && r.complete);
            assert_eq!(r.max_depth, d.min(full_depth));
            validate_bfs(&a, &[0], &r).unwrap();
        }
        // the target's level is the last one
        let target = (0..a.nrows()).find(|&v| lv[v] == 2).unwrap() as u32;
        let opts = BfsOptions {
            target: Some(target),
            ..Default::default()
        };
        let r = bfs(&g, &[0], p.as_ref(), &opts).unwrap();
        assert_eq!(r.levels[target as usize], 2);
        assert_eq!(r.max_depth, 2);
        assert!(!r.complete);
        assert!(r.levels.iter().all(|&l| l == u32::MAX || l <= 2));
        validate_bfs(&a, &[0], &r).unwrap();
    }
}

#[test]
fn bad_arguments_are_errors() {
    let a = random_graph(14, 10, 20, false);
    let g = BfsGraph::directed(&a);
    let o = BfsOptions::default();
    assert!(bfs(&g, &[], &Beamer::default(), &o).is_err());
    assert!(bfs(&g, &[10], &Beamer::default(), &o).is_err());
    let o = BfsOptions {
        target: Some(99),
        ..o
    };
    assert!(bfs(&g, &[0], &Beamer::default(), &o).is_err());
    let r = Csr::<()>::empty(3, 4);
    assert!(bfs(&BfsGraph::directed(&r), &[0], &Push, &BfsOptions::default()).is_err());
}

#[test]
fn the_validator_catches_broken_results() {
    let a = random_graph(15, 2000, 10_000, false);
    let g = BfsGraph::directed(&a);
    let good = bfs(&g, &[0], &Beamer::default(), &BfsOptions::default()).unwrap();
    validate_bfs(&a, &[0], &good).unwrap();
    let reached: Vec<usize> = (1..a.nrows())
        .filter(|&v| good.levels[v] != u32::MAX)
        .collect();
    let v = *reached.iter().find(|&&v| good.levels[v] >= 2).unwrap();

    let mut r = good.clone();
    r.levels[v] += 1;
    assert!(validate_bfs(&a, &[0], &r).is_err());

    let mut r = good.clone();
    r.parents[v] = u32::MAX;
    assert!(matches!(
        validate_bfs(&a, &[0], &r),
        Err(BfsViolation::Inconsistent { .. })
    ));

    // a parent without an arc
    let mut r = good.clone();
    let fake = (0..a.nrows() as u32)
        .find(|&u| a.get(u as usize, v).is_none() && good.levels[u as usize] == good.levels[v] - 1);
    if let Some(u) = fake {
        r.parents[v] = u;
        assert!(matches!(
            validate_bfs(&a, &[0], &r),
            Err(BfsViolation::MissingTreeArc { .. }) | Err(BfsViolation::NotSmallestParent { .. })
        ));
    }

    // dropping a reached vertex breaks closure
    let mut r = good.clone();
    let leaf = *reached.iter().max_by_key(|&&v| good.levels[v]).unwrap();
    r.levels[leaf] = u32::MAX;
    r.parents[leaf] = u32::MAX;
    r.reached -= 1;
    assert!(validate_bfs(&a, &[0], &r).is_err());

    // a larger parent than necessary
    let mut r = good.clone();
    let multi = (0..a.nrows()).find(|&w| {
        good.levels[w] != u32::MAX
            && good.levels[w] > 0
            && (0..a.nrows()).any(|u| {
                u as u32 > good.parents[w]
                    && good.levels[u] != u32::MAX
                    && good.levels[u] + 1 == good.levels[w]
                    && a.get(u, w).is_some()
            })
    });
    if let Some(w) = multi {
        let bigger = (0..a.nrows())
            .rev()
            .find(|&u| {
                good.levels[u] != u32::MAX
                    && good.levels[u] + 1 == good.levels[w]
                    && a.get(u, w).is_some()
            })
            .unwrap();
        r.parents[w] = bigger as u32;
        assert!(matches!(
            validate_bfs(&a, &[0], &r),
            Err(BfsViolation::NotSmallestParent { .. })
        ));
    }

    let mut r = good.clone();
    r.parents[0] = 1;
    assert!(matches!(
        validate_bfs(&a, &[0], &r),
        Err(BfsViolation::Source { .. })
    ));
}

#[test]
fn the_five_vertex_example() {
    // 1->2, 1->3, 2->4, 3->4, 4->5 (ids 1..5 as indices 0..4)
    let mut b = CooBuilder::new(5, 5);
    for (i, j) in [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)] {
        b.push(i, j, ()).unwrap();
    }
    let a = b.build(Duplicates::Error).unwrap();
    let g = BfsGraph::directed(&a);
    for p in policies() {
        let r = bfs(&g, &[0], p.as_ref(), &BfsOptions::default()).unwrap();
        assert_eq!(r.levels, vec![0, 1, 1, 2, 3]);
        assert_eq!(r.parents, vec![0, 0, 0, 1, 3]);
        assert_eq!((r.reached, r.max_depth, r.depth_sum()), (5, 3, 7));
    }
}

use crate::real_figures;

use real_figures::{FIGURES, undirected_edge_list};

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn reference_figures_of_the_real_graphs_under_every_policy() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/real");
    if !dir.is_dir() {
        eprintln!("SKIP: {} is absent", dir.display());
        return;
    }
    for &(file, id, reached, depth, sum) in FIGURES {
        let path = dir.join(file);
        if !path.exists() {
            eprintln!("SKIP: {} is absent", path.display());
            continue;
        }
        let opts = ReadOptions {
            undirected: undirected_edge_list(file),
            ..Default::default()
        };
        let gr = read_graph(&path, &opts).unwrap();
        let a = &gr.adjacency;
        let s = gr.internal(id).unwrap() as u32;
        let g = if gr.directed {
            BfsGraph::directed(a)
        } else {
            BfsGraph::symmetric(a)
        };
        let mut first: Option<BfsResult> = None;
        for p in policies() {
            for threads in [1, 2] {
                let r = pool(threads)
                    .install(|| bfs(&g, &[s], p.as_ref(), &BfsOptions::default()).unwrap());
                assert_eq!(
                    (r.reached, r.max_depth, r.depth_sum()),
                    (reached, depth, sum),
                    "{file} under {} at {threads} threads",
                    p.name()
                );
                match &first {
                    None => {
                        validate_bfs(a, &[s], &r).unwrap();
                        first = Some(r);
                    }
                    Some(f) => assert_eq!(f.parents, r.parents, "{file} {}", p.name()),
                }
            }
        }
    }
}
