//! `generate chung-lu`, `generate rmat` and `bench chung-lu`: synthetic graphs written
//! straight into CSR, then to any graph format; quality reports and plots.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use edgeblas::generate::Progress;
use edgeblas::generate::chung_lu::{self, Coarsen, Degrees, Plan, PlanOptions, PowerLaw, Report};
use edgeblas::generate::rmat::Rmat;
use edgeblas::io::{self, Format, Graph, ReadOptions, ValueType, VertexIds};
use edgeblas::matrix::Csr;
use edgeblas::{Error, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;

use crate::common::{Backend, ScheduleName, median, no_mpi_for, open_gpu, set_threads, timed};

/// `edgeblas generate ...`: the generators.
#[derive(Subcommand, Debug)]
pub enum GenerateCommand {
    /// Chung-Lu graph from a degree distribution (Alam-Perumalla method), straight into CSR
    ChungLu(ChungLuArgs),
    /// Graph500 Kronecker / R-MAT graph
    Rmat(RmatArgs),
}

/// Where the degree distribution comes from (exactly one).
#[derive(Args, Debug, Clone)]
#[group(required = true, multiple = false)]
pub struct DegreeSource {
    /// A degree file: one expected degree per line (vertex i on line i; `out in` with
    /// --directed), or a `degree,count` CSV histogram with a header
    #[arg(long, value_name = "FILE")]
    pub degrees: Option<PathBuf>,
    /// Directed: a file of expected out-degrees (a sequence, vertex i on line i, or a
    /// degree,count histogram), with --in-degrees for the in-degrees of the same vertices
    #[arg(long, value_name = "FILE", requires = "in_degrees")]
    pub out_degrees: Option<PathBuf>,
    /// A power law: n=N,gamma=G,dmin=D[,dmax=M] (dmax defaults to floor(sqrt(S)))
    #[arg(long, value_name = "SPEC")]
    pub power_law: Option<String>,
    /// The degree distribution of an existing graph file
    #[arg(long, value_name = "GRAPHFILE")]
    pub like: Option<PathBuf>,
}

/// Flags shared by `generate chung-lu` and `bench chung-lu`.
#[derive(Args, Debug, Clone)]
pub struct ChungLuModel {
    #[command(flatten)]
    pub source: DegreeSource,
    /// Directed: the expected in-degrees that go with --out-degrees, as many vertices (a
    /// histogram lists its vertices in ascending degree)
    #[arg(long, value_name = "FILE", requires = "out_degrees")]
    pub in_degrees: Option<PathBuf>,
    /// Coarsen the distribution: merge neighbouring degree groups within a factor 1 + DELTA
    #[arg(long, value_name = "DELTA")]
    pub coarsen: Option<f64>,
    /// Degrees at or below DCUT are never merged by --coarsen
    #[arg(long, value_name = "DCUT", requires = "coarsen", default_value_t = 0.0)]
    pub coarsen_cut: f64,
    /// Generate arcs with an out- and an in-degree per vertex (p = out_u in_v / S)
    #[arg(long)]
    pub directed: bool,
    /// Random seed: the same seed gives the same graph for any thread count
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (all cores by default)
    #[arg(long)]
    pub threads: Option<usize>,
    /// Where to generate: cpu, cuda (the first GPU, straight into device memory), or
    /// mpi (under `mpirun -np P`, a build with --features mpi; rank 0 writes)
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
    /// How the GPU spreads the chunks (--backend cuda; default balanced). Every schedule
    /// gives the same graph
    #[arg(long, value_enum)]
    pub schedule: Option<ScheduleName>,
}

/// Flags of `edgeblas generate chung-lu`.
#[derive(Args, Debug, Clone)]
pub struct ChungLuArgs {
    #[command(flatten)]
    pub model: ChungLuModel,
    /// The output graph file (.mtx, .txt/.el, .ebg, ...; add .gz to compress); with
    /// --backend mpi, a directory (existing, or named with a final /) gets one part per rank
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Output format, overriding the extension
    #[arg(long)]
    pub to: Option<String>,
    /// Write the quality report (JSON) here
    #[arg(long, value_name = "R.json")]
    pub report: Option<PathBuf>,
    /// Draw the input, output and ideal degree distributions here (.png or .svg)
    #[arg(long, value_name = "P.png")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub feedback: Feedback,
}

/// What a generation shows on stderr while it runs.
#[derive(Args, Debug, Clone, Default)]
pub struct Feedback {
    /// No progress bar (there is none either when stderr is not a terminal)
    #[arg(long)]
    pub quiet: bool,
    /// Print the end of every generation phase on stderr, in seconds since the start
    #[arg(long)]
    pub timings: bool,
}

/// Flags of `edgeblas generate rmat`.
#[derive(Args, Debug, Clone)]
pub struct RmatArgs {
    /// log2 of the number of vertices
    #[arg(long)]
    pub scale: u32,
    /// Edges sampled per vertex
    #[arg(long, default_value_t = 16)]
    pub edge_factor: u64,
    /// Probability of the top-left quadrant
    #[arg(long, default_value_t = 0.57)]
    pub a: f64,
    /// Probability of the top-right quadrant
    #[arg(long, default_value_t = 0.19)]
    pub b: f64,
    /// Probability of the bottom-left quadrant (bottom-right: 1 - a - b - c)
    #[arg(long, default_value_t = 0.19)]
    pub c: f64,
    /// Random seed
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Store every edge both ways
    #[arg(long)]
    pub undirected: bool,
    /// Keep the generator's vertex ids (Graph500 permutes them)
    #[arg(long)]
    pub no_permute: bool,
    /// Worker threads (all cores by default)
    #[arg(long)]
    pub threads: Option<usize>,
    /// The output graph file
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Output format, overriding the extension
    #[arg(long)]
    pub to: Option<String>,
    #[command(flatten)]
    pub feedback: Feedback,
}

/// Flags of `edgeblas bench chung-lu`.
#[derive(Args, Debug, Clone)]
pub struct BenchChungLuArgs {
    #[command(flatten)]
    pub model: ChungLuModel,
    /// Timed repetitions (after one untimed warm-up)
    #[arg(long, default_value_t = 5)]
    pub reps: usize,
    /// Print one JSON object
    #[arg(long)]
    pub json: bool,
}

impl ChungLuModel {
    /// The GPU and schedule for `--backend cuda`; `None` for the CPU.
    fn device(&self) -> Result<Option<(edgeblas::cuda::Gpu, edgeblas::cuda::Schedule)>> {
        match self.backend {
            Backend::Cpu => {
                if self.schedule.is_some() {
                    return Err(Error::InvalidArgument(
                        "--schedule applies to --backend cuda (the CPU always balances by cost)"
                            .into(),
                    ));
                }
                Ok(None)
            }
            Backend::Cuda => Ok(Some((
                open_gpu()?,
                self.schedule.unwrap_or(ScheduleName::Balanced).schedule(),
            ))),
            Backend::Mpi => Err(no_mpi_for("this command")),
        }
    }

    /// Reads the distribution and plans the generation.
    fn plan(&self) -> Result<Plan> {
        self.plan_from(&self.degrees()?)
    }

    /// Reads the degree distribution the flags name.
    pub(crate) fn degrees(&self) -> Result<Degrees> {
        let s = &self.source;
        let degrees = if let Some(p) = &s.degrees {
            chung_lu::read_degrees(p, self.directed)?
        } else if let (Some(o), Some(i)) = (&s.out_degrees, &self.in_degrees) {
            chung_lu::read_degree_pair(o, i)?
        } else if let Some(spec) = &s.power_law {
            Degrees::Histogram(PowerLaw::parse(spec)?.histogram()?)
        } else if let Some(g) = &s.like {
            like(g, self.directed)?
        } else {
            return Err(Error::InvalidArgument(
                "give one of --degrees, --out-degrees with --in-degrees, --power-law, --like"
                    .into(),
            ));
        };
        Ok(degrees)
    }

    /// Plans the generation of `degrees` as the flags say.
    pub(crate) fn plan_from(&self, degrees: &Degrees) -> Result<Plan> {
        degrees.validate()?;
        let coarsen = self
            .coarsen
            .map(|d| Coarsen::new(d, self.coarsen_cut))
            .transpose()?;
        Plan::new(
            degrees,
            &PlanOptions {
                coarsen,
                directed: self.directed,
            },
        )
    }
}

/// The degree distribution of a graph file: its (undirected) degree histogram, or with
/// `directed` each vertex's out- and in-degree.
fn like(path: &Path, directed: bool) -> Result<Degrees> {
    let g = io::read_graph(path, &ReadOptions::default())?;
    let a = &g.adjacency;
    if directed {
        let out: Vec<u64> = (0..a.nrows()).map(|i| a.degree(i) as u64).collect();
        let mut inn = vec![0u64; a.nrows()];
        for &j in a.indices() {
            inn[j as usize] += 1;
        }
        return Ok(Degrees::Directed { out, inn });
    }
    let g = g.into_undirected();
    Ok(Degrees::Histogram(chung_lu::degree_histogram_of(
        &g.adjacency,
    )))
}

/// The command line's generator hook: an indicatif progress bar on stderr that appears
/// once the work has run for a second (never with `--quiet` or when stderr is not a
/// terminal), and with `--timings` one stderr line per finished phase.
pub struct Monitor {
    label: &'static str,
    /// `None` when no bar may be shown.
    bar: Option<ProgressBar>,
    shown: AtomicBool,
    timings: bool,
    start: Instant,
}

impl Monitor {
    /// A hook for the generator `label` (`"chung-lu"`, `"rmat"`).
    pub fn new(label: &'static str, quiet: bool, timings: bool) -> Monitor {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let b = ProgressBar::with_draw_target(Some(1), ProgressDrawTarget::hidden());
            if let Ok(style) = ProgressStyle::with_template(
                "{prefix} [{bar:40}] {percent:>3}% {elapsed_precise} (eta {eta})",
            ) {
                b.set_style(style.progress_chars("#>-"));
            }
            b.set_prefix(label);
            b
        });
        Monitor {
            label,
            bar,
            shown: AtomicBool::new(false),
            timings,
            start: Instant::now(),
        }
    }

    /// Removes the bar, if it was drawn.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Progress for Monitor {
    fn work(&self, done: u64, total: u64) {
        let Some(b) = &self.bar else { return };
        b.set_length(total.max(1));
        b.set_position(done);
        if done < total
            && !self.shown.load(Ordering::Relaxed)
            && self.start.elapsed() >= Duration::from_secs(1)
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            b.set_draw_target(ProgressDrawTarget::stderr());
            b.enable_steady_tick(Duration::from_millis(200));
        }
    }

    fn phase(&self, name: &str) {
        if !self.timings {
            return;
        }
        let line = format!(
            "{} {name}: {:.4} s",
            self.label,
            self.start.elapsed().as_secs_f64()
        );
        match &self.bar {
            Some(b) => b.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }
}

/// Writes `a` as a pattern graph.
pub(crate) fn write(a: Csr<()>, directed: bool, path: &Path, to: Option<&str>) -> Result<()> {
    let format = to.map(Format::from_name).transpose()?;
    let records = a.nnz() as u64;
    let g = Graph {
        adjacency: a,
        weights: None,
        value_type: ValueType::Pattern,
        ids: VertexIds::Offset(0),
        directed,
        records,
        duplicates: 0,
    };
    io::write_graph(path, &g, format)
}

/// `edgeblas generate chung-lu ...`.
pub fn generate_chung_lu(a: &ChungLuArgs) -> Result<()> {
    set_threads(a.model.threads)?;
    let plan = a.model.plan()?;
    let device = a.model.device()?;
    let monitor = Monitor::new("chung-lu", a.feedback.quiet, a.feedback.timings);
    let (g, secs) = match &device {
        None => timed(|| chung_lu::generate_with_progress(&plan, a.model.seed, Some(&monitor))),
        Some((gpu, schedule)) => {
            let (d, secs) = timed(|| edgeblas::cuda::chung_lu(gpu, &plan, a.model.seed, *schedule));
            (d?.download()?, secs)
        }
    };
    monitor.finish();
    let report = Report::new(&plan, &g);
    let kind = if plan.directed { "arcs" } else { "edges" };
    eprintln!(
        "generated {} vertices, {} {kind} (expected {:.0}, z {:+.2}) in {:.3} s, {}{}",
        plan.n,
        report.edges,
        report.expected_edges,
        report.edges_z,
        secs,
        match &device {
            None => format!("{} threads", rayon::current_num_threads()),
            Some((gpu, s)) => format!("on {} ({} schedule)", gpu.name(), s.name()),
        },
        if plan.clamped {
            "; some w_u w_v > S: those probabilities are clamped to 1"
        } else {
            ""
        }
    );
    if let Some(c) = a.model.coarsen {
        eprintln!(
            "coarsening delta {c} cut {}: {} groups -> {}",
            a.model.coarsen_cut, report.groups_before.0, report.groups_after.0
        );
    }
    write_outputs(a, &report, g, plan.directed)
}

/// The end of `generate chung-lu` on every backend: the report's JSON (`--report`), its
/// plot (`--plot`), then the graph itself (`-o`, `--to`).
pub(crate) fn write_outputs(
    a: &ChungLuArgs,
    report: &Report,
    g: Csr<()>,
    directed: bool,
) -> Result<()> {
    if let Some(r) = &a.report {
        io::write_atomically(r, |w| w.write_all(report.to_json().as_bytes()))?;
    }
    if let Some(p) = &a.plot {
        report.plot(p)?;
    }
    write(g, directed, &a.output, a.to.as_deref())?;
    eprintln!("wrote {}", a.output.display());
    Ok(())
}

/// `edgeblas generate rmat ...`.
pub fn generate_rmat(a: &RmatArgs) -> Result<()> {
    set_threads(a.threads)?;
    let r = Rmat {
        scale: a.scale,
        edge_factor: a.edge_factor,
        a: a.a,
        b: a.b,
        c: a.c,
        seed: a.seed,
        undirected: a.undirected,
        permute: !a.no_permute,
    };
    let monitor = Monitor::new("rmat", a.feedback.quiet, a.feedback.timings);
    let (g, secs) = timed(|| r.generate_with_progress(Some(&monitor)));
    monitor.finish();
    let g = g?;
    eprintln!(
        "generated R-MAT scale {} edge factor {}: {} vertices, {} arcs in {:.3} s",
        a.scale,
        a.edge_factor,
        g.nrows(),
        g.nnz(),
        secs
    );
    write(g, !a.undirected, &a.output, a.to.as_deref())?;
    eprintln!("wrote {}", a.output.display());
    Ok(())
}

/// `edgeblas bench chung-lu ...`: median seconds of generation into CSR (reading the
/// input and planning excluded, no file written).
pub fn bench_chung_lu(a: &BenchChungLuArgs) -> Result<()> {
    set_threads(a.model.threads)?;
    if a.reps == 0 {
        return Err(Error::InvalidArgument("--reps: must be at least 1".into()));
    }
    let (plan, plan_secs) = timed(|| a.model.plan());
    let plan = plan?;
    let device = a.model.device()?;
    // The first run (untimed) gives the report; on the GPU its graph is downloaded for it.
    let g = match &device {
        None => chung_lu::generate(&plan, a.model.seed),
        Some((gpu, s)) => edgeblas::cuda::chung_lu(gpu, &plan, a.model.seed, *s)?.download()?,
    };
    let report = Report::new(&plan, &g);
    drop(g);
    let mut samples = Vec::with_capacity(a.reps);
    for rep in 0..a.reps {
        let seed = a.model.seed.wrapping_add(rep as u64 + 1);
        let s = match &device {
            None => timed(|| chung_lu::generate(&plan, seed)).1,
            Some((gpu, sched)) => {
                // generation into device CSR, synchronized; nothing copied back
                let (d, s) = timed(|| edgeblas::cuda::chung_lu(gpu, &plan, seed, *sched));
                d?;
                s
            }
        };
        samples.push(s);
    }
    let med = median(&mut samples);
    // On the GPU, one more run with the device synchronized after every phase.
    let phases = match &device {
        None => None,
        Some((gpu, sched)) => {
            let (_, ph) = edgeblas::cuda::chung_lu_phases(gpu, &plan, a.model.seed, *sched)?;
            Some(
                ph.into_iter()
                    .map(|(k, v)| (k.to_string(), json!(v)))
                    .collect::<serde_json::Map<_, _>>(),
            )
        }
    };
    let out = json!({
        "phases_seconds": phases,
        "vertices": plan.n,
        "directed": plan.directed,
        "edges": report.edges,
        "arcs": if plan.directed { report.edges } else { 2 * report.edges },
        "expected_edges": report.expected_edges,
        "edges_z": report.edges_z,
        "groups": plan.rows.len(),
        "groups_before": report.groups_before.0,
        "tasks": plan.tasks.len(),
        "chunks": plan.chunks,
        "threads": rayon::current_num_threads(),
        "backend": a.model.backend.name(),
        "device": device.as_ref().map(|(g, _)| g.name()),
        "schedule": device.as_ref().map(|(_, s)| s.name()),
        "reps": a.reps,
        "seed": a.model.seed,
        "plan_seconds": plan_secs,
        "seconds_median": med,
        "medges_per_s": report.edges as f64 / med / 1e6,
        "seconds": samples,
        "kl_ideal_out_log2": report.rows.kl_ideal_out_log2,
        "kl_in_out_log2": report.rows.kl_in_out_log2,
        "max_abs_group_z": report.rows.max_abs_z,
    });
    if a.json {
        println!("{out}");
    } else {
        println!(
            "{} vertices, {} edges: median {:.4} s over {} runs, {:.1} M edges/s, {}",
            plan.n,
            report.edges,
            med,
            a.reps,
            report.edges as f64 / med / 1e6,
            match &device {
                None => format!("{} threads", rayon::current_num_threads()),
                Some((gpu, s)) => format!("on {} ({} schedule)", gpu.name(), s.name()),
            }
        );
    }
    Ok(())
}
