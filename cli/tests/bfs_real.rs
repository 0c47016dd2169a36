//! BFS through the command line on the real graphs of ../shared/data/real (skipped when
//! absent): every policy and thread count writes the same parent file.

#[path = "../../tests/common/real_figures.rs"]
mod real_figures;

use std::path::Path;

use real_figures::{FIGURES, undirected_edge_list};

/// Through the command line: every policy at 1 and 2 threads writes the same parent
/// file byte for byte, `--validate` passes, and the JSON carries the README figures.
#[test]
#[cfg_attr(not(shared_data), ignore = "../shared/data is absent")]
fn cli_parent_files_are_identical_on_the_real_graphs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/real");
    if !dir.is_dir() {
        eprintln!("SKIP: {} is absent", dir.display());
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for &(file, id, reached, depth, sum) in FIGURES {
        let path = dir.join(file);
        if !path.exists() {
            eprintln!("SKIP: {} is absent", path.display());
            continue;
        }
        let mut first: Option<Vec<u8>> = None;
        for policy in ["beamer", "gunrock", "ligra", "xbfs", "push", "pull"] {
            for threads in ["1", "2"] {
                let out = tmp
                    .path()
                    .join(format!("{file}.{policy}.{threads}.parents"));
                let id = id.to_string();
                let mut args = vec![
                    "bfs",
                    path.to_str().unwrap(),
                    "--source",
                    &id,
                    "--policy",
                    policy,
                    "--threads",
                    threads,
                    "--validate",
                    "--json",
                    "--parents",
                    out.to_str().unwrap(),
                ];
                if undirected_edge_list(file) {
                    args.push("--undirected");
                }
                let o = std::process::Command::new(env!("CARGO_BIN_EXE_edgeblas"))
                    .args(&args)
                    .output()
                    .unwrap();
                assert!(
                    o.status.success(),
                    "{args:?}: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                let js = String::from_utf8_lossy(&o.stdout);
                for (key, want) in [
                    ("\"reached\":", reached as u64),
                    ("\"max_depth\":", depth as u64),
                    ("\"depth_sum\":", sum),
                ] {
                    let at = js.find(key).expect(key) + key.len();
                    let got: u64 = js[at..]
                        .split(|c: char| !c.is_ascii_digit())
                        .next()
                        .unwrap()
                        .parse()
                        .unwrap();
                    assert_eq!(got, want, "{file} {policy} {threads}T {key}");
                }
                assert!(js.contains("\"valid\":true"), "{file} {policy}");
                let bytes = std::fs::read(&out).unwrap();
                match &first {
                    None => first = Some(bytes),
                    Some(f) => assert!(f == &bytes, "{file}: {policy} {threads}T parents differ"),
                }
            }
        }
    }
}
