//! Every reader against every other format's files: each either reads the file right
//! (the same arcs and weights, by the ids as written, as the file's own reader gives) or
//! refuses it with an error; none gives a different graph. A Matrix Market file read as
//! any text format is refused by name (`this is a Matrix Market file`), since its banner
//! would otherwise be a comment and its size line an arc.

use std::collections::BTreeMap;

use edgeblas::error::Error;
use edgeblas::io::{
    Format, Graph, ReadOptions, ValueType, VertexIds, parse_graph, parse_graphalytics, write_graph,
};
use edgeblas::matrix::{CooBuilder, Duplicates};

/// One sample file: its format, a name, its bytes, and (for Graphalytics) the `.v`.
struct Sample {
    format: Format,
    name: String,
    bytes: Vec<u8>,
    vertices: Option<Vec<u8>>,
}

/// `(external src, external dst) -> weight bits` of a graph (weight 0 bits without values).
fn arcs(g: &Graph) -> BTreeMap<(u64, u64), u64> {
    let w = g.weights.as_deref();
    g.adjacency
        .iter()
        .enumerate()
        .map(|(k, (i, j, ()))| {
            let x = w.map_or(0, |w| w[k].to_bits());
            ((g.external(i), g.external(j as usize)), x)
        })
        .collect()
}

/// A small directed graph with weights when `weighted`, as an `io::Graph`.
fn graph(seed: u64, weighted: bool) -> Graph {
    let n = 9;
    let mut b = CooBuilder::new(n, n);
    let mut s = seed;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s >> 33
    };
    for _ in 0..24 {
        let (i, j) = ((next() % n as u64) as usize, (next() % n as u64) as usize);
        let _ = b.push(i, j, ());
    }
    let a = b.build(Duplicates::KeepFirst).unwrap();
    let weights = weighted.then(|| (0..a.nnz()).map(|k| (k % 5 + 1) as f64).collect());
    Graph {
        records: a.nnz() as u64,
        adjacency: a,
        value_type: if weighted {
            ValueType::Integer
        } else {
            ValueType::Pattern
        },
        weights,
        ids: VertexIds::Offset(0),
        directed: true,
        duplicates: 0,
    }
}

/// The samples: every writable format from two graphs (weighted and not), a Graphalytics
/// pair, and hand-written files in the forms found in the wild (a SNAP header, a
/// symmetric Matrix Market file with comments).
fn samples() -> Vec<Sample> {
    let dir = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    for (seed, weighted) in [(1, false), (2, true)] {
        let g = graph(seed, weighted);
        for format in [
            Format::MatrixMarket,
            Format::EdgeList,
            Format::Dimacs,
            Format::Adjacency,
            Format::Binary,
        ] {
            if format == Format::Adjacency && weighted {
                continue;
            }
            let bytes = edgeblas::io::write_graph_bytes(&g, format).unwrap();
            out.push(Sample {
                format,
                name: format!("g{seed}.{}", format.name()),
                bytes,
                vertices: None,
            });
        }
        let e = dir.path().join(format!("g{seed}.e"));
        write_graph(&e, &g, Some(Format::Graphalytics)).unwrap();
        out.push(Sample {
            format: Format::Graphalytics,
            name: format!("g{seed}.e"),
            bytes: std::fs::read(&e).unwrap(),
            vertices: Some(std::fs::read(e.with_extension("v")).unwrap()),
        });
    }
    let text = |format, name: &str, t: &str| Sample {
        format,
        name: name.to_string(),
        bytes: t.as_bytes().to_vec(),
        vertices: None,
    };
    out.push(text(
        Format::EdgeList,
        "snap.txt",
        "# Directed graph: web-Tiny.txt\n# Nodes: 4 Edges: 4\n# FromNodeId\tToNodeId\n0\t1\n0\t2\n2\t3\n3\t0\n",
    ));
    out.push(text(
        Format::MatrixMarket,
        "sym.mtx",
        "%%MatrixMarket matrix coordinate integer symmetric\n% a comment\n%%GraphBLAS type int64_t\n4 4 3\n2 1 7\n3 2 8\n4 1 9\n",
    ));
    out.push(text(
        Format::MatrixMarket,
        "pattern.mtx",
        "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n",
    ));
    out.push(text(
        Format::Dimacs,
        "road.gr",
        "c 9th DIMACS\np sp 3 2\na 1 2 4\na 2 3 5\n",
    ));
    out.push(text(Format::Adjacency, "tiny.adj", "0 1 2\n1 2\n2\n"));
    out
}

/// Reads `s` as `format`; a Graphalytics reading takes the sample's `.v`, or else a
/// vertex file listing 0..=20 (ids every sample uses).
fn read_as(s: &Sample, format: Format) -> edgeblas::Result<Graph> {
    let opts = ReadOptions::default();
    if format == Format::Graphalytics {
        let all: String = (0..=20).map(|i| format!("{i}\n")).collect();
        let v = s.vertices.clone().unwrap_or_else(|| all.into_bytes());
        return parse_graphalytics(&s.name, &s.bytes, "x.v", &v, &opts);
    }
    parse_graph(&s.name, &s.bytes, format, &opts)
}

#[test]
fn every_reader_reads_every_other_format_right_or_refuses_it() {
    let readers = [
        Format::MatrixMarket,
        Format::EdgeList,
        Format::Dimacs,
        Format::Graphalytics,
        Format::Adjacency,
        Format::Binary,
    ];
    let mut refused = 0;
    for s in samples() {
        let truth = read_as(&s, s.format).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        for &r in readers.iter().filter(|&&r| r != s.format) {
            match read_as(&s, r) {
                Err(e) => {
                    refused += 1;
                    if s.format == Format::MatrixMarket && r != Format::Binary {
                        assert!(
                            matches!(
                                e,
                                Error::WrongFormat {
                                    line: 1,
                                    found: Format::MatrixMarket,
                                    ..
                                }
                            ),
                            "{} read as {r}: {e}",
                            s.name
                        );
                        assert_eq!(
                            e.to_string(),
                            format!(
                                "{}:1: this is a Matrix Market file, not {r}; read it as mtx",
                                s.name
                            )
                        );
                    }
                }
                Ok(g) => assert_eq!(
                    arcs(&g),
                    arcs(&truth),
                    "{} (a {} file) read as {r} gives another graph",
                    s.name,
                    s.format
                ),
            }
        }
    }
    assert!(refused > 0);
}

#[test]
fn a_banner_after_blanks_or_in_capitals_or_gzipped_is_still_refused() {
    let mm = "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n";
    let cases = [
        mm.to_string(),
        format!("  {mm}"),
        mm.to_ascii_uppercase(),
        mm.replace('\n', "\r\n"),
    ];
    for text in &cases {
        for f in [Format::EdgeList, Format::Dimacs, Format::Adjacency] {
            let e = parse_graph("m.txt", text.as_bytes(), f, &ReadOptions::default());
            assert!(
                matches!(e, Err(Error::WrongFormat { .. })),
                "{text:?} as {f}: {e:?}"
            );
        }
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, mm.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let e = parse_graph("m.txt.gz", &gz, Format::EdgeList, &ReadOptions::default());
    assert!(matches!(e, Err(Error::WrongFormat { .. })), "{e:?}");
    // A `%` comment that is not the banner stays a comment of an edge list.
    let g = parse_graph(
        "c.txt",
        b"% MatrixMarket-like words in a comment\n0 1\n",
        Format::EdgeList,
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(g.arcs(), 1);
}
