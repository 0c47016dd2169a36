//! The CPU backend: rayon-parallel kernels for the products (push and pull), the
//! element-wise operations, and the masked write-back that every operation ends with.
//!
//! Every kernel sums the terms of one output entry in ascending inner index, so results
//! do not depend on the number of threads.

pub(crate) mod accumulate;
pub(crate) mod bfs_level;
pub(crate) mod choose;
pub(crate) mod ewise;
pub(crate) mod fixpoint;
pub(crate) mod matrix_ops;
pub(crate) mod mxm;
pub(crate) mod pool;
pub(crate) mod pull;
pub(crate) mod push;
pub(crate) mod rows;
pub(crate) mod scatter;
pub(crate) mod team;
pub(crate) mod terms;
pub(crate) mod words;
pub(crate) mod write;
pub(crate) mod write_matrix;

/// Below this much work (edges or entries), kernels run on the calling thread: spawning
/// tasks for a frontier of ten vertices costs more than it saves.
pub(crate) const SEQUENTIAL_WORK: usize = 1 << 14;

/// How many terms ahead in a row the kernels that combine terms into slots at random
/// positions (the scatter, Gustavson, the in-place accumulate, the masked saxpy row) ask
/// for the slot they will reach: without the hint a core waits on one cache miss at a
/// time more often than it needs to (on Kronecker 18 and 20, 15-20 % of a Bellman-Ford
/// product's time; 8 ahead gains less, 32 the same).
pub(crate) const PREFETCH_AHEAD: usize = 16;

/// Asks the cache for the line holding `p`: a hint, with no effect on any result, and
/// nothing on targets other than x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
