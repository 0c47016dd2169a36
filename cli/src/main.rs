//! The `edgeblas` command line: the jobs people do from a shell (inspect, convert,
//! benchmark, traverse), each a thin layer over the library.

mod algebra;
mod analytics;
mod common;
mod demo;
mod distributed;
mod generate;
mod info;
mod traverse;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use common::{Backend, InputArgs};

/// Graph algorithms as sparse linear algebra.
#[derive(Parser, Debug)]
#[command(name = "edgeblas", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Runs the built-in demonstration: a Chung-Lu proxy of a real network (report, plot),
    /// BFS and Bellman-Ford on it; `demo rmat` for the R-MAT file round trip
    Demo(demo::DemoArgs),
    /// Prints vertices, arcs, records, self-loops, duplicates and degree statistics
    Info {
        #[command(flatten)]
        input: InputArgs,
        /// Print one JSON object
        #[arg(long)]
        json: bool,
    },
    /// Converts between graph formats, chosen by the file extensions
    Convert {
        #[command(flatten)]
        input: InputArgs,
        /// The output file (.mtx, .txt/.el, .ebg; add .gz to compress), or with --parts
        /// a directory
        output: std::path::PathBuf,
        /// Output format, overriding the extension
        #[arg(long)]
        to: Option<String>,
        /// Write P parts of consecutive rows (cut by arcs) into the directory OUTPUT,
        /// part-00000.ebg to part-{P-1}.ebg: each MPI rank of `mpirun -np P` reads its own
        #[arg(long, value_name = "P")]
        parts: Option<usize>,
    },
    /// Breadth-first search from a source: levels, parents, per-level trace
    Bfs(traverse::BfsArgs),
    /// Single-source shortest paths (Bellman-Ford over MIN.PLUS): distances
    Sssp(traverse::SsspArgs),
    /// PageRank (Graphalytics semantics: dangling rank spread over all vertices)
    Pagerank(analytics::PageRankArgs),
    /// Weakly connected components (FastSV); a component's label is its smallest id
    Wcc(analytics::WccArgs),
    /// Community detection by label propagation (Graphalytics semantics)
    Cdlp(analytics::CdlpArgs),
    /// Local clustering coefficient (Graphalytics semantics)
    Lcc(analytics::LccArgs),
    /// Triangle counting (masked mxm) on the undirected simple graph
    Tc(analytics::TcArgs),
    /// Betweenness centrality (Brandes, batched over the sources)
    Bc(analytics::BcArgs),
    /// Generates a graph (Chung-Lu from a degree distribution, or R-MAT)
    Generate {
        #[command(subcommand)]
        what: generate::GenerateCommand,
    },
    /// Benchmarks
    Bench {
        #[command(subcommand)]
        what: Bench,
    },
}

#[derive(Subcommand, Debug)]
enum Bench {
    /// Loading speed of a graph file, in MB/s of the file as stored
    Load(info::BenchLoadArgs),
    /// BFS time over several sources (loading excluded), and GTEPS
    Bfs(traverse::BenchBfsArgs),
    /// Chung-Lu generation into CSR (I/O excluded), and its edge rate
    ChungLu(generate::BenchChungLuArgs),
    /// Matrix products (triangle counting, A A, masked A A): median time, nvals and sum
    Mxm(algebra::BenchMxmArgs),
}

/// Restores the default SIGPIPE action, so that `edgeblas ... | head` ends quietly like
/// any other Unix tool instead of failing on a closed standard output.
fn quiet_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid
    // action for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Keeps freed memory in the process for the next allocation, instead of glibc's
/// default of returning it to the kernel: each block over 128 KiB is its own mapping,
/// unmapped when freed, and the heap's top is trimmed past 128 KiB. An algorithm's
/// rounds and iterations make vectors of the vertex count over and over, and with the
/// default each one pays a page fault per 4 KiB again (about 0.65 ms per MiB on the
/// benchmark machine, more than a pass over the vector). Blocks up to 32 MiB now come
/// from the heap, and the heap is not trimmed; the resident size is the peak the job
/// reaches, as before. A command runs one job and exits, so nothing is held for long.
/// Only glibc has these knobs; elsewhere this does nothing.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called first thing in main, before any allocation by another thread;
    // mallopt takes plain integers and rejects values out of its range.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}

fn main() -> ExitCode {
    quiet_broken_pipe();
    keep_freed_memory();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(a) => demo::demo(&a),
        Command::Generate { what } => match what {
            generate::GenerateCommand::ChungLu(a) if a.model.backend == Backend::Mpi => {
                distributed::generate_chung_lu(&a)
            }
            generate::GenerateCommand::ChungLu(a) => generate::generate_chung_lu(&a),
            generate::GenerateCommand::Rmat(a) => generate::generate_rmat(&a),
        },
        Command::Bfs(a) if a.backend == Backend::Mpi => distributed::bfs(&a),
        Command::Bfs(a) => traverse::bfs(&a),
        Command::Sssp(a) => traverse::sssp(&a),
        Command::Pagerank(a) => analytics::pagerank(&a),
        Command::Wcc(a) => analytics::wcc(&a),
        Command::Cdlp(a) => analytics::cdlp(&a),
        Command::Lcc(a) => analytics::lcc(&a),
        Command::Tc(a) => analytics::tc(&a),
        Command::Bc(a) => analytics::bc(&a),
        Command::Info { input, json } => info::info(&input, json),
        Command::Convert {
            input,
            output,
            to,
            parts,
        } => info::convert(&input, &output, to.as_deref(), parts),
        Command::Bench { what } => match what {
            Bench::Load(a) => info::bench_load(&a),
            Bench::Bfs(a) => traverse::bench_bfs(&a),
            Bench::ChungLu(a) if a.model.backend == Backend::Mpi => distributed::bench_chung_lu(&a),
            Bench::ChungLu(a) => generate::bench_chung_lu(&a),
            Bench::Mxm(a) => algebra::bench_mxm(&a),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if common::prints_errors() {
                eprintln!("error: {}", common::message(&e));
            }
            ExitCode::FAILURE
        }
    }
}
