//! Loading throughput (MB/s of text) of the graph readers, on synthetic files written to
//! a temporary directory: an edge list and a Matrix Market file of the same random graph
//! (seeded), the edge list gzipped, and the native binary form.
//!
//! `cargo bench --bench io`; `EDGEBLAS_BENCH_EDGES` sets the number of edges (default 4M).

use std::hint::black_box;
use std::io::Write;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use edgeblas::io::{Format, ReadOptions, parse_graph, read_graph, write_graph};

/// A seeded xorshift generator: the same files on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random graph with `m` edges over `n` vertices, as SNAP text and as Matrix Market.
fn synthetic(n: u64, m: u64, seed: u64) -> (Vec<u8>, Vec<u8>) {
    let mut rng = Rng(seed | 1);
    let mut el = Vec::with_capacity(m as usize * 16);
    let mut mm = Vec::with_capacity(m as usize * 16);
    writeln!(el, "# synthetic: {n} nodes, {m} edges").unwrap();
    writeln!(mm, "%%MatrixMarket matrix coordinate pattern general").unwrap();
    writeln!(mm, "{n} {n} {m}").unwrap();
    for _ in 0..m {
        // Skewed sources (a few hubs), uniform targets.
        let r = rng.next();
        let src = (r % n) >> (r >> 60);
        let dst = rng.next() % n;
        writeln!(el, "{src}\t{dst}").unwrap();
        writeln!(mm, "{} {}", src + 1, dst + 1).unwrap();
    }
    (el, mm)
}

fn bench_io(c: &mut Criterion) {
    let m: u64 = std::env::var("EDGEBLAS_BENCH_EDGES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4_000_000);
    let n = m / 4;
    let (el, mm) = synthetic(n, m, 42);
    let dir = tempfile::tempdir().unwrap();
    let opts = ReadOptions::default();

    let mut g = c.benchmark_group("io");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));

    g.throughput(Throughput::Bytes(el.len() as u64));
    g.bench_function("parse edge list", |b| {
        b.iter(|| parse_graph("bench.txt", black_box(&el), Format::EdgeList, &opts).unwrap())
    });
    let el_path = dir.path().join("bench.txt");
    std::fs::write(&el_path, &el).unwrap();
    g.bench_function("read edge list file", |b| {
        b.iter(|| read_graph(black_box(&el_path), &opts).unwrap())
    });
    g.bench_function("parse edge list undirected", |b| {
        let u = ReadOptions {
            format: None,
            undirected: true,
            ..ReadOptions::default()
        };
        b.iter(|| parse_graph("bench.txt", black_box(&el), Format::EdgeList, &u).unwrap())
    });

    g.throughput(Throughput::Bytes(mm.len() as u64));
    g.bench_function("parse matrix market", |b| {
        b.iter(|| parse_graph("bench.mtx", black_box(&mm), Format::MatrixMarket, &opts).unwrap())
    });

    // Gzip: throughput counted in uncompressed bytes.
    let graph = parse_graph("bench.txt", &el, Format::EdgeList, &opts).unwrap();
    let gz_path = dir.path().join("bench.txt.gz");
    write_graph(&gz_path, &graph, None).unwrap();
    let gz_text = read_graph(&gz_path, &opts).unwrap();
    assert_eq!(gz_text.adjacency, graph.adjacency);
    g.throughput(Throughput::Bytes(el.len() as u64));
    g.bench_function("read gzip edge list file (uncompressed MB/s)", |b| {
        b.iter(|| read_graph(black_box(&gz_path), &opts).unwrap())
    });

    let bin_path = dir.path().join("bench.ebg");
    write_graph(&bin_path, &graph, None).unwrap();
    let bin_len = std::fs::metadata(&bin_path).unwrap().len();
    g.throughput(Throughput::Bytes(bin_len));
    g.bench_function("read binary file", |b| {
        b.iter(|| read_graph(black_box(&bin_path), &opts).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench_io);
criterion_main!(benches);
