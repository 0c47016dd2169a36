//! Chung-Lu generation throughput (undirected edges per second, written into sorted CSR)
//! on power-law distributions of the peers' benchmark shape, and R-MAT for comparison.
//!
//! `cargo bench --bench chung_lu`; `EDGEBLAS_BENCH_N` sets the vertex count (default 1M).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use edgeblas::generate::chung_lu::{Degrees, Plan, PlanOptions, PowerLaw, generate};
use edgeblas::generate::rmat::Rmat;

fn bench(c: &mut Criterion) {
    let n: u64 = std::env::var("EDGEBLAS_BENCH_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let mut g = c.benchmark_group("chung_lu");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for dmin in [2u64, 4] {
        let pl = PowerLaw {
            n,
            gamma: 2.1,
            dmin,
            dmax: None,
        };
        let degrees = Degrees::Histogram(pl.histogram().expect("power law"));
        let plan = Plan::new(&degrees, &PlanOptions::default()).expect("plan");
        let edges = generate(&plan, 1).nnz() as u64 / 2;
        g.throughput(Throughput::Elements(edges));
        g.bench_function(format!("power_law_n{n}_g2.1_dmin{dmin}"), |b| {
            b.iter(|| black_box(generate(&plan, 7)))
        });
    }
    let r = Rmat {
        scale: 18,
        edge_factor: 16,
        ..Rmat::default()
    };
    g.throughput(Throughput::Elements(16 << 18));
    g.bench_function("rmat_scale18_ef16", |b| {
        b.iter(|| black_box(r.generate().expect("rmat")))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
