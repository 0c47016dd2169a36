//! What every subcommand shares: loading a graph with the common flags, thread pools,
//! vertex ids on the command line, and timing.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use edgeblas::cuda::Gpu;
use edgeblas::io::{self, Format, Graph, ReadOptions, VertexIds};
use edgeblas::{Error, Result};

/// Flags for reading an input graph.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// The graph file (.mtx, .txt/.el edge list, .gr DIMACS, .e Graphalytics, .adj, .ebg; any of them .gz)
    pub file: PathBuf,
    /// Input format, overriding the file extension: mtx, edgelist, dimacs, graphalytics, adj, binary
    #[arg(long)]
    pub format: Option<String>,
    /// Store both directions of every arc
    #[arg(long)]
    pub undirected: bool,
}

impl InputArgs {
    /// Reads the graph as the flags say.
    pub fn load(&self) -> Result<Graph> {
        let format = self.format.as_deref().map(Format::from_name).transpose()?;
        io::read_graph(
            &self.file,
            &ReadOptions {
                format,
                undirected: self.undirected,
                ..ReadOptions::default()
            },
        )
    }
}

/// Sets the global rayon pool to `threads` threads (all cores when `None`).
pub fn set_threads(threads: Option<usize>) -> Result<()> {
    if let Some(t) = threads {
        if t == 0 {
            return Err(Error::InvalidArgument(
                "--threads: must be at least 1".into(),
            ));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .map_err(|e| Error::InvalidArgument(format!("--threads {t}: {e}")))?;
    }
    Ok(())
}

/// The internal index of the vertex a user named by its id as written in the input.
pub fn vertex_index(g: &Graph, id: u64, flag: &str) -> Result<u32> {
    index_of(&g.ids, g.vertices(), id, flag)
}

/// [`vertex_index`] from the ids and the vertex count alone.
pub fn index_of(ids: &VertexIds, n: usize, id: u64, flag: &str) -> Result<u32> {
    ids.internal(id)
        .filter(|&i| i < n)
        .map(|i| i as u32)
        .ok_or_else(|| Error::InvalidArgument(format!("{flag}: vertex {id} is not in the graph")))
}

/// Parses a comma-separated list of vertex ids (`--sources 1,2,3`).
pub fn parse_id_list(s: &str, flag: &str) -> Result<Vec<u64>> {
    s.split(',')
        .map(|t| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| Error::InvalidArgument(format!("{flag}: '{t}' is not a vertex id")))
        })
        .collect()
}

/// Runs `f`, returning its value and the seconds it took.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64())
}

/// The median of a list of samples (the mean of the middle two for even counts).
pub fn median(samples: &mut [f64]) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let m = samples.len() / 2;
    if samples.len() % 2 == 1 {
        samples[m]
    } else {
        (samples[m - 1] + samples[m]) / 2.0
    }
}

/// Where `--backend` runs a traversal or a generation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// The CPU backend (rayon, `--threads`)
    #[default]
    Cpu,
    /// The first CUDA GPU (needs a build with `--features cuda`, a GPU and its driver)
    Cuda,
    /// MPI ranks under `mpirun -np P` (needs a build with `--features mpi`): `bfs`,
    /// `pagerank`, `wcc`, `generate chung-lu`, `bench chung-lu`
    Mpi,
}

impl Backend {
    /// `"cpu"`, `"cuda"` or `"mpi"`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Cuda => "cuda",
            Backend::Mpi => "mpi",
        }
    }
}

/// The error of `--backend mpi` on a command that has no distributed form.
pub fn no_mpi_for(command: &str) -> Error {
    Error::InvalidArgument(format!(
        "--backend mpi: {command} runs on cpu or cuda (the mpi backend runs bfs, sssp, pagerank, wcc, generate chung-lu and bench chung-lu)"
    ))
}

/// Whether this process prints its errors: false on MPI ranks other than 0, whose
/// errors rank 0 reports.
static QUIET_ERRORS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Stops this process from printing its errors (an MPI rank other than 0).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub fn silence_errors() {
    QUIET_ERRORS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether errors are to be printed here.
pub fn prints_errors() -> bool {
    !QUIET_ERRORS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The first GPU, or an error naming the flag.
pub fn open_gpu() -> Result<Gpu> {
    Gpu::new(0).map_err(|e| Error::InvalidArgument(format!("--backend cuda: {e}")))
}

/// The Chung-Lu schedules `--schedule` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScheduleName {
    /// Uniform static: chunks dealt to a fixed grid in turn
    Uniform,
    /// Load-balanced static: equal cost per thread under c = alpha + beta m
    Balanced,
    /// Dynamic: task batches launched asynchronously over several streams
    Dynamic,
}

impl ScheduleName {
    /// The library's value.
    pub fn schedule(self) -> edgeblas::cuda::Schedule {
        match self {
            ScheduleName::Uniform => edgeblas::cuda::Schedule::Uniform,
            ScheduleName::Balanced => edgeblas::cuda::Schedule::Balanced,
            ScheduleName::Dynamic => edgeblas::cuda::Schedule::Dynamic,
        }
    }
}

/// The vertex ids of `list` (comma-separated, as written in the file), or
/// `random:K[:SEED]`: K distinct vertices of non-zero out-degree drawn with SEED
/// (default 1), as Graph500 picks its search keys.
pub fn sources_of(g: &Graph, list: &str, flag: &str) -> Result<Vec<u32>> {
    let a = &g.adjacency;
    sources_by_ids(&g.ids, a.nrows(), |v| a.degree(v) as u64, list, flag)
}

/// [`sources_of`] from the ids, the vertex count and the out-degrees alone (`degree` is
/// asked only for `random:K`).
pub fn sources_by_ids(
    ids: &VertexIds,
    n: usize,
    degree: impl Fn(usize) -> u64,
    list: &str,
    flag: &str,
) -> Result<Vec<u32>> {
    if let Some(spec) = list.strip_prefix("random:") {
        let mut parts = spec.split(':');
        let bad = || Error::InvalidArgument(format!("{flag}: '{list}' is not random:K[:SEED]"));
        let k: usize = parts.next().and_then(|t| t.parse().ok()).ok_or_else(bad)?;
        let seed: u64 = match parts.next() {
            Some(t) => t.parse().map_err(|_| bad())?,
            None => 1,
        };
        if k == 0 || parts.next().is_some() {
            return Err(bad());
        }
        let candidates: Vec<u32> = (0..n as u32).filter(|&v| degree(v as usize) > 0).collect();
        if candidates.len() < k {
            return Err(Error::InvalidArgument(format!(
                "{flag}: {k} sources asked, but only {} vertices have out-arcs",
                candidates.len()
            )));
        }
        // SplitMix64 picks, without repeats.
        use edgeblas::generate::chung_lu::rng::{GOLDEN, mix};
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_add(GOLDEN);
            mix(state)
        };
        let mut chosen = Vec::with_capacity(k);
        let mut seen = std::collections::HashSet::new();
        while chosen.len() < k {
            let v = candidates[(next() % candidates.len() as u64) as usize];
            if seen.insert(v) {
                chosen.push(v);
            }
        }
        return Ok(chosen);
    }
    parse_id_list(list, flag)?
        .into_iter()
        .map(|id| index_of(ids, n, id, flag))
        .collect()
}

/// What `error: ...` says of `e`: the library's message, in the command line's terms
/// where it names an option.
pub fn message(e: &Error) -> String {
    match e {
        Error::WrongFormat {
            path, line, found, ..
        } => format!(
            "{path}:{line}: this is a {} file; drop --format or use --format {found}",
            found.long_name()
        ),
        _ => e.to_string(),
    }
}
