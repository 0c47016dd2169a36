//! The library's integration tests, in one binary: one module per area (the files
//! beside this one), sharing the helpers of `tests/common/`. One binary instead of one per
//! file: each test crate compiles its own copies of the generic operations it uses, so
//! separate binaries cost most of the suite's build time.
//!
//! Kept apart, as their own binaries: `fuzz_memory` and `limits` (a counting global
//! allocator) and the `cuda_*` tests (run by name under the `cuda` feature).

#[path = "../common/chung_lu_cases.rs"]
mod chung_lu_cases;
#[path = "../common/fuzz_harness.rs"]
#[allow(dead_code)]
mod fuzz_harness;
#[path = "../common/generated.rs"]
mod generated;
#[path = "../common/oracle.rs"]
mod oracle;
#[path = "../common/qc.rs"]
mod qc;
#[path = "../common/random.rs"]
mod random;
#[path = "../common/real_figures.rs"]
#[allow(dead_code)]
mod real_figures;

mod accumulate;
mod algorithms;
mod aliasing;
mod bellman_ford;
mod bfs;
mod chung_lu;
mod conformance;
mod fixpoint;
mod fuzz_regressions;
mod graph;
mod io;
mod io_cross_format;
mod io_real_data;
mod laws;
mod matrix;
mod matrix_ops;
mod mxm;
mod number;
mod operators;
mod ops;
mod parts;
mod push_methods;
mod rmat;
mod templates;
