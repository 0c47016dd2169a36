//! The `mpi` backend under `mpirun --oversubscribe -np P`, P = 1 to 4: BFS parents and
//! levels (from text files through rank 0, and from `.ebg` files every rank reads its
//! rows of) and Chung-Lu graphs byte-identical to the CPU backend's, PageRank within the
//! float rule of `edgeblas::dist::pagerank`, WCC labels and SSSP distances and predecessors
//! byte-identical, graphs written and read as directories of per-rank parts, and bad
//! input (a
//! source out of range, more ranks than vertices, a missing file, a file only rank 0
//! opens) giving one `error:` line and a failing `mpirun`, without hanging.
//!
//! Also the partition and the degree encoding, which need no `mpirun`.
//!
//! Without `mpirun` on the PATH every test prints SKIP and passes, unless
//! `EDGEBLAS_REQUIRE_MPI=1` (CI sets it after `scripts/setup-mpi.sh`).
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_edgeblas");

/// Whether mpirun can be used; SKIP (or a panic under EDGEBLAS_REQUIRE_MPI=1) if not.
fn have_mpi(test: &str) -> bool {
    let ok = Command::new("mpirun")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("EDGEBLAS_REQUIRE_MPI").as_deref() == Ok("1") {
            panic!("{test}: mpirun is missing and EDGEBLAS_REQUIRE_MPI=1");
        }
        eprintln!("SKIP {test}: mpirun not found (run scripts/setup-mpi.sh)");
    }
    ok
}

/// `edgeblas ARGS` on one process; panics unless it succeeds.
fn cpu(args: &[&str]) {
    let o = Command::new(BIN)
        .args(args)
        .output()
        .expect("edgeblas runs");
    assert!(
        o.status.success(),
        "edgeblas {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `mpirun -np P edgeblas ARGS`, killed after two minutes (a hang fails the test).
fn mpirun(p: usize, args: &[&str]) -> Output {
    let mut cmd = Command::new("timeout");
    cmd.args(["120", "mpirun", "--oversubscribe", "--allow-run-as-root"]);
    cmd.args(["-np", &p.to_string(), BIN]).args(args);
    // Without a TTY OpenMPI may wait for stdin forwarding; give it nothing.
    cmd.stdin(std::process::Stdio::null());
    let o = cmd.output().expect("mpirun runs");
    assert_ne!(o.status.code(), Some(124), "mpirun -np {p} {args:?} hung");
    o
}

fn mpirun_ok(p: usize, args: &[&str]) {
    let o = mpirun(p, args);
    assert!(
        o.status.success(),
        "mpirun -np {p} edgeblas {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn same(a: &Path, b: &Path) {
    let (x, y) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    assert!(x == y, "{} and {} differ", a.display(), b.display());
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// BFS from `source` under each policy: CPU parents and levels, then P = 1..4 ranks.
fn bfs_matches(dir: &Path, graph: &Path, source: &str, extra: &[&str], policies: &[&str]) {
    bfs_matches_mpi(dir, graph, source, extra, &[], policies);
}

/// [`bfs_matches`] with `mpi_only` flags given to the distributed runs alone.
fn bfs_matches_mpi(
    dir: &Path,
    graph: &Path,
    source: &str,
    extra: &[&str],
    mpi_only: &[&str],
    policies: &[&str],
) {
    for policy in policies {
        let (cp, cl) = (dir.join("cpu.parents"), dir.join("cpu.levels"));
        let mut args = vec!["bfs", s(graph), "--source", source, "--policy", policy];
        args.extend_from_slice(extra);
        let mut c = args.clone();
        c.extend(["--parents", s(&cp), "--levels", s(&cl)]);
        cpu(&c);
        for p in 1..=4 {
            let (mp, ml) = (dir.join("mpi.parents"), dir.join("mpi.levels"));
            let mut m = args.clone();
            m.extend(["--backend", "mpi", "--parents", s(&mp), "--levels", s(&ml)]);
            m.extend_from_slice(mpi_only);
            mpirun_ok(p, &m);
            same(&cp, &mp);
            same(&cl, &ml);
        }
    }
}

#[test]
fn bfs_rmat_identical_for_every_p() {
    if !have_mpi("bfs_rmat_identical_for_every_p") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("rmat.mtx");
    cpu(&["generate", "rmat", "--scale", "12", "--quiet", "-o", s(&g)]);
    bfs_matches(dir.path(), &g, "3", &[], &["beamer", "push", "pull"]);
    // Several sources, a directed graph kept directed.
    bfs_matches(dir.path(), &g, "3,100,2000", &[], &["gunrock"]);
}

#[test]
fn bfs_power_law_identical_for_every_p() {
    if !have_mpi("bfs_power_law_identical_for_every_p") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("pl.mtx");
    cpu(&[
        "generate",
        "chung-lu",
        "--power-law",
        "n=20000,gamma=2.1,dmin=2",
        "--quiet",
        "-o",
        s(&g),
    ]);
    bfs_matches(dir.path(), &g, "19999", &[], &["beamer", "ligra"]);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn bfs_real_graph_identical_for_every_p() {
    if !have_mpi("bfs_real_graph_identical_for_every_p") {
        return;
    }
    let real = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/real");
    let g = real.join("email-Eu-core.txt");
    if !g.exists() {
        eprintln!(
            "SKIP bfs_real_graph_identical_for_every_p: {} is absent (the shared data sits beside the repository)",
            g.display()
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Directed (in-arcs for pull are sent to the ranks), then undirected.
    bfs_matches(dir.path(), &g, "0", &[], &["beamer"]);
    bfs_matches(dir.path(), &g, "0", &["--undirected"], &["beamer"]);
}

/// The JSON line `mpirun -np P edgeblas ARGS --json` prints (rank 0's, the only one).
fn mpi_json(p: usize, args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.push("--json");
    let o = mpirun(p, &a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with('{')).collect();
    assert_eq!(lines.len(), 1, "one JSON object expected:\n{out}");
    serde_json::from_str(lines[0]).unwrap()
}

#[test]
fn bfs_ebg_read_in_row_blocks_identical_for_every_p() {
    if !have_mpi("bfs_ebg_read_in_row_blocks_identical_for_every_p") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Directed: every rank builds its rows of A' by one exchange, and --undirected
    // merges them into A's.
    let d = dir.path().join("rmat.ebg");
    cpu(&["generate", "rmat", "--scale", "11", "--quiet", "-o", s(&d)]);
    bfs_matches(dir.path(), &d, "0,1,2", &[], &["beamer", "push", "pull"]);
    bfs_matches(dir.path(), &d, "5", &["--undirected"], &["beamer"]);
    bfs_matches(dir.path(), &d, "random:3:9", &[], &["gunrock"]);
    // Undirected, ids from 1 (a Matrix Market file converted): ids in the outputs.
    let m = dir.path().join("pl.mtx");
    cpu(&[
        "generate",
        "chung-lu",
        "--power-law",
        "n=6000,gamma=2.1,dmin=2",
        "--quiet",
        "-o",
        s(&m),
    ]);
    let u = dir.path().join("pl.ebg");
    cpu(&["convert", s(&m), s(&u)]);
    bfs_matches(dir.path(), &u, "6000", &[], &["beamer", "ligra"]);
    // The summary is the one process's: reached, traversed edges, sizes.
    for (g, extra) in [(&d, None), (&d, Some("--undirected")), (&u, None)] {
        let mut args = vec!["bfs", s(g), "--source", "1"];
        args.extend(extra);
        let o = Command::new(BIN)
            .args(&args)
            .arg("--json")
            .output()
            .unwrap();
        let c: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        args.extend(["--backend", "mpi"]);
        for p in [1, 3] {
            let m = mpi_json(p, &args);
            for k in [
                "vertices",
                "arcs",
                "directed",
                "reached",
                "max_depth",
                "depth_sum",
                "traversed_edges",
                "sources",
            ] {
                assert_eq!(c[k], m[k], "{k}, {args:?}, P = {p}");
            }
        }
    }
}

/// `id value` lines of an output file.
fn values(path: &Path) -> Vec<(u64, f64)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let (id, x) = l.split_once(' ').unwrap();
            (id.parse().unwrap(), x.parse().unwrap())
        })
        .collect()
}

#[test]
fn pagerank_ebg_within_the_float_rule_for_every_p() {
    if !have_mpi("pagerank_ebg_within_the_float_rule_for_every_p") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Directed with dangling vertices, and undirected with ids from 1.
    let d = dir.path().join("rmat.ebg");
    cpu(&["generate", "rmat", "--scale", "10", "--quiet", "-o", s(&d)]);
    let m = dir.path().join("pl.mtx");
    cpu(&[
        "generate",
        "chung-lu",
        "--power-law",
        "n=3000,gamma=2.1,dmin=2",
        "--quiet",
        "-o",
        s(&m),
    ]);
    let u = dir.path().join("pl.ebg");
    cpu(&["convert", s(&m), s(&u)]);
    let (cr, mr) = (dir.path().join("cpu.ranks"), dir.path().join("mpi.ranks"));
    let cases: [(&Path, &[&str]); 4] = [
        (&d, &["--iterations", "30"]),
        (&d, &[]),
        (&d, &["--undirected", "--tolerance", "1e-9"]),
        (&u, &["--damping", "0.7"]),
    ];
    for (g, extra) in cases {
        let mut args = vec!["pagerank", s(g)];
        args.extend_from_slice(extra);
        let mut c = args.clone();
        c.extend(["--ranks", s(&cr), "--json"]);
        let o = Command::new(BIN).args(&c).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let cj: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let want = values(&cr);
        let n = want.len() as f64;
        for p in 1..=4 {
            let mut a = args.clone();
            a.extend(["--backend", "mpi", "--ranks", s(&mr)]);
            let mj = mpi_json(p, &a);
            for k in ["vertices", "arcs", "directed", "iterations", "converged"] {
                assert_eq!(cj[k], mj[k], "{k}: {args:?}, P = {p}");
            }
            assert_eq!(mj["ranks"], p);
            let rel = |x: f64, y: f64| (x - y).abs() / x.abs().max(1.0);
            assert!(rel(cj["sum"].as_f64().unwrap(), mj["sum"].as_f64().unwrap()) < 1e-12);
            let got = values(&mr);
            assert_eq!(got.len(), want.len());
            for ((i, x), (j, y)) in want.iter().zip(&got) {
                assert_eq!(i, j, "ids in order");
                assert!(
                    (x - y).abs() <= 1e-12 * x.max(1.0 / n),
                    "vertex {i}: {x} (one process) against {y} ({p} ranks), {args:?}"
                );
            }
        }
    }
    // Input the ranks cannot read in row blocks (the adjacency form), and f32, are
    // refused once.
    let adj = dir.path().join("pl.adj");
    cpu(&["convert", s(&m), s(&adj)]);
    fails_once(
        3,
        &["pagerank", s(&adj), "--backend", "mpi"],
        "convert it first",
    );
    fails_once(
        2,
        &["pagerank", s(&u), "--precision", "f32", "--backend", "mpi"],
        "--precision f32",
    );
}

#[test]
fn wcc_ebg_identical_for_every_p() {
    if !have_mpi("wcc_ebg_identical_for_every_p") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // A directed R-MAT graph (many small components and isolated vertices), and an
    // undirected one with ids from 1 and a few components.
    let d = dir.path().join("rmat.ebg");
    cpu(&["generate", "rmat", "--scale", "10", "--quiet", "-o", s(&d)]);
    let m = dir.path().join("pl.mtx");
    cpu(&[
        "generate",
        "chung-lu",
        "--power-law",
        "n=3000,gamma=2.5,dmin=1",
        "--quiet",
        "-o",
        s(&m),
    ]);
    let u = dir.path().join("pl.ebg");
    cpu(&["convert", s(&m), s(&u)]);
    // Long paths under scrambled ids (many rounds, where the shortcut through the
    // gathered labels does most of the work): three components, each labelled by its
    // smallest id, wherever that sits on its path.
    let paths = dir.path().join("paths.el");
    let n = 3 * 700u64;
    let scramble = |v: u64| (v * 1237 + 511) % n; // 1237 is prime to 2100: a permutation
    let mut text = String::new();
    for v in 0..n {
        if v % 700 != 699 {
            text.push_str(&format!("{} {}\n", scramble(v), scramble(v + 1)));
        }
    }
    std::fs::write(&paths, text).unwrap();
    let pg = dir.path().join("paths.ebg");
    cpu(&["convert", s(&paths), s(&pg)]);
    let (cl, ml) = (dir.path().join("cpu.labels"), dir.path().join("mpi.labels"));
    let cases: [(&Path, &[&str]); 4] = [
        (&d, &[]),
        (&d, &["--undirected"]),
        (&u, &[]),
        (&pg, &["--undirected"]),
    ];
    for (g, extra) in cases {
        let mut args = vec!["wcc", s(g)];
        args.extend_from_slice(extra);
        let mut c = args.clone();
        c.extend(["--labels", s(&cl), "--json"]);
        let o = Command::new(BIN).args(&c).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let cj: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        // Afforest by default (each rank links its rows, the forests merged along a
        // tree) and FastSV by name: the labels of one process either way.
        for p in 1..=4 {
            for method in [None, Some("afforest"), Some("fastsv")] {
                let mut a = args.clone();
                a.extend(["--backend", "mpi", "--labels", s(&ml)]);
                if let Some(m) = method {
                    a.extend(["--method", m]);
                }
                let mj = mpi_json(p, &a);
                same(&cl, &ml);
                for k in [
                    "vertices",
                    "arcs",
                    "directed",
                    "symmetric",
                    "components",
                    "largest",
                ] {
                    assert_eq!(cj[k], mj[k], "{k}: {args:?}, P = {p}, {method:?}");
                }
                assert_eq!(mj["method"], method.unwrap_or("afforest"), "{args:?}");
            }
        }
    }
    let adj = dir.path().join("pl.adj");
    cpu(&["convert", s(&m), s(&adj)]);
    fails_once(2, &["wcc", s(&adj), "--backend", "mpi"], "convert it first");
    fails_once(
        3,
        &["wcc", s(&u), "--backend", "mpi", "--method", "union-find"],
        "--method union-find",
    );
}

/// A random weighted edge list over `n` vertices: `w(u, v) = c + p(u) - p(v)` with
/// `c >= 0` and potentials `p` (quarters, so every sum is exact), so arcs may be
/// negative but no cycle is; with `cycle`, one more arc closes a negative cycle.
fn weighted_edge_list(path: &Path, n: u64, arcs: usize, seed: u64, cycle: bool) {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let p: Vec<f64> = (0..n).map(|_| (next() % 13) as f64 / 4.0).collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut text = String::new();
    while seen.len() < arcs {
        let (u, v) = (next() % n, next() % n);
        if u == v || !seen.insert((u, v)) {
            continue;
        }
        let c = [0.0, 0.5, 1.0, 2.0, 3.0, 7.0][(next() % 6) as usize];
        text.push_str(&format!("{u} {v} {}\n", c + p[u as usize] - p[v as usize]));
    }
    if cycle {
        // The first arc u -> v, closed by v -> u at -1000 (below any path's length).
        let &(u, v) = seen.iter().next().unwrap();
        if !seen.contains(&(v, u)) {
            text.push_str(&format!("{v} {u} -1000\n"));
        }
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn sssp_ebg_identical_for_every_p() {
    if !have_mpi("sssp_ebg_identical_for_every_p") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Weighted with negative arcs and no negative cycle; unweighted R-MAT (weight 1,
    // many unreached vertices).
    let el = dir.path().join("w.el");
    weighted_edge_list(&el, 3000, 15000, 7, false);
    let w = dir.path().join("w.ebg");
    cpu(&["convert", s(&el), s(&w)]);
    let r = dir.path().join("rmat.ebg");
    cpu(&["generate", "rmat", "--scale", "10", "--quiet", "-o", s(&r)]);
    // The same arcs with |w|: delta-stepping's case, with zero-weight arcs.
    let text = std::fs::read_to_string(&el).unwrap();
    let abs: String = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            let w: f64 = f[2].parse().unwrap();
            format!("{} {} {}\n", f[0], f[1], w.abs())
        })
        .collect();
    let pel = dir.path().join("pos.el");
    std::fs::write(&pel, abs).unwrap();
    let pos = dir.path().join("pos.ebg");
    cpu(&["convert", s(&pel), s(&pos)]);
    let (cd, md) = (dir.path().join("cpu.d"), dir.path().join("mpi.d"));
    let (cp, mp) = (dir.path().join("cpu.p"), dir.path().join("mpi.p"));
    // auto picks Bellman-Ford for negative arcs and delta-stepping otherwise, on both.
    let bf: &[&str] = &["--method", "bellman-ford"];
    // Delta-stepping's three arc layouts: most arcs heavy (the light ones copied), most
    // light (each kind read through A), and all light (no heavy pass).
    let cases: [(&Path, &str, &[&str]); 8] = [
        (&w, "3", &[]),
        (&w, "2999", bf),
        (&r, "0", &[]),
        (&r, "0", bf),
        (&pos, "3", &[]),
        (&pos, "3", &["--delta", "2.5"]),
        (&pos, "5", &["--delta", "1e9"]),
        (
            &pos,
            "17",
            &["--method", "delta-stepping", "--delta", "0.3"],
        ),
    ];
    for (g, source, extra) in cases {
        let mut args = vec!["sssp", s(g), "--source", source];
        args.extend_from_slice(extra);
        let mut c = args.clone();
        c.extend(["--json", "--distances", s(&cd), "--predecessors", s(&cp)]);
        let o = Command::new(BIN).args(&c).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let cj: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(
            cj["reached"].as_u64().unwrap() > 1,
            "{args:?} reaches nothing"
        );
        for p in 1..=4 {
            let mut a = args.clone();
            a.extend(["--backend", "mpi", "--distances", s(&md)]);
            a.extend(["--predecessors", s(&mp)]);
            let mj = mpi_json(p, &a);
            same(&cd, &md);
            same(&cp, &mp);
            for k in [
                "vertices",
                "arcs",
                "weighted",
                "reached",
                "max_distance",
                "distance_sum",
                "rounds",
                "method",
                "delta",
            ] {
                assert_eq!(cj[k], mj[k], "{k}: {args:?}, P = {p}");
            }
        }
    }
    // A negative cycle: the CPU's error, word for word, once.
    let el = dir.path().join("cycle.el");
    weighted_edge_list(&el, 500, 3000, 11, true);
    let g = dir.path().join("cycle.ebg");
    cpu(&["convert", s(&el), s(&g)]);
    let o = Command::new(BIN)
        .args(["sssp", s(&g), "--source", "0", "--method", "bellman-ford"])
        .output()
        .unwrap();
    assert!(!o.status.success(), "the CPU finds no negative cycle");
    let err = String::from_utf8_lossy(&o.stderr);
    let line = err.lines().find(|l| l.starts_with("error:")).unwrap();
    assert!(line.contains("negative cycle"), "{line}");
    for p in [1, 3] {
        let args = ["sssp", s(&g), "--source", "0", "--backend", "mpi"];
        fails_once(p, &args, line.trim_start_matches("error: "));
    }
    // What the backend does not take says so, once.
    let m = dir.path().join("w.adj");
    cpu(&["convert", s(&w), s(&m)]);
    let base = ["sssp", "--source", "3", "--backend", "mpi"];
    let with = |g: &Path, extra: &[&'static str]| {
        let mut a: Vec<String> = base.iter().map(|x| x.to_string()).collect();
        a.insert(1, s(g).to_string());
        a.extend(extra.iter().map(|x| x.to_string()));
        a
    };
    for (g, extra, what) in [
        (&m, &[][..], "convert it first"),
        (
            &w,
            &["--method", "delta-stepping"][..],
            "has a negative weight",
        ),
        (&pos, &["--delta", "-1"][..], "--delta: -1"),
        (&w, &["--undirected"][..], "--undirected"),
    ] {
        let a = with(g, extra);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        fails_once(2, &a, what);
    }
}

/// [`mpirun`] with rank 0 streaming text in blocks of `block` bytes.
fn mpirun_block(p: usize, block: usize, args: &[&str]) -> Output {
    let mut cmd = Command::new("timeout");
    cmd.args(["120", "mpirun", "--oversubscribe", "--allow-run-as-root"]);
    cmd.args(["-np", &p.to_string(), BIN]).args(args);
    cmd.env("EDGEBLAS_TEXT_BLOCK", block.to_string());
    cmd.stdin(std::process::Stdio::null());
    let o = cmd.output().expect("mpirun runs");
    assert_ne!(o.status.code(), Some(124), "mpirun -np {p} {args:?} hung");
    o
}

/// The same arcs as a weighted edge list `base.el` (repeated arcs, one self-loop), its
/// gzip, DIMACS `base.gr`, Graphalytics `base.e` + `base.v` (ids `10 v + 3`), and a
/// Matrix Market `symmetric` file of its arcs' undirected edges, some given in both
/// triangles.
fn text_forms(dir: &Path) -> Vec<PathBuf> {
    let el = dir.join("t.el");
    weighted_edge_list(&el, 1500, 6000, 11, false);
    let mut lines: Vec<(u64, u64, f64)> = std::fs::read_to_string(&el)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse::<f64>().unwrap().abs(),
            )
        })
        .collect();
    // Repeats with other weights (the least is kept), and a self-loop.
    for k in 0..40 {
        let (u, v, w) = lines[k * 97];
        lines.push((u, v, w * 0.5 + (k % 3) as f64));
    }
    lines.push((5, 5, 1.5));
    let text = |f: &dyn Fn(&(u64, u64, f64)) -> String| -> String {
        lines.iter().map(f).collect::<Vec<_>>().join("\n")
    };
    std::fs::write(
        &el,
        format!(
            "# a comment\n{}\n",
            text(&|&(u, v, w)| format!("{u} {v} {w}"))
        ),
    )
    .unwrap();
    let gz = dir.join("t.el.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut e, &std::fs::read(&el).unwrap()).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    let gr = dir.join("t.gr");
    let body = text(&|&(u, v, w)| format!("a {} {} {}", u + 1, v + 1, w.round()));
    std::fs::write(
        &gr,
        format!("c DIMACS\np sp 1500 {}\n{body}\n", lines.len()),
    )
    .unwrap();
    let e = dir.join("t.e");
    std::fs::write(
        &e,
        text(&|&(u, v, w)| format!("{} {} {w}", 10 * u + 3, 10 * v + 3)),
    )
    .unwrap();
    let ids: Vec<String> = (0..1500u64)
        .rev()
        .map(|v| (10 * v + 3).to_string())
        .collect();
    std::fs::write(dir.join("t.v"), ids.join("\n")).unwrap();
    let mtx = dir.join("t.mtx");
    let body = text(&|&(u, v, w)| {
        let (i, j) = if u >= v || u % 5 == 0 { (u, v) } else { (v, u) };
        format!("{} {} {w}", i + 1, j + 1)
    });
    std::fs::write(
        &mtx,
        format!(
            "%%MatrixMarket matrix coordinate real symmetric\n% edges\n1500 1500 {}\n{body}\n",
            lines.len()
        ),
    )
    .unwrap();
    vec![el, gz, gr, e, mtx]
}

#[test]
fn text_files_streamed_through_rank_0_identical_for_every_p() {
    if !have_mpi("text_files_streamed_through_rank_0_identical_for_every_p") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (co, mo) = (d.join("cpu.out"), d.join("mpi.out"));
    let (co2, mo2) = (d.join("cpu.out2"), d.join("mpi.out2"));
    for g in text_forms(d) {
        let name = g.file_name().unwrap().to_str().unwrap().to_string();
        // The source: id 7's vertex, whatever the ids.
        let src = if name.ends_with(".e") {
            "73"
        } else if name.ends_with(".el") || name.ends_with(".gz") {
            "7"
        } else {
            "8"
        };
        let commands: [(Vec<&str>, [&str; 2]); 5] = [
            (vec!["wcc", s(&g)], ["--labels", ""]),
            (vec!["wcc", s(&g), "--undirected"], ["--labels", ""]),
            (
                vec!["bfs", s(&g), "--source", src],
                ["--levels", "--parents"],
            ),
            (
                vec!["sssp", s(&g), "--source", src, "--method", "bellman-ford"],
                ["--distances", "--predecessors"],
            ),
            (vec!["pagerank", s(&g)], ["--ranks", ""]),
        ];
        for (args, outs) in &commands {
            let mut c = args.clone();
            c.extend(["--json", outs[0], s(&co)]);
            if !outs[1].is_empty() {
                c.extend([outs[1], s(&co2)]);
            }
            let o = Command::new(BIN).args(&c).output().unwrap();
            assert!(
                o.status.success(),
                "{c:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let cj: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            for (p, block) in [(1, 1 << 20), (2, 700), (3, 4096), (4, 64)] {
                let mut m = args.clone();
                m.extend(["--backend", "mpi", "--json", outs[0], s(&mo)]);
                if !outs[1].is_empty() {
                    m.extend([outs[1], s(&mo2)]);
                }
                let o = mpirun_block(p, block, &m);
                assert!(
                    o.status.success(),
                    "-np {p} {m:?}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                let out = String::from_utf8_lossy(&o.stdout);
                let mj: serde_json::Value =
                    serde_json::from_str(out.lines().last().unwrap()).unwrap();
                assert_eq!(cj["vertices"], mj["vertices"], "{m:?} at P = {p}");
                if args[0] == "pagerank" {
                    let (want, got) = (values(&co), values(&mo));
                    assert_eq!(want.len(), got.len());
                    for ((i, x), (j, y)) in want.iter().zip(&got) {
                        assert_eq!(i, j, "ids in order");
                        assert!(
                            (x - y).abs() <= 1e-12 * x.max(1e-6),
                            "{name}: vertex {i}: {x} against {y}, P = {p}"
                        );
                    }
                } else {
                    same(&co, &mo);
                    if !outs[1].is_empty() {
                        same(&co2, &mo2);
                    }
                }
                for k in ["arcs", "components", "reached", "distance_sum"] {
                    assert_eq!(cj[k], mj[k], "{k}: {m:?} at P = {p}");
                }
            }
        }
    }
    // A bad line deep in the file, past many blocks: one error, the one-process one.
    let el = d.join("t.el");
    let mut lines: Vec<String> = std::fs::read_to_string(&el)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines[4321] = "12 -4 1".into();
    let bad = d.join("bad.el");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let o = Command::new(BIN).args(["wcc", s(&bad)]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let line = err.lines().find(|l| l.starts_with("error:")).unwrap();
    assert!(line.contains("bad.el:4322:"), "{line}");
    for (p, block) in [(1, 1 << 20), (3, 999)] {
        for cmd in ["wcc", "pagerank", "bfs"] {
            let mut a = vec![cmd, s(&bad), "--backend", "mpi"];
            if cmd == "bfs" {
                a.extend(["--source", "1"]);
            }
            let o = mpirun_block(p, block, &a);
            let e = String::from_utf8_lossy(&o.stderr);
            assert!(!o.status.success());
            let lines: Vec<&str> = e.lines().filter(|l| l.starts_with("error:")).collect();
            assert_eq!(lines, [line], "{cmd} at P = {p}");
        }
    }
    // More entries than the size line declares, and more ranks than vertices.
    let mm = d.join("over.mtx");
    std::fs::write(
        &mm,
        "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n3 1\n",
    )
    .unwrap();
    fails_once(
        2,
        &["wcc", s(&mm), "--backend", "mpi"],
        "over.mtx:5: more entries than the 2 declared on line 2",
    );
    let tiny = d.join("tiny.el");
    std::fs::write(&tiny, "0 1\n1 2\n").unwrap();
    fails_once(
        4,
        &["wcc", s(&tiny), "--backend", "mpi"],
        "4 ranks for 3 vertices",
    );
    // A bad block size is named.
    let o = mpirun_block(2, 0, &["wcc", s(&tiny), "--backend", "mpi"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("EDGEBLAS_TEXT_BLOCK=0"));
}

#[test]
fn parts_directories_identical_for_every_p() {
    if !have_mpi("parts_directories_identical_for_every_p") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Chung-Lu written one part per rank, nothing gathered: put together, the CPU's file.
    let spec = "n=5000,gamma=2.3,dmin=2";
    let cpu_file = d.join("cl.ebg");
    cpu(&[
        "generate",
        "chung-lu",
        "--power-law",
        spec,
        "--quiet",
        "-o",
        s(&cpu_file),
    ]);
    // Directed, weighted with negative arcs (no negative cycle), and its CPU results.
    let el = d.join("w.el");
    weighted_edge_list(&el, 2000, 10000, 3, false);
    let w = d.join("w.ebg");
    cpu(&["convert", s(&el), s(&w)]);
    let out = |name: &str| d.join(name);
    cpu(&[
        "bfs",
        s(&w),
        "--source",
        "7",
        "--parents",
        s(&out("cpu.parents")),
    ]);
    cpu(&["sssp", s(&w), "--source", "7", "--method", "bellman-ford"]);
    let (cd, cp, report) = (out("cpu.d"), out("cpu.p"), out("r.json"));
    let mut sssp_cpu = vec!["sssp", s(&w), "--source", "7", "--method", "bellman-ford"];
    sssp_cpu.extend(["--distances", s(&cd), "--predecessors", s(&cp)]);
    cpu(&sssp_cpu);
    cpu(&["wcc", s(&w), "--labels", s(&out("cpu.labels"))]);
    for p in 1..=4usize {
        // A name ending in `/` (the directory does not exist yet).
        let parts = d.join(format!("cl{p}/"));
        mpirun_ok(
            p,
            &[
                "generate",
                "chung-lu",
                "--power-law",
                spec,
                "--backend",
                "mpi",
                "-o",
                s(&parts),
            ],
        );
        let back = d.join(format!("cl{p}.ebg"));
        cpu(&["convert", s(&parts), s(&back)]);
        same(&cpu_file, &back);
        let wp = d.join(format!("w{p}"));
        cpu(&["convert", s(&w), s(&wp), "--parts", &p.to_string()]);
        let mp = out("mpi.parents");
        mpirun_ok(
            p,
            &[
                "bfs",
                s(&wp),
                "--source",
                "7",
                "--backend",
                "mpi",
                "--parents",
                s(&mp),
            ],
        );
        same(&out("cpu.parents"), &mp);
        let (md, mpred) = (out("mpi.d"), out("mpi.p"));
        let a = [
            "sssp",
            s(&wp),
            "--source",
            "7",
            "--backend",
            "mpi",
            "--distances",
            s(&md),
        ];
        let mut a = a.to_vec();
        a.extend(["--predecessors", s(&mpred)]);
        mpirun_ok(p, &a);
        same(&out("cpu.d"), &md);
        same(&out("cpu.p"), &mpred);
        let ml = out("mpi.labels");
        mpirun_ok(p, &["wcc", s(&wp), "--backend", "mpi", "--labels", s(&ml)]);
        same(&out("cpu.labels"), &ml);
    }
    // One rank per part; and no report from parts nobody gathers.
    let w3 = d.join("w3");
    fails_once(
        2,
        &["bfs", s(&w3), "--source", "7", "--backend", "mpi"],
        "3 parts for 2 ranks",
    );
    let args = [
        "generate",
        "chung-lu",
        "--power-law",
        spec,
        "--backend",
        "mpi",
    ];
    let mut a = args.to_vec();
    a.extend(["-o", s(&w3), "--report", s(&report)]);
    fails_once(2, &a, "--report");
}

/// Chung-Lu under `flags`: the CPU file, then P = 1..4 ranks, byte for byte.
fn chung_lu_matches(flags: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("cpu.mtx");
    let mut args = vec!["generate", "chung-lu", "--quiet"];
    args.extend_from_slice(flags);
    let mut a = args.clone();
    a.extend(["-o", s(&c)]);
    cpu(&a);
    for p in 1..=4 {
        let m = dir.path().join(format!("mpi{p}.mtx"));
        let mut a = args.clone();
        a.extend(["--backend", "mpi", "-o", s(&m)]);
        mpirun_ok(p, &a);
        same(&c, &m);
    }
}

#[test]
fn chung_lu_identical_for_every_p() {
    if !have_mpi("chung_lu_identical_for_every_p") {
        return;
    }
    chung_lu_matches(&["--power-law", "n=30000,gamma=2.1,dmin=2", "--seed", "7"]);
    // Dense groups (p clamped to 1 for the heaviest pairs).
    chung_lu_matches(&["--power-law", "n=2000,gamma=1.8,dmin=20,dmax=1500"]);
}

#[test]
fn chung_lu_sequence_and_directed_identical_for_every_p() {
    if !have_mpi("chung_lu_sequence_and_directed_identical_for_every_p") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // A degree sequence in the user's order (vertex order not the identity).
    let seq = dir.path().join("seq.txt");
    let text: String = (0..5000u64)
        .map(|i| format!("{}\n", 1 + (i * 7919) % 40))
        .collect();
    std::fs::write(&seq, text).unwrap();
    chung_lu_matches(&["--degrees", s(&seq)]);
    // Directed, out- and in-degrees.
    let (o, i) = (dir.path().join("out.txt"), dir.path().join("in.txt"));
    let out: String = (0..3000u64)
        .map(|i| format!("{}\n", 1 + (i * 31) % 25))
        .collect();
    let inn: String = (0..3000u64)
        .map(|i| format!("{}\n", 1 + (i * 17) % 25))
        .collect();
    std::fs::write(&o, out).unwrap();
    std::fs::write(&i, inn).unwrap();
    chung_lu_matches(&["--directed", "--out-degrees", s(&o), "--in-degrees", s(&i)]);
}

/// A run that must fail: non-zero exit, exactly one `error:` line, containing `what`.
fn fails_once(p: usize, args: &[&str], what: &str) {
    let o = mpirun(p, args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "mpirun -np {p} {args:?} succeeded");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(lines.len(), 1, "one error line expected:\n{err}");
    assert!(lines[0].contains(what), "{what:?} not in {:?}", lines[0]);
}

#[test]
fn bad_input_one_error_and_a_failing_mpirun() {
    if !have_mpi("bad_input_one_error_and_a_failing_mpirun") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("tiny.mtx");
    std::fs::write(
        &g,
        "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n",
    )
    .unwrap();
    let gs = s(&g);
    fails_once(
        3,
        &["bfs", gs, "--source", "9", "--backend", "mpi"],
        "vertex 9",
    );
    fails_once(
        4,
        &["bfs", gs, "--source", "1", "--backend", "mpi"],
        "4 ranks for 3 vertices",
    );
    let missing = dir.path().join("missing.mtx");
    fails_once(
        2,
        &["bfs", s(&missing), "--source", "1", "--backend", "mpi"],
        "missing.mtx",
    );
    fails_once(
        4,
        &[
            "generate",
            "chung-lu",
            "--power-law",
            "n=3,gamma=2,dmin=1",
            "--backend",
            "mpi",
            "-o",
            "/dev/null",
        ],
        "4 ranks for 3 vertices",
    );
    fails_once(
        2,
        &[
            "bfs",
            gs,
            "--source",
            "1",
            "--policy",
            "push",
            "--alpha",
            "2",
            "--backend",
            "mpi",
        ],
        "--alpha",
    );
}

#[test]
fn bad_ebg_one_error_from_rank_0() {
    if !have_mpi("bad_ebg_one_error_from_rank_0") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("g.ebg");
    cpu(&["generate", "rmat", "--scale", "9", "--quiet", "-o", s(&g)]);
    let bytes = std::fs::read(&g).unwrap();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let (n, nnz) = (word(16) as usize, word(24) as usize);
    // A cut file: rank 0 refuses its header.
    let cut = dir.path().join("cut.ebg");
    std::fs::write(&cut, &bytes[..bytes.len() - 8]).unwrap();
    fails_once(
        4,
        &["bfs", s(&cut), "--source", "1", "--backend", "mpi"],
        "cut.ebg: the header declares",
    );
    // The last arc's column out of range: only the last rank reads it, rank 0 says so.
    let mut bad = bytes.clone();
    let at = 64 + 8 * (n + 1) + 4 * (nnz - 1);
    bad[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let b = dir.path().join("bad.ebg");
    std::fs::write(&b, &bad).unwrap();
    for p in [1, 4] {
        fails_once(
            p,
            &["bfs", s(&b), "--source", "1", "--backend", "mpi"],
            "bad.ebg: corrupt adjacency: row",
        );
    }
    fails_once(
        4,
        &["bfs", s(&g), "--source", "100000", "--backend", "mpi"],
        "vertex 100000",
    );
}

#[test]
fn input_read_by_rank_0_alone() {
    if !have_mpi("input_read_by_rank_0_alone") {
        return;
    }
    // A named pipe can be read once: if any rank but 0 opened it, that rank would block
    // (and the run would time out) or read nothing.
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("g.mtx");
    cpu(&["generate", "rmat", "--scale", "10", "--quiet", "-o", s(&g)]);
    let cl = dir.path().join("cpu.levels");
    cpu(&["bfs", s(&g), "--source", "1", "--levels", s(&cl)]);
    let fifo = dir.path().join("pipe.mtx");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    let (src, dst) = (g.clone(), fifo.clone());
    let writer = std::thread::spawn(move || {
        let bytes = std::fs::read(src).unwrap();
        std::fs::write(dst, bytes).unwrap();
    });
    let ml = dir.path().join("mpi.levels");
    mpirun_ok(
        3,
        &[
            "bfs",
            s(&fifo),
            "--source",
            "1",
            "--backend",
            "mpi",
            "--levels",
            s(&ml),
        ],
    );
    writer.join().unwrap();
    same(&cl, &ml);
    std::thread::sleep(Duration::from_millis(10));
}

#[test]
fn json_from_rank_0_only_with_traffic() {
    if !have_mpi("json_from_rank_0_only_with_traffic") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("r.mtx");
    cpu(&["generate", "rmat", "--scale", "10", "--quiet", "-o", s(&g)]);
    let o = mpirun(
        3,
        &["bfs", s(&g), "--source", "1", "--backend", "mpi", "--json"],
    );
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with('{')).collect();
    assert_eq!(lines.len(), 1, "one JSON object expected:\n{out}");
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(v["ranks"], 3);
    assert_eq!(v["backend"], "mpi");
    assert!(v["bytes_sent"].as_u64().unwrap() > 0);
    assert!(v["messages"].as_u64().unwrap() > 0);
    let b = mpirun(
        2,
        &[
            "bench",
            "chung-lu",
            "--power-law",
            "n=5000,gamma=2.1,dmin=2",
            "--backend",
            "mpi",
            "--reps",
            "2",
            "--json",
        ],
    );
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let v: serde_json::Value = serde_json::from_slice(&b.stdout).unwrap();
    assert_eq!(v["ranks"], 2);
    assert!(v["bytes_sent"].as_u64().unwrap() > 0 && v["medges_per_s"].as_f64().unwrap() > 0.0);
}

#[test]
fn row_blocks_cover_and_balance() {
    use edgeblas::dist::{Partition, RowBlocks};
    let deg = [10u64, 0, 0, 0, 5, 5, 0, 10, 1, 1];
    let mut offsets = vec![0u64];
    for d in deg {
        offsets.push(offsets.last().unwrap() + d);
    }
    for p in 1..=10 {
        let b = RowBlocks::by_arcs(&offsets, p);
        assert_eq!(b.ranks(), p);
        assert_eq!(b.vertices(), 10);
        for r in 0..p {
            assert!(!b.range(r).is_empty(), "p {p} rank {r}: {:?}", b.starts());
            for v in b.range(r) {
                assert_eq!(b.owner(v as u32), r);
            }
        }
    }
    // 11 + 1 + 1 + 1 + 6 = 20 of 42 (arcs + 1 a vertex) on rank 0.
    assert_eq!(RowBlocks::by_arcs(&offsets, 2).starts(), &[0, 5, 10]);
}

#[test]
fn row_blocks_by_lookup_are_by_arcs() {
    use edgeblas::dist::RowBlocks;
    let mut x = 12345u64;
    for n in [1usize, 2, 5, 17, 300] {
        let mut offsets = vec![0u64];
        for _ in 0..n {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let d = if x >> 60 == 0 {
                (x >> 40) % 200
            } else {
                (x >> 33) % 6
            };
            offsets.push(offsets.last().unwrap() + d);
        }
        for p in 1..=n.min(9) {
            let want = RowBlocks::by_arcs(&offsets, p);
            let got =
                RowBlocks::by_arcs_lookup(n, offsets[n], p, |v| Ok::<u64, ()>(offsets[v])).unwrap();
            assert_eq!(got, want, "n {n}, p {p}");
        }
    }
}

#[test]
fn degrees_travel_as_bytes() {
    use edgeblas::dist::chung_lu::{decode_degrees, encode_degrees};
    use edgeblas::generate::chung_lu::Degrees;
    for d in [
        Degrees::Sequence(vec![3, 1, 2]),
        Degrees::Histogram(vec![(1, 5), (4, 2)]),
        Degrees::Directed {
            out: vec![1, 2],
            inn: vec![2, 1],
        },
    ] {
        assert_eq!(decode_degrees(&encode_degrees(&d)).unwrap(), d);
    }
    assert!(decode_degrees(&[1, 2, 3]).is_err());
}

/// `bfs --backend mpi --layout 2d`: parents and levels byte-identical to one process for
/// P = 1..4 on the squarest grid and on the thin ones, from a text file through rank 0
/// and from `.ebg` row blocks, directed and undirected; the per-level traffic sums to the
/// total; a grid that does not fit the ranks is one error, without a hang.
#[test]
fn bfs_2d_layout_identical_for_every_p_and_grid() {
    if !have_mpi("bfs_2d_layout_identical_for_every_p_and_grid") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("rmat.mtx");
    cpu(&["generate", "rmat", "--scale", "11", "--quiet", "-o", s(&m)]);
    let e = dir.path().join("rmat.ebg");
    cpu(&["convert", s(&m), s(&e)]);
    let layout = ["--layout", "2d"];
    bfs_matches_mpi(
        dir.path(),
        &m,
        "3",
        &[],
        &layout,
        &["beamer", "push", "pull"],
    );
    bfs_matches_mpi(dir.path(), &e, "1,2,3", &[], &layout, &["beamer", "pull"]);
    bfs_matches_mpi(dir.path(), &e, "5", &["--undirected"], &layout, &["beamer"]);
    // The thin grids.
    let (cp, cl) = (dir.path().join("c.parents"), dir.path().join("c.levels"));
    cpu(&[
        "bfs",
        s(&e),
        "--source",
        "7",
        "--parents",
        s(&cp),
        "--levels",
        s(&cl),
    ]);
    for (p, grid) in [(2, "2x1"), (2, "1x2"), (3, "3x1"), (4, "4x1"), (4, "1x4")] {
        let (mp, ml) = (dir.path().join("m.parents"), dir.path().join("m.levels"));
        let args = [
            "bfs",
            s(&e),
            "--source",
            "7",
            "--backend",
            "mpi",
            "--layout",
            "2d",
            "--grid",
            grid,
            "--parents",
            s(&mp),
            "--levels",
            s(&ml),
        ];
        mpirun_ok(p, &args);
        same(&cp, &mp);
        same(&cl, &ml);
    }
    let j = mpi_json(
        4,
        &[
            "bfs",
            s(&e),
            "--source",
            "7",
            "--backend",
            "mpi",
            "--layout",
            "2d",
        ],
    );
    let levels: u64 = j["trace"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["bytes_sent"].as_u64().unwrap())
        .sum();
    assert!(levels > 0 && levels <= j["bytes_sent"].as_u64().unwrap());
    assert_eq!(
        (j["layout"].as_str(), j["grid"].as_str()),
        (Some("2d"), Some("2x2"))
    );
    let j1 = mpi_json(2, &["bfs", s(&e), "--source", "7", "--backend", "mpi"]);
    assert_eq!(
        (j1["layout"].as_str(), j1["grid"].as_str()),
        (Some("1d"), None)
    );
    fails_once(
        4,
        &[
            "bfs",
            s(&e),
            "--source",
            "7",
            "--backend",
            "mpi",
            "--layout",
            "2d",
            "--grid",
            "3x1",
        ],
        "--grid 3x1",
    );
    fails_once(
        2,
        &[
            "bfs",
            s(&e),
            "--source",
            "7",
            "--backend",
            "mpi",
            "--grid",
            "2x1",
        ],
        "--grid",
    );
}

#[test]
fn grids_squarest_and_parsed() {
    use edgeblas::dist::bfs2d::Grid;
    let g = |p| {
        let g = Grid::squarest(p);
        (g.rows, g.cols)
    };
    assert_eq!(g(1), (1, 1));
    assert_eq!(g(2), (1, 2));
    assert_eq!(g(4), (2, 2));
    assert_eq!(g(6), (2, 3));
    assert_eq!(g(7), (1, 7));
    assert_eq!(g(1024), (32, 32));
    for p in 1..300 {
        let x = Grid::squarest(p);
        assert_eq!(x.ranks(), p);
        assert!(x.rows <= x.cols);
        // No squarer factorisation exists.
        assert!((x.rows + 1..=x.cols).all(|r| r * r > p || !p.is_multiple_of(r)));
    }
    assert_eq!(Grid::parse("2x3").unwrap(), Grid { rows: 2, cols: 3 });
    assert_eq!(Grid::parse("4X1").unwrap(), Grid { rows: 4, cols: 1 });
    assert_eq!(Grid::parse("2x3").unwrap().to_string(), "2x3");
    for bad in ["", "2", "2x", "x2", "0x4", "2x0", "ax2", "2x2x2", "-1x2"] {
        assert!(Grid::parse(bad).is_err(), "{bad:?}");
    }
}
