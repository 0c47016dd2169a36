//! Backends.
pub mod cpu;
