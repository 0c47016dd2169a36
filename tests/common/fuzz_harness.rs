//! What every reader must do with any bytes: return `Ok` or `Err`, never panic, and
//! whatever reads `Ok` must round-trip through the writers (the native binary format
//! exactly; Matrix Market keeps structure and values; a degree distribution through its
//! text form). Shared by the fuzz targets in `fuzz/` and by the regression tests in
//! `tests/suite/fuzz_regressions.rs`.
//!
//! The fuzz targets read with the allocation guard's floor lowered to
//! [`FUZZ_MIN_VERTEX_LIMIT`] (2^16 instead of 2^24): a 20-byte file naming id 10^7 is
//! then an error (as a 20-byte file naming id 10^9 is by default) instead of a 10^7-vertex
//! graph, so a run costs microseconds, not seconds. The guard's other rule (64 vertices
//! per byte of file) and every reader's code path stay as they are; the regression tests
//! also run every kept input with the default floor.

use edgeblas::generate::chung_lu::Degrees;
use edgeblas::io::{self, Format, Graph, ReadOptions};

/// The fuzz targets, by name.
#[allow(dead_code)]
pub const TARGETS: &[&str] = &[
    "matrix_market",
    "edge_list",
    "edge_list_gz",
    "dimacs",
    "graphalytics",
    "adjacency",
    "binary",
    "degrees",
];

/// The kept fuzz inputs of `kind` (`"corpus"` or `"regressions"`, folders of `fuzz/`), as
/// (target, path, bytes), by target in [`TARGETS`] order and then by file name. For the
/// main crate's tests (the path is taken from its manifest folder).
#[allow(dead_code)]
pub fn kept_inputs(kind: &str) -> Vec<(&'static str, std::path::PathBuf, Vec<u8>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind);
    let mut inputs = Vec::new();
    for target in TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).expect("read a fuzz input");
            inputs.push((*target, f, data));
        }
    }
    inputs
}

/// The [`ReadOptions::min_vertex_limit`] the fuzz targets read with.
pub const FUZZ_MIN_VERTEX_LIMIT: u64 = 1 << 16;

/// The most memory, in bytes, that [`check_with`] may take at once for `data`: in
/// proportion to the input's size (decompressed, for gzip) and to the vertex count the
/// readers allow for that size, `max(min_vertex_limit, 64 * bytes)`. A header that
/// declares 10^12 vertices in a 50-byte file must be an error, not an allocation; a file
/// may cost what its size lets it name (CSR offsets per vertex, the arcs, and the round
/// trips' copies and texts).
#[allow(dead_code)]
pub fn memory_bound(target: &str, data: &[u8], min_vertex_limit: u64) -> usize {
    let bytes = if target == "edge_list_gz" {
        data.len().max(gunzipped_len(data))
    } else {
        data.len()
    };
    let opts = ReadOptions {
        min_vertex_limit,
        ..ReadOptions::default()
    };
    // A directed degree histogram is bounded by the same rule without the u32 cap.
    let vertices = (opts.vertex_limit(bytes) as usize).max(64 * bytes);
    (1 << 20) + MEMORY_PER_BYTE * bytes + MEMORY_PER_VERTEX * vertices
}

/// [`memory_bound`]'s bytes of memory per byte of input.
pub const MEMORY_PER_BYTE: usize = 256;

/// [`memory_bound`]'s bytes of memory per vertex the input's size allows.
pub const MEMORY_PER_VERTEX: usize = 128;

/// How many bytes the gzip reader can get out of `data` before its end or an error.
fn gunzipped_len(data: &[u8]) -> usize {
    let mut d = flate2::read::MultiGzDecoder::new(data);
    let mut buf = [0u8; 1 << 14];
    let mut total = 0;
    loop {
        match std::io::Read::read(&mut d, &mut buf) {
            Ok(0) | Err(_) => return total,
            Ok(k) => total += k,
        }
    }
}

/// Feeds `data` to the reader(s) of `target` as the fuzz targets do (with
/// [`FUZZ_MIN_VERTEX_LIMIT`]); panics only on a real bug.
#[allow(dead_code)]
pub fn check(target: &str, data: &[u8]) {
    check_with(target, data, FUZZ_MIN_VERTEX_LIMIT);
}

/// [`check`] with the allocation guard's floor `min_vertex_limit`
/// ([`io::MIN_VERTEX_LIMIT`] is what users get).
pub fn check_with(target: &str, data: &[u8], min_vertex_limit: u64) {
    let each = |format, name, data: &[u8]| each(format, name, data, min_vertex_limit);
    match target {
        "matrix_market" => each(Format::MatrixMarket, "fuzz.mtx", data),
        "edge_list" => each(Format::EdgeList, "fuzz.txt", data),
        "edge_list_gz" => {
            // The bytes as a (usually broken) gzip stream, and the bytes gzipped.
            each(Format::EdgeList, "fuzz.txt.gz", data);
            each(Format::EdgeList, "fuzz.txt.gz", &gzip(data));
        }
        "dimacs" => each(Format::Dimacs, "fuzz.gr", data),
        "graphalytics" => {
            // The .e part, then the .v part after the first NUL byte.
            let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
            let (e, v) = (&data[..cut], data.get(cut + 1..).unwrap_or(&[]));
            for undirected in [false, true] {
                let opts = ReadOptions {
                    format: None,
                    undirected,
                    min_vertex_limit,
                };
                if let Ok(g) = io::parse_graphalytics("fuzz.e", e, "fuzz.v", v, &opts) {
                    round_trip(&g);
                }
            }
        }
        "adjacency" => each(Format::Adjacency, "fuzz.adj", data),
        "binary" => each(Format::Binary, "fuzz.ebg", data),
        "degrees" => degrees(data, min_vertex_limit),
        other => panic!("unknown fuzz target {other}"),
    }
}

fn each(format: Format, name: &str, data: &[u8], min_vertex_limit: u64) {
    for undirected in [false, true] {
        let opts = ReadOptions {
            format: Some(format),
            undirected,
            min_vertex_limit,
        };
        if let Ok(g) = io::parse_graph(name, data, format, &opts) {
            round_trip(&g);
        }
    }
}

fn round_trip(g: &Graph) {
    // What a writer gives back must read whatever the floor the graph was read with.
    let plain = ReadOptions {
        min_vertex_limit: (g.vertices() as u64).max(io::MIN_VERTEX_LIMIT),
        ..ReadOptions::default()
    };
    let b = io::write_graph_bytes(g, Format::Binary).expect("the binary format holds any graph");
    let back = io::parse_graph("rt.ebg", &b, Format::Binary, &plain)
        .expect("a written binary graph reads back");
    assert_eq!(&back, g, "binary round trip");

    let m = io::write_graph_bytes(g, Format::MatrixMarket).expect("Matrix Market holds any graph");
    let back = io::parse_graph("rt.mtx", &m, Format::MatrixMarket, &plain)
        .expect("a written Matrix Market graph reads back");
    assert_eq!(
        back.adjacency, g.adjacency,
        "Matrix Market round trip: structure"
    );
    assert_eq!(back.weights, g.weights, "Matrix Market round trip: values");
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).expect("writing to memory");
    e.finish().expect("writing to memory")
}

/// The Chung-Lu degree-distribution reader (`degree,count` histograms, `out,in,count`
/// histograms, one degree or `out in` per line): `Ok` or `Err`; an `Ok` distribution is
/// valid ([`Degrees::validate`]) and reads back the same from its text form.
fn degrees(data: &[u8], min_vertex_limit: u64) {
    for directed in [false, true] {
        let Ok(d) = Degrees::parse_with_limit("fuzz.csv", data, directed, min_vertex_limit) else {
            continue;
        };
        if let Err(e) = d.validate() {
            panic!("parsed {d:?} fails validate: {e}");
        }
        let (text, as_directed) = degree_text(&d);
        let back = Degrees::parse_with_limit("rt.csv", text.as_bytes(), as_directed, u64::MAX)
            .unwrap_or_else(|e| panic!("written degrees {d:?} do not read back: {e}"));
        assert_eq!(back, d, "degree distribution text round trip");
    }
}

/// A degree distribution in the reader's text form, and whether to read it as directed.
fn degree_text(d: &Degrees) -> (String, bool) {
    use std::fmt::Write;
    let mut t = String::new();
    match d {
        Degrees::Sequence(s) => {
            for x in s {
                writeln!(t, "{x}").unwrap();
            }
            (t, false)
        }
        Degrees::Histogram(h) => {
            t.push_str("degree,count\n");
            for (x, c) in h {
                writeln!(t, "{x},{c}").unwrap();
            }
            (t, false)
        }
        Degrees::Directed { out, inn } => {
            for (o, i) in out.iter().zip(inn) {
                writeln!(t, "{o} {i}").unwrap();
            }
            (t, true)
        }
    }
}
