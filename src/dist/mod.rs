//! Distributed graphs over MPI (the `mpi` feature): breadth-first search, PageRank,
//! components, shortest paths and Chung-Lu generation on `P` ranks, with outputs
//! byte-identical to one process (PageRank within the float rule of [`pagerank`]).
//!
//! MPI comes from [rsmpi](https://github.com/rsmpi/rsmpi) (the `mpi` crate), bindings to
//! the system's MPI library (OpenMPI here: `scripts/setup-mpi.sh`): its collectives
//! (alltoallv, allgatherv, allreduce, broadcast, gatherv) are the whole transport.
//! Programs start under `mpirun -np P`; [`init`] initializes MPI and wraps the world
//! communicator in a [`Net`], which counts the bytes and messages every rank sends.
//!
//! | piece | what |
//! |---|---|
//! | [`partition`] | [`Partition`]: who owns which vertex; [`RowBlocks`], the 1-D cut by arcs (the 2-D layout keeps it for the vertices) |
//! | [`net`] | [`Net`]: the collectives, traffic counts, and [`Net::agree`] for errors every rank must see before the next collective |
//! | [`bfs`] | [`bfs::scatter_graph`] (rank 0 reads, the ranks get their rows), [`bfs::bfs`]: direction-optimizing, push by alltoallv, pull by allgather |
//! | [`bfs2d`] | [`bfs2d::bfs`]: the same search over a 2-D grid of blocks (Buluç-Madduri), exchanges along grid rows and columns |
//! | [`read`] | [`read::read_row_blocks`]: every rank reads its own rows of a binary file, none holds the graph; [`read::read_text_row_blocks`]: rank 0 streams a text file in blocks to the rows' ranks |
//! | [`algebra`] | [`algebra::mxv`] (pull) and [`algebra::vxm`] (push) with `A`'s rows cut over the ranks, any semiring; [`algebra::vxm_accumulate`] (the relaxation, in place, returning the changed entries); [`algebra::allgather_vector`] |
//! | [`pagerank`] | [`pagerank::pagerank`]: the CPU sweep over row blocks, the product a distributed `mxv` (the float rule there) |
//! | [`sssp`] | [`sssp::bellman_ford`] (a round a distributed `vxm_accumulate` through the rows of `A`) and [`sssp::delta_stepping`] (a distributed `vxm_accumulate` a relaxation): the CPU's rounds; distances, rounds and predecessors identical to one process |
//! | [`components`] | [`components::wcc_afforest`]: Afforest's union-find per rank over its rows, the ranks' forests merged along a binomial tree; [`components::wcc`]: FastSV over row blocks (a distributed `mxv` over MIN.SECOND, the hooks sent to their targets' ranks, shortcuts through the gathered parents); labels identical to one process |
//! | [`chung_lu`] | [`chung_lu::generate`]: chunks split by the cost model, edges routed to row owners; [`chung_lu::gather`] to rank 0 |
//!
//! # Files
//! A binary graph (`.ebg`, a regular uncompressed file every rank can open) is read in
//! row blocks, every rank its own ([`read`]): no rank holds the whole graph. So is a
//! directory of parts ([`crate::io::parts`]), rank `r` reading part `r`, which
//! `generate chung-lu --backend mpi -o DIR` writes without gathering. A text file (edge
//! list, Matrix Market, DIMACS, Graphalytics) goes through rank 0 in blocks
//! ([`read::read_text_row_blocks`]): rank 0 reads it twice, to check it and cut the rows
//! by arcs, then to send each record to its row's rank, and holds a block and a word per
//! vertex, never the graph. Any other input (the adjacency form, a pipe) is read whole
//! by rank 0 alone (a file only rank 0 can see works, and the others never open it),
//! which sends each rank its rows (BFS) or the
//! degree distribution (Chung-Lu). Rank 0 writes every output.
//!
//! # Errors
//! A failure on one rank before a collective call would leave the others waiting
//! forever. So fallible work (reading, checking) comes first, then [`Net::agree`]: all
//! ranks learn whether any failed, rank 0 gets the message and prints it, and every rank
//! returns an error, so that every process exits non-zero and `mpirun` fails. A panic (a
//! bug) on any rank aborts the whole job rather than leaving the others waiting.

pub mod algebra;
pub mod bfs;
pub mod bfs2d;
pub mod chung_lu;
pub mod components;
pub mod net;
pub mod pagerank;
pub mod partition;
pub mod read;
pub mod sssp;

pub use net::{Failed, Net, Traffic};
pub use partition::{Partition, RowBlocks};

/// MPI's handle: MPI is finalized when it is dropped.
pub use mpi::environment::Universe;

/// Initializes MPI (threads may exist, MPI is called from this thread only) and
/// returns the universe (keep it alive for the run) and the world as a [`Net`].
///
/// # Errors
/// [`crate::Error::Unsupported`] when MPI was already initialized or cannot start.
pub fn init() -> crate::Result<(Universe, Net)> {
    let (universe, _) =
        mpi::initialize_with_threading(mpi::Threading::Funneled).ok_or_else(|| {
            crate::Error::Unsupported("MPI could not be initialized (initialized twice?)".into())
        })?;
    let net = Net::new(universe.world());
    abort_on_panic();
    Ok((universe, net))
}

/// Makes a panic on any rank abort the whole job (MPI_Abort on the world) after the
/// usual message, instead of unwinding into MPI_Finalize while the other ranks wait in
/// a collective call: a bug then ends the run instead of hanging it.
fn abort_on_panic() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        previous(info);
        use mpi::traits::Communicator;
        mpi::topology::SimpleCommunicator::world().abort(101);
    }));
}
