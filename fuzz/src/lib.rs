//! The fuzz targets' shared harness: the same code the regression tests run, and an
//! allocator that counts, so every target bounds the memory one input takes.

#[path = "../../tests/common/fuzz_harness.rs"]
mod harness;

#[path = "../../tests/common/counting_alloc.rs"]
mod counting_alloc;

pub use counting_alloc::peak_bytes;
pub use harness::{FUZZ_MIN_VERTEX_LIMIT, check, memory_bound};

/// [`check`], and no more memory at once than [`memory_bound`] allows.
pub fn check_bounded(target: &str, data: &[u8]) {
    let bound = memory_bound(target, data, FUZZ_MIN_VERTEX_LIMIT);
    let peak = peak_bytes(|| check(target, data));
    assert!(
        peak <= bound,
        "{target}: {} bytes of input took {peak} bytes of memory at once (bound {bound})",
        data.len()
    );
}
