//! Where the work is done. `ops` checks shapes and dispatches here; nothing above this
//! module knows whether a thread or a GPU computed a result.

mod contract;
pub mod cpu;
#[cfg(feature = "cuda")]
pub(crate) mod cuda;

pub use contract::{BfsLevels, Direction, Schedule, StepCounts};
