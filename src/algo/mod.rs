//! Algorithms written over [`crate::ops`]: breadth-first search with pluggable direction
//! switching ([`bfs()`]), its Graph500-style validator ([`validate`]), Bellman-Ford
//! shortest paths by the semiring swap ([`bellman_ford()`]) and by delta-stepping
//! ([`delta_stepping()`]), and the LDBC Graphalytics
//! kernels with LAGraph's basic set: PageRank ([`pagerank()`]), weakly connected
//! components ([`wcc()`]), label propagation ([`cdlp()`]), local clustering
//! ([`lcc()`]), triangle counting ([`triangle_count()`]) and betweenness
//! ([`betweenness()`]).
//!
//! Every algorithm takes a [`Graph`]: the matrix with what is learned about it once (its
//! transpose, whether its structure is symmetric, its degrees).
//!
//! Each algorithm has a plain template, a short sequence of library calls with the
//! algebra in a comment above each (as LAGraph writes them), and where a fused
//! operation is faster, a tuned version that is tested against the template.

pub mod bellman_ford;
pub mod betweenness;
pub mod bfs;
pub mod cdlp;
pub mod components;
pub mod delta_stepping;
pub mod lcc;
pub mod pagerank;
pub mod triangles;
pub mod validate;

pub use crate::graph::Graph;
pub use bellman_ford::{NegativeCycle, ShortestPaths, bellman_ford, bellman_ford_with};
pub use betweenness::betweenness;
pub use bfs::{
    Beamer, BfsGraph, BfsOptions, BfsResult, Direction, Gunrock, LevelState, LevelTrace, Ligra,
    Policy, Pull, Push, Xbfs, bfs, bfs_template, builtin_policies, is_symmetric_pattern,
};
pub use cdlp::cdlp;
pub use components::{Components, WccMethod, wcc, wcc_with};
pub use delta_stepping::{default_delta, delta_stepping, delta_stepping_with};
pub use lcc::lcc;
pub use pagerank::{PageRank, PageRankOptions, Precision, Stop, pagerank, pagerank_with};
pub use triangles::{Presort, TriangleCount, TriangleMethod, triangle_count};
pub use validate::{BfsViolation, validate_bfs};
