//! `bfs`, `sssp` and `bench bfs`: traversals from the command line, with vertex ids as
//! written in the input file in every flag and every output file.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use edgeblas::algo::bellman_ford::{ShortestPaths, bellman_ford_with};
use edgeblas::algo::bfs::{
    Beamer, BfsGraph, BfsOptions, BfsResult, Gunrock, LevelTrace, Ligra, Policy, Pull, Push, Xbfs,
    bfs as run_bfs,
};
use edgeblas::algo::delta_stepping::{default_delta, delta_stepping_with};
use edgeblas::algo::validate::validate_bfs;
use edgeblas::cuda::{self, DeviceBfsGraph, DeviceCsr, Gpu};
use edgeblas::io::{self, Graph};
use edgeblas::prelude::*;
use serde_json::json;

use crate::common::{
    Backend, InputArgs, median, no_mpi_for, open_gpu, set_threads, sources_of, timed, vertex_index,
};

/// The Graphalytics value of an unreached vertex's depth (i64::MAX).
const UNREACHED_DEPTH: &str = "9223372036854775807";

/// A graph ready to search on the chosen backend.
enum Searcher {
    Cpu,
    Cuda(Gpu, Box<DeviceBfsGraph>),
}

impl Searcher {
    /// Opens the GPU and copies the graph there, for `--backend cuda`.
    fn new(backend: Backend, bg: &BfsGraph<'_, ()>) -> Result<Searcher> {
        Ok(match backend {
            Backend::Cpu => Searcher::Cpu,
            Backend::Cuda => {
                let gpu = open_gpu()?;
                let d = DeviceBfsGraph::new(&gpu, bg)?;
                Searcher::Cuda(gpu, Box::new(d))
            }
            Backend::Mpi => return Err(no_mpi_for("bench bfs")),
        })
    }

    /// One search and its seconds; on the GPU the time is the search's alone (graph and
    /// state on the device), the copy of parents and levels back excluded.
    fn run(
        &self,
        bg: &BfsGraph<'_, ()>,
        sources: &[u32],
        policy: &dyn Policy,
        opts: &BfsOptions,
    ) -> Result<(BfsResult, f64)> {
        match self {
            Searcher::Cpu => {
                let (r, t) = timed(|| run_bfs(bg, sources, policy, opts));
                Ok((r?, t))
            }
            Searcher::Cuda(_, d) => {
                let (r, t) = timed(|| cuda::bfs_on_device(d, sources, policy, opts));
                Ok((r?.download()?, t))
            }
        }
    }

    /// The device's name, if any.
    fn device(&self) -> Option<String> {
        match self {
            Searcher::Cpu => None,
            Searcher::Cuda(g, _) => Some(g.name()),
        }
    }
}

/// The switching rules `--policy` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PolicyName {
    /// Beamer et al. (gapbs): to pull when m_f > m_u / alpha, back when |F| < n / beta
    Beamer,
    /// Gunrock: predicted forward vs backward visits, factors do_a and do_b
    Gunrock,
    /// Ligra: pull when |F| + m_f > m / threshold
    Ligra,
    /// XBFS: pull when m_f / m >= alpha
    Xbfs,
    /// Always push (top-down)
    Push,
    /// Always pull (bottom-up)
    Pull,
}

/// The switching policy and its parameters.
#[derive(Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Direction-switching policy
    #[arg(long, value_enum, default_value_t = PolicyName::Beamer)]
    pub policy: PolicyName,
    /// Beamer: push-to-pull alpha (default 15); XBFS: frontier-edge share alpha (default 0.1)
    #[arg(long)]
    pub alpha: Option<f64>,
    /// Beamer: pull-to-push beta (default 18)
    #[arg(long)]
    pub beta: Option<f64>,
    /// Gunrock: push-to-pull factor do_a (default 0.001)
    #[arg(long)]
    pub do_a: Option<f64>,
    /// Gunrock: pull-to-push factor do_b (default 0.2)
    #[arg(long)]
    pub do_b: Option<f64>,
    /// Ligra: pull when |F| + m_f > arcs / THRESHOLD (default 20)
    #[arg(long)]
    pub threshold: Option<f64>,
}

fn positive(flag: &str, v: Option<f64>, default: f64) -> Result<f64> {
    match v {
        None => Ok(default),
        Some(x) if x.is_finite() && x > 0.0 => Ok(x),
        Some(x) => Err(Error::InvalidArgument(format!(
            "{flag} {x}: must be a positive number"
        ))),
    }
}

impl PolicyArgs {
    /// The policy value the flags describe.
    ///
    /// # Errors
    /// A parameter that is not positive, or one given to a policy that has no use for it.
    pub fn build(&self) -> Result<Box<dyn Policy>> {
        use PolicyName::{Beamer as B, Gunrock as G, Ligra as L, Xbfs as X};
        let given: [(&str, bool, &[PolicyName]); 5] = [
            ("--alpha", self.alpha.is_some(), &[B, X]),
            ("--beta", self.beta.is_some(), &[B]),
            ("--do-a", self.do_a.is_some(), &[G]),
            ("--do-b", self.do_b.is_some(), &[G]),
            ("--threshold", self.threshold.is_some(), &[L]),
        ];
        for (flag, set, users) in given {
            if set && !users.contains(&self.policy) {
                return Err(Error::InvalidArgument(format!(
                    "{flag} does not apply to --policy {}",
                    self.name()
                )));
            }
        }
        Ok(match self.policy {
            PolicyName::Beamer => Box::new(Beamer {
                alpha: positive("--alpha", self.alpha, 15.0)?,
                beta: positive("--beta", self.beta, 18.0)?,
            }),
            PolicyName::Gunrock => Box::new(Gunrock {
                do_a: positive("--do-a", self.do_a, 0.001)?,
                do_b: positive("--do-b", self.do_b, 0.2)?,
            }),
            PolicyName::Ligra => Box::new(Ligra {
                threshold: positive("--threshold", self.threshold, 20.0)?,
            }),
            PolicyName::Xbfs => Box::new(Xbfs {
                alpha: positive("--alpha", self.alpha, 0.1)?,
            }),
            PolicyName::Push => Box::new(Push),
            PolicyName::Pull => Box::new(Pull),
        })
    }

    pub(crate) fn name(&self) -> &'static str {
        match self.policy {
            PolicyName::Beamer => "beamer",
            PolicyName::Gunrock => "gunrock",
            PolicyName::Ligra => "ligra",
            PolicyName::Xbfs => "xbfs",
            PolicyName::Push => "push",
            PolicyName::Pull => "pull",
        }
    }
}

/// Flags of `edgeblas bfs`.
#[derive(Args, Debug)]
pub struct BfsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Source vertex id as written in the file (a comma-separated list for several sources)
    #[arg(long)]
    pub source: String,
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Where to run: cpu, cuda (the first GPU), or mpi (under `mpirun -np P`; a build
    /// with --features mpi)
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
    /// Worker threads (all cores by default; with --backend mpi, the cores over the ranks
    /// on this node)
    #[arg(long)]
    pub threads: Option<usize>,
    /// Reach no vertex deeper than this level
    #[arg(long)]
    pub max_depth: Option<u32>,
    /// Stop after the level that reaches this vertex id
    #[arg(long)]
    pub target: Option<u64>,
    /// Write `id depth` per vertex (9223372036854775807 when unreached)
    #[arg(long, value_name = "OUT")]
    pub levels: Option<PathBuf>,
    /// Write `id parent` per vertex (the source is its own parent, -1 when unreached)
    #[arg(long, value_name = "OUT")]
    pub parents: Option<PathBuf>,
    /// Check the result (Graph500 rules and the smallest-parent rule)
    #[arg(long)]
    pub validate: bool,
    /// Print the per-level trace (text output; JSON always has it)
    #[arg(long)]
    pub trace: bool,
    /// Print one JSON object
    #[arg(long)]
    pub json: bool,
    /// With --backend mpi: how the arcs are cut over the ranks, 1d (each rank its rows)
    /// or 2d (a grid of blocks, Buluç-Madduri: exchanges with about sqrt(P) partners)
    #[arg(long, value_enum, default_value_t = Layout::OneD)]
    pub layout: Layout,
    /// With --layout 2d: the grid ROWSxCOLS of the ranks (the squarest by default)
    #[arg(long, value_name = "RxC")]
    pub grid: Option<String>,
}

/// How `bfs --backend mpi` cuts the arcs over the ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Layout {
    /// Each rank holds the out-arcs (and in-arcs) of its vertices.
    #[value(name = "1d")]
    OneD,
    /// The ranks on a grid, each holding the arcs from its grid column's vertices to its
    /// grid row's.
    #[value(name = "2d")]
    TwoD,
}

/// Flags of `edgeblas sssp`.
#[derive(Args, Debug)]
pub struct SsspArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Source vertex id as written in the file
    #[arg(long)]
    pub source: u64,
    /// Where to run: cpu, cuda (the first GPU), or mpi (under `mpirun -np P`, a binary
    /// .ebg file every rank reads its rows of; a build with the `mpi` feature)
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
    /// Worker threads (all cores by default)
    #[arg(long)]
    pub threads: Option<usize>,
    /// auto: delta-stepping when every weight is >= 0, else Bellman-Ford (which finds
    /// negative cycles), on every backend
    #[arg(long, value_enum, default_value_t = SsspMethod::Auto)]
    pub method: SsspMethod,
    /// Delta-stepping's bucket width (> 0); by default 4 x mean weight / mean degree,
    /// clamped to the weights' range
    #[arg(long, value_name = "D", allow_negative_numbers = true)]
    pub delta: Option<f64>,
    /// Write `id distance` per vertex (Infinity when unreached)
    #[arg(long, value_name = "OUT")]
    pub distances: Option<PathBuf>,
    /// Write `id predecessor` per vertex: the smallest-id u with d(u) + w(u, v) = d(v)
    /// (-1 for the source and unreached vertices)
    #[arg(long, value_name = "OUT")]
    pub predecessors: Option<PathBuf>,
    /// Print one JSON object
    #[arg(long)]
    pub json: bool,
}

/// How `edgeblas sssp` searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SsspMethod {
    /// Delta-stepping for non-negative weights, Bellman-Ford otherwise.
    Auto,
    /// Delta-stepping (weights must be >= 0).
    DeltaStepping,
    /// Bellman-Ford (any sign; finds negative cycles).
    BellmanFord,
}

/// Flags of `edgeblas bench bfs`.
#[derive(Args, Debug)]
pub struct BenchBfsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Source vertex ids as written in the file, comma-separated, or random:K[:SEED]
    /// (K distinct vertices with out-arcs)
    #[arg(long)]
    pub sources: String,
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Where to run: cpu, or cuda (the first GPU)
    #[arg(long, value_enum, default_value_t = Backend::Cpu)]
    pub backend: Backend,
    /// Worker threads (all cores by default)
    #[arg(long)]
    pub threads: Option<usize>,
    /// Timed runs per source (after one untimed warm-up run)
    #[arg(long, default_value_t = 3)]
    pub reps: usize,
    /// Check every source's first result
    #[arg(long)]
    pub validate: bool,
    /// Print one JSON object
    #[arg(long)]
    pub json: bool,
}

/// The graph prepared for traversal: symmetric when the file or `--undirected` says so,
/// or when a directed file turns out to store both arcs of every edge (then pull needs
/// no transpose, and GTEPS count each edge once). What a pull needs is built here,
/// before any timing, unless the policy never pulls.
pub(crate) fn prepare<'g>(g: &'g Graph, policy: PolicyName) -> BfsGraph<'g, ()> {
    let bg = if g.directed {
        BfsGraph::detect(&g.adjacency)
    } else {
        BfsGraph::symmetric(&g.adjacency)
    };
    if policy != PolicyName::Push {
        bg.prepare();
    }
    bg
}

/// One level of a BFS trace as the `--json` output's `trace` entries print it.
pub(crate) fn level_json(t: &LevelTrace) -> serde_json::Value {
    json!({
        "level": t.level,
        "direction": t.direction.name(),
        "frontier_vertices": t.frontier_vertices,
        "frontier_edges": t.frontier_edges,
        "edges_examined": t.edges_examined,
        "seconds": t.seconds,
    })
}

/// Edges of the traversed part, the Graph500 way: arcs with a reached tail, halved for
/// an undirected graph or a symmetric one (each edge is stored as two arcs).
pub(crate) fn teps_edges(g: &Graph, bg: &BfsGraph<'_, ()>, r: &BfsResult) -> u64 {
    let a = &g.adjacency;
    let arcs: u64 = (0..a.nrows())
        .filter(|&v| r.levels[v] != BfsResult::UNREACHED)
        .map(|v| a.degree(v) as u64)
        .sum();
    if g.directed && !bg.is_symmetric() {
        arcs
    } else {
        arcs / 2
    }
}

/// A memory figure of this process from /proc/self/status (`VmHWM`: peak resident,
/// `VmRSS`: resident now), when the system reports it.
fn status_bytes(key: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

pub(crate) fn peak_rss_bytes() -> Option<u64> {
    status_bytes("VmHWM:")
}

pub(crate) fn write_levels(path: &Path, g: &Graph, r: &BfsResult) -> Result<()> {
    write_levels_ids(path, &g.ids, g.vertices(), r)
}

/// [`write_levels`] from the ids and the vertex count alone.
pub(crate) fn write_levels_ids(
    path: &Path,
    ids: &io::VertexIds,
    n: usize,
    r: &BfsResult,
) -> Result<()> {
    io::write_atomically(path, |w| {
        for v in 0..n {
            let id = ids.external(v);
            match r.level(v) {
                Some(l) => writeln!(w, "{id} {l}")?,
                None => writeln!(w, "{id} {UNREACHED_DEPTH}")?,
            }
        }
        Ok(())
    })
}

pub(crate) fn write_parents(path: &Path, g: &Graph, r: &BfsResult) -> Result<()> {
    write_parents_ids(path, &g.ids, g.vertices(), r)
}

/// [`write_parents`] from the ids and the vertex count alone.
pub(crate) fn write_parents_ids(
    path: &Path,
    ids: &io::VertexIds,
    n: usize,
    r: &BfsResult,
) -> Result<()> {
    io::write_atomically(path, |w| {
        for v in 0..n {
            let id = ids.external(v);
            match r.parent(v) {
                Some(p) => writeln!(w, "{id} {}", ids.external(p as usize))?,
                None => writeln!(w, "{id} -1")?,
            }
        }
        Ok(())
    })
}

/// A distance as Graphalytics writes it: `Infinity` when unreached, otherwise the
/// shortest form that reads back to the same number, with `.0` on integers.
pub(crate) fn distance_text(d: f64) -> String {
    if d == f64::INFINITY {
        "Infinity".into()
    } else {
        format!("{d:?}")
    }
}

/// Writes `id distance` per vertex, ids as in the input (`Infinity` when unreached).
pub(crate) fn write_distances(path: &Path, ids: &io::VertexIds, sp: &ShortestPaths) -> Result<()> {
    io::write_atomically(path, |w| {
        for (v, &d) in sp.distances.iter().enumerate() {
            writeln!(w, "{} {}", ids.external(v), distance_text(d))?;
        }
        Ok(())
    })
}

/// Writes `id predecessor` per vertex, ids as in the input (-1 for none).
pub(crate) fn write_predecessors(
    path: &Path,
    ids: &io::VertexIds,
    sp: &ShortestPaths,
) -> Result<()> {
    io::write_atomically(path, |w| {
        for (v, &p) in sp.predecessors.iter().enumerate() {
            if p == u32::MAX {
                writeln!(w, "{} -1", ids.external(v))?;
            } else {
                writeln!(w, "{} {}", ids.external(v), ids.external(p as usize))?;
            }
        }
        Ok(())
    })
}

/// `edgeblas bfs FILE --source ID`.
pub fn bfs(a: &BfsArgs) -> Result<()> {
    if a.layout != Layout::OneD || a.grid.is_some() {
        return Err(Error::InvalidArgument(
            "--layout 2d and --grid: the 2-D layout is for --backend mpi".into(),
        ));
    }
    set_threads(a.threads)?;
    let policy = a.policy.build()?;
    let (g, load_s) = timed(|| a.input.load());
    let g = g?;
    let sources = sources_of(&g, &a.source, "--source")?;
    let target = a
        .target
        .map(|t| vertex_index(&g, t, "--target"))
        .transpose()?;
    let (prepared, prep_s) = timed(|| -> Result<_> {
        let bg = prepare(&g, a.policy.policy);
        let searcher = Searcher::new(a.backend, &bg)?;
        Ok((bg, searcher))
    });
    let (bg, searcher) = prepared?;
    let opts = BfsOptions {
        trace: true,
        max_depth: a.max_depth,
        target,
    };
    let (r, secs) = searcher.run(&bg, &sources, policy.as_ref(), &opts)?;
    let valid = if a.validate {
        validate_bfs(&g.adjacency, &sources, &r).map_err(|v| {
            Error::InvalidStructure(format!("--validate: {}", external_violation(&g, &v)))
        })?;
        Some(true)
    } else {
        None
    };
    if let Some(p) = &a.levels {
        write_levels(p, &g, &r)?;
    }
    if let Some(p) = &a.parents {
        write_parents(p, &g, &r)?;
    }
    let edges = teps_edges(&g, &bg, &r);
    if a.json {
        let trace: Vec<_> = r.trace.iter().map(level_json).collect();
        let out = json!({
            "file": a.input.file.display().to_string(),
            "vertices": g.vertices(),
            "arcs": g.arcs(),
            "directed": g.directed,
            "sources": sources.iter().map(|&s| g.ids.external(s as usize)).collect::<Vec<_>>(),
            "policy": policy.name(),
            "backend": a.backend.name(),
            "device": searcher.device(),
            "threads": rayon::current_num_threads(),
            "reached": r.reached,
            "max_depth": r.max_depth,
            "depth_sum": r.depth_sum(),
            "complete": r.complete,
            "seconds": secs,
            "load_seconds": load_s,
            "prepare_seconds": prep_s,
            "traversed_edges": edges,
            "gteps": edges as f64 / secs / 1e9,
            "valid": valid,
            "trace": trace,
        });
        println!("{out}");
    } else {
        println!(
            "reached {} vertices, max depth {}, depth sum {}, {:.6} s ({:.3} GTEPS), policy {}",
            r.reached,
            r.max_depth,
            r.depth_sum(),
            secs,
            edges as f64 / secs / 1e9,
            policy.name()
        );
        if a.trace {
            println!("level direction frontier  frontier_edges  examined  seconds");
            for t in &r.trace {
                println!(
                    "{:>5} {:<9} {:>9} {:>15} {:>9} {:.6}",
                    t.level,
                    t.direction.name(),
                    t.frontier_vertices,
                    t.frontier_edges,
                    t.edges_examined,
                    t.seconds
                );
            }
        }
        if valid.is_some() {
            println!("validation passed");
        }
    }
    Ok(())
}

/// A validator message with the file's ids instead of internal indices.
pub(crate) fn external_violation(g: &Graph, v: &edgeblas::algo::validate::BfsViolation) -> String {
    use edgeblas::algo::validate::BfsViolation as V;
    let id = |i: u32| {
        if (i as usize) < g.vertices() {
            g.ids.external(i as usize).to_string()
        } else {
            format!("index {i}")
        }
    };
    match *v {
        V::Length { .. } => v.to_string(),
        V::Source { vertex } => {
            format!("source {} is not at level 0 as its own parent", id(vertex))
        }
        V::Inconsistent { vertex } => format!("vertex {}: level and parent disagree", id(vertex)),
        V::MissingTreeArc { parent, vertex } => {
            format!(
                "tree arc {} -> {} is not in the graph",
                id(parent),
                id(vertex)
            )
        }
        V::TreeLevel { parent, vertex } => {
            format!(
                "tree arc {} -> {} does not go down one level",
                id(parent),
                id(vertex)
            )
        }
        V::NotClosed { from, to } => {
            format!("arc {} -> {} leaves the reached set", id(from), id(to))
        }
        V::SkipsLevel { from, to } => format!("arc {} -> {} skips a level", id(from), id(to)),
        V::NotSmallestParent {
            vertex,
            parent,
            candidate,
        } => format!(
            "vertex {} has parent {}, but {} is a smaller one",
            id(vertex),
            id(parent),
            id(candidate)
        ),
    }
}

/// `edgeblas sssp FILE --source ID`.
pub fn sssp(a: &SsspArgs) -> Result<()> {
    if a.backend == Backend::Mpi {
        return crate::distributed::sssp(a);
    }
    set_threads(a.threads)?;
    let (g, load_s) = timed(|| a.input.load());
    let g = g?;
    let s = vertex_index(&g, a.source, "--source")?;
    let w = match g.weighted_csr() {
        Some(w) => w,
        None => g.adjacency.map(|_| 1.0),
    };
    if let Some(bad) = w.values().iter().find(|x| x.is_nan()) {
        return Err(Error::InvalidArgument(format!(
            "{}: weight {bad} is not a number",
            a.input.file.display()
        )));
    }
    if let Some(d) = a.delta
        && !(d > 0.0 && d.is_finite())
    {
        return Err(Error::InvalidArgument(format!(
            "--delta: {d} is not a positive number"
        )));
    }
    let negative = w.values().iter().any(|&x| x < 0.0);
    let method = match (a.method, a.backend) {
        (SsspMethod::Auto, _) if negative => SsspMethod::BellmanFord,
        (SsspMethod::Auto, _) => SsspMethod::DeltaStepping,
        (SsspMethod::DeltaStepping, _) if negative => {
            return Err(Error::InvalidArgument(format!(
                "--method delta-stepping: {} has a negative weight (use --method bellman-ford)",
                a.input.file.display()
            )));
        }
        (m, _) => m,
    };
    let delta =
        (method == SsspMethod::DeltaStepping).then(|| a.delta.unwrap_or_else(|| default_delta(&w)));
    let (sp, secs) = match (a.backend, delta) {
        (Backend::Cpu, Some(d)) => {
            let with_pred = a.predecessors.is_some();
            let (sp, t) = timed(|| {
                delta_stepping_with(&edgeblas::graph::Graph::directed(&w), s, d, with_pred)
            });
            (Ok(sp?), t)
        }
        (Backend::Cpu, None) => {
            let with_pred = a.predecessors.is_some();
            timed(|| bellman_ford_with(&edgeblas::graph::Graph::directed(&w), s, with_pred))
        }
        (Backend::Mpi, _) => unreachable!("--backend mpi returned above"),
        // The clock: on the GPU, delta-stepping's includes splitting the arcs and their
        // upload (as the CPU's includes its split); Bellman-Ford's is the search alone.
        (Backend::Cuda, Some(d)) => {
            let gpu = open_gpu()?;
            let (sp, t) =
                timed(|| cuda::delta_stepping(&gpu, &edgeblas::graph::Graph::directed(&w), s, d));
            (Ok(sp?), t)
        }
        (Backend::Cuda, None) => {
            let gpu = open_gpu()?;
            let d = DeviceCsr::upload(&gpu, &w)?;
            let (sp, t) = timed(|| cuda::bellman_ford(&d, s));
            (sp?, t)
        }
    };
    let sp = sp.map_err(|c| {
        Error::InvalidArgument(format!(
            "negative cycle reachable from source {} through vertex {}",
            a.source,
            g.ids.external(c.vertex as usize)
        ))
    })?;
    let method_name = match method {
        SsspMethod::DeltaStepping => "delta-stepping",
        _ => "bellman-ford",
    };
    if let Some(p) = &a.distances {
        write_distances(p, &g.ids, &sp)?;
    }
    if let Some(p) = &a.predecessors {
        // One rule for every method and backend (the smallest tail of a tight arc).
        write_predecessors(p, &g.ids, &sp)?;
    }
    let finite = sp.distances.iter().filter(|d| d.is_finite());
    let max = finite.clone().fold(f64::NEG_INFINITY, |m, &d| m.max(d));
    let sum: f64 = finite.sum();
    if a.json {
        let out = json!({
            "file": a.input.file.display().to_string(),
            "vertices": g.vertices(),
            "arcs": g.arcs(),
            "weighted": g.weights.is_some(),
            "source": a.source,
            "backend": a.backend.name(),
            "threads": rayon::current_num_threads(),
            "reached": sp.reached(),
            "max_distance": max,
            "distance_sum": sum,
            "rounds": sp.rounds,
            "method": method_name,
            "delta": delta,
            "seconds": secs,
            "load_seconds": load_s,
        });
        println!("{out}");
    } else {
        println!(
            "{method_name}: reached {} vertices, largest distance {}, sum of distances {}, {} rounds, {:.6} s",
            sp.reached(),
            distance_text(max),
            distance_text(sum),
            sp.rounds,
            secs
        );
    }
    Ok(())
}

/// `edgeblas bench bfs FILE --sources ID,ID,...`: median BFS time over the sources
/// (each source's median over `--reps` runs), loading and in-edge building excluded.
pub fn bench_bfs(a: &BenchBfsArgs) -> Result<()> {
    if a.backend == Backend::Mpi {
        return Err(no_mpi_for("bench bfs (time `bfs --backend mpi` instead)"));
    }
    set_threads(a.threads)?;
    if a.reps == 0 {
        return Err(Error::InvalidArgument("--reps: must be at least 1".into()));
    }
    let policy = a.policy.build()?;
    let (g, load_s) = timed(|| a.input.load());
    let g = g?;
    let sources = sources_of(&g, &a.sources, "--sources")?;
    let rss_loaded = status_bytes("VmRSS:");
    let (prepared, prep_s) = timed(|| -> Result<_> {
        let bg = prepare(&g, a.policy.policy);
        let searcher = Searcher::new(a.backend, &bg)?;
        Ok((bg, searcher))
    });
    let (bg, searcher) = prepared?;
    let opts = BfsOptions::default();
    // warm-up
    searcher.run(&bg, &sources[..1], policy.as_ref(), &opts)?;
    let mut per_source = Vec::with_capacity(sources.len());
    let mut edges = Vec::with_capacity(sources.len());
    let mut details = Vec::with_capacity(sources.len());
    for &s in &sources {
        let mut samples = Vec::with_capacity(a.reps);
        let mut last = None;
        for _ in 0..a.reps {
            let (r, t) = searcher.run(&bg, &[s], policy.as_ref(), &opts)?;
            samples.push(t);
            last = Some(r);
        }
        let r = last.expect("reps >= 1");
        if a.validate {
            validate_bfs(&g.adjacency, &[s], &r).map_err(|v| {
                Error::InvalidStructure(format!("--validate: {}", external_violation(&g, &v)))
            })?;
        }
        let med = median(&mut samples);
        let e = teps_edges(&g, &bg, &r);
        details.push(json!({
            "source": g.ids.external(s as usize),
            "seconds_median": med,
            "reached": r.reached,
            "max_depth": r.max_depth,
            "traversed_edges": e,
            "gteps": e as f64 / med / 1e9,
        }));
        per_source.push(med);
        edges.push(e as f64);
    }
    let med = median(&mut per_source.clone());
    let med_edges = median(&mut edges.clone());
    let gteps = med_edges / med / 1e9;
    let harmonic = {
        let inv: f64 = per_source
            .iter()
            .zip(&edges)
            .map(|(t, e)| t / e * 1e9)
            .sum::<f64>();
        per_source.len() as f64 / inv
    };
    let out = json!({
        "file": a.input.file.display().to_string(),
        "vertices": g.vertices(),
        "arcs": g.arcs(),
        "directed": g.directed,
        "policy": policy.name(),
        "backend": a.backend.name(),
        "device": searcher.device(),
        "threads": rayon::current_num_threads(),
        "reps": a.reps,
        "sources": sources.len(),
        "seconds_median": med,
        "gteps": gteps,
        "gteps_harmonic_mean": harmonic,
        "traversed_edges_median": med_edges,
        "load_seconds": load_s,
        "prepare_seconds": prep_s,
        "in_edges_bytes": bg.in_edges_bytes(),
        "symmetric": bg.is_symmetric(),
        "csr_bytes": g.adjacency.offsets().len() * 8 + g.adjacency.indices().len() * 4,
        "peak_rss_bytes": peak_rss_bytes(),
        "rss_after_load_bytes": rss_loaded,
        "rss_after_bfs_bytes": status_bytes("VmRSS:"),
        "per_source": details,
    });
    if a.json {
        println!("{out}");
    } else {
        println!(
            "{}: median {:.6} s per BFS over {} sources, {:.3} GTEPS (Graph500: traversed edges / time), policy {}, {}",
            a.input.file.display(),
            med,
            sources.len(),
            gteps,
            policy.name(),
            match searcher.device() {
                Some(d) => format!("on {d}"),
                None => format!("{} threads", rayon::current_num_threads()),
            }
        );
    }
    Ok(())
}
