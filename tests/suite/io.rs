//! Graph files: good files load to the expected arcs (CRLF, comments, no final newline,
//! gzip); every malformed case is an error naming the file and the line; writers round
//! trip; random and mutated bytes never panic a parser (the degree-distribution reader
//! of the Chung-Lu generator included).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use edgeblas::error::Error;
use edgeblas::generate::chung_lu::parse_degrees;
use edgeblas::io::{
    Format, Graph, ReadOptions, ValueType, VertexIds, binary, parse_graph, parse_graphalytics,
    read_graph, write_graph,
};
use quickcheck::{QuickCheck, TestResult};

fn opts() -> ReadOptions {
    ReadOptions::default()
}

fn undirected() -> ReadOptions {
    ReadOptions {
        format: None,
        undirected: true,
        ..ReadOptions::default()
    }
}

fn parse(name: &str, text: &str, format: Format) -> Graph {
    parse_graph(name, text.as_bytes(), format, &opts()).unwrap_or_else(|e| panic!("{e}"))
}

/// The arcs as `(external src, external dst)`.
fn arcs(g: &Graph) -> Vec<(u64, u64)> {
    g.adjacency
        .iter()
        .map(|(i, j, ())| (g.external(i), g.external(j as usize)))
        .collect()
}

fn weighted_arcs(g: &Graph) -> Vec<(u64, u64, f64)> {
    let w = g.weights.as_ref().expect("weights");
    arcs(g)
        .into_iter()
        .zip(w)
        .map(|((a, b), &w)| (a, b, w))
        .collect()
}

/// Parses `bytes` as `format`, expects an error, and checks it reads `name:line:` (or
/// `name:` with no line when `line` is 0) and contains `needle`.
fn expect_err(name: &str, bytes: &[u8], format: Format, line: u64, needle: &str) -> String {
    let e = match parse_graph(name, bytes, format, &opts()) {
        Ok(g) => panic!("{name}: expected an error, got {} arcs", g.arcs()),
        Err(e) => e.to_string(),
    };
    let head = if line == 0 {
        format!("{name}: ")
    } else {
        format!("{name}:{line}: ")
    };
    assert!(e.starts_with(&head), "{e:?} should start with {head:?}");
    assert!(e.contains(needle), "{e:?} should contain {needle:?}");
    e
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

// ---------------------------------------------------------------- good files

#[test]
fn edge_list_with_crlf_comments_tabs_and_no_final_newline() {
    let text = "# Directed graph\r\n% another comment\r\n\r\n0\t1\r\n  1 2 \r\n\r\n2 0\r\n3 3";
    let g = parse("snap.txt", text, Format::EdgeList);
    assert_eq!(arcs(&g), vec![(0, 1), (1, 2), (2, 0), (3, 3)]);
    assert_eq!(
        (g.vertices(), g.records, g.duplicates, g.self_loops()),
        (4, 4, 0, 1)
    );
    assert_eq!(g.ids, VertexIds::Offset(0));
    assert_eq!(g.value_type, ValueType::Pattern);
    assert!(g.directed && g.weights.is_none());
}

#[test]
fn edge_list_ids_with_gaps_make_isolated_vertices() {
    let g = parse("gaps.el", "5 7\n7 5\n", Format::EdgeList);
    assert_eq!(g.vertices(), 8);
    assert_eq!(g.non_isolated(), 2);
}

#[test]
fn weighted_edge_lists_infer_the_value_type() {
    let g = parse("w.wel", "0 1 3\n1 2 -4\n", Format::EdgeList);
    assert_eq!(g.value_type, ValueType::Integer);
    assert_eq!(weighted_arcs(&g), vec![(0, 1, 3.0), (1, 2, -4.0)]);
    let g = parse("w.wel", "0 1 3\n1 2 0.25\n", Format::EdgeList);
    assert_eq!(g.value_type, ValueType::Real);
    assert_eq!(weighted_arcs(&g), vec![(0, 1, 3.0), (1, 2, 0.25)]);
    let g = parse("w.wel", "0 1 1e3\n", Format::EdgeList);
    assert_eq!(
        (g.value_type, weighted_arcs(&g)),
        (ValueType::Real, vec![(0, 1, 1000.0)])
    );
}

#[test]
fn duplicates_keep_the_lightest_arc() {
    let g = parse("dup.txt", "0 1 5\n0 1 2\n1 0 7\n0 1 9\n", Format::EdgeList);
    assert_eq!(weighted_arcs(&g), vec![(0, 1, 2.0), (1, 0, 7.0)]);
    assert_eq!((g.records, g.duplicates), (4, 2));
}

#[test]
fn undirected_option_stores_both_arcs() {
    let text = "0 1 5\n1 0 3\n1 2 4\n2 2 1\n";
    let g = parse_graph("u.txt", text.as_bytes(), Format::EdgeList, &undirected()).unwrap();
    assert!(!g.directed);
    assert_eq!(
        weighted_arcs(&g),
        vec![
            (0, 1, 3.0),
            (1, 0, 3.0),
            (1, 2, 4.0),
            (2, 1, 4.0),
            (2, 2, 1.0)
        ]
    );
    // Duplicates are counted on (src, dst) as written: none here.
    assert_eq!((g.records, g.duplicates), (4, 0));
}

#[test]
fn matrix_market_general_symmetric_integer_real() {
    let mm = "%%MatrixMarket matrix coordinate pattern general\r\n% comment\r\n%\r\n3 3 3\r\n1 2\r\n2 3\r\n3 1";
    let g = parse("g.mtx", mm, Format::MatrixMarket);
    assert_eq!(arcs(&g), vec![(1, 2), (2, 3), (3, 1)]);
    assert_eq!(g.ids, VertexIds::Offset(1));
    assert!(g.directed);

    let mm = "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 2\n3 3\n";
    let g = parse("s.mtx", mm, Format::MatrixMarket);
    assert_eq!(arcs(&g), vec![(1, 2), (2, 1), (2, 3), (3, 2), (3, 3)]);
    assert!(!g.directed);
    assert_eq!((g.records, g.duplicates, g.self_loops()), (3, 0, 1));

    // A symmetric file that gives a pair in both triangles: one edge, one duplicate.
    let mm = "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 4\n1 2 3\n";
    let g = parse("s2.mtx", mm, Format::MatrixMarket);
    assert_eq!(weighted_arcs(&g), vec![(1, 2, 3.0), (2, 1, 3.0)]);
    assert_eq!((g.duplicates, g.value_type), (1, ValueType::Integer));

    let mm = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 0.5\n2 1 -1.5e1\n";
    let g = parse("r.mtx", mm, Format::MatrixMarket);
    assert_eq!(weighted_arcs(&g), vec![(1, 2, 0.5), (2, 1, -15.0)]);
    assert_eq!(g.value_type, ValueType::Real);

    // Case-insensitive banner, no entries.
    let mm = "%%matrixmarket MATRIX Coordinate Pattern General\n4 4 0\n";
    let g = parse("e.mtx", mm, Format::MatrixMarket);
    assert_eq!((g.vertices(), g.arcs()), (4, 0));
}

#[test]
fn dimacs_shortest_path_file() {
    let gr = "c comment\r\np sp 3 4\r\nc another\r\na 1 2 7\r\na 2 3 1\r\na 1 2 3\r\na 3 1 2";
    let g = parse("road.gr", gr, Format::Dimacs);
    assert_eq!(
        weighted_arcs(&g),
        vec![(1, 2, 3.0), (2, 3, 1.0), (3, 1, 2.0)]
    );
    assert_eq!((g.records, g.duplicates), (4, 1));
    assert_eq!(g.value_type, ValueType::Integer);
}

#[test]
fn graphalytics_edges_and_vertices() {
    let v = "30\n10\n20\n99\n";
    let e = "10 20 0.5\n20 30 1.0\n30 10 2.5\n";
    let g = parse_graphalytics("x.e", e.as_bytes(), "x.v", v.as_bytes(), &opts()).unwrap();
    assert_eq!(g.ids, VertexIds::Explicit(vec![10, 20, 30, 99]));
    assert_eq!(
        weighted_arcs(&g),
        vec![(10, 20, 0.5), (20, 30, 1.0), (30, 10, 2.5)]
    );
    assert_eq!((g.internal(99), g.internal(98)), (Some(3), None));
    assert!(g.directed);
    let g = parse_graphalytics("x.e", e.as_bytes(), "x.v", v.as_bytes(), &undirected()).unwrap();
    assert_eq!((g.arcs(), g.directed), (6, false));
}

#[test]
fn graphalytics_adjacency_form() {
    let adj = "1 2 3\n2 3 40\n7\n3\n";
    let g = parse("a.adj", adj, Format::Adjacency);
    assert_eq!(g.ids, VertexIds::Explicit(vec![1, 2, 3, 7, 40]));
    assert_eq!(arcs(&g), vec![(1, 2), (1, 3), (2, 3), (2, 40)]);
    assert_eq!(g.records, 4);
}

#[test]
fn gzip_files_are_read_transparently() {
    let dir = tempfile::tempdir().unwrap();
    let text = b"# c\n0 1\n1 2\n";
    let p = dir.path().join("g.txt.gz");
    std::fs::write(&p, gzip(text)).unwrap();
    let g = read_graph(&p, &opts()).unwrap();
    assert_eq!(arcs(&g), vec![(0, 1), (1, 2)]);

    // Multi-member streams (concatenated gzip files) are read whole.
    let mut two = gzip(b"0 1\n");
    two.extend(gzip(b"1 2\n2 0\n"));
    let p = dir.path().join("two.el.gz");
    std::fs::write(&p, two).unwrap();
    assert_eq!(read_graph(&p, &opts()).unwrap().arcs(), 3);

    // Gzip magic is recognised without the name.
    let g = parse_graph("plain.txt", &gzip(text), Format::EdgeList, &opts()).unwrap();
    assert_eq!(g.arcs(), 2);

    // Graphalytics finds X.v.gz beside X.e.gz.
    std::fs::write(dir.path().join("k.e.gz"), gzip(b"5 6\n")).unwrap();
    std::fs::write(dir.path().join("k.v.gz"), gzip(b"5\n6\n")).unwrap();
    let g = read_graph(&dir.path().join("k.e.gz"), &opts()).unwrap();
    assert_eq!(arcs(&g), vec![(5, 6)]);
}

#[test]
fn formats_from_paths_and_names() {
    for (p, f) in [
        ("a.mtx", Format::MatrixMarket),
        ("a.MTX.gz", Format::MatrixMarket),
        ("a.txt.gz", Format::EdgeList),
        ("a.el", Format::EdgeList),
        ("a.edges", Format::EdgeList),
        ("a.tsv", Format::EdgeList),
        ("a.wel", Format::EdgeList),
        ("a.snap", Format::EdgeList),
        ("a.gr", Format::Dimacs),
        ("dir/a.e", Format::Graphalytics),
        ("a.adj", Format::Adjacency),
        ("a.ebg", Format::Binary),
    ] {
        assert_eq!(Format::from_path(Path::new(p)), Some(f), "{p}");
    }
    assert_eq!(Format::from_path(Path::new("bfs-dir-input")), None);
    assert_eq!(Format::from_path(Path::new("a.gz")), None);
    for f in Format::all() {
        assert_eq!(Format::from_name(f.name()).unwrap(), *f);
    }
    for (s, f) in [
        ("matrix-market", Format::MatrixMarket),
        ("SNAP", Format::EdgeList),
        ("gr", Format::Dimacs),
        ("e", Format::Graphalytics),
        ("ebg", Format::Binary),
    ] {
        assert_eq!(Format::from_name(s).unwrap(), f);
    }
    let e = Format::from_name("csv").unwrap_err().to_string();
    assert!(
        e.contains("csv") && e.contains("mtx") && e.contains("binary"),
        "{e}"
    );
}

// ---------------------------------------------------------------- malformed files

const MM: Format = Format::MatrixMarket;
const EL: Format = Format::EdgeList;
const GR: Format = Format::Dimacs;

#[test]
fn matrix_market_errors_name_file_and_line() {
    let head = "%%MatrixMarket matrix coordinate pattern general\n";
    let e = expect_err(
        "road.mtx",
        format!("{head}%c\n3 3 2\n1 9\n2 1\n").as_bytes(),
        MM,
        4,
        "",
    );
    assert_eq!(e, "road.mtx:4: column index 9 out of range 1..3");
    expect_err(
        "r.mtx",
        format!("{head}3 3 1\n0 1\n").as_bytes(),
        MM,
        3,
        "row index 0 out of range 1..3",
    );
    expect_err(
        "r.mtx",
        format!("{head}3 3 1\n-1 1\n").as_bytes(),
        MM,
        3,
        "negative",
    );
    expect_err(
        "r.mtx",
        format!("{head}3 3 1\n1.5 1\n").as_bytes(),
        MM,
        3,
        "not a non-negative integer",
    );
    expect_err(
        "r.mtx",
        format!("{head}3 3 1\n1 99999999999999999999999\n").as_bytes(),
        MM,
        3,
        "too large",
    );
    // Declared entries disagree with the data.
    expect_err(
        "n.mtx",
        format!("{head}3 3 3\n1 2\n2 3\n").as_bytes(),
        MM,
        2,
        "declares 3 entries, but the file has 2",
    );
    expect_err(
        "n.mtx",
        format!("{head}3 3 1\n1 2\n\n2 3\n").as_bytes(),
        MM,
        5,
        "more entries than the 1 declared on line 2",
    );
    // Banner and size line.
    expect_err(
        "a.mtx",
        b"%%MatrixMarket matrix array real general\n3 3\n1\n",
        MM,
        1,
        "array",
    );
    expect_err(
        "k.mtx",
        b"%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 0\n",
        MM,
        1,
        "skew-symmetric",
    );
    expect_err(
        "h.mtx",
        b"%%MatrixMarket matrix coordinate complex hermitian\n1 1 0\n",
        MM,
        1,
        "complex",
    );
    expect_err("x.mtx", b"1 2\n", MM, 1, "not a Matrix Market file");
    expect_err(
        "s.mtx",
        format!("{head}% only comments\n").as_bytes(),
        MM,
        3,
        "missing the size line",
    );
    expect_err(
        "s.mtx",
        format!("{head}3 4 0\n").as_bytes(),
        MM,
        2,
        "must be square",
    );
    expect_err(
        "s.mtx",
        format!("{head}3 3\n").as_bytes(),
        MM,
        2,
        "size line",
    );
    expect_err(
        "big.mtx",
        format!("{head}1000000000000 1000000000000 1\n").as_bytes(),
        MM,
        2,
        "declared 1000000000000 vertices",
    );
    let t = format!("{head}100000000 100000000 1\n1 1\n");
    let why = format!(
        "declared 100000000 vertices, but the file has only {} bytes",
        t.len()
    );
    expect_err("big.mtx", t.as_bytes(), MM, 2, &why);
    // Values that do not fit the field.
    let int = "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 3\n2 1 0.5\n";
    expect_err("i.mtx", int.as_bytes(), MM, 4, "not an integer");
    let int = "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2\n";
    expect_err("i.mtx", int.as_bytes(), MM, 3, "expected 3 columns");
    expect_err(
        "p.mtx",
        format!("{head}2 2 1\n1 2 3\n").as_bytes(),
        MM,
        3,
        "expected 2 columns",
    );
    let int = "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 inf\n";
    expect_err("i.mtx", int.as_bytes(), MM, 3, "not an integer");
    // An integer an f64 weight cannot hold exactly is refused at its line, not rounded.
    let int =
        "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 1\n2 1 9007199254740993\n";
    expect_err("i.mtx", int.as_bytes(), MM, 4, "too large to hold exactly");
    let real = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 x1\n";
    expect_err("f.mtx", real.as_bytes(), MM, 3, "not a number");
}

#[test]
fn infinities_and_nan_read_and_write_back() {
    // As SuiteSparse writes them: `inf`, `-inf`, `nan` (any case, Rust's `NaN` too).
    let mm = "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 2 inf\n2 3 -inf\n3 1 nan\n1 3 NaN\n";
    let g = parse("f.mtx", mm, MM);
    let w = g.weighted_csr().unwrap();
    assert_eq!(w.get(0, 1), Some(f64::INFINITY));
    assert_eq!(w.get(1, 2), Some(f64::NEG_INFINITY));
    assert!(w.get(2, 0).unwrap().is_nan() && w.get(0, 2).unwrap().is_nan());
    assert_eq!(g.value_type, ValueType::Real);
    let el = parse("e.txt", "0 1 inf\n1 2 -Infinity\n2 0 nan\n", EL);
    assert_eq!(el.value_type, ValueType::Real);
    assert_eq!(
        el.weights.as_deref().map(|w| (w[0], w[1], w[2].is_nan())),
        Some((f64::INFINITY, f64::NEG_INFINITY, true))
    );
    // Each writer that takes real weights writes them so that its reader gets them back.
    let bits = |g: &Graph| -> Vec<u64> {
        let w = g.weights.as_deref().unwrap();
        w.iter()
            .map(|x| if x.is_nan() { 0 } else { x.to_bits() })
            .collect()
    };
    // (An edge list keeps the ids it is given, so it round-trips the edge-list graph.)
    for (g, f) in [(&g, MM), (&el, EL), (&g, Format::Binary)] {
        let bytes = edgeblas::io::write_graph_bytes(g, f).unwrap();
        let back = parse_graph("back", &bytes, f, &opts()).unwrap();
        assert_eq!(back.adjacency, g.adjacency, "{f}");
        assert_eq!(bits(&back), bits(g), "{f}");
        if f == MM {
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.contains(" inf\n") && text.contains(" -inf\n") && text.contains(" nan\n"));
        }
    }
}

#[test]
fn edge_list_errors_name_file_and_line() {
    expect_err("e.txt", b"# c\n0 1\n2\n", EL, 3, "expected 2 or 3 columns");
    expect_err("e.txt", b"0 1\n1 2 3 4\n", EL, 2, "found 4");
    expect_err(
        "e.txt",
        b"0 1\n1 2 3\n",
        EL,
        2,
        "weight on every line or on none",
    );
    expect_err(
        "e.txt",
        b"0 1 1\r\n1 2\r\n",
        EL,
        2,
        "weight on every line or on none",
    );
    expect_err("e.txt", b"0 1\n-1 2\n", EL, 2, "source id '-1' is negative");
    expect_err(
        "e.txt",
        b"0 1\n1 2.0\n",
        EL,
        2,
        "target id '2.0' is not a non-negative integer",
    );
    expect_err("e.txt", b"0 1\n1 2a\n", EL, 2, "'2a'");
    expect_err("e.txt", b"0 184467440737095516160\n", EL, 1, "too large");
    expect_err(
        "e.txt",
        b"0 4294967295\n",
        EL,
        1,
        "must be below 4294967295",
    );
    expect_err(
        "e.txt",
        b"0 1\n0 100000000\n",
        EL,
        2,
        "implies 100000001 vertices, but the file has only 16 bytes",
    );
    expect_err("e.txt", b"0 1 x\n", EL, 1, "value 'x' is not a number");
    expect_err("e.txt", b"# nothing\n\n", EL, 0, "no edges");
    expect_err("e.txt", b"", EL, 0, "empty");
    expect_err(
        "e.txt",
        b"0 1\n\xff\xfe 2\n",
        EL,
        2,
        "source id '\\xff\\xfe'",
    );
    // Binary garbage.
    let junk: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let e = parse_graph("junk.txt", &junk, EL, &opts())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("junk.txt:"), "{e}");
}

#[test]
fn dimacs_errors_name_file_and_line() {
    expect_err(
        "r.gr",
        b"c x\np sp 3 3\na 1 2 1\na 2 3 1\n",
        GR,
        2,
        "declares 3 arcs, but the file has 2",
    );
    expect_err(
        "r.gr",
        b"p sp 3 1\na 1 2 1\na 2 3 1\n",
        GR,
        3,
        "more arcs than the 1 declared on line 1",
    );
    expect_err(
        "r.gr",
        b"c x\na 1 2 1\np sp 3 1\n",
        GR,
        2,
        "before the problem line",
    );
    expect_err(
        "r.gr",
        b"p sp 3 2\na 1 2 1\np sp 3 1\n",
        GR,
        3,
        "second problem line",
    );
    expect_err(
        "r.gr",
        b"p sp 3 1\na 1 4 1\n",
        GR,
        2,
        "head 4 out of range 1..3",
    );
    expect_err("r.gr", b"p sp 3 1\na 1 2\n", GR, 2, "expected 3 columns");
    expect_err(
        "r.gr",
        b"p sp 3 1\ne 1 2\n",
        GR,
        2,
        "expected a line 'a u v w'",
    );
    expect_err("r.gr", b"p max 3 1\n", GR, 1, "p sp n m");
    expect_err("r.gr", b"c only\n", GR, 0, "no problem line");
    expect_err(
        "r.gr",
        b"p sp 99999999999 0\n",
        GR,
        1,
        "declared 99999999999 vertices",
    );
}

#[test]
fn graphalytics_errors_name_file_and_line() {
    let e = parse_graphalytics("g.e", b"1 2\n2 5\n", "g.v", b"1\n2\n3\n", &opts()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "g.e:2: target id 5 is not in the vertex file g.v"
    );
    let e = parse_graphalytics("g.e", b"1 2\n", "g.v", b"1\n2\n# c\n1\n", &opts()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "g.v:4: vertex id 1 is listed twice (first on line 1)"
    );
    let e = parse_graphalytics("g.e", b"1 2\n", "g.v", b"1\n2 3\n", &opts()).unwrap_err();
    assert!(e.to_string().starts_with("g.v:2: "), "{e}");
    let e = parse_graphalytics("g.e", b"1 2\n", "g.v", b"", &opts()).unwrap_err();
    assert!(e.to_string().contains("empty"), "{e}");
    expect_err(
        "a.adj",
        b"1 2\n2 x\n",
        Format::Adjacency,
        2,
        "neighbour id 'x'",
    );
    // A missing vertex file is an OS error naming it.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("only.e"), "1 2\n").unwrap();
    let e = read_graph(&dir.path().join("only.e"), &opts()).unwrap_err();
    assert!(matches!(e, Error::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("only.v"), "{e}");
}

#[test]
fn file_level_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.mtx");
    let e = read_graph(&missing, &opts()).unwrap_err();
    assert!(matches!(e, Error::Io { .. }));
    assert!(e.to_string().contains("nope.mtx"), "{e}");

    let e = read_graph(&dir.path().join("what.xyz"), &opts()).unwrap_err();
    assert!(e.to_string().contains("what.xyz"), "{e}");

    // Broken gzip: truncated, and a .gz name on plain bytes.
    let mut gz = gzip(b"0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n");
    gz.truncate(gz.len() - 10);
    expect_err("t.txt.gz", &gz, EL, 0, "broken gzip");
    expect_err("t.txt.gz", b"0 1\n", EL, 0, "not gzip");
    expect_err("t.txt.gz", b"", EL, 0, "empty");
    let mut bad = gzip(b"0 1\n");
    bad[12] ^= 0xff;
    let e = parse_graph("c.txt.gz", &bad, EL, &opts())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("c.txt.gz: "), "{e}");
    // An empty file, in every format.
    for f in Format::all() {
        if *f != Format::Graphalytics {
            expect_err("empty", b"", *f, 0, "empty");
        }
    }
}

/// Big inputs are cut into chunks parsed in parallel: line numbers must still be exact,
/// whichever chunk the fault is in.
#[test]
fn line_numbers_are_exact_across_chunks() {
    let lines = 600_000u64;
    let mut text = String::from("# header\n");
    for i in 0..lines {
        text.push_str(&format!("{} {}\r\n", i % 1000, (i * 7) % 1000));
        if i % 1000 == 0 {
            text.push_str("% a comment\n\n");
        }
    }
    assert!(text.len() > 4 << 20, "the text spans several chunks");
    let g = parse("big.txt", &text, EL);
    assert_eq!(g.records, lines);
    let total = text.lines().count() as u64;
    for at in [2, total / 3, total / 2 + 1, total - 1, total] {
        let mut t: Vec<&str> = text.lines().collect();
        let k = at as usize - 1;
        let bad = "12 x7";
        if t[k].starts_with('%') || t[k].is_empty() {
            continue;
        }
        t[k] = bad;
        let joined = t.join("\n");
        expect_err("big.txt", joined.as_bytes(), EL, at, "target id 'x7'");
        // A weight on one later line only (on the first record, the next one would be
        // the line at fault).
        if at == 2 {
            continue;
        }
        let mut t: Vec<&str> = text.lines().collect();
        t[k] = "1 2 3";
        expect_err(
            "big.txt",
            t.join("\n").as_bytes(),
            EL,
            at,
            "weight on every line",
        );
    }
    // Matrix Market with one entry too many, far into the file.
    let mut mm =
        String::from("%%MatrixMarket matrix coordinate pattern general\n1000 1000 300000\n");
    for i in 0..300_001u64 {
        mm.push_str(&format!("{} {}\n", i % 1000 + 1, (i * 13) % 1000 + 1));
    }
    expect_err(
        "big.mtx",
        mm.as_bytes(),
        MM,
        300_003,
        "more entries than the 300000 declared on line 2",
    );
}

// ---------------------------------------------------------------- round trips

fn sample_graphs() -> Vec<(&'static str, Graph)> {
    let mut out = Vec::new();
    let mm =
        "%%MatrixMarket matrix coordinate integer symmetric\n4 4 4\n2 1 3\n3 1 -2\n4 4 7\n4 2 1\n";
    out.push(("mm-int-sym", parse("a.mtx", mm, MM)));
    let mm =
        "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.1\n2 3 1e-7\n3 1 123456.789\n";
    out.push(("mm-real", parse("b.mtx", mm, MM)));
    let mm = "%%MatrixMarket matrix coordinate pattern general\n5 5 3\n1 2\n2 2\n5 1\n";
    out.push(("mm-pattern", parse("c.mtx", mm, MM)));
    out.push(("el", parse("d.txt", "0 1\n1 2\n2 0\n2 2\n", EL)));
    out.push(("el-w", parse("e.txt", "0 1 2.5\n3 1 -1.25\n", EL)));
    let g = parse_graph("f.txt", b"0 1 4\n1 2 5\n", EL, &undirected()).unwrap();
    out.push(("el-undirected", g));
    let g = parse_graphalytics(
        "g.e",
        b"10 20 0.5\n20 40 2\n",
        "g.v",
        b"10\n20\n30\n40\n",
        &opts(),
    )
    .unwrap();
    out.push(("graphalytics", g));
    out
}

fn same_structure(a: &Graph, b: &Graph, what: &str) {
    assert_eq!(a.adjacency, b.adjacency, "{what}: adjacency");
    assert_eq!(a.weights, b.weights, "{what}: weights");
    assert_eq!(a.value_type, b.value_type, "{what}: value type");
}

#[test]
fn binary_round_trips_everything() {
    let dir = tempfile::tempdir().unwrap();
    for (what, g) in sample_graphs() {
        for name in ["g.ebg", "g.ebg.gz"] {
            let p = dir.path().join(name);
            write_graph(&p, &g, None).unwrap();
            let back = read_graph(&p, &opts()).unwrap();
            assert_eq!(back, g, "{what} via {name}");
        }
        assert_eq!(binary::decode("m", &binary::encode(&g)).unwrap(), g);
    }
}

#[test]
fn matrix_market_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    for (what, g) in sample_graphs() {
        let p = dir.path().join("g.mtx.gz");
        write_graph(&p, &g, None).unwrap();
        let back = read_graph(&p, &opts()).unwrap();
        same_structure(&back, &g, what);
        assert_eq!(back.directed, g.directed, "{what}: directed");
        if matches!(g.ids, VertexIds::Offset(1)) {
            assert_eq!(back.records, g.records, "{what}: records");
        }
    }
}

#[test]
fn edge_list_and_other_text_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    for (what, g) in sample_graphs() {
        // Edge lists keep arcs and external ids; only Offset(0) graphs come back equal.
        let p = dir.path().join("g.txt");
        write_graph(&p, &g, None).unwrap();
        let back = read_graph(&p, &opts()).unwrap();
        let mut want: Vec<(u64, u64)> = arcs(&g);
        want.sort();
        assert_eq!(arcs(&back), want, "{what}: edge list arcs");
        if g.ids == VertexIds::Offset(0) {
            same_structure(&back, &g, what);
        }
        // Graphalytics and adjacency keep the explicit ids of the vertices with arcs,
        // and Graphalytics keeps every vertex.
        let p = dir.path().join("g.e");
        write_graph(&p, &g, None).unwrap();
        let back = read_graph(&p, &opts()).unwrap();
        assert_eq!(back.vertices(), g.vertices(), "{what}: graphalytics n");
        assert_eq!(arcs(&back), arcs(&g), "{what}: graphalytics arcs");
        assert_eq!(back.weights, g.weights, "{what}: graphalytics weights");
        let p = dir.path().join("g.adj");
        write_graph(&p, &g, None).unwrap();
        let back = read_graph(&p, &opts()).unwrap();
        assert_eq!(back.vertices(), g.vertices(), "{what}: adj n");
        assert_eq!(arcs(&back), arcs(&g), "{what}: adj arcs");
        // DIMACS holds integer weights only.
        let p = dir.path().join("g.gr");
        let r = write_graph(&p, &g, None);
        if g.value_type == ValueType::Real {
            assert!(matches!(r, Err(Error::Unsupported(_))), "{what}");
        } else {
            r.unwrap();
            let back = read_graph(&p, &opts()).unwrap();
            assert_eq!(back.adjacency, g.adjacency, "{what}: dimacs");
            if g.weights.is_some() {
                assert_eq!(back.weights, g.weights, "{what}: dimacs weights");
            }
        }
    }
}

#[test]
fn binary_corruption_is_detected() {
    let (_, g) = sample_graphs().swap_remove(0);
    let bytes = binary::encode(&g);
    assert_eq!(binary::decode("ok.ebg", &bytes).unwrap(), g);
    for k in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut b = bytes.clone();
            b[k] ^= bit;
            let e = binary::decode("bad.ebg", &b).unwrap_err().to_string();
            assert!(e.starts_with("bad.ebg: "), "byte {k}: {e}");
        }
    }
    for len in 0..bytes.len() {
        assert!(
            binary::decode("short.ebg", &bytes[..len]).is_err(),
            "truncated to {len}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(binary::decode("long.ebg", &longer).is_err());
    // A header that declares 10^12 vertices in a 64-byte file.
    let mut h = bytes[..64].to_vec();
    h[16..24].copy_from_slice(&1_000_000_000_000u64.to_le_bytes());
    let e = binary::decode("huge.ebg", &h).unwrap_err().to_string();
    assert!(e.contains("vertices"), "{e}");
    let e = parse_graph("text.ebg", b"0 1\n", Format::Binary, &opts()).unwrap_err();
    assert!(e.to_string().contains("magic"), "{e}");
}

#[test]
fn symmetrize_matches_a_set_union() {
    let g = parse("s.txt", "0 1 5\n1 0 2\n2 1 7\n2 2 1\n3 0 4\n", EL);
    let u = g.clone().into_undirected();
    assert_eq!(
        weighted_arcs(&u),
        vec![
            (0, 1, 2.0),
            (0, 3, 4.0),
            (1, 0, 2.0),
            (1, 2, 7.0),
            (2, 1, 7.0),
            (2, 2, 1.0),
            (3, 0, 4.0)
        ]
    );
    assert!(u.adjacency.is_symmetric() && !g.adjacency.is_symmetric());
    assert_eq!((u.records, u.duplicates), (g.records, g.duplicates));
}

// ---------------------------------------------------------------- properties

/// A reference reading of an edge list: arcs in order with min weights, and duplicates.
fn reference(edges: &[(u8, u8, i16)], weighted: bool) -> (BTreeMap<(u64, u64), f64>, u64) {
    let mut m = BTreeMap::new();
    let mut dups = 0;
    for &(a, b, w) in edges {
        let w = if weighted { w as f64 } else { 0.0 };
        match m.entry((a as u64, b as u64)) {
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(w);
            }
            std::collections::btree_map::Entry::Occupied(mut e) => {
                dups += 1;
                let x: &mut f64 = e.get_mut();
                *x = x.min(w);
            }
        }
    }
    (m, dups)
}

#[test]
fn random_edge_lists_parse_and_round_trip() {
    fn prop(edges: Vec<(u8, u8, i16)>, weighted: bool, crlf: bool) -> TestResult {
        if edges.is_empty() {
            return TestResult::discard();
        }
        let nl = if crlf { "\r\n" } else { "\n" };
        let mut text = String::from("# random");
        for &(a, b, w) in &edges {
            text.push_str(nl);
            if weighted {
                text.push_str(&format!("{a}\t{b} {w}"));
            } else {
                text.push_str(&format!("{a} {b}"));
            }
        }
        let g = match parse_graph("q.txt", text.as_bytes(), EL, &opts()) {
            Ok(g) => g,
            Err(e) => return TestResult::error(e.to_string()),
        };
        let (want, dups) = reference(&edges, weighted);
        let n = edges.iter().map(|e| e.0.max(e.1) as usize).max().unwrap() + 1;
        let got: BTreeMap<(u64, u64), f64> = if weighted {
            weighted_arcs(&g)
                .into_iter()
                .map(|(a, b, w)| ((a, b), w))
                .collect()
        } else {
            arcs(&g).into_iter().map(|k| (k, 0.0)).collect()
        };
        let ok = got == want
            && g.vertices() == n
            && g.duplicates == dups
            && g.records == edges.len() as u64;
        if !ok {
            return TestResult::failed();
        }
        let dir = tempfile::tempdir().unwrap();
        for name in ["r.txt", "r.mtx", "r.ebg", "r.txt.gz"] {
            let p = dir.path().join(name);
            write_graph(&p, &g, None).unwrap();
            let back = read_graph(&p, &opts()).unwrap();
            if back.adjacency != g.adjacency || back.weights != g.weights {
                return TestResult::error(format!("{name} round trip differs"));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(Vec<(u8, u8, i16)>, bool, bool) -> TestResult);
}

/// What feeding one input to every reader may take. The inputs are small, but with the
/// default floor the ids they name may imply up to 2^24 vertices, and the readers are
/// linear in that: generous for a debug build on a loaded 2-core machine.
const PER_INPUT: Duration = Duration::from_secs(if cfg!(debug_assertions) { 120 } else { 10 });

/// Feeds `bytes` to every reader; `Ok` or `Err` (a panic fails the property), and `false`
/// if that took longer than [`PER_INPUT`].
fn try_every_parser(bytes: &[u8]) -> bool {
    let start = Instant::now();
    for f in Format::all() {
        let _ = parse_graph("fuzz", bytes, *f, &opts());
        let _ = parse_graph("fuzz.gz", bytes, *f, &undirected());
    }
    let _ = parse_graphalytics("fuzz.e", bytes, "fuzz.v", bytes, &opts());
    let _ = parse_graphalytics("fuzz.e", bytes, "fuzz.v", b"0\n1\n2\n3\n", &opts());
    // The Chung-Lu generator's degree-distribution reader.
    for directed in [false, true] {
        let _ = parse_degrees("fuzz.csv", bytes, directed);
    }
    let took = start.elapsed();
    if took > PER_INPUT {
        eprintln!("{} bytes took {took:?} through every reader", bytes.len());
        return false;
    }
    true
}

/// Random bytes through every reader: `Ok` or `Err`, never a panic, within [`PER_INPUT`].
#[test]
fn random_bytes_never_panic() {
    fn prop(bytes: Vec<u8>) -> bool {
        try_every_parser(&bytes)
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(Vec<u8>) -> bool);
}

/// Seeds for mutation: one valid file of every format.
fn seeds() -> Vec<(Format, Vec<u8>)> {
    let g = parse_graph(
        "s.mtx",
        b"%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.5\n2 3 1\n3 3 2\n",
        MM,
        &opts(),
    )
    .unwrap();
    vec![
        (MM, b"%%MatrixMarket matrix coordinate integer symmetric\n% c\n3 3 3\n2 1 4\n3 2 5\n3 3 1\n".to_vec()),
        (EL, b"# c\n0 1 2\r\n1 2 3\r\n2 0 1".to_vec()),
        (GR, b"c x\np sp 3 3\na 1 2 1\na 2 3 4\na 3 1 2\n".to_vec()),
        (Format::Adjacency, b"1 2 3\n2 3\n3\n".to_vec()),
        (Format::Binary, binary::encode(&g)),
        (EL, gzip(b"0 1\n1 2\n")),
        // Degree distributions (`try_every_parser` gives them to `parse_degrees`).
        (EL, b"degree,count\n0,2\n1,5\n3,1\n".to_vec()),
        (EL, b"out,in,count\n1,0,2\n0,1,2\n".to_vec()),
        (EL, b"# seq\n1\n2\n1\n0\n".to_vec()),
    ]
}

/// Valid files of every format, mutated: `Ok` or `Err`, never a panic, within
/// [`PER_INPUT`].
#[test]
fn mutated_files_never_panic() {
    fn prop(which: usize, edits: Vec<(u16, u8, u8)>) -> bool {
        let seeds = seeds();
        let (format, mut b) = seeds[which % seeds.len()].clone();
        for (at, kind, byte) in edits {
            let k = at as usize % (b.len() + 1);
            match kind % 4 {
                0 if k < b.len() => b[k] = byte,
                1 => b.insert(k, byte),
                2 if k < b.len() => {
                    b.remove(k);
                }
                _ if k < b.len() => b[k] ^= 1 << (byte % 8),
                _ => {}
            }
        }
        let start = Instant::now();
        let _ = parse_graph("m", &b, format, &opts());
        start.elapsed() <= PER_INPUT && try_every_parser(&b)
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(prop as fn(usize, Vec<(u16, u8, u8)>) -> bool);
}

/// `BinaryFile::read_rows` gives every block of rows exactly as the whole decode has
/// them (offsets rebased, indices, weights), and the ids; a corrupt row in the block
/// read is an error naming the file, one outside it is not read.
#[test]
fn binary_row_blocks_match_the_whole_graph() {
    use edgeblas::io::binary::BinaryFile;
    let dir = tempfile::tempdir().unwrap();
    let txt = dir.path().join("g.wel");
    let mut text = String::new();
    let mut x = 7u64;
    for _ in 0..400 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        text += &format!(
            "{} {} {}\n",
            (x >> 33) % 61 + 3,
            (x >> 45) % 61 + 3,
            (x >> 20) % 9
        );
    }
    std::fs::write(&txt, text).unwrap();
    let g = read_graph(&txt, &ReadOptions::default()).unwrap();
    let ebg = dir.path().join("g.ebg");
    edgeblas::io::write_graph(&ebg, &g, None).unwrap();
    let mut f = BinaryFile::open(&ebg).unwrap();
    let h = *f.header();
    assert_eq!((h.vertices, h.arcs as usize), (g.vertices(), g.arcs()));
    assert_eq!((h.directed, h.weighted), (g.directed, g.weights.is_some()));
    assert_eq!(f.ids().unwrap(), g.ids);
    let a = &g.adjacency;
    let n = g.vertices();
    for (lo, hi) in [(0, n), (0, 0), (5, 6), (3, 40), (40, n), (n, n)] {
        let b = f.read_rows(lo..hi).unwrap();
        let (o0, o1) = (a.offsets()[lo], a.offsets()[hi]);
        assert_eq!(b.first_arc, o0);
        let want: Vec<u64> = a.offsets()[lo..=hi].iter().map(|&o| o - o0).collect();
        assert_eq!(b.offsets, want);
        assert_eq!(b.indices, a.indices()[o0 as usize..o1 as usize]);
        let w = g.weights.as_ref().unwrap();
        assert_eq!(b.weights.as_deref(), Some(&w[o0 as usize..o1 as usize]));
    }
    // Corrupt the last arc's column: the rows holding it refuse, the others read.
    let mut bytes = std::fs::read(&ebg).unwrap();
    let at = 64 + 8 * (n + 1) + 4 * (g.arcs() - 1);
    bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let bad = dir.path().join("bad.ebg");
    std::fs::write(&bad, &bytes).unwrap();
    let mut f = BinaryFile::open(&bad).unwrap();
    let e = f.read_rows(0..n).unwrap_err().to_string();
    assert!(
        e.contains("bad.ebg") && e.contains("corrupt adjacency"),
        "{e}"
    );
    assert!(f.read_rows(0..1).is_ok());
    // A cut file and a gzip file are refused at open.
    std::fs::write(&bad, &bytes[..bytes.len() - 1]).unwrap();
    let e = BinaryFile::open(&bad).unwrap_err().to_string();
    assert!(e.contains("the header declares"), "{e}");
    std::fs::write(&bad, [0x1f, 0x8b, 8, 0]).unwrap();
    assert!(
        BinaryFile::open(&bad)
            .unwrap_err()
            .to_string()
            .contains("gzip")
    );
}
