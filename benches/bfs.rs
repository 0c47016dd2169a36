//! BFS speed on a seeded R-MAT graph (scale 18 by default; `EDGEBLAS_BENCH_SCALE`):
//! the fused search under each policy, and the plain template for comparison.
//!
//! `cargo bench --bench bfs`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use edgeblas::algo::bfs::{
    Beamer, BfsGraph, BfsOptions, Gunrock, Ligra, Policy, Pull, Push, Xbfs, bfs, bfs_template,
};
use edgeblas::generate::rmat::Rmat;
use edgeblas::prelude::*;

fn bench(c: &mut Criterion) {
    let scale = std::env::var("EDGEBLAS_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(18);
    let a = Rmat {
        scale,
        undirected: true,
        ..Rmat::default()
    }
    .generate()
    .unwrap();
    let g = BfsGraph::symmetric(&a);
    let source = (0..a.nrows()).max_by_key(|&v| a.degree(v)).unwrap() as Index;
    let opts = BfsOptions::default();
    let edges = bfs(&g, &[source], &Push, &opts)
        .unwrap()
        .traversed_edges(&a);
    let mut group = c.benchmark_group(format!("bfs/rmat{scale}"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(edges));
    let policies: [(&str, &dyn Policy); 6] = [
        ("beamer", &Beamer::default()),
        ("gunrock", &Gunrock::default()),
        ("ligra", &Ligra::default()),
        ("xbfs", &Xbfs::default()),
        ("push", &Push),
        ("pull", &Pull),
    ];
    for (name, p) in policies {
        group.bench_function(name, |b| {
            b.iter(|| black_box(bfs(&g, &[source], p, &opts).unwrap()))
        });
    }
    group.bench_function("template-beamer", |b| {
        b.iter(|| black_box(bfs_template(&g, &[source], &Beamer::default(), &opts).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
