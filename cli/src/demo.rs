//! `edgeblas demo`: the end-to-end demonstration. By default a Chung-Lu proxy of a real
//! network (web-NotreDame's degree distribution, embedded in the binary) with its quality
//! report and plot, then direction-optimizing BFS and Bellman-Ford on it; `demo rmat` is
//! the R-MAT file round trip with BFS under every switching policy.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use edgeblas::algo::bfs::{
    Beamer, BfsGraph, BfsOptions, BfsResult, Direction, Policy, bfs, builtin_policies,
};
use edgeblas::algo::{bellman_ford, validate_bfs};
use edgeblas::generate::chung_lu::{
    self, Degrees, Plan, PlanOptions, Report, WEB_NOTREDAME_DEGREES,
};
use edgeblas::io::{self, Graph, ReadOptions};
use edgeblas::prelude::*;
use rayon::prelude::*;
use serde_json::json;

use crate::common::{median, set_threads, timed};
use crate::generate::{Feedback, Monitor};

/// Flags of `edgeblas demo`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct DemoArgs {
    #[command(subcommand)]
    what: Option<DemoCommand>,
    #[command(flatten)]
    proxy: ProxyArgs,
}

/// The demonstrations other than the default one.
#[derive(Subcommand, Debug)]
enum DemoCommand {
    /// R-MAT graph written as Matrix Market and binary, read back, checked equal, and
    /// traversed breadth-first under every switching policy
    Rmat(RmatDemoArgs),
}

/// Which weights Bellman-Ford runs on.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Weights {
    /// Every edge weighs 1: the distances must equal the BFS levels
    Unit,
    /// Every edge weighs an integer in 1..=10, drawn from the seed and the edge
    Random,
}

/// Flags of the default demonstration (the web-NotreDame proxy).
#[derive(Args, Debug)]
struct ProxyArgs {
    /// Folder for the report (report.json), the plot (degrees.png) and the summary
    /// (summary.json)
    #[arg(long, value_name = "DIR", default_value = "demo-out")]
    out: PathBuf,
    /// Multiply every degree's vertex count by K (rounded up) for a bigger proxy, or
    /// shrink it with K < 1
    #[arg(long, value_name = "K", default_value_t = 1.0)]
    scale: f64,
    /// Random seed of the generator (and of --weights random)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Edge weights for Bellman-Ford
    #[arg(long, value_enum, default_value_t = Weights::Unit)]
    weights: Weights,
    /// Worker threads (all cores by default)
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    feedback: Feedback,
}

/// `edgeblas demo [rmat]`.
pub fn demo(a: &DemoArgs) -> Result<()> {
    match &a.what {
        Some(DemoCommand::Rmat(r)) => rmat_demo(r),
        None => proxy_demo(&a.proxy),
    }
}

/// Where the embedded distribution comes from, in one line.
const PROVENANCE: &str = "SNAP web-NotreDame (Albert, Jeong and Barabasi, Nature 1999; \
                          Leskovec and Krevl, SNAP 2014), undirected degrees";

/// Edges of the real web-NotreDame graph read as undirected and simple (S / 2).
const REAL_EDGES: u64 = 1_090_108;

/// The embedded distribution, every count multiplied by `scale` and rounded up.
fn embedded_degrees(scale: f64) -> Result<Degrees> {
    if !(scale.is_finite() && scale > 0.0 && scale <= 100.0) {
        return Err(Error::InvalidArgument(format!(
            "--scale {scale}: must be in (0, 100]"
        )));
    }
    let d = chung_lu::parse_degrees("web-NotreDame", WEB_NOTREDAME_DEGREES.as_bytes(), false)?;
    let Degrees::Histogram(h) = d else {
        return Err(Error::InvalidStructure(
            "the embedded distribution is not a histogram".into(),
        ));
    };
    let h = h
        .into_iter()
        .map(|(deg, c)| (deg, (c as f64 * scale).ceil() as u64))
        .collect();
    let d = Degrees::Histogram(h);
    d.validate()
        .map_err(|e| Error::InvalidArgument(format!("--scale {scale}: {e}")))?;
    Ok(d)
}

/// The weight of the undirected edge `{u, v}` under `seed`: an integer in 1..=10, the same
/// both ways.
fn edge_weight(seed: u64, u: u32, v: u32) -> f64 {
    let (a, b) = if u < v { (u, v) } else { (v, u) };
    let x = chung_lu::rng::mix(chung_lu::rng::stream_key(
        seed,
        u64::MAX - 3,
        ((a as u64) << 32) | b as u64,
    ));
    (1 + (((x >> 32) * 10) >> 32)) as f64
}

/// Checks that `dist` / `pred` are shortest paths from `source` over `w` (non-negative
/// weights): the source at 0; no arc `u -> v` with `d(u) + w < d(v)`; every other
/// reached vertex at exactly `d(pred) + w(pred, v)`; unreached vertices have no reached
/// in-neighbour (the first rule covers it).
fn check_shortest_paths(
    w: &Csr<f64>,
    source: u32,
    dist: &[f64],
    pred: &[u32],
) -> std::result::Result<(), String> {
    if dist[source as usize] != 0.0 {
        return Err(format!(
            "source {source} at distance {}",
            dist[source as usize]
        ));
    }
    (0..w.nrows()).into_par_iter().try_for_each(|u| {
        let (cols, ws) = w.row(u);
        let du = dist[u];
        if du.is_finite() {
            for (&v, &x) in cols.iter().zip(ws) {
                if du + x < dist[v as usize] {
                    return Err(format!(
                        "arc {u} -> {v} (weight {x}) shortens {} to {}",
                        dist[v as usize],
                        du + x
                    ));
                }
            }
        }
        if u != source as usize && du.is_finite() {
            let p = pred[u];
            let via = w
                .get(p as usize, u)
                .map(|x| dist[p as usize] + x)
                .ok_or_else(|| format!("vertex {u}: predecessor {p} has no arc to it"))?;
            if via != du {
                return Err(format!(
                    "vertex {u} at {du}, but its predecessor {p} gives {via}"
                ));
            }
        }
        Ok(())
    })
}

/// The default demonstration: a Chung-Lu proxy of web-NotreDame, its report and plot,
/// BFS (Beamer) validated, Bellman-Ford checked, and a summary.
fn proxy_demo(a: &ProxyArgs) -> Result<()> {
    set_threads(a.threads)?;
    let t_all = std::time::Instant::now();
    let degrees = embedded_degrees(a.scale)?;
    let plan = Plan::new(&degrees, &PlanOptions::default())?;
    let monitor = Monitor::new("chung-lu", a.feedback.quiet, a.feedback.timings);
    let (g, gen_secs) = timed(|| chung_lu::generate_with_progress(&plan, a.seed, Some(&monitor)));
    monitor.finish();
    let report = Report::new(&plan, &g);

    std::fs::create_dir_all(&a.out).map_err(|e| Error::io(&a.out, e))?;
    let report_path = a.out.join("report.json");
    let plot_path = a.out.join("degrees.png");
    io::write_atomically(&report_path, |w| w.write_all(report.to_json().as_bytes()))?;
    report.plot(&plot_path)?;

    // Direction-optimizing BFS (Beamer's policy) from the vertex of largest degree: the
    // median of three runs, each validated.
    let n = g.nrows();
    let source = (0..n)
        .max_by_key(|&i| (g.degree(i), std::cmp::Reverse(i)))
        .unwrap_or(0) as u32;
    let bg = BfsGraph::detect(&g);
    bg.prepare();
    let policy = Beamer::default();
    let mut samples = Vec::with_capacity(3);
    let mut result = None;
    for _ in 0..3 {
        let (r, secs) = timed(|| bfs(&bg, &[source], &policy, &BfsOptions::default()));
        let r = r?;
        validate_bfs(&g, &[source], &r)
            .map_err(|v| Error::InvalidStructure(format!("invalid BFS: {v}")))?;
        samples.push(secs);
        result = Some(r);
    }
    let bfs_secs = median(&mut samples);
    let r = result.expect("three runs");
    let traversed = r.traversed_edges(&g);
    let gteps = traversed as f64 / bfs_secs / 1e9;

    // Bellman-Ford from the same source, checked: optimality conditions always, and with
    // unit weights the distances equal the BFS levels.
    let w = match a.weights {
        Weights::Unit => g.map(|_| 1.0),
        Weights::Random => {
            let vals: Vec<f64> = (0..n)
                .into_par_iter()
                .flat_map_iter(|u| {
                    g.row(u)
                        .0
                        .iter()
                        .map(move |&v| edge_weight(a.seed, u as u32, v))
                })
                .collect();
            Csr::new_checked(n, n, g.offsets().to_vec(), g.indices().to_vec(), vals)?
        }
    };
    let (sp, bf_secs) = timed(|| bellman_ford(&edgeblas::graph::Graph::directed(&w), source));
    let sp = sp?;
    check_shortest_paths(&w, source, &sp.distances, &sp.predecessors)
        .map_err(|m| Error::InvalidStructure(format!("Bellman-Ford: {m}")))?;
    if sp.reached() != r.reached {
        return Err(Error::InvalidStructure(format!(
            "Bellman-Ford reached {} vertices, BFS {}",
            sp.reached(),
            r.reached
        )));
    }
    if a.weights == Weights::Unit
        && let Some(v) = (0..n).find(|&v| {
            let l = r.level(v).map_or(f64::INFINITY, |l| l as f64);
            sp.distances[v] != l
        })
    {
        return Err(Error::InvalidStructure(format!(
            "vertex {v}: Bellman-Ford distance {} but BFS level {:?}",
            sp.distances[v],
            r.level(v)
        )));
    }
    let max_dist = sp
        .distances
        .iter()
        .copied()
        .filter(|d| d.is_finite())
        .fold(0.0f64, f64::max);
    let threads = rayon::current_num_threads();
    let total_secs = t_all.elapsed().as_secs_f64();

    let summary = json!({
        "distribution": "web-NotreDame",
        "provenance": PROVENANCE,
        "scale": a.scale,
        "seed": a.seed,
        "threads": threads,
        "vertices": n,
        "groups": plan.rows.len(),
        "clamped": report.clamped,
        "input_edges": degrees.sum_out() as f64 / 2.0,
        "expected_edges": report.expected_edges,
        "edges": report.edges,
        "edges_z": report.edges_z,
        "generate_seconds": gen_secs,
        "kl_ideal_out_log2": report.rows.kl_ideal_out_log2,
        "kl_in_out_log2": report.rows.kl_in_out_log2,
        "max_abs_group_z": report.rows.max_abs_z,
        "report": report_path,
        "plot": plot_path,
        "source": source,
        "bfs": {
            "policy": policy.name(),
            "reached": r.reached,
            "depth": r.max_depth,
            "traversed_edges": traversed,
            "seconds_median": bfs_secs,
            "gteps": gteps,
            "validated": true,
        },
        "bellman_ford": {
            "weights": format!("{:?}", a.weights).to_lowercase(),
            "reached": sp.reached(),
            "max_distance": max_dist,
            "rounds": sp.rounds,
            "seconds": bf_secs,
            "checked": true,
        },
        "seconds": total_secs,
    });
    let summary_path = a.out.join("summary.json");
    io::write_atomically(&summary_path, |w| writeln!(w, "{summary:#}"))?;

    println!("Chung-Lu proxy of web-NotreDame");
    println!("  distribution  {PROVENANCE}, embedded in the binary");
    println!(
        "                {} degree groups, degrees 1..{}, counts x {}",
        plan.rows.len(),
        degrees.max_degree(),
        a.scale
    );
    let real = if a.scale == 1.0 {
        format!(" (the real graph has {REAL_EDGES})")
    } else {
        String::new()
    };
    println!(
        "  generated     n = {n}, {} edges, expected {:.0} (z {:+.2}){real}, in {gen_secs:.3} s on {threads} threads, seed {}",
        report.edges, report.expected_edges, report.edges_z, a.seed
    );
    if report.clamped {
        println!(
            "                (some w_u w_v > S: those pair probabilities are clamped to 1, so fewer edges than S/2 = {:.0} are expected)",
            degrees.sum_out() as f64 / 2.0
        );
    }
    println!(
        "  quality       K-L(ideal || output) {:.2e} nats, K-L(input || output) {:.3} nats (log2 degree bins); max |z| over groups {:.2}",
        report.rows.kl_ideal_out_log2, report.rows.kl_in_out_log2, report.rows.max_abs_z
    );
    println!(
        "  wrote         {}, {}, {}",
        report_path.display(),
        plot_path.display(),
        summary_path.display()
    );
    println!(
        "  BFS           {} from vertex {source} (degree {}): reached {}, depth {}, {bfs_secs:.4} s (median of 3), {gteps:.3} GTEPS, validated",
        policy.name(),
        g.degree(source as usize),
        r.reached,
        r.max_depth
    );
    let agree = if a.weights == Weights::Unit {
        "distances equal the BFS levels"
    } else {
        "shortest-path conditions hold"
    };
    println!(
        "  Bellman-Ford  {} weights: reached {}, max distance {max_dist}, {} rounds, {bf_secs:.4} s; {agree}",
        format!("{:?}", a.weights).to_lowercase(),
        sp.reached(),
        sp.rounds
    );
    println!("  total         {total_secs:.2} s");
    Ok(())
}

/// Flags of `edgeblas demo rmat`.
#[derive(Args, Debug)]
struct RmatDemoArgs {
    /// log2 of the number of vertices of the generated graph
    #[arg(long, default_value_t = 18)]
    scale: u32,
    /// Arcs per vertex
    #[arg(long, default_value_t = 8)]
    edge_factor: u32,
    /// Random seed
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Folder for the demo's files (a temporary one by default)
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// splitmix64: a tiny seeded generator, enough for a demonstration graph.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `edgeblas demo rmat`: an R-MAT graph written as Matrix Market and binary, read back,
/// checked equal, and traversed breadth-first under every switching policy.
fn rmat_demo(a: &RmatDemoArgs) -> Result<()> {
    if a.scale == 0 || a.scale > 26 {
        return Err(Error::InvalidArgument("--scale: must be in 1..=26".into()));
    }
    let n = 1usize << a.scale;
    let m = n * a.edge_factor as usize;
    let mut st = a.seed;
    let mut b = CooBuilder::with_capacity(n, n, m);
    for _ in 0..m {
        let (mut i, mut j) = (0usize, 0usize);
        for _ in 0..a.scale {
            let r = (splitmix(&mut st) >> 11) as f64 / (1u64 << 53) as f64;
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
            b.push(i, j, ())?;
        }
    }
    b.symmetrize();
    let (adjacency, duplicates) = b.build_counted(Duplicates::KeepFirst)?;
    println!(
        "generated R-MAT scale {} (seed {}): {} vertices, {} arcs ({} duplicate arcs merged)",
        a.scale,
        a.seed,
        n,
        adjacency.nnz(),
        duplicates
    );
    let records = adjacency.nnz() as u64;
    let g = Graph {
        adjacency,
        weights: None,
        value_type: io::ValueType::Pattern,
        ids: io::VertexIds::Offset(1),
        directed: true,
        records,
        duplicates: 0,
    };
    let tmp;
    let dir = match &a.dir {
        Some(d) => d.clone(),
        None => {
            tmp = std::env::temp_dir().join(format!("edgeblas-demo-{}", std::process::id()));
            tmp.clone()
        }
    };
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let opts = ReadOptions::default();
    for name in ["demo.mtx", "demo.ebg"] {
        let p = dir.join(name);
        let (w, tw) = timed(|| io::write_graph(&p, &g, None));
        w?;
        let (back, tr) = timed(|| io::read_graph(&p, &opts));
        let back = back?;
        if back.adjacency != g.adjacency {
            return Err(Error::InvalidStructure(format!(
                "{} did not read back equal",
                p.display()
            )));
        }
        println!(
            "wrote {} in {:.3} s, read it back equal in {:.3} s",
            p.display(),
            tw,
            tr
        );
    }
    if a.dir.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }

    // Direction-optimizing BFS from vertex 0 under every switching policy: the parents
    // must agree exactly, and each result must pass the Graph500-style validator.
    let bg = BfsGraph::detect(&g.adjacency);
    bg.prepare();
    let policies = builtin_policies();
    let opts = BfsOptions {
        trace: true,
        ..BfsOptions::default()
    };
    let mut first: Option<BfsResult> = None;
    println!("BFS from vertex 1 (id as written; index 0), GTEPS = undirected edges traversed / s:");
    for p in &policies {
        let (r, secs) = timed(|| bfs(&bg, &[0], p.as_ref(), &opts));
        let r = r?;
        validate_bfs(&g.adjacency, &[0], &r)
            .map_err(|v| Error::InvalidStructure(format!("{}: invalid BFS: {v}", p.name())))?;
        let edges = r.traversed_edges(&g.adjacency);
        let dirs: String = r
            .trace
            .iter()
            .map(|t| {
                if t.direction == Direction::Push {
                    'P'
                } else {
                    'U'
                }
            })
            .collect();
        println!(
            "  {:<28} reached {:>8}  depth {:>3}  {:>8.4} s  {:>6.3} GTEPS  levels {}",
            p.name(),
            r.reached,
            r.max_depth,
            secs,
            edges as f64 / secs / 1e9,
            dirs
        );
        match &first {
            None => first = Some(r),
            Some(f) if f.parents != r.parents || f.levels != r.levels => {
                return Err(Error::InvalidStructure(format!(
                    "{} gave different parents than {}",
                    p.name(),
                    policies[0].name()
                )));
            }
            Some(_) => {}
        }
    }
    println!("  (levels: P = push, U = pull); parents identical under every policy");
    if let Some(f) = first {
        println!("trace of {}:", policies[0].name());
        println!("  level direction frontier_vertices frontier_edges edges_examined seconds");
        for t in &f.trace {
            println!(
                "  {:>5} {:<9} {:>17} {:>14} {:>14} {:>9.6}",
                t.level,
                format!("{:?}", t.direction).to_lowercase(),
                t.frontier_vertices,
                t.frontier_edges,
                t.edges_examined,
                t.seconds
            );
        }
    }
    Ok(())
}
