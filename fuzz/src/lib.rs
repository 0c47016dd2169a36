//! The fuzz targets' shared harness: the same code the regression tests run.

#[path = "../../tests/common/fuzz_harness.rs"]
mod harness;

pub use harness::check;
