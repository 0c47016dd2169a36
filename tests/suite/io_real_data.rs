//! Every graph of the shared data directory loads with the counts its README gives, and
//! BFS / Dijkstra over what was loaded reproduce the README's and Graphalytics' reference
//! figures (an independent check that every arc landed where the file put it).
//!
//! The directory is `$EDGEBLAS_DATA`, or `../shared/data` beside the crate; when it is
//! absent the tests are ignored (build.rs sets `cfg(shared_data)` when it is there).
//! Nothing is copied into the repository.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::path::PathBuf;

use approx::relative_eq;
use edgeblas::io::{Format, Graph, ReadOptions, ValueType, read_graph};
use edgeblas::matrix::Csr;

fn data_dir(sub: &str) -> Option<PathBuf> {
    let root = std::env::var_os("EDGEBLAS_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")));
    let d = root.join(sub);
    if d.is_dir() {
        Some(d)
    } else {
        println!("SKIP: data directory {} not found", d.display());
        None
    }
}

/// Hop distances from `s` following out-arcs.
fn bfs(a: &Csr<()>, s: usize) -> Vec<Option<u64>> {
    let mut d = vec![None; a.nrows()];
    d[s] = Some(0);
    let mut q = VecDeque::from([s]);
    while let Some(u) = q.pop_front() {
        let du = d[u].unwrap();
        for &v in a.row(u).0 {
            if d[v as usize].is_none() {
                d[v as usize] = Some(du + 1);
                q.push_back(v as usize);
            }
        }
    }
    d
}

/// Shortest-path distances from `s` (weights are non-negative in these files).
fn dijkstra(a: &Csr<f64>, s: usize) -> Vec<f64> {
    let mut d = vec![f64::INFINITY; a.nrows()];
    d[s] = 0.0;
    let mut heap = BinaryHeap::from([Reverse((0u64, s))]);
    while let Some(Reverse((du, u))) = heap.pop() {
        let du = f64::from_bits(du);
        if du > d[u] {
            continue;
        }
        let (cols, w) = a.row(u);
        for (&v, &w) in cols.iter().zip(w) {
            let nd = du + w;
            if nd < d[v as usize] {
                d[v as usize] = nd;
                // Non-negative floats order like their bit patterns.
                heap.push(Reverse((nd.to_bits(), v as usize)));
            }
        }
    }
    d
}

struct Row {
    file: &'static str,
    directed: bool,
    n: usize,
    m: u64,
    loops: Option<usize>,
    /// BFS from this file id: reached, max depth, depth sum.
    bfs: (u64, u64, u64, u64),
}

const ROWS: &[Row] = &[
    Row {
        file: "email-Eu-core.txt",
        directed: true,
        n: 1005,
        m: 25571,
        loops: Some(642),
        bfs: (0, 965, 4, 2275),
    },
    Row {
        file: "wiki-Vote.txt",
        directed: true,
        n: 7115,
        m: 103689,
        loops: None,
        bfs: (30, 2316, 5, 6920),
    },
    Row {
        file: "ego-Facebook.txt",
        directed: false,
        n: 4039,
        m: 88234,
        loops: None,
        bfs: (0, 4039, 6, 11428),
    },
    Row {
        file: "p2p-Gnutella31.txt.gz",
        directed: true,
        n: 62586,
        m: 147892,
        loops: None,
        bfs: (0, 60826, 25, 514821),
    },
    Row {
        file: "cit-HepPh.txt.gz",
        directed: true,
        n: 34546,
        m: 421578,
        loops: None,
        bfs: (1, 20507, 29, 226202),
    },
    Row {
        file: "soc-Epinions1.txt.gz",
        directed: true,
        n: 75879,
        m: 508837,
        loops: None,
        bfs: (0, 47676, 9, 170249),
    },
    Row {
        file: "soc-Slashdot0902.txt.gz",
        directed: true,
        n: 82168,
        m: 948464,
        loops: Some(78303),
        bfs: (0, 82168, 8, 259462),
    },
    Row {
        file: "web-NotreDame.txt.gz",
        directed: true,
        n: 325729,
        m: 1497134,
        loops: Some(27455),
        bfs: (0, 325729, 49, 2787254),
    },
    Row {
        file: "Lederberg.mtx",
        directed: true,
        n: 8843,
        m: 41601,
        loops: None,
        bfs: (2, 7176, 10, 24259),
    },
    Row {
        file: "usroads.mtx.gz",
        directed: false,
        n: 129164,
        m: 165435,
        loops: None,
        bfs: (2, 303, 58, 10784),
    },
    Row {
        file: "luxembourg_osm.mtx.gz",
        directed: false,
        n: 114599,
        m: 119666,
        loops: None,
        bfs: (2, 114599, 1033, 43705056),
    },
    Row {
        file: "USA-road-NY-hops.mtx.gz",
        directed: false,
        n: 264346,
        m: 365050,
        loops: None,
        bfs: (1, 264346, 619, 90771609),
    },
    Row {
        file: "USA-road-FLA-hops.mtx.gz",
        directed: false,
        n: 1070376,
        m: 1343951,
        loops: None,
        bfs: (1, 1070376, 1920, 1206725808),
    },
    Row {
        file: "rome99.gr",
        directed: true,
        n: 3353,
        m: 8870,
        loops: None,
        bfs: (2958, 3353, 47, 89625),
    },
];

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn real_graphs_match_the_readme() {
    let Some(dir) = data_dir("real") else { return };
    for row in ROWS {
        let path = dir.join(row.file);
        let format = Format::from_path(&path).unwrap();
        // An undirected edge list (ego-Facebook) is read as undirected, as a user would.
        let opts = ReadOptions {
            format: None,
            undirected: !row.directed && format == Format::EdgeList,
            ..ReadOptions::default()
        };
        let g = read_graph(&path, &opts).unwrap_or_else(|e| panic!("{e}"));
        let f = row.file;
        assert_eq!(g.records, row.m, "{f}: records");
        assert_eq!(g.directed, row.directed, "{f}: directed");
        match format {
            // SNAP counts the vertices that have an arc; our n is max id + 1.
            Format::EdgeList => {
                assert_eq!(g.non_isolated(), row.n, "{f}: vertices with an arc");
                assert!(g.vertices() >= row.n, "{f}: n");
            }
            _ => assert_eq!(g.vertices(), row.n, "{f}: n"),
        }
        if let Some(loops) = row.loops {
            assert_eq!(g.self_loops(), loops, "{f}: self-loops");
        }
        if !row.directed {
            assert!(g.adjacency.is_symmetric(), "{f}: symmetric");
        }
        if format == Format::MatrixMarket && !row.directed {
            // Each stored edge gives two arcs (these road files have no self-loops).
            assert_eq!(g.arcs() as u64, 2 * row.m - g.duplicates * 2, "{f}: arcs");
        }
        let (src, reached, depth, sum) = row.bfs;
        let s = g
            .internal(src)
            .unwrap_or_else(|| panic!("{f}: source {src}"));
        let d = bfs(&g.adjacency, s);
        let got: Vec<u64> = d.iter().flatten().copied().collect();
        assert_eq!(
            (
                got.len() as u64,
                got.iter().max().copied().unwrap_or(0),
                got.iter().sum::<u64>()
            ),
            (reached, depth, sum),
            "{f}: BFS from {src} (reached, max depth, depth sum)"
        );
        println!(
            "{f}: n {} arcs {} records {} ok",
            g.vertices(),
            g.arcs(),
            g.records
        );
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn special_cases_of_the_real_graphs() {
    let Some(dir) = data_dir("real") else { return };
    let opts = ReadOptions::default();

    // rome99: integer weights, 11 parallel arcs of which the lighter counts.
    let g = read_graph(&dir.join("rome99.gr"), &opts).unwrap();
    assert_eq!((g.duplicates, g.arcs()), (11, 8859));
    assert_eq!(g.value_type, ValueType::Integer);
    let w = g.weighted_csr().unwrap();
    let d = dijkstra(&w, g.internal(2958).unwrap());
    let reached: Vec<f64> = d.iter().copied().filter(|x| x.is_finite()).collect();
    assert_eq!(reached.len(), 3353);
    assert_eq!(reached.iter().copied().fold(0.0, f64::max), 56957.0);
    assert_eq!(reached.iter().sum::<f64>(), 85758195.0);

    // Lederberg: a multigraph whose counts are integer values.
    let g = read_graph(&dir.join("Lederberg.mtx"), &opts).unwrap();
    assert_eq!(g.value_type, ValueType::Integer);
    assert_eq!(g.weights.as_ref().map(Vec::len), Some(41601));
    assert!(
        g.weights
            .as_ref()
            .unwrap()
            .iter()
            .all(|&x| x >= 1.0 && x.fract() == 0.0)
    );

    // wiki-Vote: ids up to 8297, so 8298 vertices of which 7115 have an arc.
    let g = read_graph(&dir.join("wiki-Vote.txt"), &opts).unwrap();
    assert_eq!(g.vertices(), 8298);

    // ego-Facebook read as directed: each edge once.
    let g = read_graph(&dir.join("ego-Facebook.txt"), &opts).unwrap();
    assert_eq!(g.arcs(), 88234);
    let u = g.into_undirected();
    assert_eq!(u.arcs(), 2 * 88234);
}

/// `vertex value` lines of a Graphalytics output file.
fn expected(path: &std::path::Path) -> HashMap<u64, String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut t = l.split_whitespace();
            (
                t.next().unwrap().parse().unwrap(),
                t.next().unwrap().to_string(),
            )
        })
        .collect()
}

fn check_bfs(g: &Graph, source: u64, want: &HashMap<u64, String>, what: &str) {
    let d = bfs(&g.adjacency, g.internal(source).unwrap());
    assert_eq!(g.vertices(), want.len(), "{what}: vertices");
    for (i, d) in d.iter().enumerate() {
        let got = d.map_or(i64::MAX.to_string(), |x| x.to_string());
        assert_eq!(
            &got,
            &want[&g.external(i)],
            "{what}: vertex {}",
            g.external(i)
        );
    }
}

fn check_sssp(g: &Graph, source: u64, want: &HashMap<u64, String>, what: &str) {
    let d = dijkstra(&g.weighted_csr().unwrap(), g.internal(source).unwrap());
    assert_eq!(g.vertices(), want.len(), "{what}: vertices");
    for (i, &d) in d.iter().enumerate() {
        let w = &want[&g.external(i)];
        if w == "Infinity" {
            assert!(
                d.is_infinite(),
                "{what}: vertex {} should be unreached",
                g.external(i)
            );
        } else {
            let w: f64 = w.parse().unwrap();
            assert!(
                relative_eq!(d, w, epsilon = 1e-4, max_relative = 1e-4),
                "{what}: vertex {}: {d} vs {w}",
                g.external(i)
            );
        }
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn graphalytics_validation_graphs() {
    let Some(dir) = data_dir("graphalytics") else {
        return;
    };
    let adj = |file: &str, undirected: bool| {
        let opts = ReadOptions {
            format: Some(Format::Adjacency),
            undirected,
            ..ReadOptions::default()
        };
        read_graph(&dir.join(file), &opts).unwrap_or_else(|e| panic!("{e}"))
    };
    let el = |file: &str, undirected: bool| {
        let opts = ReadOptions {
            format: None,
            undirected,
            ..ReadOptions::default()
        };
        read_graph(&dir.join(file), &opts).unwrap_or_else(|e| panic!("{e}"))
    };
    for (input, output, source, undirected) in [
        ("bfs-dir-input", "bfs-dir-output", 1, false),
        ("bfs-undir-input", "bfs-undir-output", 1, true),
        ("example-directed-input", "example-directed-BFS", 1, false),
        (
            "example-undirected-input",
            "example-undirected-BFS",
            2,
            true,
        ),
    ] {
        let g = adj(input, undirected);
        assert_eq!(g.directed, !undirected);
        check_bfs(&g, source, &expected(&dir.join(output)), input);
    }
    for (input, output, source, undirected) in [
        ("sssp-dir-input.e", "sssp-dir-output", 1, false),
        ("sssp-undir-input.e", "sssp-undir-output", 1, true),
        ("example-directed.e", "example-directed-SSSP", 1, false),
        ("example-undirected.e", "example-undirected-SSSP", 2, true),
    ] {
        let g = el(input, undirected);
        assert_eq!(g.value_type, ValueType::Real, "{input}");
        check_sssp(&g, source, &expected(&dir.join(output)), input);
    }
}
