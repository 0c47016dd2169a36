//! `edgeblas generate chung-lu` and `bench chung-lu` from the shell.

/// The command line: `generate chung-lu` writes a graph, a report and a plot; errors name
/// the file and line or the flag and exit non-zero; `bench chung-lu --json` prints one
/// object with `edges` and `seconds_median`.
#[test]
fn command_line() {
    use std::process::Command;
    let exe = env!("CARGO_BIN_EXE_edgeblas");
    let dir = tempfile::tempdir().unwrap();
    let hist = dir.path().join("h.csv");
    std::fs::write(&hist, "degree,count\n0,5\n2,400\n7,60\n30,4\n").unwrap();
    let out = dir.path().join("g.mtx");
    let report = dir.path().join("r.json");
    let plot = dir.path().join("p.svg");
    let run = |args: &[&std::ffi::OsStr]| Command::new(exe).args(args).output().unwrap();
    let o = run(&[
        "generate".as_ref(),
        "chung-lu".as_ref(),
        "--degrees".as_ref(),
        hist.as_os_str(),
        "--seed".as_ref(),
        "5".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
        "--report".as_ref(),
        report.as_os_str(),
        "--plot".as_ref(),
        plot.as_os_str(),
        "--quiet".as_ref(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let g = edgeblas::io::read_graph(&out, &edgeblas::io::ReadOptions::default()).unwrap();
    assert_eq!(g.vertices(), 469);
    assert!(g.adjacency.is_symmetric() && g.self_loops() == 0);
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(r["edges"].as_u64().unwrap() as usize * 2, g.arcs());
    assert!(r["edges_z"].as_f64().unwrap().abs() < 5.0);
    assert!(std::fs::read_to_string(&plot).unwrap().contains("<svg"));

    // The same seed at another thread count: the same file.
    let out2 = dir.path().join("g2.mtx");
    let o = run(&[
        "generate".as_ref(),
        "chung-lu".as_ref(),
        "--degrees".as_ref(),
        hist.as_os_str(),
        "--seed".as_ref(),
        "5".as_ref(),
        "--threads".as_ref(),
        "1".as_ref(),
        "-o".as_ref(),
        out2.as_os_str(),
    ]);
    assert!(o.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&out2).unwrap());

    // Errors: a bad line, a bad power law, a bad R-MAT parameter.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "3\n2\n-1\n").unwrap();
    let o = run(&[
        "generate".as_ref(),
        "chung-lu".as_ref(),
        "--degrees".as_ref(),
        bad.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && e.starts_with("error: ") && e.contains("bad.txt:3:"),
        "{e}"
    );
    assert!(!e.contains("panicked"));
    let o = run(&[
        "generate".as_ref(),
        "chung-lu".as_ref(),
        "--power-law".as_ref(),
        "n=100,gamma=0.5,dmin=2".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && e.contains("--power-law: gamma"),
        "{e}"
    );
    let o = run(&[
        "generate".as_ref(),
        "rmat".as_ref(),
        "--scale".as_ref(),
        "10".as_ref(),
        "--a".as_ref(),
        "0.9".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && e.starts_with("error: a + b + c"),
        "{e}"
    );
    let rm = dir.path().join("r.ebg");
    let o = run(&[
        "generate".as_ref(),
        "rmat".as_ref(),
        "--scale".as_ref(),
        "10".as_ref(),
        "--undirected".as_ref(),
        "-o".as_ref(),
        rm.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let g = edgeblas::io::read_graph(&rm, &edgeblas::io::ReadOptions::default()).unwrap();
    assert!(g.adjacency.is_symmetric() && g.vertices() == 1024);

    let o = run(&[
        "bench".as_ref(),
        "chung-lu".as_ref(),
        "--degrees".as_ref(),
        hist.as_os_str(),
        "--reps".as_ref(),
        "2".as_ref(),
        "--json".as_ref(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(j["edges"].as_u64().unwrap() > 500);
    assert!(j["seconds_median"].as_f64().unwrap() > 0.0);
}
