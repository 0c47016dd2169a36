//! The `edgeblas` binary end to end: `info`, `convert`, `bench load`, `demo`, and the
//! error contract (an `error: FILE:LINE: ...` message, a non-zero exit, never a panic).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    for cmd in [
        vec!["bfs", f, "--source", "0", "--json"],
        vec!["sssp", f, "--source", "0", "--json"],
        vec!["bench", "bfs", f, "--sources", "0,3", "--json"],
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
            ] {
                assert_eq!(c.get(key), g.get(key), "{cmd:?}: {key}");
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
