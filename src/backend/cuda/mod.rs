//! The CUDA backend (feature `cuda`): the hand-written kernels of `csrc/`, compiled by
//! build.rs into embedded fatbins and driven through cudarc's driver API.
//!
//! The search and relaxation loops ([`levels`], [`relax`]) are written once over
//! [`exec::Exec`], which either launches the kernels on a GPU ([`gpu::GpuExec`]) or runs
//! the same per-element code, built for the host, sequentially ([`host::HostExec`]).
//! The tests drive the host form against the CPU backend on machines without a GPU, so
//! the kernels' indexing and the loops' bookkeeping are checked everywhere.

pub(crate) mod abi;
pub(crate) mod cdlp;
pub(crate) mod chung_lu;
pub(crate) mod components;
pub(crate) mod exec;
pub(crate) mod gpu;
pub(crate) mod host;
pub(crate) mod levels;
pub(crate) mod matrix;
pub(crate) mod ops;
pub(crate) mod pagerank;
pub(crate) mod relax;
pub(crate) mod sssp;
