//! Fuzz target: the edge_list reader (see tests/common/fuzz_harness.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    edgeblas_fuzz::check("edge_list", data);
});
