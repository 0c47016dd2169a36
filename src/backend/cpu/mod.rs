//! CPU.
