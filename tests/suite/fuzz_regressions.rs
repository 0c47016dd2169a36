//! The fuzzers' findings, kept: every input in `fuzz/regressions/TARGET/` (inputs that
//! once crashed, hung or over-allocated a reader, or were flagged slow) and in the
//! minimized corpora `fuzz/corpus/TARGET/` goes through the same harness as the fuzz
//! targets: `Ok` or `Err`, never a panic, `Ok` results round-trip, each input within a
//! time bound. Each input runs twice: with the fuzz targets' lowered vertex-limit floor
//! (what the fuzzer saw) and with the default floor (what users get).

use crate::fuzz_harness;

use std::time::{Duration, Instant};

use edgeblas::generate::chung_lu::{Degrees, parse_degrees};
use edgeblas::io::{self, Format, MIN_VERTEX_LIMIT, ReadOptions, parse_graph};

/// Inputs are at most 4 KiB, but with the default floor the ids they name may imply up
/// to 2^24 vertices (the readers' limit for small files), and every reader, writer and
/// round trip is linear in that: generous for a debug build on a loaded 2-core machine.
const PER_INPUT: Duration = Duration::from_secs(if cfg!(debug_assertions) { 120 } else { 10 });

fn run_folder(kind: &str) -> usize {
    let inputs = fuzz_harness::kept_inputs(kind);
    for (target, f, data) in &inputs {
        for floor in [fuzz_harness::FUZZ_MIN_VERTEX_LIMIT, MIN_VERTEX_LIMIT] {
            let t = Instant::now();
            fuzz_harness::check_with(target, data, floor);
            let took = t.elapsed();
            assert!(
                took < PER_INPUT,
                "{}: {target} (floor {floor}) took {took:?}",
                f.display()
            );
        }
    }
    inputs.len()
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

/// The knob the fuzz targets turn: `ReadOptions::min_vertex_limit` refuses, with an error
/// naming the file, the line and the numbers, what the default floor accepts; the rule of
/// 64 vertices per byte of file still holds above it.
#[test]
fn a_lowered_vertex_limit_is_enforced_with_a_clear_error() {
    let low = ReadOptions {
        min_vertex_limit: 1000,
        ..ReadOptions::default()
    };
    assert_eq!(ReadOptions::default().min_vertex_limit, MIN_VERTEX_LIMIT);
    assert_eq!(
        ReadOptions::default().vertex_limit(10),
        io::vertex_limit(10)
    );
    assert_eq!(low.vertex_limit(10), 1000);
    assert_eq!(low.vertex_limit(100), 6400);

    // Edge list: an id implies the vertex count.
    let el = b"0 1\n5000 2\n";
    let g = parse_graph("big.txt", el, Format::EdgeList, &ReadOptions::default()).unwrap();
    assert_eq!(g.vertices(), 5001);
    let e = parse_graph("big.txt", el, Format::EdgeList, &low).unwrap_err();
    assert_eq!(
        e.to_string(),
        "big.txt:2: source id 5000 implies 5001 vertices, but the file has only 11 bytes \
         (more than 1000 vertices need at least one byte of file per 64 vertices)"
    );
    // Under the floor, or within 64 vertices per byte, is accepted.
    assert_eq!(
        parse_graph("ok.txt", b"0 999\n", Format::EdgeList, &low)
            .unwrap()
            .vertices(),
        1000
    );
    let mut padded = b"0 1999\n".to_vec();
    padded.extend(std::iter::repeat_n(b'#', 40).chain(*b"\n"));
    assert_eq!(
        parse_graph("pad.txt", &padded, Format::EdgeList, &low)
            .unwrap()
            .vertices(),
        2000
    );

    // Headers: Matrix Market and DIMACS declare the count.
    let mm = b"%%MatrixMarket matrix coordinate pattern general\n5000 5000 1\n1 2\n";
    assert!(parse_graph("big.mtx", mm, Format::MatrixMarket, &ReadOptions::default()).is_ok());
    let e = parse_graph("big.mtx", mm, Format::MatrixMarket, &low).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "big.mtx:2: declared 5000 vertices, but the file has only {} bytes (more than \
             1000 vertices need at least one byte of file per 64 vertices)",
            mm.len()
        )
    );
    let gr = b"p sp 5000 1\na 1 2 3\n";
    assert!(parse_graph("big.gr", gr, Format::Dimacs, &ReadOptions::default()).is_ok());
    let e = parse_graph("big.gr", gr, Format::Dimacs, &low).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("big.gr:1: declared 5000 vertices"),
        "{e}"
    );

    // Gzip: the limit is on the decompressed size, as by default.
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut z, el).unwrap();
    let z = z.finish().unwrap();
    let e = parse_graph("big.txt.gz", &z, Format::EdgeList, &low).unwrap_err();
    assert!(e.to_string().contains("the file has only 11 bytes"), "{e}");
}

/// Found while writing the `degrees` target: a directed `out,in,count` histogram is
/// expanded to one pair per vertex, and a 26-byte file could ask for 4 * 10^9 of them
/// (64 GB). Now such a count needs a file in proportion, as graph files do.
#[test]
fn a_directed_histogram_cannot_ask_for_more_vertices_than_its_size_allows() {
    let huge = b"out,in,count\n0,0,4000000000\n";
    let e = parse_degrees("h.csv", huge, true).unwrap_err();
    assert_eq!(
        e.to_string(),
        "h.csv: the counts add up to 4000000000 vertices, but the file has only 28 bytes (a \
         directed histogram is expanded to one (out, in) pair per vertex, and more than \
         16777216 vertices need at least one byte of file per 64 vertices)"
    );
    // Within the floor it is expanded, and the floor can be lowered.
    let fine = b"out,in,count\n1,1,3000\n2,0,1\n";
    let d = parse_degrees("h.csv", fine, true).unwrap();
    assert_eq!(d.vertices(), 3001);
    assert!(Degrees::parse_with_limit("h.csv", fine, true, 1000).is_err());
    // The undirected histogram stays compact, so any count up to 2^32 - 1 is fine.
    let compact = parse_degrees("h.csv", b"degree,count\n1,4000000000\n", false).unwrap();
    assert_eq!(compact.vertices(), 4_000_000_000);
}
