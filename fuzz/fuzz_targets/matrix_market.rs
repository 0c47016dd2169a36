//! Fuzz target: the matrix_market reader (see tests/common/fuzz_harness.rs): `Ok` or
//! `Err`, round trips, and no more memory at once than `memory_bound` allows.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    edgeblas_fuzz::check_bounded("matrix_market", data);
});
