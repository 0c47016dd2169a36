//! `pagerank`, `wcc`, `cdlp`, `lcc`, `tc` and `bc`: the LDBC Graphalytics kernels,
//! triangle counting and betweenness from the command line. Every output file has one
//! `id value` line per vertex, with the ids as written in the input.

use std::path::{Path, PathBuf};

use clap::Args;
use edgeblas::algo::{self, PageRankOptions, Presort, Stop, TriangleMethod, WccMethod};
use edgeblas::io::{self, Graph};
use edgeblas::prelude::*;
use serde_json::{Value, json};

use crate::common::{Backend, InputArgs, no_mpi_for, open_gpu, set_threads, sources_of, timed};

/// Flags every analytics command takes.
#[derive(Args, Debug)]
pub struct Common {
    #[command(flatten)]
    pub input: InputArgs,
    /// Worker threads (all cores by default)
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object
    #[arg(long)]
    pub json: bool,
}

/// Flags of `edgeblas pagerank`.
#[derive(Args, Debug)]
pub struct PageRankArgs {
    #[command(flatten)]
    pub common: Common,
    /// The damping factor, in [0, 1]
    #[arg(long, default_value_t = 0.85, allow_negative_numbers = true)]
    pub damping: f64,
    /// Run exactly this many iterations
    #[arg(long, conflicts_with = "tolerance")]
    pub iterations: Option<usize>,
    /// Stop when the L1 change of an iteration falls below this (default 1e-4)
    #[arg(long, allow_negative_numbers = true)]
    pub tolerance: Option<f64>,
    /// The most iterations under --tolerance
    #[arg(long, default_value_t = 1000)]
    pub max_iterations: usize,
    /// Write `id rank` per vertex
    #[arg(long, value_name = "OUT")]
    pub ranks: Option<PathBuf>,
    /// The float type of the sweep: f64 (Graphalytics-conformant) or f32 (half the
    /// bytes, about 7 significant digits; ranks are printed widened to f64)
    #[arg(long, default_value = "f64", value_parser = ["f32", "f64"])]
    pub precision: String,
    /// Where the iterations run: the CPU, the first CUDA GPU (the device algebra,
    /// `cuda::pagerank`; a build with --features cuda, a GPU and its driver), or mpi
    /// (under `mpirun -np P`, a build with --features mpi; the input a binary .ebg that
    /// every rank reads its rows of)
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
}

/// Flags of `edgeblas wcc`.
#[derive(Args, Debug)]
pub struct WccArgs {
    #[command(flatten)]
    pub common: Common,
    /// Write `id label` per vertex (a component's label is its smallest id)
    #[arg(long, value_name = "OUT")]
    pub labels: Option<PathBuf>,
    /// afforest (concurrent union-find; the default on the CPU and over MPI), fastsv
    /// (the algebra's rounds; the only method of the cuda backend), or auto (the
    /// backend's own); the labels are the same
    #[arg(long, default_value = "auto")]
    pub method: String,
    /// Where to run: cpu, cuda (a build with --features cuda and a GPU), or mpi (under
    /// `mpirun -np P`, a build with --features mpi; the input a binary .ebg that every
    /// rank reads its rows of)
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
}

/// Flags of `edgeblas cdlp`.
#[derive(Args, Debug)]
pub struct CdlpArgs {
    #[command(flatten)]
    pub common: Common,
    /// Rounds of label propagation
    #[arg(long, default_value_t = 10)]
    pub iterations: usize,
    /// Write `id label` per vertex
    #[arg(long, value_name = "OUT")]
    pub labels: Option<PathBuf>,
    /// Where to run: cpu, or cuda (a build with --features cuda and a GPU)
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
}

/// Flags of `edgeblas lcc`.
#[derive(Args, Debug)]
pub struct LccArgs {
    #[command(flatten)]
    pub common: Common,
    /// Write `id coefficient` per vertex
    #[arg(long, value_name = "OUT")]
    pub coefficients: Option<PathBuf>,
}

/// Flags of `edgeblas tc`.
#[derive(Args, Debug)]
pub struct TcArgs {
    #[command(flatten)]
    pub common: Common,
    /// sandia-ll (C<L> = L L'), sandia-uu (C<U> = U U'), burkhardt (C<A> = A A / 6), auto
    #[arg(long, default_value = "auto")]
    pub method: String,
    /// Vertex order before counting: auto (by degree when skewed), none, ascending, descending
    #[arg(long, default_value = "auto")]
    pub presort: String,
    /// Where the product runs: the CPU, or the first CUDA GPU (the device algebra's
    /// masked mxm, `cuda::triangle_count`; a build with --features cuda, a GPU and its
    /// driver)
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
}

/// Flags of `edgeblas bc`.
#[derive(Args, Debug)]
pub struct BcArgs {
    #[command(flatten)]
    pub common: Common,
    /// Source vertex ids as written in the file, comma-separated, or random:K[:SEED]
    /// (K distinct vertices with out-arcs)
    #[arg(long)]
    pub sources: String,
    /// Write `id centrality` per vertex
    #[arg(long, value_name = "OUT")]
    pub centrality: Option<PathBuf>,
}

/// A loaded graph and whether its pattern is symmetric (`A = A'`).
struct Loaded {
    g: Graph,
    symmetric: bool,
    load_seconds: f64,
}

impl Loaded {
    /// The algorithms' view of the graph: symmetric as found at load time, so that no
    /// algorithm checks it again inside its timing.
    fn graph(&self) -> algo::Graph<'_, ()> {
        algo::Graph::declared(&self.g.adjacency, self.symmetric)
    }
}

fn load(c: &Common) -> Result<Loaded> {
    set_threads(c.threads)?;
    let (g, load_seconds) = timed(|| c.input.load());
    let g = g?;
    let symmetric = !g.directed || algo::is_symmetric_pattern(&g.adjacency);
    Ok(Loaded {
        g,
        symmetric,
        load_seconds,
    })
}

/// The JSON fields every command prints, with `extra` after them.
fn report(c: &Common, l: &Loaded, extra: Value) -> Value {
    let mut out = json!({
        "file": c.input.file.display().to_string(),
        "vertices": l.g.vertices(),
        "arcs": l.g.arcs(),
        "directed": l.g.directed,
        "symmetric": l.symmetric,
        "threads": rayon::current_num_threads(),
        "load_seconds": l.load_seconds,
    });
    if let (Value::Object(o), Value::Object(e)) = (&mut out, extra) {
        o.extend(e);
    }
    out
}

/// Writes `id value` per vertex.
fn write_values<T>(
    path: &Path,
    g: &Graph,
    values: &[T],
    text: impl Fn(&T) -> String,
) -> Result<()> {
    io::write_atomically(path, |w| {
        for (v, x) in values.iter().enumerate() {
            writeln!(w, "{} {}", g.ids.external(v), text(x))?;
        }
        Ok(())
    })
}

/// A float as the output files write it: the shortest text that reads back the same.
fn float_text(x: &f64) -> String {
    format!("{x:?}")
}

/// `edgeblas pagerank FILE`.
pub fn pagerank(a: &PageRankArgs) -> Result<()> {
    let stop = match (a.iterations, a.tolerance) {
        (Some(k), _) => Stop::Iterations(k),
        (None, t) => Stop::Tolerance {
            tolerance: t.unwrap_or(1e-4),
            max_iterations: a.max_iterations,
        },
    };
    let opts = PageRankOptions {
        damping: a.damping,
        stop,
    };
    opts.check().map_err(|e| match e {
        Error::InvalidArgument(m) if m.starts_with("iterations") && a.iterations.is_none() => {
            Error::InvalidArgument(format!("--max-{m}"))
        }
        Error::InvalidArgument(m) => Error::InvalidArgument(format!("--{m}")),
        e => e,
    })?;
    let gpu = match a.backend {
        Backend::Cpu => None,
        Backend::Cuda => Some(open_gpu()?),
        Backend::Mpi => return crate::distributed::pagerank(a, &opts),
    };
    let precision: algo::Precision = a.precision.parse()?;
    let l = load(&a.common)?;
    let graph = l.graph();
    let (pr, seconds) = match &gpu {
        None => timed(|| algo::pagerank_with(&graph, &opts, precision)),
        // As on the CPU, the clock includes building the in-edges; on the GPU also
        // their upload and the ranks' download.
        Some(gpu) => timed(|| edgeblas::cuda::pagerank(gpu, &graph, &opts, precision)),
    };
    let pr = pr?;
    if let Some(p) = &a.ranks {
        write_values(p, &l.g, &pr.ranks, float_text)?;
    }
    // + 0.0: an empty sum is -0.0, printed as such.
    let sum: f64 = pr.ranks.iter().sum::<f64>() + 0.0;
    let converged = match stop {
        Stop::Iterations(_) => None,
        Stop::Tolerance { tolerance, .. } => Some(pr.change < tolerance),
    };
    if a.common.json {
        let out = report(
            &a.common,
            &l,
            json!({
                "damping": a.damping,
                "precision": a.precision,
                "backend": a.backend.name(),
                "iterations": pr.iterations,
                "change": pr.change,
                "converged": converged,
                "sum": sum,
                "seconds": seconds,
            }),
        );
        println!("{out}");
    } else {
        println!(
            "pagerank: {} iterations (last L1 change {:.3e}), rank sum {sum:.12}, {seconds:.6} s",
            pr.iterations, pr.change
        );
    }
    Ok(())
}

/// `edgeblas wcc FILE`.
pub fn wcc(a: &WccArgs) -> Result<()> {
    if a.backend == Backend::Mpi {
        // checks --method itself, once MPI is up, so that only rank 0 reports
        return crate::distributed::wcc(a);
    }
    let method = wcc_method(a)?;
    let gpu = match a.backend {
        Backend::Cuda => Some(open_gpu()?),
        Backend::Cpu | Backend::Mpi => None,
    };
    let l = load(&a.common)?;
    let graph = l.graph();
    let (c, seconds) = match &gpu {
        None => timed(|| algo::wcc_with(&graph, method)),
        // As on the CPU, the clock includes symmetrising a directed graph; on the GPU
        // also the upload and the labels' download.
        Some(gpu) => {
            let (c, t) = timed(|| edgeblas::cuda::wcc(gpu, &graph));
            (c?, t)
        }
    };
    if let Some(p) = &a.labels {
        write_values(p, &l.g, &c.labels, |&x| {
            l.g.ids.external(x as usize).to_string()
        })?;
    }
    let (components, largest) = (c.count(), c.largest());
    if a.common.json {
        let out = report(
            &a.common,
            &l,
            json!({
                "components": components,
                "largest": largest,
                "backend": a.backend.name(),
                "rounds": c.rounds,
                "method": method.name(),
                "seconds": seconds,
            }),
        );
        println!("{out}");
    } else {
        println!(
            "wcc: {components} components, the largest of {largest} vertices, {} rounds, {seconds:.6} s",
            c.rounds
        );
    }
    Ok(())
}

/// The method `wcc --method` names for its backend: `auto` is Afforest on the CPU and
/// over MPI, FastSV on the GPU, which has only FastSV.
pub fn wcc_method(a: &WccArgs) -> Result<WccMethod> {
    let own = match a.backend {
        Backend::Cpu | Backend::Mpi => WccMethod::Afforest,
        Backend::Cuda => WccMethod::FastSv,
    };
    if a.method == "auto" {
        return Ok(own);
    }
    let m = WccMethod::from_name(&a.method)?;
    if m != own && a.backend == Backend::Cuda {
        return Err(Error::InvalidArgument(format!(
            "--method {}: --backend {} runs fastsv only",
            a.method,
            a.backend.name()
        )));
    }
    Ok(m)
}

/// `edgeblas cdlp FILE`.
pub fn cdlp(a: &CdlpArgs) -> Result<()> {
    if a.iterations == 0 {
        return Err(Error::InvalidArgument(
            "--iterations: must be at least 1".into(),
        ));
    }
    let gpu = match a.backend {
        Backend::Cpu => None,
        Backend::Cuda => Some(open_gpu()?),
        Backend::Mpi => return Err(no_mpi_for("cdlp")),
    };
    let l = load(&a.common)?;
    let graph = l.graph();
    // As on the CPU, the clock includes building the count matrix; on the GPU also its
    // upload and the labels' download.
    let (labels, seconds) = match &gpu {
        None => timed(|| algo::cdlp(&graph, a.iterations)),
        Some(gpu) => {
            let (l, t) = timed(|| edgeblas::cuda::cdlp(gpu, &graph, a.iterations));
            (l?, t)
        }
    };
    if let Some(p) = &a.labels {
        write_values(p, &l.g, &labels, |&x| {
            l.g.ids.external(x as usize).to_string()
        })?;
    }
    let mut seen = vec![false; labels.len()];
    let mut communities = 0;
    for &x in &labels {
        if !std::mem::replace(&mut seen[x as usize], true) {
            communities += 1;
        }
    }
    if a.common.json {
        let out = report(
            &a.common,
            &l,
            json!({
                "iterations": a.iterations,
                "communities": communities,
                "backend": a.backend.name(),
                "seconds": seconds,
            }),
        );
        println!("{out}");
    } else {
        println!(
            "cdlp: {communities} communities after {} iterations, {seconds:.6} s",
            a.iterations
        );
    }
    Ok(())
}

/// `edgeblas lcc FILE`.
pub fn lcc(a: &LccArgs) -> Result<()> {
    let l = load(&a.common)?;
    let (c, seconds) = timed(|| algo::lcc(&l.graph()));
    if let Some(p) = &a.coefficients {
        write_values(p, &l.g, &c, float_text)?;
    }
    let mean = if c.is_empty() {
        0.0
    } else {
        c.iter().sum::<f64>() / c.len() as f64
    };
    if a.common.json {
        let out = report(&a.common, &l, json!({ "mean": mean, "seconds": seconds }));
        println!("{out}");
    } else {
        println!("lcc: mean coefficient {mean:.9}, {seconds:.6} s");
    }
    Ok(())
}

/// `edgeblas tc FILE`.
pub fn tc(a: &TcArgs) -> Result<()> {
    let method = TriangleMethod::from_name(&a.method)?;
    let presort = match a.presort.as_str() {
        "auto" => Presort::Auto,
        "none" => Presort::None,
        "ascending" => Presort::Ascending,
        "descending" => Presort::Descending,
        p => {
            return Err(Error::InvalidArgument(format!(
                "--presort {p}: expected auto, none, ascending or descending"
            )));
        }
    };
    let gpu = match a.backend {
        Backend::Cpu => None,
        Backend::Cuda => Some(open_gpu()?),
        Backend::Mpi => return Err(no_mpi_for("tc")),
    };
    let l = load(&a.common)?;
    if !l.symmetric {
        return Err(Error::InvalidArgument(format!(
            "{}: tc counts the triangles of an undirected graph, and this one is directed \
             (some arc has no reverse); pass --undirected to take every arc both ways",
            a.common.input.file.display()
        )));
    }
    let graph = l.graph();
    let (t, seconds) = match &gpu {
        None => timed(|| Ok(algo::triangle_count(&graph, method, presort))),
        // On the GPU the clock includes the operand's upload.
        Some(gpu) => timed(|| edgeblas::cuda::triangle_count(gpu, &graph, method, presort)),
    };
    let t = t?;
    let presort_name = match t.presort {
        Presort::Ascending => "ascending",
        Presort::Descending => "descending",
        _ => "none",
    };
    if a.common.json {
        let out = report(
            &a.common,
            &l,
            json!({
                "triangles": t.triangles,
                "method": t.method.name(),
                "presort": presort_name,
                "backend": a.backend.name(),
                "seconds": seconds,
            }),
        );
        println!("{out}");
    } else {
        println!(
            "tc: {} triangles ({}, presort {presort_name}), {seconds:.6} s",
            t.triangles,
            t.method.name()
        );
    }
    Ok(())
}

/// `edgeblas bc FILE --sources ...`.
pub fn bc(a: &BcArgs) -> Result<()> {
    let l = load(&a.common)?;
    let sources = sources_of(&l.g, &a.sources, "--sources")?;
    let (c, seconds) = timed(|| algo::betweenness(&l.graph(), &sources));
    if let Some(p) = &a.centrality {
        write_values(p, &l.g, &c, float_text)?;
    }
    let max = c.iter().copied().fold(0.0f64, f64::max);
    let sum: f64 = c.iter().sum::<f64>() + 0.0;
    if a.common.json {
        let out = report(
            &a.common,
            &l,
            json!({
                "sources": sources.iter().map(|&s| l.g.ids.external(s as usize)).collect::<Vec<_>>(),
                "max": max,
                "sum": sum,
                "seconds": seconds,
            }),
        );
        println!("{out}");
    } else {
        println!(
            "bc: {} sources, largest centrality {max}, sum {sum}, {seconds:.6} s",
            sources.len()
        );
    }
    Ok(())
}
