//! `info`, `convert`, `bench load` and `demo`: inspecting, converting and timing graph files.

use std::path::{Path, PathBuf};

use clap::Args;
use edgeblas::algo::bfs::{
    Beamer, BfsGraph, BfsOptions, BfsResult, Direction, Gunrock, Ligra, Policy, Pull, Push, Xbfs,
    bfs,
};
use edgeblas::algo::validate_bfs;
use edgeblas::io::{self, Format, Graph, ReadOptions};
use edgeblas::prelude::*;
use serde_json::json;

use crate::common::{InputArgs, median, timed};

/// Degree statistics of one direction.
fn degree_stats(degrees: impl Iterator<Item = u64>) -> serde_json::Value {
    let (mut min, mut max, mut sum, mut n) = (u64::MAX, 0u64, 0u64, 0u64);
    for d in degrees {
        min = min.min(d);
        max = max.max(d);
        sum += d;
        n += 1;
    }
    if n == 0 {
        min = 0;
    }
    json!({"min": min, "max": max, "mean": if n == 0 { 0.0 } else { sum as f64 / n as f64 }})
}

fn summary(g: &Graph, path: &Path) -> serde_json::Value {
    let a = &g.adjacency;
    let n = a.nrows();
    let mut indeg = vec![0u64; n];
    for &j in a.indices() {
        indeg[j as usize] += 1;
    }
    let isolated = (0..n)
        .filter(|&i| a.degree(i) == 0 && indeg[i] == 0)
        .count();
    json!({
        "file": path.display().to_string(),
        "vertices": g.vertices(),
        "arcs": g.arcs(),
        "records": g.records,
        "directed": g.directed,
        "self_loops": g.self_loops(),
        "duplicates": g.duplicates,
        "isolated": isolated,
        "weighted": g.weights.is_some(),
        "out_degree": degree_stats((0..n).map(|i| a.degree(i) as u64)),
        "in_degree": degree_stats(indeg.into_iter()),
    })
}

/// `edgeblas info FILE`.
pub fn info(input: &InputArgs, as_json: bool) -> Result<()> {
    let g = input.load()?;
    let s = summary(&g, &input.file);
    if as_json {
        println!("{s}");
    } else {
        println!("file        {}", s["file"].as_str().unwrap_or(""));
        for key in [
            "vertices",
            "arcs",
            "records",
            "directed",
            "self_loops",
            "duplicates",
            "isolated",
            "weighted",
        ] {
            println!("{key:<11} {}", s[key]);
        }
        for key in ["out_degree", "in_degree"] {
            let d = &s[key];
            println!(
                "{key:<11} min {} max {} mean {:.3}",
                d["min"],
                d["max"],
                d["mean"].as_f64().unwrap_or(0.0)
            );
        }
    }
    Ok(())
}

/// `edgeblas convert IN OUT`.
pub fn convert(input: &InputArgs, output: &Path, to: Option<&str>) -> Result<()> {
    let format = to.map(Format::from_name).transpose()?;
    let g = input.load()?;
    io::write_graph(output, &g, format)?;
    eprintln!(
        "wrote {} ({} vertices, {} arcs)",
        output.display(),
        g.vertices(),
        g.arcs()
    );
    Ok(())
}

/// Flags of `edgeblas bench load`.
#[derive(Args, Debug)]
pub struct BenchLoadArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Timed repetitions (after one untimed warm-up)
    #[arg(long, default_value_t = 5)]
    reps: usize,
    /// Worker threads (all cores by default)
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object
    #[arg(long)]
    json: bool,
}

/// `edgeblas bench load FILE`: median seconds and MB/s over repeated loads.
pub fn bench_load(a: &BenchLoadArgs) -> Result<()> {
    crate::common::set_threads(a.threads)?;
    if a.reps == 0 {
        return Err(Error::InvalidArgument("--reps: must be at least 1".into()));
    }
    let bytes = std::fs::metadata(&a.input.file)
        .map_err(|e| Error::io(&a.input.file, e))?
        .len();
    let g = a.input.load()?;
    let mut samples = Vec::with_capacity(a.reps);
    for _ in 0..a.reps {
        let (r, s) = timed(|| a.input.load());
        r?;
        samples.push(s);
    }
    let med = median(&mut samples);
    let out = json!({
        "file": a.input.file.display().to_string(),
        "bytes": bytes,
        "vertices": g.vertices(),
        "arcs": g.arcs(),
        "records": g.records,
        "reps": a.reps,
        "threads": rayon::current_num_threads(),
        "seconds_median": med,
        "mb_per_s": bytes as f64 / 1e6 / med,
        "seconds": samples,
    });
    if a.json {
        println!("{out}");
    } else {
        println!(
            "{}: {} bytes, median {:.4} s over {} loads, {:.1} MB/s",
            a.input.file.display(),
            bytes,
            med,
            a.reps,
            bytes as f64 / 1e6 / med
        );
    }
    Ok(())
}

/// Flags of `edgeblas demo`.
#[derive(Args, Debug)]
pub struct DemoArgs {
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

/// `edgeblas demo`: an R-MAT graph written as Matrix Market and binary, read back,
/// checked equal, and traversed breadth-first under every switching policy.
pub fn demo(a: &DemoArgs) -> Result<()> {
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
    let policies: Vec<Box<dyn Policy>> = vec![
        Box::new(Beamer::default()),
        Box::new(Gunrock::default()),
        Box::new(Ligra::default()),
        Box::new(Xbfs::default()),
        Box::new(Push),
        Box::new(Pull),
    ];
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
