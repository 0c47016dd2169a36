//! BFS speed on a seeded R-MAT graph (scale 18 by default; `EDGEBLAS_BENCH_SCALE`):
//! the fused search under each policy, and the plain template for comparison.
//!
//! `cargo bench --bench bfs`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use edgeblas::algo::bfs::{
    Beamer, BfsGraph, BfsOptions, Gunrock, Ligra, Policy, Pull, Push, Xbfs, bfs, bfs_template,
};
use edgeblas::prelude::*;

fn rmat(scale: u32, edge_factor: usize, mut seed: u64) -> Csr<()> {
    let n = 1usize << scale;
    let mut next = move || {
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut b = CooBuilder::with_capacity(n, n, 2 * n * edge_factor);
    for _ in 0..n * edge_factor {
        let (mut i, mut j) = (0, 0);
        for _ in 0..scale {
            let r = next();
            let (bi, bj) = if r < 0.57 {
                (0, 0)
            } else if r < 0.76 {
                (0, 1)
            } else if r < 0.95 {
                (1, 0)
            } else {
                (1, 1)
            };
            i = 2 * i + bi;
            j = 2 * j + bj;
        }
        if i != j {
            b.push(i, j, ()).unwrap();
        }
    }
    b.symmetrize();
    b.build(Duplicates::KeepFirst).unwrap()
}

fn bench(c: &mut Criterion) {
    let scale = std::env::var("EDGEBLAS_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(18);
    let a = rmat(scale, 16, 1);
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
