//! `Graph`: every cached property against a brute-force count on random graphs (directed,
//! symmetric, with and without self-loops, empty), each computed once; and every
//! algorithm giving the same result whichever way the graph was declared.

use crate::random;

use edgeblas::algo::{self, PageRankOptions, Presort, TriangleMethod};
use edgeblas::graph::Graph;
use edgeblas::matrix::{CooBuilder, Csr, Duplicates};
use random::Rng;

/// A random n x n pattern: arcs with probability `p`, mirrored when `symmetric`.
fn random_graph(seed: u64, n: usize, p: f64, symmetric: bool, loops: bool) -> Csr<()> {
    let mut r = Rng::new(seed);
    let mut b = CooBuilder::new(n, n);
    for i in 0..n {
        for j in 0..n {
            if (i != j || loops) && (!symmetric || i <= j) && r.chance(p) {
                b.push(i, j, ()).unwrap();
                if symmetric && i != j {
                    b.push(j, i, ()).unwrap();
                }
            }
        }
    }
    b.build(Duplicates::Error).unwrap()
}

fn arcs(a: &Csr<()>) -> Vec<(usize, usize)> {
    (0..a.nrows())
        .flat_map(|i| a.row(i).0.iter().map(move |&j| (i, j as usize)))
        .collect()
}

#[test]
fn cached_properties_match_brute_force() {
    let mut seed = 0;
    for n in [0, 1, 2, 7, 40] {
        for p in [0.0, 0.1, 0.5, 1.0] {
            for symmetric in [false, true] {
                for loops in [false, true] {
                    seed += 1;
                    let a = random_graph(seed, n, p, symmetric, loops);
                    let arcs = arcs(&a);
                    let what = format!("seed {seed} n {n} p {p} sym {symmetric} loops {loops}");
                    let set: std::collections::HashSet<_> = arcs.iter().copied().collect();
                    let sym_want = arcs.iter().all(|&(i, j)| set.contains(&(j, i)));
                    let mut out = vec![0u64; n];
                    let mut inn = vec![0u64; n];
                    for &(i, j) in &arcs {
                        out[i] += 1;
                        inn[j] += 1;
                    }
                    let loops_want = arcs.iter().filter(|&&(i, j)| i == j).count();
                    for g in [Graph::new(&a), Graph::detect(&a)] {
                        assert_eq!(g.is_symmetric(), sym_want, "{what}");
                        assert_eq!(g.out_degrees(), &out[..], "{what}");
                        assert_eq!(g.in_degrees(), &inn[..], "{what}");
                        assert_eq!(g.self_loops(), loops_want, "{what}");
                        assert_eq!(g.in_edges(), &a.transpose(), "{what}");
                        // Computed once: the same memory on a second ask.
                        assert!(std::ptr::eq(g.in_edges(), g.in_edges()));
                        assert!(std::ptr::eq(g.out_degrees(), g.out_degrees()));
                    }
                    let d = Graph::directed(&a);
                    assert!(!d.is_symmetric(), "directed() is never checked");
                    assert_eq!(d.in_degrees(), &inn[..], "{what}");
                    assert!(Graph::symmetric(&a).is_symmetric());
                }
            }
        }
    }
}

#[test]
fn with_in_edges_checks_the_shape_and_arc_count() {
    let a = random_graph(3, 6, 0.4, false, false);
    let g = Graph::with_in_edges(&a, a.transpose()).unwrap();
    assert_eq!(g.in_edges(), &a.transpose());
    assert!(Graph::with_in_edges(&a, Csr::<()>::empty(5, 6)).is_err());
    let fewer = random_graph(4, 6, 0.0, false, false);
    if a.nnz() > 0 {
        let e = Graph::with_in_edges(&a, fewer).unwrap_err().to_string();
        assert!(e.contains("in-edges hold 0 arcs"), "{e}");
    }
}

/// However the graph is declared (checked, vouched for, or the symmetry left to be
/// found), every algorithm returns the same result on a symmetric graph; on a directed
/// one, `new` and `directed` agree.
#[test]
fn algorithms_agree_however_the_graph_is_declared() {
    for (seed, symmetric) in [(11, true), (12, false), (13, true), (14, false)] {
        let a = random_graph(seed, 60, 0.08, symmetric, false);
        let forms: Vec<Graph<'_, ()>> = if symmetric {
            vec![
                Graph::new(&a),
                Graph::detect(&a),
                Graph::symmetric(&a),
                Graph::directed(&a),
            ]
        } else {
            vec![Graph::new(&a), Graph::detect(&a), Graph::directed(&a)]
        };
        let opts = PageRankOptions::default();
        let first = &forms[0];
        let pr = algo::pagerank(first, &opts).unwrap().ranks;
        let wcc = algo::wcc(first).labels;
        let cdlp = algo::cdlp(first, 5);
        let lcc = algo::lcc(first);
        let bc = algo::betweenness(first, &[0, 7, 33]);
        for g in &forms[1..] {
            assert_eq!(algo::pagerank(g, &opts).unwrap().ranks, pr, "seed {seed}");
            assert_eq!(algo::wcc(g).labels, wcc, "seed {seed}");
            assert_eq!(algo::cdlp(g, 5), cdlp, "seed {seed}");
            let l = algo::lcc(g);
            assert!(
                l.iter().zip(&lcc).all(|(x, y)| (x - y).abs() < 1e-12),
                "seed {seed}"
            );
            let b = algo::betweenness(g, &[0, 7, 33]);
            assert!(
                b.iter().zip(&bc).all(|(x, y)| (x - y).abs() < 1e-9),
                "seed {seed}"
            );
        }
        if symmetric {
            let t = algo::triangle_count(first, TriangleMethod::Auto, Presort::Auto).triangles;
            for g in &forms[1..] {
                let u = algo::triangle_count(g, TriangleMethod::Burkhardt, Presort::None);
                assert_eq!(u.triangles, t, "seed {seed}");
            }
        }
    }
}
