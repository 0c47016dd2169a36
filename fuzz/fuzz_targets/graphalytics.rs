//! Fuzz target: the graphalytics reader (see tests/common/fuzz_harness.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    edgeblas_fuzz::check("graphalytics", data);
});
