//! The `edgeblas` binary end to end: `info`, `convert`, `bench load`, `demo`, the
//! analytics commands (`pagerank`, `wcc`, `cdlp`, `lcc`, `tc`, `bc`: their JSON on small
//! graphs of known structure, their parameter errors, empty graphs), and the error
//! contract (an `error: FILE:LINE: ...` message, a non-zero exit, never a panic).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use approx::{abs_diff_eq, assert_abs_diff_eq};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_edgeblas"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(dir: &Path, name: &str, body: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).expect("write test file");
    p
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "command failed: {}", stderr(o));
    serde_json::from_str(stdout(o).trim()).expect("one JSON object on stdout")
}

/// Asserts a failed run whose message starts with `error:` and contains `want`.
fn assert_error(o: &Output, want: &str) {
    let e = stderr(o);
    assert!(
        !o.status.success(),
        "expected failure, got success: {}",
        stdout(o)
    );
    assert!(
        e.starts_with("error: "),
        "message should start with 'error: ': {e}"
    );
    assert!(e.contains(want), "message {e:?} should contain {want:?}");
    assert!(!e.contains("panicked"), "panic on user input: {e}");
}

#[test]
fn info_json_counts_a_small_edge_list() {
    let d = tempfile::tempdir().unwrap();
    // 0->1 twice (a duplicate), 1->2, 2->2 (self-loop); CRLF, a comment, no final newline.
    let f = write(d.path(), "g.txt", b"# comment\r\n0 1\r\n1 2\r\n0 1\r\n2 2");
    let v = json(&run(&["info", f.to_str().unwrap(), "--json"]));
    assert_eq!(v["vertices"], 3);
    assert_eq!(v["records"], 4);
    assert_eq!(v["arcs"], 3);
    assert_eq!(v["duplicates"], 1);
    assert_eq!(v["self_loops"], 1);
    assert_eq!(v["directed"], true);
    assert_eq!(v["out_degree"]["max"], 1);

    let u = json(&run(&[
        "info",
        f.to_str().unwrap(),
        "--undirected",
        "--json",
    ]));
    assert_eq!(u["directed"], false);
    assert_eq!(u["arcs"], 5, "0-1 and 1-2 both ways, the loop once");
}

#[test]
fn info_plain_text_names_every_count() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        d.path(),
        "g.mtx",
        b"%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n",
    );
    let o = run(&["info", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    for key in [
        "vertices",
        "arcs",
        "records",
        "self_loops",
        "duplicates",
        "out_degree",
    ] {
        assert!(s.contains(key), "{key} missing from {s}");
    }
    let v = json(&run(&["info", f.to_str().unwrap(), "--json"]));
    assert_eq!(v["arcs"], 4);
    assert_eq!(v["records"], 2);
    assert_eq!(v["directed"], false);
}

#[test]
fn convert_round_trips_through_every_writable_format() {
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "g.txt", b"0 3\n3 1\n1 0\n2 3\n");
    let want = json(&run(&["info", src.to_str().unwrap(), "--json"]));
    for name in ["g.mtx", "g2.txt", "g.ebg", "g.mtx.gz"] {
        let out = d.path().join(name);
        let o = run(&["convert", src.to_str().unwrap(), out.to_str().unwrap()]);
        assert!(o.status.success(), "convert to {name}: {}", stderr(&o));
        let got = json(&run(&["info", out.to_str().unwrap(), "--json"]));
        for key in ["vertices", "arcs", "self_loops", "out_degree", "in_degree"] {
            assert_eq!(got[key], want[key], "{key} after converting to {name}");
        }
    }
}

#[test]
fn bench_load_reports_throughput() {
    let d = tempfile::tempdir().unwrap();
    let body: String = (0..2000)
        .map(|i| format!("{} {}\n", i, (i * 7 + 1) % 2000))
        .collect();
    let f = write(d.path(), "g.el", body.as_bytes());
    let v = json(&run(&[
        "bench",
        "load",
        f.to_str().unwrap(),
        "--reps",
        "3",
        "--json",
    ]));
    assert_eq!(v["arcs"], 2000);
    assert_eq!(v["bytes"], body.len());
    assert!(v["seconds_median"].as_f64().unwrap() > 0.0);
    assert!(v["mb_per_s"].as_f64().unwrap() > 0.0);
}

#[test]
fn demo_runs_on_built_in_defaults() {
    let o = run(&["demo", "rmat", "--scale", "10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("read it back equal"));
}

#[test]
fn bad_input_is_an_error_naming_file_and_line() {
    let d = tempfile::tempdir().unwrap();
    let cases: &[(&str, &[u8], &str)] = &[
        (
            "road.mtx",
            b"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n1 9\n",
            "road.mtx:4:",
        ),
        ("neg.txt", b"0 1\n-1 2\n", "neg.txt:2:"),
        ("frac.txt", b"0 1\n1.5 2\n", "frac.txt:2:"),
        ("big.txt", b"0 99999999999999999999\n", "big.txt:1:"),
        ("empty.mtx", b"", "empty.mtx"),
        (
            "array.mtx",
            b"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
            "array.mtx:1:",
        ),
        (
            "short.mtx",
            b"%%MatrixMarket matrix coordinate pattern general\n3 3 5\n1 2\n",
            "short.mtx",
        ),
        (
            "garbage.txt",
            &[0xff, 0xfe, 0x00, 0x13, 0x37, 0x80],
            "garbage.txt",
        ),
        (
            "broken.txt.gz",
            &[0x1f, 0x8b, 0x08, 0x00, 1, 2, 3],
            "broken.txt.gz",
        ),
        ("bad.gr", b"p sp 2 1\na 1 3 5\n", "bad.gr:2:"),
    ];
    for (name, body, want) in cases {
        let f = write(d.path(), name, body);
        assert_error(&run(&["info", f.to_str().unwrap()]), want);
    }
    let missing = d.path().join("missing.mtx");
    assert_error(&run(&["info", missing.to_str().unwrap()]), "missing.mtx");
}

#[test]
fn bad_parameters_are_errors() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "g.txt", b"0 1\n");
    assert_error(
        &run(&["info", f.to_str().unwrap(), "--format", "nonsense"]),
        "nonsense",
    );
    assert_error(
        &run(&["bench", "load", f.to_str().unwrap(), "--reps", "0"]),
        "--reps",
    );
    assert_error(&run(&["demo", "rmat", "--scale", "40"]), "--scale");
}

/// `--backend cuda` either runs on a GPU and agrees with the CPU, or (no GPU, no driver,
/// or a build without the `cuda` feature) fails with an error naming the flag.
#[test]
fn backend_cuda_agrees_with_the_cpu_or_says_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "g.el", b"0 1\n0 2\n1 3\n2 3\n3 4\n4 0\n5 6\n");
    let f = f.to_str().unwrap();
    // A 4-clique, a triangle hanging off it and a self-loop: triangles for tc.
    let t = write(
        dir.path(),
        "t.el",
        b"0 1\n0 2\n0 3\n1 2\n1 3\n2 3\n3 4\n4 5\n5 3\n5 5\n6 7\n",
    );
    let t = t.to_str().unwrap();
    for cmd in [
        vec!["tc", t, "--undirected", "--json"],
        vec!["tc", t, "--undirected", "--method", "sandia-uu", "--json"],
        vec!["tc", t, "--undirected", "--method", "burkhardt", "--json"],
        vec!["tc", t, "--undirected", "--presort", "descending", "--json"],
        vec!["bfs", f, "--source", "0", "--json"],
        vec!["sssp", f, "--source", "0", "--json"],
        vec!["bench", "bfs", f, "--sources", "0,3", "--json"],
        vec!["pagerank", f, "--iterations", "20", "--json"],
        vec!["pagerank", f, "--precision", "f32", "--json"],
        vec!["wcc", f, "--json"],
        vec!["wcc", t, "--undirected", "--json"],
        vec!["cdlp", f, "--json"],
        vec!["cdlp", t, "--undirected", "--iterations", "3", "--json"],
        vec![
            "sssp",
            f,
            "--source",
            "0",
            "--method",
            "bellman-ford",
            "--json",
        ],
        vec![
            "sssp",
            f,
            "--source",
            "2",
            "--method",
            "delta-stepping",
            "--json",
        ],
    ] {
        let cpu = run(&cmd);
        assert!(cpu.status.success(), "{cmd:?}: {}", stderr(&cpu));
        let mut gpu_cmd = cmd.clone();
        gpu_cmd.extend(["--backend", "cuda"]);
        let gpu = run(&gpu_cmd);
        if gpu.status.success() {
            let (c, g) = (json(&cpu), json(&gpu));
            for key in [
                "reached",
                "max_depth",
                "depth_sum",
                "max_distance",
                "distance_sum",
                "iterations",
                "triangles",
                "method",
                "presort",
                "components",
                "largest",
                "communities",
            ] {
                assert_eq!(c.get(key), g.get(key), "{cmd:?}: {key}");
            }
            if let (Some(cs), Some(gs)) = (c["sum"].as_f64(), g["sum"].as_f64()) {
                assert!((cs - gs).abs() < 1e-5, "{cmd:?}: rank sum {cs} vs {gs}");
            }
            assert_eq!(g["backend"], "cuda");
        } else {
            assert_error(&gpu, "--backend cuda:");
        }
    }
    assert!(
        !run(&["bfs", f, "--source", "0", "--backend", "tpu"])
            .status
            .success()
    );
    // The tc graph has triangles (4 in the clique, 1 beside it), so agreeing means something.
    assert_eq!(
        json(&run(&["tc", t, "--undirected", "--json"]))["triangles"],
        5
    );
    assert_error(
        &run(&["tc", t, "--undirected", "--backend", "mpi"]),
        "--backend mpi: tc runs on cpu or cuda",
    );
    assert_error(
        &run(&["cdlp", t, "--backend", "mpi"]),
        "--backend mpi: cdlp runs on cpu or cuda",
    );
}

/// `generate chung-lu --backend cuda` writes the CPU's graph on a GPU, or says why it
/// cannot; `--schedule` without `--backend cuda` is an error.
#[test]
fn chung_lu_backend_cuda_matches_the_cpu_or_says_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let cpu_out = dir.path().join("cpu.el");
    let gpu_out = dir.path().join("gpu.el");
    let base = [
        "generate",
        "chung-lu",
        "--power-law",
        "n=3000,gamma=2.1,dmin=2",
        "--seed",
        "4",
    ];
    let mut c: Vec<&str> = base.to_vec();
    c.extend(["-o", cpu_out.to_str().unwrap()]);
    assert!(run(&c).status.success());
    for s in ["uniform", "balanced", "dynamic"] {
        let mut g: Vec<&str> = base.to_vec();
        g.extend([
            "-o",
            gpu_out.to_str().unwrap(),
            "--backend",
            "cuda",
            "--schedule",
            s,
        ]);
        let o = run(&g);
        if o.status.success() {
            assert_eq!(
                std::fs::read(&cpu_out).unwrap(),
                std::fs::read(&gpu_out).unwrap(),
                "schedule {s}"
            );
        } else {
            assert_error(&o, "--backend cuda:");
        }
    }
    let mut bad: Vec<&str> = base.to_vec();
    bad.extend(["-o", cpu_out.to_str().unwrap(), "--schedule", "dynamic"]);
    assert_error(&run(&bad), "--schedule applies to --backend cuda");
}

#[test]
fn bench_mxm_reports_nvals_and_sum_of_each_product() {
    let d = tempfile::tempdir().unwrap();
    // K4, both arcs of every edge: 4 triangles. tc: C<L> = L L' has C(2,1) = 1,
    // C(3,1) = 1, C(3,2) = 2 (k below j only). A A over PLUS.PAIR counts the paths of
    // length 2: 3 on the diagonal, 2 elsewhere.
    let mut body = String::new();
    for i in 0..4 {
        for j in 0..4 {
            if i != j {
                body.push_str(&format!("{i} {j}\n"));
            }
        }
    }
    let f = write(d.path(), "k4.txt", body.as_bytes());
    let f = f.to_str().unwrap();
    for (op, nvals, sum) in [("tc", 3, 4), ("square", 16, 36), ("masked-square", 12, 24)] {
        for method in ["auto", "saxpy", "dot"] {
            let v = json(&run(&[
                "bench",
                "mxm",
                f,
                "--op",
                op,
                "--method",
                method,
                "--runs",
                "2",
                "--threads",
                "1",
                "--json",
            ]));
            assert_eq!(v["op"], op);
            assert_eq!(v["nvals"], nvals, "{op} {method}");
            assert_eq!(v["sum"], sum, "{op} {method}");
            assert_eq!(v["seconds"].as_array().map(|s| s.len()), Some(2));
            assert!(v["seconds_median"].as_f64().is_some_and(|s| s >= 0.0));
        }
    }
    // Triangle counting needs an undirected graph.
    let g = write(d.path(), "path.txt", b"0 1\n1 2\n");
    assert_error(
        &run(&["bench", "mxm", g.to_str().unwrap(), "--op", "tc"]),
        "path.txt",
    );
}

/// `n` vertices with every edge of `edges` written both ways, as an edge list.
fn undirected_edge_list(edges: &[(usize, usize)]) -> String {
    edges
        .iter()
        .flat_map(|&(u, v)| [format!("{u} {v}\n"), format!("{v} {u}\n")])
        .collect()
}

/// The edges of K4 on the vertices `0..4`.
const K4: &[(usize, usize)] = &[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
/// Two triangles, 0-1-2 and 3-4-5.
const TWO_TRIANGLES: &[(usize, usize)] = &[(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)];

/// Asserts `v` has every key in `keys`, and a non-negative `seconds`.
fn assert_keys(v: &serde_json::Value, keys: &[&str], what: &str) {
    for key in keys {
        assert!(v.get(key).is_some(), "{what}: no {key:?} in {v}");
    }
    assert!(
        v["seconds"].as_f64().is_some_and(|s| s >= 0.0),
        "{what}: seconds {}",
        v["seconds"]
    );
}

#[test]
fn analytics_json_reports_each_command_s_result() {
    let d = tempfile::tempdir().unwrap();
    let k4 = write(d.path(), "k4.txt", undirected_edge_list(K4).as_bytes());
    let tri = write(
        d.path(),
        "tri.txt",
        undirected_edge_list(TWO_TRIANGLES).as_bytes(),
    );
    // A directed graph with a dangling vertex: 0 -> 1 -> 2, 0 -> 2, 3 -> 0. LCC: N(0) =
    // {1, 2, 3} holds the arc 1 -> 2 (1/6), N(1) = {0, 2} and N(2) = {0, 1} one arc each
    // (1/2), N(3) = {0} (0).
    let dir = write(d.path(), "dir.txt", b"0 1\n1 2\n0 2\n3 0\n");
    let (k4, tri, dir) = (
        k4.to_str().unwrap(),
        tri.to_str().unwrap(),
        dir.to_str().unwrap(),
    );

    for (f, iterations) in [(k4, "3"), (tri, "7"), (dir, "20")] {
        let v = json(&run(&["pagerank", f, "--iterations", iterations, "--json"]));
        assert_keys(&v, &["iterations", "seconds", "sum"], "pagerank");
        assert_eq!(v["iterations"].to_string(), iterations, "{f}");
        let sum = v["sum"].as_f64().unwrap();
        assert!(
            abs_diff_eq!(sum, 1.0, epsilon = 1e-9),
            "{f}: rank sum {sum}"
        );
    }
    // In f32: the same count, the sum within f32 rounding, the precision reported.
    let v = json(&run(&[
        "pagerank",
        dir,
        "--iterations",
        "20",
        "--precision",
        "f32",
        "--json",
    ]));
    assert_eq!(v["precision"], "f32");
    assert_eq!(v["iterations"], 20);
    assert_abs_diff_eq!(v["sum"].as_f64().unwrap(), 1.0, epsilon = 1e-5);
    // Under a tolerance: it stops, and the ranks still sum to 1.
    let v = json(&run(&["pagerank", dir, "--tolerance", "1e-8", "--json"]));
    let it = v["iterations"].as_u64().unwrap();
    assert!((1..1000).contains(&it), "{it} iterations");
    assert_eq!(v["converged"], true);
    assert_abs_diff_eq!(v["sum"].as_f64().unwrap(), 1.0, epsilon = 1e-9);

    let v = json(&run(&["wcc", tri, "--json"]));
    assert_keys(&v, &["components", "largest", "seconds"], "wcc");
    assert_eq!(
        (v["components"].as_u64(), v["largest"].as_u64()),
        (Some(2), Some(3))
    );
    let v = json(&run(&["wcc", dir, "--json"]));
    assert_eq!(
        (v["components"].as_u64(), v["largest"].as_u64()),
        (Some(1), Some(4))
    );
    // Both methods, named or by default, agree; the JSON says which ran.
    assert_eq!(v["method"], "afforest");
    let labels = |method: &str| {
        let out = d.path().join(format!("{method}.labels"));
        let o = out.to_str().unwrap();
        let v = json(&run(&[
            "wcc", tri, "--method", method, "--labels", o, "--json",
        ]));
        assert_eq!(v["method"], method);
        assert_eq!(
            (v["components"].as_u64(), v["largest"].as_u64()),
            (Some(2), Some(3))
        );
        std::fs::read_to_string(&out).unwrap()
    };
    assert_eq!(labels("afforest"), labels("fastsv"));

    // Each triangle settles on its smallest vertex after two rounds (round one leaves
    // 1, 0, 0 in the first): 2 communities; after one round 4.
    for (iterations, communities) in [("1", 4), ("2", 2), ("5", 2)] {
        let v = json(&run(&["cdlp", tri, "--iterations", iterations, "--json"]));
        assert_keys(&v, &["iterations", "communities", "seconds"], "cdlp");
        assert_eq!(v["iterations"].to_string(), iterations);
        assert_eq!(v["communities"], communities, "{iterations} iterations");
    }

    for (f, mean) in [(k4, 1.0), (tri, 1.0), (dir, (1.0 / 6.0 + 0.5 + 0.5) / 4.0)] {
        let v = json(&run(&["lcc", f, "--json"]));
        assert_keys(&v, &["mean", "seconds"], "lcc");
        let got = v["mean"].as_f64().unwrap();
        assert!(
            abs_diff_eq!(got, mean, epsilon = 1e-12),
            "{f}: mean {got}, want {mean}"
        );
    }

    for (f, triangles) in [(k4, 4), (tri, 2)] {
        for method in ["auto", "sandia-ll", "sandia-uu", "burkhardt"] {
            for presort in ["auto", "none", "ascending", "descending"] {
                let v = json(&run(&[
                    "tc",
                    f,
                    "--method",
                    method,
                    "--presort",
                    presort,
                    "--json",
                ]));
                assert_keys(&v, &["triangles", "seconds", "method", "presort"], "tc");
                let what = format!("{f} {method} {presort}");
                assert_eq!(v["triangles"], triangles, "{what}");
                let ran = v["method"].as_str().unwrap();
                let want_method = if method == "auto" {
                    "sandia-ll"
                } else {
                    method
                };
                assert_eq!(ran, want_method, "{what}");
                let p = v["presort"].as_str().unwrap();
                assert!(
                    ["none", "ascending", "descending"].contains(&p),
                    "{what}: {p}"
                );
                if method == "burkhardt" {
                    assert_eq!(p, "none", "{what}");
                } else if presort != "auto" {
                    assert_eq!(p, presort, "{what}");
                }
            }
        }
    }
    // A directed file whose arcs all have their reverse needs no --undirected.
    let v = json(&run(&["tc", k4, "--json"]));
    assert_eq!(v["symmetric"], true);

    // The path 0 - 1 - 2: from every source, 1 is on the 0 <-> 2 paths; the repeated
    // source counts twice.
    let path = write(d.path(), "path.txt", b"0 1\n1 2\n");
    let path = path.to_str().unwrap();
    let o = d.path().join("bc.out");
    let v = json(&run(&[
        "bc",
        path,
        "--undirected",
        "--sources",
        "0,1,2,0",
        "--centrality",
        o.to_str().unwrap(),
        "--json",
    ]));
    assert_keys(&v, &["seconds", "sources"], "bc");
    assert_eq!(v["sources"], serde_json::json!([0, 1, 2, 0]));
    assert_eq!(v["sum"].as_f64(), Some(3.0));
    assert_eq!(
        std::fs::read_to_string(&o).unwrap(),
        "0 0.0\n1 3.0\n2 0.0\n"
    );
}

#[test]
fn analytics_bad_parameters_are_errors_naming_the_flag() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "g.txt", b"0 1\n1 2\n2 0\n");
    let f = f.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["pagerank", f, "--iterations", "0"], "--iterations"),
        (&["pagerank", f, "--precision", "f16"], "--precision"),
        (&["pagerank", f, "--damping", "-0.5"], "--damping"),
        (&["pagerank", f, "--damping", "1.5"], "--damping"),
        (&["pagerank", f, "--tolerance", "-1"], "--tolerance"),
        (&["pagerank", f, "--tolerance", "0"], "--tolerance"),
        (&["pagerank", f, "--tolerance", "NaN"], "--tolerance"),
        (&["pagerank", f, "--tolerance", "inf"], "--tolerance"),
        (&["pagerank", f, "--damping", "nan"], "--damping"),
        (&["pagerank", f, "--damping", "abc"], "--damping"),
        (
            &["pagerank", f, "--iterations", "3", "--tolerance", "0.1"],
            "--tolerance",
        ),
        (
            &["pagerank", f, "--max-iterations", "0"],
            "--max-iterations",
        ),
        (&["cdlp", f, "--iterations", "0"], "--iterations"),
        (&["bc", f, "--sources", "7"], "--sources"),
        (&["bc", f, "--sources", "0,x"], "--sources"),
        (&["bc", f, "--sources", "random:9"], "--sources"),
        (&["bc", f, "--sources", "random:0"], "--sources"),
        (&["bc", f, "--sources", ""], "--sources"),
        (&["tc", f], "--undirected"),
        (&["tc", f, "--undirected", "--method", "fast"], "--method"),
        (
            &["tc", f, "--undirected", "--presort", "sideways"],
            "--presort",
        ),
        (&["wcc", f, "--threads", "0"], "--threads"),
        (&["wcc", f, "--method", "union-find"], "--method union-find"),
        (
            &["wcc", f, "--method", "afforest", "--backend", "cuda"],
            "--method afforest",
        ),
        (&["lcc", f, "--format", "nonsense"], "nonsense"),
    ];
    for (args, want) in cases {
        let o = run(args);
        assert_error(&o, want);
        assert!(stdout(&o).is_empty(), "{args:?} printed {}", stdout(&o));
    }
    // The message of tc on a directed file says what to do.
    assert_error(&run(&["tc", f]), "pass --undirected");
}

#[test]
fn analytics_on_an_empty_graph_are_defined_or_clear_errors() {
    let d = tempfile::tempdir().unwrap();
    let empty = write(
        d.path(),
        "empty.mtx",
        b"%%MatrixMarket matrix coordinate pattern general\n0 0 0\n",
    );
    let empty = empty.to_str().unwrap();
    let info = json(&run(&["info", empty, "--json"]));
    assert_eq!(info["vertices"], 0);
    let v = json(&run(&["pagerank", empty, "--iterations", "3", "--json"]));
    assert_eq!(
        (v["iterations"].as_u64(), v["sum"].as_f64()),
        (Some(0), Some(0.0))
    );
    let v = json(&run(&["pagerank", empty, "--json"]));
    assert_eq!(v["sum"].as_f64(), Some(0.0));
    let v = json(&run(&["wcc", empty, "--json"]));
    assert_eq!(
        (v["components"].as_u64(), v["largest"].as_u64()),
        (Some(0), Some(0))
    );
    let v = json(&run(&["cdlp", empty, "--iterations", "2", "--json"]));
    assert_eq!(v["communities"], 0);
    let v = json(&run(&["lcc", empty, "--json"]));
    assert_eq!(v["mean"].as_f64(), Some(0.0));
    let v = json(&run(&["tc", empty, "--json"]));
    assert_eq!(v["triangles"], 0);
    // No vertex to name as a source (Matrix Market ids start at 1).
    assert_error(&run(&["bc", empty, "--sources", "1"]), "--sources");
    assert_error(&run(&["bc", empty, "--sources", "random:1"]), "--sources");
    // An empty edge list or adjacency file is an error naming the file, for every command.
    for name in ["nothing.txt", "nothing.adj"] {
        let f = write(d.path(), name, b"");
        let f = f.to_str().unwrap();
        for cmd in [
            &["pagerank", f][..],
            &["wcc", f],
            &["cdlp", f],
            &["lcc", f],
            &["tc", f, "--undirected"],
            &["bc", f, "--sources", "0"],
        ] {
            assert_error(&run(cmd), name);
        }
    }
    // Vertices but no arcs: every vertex alone.
    let lonely = write(
        d.path(),
        "lonely.mtx",
        b"%%MatrixMarket matrix coordinate pattern general\n4 4 0\n",
    );
    let lonely = lonely.to_str().unwrap();
    let v = json(&run(&["pagerank", lonely, "--iterations", "2", "--json"]));
    assert!((v["sum"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    let v = json(&run(&["wcc", lonely, "--json"]));
    assert_eq!(
        (v["components"].as_u64(), v["largest"].as_u64()),
        (Some(4), Some(1))
    );
    let v = json(&run(&["cdlp", lonely, "--iterations", "2", "--json"]));
    assert_eq!(v["communities"], 4);
    let v = json(&run(&["tc", lonely, "--json"]));
    assert_eq!(v["triangles"], 0);
    let v = json(&run(&["bc", lonely, "--sources", "1,4", "--json"]));
    assert_eq!(v["sum"].as_f64(), Some(0.0));
    assert_eq!(v["sources"], serde_json::json!([1, 4]));
    assert_error(&run(&["bc", lonely, "--sources", "0"]), "--sources");
}

/// On a graph without vertices the rank sum prints as `0.0`, not `-0.0` (an empty `f64`
/// sum in Rust is negative zero).
#[test]
fn pagerank_sum_of_an_empty_graph_prints_as_zero() {
    let d = tempfile::tempdir().unwrap();
    let empty = write(
        d.path(),
        "empty.mtx",
        b"%%MatrixMarket matrix coordinate pattern general\n0 0 0\n",
    );
    let o = run(&["pagerank", empty.to_str().unwrap(), "--json"]);
    let text = stdout(&o);
    assert!(text.contains("\"sum\":0.0"), "{text}");
}

/// `sssp --method`: auto takes delta-stepping on non-negative weights and Bellman-Ford
/// on a negative one; both give the same distances; the JSON names the method and delta;
/// predecessors follow the smallest-id rule; bad flags are errors naming them.
#[test]
fn sssp_methods_agree_and_bad_flags_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    // 1 -> 2 (3), 1 -> 3 (1), 3 -> 2 (2), 2 -> 4 (0), 3 -> 4 (3); vertex 5 unreached
    let pos = write(
        dir.path(),
        "pos.mtx",
        b"%%MatrixMarket matrix coordinate real general\n5 5 5\n1 2 3\n1 3 1\n3 2 2\n2 4 0\n3 4 3\n",
    );
    let neg = write(
        dir.path(),
        "neg.mtx",
        b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 4\n2 3 -2\n",
    );
    let (pos, neg) = (pos.to_str().unwrap(), neg.to_str().unwrap());
    let auto = json(&run(&["sssp", pos, "--source", "1", "--json"]));
    assert_eq!(auto["method"], "delta-stepping");
    assert!(auto["delta"].as_f64().unwrap() > 0.0);
    assert_eq!(auto["distance_sum"], 0.0 + 3.0 + 1.0 + 3.0);
    assert_eq!(auto["reached"], 4);
    let bf = json(&run(&[
        "sssp",
        pos,
        "--source",
        "1",
        "--method",
        "bellman-ford",
        "--json",
    ]));
    assert_eq!(bf["method"], "bellman-ford");
    assert!(bf["delta"].is_null());
    assert_eq!(bf["distance_sum"], auto["distance_sum"]);
    let ds = json(&run(&[
        "sssp",
        pos,
        "--source",
        "1",
        "--method",
        "delta-stepping",
        "--delta",
        "0.5",
        "--json",
    ]));
    assert_eq!(ds["delta"], 0.5);
    assert_eq!(ds["distance_sum"], auto["distance_sum"]);
    // predecessors: 2 has d(1) + 3 = d(3) + 2 = 3, two tight arcs, so the smaller, 1;
    // 4 has d(2) + 0 = 3 < d(3) + 3, so 2
    for method in ["delta-stepping", "bellman-ford"] {
        let p = dir.path().join(format!("pred-{method}.txt"));
        let o = run(&[
            "sssp",
            pos,
            "--source",
            "1",
            "--method",
            method,
            "--predecessors",
            p.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(text, "1 -1\n2 1\n3 1\n4 2\n5 -1\n", "{method}");
    }
    let n = json(&run(&["sssp", neg, "--source", "1", "--json"]));
    assert_eq!(n["method"], "bellman-ford");
    assert_eq!(n["distance_sum"], 0.0 + 4.0 + 2.0);
    assert_error(
        &run(&["sssp", neg, "--source", "1", "--method", "delta-stepping"]),
        "negative weight",
    );
    for d in ["0", "-1", "nan", "inf"] {
        assert_error(
            &run(&["sssp", pos, "--source", "1", "--delta", d]),
            "--delta",
        );
    }
}

/// `generate chung-lu --out-degrees FILE --in-degrees FILE`: two files of one degree per
/// vertex (a sequence, or a histogram listing its vertices in ascending degree) give the
/// same graph as one `out in` file with those pairs; bad values are named by file and
/// line, different lengths and already-directed files are refused, and one flag alone is
/// an error.
#[test]
fn chung_lu_out_and_in_degree_files() {
    let dir = tempfile::tempdir().unwrap();
    let n = 2000usize;
    let out: Vec<u64> = (0..n as u64).map(|i| 1 + (i * 7) % 23).collect();
    let hist = [(1u64, 1000u64), (3, 600), (9, 300), (40, 100)];
    let inn: Vec<u64> = hist
        .iter()
        .flat_map(|&(d, c)| std::iter::repeat_n(d, c as usize))
        .collect();
    let seq = |v: &[u64]| v.iter().map(|d| format!("{d}\n")).collect::<String>();
    let out_f = write(dir.path(), "out.txt", seq(&out).as_bytes());
    let mut h = String::from("degree,count\n");
    for (d, c) in hist {
        h += &format!("{d},{c}\n");
    }
    let in_f = write(dir.path(), "in.csv", h.as_bytes());
    let pairs: String = out
        .iter()
        .zip(&inn)
        .map(|(o, i)| format!("{o} {i}\n"))
        .collect();
    let pair_f = write(dir.path(), "pairs.txt", pairs.as_bytes());
    let (a, b) = (dir.path().join("a.el"), dir.path().join("b.el"));
    let gen_args = |extra: &[&str], o: &Path| -> Output {
        let mut c = vec!["generate", "chung-lu", "--seed", "3", "--quiet"];
        c.extend_from_slice(extra);
        c.extend(["-o", o.to_str().unwrap()]);
        run(&c)
    };
    let o = gen_args(
        &[
            "--out-degrees",
            out_f.to_str().unwrap(),
            "--in-degrees",
            in_f.to_str().unwrap(),
        ],
        &a,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = gen_args(&["--directed", "--degrees", pair_f.to_str().unwrap()], &b);
    assert!(o.status.success(), "{}", stderr(&o));
    let ga = std::fs::read(&a).unwrap();
    assert!(ga.len() > 1000, "a graph with arcs");
    assert_eq!(
        ga,
        std::fs::read(&b).unwrap(),
        "two files = one file of pairs"
    );

    // A bad value, named by file and line.
    let bad = write(dir.path(), "bad.txt", b"1\n2\nx\n");
    let o = gen_args(
        &[
            "--out-degrees",
            out_f.to_str().unwrap(),
            "--in-degrees",
            bad.to_str().unwrap(),
        ],
        &a,
    );
    assert_error(&o, "bad.txt:3: 'x' is not a non-negative integer");
    // Different lengths.
    let short = write(dir.path(), "short.txt", seq(&out[..1500]).as_bytes());
    let o = gen_args(
        &[
            "--out-degrees",
            short.to_str().unwrap(),
            "--in-degrees",
            in_f.to_str().unwrap(),
        ],
        &a,
    );
    assert_error(&o, "has 1500 vertices but");
    // An already directed file.
    let o = gen_args(
        &[
            "--out-degrees",
            pair_f.to_str().unwrap(),
            "--in-degrees",
            in_f.to_str().unwrap(),
        ],
        &a,
    );
    assert_error(&o, "pairs.txt");
    assert_error(&o, "out- and in-degrees together");
    // One flag alone, or with --degrees.
    assert_error(
        &gen_args(&["--out-degrees", out_f.to_str().unwrap()], &a),
        "--in-degrees",
    );
    let o = gen_args(
        &[
            "--degrees",
            pair_f.to_str().unwrap(),
            "--out-degrees",
            out_f.to_str().unwrap(),
            "--in-degrees",
            in_f.to_str().unwrap(),
        ],
        &a,
    );
    assert_error(&o, "cannot be used with");
}

/// Without the `mpi` feature, `--backend mpi` says how to get it; commands without a
/// distributed form say which have one.
#[test]
fn backend_mpi_explains_itself() {
    let dir = tempfile::tempdir().unwrap();
    let g = write(dir.path(), "g.txt", b"0 1\n1 2\n");
    let gs = g.to_str().unwrap();
    if !cfg!(feature = "mpi") {
        assert_error(
            &run(&["bfs", gs, "--source", "0", "--backend", "mpi"]),
            "build it with `cargo build --release --features mpi`",
        );
        assert_error(
            &run(&[
                "generate",
                "chung-lu",
                "--power-law",
                "n=100,gamma=2,dmin=1",
                "--backend",
                "mpi",
                "-o",
                "/dev/null",
            ]),
            "--features mpi",
        );
        for args in [
            &["pagerank", gs, "--backend", "mpi"][..],
            &["sssp", gs, "--source", "0", "--backend", "mpi"],
        ] {
            assert_error(
                &run(args),
                "build it with `cargo build --release --features mpi`",
            );
        }
    }
    assert_error(
        &run(&["bench", "bfs", gs, "--sources", "0", "--backend", "mpi"]),
        "bench bfs (time `bfs --backend mpi` instead) runs on cpu or cuda",
    );
}

/// `convert IN DIR --parts P` writes a directory of parts that reads back as the graph;
/// bad values of the flag are errors naming it.
#[test]
fn convert_parts_round_trip_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let g = write(dir.path(), "g.el", b"1 2\n2 3\n3 1\n4 1\n5 5\n");
    let d = dir.path().join("parts");
    let o = run(&[
        "convert",
        g.to_str().unwrap(),
        d.to_str().unwrap(),
        "--parts",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (a, b) = (dir.path().join("a.ebg"), dir.path().join("b.ebg"));
    for (from, to) in [(&g, &a), (&d, &b)] {
        let o = run(&["convert", from.to_str().unwrap(), to.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let (gs, ds) = (g.to_str().unwrap(), d.to_str().unwrap());
    assert_error(&run(&["convert", gs, ds, "--parts", "0"]), "--parts 0");
    assert_error(&run(&["convert", gs, ds, "--parts", "7"]), "--parts 7");
    assert_error(
        &run(&["convert", gs, ds, "--parts", "2", "--to", "mtx"]),
        "--to mtx",
    );
    assert_error(
        &run(&["convert", gs, a.to_str().unwrap(), "--parts", "2"]),
        "is a file",
    );
    // A part alone is not a graph file.
    let p0 = d.join("part-00000.ebg");
    assert_error(&run(&["info", p0.to_str().unwrap()]), "read its directory");
}
