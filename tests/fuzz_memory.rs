//! Memory in proportion to the input: every kept fuzz input (`fuzz/corpus/`,
//! `fuzz/regressions/`) and a set of hostile headers go through the fuzz harness under a
//! counting allocator, and none may take more memory at once than
//! `fuzz_harness::memory_bound` allows (a constant, 256 bytes per byte of input, 128 per
//! vertex the input's size allows), with the fuzz targets' lowered vertex-limit floor and
//! with the default one. The fuzz targets assert the same bound on every input they run.
//!
//! One test in its own binary: the allocator's counters are process-wide.

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
#[path = "common/fuzz_harness.rs"]
mod fuzz_harness;

use counting_alloc::peak_bytes;
use edgeblas::io::MIN_VERTEX_LIMIT;
use fuzz_harness::{FUZZ_MIN_VERTEX_LIMIT, check_with, kept_inputs, memory_bound};

/// Headers, ids and counts that name far more vertices or arcs than their files hold.
fn hostile() -> Vec<(&'static str, Vec<u8>)> {
    let mut binary = b"EBG".to_vec();
    binary.extend([0xff; 61]);
    // The real magic and version, then counts the 64-byte file cannot hold.
    let header = |n: u64, nnz: u64, flags: u32| {
        let mut b = edgeblas::io::binary::MAGIC.to_vec();
        b.extend(edgeblas::io::binary::VERSION.to_le_bytes());
        b.extend(flags.to_le_bytes());
        for x in [n, nnz, 0, 0, 0] {
            b.extend(x.to_le_bytes());
        }
        b.extend([0u8; 8]);
        b
    };
    vec![
        (
            "matrix_market",
            b"%%MatrixMarket matrix coordinate real general\n1000000000000 1000000000000 1000000000000\n1 1 1\n".to_vec(),
        ),
        (
            "matrix_market",
            b"%%MatrixMarket matrix coordinate pattern symmetric\n4000000000 4000000000 3\n1 2\n".to_vec(),
        ),
        ("dimacs", b"p sp 1000000000000 5\na 1 2 3\n".to_vec()),
        ("dimacs", b"p sp 5 1000000000000\na 1 2 3\n".to_vec()),
        ("edge_list", b"0 4294967294\n".to_vec()),
        ("edge_list", b"4294967295 0 1.5\n".to_vec()),
        ("edge_list_gz", b"0 100000000\n".to_vec()),
        ("adjacency", b"0 1 2 3 4000000000\n".to_vec()),
        ("graphalytics", b"0 1\n\x000\n1\n99999999999\n".to_vec()),
        ("binary", binary),
        ("binary", header(4_000_000_000, 1 << 33, 0x2)),
        ("binary", header(1 << 20, 1 << 30, 0x1 | 0x8 | 0x10)),
        ("degrees", b"degree,count\n3,4000000000\n".to_vec()),
        ("degrees", b"out,in,count\n1,1,4000000000\n".to_vec()),
        ("degrees", b"4000000000\n1\n".to_vec()),
    ]
}

#[test]
fn no_input_takes_more_memory_than_its_size_allows() {
    let mut inputs = hostile()
        .into_iter()
        .map(|(t, d)| {
            let name = format!("hostile {t} input {:?}", String::from_utf8_lossy(&d));
            (t, name, d)
        })
        .collect::<Vec<_>>();
    for kind in ["regressions", "corpus"] {
        inputs.extend(
            kept_inputs(kind)
                .into_iter()
                .map(|(t, f, d)| (t, f.display().to_string(), d)),
        );
    }
    assert!(
        inputs.len() > 100,
        "fuzz/corpus holds the minimized corpora; too few found"
    );
    let mut worst = 0.0f64;
    for (target, name, data) in &inputs {
        for floor in [FUZZ_MIN_VERTEX_LIMIT, MIN_VERTEX_LIMIT] {
            let bound = memory_bound(target, data, floor);
            let peak = peak_bytes(|| check_with(target, data, floor));
            assert!(
                peak <= bound,
                "{name}: {target} (floor {floor}) took {peak} bytes at once, bound {bound}"
            );
            worst = worst.max(peak as f64 / bound as f64);
            if std::env::var_os("EDGEBLAS_MEMORY_STATS").is_some() && floor == FUZZ_MIN_VERTEX_LIMIT
            {
                println!("{target} {} {peak} {bound}", data.len());
            }
        }
    }
    eprintln!(
        "{} inputs, the largest share of its bound one took: {worst:.3}",
        inputs.len()
    );
}
