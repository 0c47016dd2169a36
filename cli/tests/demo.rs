//! `edgeblas demo` end to end: the default demonstration (a Chung-Lu proxy of the
//! embedded web-NotreDame distribution, its report and plot, BFS and Bellman-Ford) on a
//! shrunken proxy in a temporary folder, and the R-MAT demonstration.

use std::process::{Command, Output};

fn run(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_edgeblas"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn read_json(p: &std::path::Path) -> serde_json::Value {
    let s = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&s).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn demo_writes_report_and_plot_and_checks_bfs_and_bellman_ford() {
    let d = tempfile::tempdir().unwrap();
    for (weights, out) in [("unit", "demo-out"), ("random", "weighted")] {
        let mut args = vec!["demo", "--scale", "0.1", "--weights", weights, "--quiet"];
        if out != "demo-out" {
            args.extend(["--out", out]);
        }
        let o = run(&args, d.path());
        let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
        assert!(o.status.success(), "{stdout}\n{stderr}");
        for want in [
            "web-NotreDame",
            "Leskovec",
            "K-L",
            "GTEPS",
            "validated",
            "Bellman-Ford",
        ] {
            assert!(stdout.contains(want), "{want:?} missing from:\n{stdout}");
        }
        let dir = d.path().join(out);
        let report = read_json(&dir.join("report.json"));
        let summary = read_json(&dir.join("summary.json"));
        let png = std::fs::read(dir.join("degrees.png")).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
        assert_eq!(report["vertices"], summary["vertices"]);
        assert_eq!(report["edges"], summary["edges"]);
        assert!(report["edges_z"].as_f64().unwrap().abs() < 6.0);
        // ceil(count / 10) over the 438 degrees: more than n / 10.
        let n = summary["vertices"].as_u64().unwrap();
        assert!((32_573..40_000).contains(&n), "n = {n}");
        let (b, bf) = (&summary["bfs"], &summary["bellman_ford"]);
        assert_eq!(b["validated"], true);
        assert_eq!(bf["checked"], true);
        assert_eq!(bf["weights"], weights);
        assert_eq!(b["reached"], bf["reached"]);
        assert!(b["reached"].as_u64().unwrap() > n / 2);
        if weights == "unit" {
            assert_eq!(
                bf["max_distance"].as_f64().unwrap(),
                b["depth"].as_f64().unwrap()
            );
        } else {
            assert!(bf["max_distance"].as_f64().unwrap() >= b["depth"].as_f64().unwrap());
        }
    }
}

#[test]
fn demo_rmat_keeps_the_file_round_trip() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&["demo", "rmat", "--scale", "10"], d.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("read it back equal"));
    assert!(text(&o.stdout).contains("parents identical under every policy"));
}

#[test]
fn demo_rejects_bad_options() {
    let d = tempfile::tempdir().unwrap();
    for (args, want) in [
        (&["demo", "--scale", "0"][..], "--scale"),
        (&["demo", "--scale", "1000"][..], "--scale"),
        // Too few vertices for the largest degree (10721).
        (&["demo", "--scale", "0.001"][..], "--scale"),
        (&["demo", "rmat", "--scale", "40"][..], "--scale"),
    ] {
        let o = run(args, d.path());
        let e = text(&o.stderr);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(
            e.starts_with("error: ") && e.contains(want),
            "{args:?}: {e}"
        );
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    }
    assert!(
        !d.path().join("demo-out").exists(),
        "a failed run wrote files"
    );
}
