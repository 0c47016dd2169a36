//! The fuzzers' findings, kept: every input in `fuzz/regressions/TARGET/` (inputs that
//! once crashed, hung or over-allocated a reader) and in the minimized corpora
//! `fuzz/corpus/TARGET/` goes through the same harness as the fuzz targets: `Ok` or
//! `Err`, never a panic, `Ok` graphs round-trip, each input within a time bound.

#[path = "common/fuzz_harness.rs"]
mod fuzz_harness;

use std::path::Path;
use std::time::{Duration, Instant};

/// Inputs are at most 4 KiB, but the ids they name may imply up to 2^24 vertices (the
/// readers' limit for small files), and every reader, writer and round trip is linear in
/// that: generous for a debug build on a loaded 2-core machine.
const PER_INPUT: Duration = Duration::from_secs(if cfg!(debug_assertions) { 120 } else { 10 });

fn run_folder(kind: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind);
    let mut count = 0;
    for target in fuzz_harness::TARGETS {
        let dir = root.join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).expect("read a fuzz input");
            let t = Instant::now();
            fuzz_harness::check(target, &data);
            let took = t.elapsed();
            assert!(took < PER_INPUT, "{}: {target} took {took:?}", f.display());
            count += 1;
        }
    }
    count
}

#[test]
fn crashing_inputs_stay_fixed() {
    let n = run_folder("regressions");
    eprintln!("{n} regression inputs");
}

#[test]
fn minimized_corpora_pass_the_harness() {
    let n = run_folder("corpus");
    assert!(n > 0, "fuzz/corpus holds the minimized corpora; none found");
}
