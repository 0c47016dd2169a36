//! The quickcheck harness the property tests share: a case is a [`Seed`] (expanded into
//! a case by `random::Rng`), and quickcheck draws the seeds from a fixed seed, the
//! test file's own or `EDGEBLAS_QC_SEED` from the environment, so a failure replays.

#![allow(dead_code)]

use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

/// A case's seed. It does not shrink: a smaller seed is not a smaller case.
#[derive(Clone, Copy, Debug)]
pub struct Seed(pub u64);

impl Arbitrary for Seed {
    fn arbitrary(g: &mut Gen) -> Self {
        Seed(u64::arbitrary(g))
    }
}

/// A quickcheck runner with `tests` cases, drawing seeds from `EDGEBLAS_QC_SEED` or
/// else `default_seed`.
pub fn qc(tests: u64, default_seed: u64) -> QuickCheck {
    let seed = std::env::var("EDGEBLAS_QC_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_seed);
    QuickCheck::new()
        .tests(tests)
        .max_tests(tests)
        .rng(Gen::from_size_and_seed(100, seed))
}

/// A rayon pool of `n` threads.
pub fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .expect("a thread pool")
}

/// Runs a property on `tests` cases in a 3-thread pool, so the parallel paths run
/// whatever the machine.
pub fn check(tests: u64, default_seed: u64, prop: fn(Seed) -> TestResult) {
    pool(3).install(|| qc(tests, default_seed).quickcheck(prop));
}

/// A case's outcome: passed, or failed with its message.
pub fn verdict(r: Result<(), String>) -> TestResult {
    match r {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(e),
    }
}
