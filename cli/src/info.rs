//! `info`, `convert` and `bench load`: inspecting, converting and timing graph files.

use std::path::Path;

use clap::Args;
use edgeblas::io::{self, Format, Graph};
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
pub fn convert(
    input: &InputArgs,
    output: &Path,
    to: Option<&str>,
    parts: Option<usize>,
) -> Result<()> {
    let format = to.map(Format::from_name).transpose()?;
    if let Some(p) = parts {
        if to.is_some_and(|t| t != "binary") {
            return Err(Error::InvalidArgument(format!(
                "--to {}: --parts writes binary parts (.ebg)",
                to.unwrap_or_default()
            )));
        }
        if output.is_file() {
            return Err(Error::InvalidArgument(format!(
                "{}: --parts writes a directory, and this is a file",
                output.display()
            )));
        }
        let g = input.load()?;
        io::parts::write_dir(output, &g, p)?;
        eprintln!(
            "wrote {} ({} vertices, {} arcs, {p} parts)",
            output.display(),
            g.vertices(),
            g.arcs()
        );
        return Ok(());
    }
    let g = input.load()?;
    // The input is read whole before anything is written, and the output replaces its
    // file by a rename, so `convert X X` is safe; it says so.
    let in_place = match (
        std::fs::canonicalize(&input.file),
        std::fs::canonicalize(output),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    io::write_graph(output, &g, format)?;
    eprintln!(
        "wrote {} ({} vertices, {} arcs)",
        output.display(),
        g.vertices(),
        g.arcs()
    );
    if in_place {
        eprintln!(
            "replaced {} in place (it was read whole first)",
            output.display()
        );
    }
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
