//! A template: build a degree distribution, plan and generate a Chung-Lu graph through the
//! library, check its quality report, and run direction-optimizing BFS on it.
//!
//! `cargo run --release --example chung_lu [n] [threads]` (defaults 1,000,000 and all cores).

use std::time::Instant;

use edgeblas::algo::bfs::{Beamer, BfsGraph, BfsOptions, bfs};
use edgeblas::generate::chung_lu::{Degrees, Plan, PlanOptions, PowerLaw, Report, generate};

fn main() -> edgeblas::Result<()> {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    if let Some(t) = args.next().and_then(|s| s.parse().ok()) {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .map_err(|e| edgeblas::Error::InvalidArgument(e.to_string()))?;
    }
    // A power law of the peers' benchmark shape: gamma 2.1, degrees from 2, capped at
    // floor(sqrt(S)) so that no probability is clamped.
    let law = PowerLaw {
        n,
        gamma: 2.1,
        dmin: 2,
        dmax: None,
    };
    let degrees = Degrees::Histogram(law.histogram()?);
    let plan = Plan::new(&degrees, &PlanOptions::default())?;
    println!(
        "{} vertices, {} groups, {} tasks, {} chunks, S = {}",
        plan.n,
        plan.rows.len(),
        plan.tasks.len(),
        plan.chunks,
        plan.s
    );
    let t = Instant::now();
    let g = generate(&plan, 1);
    let secs = t.elapsed().as_secs_f64();
    let edges = g.nnz() / 2;
    println!(
        "generated {edges} edges in {secs:.3} s ({:.1} M edges/s, {} threads)",
        edges as f64 / secs / 1e6,
        rayon::current_num_threads()
    );

    let r = Report::new(&plan, &g);
    println!(
        "edges {} vs expected {:.0} (z {:.2}); max |z| over {} groups {:.2}; \
         KL(ideal||out) {:.2e} (log2 bins), KL(in||out) {:.3}",
        r.edges,
        r.expected_edges,
        r.edges_z,
        r.rows.groups.len(),
        r.rows.max_abs_z,
        r.rows.kl_ideal_out_log2,
        r.rows.kl_in_out_log2
    );
    assert!(r.edges_z.abs() < 6.0, "edge count far from the expectation");

    // Direction-optimizing BFS from the vertex of largest degree (the last group).
    let source = (0..g.nrows()).max_by_key(|&i| g.degree(i)).unwrap_or(0) as u32;
    let bg = BfsGraph::detect(&g);
    bg.prepare();
    let t = Instant::now();
    let res = bfs(&bg, &[source], &Beamer::default(), &BfsOptions::default())?;
    println!(
        "BFS from {source}: reached {} vertices, depth {}, {:.4} s",
        res.reached,
        res.max_depth,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
