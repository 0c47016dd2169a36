//! Fuzz target: the Chung-Lu degree-distribution reader (see tests/common/fuzz_harness.rs),
//! and a bound on the memory one input may take: in proportion to its size, and to the
//! vertices a directed histogram may expand to (at most 64 per byte, or the floor).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let len = data.len();
    let vertices = (64 * len).max(edgeblas_fuzz::FUZZ_MIN_VERTEX_LIMIT as usize);
    let bound = (1 << 20) + 256 * len + 128 * vertices;
    let peak = edgeblas_fuzz::peak_bytes(|| edgeblas_fuzz::check("degrees", data));
    assert!(
        peak <= bound,
        "{len} bytes of input took {peak} bytes of memory at once (bound {bound})"
    );
});
