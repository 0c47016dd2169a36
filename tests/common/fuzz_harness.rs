//! What every reader must do with any bytes: return `Ok` or `Err`, never panic, and
//! whatever reads `Ok` must round-trip through the writers (the native binary format
//! exactly; Matrix Market keeps structure and values). Shared by the fuzz targets in
//! `fuzz/` and by the regression tests in `tests/fuzz_regressions.rs`.

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
];

/// Feeds `data` to the reader(s) of `target`; panics only on a real bug.
pub fn check(target: &str, data: &[u8]) {
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
                };
                if let Ok(g) = io::parse_graphalytics("fuzz.e", e, "fuzz.v", v, &opts) {
                    round_trip(&g);
                }
            }
        }
        "adjacency" => each(Format::Adjacency, "fuzz.adj", data),
        "binary" => each(Format::Binary, "fuzz.ebg", data),
        other => panic!("unknown fuzz target {other}"),
    }
}

fn each(format: Format, name: &str, data: &[u8]) {
    for undirected in [false, true] {
        let opts = ReadOptions {
            format: Some(format),
            undirected,
        };
        if let Ok(g) = io::parse_graph(name, data, format, &opts) {
            round_trip(&g);
        }
    }
}

fn round_trip(g: &Graph) {
    let plain = ReadOptions::default();
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
