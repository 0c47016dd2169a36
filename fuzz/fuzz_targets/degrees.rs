//! Fuzz target: the Chung-Lu degree-distribution reader (see tests/common/fuzz_harness.rs):
//! `Ok` or `Err`, valid distributions that read back, and no more memory at once than
//! `memory_bound` allows (in proportion to the input's size, and to the vertices a
//! directed histogram may expand to: at most 64 per byte, or the floor).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    edgeblas_fuzz::check_bounded("degrees", data);
});
