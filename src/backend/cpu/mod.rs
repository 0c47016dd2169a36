//! The CPU backend: rayon-parallel kernels for the products (push and pull), the
//! element-wise operations, and the masked write-back that every operation ends with.
//!
//! Every kernel sums the terms of one output entry in ascending inner index, so results
//! do not depend on the number of threads.

pub(crate) mod accumulate;
pub(crate) mod bfs_level;
pub(crate) mod ewise;
pub(crate) mod matrix_ops;
pub(crate) mod mxm;
pub(crate) mod pool;
pub(crate) mod pull;
pub(crate) mod push;
pub(crate) mod rows;
pub(crate) mod scatter;
pub(crate) mod team;
pub(crate) mod write;
pub(crate) mod write_matrix;

/// Below this much work (edges or entries), kernels run on the calling thread: spawning
/// tasks for a frontier of ten vertices costs more than it saves.
pub(crate) const SEQUENTIAL_WORK: usize = 1 << 14;
