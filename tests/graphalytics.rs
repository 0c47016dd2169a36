//! The LDBC Graphalytics BFS and SSSP conformance cases (../shared/data/graphalytics),
//! through the command line: each output file must equal the expected one (depths
//! exactly, distances within 1e-4). Skipped with "SKIP: ..." when the folder is absent.

use std::path::{Path, PathBuf};
use std::process::Command;

fn data() -> Option<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/graphalytics");
    if d.is_dir() {
        Some(d)
    } else {
        eprintln!("SKIP: {} is absent", d.display());
        None
    }
}

fn run(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_edgeblas"))
        .args(args)
        .output()
        .expect("run edgeblas");
    assert!(
        out.status.success(),
        "edgeblas {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `id value` lines; values compared as numbers (`Infinity` included) within `tol`.
fn assert_same(got: &Path, want: &Path, tol: f64) {
    let g = std::fs::read_to_string(got).unwrap();
    let w = std::fs::read_to_string(want).unwrap();
    let gl: Vec<&str> = g.lines().filter(|l| !l.trim().is_empty()).collect();
    let wl: Vec<&str> = w.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        gl.len(),
        wl.len(),
        "{} vs {}: line counts",
        got.display(),
        want.display()
    );
    for (a, b) in gl.iter().zip(&wl) {
        let (ga, wa): (Vec<&str>, Vec<&str>) = (
            a.split_whitespace().collect(),
            b.split_whitespace().collect(),
        );
        assert_eq!(ga.len(), 2, "{a}");
        assert_eq!(ga[0], wa[0], "ids differ: {a} vs {b}");
        if tol == 0.0 {
            assert_eq!(
                ga[1],
                wa[1],
                "{} vs {}: {a} vs {b}",
                got.display(),
                want.display()
            );
        } else {
            let (x, y): (f64, f64) = (ga[1].parse().unwrap(), wa[1].parse().unwrap());
            assert!(
                x == y || (x - y).abs() <= tol,
                "{} vs {}: {a} vs {b}",
                got.display(),
                want.display()
            );
        }
    }
}

const POLICIES: &[&str] = &["beamer", "gunrock", "ligra", "xbfs", "push", "pull"];

#[test]
fn bfs_cases() {
    let Some(d) = data() else { return };
    let tmp = tempfile::tempdir().unwrap();
    // (input, format, undirected, source, expected)
    let cases = [
        ("bfs-dir-input", false, "1", "bfs-dir-output"),
        ("bfs-undir-input", true, "1", "bfs-undir-output"),
        ("example-directed-input", false, "1", "example-directed-BFS"),
        (
            "example-undirected-input",
            true,
            "2",
            "example-undirected-BFS",
        ),
    ];
    for (input, undirected, source, expected) in cases {
        for policy in POLICIES {
            for threads in ["1", "2"] {
                let out = tmp.path().join(format!("{input}-{policy}-{threads}"));
                let inp = d.join(input);
                let mut args = vec![
                    "bfs",
                    inp.to_str().unwrap(),
                    "--format",
                    "adj",
                    "--source",
                    source,
                    "--policy",
                    policy,
                    "--threads",
                    threads,
                    "--validate",
                    "--levels",
                    out.to_str().unwrap(),
                ];
                if undirected {
                    args.push("--undirected");
                }
                run(&args);
                assert_same(&out, &d.join(expected), 0.0);
            }
        }
    }
}

#[test]
fn bfs_cases_from_the_weighted_edge_files() {
    let Some(d) = data() else { return };
    let tmp = tempfile::tempdir().unwrap();
    // The .e/.v form of the example graphs gives the same BFS answers.
    for (input, undirected, source, expected) in [
        ("example-directed.e", false, "1", "example-directed-BFS"),
        ("example-undirected.e", true, "2", "example-undirected-BFS"),
    ] {
        let out = tmp.path().join(input);
        let inp = d.join(input);
        let mut args = vec![
            "bfs",
            inp.to_str().unwrap(),
            "--source",
            source,
            "--levels",
            out.to_str().unwrap(),
        ];
        if undirected {
            args.push("--undirected");
        }
        run(&args);
        assert_same(&out, &d.join(expected), 0.0);
    }
}

#[test]
fn sssp_cases() {
    let Some(d) = data() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for (input, undirected, source, expected) in [
        ("sssp-dir-input.e", false, "1", "sssp-dir-output"),
        ("sssp-undir-input.e", true, "1", "sssp-undir-output"),
        ("example-directed.e", false, "1", "example-directed-SSSP"),
        ("example-undirected.e", true, "2", "example-undirected-SSSP"),
    ] {
        for threads in ["1", "2"] {
            let out = tmp.path().join(format!("{input}-{threads}"));
            let inp = d.join(input);
            let mut args = vec![
                "sssp",
                inp.to_str().unwrap(),
                "--source",
                source,
                "--threads",
                threads,
                "--distances",
                out.to_str().unwrap(),
            ];
            if undirected {
                args.push("--undirected");
            }
            run(&args);
            assert_same(&out, &d.join(expected), 1e-4);
        }
    }
}

#[test]
fn integer_distances_are_written_like_the_expected_files() {
    let Some(d) = data() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("d");
    let inp = d.join("sssp-dir-input.e");
    run(&[
        "sssp",
        inp.to_str().unwrap(),
        "--source",
        "1",
        "--distances",
        out.to_str().unwrap(),
    ]);
    let got = std::fs::read_to_string(&out).unwrap();
    let want = std::fs::read_to_string(d.join("sssp-dir-output")).unwrap();
    assert_eq!(got.trim_end(), want.trim_end());
}
