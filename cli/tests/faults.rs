//! Nothing half-written: every file the library and the `edgeblas` binary write appears
//! whole or not at all. A writer that fails after N bytes, a panic mid-write, a binary
//! killed mid-write, a file-size limit (`RLIMIT_FSIZE`, what `ulimit -f` sets) and a
//! destination whose folder cannot exist each leave the destination absent or as it was,
//! no temporary file behind (a killed process may leave its hidden temporary file, never
//! a partial destination), and from the binary a clean `error:` that names the file.

use std::collections::BTreeSet;
use std::io::{self, Write};
use std::path::Path;

use edgeblas::io::{self as eio, AtomicFile, Format, Graph, ReadOptions, write_atomically};

/// The names in a folder.
fn listing(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .expect("list the folder")
        .map(|e| {
            e.expect("a folder entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// A writer that passes on its first `left` bytes, then fails: a disk that fills up.
struct FailAfter<'a> {
    inner: &'a mut dyn Write,
    left: usize,
}

impl Write for FailAfter<'_> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Err(io::Error::other("injected fault: no space left"));
        }
        let k = self.inner.write(&b[..b.len().min(self.left)])?;
        self.left -= k;
        Ok(k)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A weighted graph (integer weights, so that every format holds it) whose files are
/// larger than the 1 MiB write buffer in the text formats, so that a fault can come
/// after bytes reached the temporary file.
fn sample_graph() -> Graph {
    let mut text = String::new();
    for i in 0u64..60_000 {
        for k in 1..=3 {
            let j = (i * 7919 + k * 104_729) % 60_000;
            text.push_str(&format!("{i} {j} {}\n", 1 + (i + k) % 9));
        }
    }
    eio::parse_graph(
        "sample.wel",
        text.as_bytes(),
        Format::EdgeList,
        &ReadOptions::default(),
    )
    .expect("the sample graph parses")
}

const SINGLE_FILE: [(Format, &str); 7] = [
    (Format::MatrixMarket, "g.mtx"),
    (Format::EdgeList, "g.el"),
    (Format::EdgeList, "g.el.gz"),
    (Format::Dimacs, "g.gr"),
    (Format::Adjacency, "g.adj"),
    (Format::Binary, "g.ebg"),
    (Format::Binary, "g.ebg.gz"),
];

#[test]
fn a_writer_that_fails_after_n_bytes_leaves_the_destination_as_it_was() {
    let g = sample_graph();
    for (format, name) in SINGLE_FILE {
        let bytes = eio::write_graph_bytes(&g, format).unwrap();
        assert!(bytes.len() > 1 << 20, "{name}: the sample is too small");
        for n in [0, 1, bytes.len() / 2, bytes.len() - 1] {
            for existing in [false, true] {
                let d = tempfile::tempdir().unwrap();
                let dest = d.path().join(name);
                if existing {
                    std::fs::write(&dest, b"old\n").unwrap();
                }
                let before = listing(d.path());
                let r =
                    write_atomically(&dest, |w| FailAfter { inner: w, left: n }.write_all(&bytes));
                let e = r.expect_err("the injected fault is an error");
                assert!(
                    e.to_string().contains(name) && e.to_string().contains("injected fault"),
                    "{name}: the error names the file and the cause: {e}"
                );
                assert_eq!(listing(d.path()), before, "{name} after {n} bytes");
                if existing {
                    assert_eq!(std::fs::read(&dest).unwrap(), b"old\n", "{name} after {n}");
                }
            }
        }
        // No fault: the file is whole.
        let d = tempfile::tempdir().unwrap();
        let dest = d.path().join(name);
        std::fs::write(&dest, b"old\n").unwrap();
        write_atomically(&dest, |w| {
            FailAfter {
                inner: w,
                left: bytes.len(),
            }
            .write_all(&bytes)
        })
        .unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), bytes, "{name}");
        assert_eq!(listing(d.path()), BTreeSet::from([name.to_string()]));
    }
}

#[test]
fn write_graph_replaces_whole_files_in_every_format() {
    let g = sample_graph();
    for (_, name) in SINGLE_FILE {
        let d = tempfile::tempdir().unwrap();
        let dest = d.path().join(name);
        std::fs::write(&dest, b"old\n").unwrap();
        eio::write_graph(&dest, &g, None).unwrap();
        let back = eio::read_graph(&dest, &ReadOptions::default()).unwrap();
        assert_eq!(back.adjacency, g.adjacency, "{name}");
        assert_eq!(listing(d.path()).len(), 1, "{name}: no temporary file left");
    }
}

#[test]
fn a_graphalytics_pair_is_written_whole_or_not_at_all() {
    let g = sample_graph();
    let d = tempfile::tempdir().unwrap();
    let e = d.path().join("g.e");
    std::fs::write(&e, b"old\n").unwrap();
    // The vertex file cannot be written (a folder has its name): the edge file, written
    // first, must not replace the old one either.
    std::fs::create_dir(d.path().join("g.v")).unwrap();
    let before = listing(d.path());
    let err = eio::write_graph(&e, &g, None).unwrap_err();
    assert!(err.to_string().contains("g.v"), "{err}");
    assert_eq!(std::fs::read(&e).unwrap(), b"old\n");
    assert_eq!(listing(d.path()), before);
    // Once the folder is gone, both files appear.
    std::fs::remove_dir(d.path().join("g.v")).unwrap();
    eio::write_graph(&e, &g, None).unwrap();
    assert_eq!(
        listing(d.path()),
        BTreeSet::from(["g.e".to_string(), "g.v".to_string()])
    );
    let back = eio::read_graph(&e, &ReadOptions::default()).unwrap();
    assert_eq!(back.arcs(), g.arcs());
}

#[test]
fn a_panic_or_a_drop_mid_write_leaves_no_file() {
    let d = tempfile::tempdir().unwrap();
    let dest = d.path().join("p.txt");
    let r = std::panic::catch_unwind(|| {
        write_atomically(&dest, |w| -> io::Result<()> {
            w.write_all(&[b'x'; 3 << 20])?;
            panic!("a bug mid-write");
        })
    });
    assert!(r.is_err());
    assert!(listing(d.path()).is_empty(), "{:?}", listing(d.path()));

    std::fs::write(&dest, b"old\n").unwrap();
    let mut f = AtomicFile::create(&dest).unwrap();
    let temp = f.temp_path().to_path_buf();
    assert_eq!(
        temp.parent(),
        dest.parent(),
        "the temporary file is beside it"
    );
    assert!(temp.exists());
    f.write_all(b"new\n").unwrap();
    drop(f);
    assert!(!temp.exists());
    assert_eq!(std::fs::read(&dest).unwrap(), b"old\n");
}

#[test]
fn the_temporary_file_keeps_the_extension_and_a_folder_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let f = AtomicFile::create(&d.path().join("plot.png")).unwrap();
    let name = f
        .temp_path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(
        name.starts_with(".plot.tmp-") && name.ends_with(".png"),
        "{name}"
    );
    drop(f);
    let e = write_atomically(d.path(), |w| w.write_all(b"x")).expect_err("a folder is not a file");
    assert!(e.to_string().contains("folder"), "{e}");
    assert!(listing(d.path()).is_empty());
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_keeps_pointing_at_the_replaced_file() {
    let d = tempfile::tempdir().unwrap();
    let target = d.path().join("real.txt");
    let link = d.path().join("link.txt");
    std::fs::write(&target, b"old\n").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    write_atomically(&link, |w| w.write_all(b"new\n")).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&target).unwrap(), b"new\n");
    assert_eq!(listing(d.path()).len(), 2);
}

/// The binary under faults: a file-size limit, a folder that is a file, a kill.
#[cfg(unix)]
mod binary {
    use std::collections::BTreeSet;
    use std::os::unix::process::CommandExt;
    use std::path::{Path, PathBuf};
    use std::process::{Command, Output, Stdio};
    use std::time::{Duration, Instant};

    use super::listing;

    fn bin() -> Command {
        Command::new(env!("CARGO_BIN_EXE_edgeblas"))
    }

    fn stderr(o: &Output) -> String {
        String::from_utf8_lossy(&o.stderr).into_owned()
    }

    fn ok(args: &[&str]) {
        let o = bin().args(args).output().expect("the binary runs");
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }

    /// Runs the binary with every file it writes limited to `bytes` (as `ulimit -f`
    /// does); SIGXFSZ is ignored, so that a write past the limit fails with EFBIG instead
    /// of killing the process (a shell's `ulimit -f` kills it: then too the rename never
    /// happens).
    fn run_limited(args: &[String], bytes: u64) -> Output {
        let mut c = bin();
        c.args(args);
        // SAFETY: the closure runs in the forked child before exec and calls only
        // async-signal-safe functions (setrlimit, signal) on values it owns.
        unsafe {
            c.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                Ok(())
            });
        }
        c.output().expect("the binary runs")
    }

    /// Every kind of output file the binary writes, each as a command whose first
    /// written file is `OUT/<name>` (`{out}` in the arguments is the output folder).
    fn cases() -> Vec<(&'static str, Vec<&'static str>)> {
        let power = "n=3000,gamma=2.5,dmin=2";
        let mut v: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
        for name in [
            "c.mtx", "c.el", "c.el.gz", "c.gr", "c.adj", "c.ebg", "c.ebg.gz", "c.e",
        ] {
            v.push((name, vec!["convert", "{in}", "{out}/{name}"]));
        }
        v.extend([
            (
                "r.el",
                vec![
                    "generate",
                    "rmat",
                    "--scale",
                    "11",
                    "--quiet",
                    "-o",
                    "{out}/{name}",
                ],
            ),
            (
                "cl.el",
                vec![
                    "generate",
                    "chung-lu",
                    "--power-law",
                    power,
                    "--quiet",
                    "-o",
                    "{out}/{name}",
                ],
            ),
            (
                "report.json",
                vec![
                    "generate",
                    "chung-lu",
                    "--power-law",
                    power,
                    "--quiet",
                    "--report",
                    "{out}/{name}",
                    "-o",
                    "{in}.unused.el",
                ],
            ),
            (
                "plot.png",
                vec![
                    "generate",
                    "chung-lu",
                    "--power-law",
                    power,
                    "--quiet",
                    "--plot",
                    "{out}/{name}",
                    "-o",
                    "{in}.unused.el",
                ],
            ),
            (
                "plot.svg",
                vec![
                    "generate",
                    "chung-lu",
                    "--power-law",
                    power,
                    "--quiet",
                    "--plot",
                    "{out}/{name}",
                    "-o",
                    "{in}.unused.el",
                ],
            ),
            (
                "levels.txt",
                vec!["bfs", "{in}", "--source", "0", "--levels", "{out}/{name}"],
            ),
            (
                "parents.txt",
                vec!["bfs", "{in}", "--source", "0", "--parents", "{out}/{name}"],
            ),
            (
                "distances.txt",
                vec![
                    "sssp",
                    "{in}",
                    "--source",
                    "0",
                    "--distances",
                    "{out}/{name}",
                ],
            ),
            (
                "predecessors.txt",
                vec![
                    "sssp",
                    "{in}",
                    "--source",
                    "0",
                    "--predecessors",
                    "{out}/{name}",
                ],
            ),
            (
                "ranks.txt",
                vec!["pagerank", "{in}", "--ranks", "{out}/{name}"],
            ),
            ("wcc.txt", vec!["wcc", "{in}", "--labels", "{out}/{name}"]),
            ("cdlp.txt", vec!["cdlp", "{in}", "--labels", "{out}/{name}"]),
            (
                "lcc.txt",
                vec!["lcc", "{in}", "--coefficients", "{out}/{name}"],
            ),
            (
                "bc.txt",
                vec![
                    "bc",
                    "{in}",
                    "--sources",
                    "0",
                    "--centrality",
                    "{out}/{name}",
                ],
            ),
            (
                "report.json",
                vec!["demo", "--scale", "0.1", "--quiet", "--out", "{out}"],
            ),
            (
                "demo.mtx",
                vec!["demo", "rmat", "--scale", "10", "--dir", "{out}"],
            ),
        ]);
        v
    }

    fn args(template: &[&str], input: &Path, out: &Path, name: &str) -> Vec<String> {
        template
            .iter()
            .map(|a| {
                a.replace("{in}", input.to_str().unwrap())
                    .replace("{out}", out.to_str().unwrap())
                    .replace("{name}", name)
            })
            .collect()
    }

    /// An undirected R-MAT graph of 2^11 vertices: every output of it is far above the
    /// 512-byte limit.
    fn input(dir: &Path) -> PathBuf {
        let p = dir.join("in.el");
        ok(&[
            "generate",
            "rmat",
            "--scale",
            "11",
            "--undirected",
            "--quiet",
            "-o",
            p.to_str().unwrap(),
        ]);
        p
    }

    fn assert_clean_error(o: &Output, file: &Path, what: &str) {
        let e = stderr(o);
        assert!(!o.status.success(), "{what}: expected a failure");
        // A command may have said what it did before the write failed.
        let line = e.lines().find(|l| l.starts_with("error: "));
        assert!(
            line.is_some_and(|l| l.contains(file.to_str().unwrap())),
            "{what}: an 'error:' line names {}: {e}",
            file.display()
        );
        assert!(!e.contains("panicked"), "{what}: {e}");
    }

    #[test]
    fn a_file_size_limit_is_a_clean_error_and_leaves_every_output_as_it_was() {
        let d = tempfile::tempdir().unwrap();
        let input = input(d.path());
        for (name, template) in cases() {
            for existing in [true, false] {
                let out = d.path().join(format!("out-{existing}"));
                let _ = std::fs::remove_dir_all(&out);
                std::fs::create_dir(&out).unwrap();
                let dest = out.join(name);
                if existing {
                    std::fs::write(&dest, b"old\n").unwrap();
                }
                let before = listing(&out);
                let a = args(&template, &input, &out, name);
                let o = run_limited(&a, 512);
                let what = format!("{a:?} (existing: {existing})");
                assert_clean_error(&o, &dest, &what);
                assert!(
                    stderr(&o).to_lowercase().contains("too large"),
                    "{what}: the cause is the limit: {}",
                    stderr(&o)
                );
                assert_eq!(listing(&out), before, "{what}");
                if existing {
                    assert_eq!(std::fs::read(&dest).unwrap(), b"old\n", "{what}");
                }
            }
        }
    }

    #[test]
    fn a_destination_in_a_folder_that_is_a_file_is_a_clean_error() {
        let d = tempfile::tempdir().unwrap();
        let input = input(d.path());
        let blocker = d.path().join("blocker");
        std::fs::write(&blocker, b"a file, not a folder\n").unwrap();
        for (name, template) in cases() {
            if template[0] == "demo" {
                // The demo makes its folder first: that error names the folder.
                continue;
            }
            let a = args(&template, &input, &blocker, name);
            let o = bin().args(&a).output().unwrap();
            assert_clean_error(&o, &blocker.join(name), &format!("{a:?}"));
        }
        assert_eq!(std::fs::read(&blocker).unwrap(), b"a file, not a folder\n");
    }

    /// Spawns `args`, waits until something changes in `out` (a new name, or `dest`'s
    /// size), kills the process at once and returns whether the kill came first.
    fn kill_when_writing(args: &[String], out: &Path, dest: &Path) -> bool {
        let before = listing(out);
        let len = |p: &Path| std::fs::metadata(p).map(|m| m.len()).ok();
        let old_len = len(dest);
        let mut child = bin()
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let start = Instant::now();
        loop {
            if child.try_wait().unwrap().is_some() {
                return false;
            }
            if listing(out) != before || len(dest) != old_len {
                child.kill().unwrap();
                let status = child.wait().unwrap();
                return !status.success();
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "{args:?}: nothing written in two minutes"
            );
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    #[test]
    fn a_process_killed_mid_write_leaves_the_destination_absent_or_as_it_was() {
        let d = tempfile::tempdir().unwrap();
        let big = d.path().join("big.ebg");
        ok(&[
            "generate",
            "rmat",
            "--scale",
            "17",
            "--quiet",
            "-o",
            big.to_str().unwrap(),
        ]);
        let cases: [(&str, bool, Vec<&str>); 3] = [
            ("big.el", true, vec!["convert", "{in}", "{out}/{name}"]),
            ("big.mtx", false, vec!["convert", "{in}", "{out}/{name}"]),
            (
                "gen.el",
                false,
                vec![
                    "generate",
                    "rmat",
                    "--scale",
                    "17",
                    "--quiet",
                    "-o",
                    "{out}/{name}",
                ],
            ),
        ];
        for (name, existing, template) in cases {
            let out = d.path().join(format!("out-{name}"));
            std::fs::create_dir(&out).unwrap();
            let dest = out.join(name);
            let reset = || {
                let _ = std::fs::remove_file(&dest);
                if existing {
                    std::fs::write(&dest, b"old\n").unwrap();
                }
            };
            let a = args(&template, &big, &out, name);
            // A fast machine may finish before the poll sees the write: try again, and
            // fail only if the kill never lands.
            let landed = (0..5).any(|_| {
                reset();
                kill_when_writing(&a, &out, &dest)
            });
            assert!(landed, "{a:?}: the kill never came before the end");
            if existing {
                assert_eq!(std::fs::read(&dest).unwrap(), b"old\n", "{a:?}");
            } else {
                assert!(!dest.exists(), "{a:?}: a killed write left {name}");
            }
            // What a kill may leave: the hidden temporary file, never a partial `name`.
            let left: BTreeSet<String> = listing(&out)
                .into_iter()
                .filter(|f| !(existing && f == name))
                .collect();
            let stem = name.split('.').next().unwrap();
            for f in &left {
                assert!(
                    f.starts_with(&format!(".{stem}")) && f.contains(".tmp-"),
                    "{a:?}: left {f}"
                );
                std::fs::remove_file(out.join(f)).unwrap();
            }
        }
    }

    #[test]
    fn convert_onto_itself_replaces_the_file_and_says_so() {
        let d = tempfile::tempdir().unwrap();
        let input = input(d.path());
        let before = std::fs::read(&input).unwrap();
        let o = bin()
            .args(["convert", input.to_str().unwrap(), input.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("replaced") && stderr(&o).contains("in place"),
            "{}",
            stderr(&o)
        );
        // Rewritten whole, the same graph (an edge list of it reads back the same).
        let after = std::fs::read(&input).unwrap();
        assert!(!after.is_empty());
        let opts = edgeblas::io::ReadOptions::default();
        let a = edgeblas::io::parse_graph("a.el", &before, edgeblas::io::Format::EdgeList, &opts)
            .unwrap();
        let b = edgeblas::io::parse_graph("b.el", &after, edgeblas::io::Format::EdgeList, &opts)
            .unwrap();
        assert_eq!(a.adjacency, b.adjacency);
        // Under a file-size limit it fails and the file stays as it was.
        let a = vec![
            "convert".to_string(),
            input.to_str().unwrap().to_string(),
            input.to_str().unwrap().to_string(),
        ];
        let o = run_limited(&a, 512);
        assert_clean_error(&o, &input, "convert X X under a limit");
        assert_eq!(std::fs::read(&input).unwrap(), after);
        assert_eq!(listing(d.path()).len(), 1);
    }
}
