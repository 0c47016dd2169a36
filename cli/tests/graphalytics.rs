//! The LDBC Graphalytics conformance cases (../shared/data/graphalytics), through the
//! command line: BFS and SSSP (depths exactly, distances within 1e-4), PageRank
//! (relative 1e-4), WCC (the same partition, and each label the smallest id of its
//! component), CDLP (labels exactly) and LCC (within 1e-6), at 1 and 2 threads, on the
//! validation graphs and the example graphs. Ignored when the folder is absent (cli's
//! build.rs sets `cfg(shared_data)` when it is there).

use std::path::{Path, PathBuf};
use std::process::Command;

use approx::{abs_diff_eq, relative_eq};

fn data() -> Option<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/graphalytics");
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
                x == y || abs_diff_eq!(x, y, epsilon = tol),
                "{} vs {}: {a} vs {b}",
                got.display(),
                want.display()
            );
        }
    }
}

const POLICIES: &[&str] = &["beamer", "gunrock", "ligra", "xbfs", "push", "pull"];

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
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
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
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
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
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
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
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

/// An output file's `id value` lines as a map from id to value text; the ids must not
/// repeat.
fn values(path: &Path) -> std::collections::BTreeMap<u64, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = std::collections::BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 2, "{}: {line:?}", path.display());
        let id: u64 = f[0].parse().unwrap();
        assert!(
            out.insert(id, f[1].to_string()).is_none(),
            "{}: id {id} twice",
            path.display()
        );
    }
    out
}

/// The got and wanted values of the same ids, parsed.
fn paired<T: std::str::FromStr>(got: &Path, want: &Path) -> Vec<(u64, T, T)>
where
    T::Err: std::fmt::Debug,
{
    let (g, w) = (values(got), values(want));
    assert_eq!(
        g.keys().collect::<Vec<_>>(),
        w.keys().collect::<Vec<_>>(),
        "{} vs {}: the vertex ids",
        got.display(),
        want.display()
    );
    g.into_iter()
        .zip(w)
        .map(|((id, x), (_, y))| (id, x.parse().unwrap(), y.parse().unwrap()))
        .collect()
}

/// Runs one analytics command on `input` (adjacency form) at 1 and 2 threads; `check`
/// gets each output file.
fn analytics_case(
    d: &Path,
    tmp: &Path,
    command: &[&str],
    out_flag: &str,
    input: &str,
    undirected: bool,
    check: &dyn Fn(&Path),
) {
    for threads in ["1", "2"] {
        let out = tmp.join(format!("{}-{input}-{threads}", command[0]));
        let inp = d.join(input);
        let mut args = vec![command[0], inp.to_str().unwrap(), "--format", "adj"];
        args.extend(&command[1..]);
        args.extend(["--threads", threads, out_flag, out.to_str().unwrap()]);
        if undirected {
            args.push("--undirected");
        }
        run(&args);
        check(&out);
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn pagerank_cases() {
    let Some(d) = data() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for (input, undirected, iterations, expected) in [
        ("pr-dir-input", false, "14", "pr-dir-output"),
        ("pr-undir-input", true, "26", "pr-undir-output"),
        ("example-directed-input", false, "2", "example-directed-PR"),
        (
            "example-undirected-input",
            true,
            "2",
            "example-undirected-PR",
        ),
    ] {
        let want = d.join(expected);
        analytics_case(
            &d,
            tmp.path(),
            &["pagerank", "--damping", "0.85", "--iterations", iterations],
            "--ranks",
            input,
            undirected,
            &|got| {
                for (id, x, y) in paired::<f64>(got, &want) {
                    assert!(
                        y > 0.0 && relative_eq!(x, y, max_relative = 1e-4),
                        "{input}: vertex {id}: got {x}, want {y}"
                    );
                }
            },
        );
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn wcc_cases() {
    let Some(d) = data() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for (input, undirected, expected) in [
        ("wcc-dir-input", false, "wcc-dir-output"),
        ("wcc-undir-input", true, "wcc-undir-output"),
        ("example-directed-input", false, "example-directed-WCC"),
        ("example-undirected-input", true, "example-undirected-WCC"),
    ] {
        let want = d.join(expected);
        analytics_case(
            &d,
            tmp.path(),
            &["wcc"],
            "--labels",
            input,
            undirected,
            &|got| {
                let pairs = paired::<u64>(got, &want);
                // The same partition: a one-to-one map between the two files' labels.
                let (mut ours, mut theirs) = (
                    std::collections::BTreeMap::new(),
                    std::collections::BTreeMap::new(),
                );
                for &(id, x, y) in &pairs {
                    assert_eq!(*ours.entry(x).or_insert(y), y, "{input}: vertex {id}");
                    assert_eq!(*theirs.entry(y).or_insert(x), x, "{input}: vertex {id}");
                }
                // Each of our labels is the smallest id of its component.
                let mut smallest = std::collections::BTreeMap::new();
                for &(id, x, _) in &pairs {
                    let s = smallest.entry(x).or_insert(id);
                    *s = (*s).min(id);
                }
                for (label, id) in smallest {
                    assert_eq!(label, id, "{input}: component labelled {label}");
                }
            },
        );
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn cdlp_cases() {
    let Some(d) = data() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for (input, undirected, iterations, expected) in [
        ("cdlp-dir-input", false, "5", "cdlp-dir-output"),
        ("cdlp-undir-input", true, "5", "cdlp-undir-output"),
        (
            "example-directed-input",
            false,
            "2",
            "example-directed-CDLP",
        ),
        (
            "example-undirected-input",
            true,
            "2",
            "example-undirected-CDLP",
        ),
    ] {
        let want = d.join(expected);
        analytics_case(
            &d,
            tmp.path(),
            &["cdlp", "--iterations", iterations],
            "--labels",
            input,
            undirected,
            &|got| {
                for (id, x, y) in paired::<u64>(got, &want) {
                    assert_eq!(x, y, "{input}: vertex {id}");
                }
            },
        );
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn lcc_cases() {
    let Some(d) = data() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for (input, undirected, expected) in [
        ("lcc-dir-input", false, "lcc-dir-output"),
        ("lcc-undir-input", true, "lcc-undir-output"),
        ("example-directed-input", false, "example-directed-LCC"),
        ("example-undirected-input", true, "example-undirected-LCC"),
    ] {
        let want = d.join(expected);
        analytics_case(
            &d,
            tmp.path(),
            &["lcc"],
            "--coefficients",
            input,
            undirected,
            &|got| {
                for (id, x, y) in paired::<f64>(got, &want) {
                    assert!(
                        abs_diff_eq!(x, y, epsilon = 1e-6),
                        "{input}: vertex {id}: got {x}, want {y}"
                    );
                }
            },
        );
    }
}
