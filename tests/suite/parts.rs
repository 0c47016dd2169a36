//! Graphs written as directories of row-block parts (`edgeblas::io::parts`): any graph
//! cut into any number of parts reads back equal to itself (the same `Graph`, whole
//! files byte for byte), every part is read alone as an MPI rank reads it, and what does
//! not make one graph (a corrupt, missing, foreign or whole-graph file) is an error
//! naming the file.

use std::path::Path;

use edgeblas::io::binary::{BinaryFile, encode};
use edgeblas::io::parts::{count_parts, cut_by_arcs, part_path, read_dir, read_part, write_dir};
use edgeblas::io::{Format, Graph, ReadOptions, VertexIds, parse_graph, read_graph, write_graph};
use quickcheck::{QuickCheck, TestResult};

/// A graph from an edge list of `arcs` random arcs among `n` vertices, weighted or not,
/// with explicit ids (spread apart) when `sparse_ids`.
fn random_graph(seed: u64, n: u64, arcs: usize, weighted: bool, sparse_ids: bool) -> Graph {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut text = String::new();
    for _ in 0..arcs {
        let (u, v) = (next() % n, next() % n);
        text.push_str(&format!("{u} {v}"));
        if weighted {
            text.push_str(&format!(" {}", (next() % 1000) as f64 / 8.0 - 20.0));
        }
        text.push('\n');
    }
    // Every id appears, so that the vertex count is n.
    for v in 0..n {
        text.push_str(&format!("{v} {v}"));
        if weighted {
            text.push_str(" 1");
        }
        text.push('\n');
    }
    let mut g = parse_graph(
        "g.el",
        text.as_bytes(),
        Format::EdgeList,
        &ReadOptions::default(),
    )
    .unwrap();
    if sparse_ids {
        // Explicit ids (as a Graphalytics vertex file gives them): strictly increasing.
        g.ids = VertexIds::Explicit((0..n).map(|v| v * v + 3).collect());
    }
    g
}

#[test]
fn any_graph_in_any_number_of_parts_reads_back_equal() {
    fn prop(seed: u64, n: u8, arcs: u16, parts: u8, weighted: bool, sparse: bool) -> TestResult {
        let n = n as u64 % 60 + 1;
        let parts = parts as usize % 8 + 1;
        if parts as u64 > n {
            return TestResult::discard();
        }
        let g = random_graph(seed, n, arcs as usize % 400, weighted, sparse);
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("g");
        write_dir(&d, &g, parts).unwrap();
        assert_eq!(count_parts(&d).unwrap(), parts);
        let back = read_dir(&d).unwrap();
        assert_eq!(back, g, "{parts} parts");
        // Each part alone: consecutive rows that together cover the graph.
        let mut at = 0;
        for r in 0..parts {
            let p = read_part(&part_path(&d, r)).unwrap();
            assert_eq!((p.header.part, p.header.parts), (r, parts));
            assert_eq!(p.rows.rows.start, at);
            assert!(!p.rows.rows.is_empty(), "part {r} has no row");
            at = p.rows.rows.end;
            assert_eq!(p.ids.is_some(), r == 0 && sparse);
        }
        assert_eq!(at, g.vertices());
        // Through read_graph, and written whole: the same bytes as the graph's own file.
        let whole = dir.path().join("g.ebg");
        write_graph(
            &whole,
            &read_graph(&d, &ReadOptions::default()).unwrap(),
            None,
        )
        .unwrap();
        assert_eq!(std::fs::read(&whole).unwrap(), encode(&g));
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(60)
        .quickcheck(prop as fn(u64, u8, u16, u8, bool, bool) -> TestResult);
}

#[test]
fn the_cut_is_by_arcs_with_a_row_in_every_part() {
    // 10 rows: one hub of 90 arcs, then 9 rows of 1.
    let mut offsets = vec![0u64, 90];
    for _ in 0..9 {
        offsets.push(offsets.last().unwrap() + 1);
    }
    for parts in 1..=10 {
        let s = cut_by_arcs(&offsets, parts);
        assert_eq!(s.len(), parts + 1);
        assert_eq!((s[0], s[parts]), (0, 10));
        assert!(s.windows(2).all(|w| w[0] < w[1]), "{s:?}");
    }
    // Even arcs: even rows.
    let even: Vec<u64> = (0..=100).map(|i| 3 * i).collect();
    assert_eq!(cut_by_arcs(&even, 4), vec![0, 25, 50, 75, 100]);
}

#[test]
fn rewriting_with_fewer_parts_leaves_no_stale_part() {
    let g = random_graph(5, 40, 200, false, false);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("g");
    write_dir(&d, &g, 6).unwrap();
    write_dir(&d, &g, 2).unwrap();
    assert_eq!(count_parts(&d).unwrap(), 2);
    assert!(!part_path(&d, 2).exists());
    assert_eq!(read_dir(&d).unwrap(), g);
}

fn err_of(d: &Path) -> String {
    match read_dir(d) {
        Ok(_) => panic!("{}: read without an error", d.display()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn what_is_not_one_graph_is_an_error_naming_the_file() {
    let g = random_graph(9, 50, 300, true, false);
    let other = random_graph(10, 50, 300, true, false);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("g");
    let fresh = || {
        write_dir(&d, &g, 3).unwrap();
    };
    // A flipped byte in a part: its checksum.
    fresh();
    let p1 = part_path(&d, 1);
    let mut b = std::fs::read(&p1).unwrap();
    let last = b.len() - 3;
    b[last] ^= 0x40;
    std::fs::write(&p1, &b).unwrap();
    let e = err_of(&d);
    assert!(
        e.contains("part-00001.ebg") && e.contains("checksum"),
        "{e}"
    );
    // Truncated.
    fresh();
    let b = std::fs::read(&p1).unwrap();
    std::fs::write(&p1, &b[..b.len() - 8]).unwrap();
    let e = err_of(&d);
    assert!(
        e.contains("part-00001.ebg") && e.contains("truncated"),
        "{e}"
    );
    // A missing part.
    fresh();
    std::fs::remove_file(&p1).unwrap();
    let e = err_of(&d);
    assert!(e.contains("part 1 is missing"), "{e}");
    // A part of another graph.
    fresh();
    let o = dir.path().join("o");
    write_dir(&o, &other, 3).unwrap();
    std::fs::copy(part_path(&o, 2), part_path(&d, 2)).unwrap();
    let e = err_of(&d);
    assert!(e.contains("part-00002.ebg"), "{e}");
    // A part of another cut of the same graph (rows that do not follow on).
    fresh();
    write_dir(&o, &g, 4).unwrap();
    std::fs::copy(part_path(&o, 2), part_path(&d, 2)).unwrap();
    let e = err_of(&d);
    assert!(e.contains("part-00002.ebg"), "{e}");
    // A whole graph file where a part belongs, and a part read as a whole file.
    fresh();
    write_graph(&part_path(&d, 2), &g, None).unwrap();
    let e = err_of(&d);
    assert!(
        e.contains("part-00002.ebg") && e.contains("not a part"),
        "{e}"
    );
    let e = read_graph(&part_path(&o, 0), &ReadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("read its directory"), "{e}");
    let e = BinaryFile::open(&part_path(&o, 0)).unwrap_err();
    assert!(e.to_string().contains("read its directory"), "{e}");
    // No parts at all; and more parts than vertices.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert!(err_of(&empty).contains("no part-NNNNN.ebg"));
    let e = write_dir(&dir.path().join("x"), &g, 51).unwrap_err();
    assert!(e.to_string().contains("--parts 51"), "{e}");
}
