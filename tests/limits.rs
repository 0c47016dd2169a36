//! Resource limits: no reader allocates more than a small multiple of its input before it
//! has checked what the input declares (a header's vertex and arc counts, an id), in
//! every format, the binary header included; and a gzip stream that decompresses past
//! what its header declares (binary exactly, Matrix Market and DIMACS per entry) is
//! refused before it is all in memory.
//!
//! One test in its own binary: the allocator's counters are process-wide.

#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use std::io::Write;

use counting_alloc::peak_bytes;
use edgeblas::io::{self, Format, ReadOptions, binary};

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A binary header with the real magic and version, declaring `n` vertices and `nnz`
/// arcs, with `payload` bytes after it.
fn binary_header(n: u64, nnz: u64, flags: u32, payload: usize) -> Vec<u8> {
    let mut b = binary::MAGIC.to_vec();
    b.extend(binary::VERSION.to_le_bytes());
    b.extend(flags.to_le_bytes());
    for x in [n, nnz, 0, 0, 0] {
        b.extend(x.to_le_bytes());
    }
    b.extend([0u8; 8]);
    b.resize(b.len() + payload, 0);
    b
}

/// Reads `data` as `format` named `name`; returns the error's message and the most
/// memory the read took at once.
fn read(name: &str, data: &[u8], format: Format) -> (Result<usize, String>, usize) {
    let mut r = Ok(0);
    let peak = peak_bytes(|| {
        r = if format == Format::Graphalytics {
            let cut = data.iter().position(|&b| b == 0).unwrap();
            io::parse_graphalytics(
                name,
                &data[..cut],
                "g.v",
                &data[cut + 1..],
                &ReadOptions::default(),
            )
        } else {
            io::parse_graph(name, data, format, &ReadOptions::default())
        }
        .map(|g| g.vertices())
        .map_err(|e| e.to_string());
    });
    (r, peak)
}

#[test]
fn readers_check_before_they_allocate_and_gzip_stops_at_the_declared_size() {
    // 1. Headers and ids that name far more than their files hold, in every format: an
    //    error, and memory of the order of the input (a constant plus 256 bytes a byte),
    //    not of what the header names.
    let hostile: Vec<(&str, Format, Vec<u8>)> = vec![
        (
            "h.mtx",
            Format::MatrixMarket,
            b"%%MatrixMarket matrix coordinate real general\n4000000000 4000000000 3\n1 1 1\n"
                .to_vec(),
        ),
        (
            "h.mtx",
            Format::MatrixMarket,
            b"%%MatrixMarket matrix coordinate pattern general\n5 5 1000000000000\n1 1\n".to_vec(),
        ),
        (
            "h.gr",
            Format::Dimacs,
            b"p sp 4000000000 1\na 1 2 3\n".to_vec(),
        ),
        (
            "h.gr",
            Format::Dimacs,
            b"p sp 5 1000000000000\na 1 2 3\n".to_vec(),
        ),
        ("h.el", Format::EdgeList, b"0 4294967294\n".to_vec()),
        ("h.adj", Format::Adjacency, b"0 1 2 3 4000000000\n".to_vec()),
        (
            "h.e",
            Format::Graphalytics,
            b"0 1\n\x000\n1\n99999999999\n".to_vec(),
        ),
        // The binary header: counts past u32, counts that overflow, counts that fit a
        // machine but not this 64-byte file, and a file one byte short.
        ("h.ebg", Format::Binary, binary_header(u64::MAX, 3, 0x2, 0)),
        (
            "h.ebg",
            Format::Binary,
            binary_header(5, u64::MAX / 2, 0x1 | 0x8, 0),
        ),
        (
            "h.ebg",
            Format::Binary,
            binary_header(4_000_000_000, 0, 0x2, 0),
        ),
        (
            "h.ebg",
            Format::Binary,
            binary_header(1 << 20, 1 << 30, 0x12, 0),
        ),
        (
            "h.ebg",
            Format::Binary,
            binary_header(3, 2, 0x2, 8 * 4 + 8 - 1),
        ),
    ];
    for (name, format, data) in &hostile {
        let (r, peak) = read(name, data, *format);
        let bound = (1 << 20) + 256 * data.len();
        // An error, or (explicit ids) the few vertices the file lists.
        assert!(
            !r.as_ref().is_ok_and(|&n| n > 8),
            "{name} {data:?}: read as {r:?}"
        );
        assert!(
            peak <= bound,
            "{name} {:?}: {peak} bytes at once (bound {bound}) before the error {r:?}",
            String::from_utf8_lossy(data)
        );
    }

    // 2. Gzip that inflates past its header: a small valid file followed, inside the same
    //    stream, by 64 MiB more. Refused, at a cost of the order of the declaration.
    let tail = vec![b'\n'; 64 << 20];
    let ebg = io::write_graph_bytes(
        &io::parse_graph(
            "t.el",
            b"0 1\n1 2\n2 0\n",
            Format::EdgeList,
            &ReadOptions::default(),
        )
        .unwrap(),
        Format::Binary,
    )
    .unwrap();
    let cases: [(&str, Format, Vec<u8>); 3] = [
        ("b.ebg.gz", Format::Binary, ebg.clone()),
        (
            "m.mtx.gz",
            Format::MatrixMarket,
            b"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n".to_vec(),
        ),
        (
            "d.gr.gz",
            Format::Dimacs,
            b"c tiny\np sp 3 2\na 1 2 1\na 2 3 1\n".to_vec(),
        ),
    ];
    for (name, format, body) in &cases {
        // The file alone reads.
        let (r, _) = read(name, &gzip(body), *format);
        assert_eq!(r, Ok(3), "{name}");
        let mut bomb = body.clone();
        bomb.extend_from_slice(&tail);
        let gz = gzip(&bomb);
        assert!(gz.len() < 1 << 20, "{name}: the bomb is small compressed");
        let (r, peak) = read(name, &gz, *format);
        let e = r.expect_err("a stream past its declared size is refused");
        assert!(
            e.contains(name) && e.contains("decompresses to more than"),
            "{name}: {e}"
        );
        assert!(
            peak < 8 << 20,
            "{name}: {peak} bytes at once for a stream refused at its declared size"
        );
    }
    // A binary file one byte longer than its header declares is refused as well.
    let mut long = ebg.clone();
    long.push(0);
    let (r, _) = read("l.ebg.gz", &gzip(&long), Format::Binary);
    assert!(r.unwrap_err().contains("decompresses to more than"));

    // 3. What a header allows is generous: a Matrix Market file with a comment line
    //    before every entry reads.
    let mut chatty = b"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n".to_vec();
    for e in ["1 2", "2 3"] {
        chatty.extend_from_slice(format!("% {}\n{e}\n", "x".repeat(500)).as_bytes());
    }
    let (r, _) = read("c.mtx.gz", &gzip(&chatty), Format::MatrixMarket);
    assert_eq!(r, Ok(3));
}
