//! Chung-Lu graphs from a degree distribution, generated the way Alam and Perumalla do on
//! the GPU ("Fast GPU-based generation of large graph networks from degree distributions",
//! Frontiers in Big Data, 2021), here on the CPU with rayon.
//!
//! # The model
//! Vertex `u` has an expected degree `w_u`; `S = sum w_u`. Every pair `{u, v}`, `u != v`,
//! is an edge with probability `min(1, w_u w_v / S)`, independently. No self-loops, no
//! multi-edges; the expected degree of `u` is `w_u (1 - w_u / S)` when nothing is clamped.
//! Directed: the arc `u -> v` has probability `min(1, out_u in_v / S)`.
//!
//! # The method
//! 1. [`Plan`]: vertices of equal expected degree form a group, groups ascend by degree,
//!    optionally [coarsened](Coarsen). Task `T(i, j)` (`i >= j`, number `i (i + 1) / 2 + j`)
//!    is `G(n_i, w_i^2 / S)` inside a group or a random bipartite graph with `p = w_i w_j /
//!    S` between two. Its pairs are numbered ([`decode_triangle`] turns a number back into a
//!    pair exactly, past 2^53) and cut into fixed-size chunks.
//! 2. A chunk walks its pairs by edge skipping: `skip = floor(ln r / ln(1 - p))` with its
//!    own random stream keyed by (seed, task, chunk) ([`rng`]). So the graph depends on the
//!    plan and the seed only, never on threads or scheduling (work units follow the cost
//!    model `c = alpha + beta m`), and a CUDA kernel can reproduce it bit for bit.
//! 3. [`generate`] (in [`cpu`]): one walk of every chunk into buffers of compact edges
//!    (pieces of chunks taken dynamically by the threads), then memory-bound passes over
//!    the buffers: a count per row, a prefix sum, a scatter, and a sort of every row only
//!    where the numbering needs it: a [`Csr`](crate::matrix::Csr) with sorted rows,
//!    undirected edges stored both ways.
//! 4. [`Report`]: edges against the expectation, each group's mean degree against its
//!    exact expectation with a z-score, K-L divergences, and a plot.
//!
//! # Example
//! ```
//! use edgeblas::generate::chung_lu::{Degrees, Plan, PlanOptions, generate, Report};
//! let degrees = Degrees::Histogram(vec![(2, 500), (5, 100), (20, 10)]);
//! let plan = Plan::new(&degrees, &PlanOptions::default()).unwrap();
//! let g = generate(&plan, 42);
//! assert_eq!(g.nrows(), 610);
//! assert!(g.is_symmetric() && g.count_diagonal() == 0);
//! let report = Report::new(&plan, &g);
//! assert!(report.edges_z.abs() < 6.0);
//! ```

mod coarsen;
pub mod cpu;
mod input;
pub mod plan;
pub mod report;
pub mod rng;

pub use super::Progress;
pub use coarsen::{Coarsen, coarsen_runs, merged_weight};
pub use cpu::{generate, generate_with_progress};
pub use input::{
    Degrees, PowerLaw, degree_histogram_of, parse_degree_pair, parse_degrees, read_degree_pair,
    read_degrees,
};
pub use plan::{Groups, Plan, PlanOptions, Task, TaskKind, decode_triangle};
pub use report::Report;

/// A real degree distribution to generate from: the undirected degree histogram of the
/// SNAP web-NotreDame web graph (R. Albert, H. Jeong and A.-L. Barabási, "Diameter of the
/// World-Wide Web", Nature 401, 1999; from the Stanford Large Network Dataset Collection,
/// J. Leskovec and A. Krevl, 2014), the degrees of its symmetrized simple graph without
/// self-loops: 325,729 vertices, 1,090,108 edges, degrees 1 to 10,721 in 438 groups.
///
/// A `degree,count` CSV with `#` provenance lines, as [`parse_degrees`] reads it; derived
/// from the graph file by `scripts/derive_demo_degrees.py`. `edgeblas demo` generates a
/// proxy of this network.
///
/// ```
/// use edgeblas::generate::chung_lu::{Degrees, WEB_NOTREDAME_DEGREES, parse_degrees};
/// let d = parse_degrees("web-NotreDame", WEB_NOTREDAME_DEGREES.as_bytes(), false).unwrap();
/// assert_eq!(d.vertices(), 325_729);
/// assert_eq!(d.sum_out(), 2 * 1_090_108);
/// ```
pub const WEB_NOTREDAME_DEGREES: &str = include_str!("web-NotreDame.degrees.csv");
