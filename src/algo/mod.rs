//! Algorithms written over [`crate::ops`]: breadth-first search with pluggable direction
//! switching ([`bfs()`]), its Graph500-style validator ([`validate`]) and Bellman-Ford
//! shortest paths by the semiring swap ([`bellman_ford()`]).
//!
//! Each algorithm has a plain template, a short sequence of library calls with the
//! algebra in a comment above each (as LAGraph writes them), and where a fused
//! operation is faster, a tuned version that is tested against the template.

pub mod bellman_ford;
pub mod bfs;
pub mod validate;

pub use bellman_ford::{NegativeCycle, ShortestPaths, bellman_ford};
pub use bfs::{
    Beamer, BfsGraph, BfsOptions, BfsResult, Direction, Gunrock, LevelState, LevelTrace, Ligra,
    Policy, Pull, Push, Xbfs, bfs, bfs_template, builtin_policies, is_symmetric_pattern,
};
pub use validate::{BfsViolation, validate_bfs};
