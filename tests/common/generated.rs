//! Checks the generator tests share (Chung-Lu, R-MAT): a pool of a given size, and a
//! generated graph's CSR invariants.
//!
//! Included as `#[path = "common/generated.rs"] mod generated;`.

#![allow(dead_code)]

use edgeblas::matrix::Csr;

/// A rayon pool of `t` threads.
pub fn pool(t: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(t)
        .build()
        .unwrap()
}

/// Checks every CSR invariant through the checked constructor, and no self-loops.
pub fn check_simple(g: &Csr<()>) {
    let (nr, nc, o, i, v) = g.clone().into_parts();
    Csr::new_checked(nr, nc, o, i, v).expect("CSR invariants");
    assert_eq!(g.count_diagonal(), 0, "self-loops");
}
