//! Graph generators that write [`crate::matrix::Csr`] directly: Chung-Lu graphs from a
//! degree distribution ([`chung_lu`], the method of Alam and Perumalla) and Graph500
//! Kronecker / R-MAT graphs ([`rmat`]). Every generator is seeded, and the same seed gives
//! the same graph for any number of threads.
//!
//! A long generation can report how far it is through a [`Progress`] hook (a progress
//! bar, phase timings); the library itself never writes to the terminal.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

pub mod chung_lu;
pub mod rmat;

/// What a generator reports while it runs: work done out of a total, and the end of each
/// phase. Both methods do nothing by default; any `Fn(u64, u64) + Sync` closure is a
/// `Progress` whose [`work`](Progress::work) it is.
///
/// The hook is called from the worker threads, a few hundred times per generation at
/// most (once per batch of chunks or blocks, never per edge), and never changes what is
/// generated.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use edgeblas::generate::chung_lu::{Degrees, Plan, PlanOptions, generate_with_progress};
/// let plan = Plan::new(&Degrees::Histogram(vec![(3, 1000)]), &PlanOptions::default()).unwrap();
/// let last = AtomicU64::new(0);
/// let g = generate_with_progress(&plan, 7, Some(&|done: u64, total: u64| {
///     assert!(done <= total);
///     last.store(done, Ordering::Relaxed);
/// }));
/// assert_eq!(last.load(Ordering::Relaxed), 2 * plan.chunks);
/// assert_eq!(g.nrows(), 1000);
/// ```
pub trait Progress: Sync {
    /// `done` units of work out of `total` are finished. Calls are serialized, `done`
    /// never decreases from one call to the next, and the last call has `done == total`.
    /// The unit is the generator's (Chung-Lu: chunks of both passes; R-MAT: blocks of
    /// both passes).
    fn work(&self, done: u64, total: u64) {
        let _ = (done, total);
    }

    /// The phase `name` just ended (e.g. `"count pass"`), on the thread that ran it.
    fn phase(&self, name: &str) {
        let _ = name;
    }
}

impl<F: Fn(u64, u64) + Sync> Progress for F {
    fn work(&self, done: u64, total: u64) {
        self(done, total)
    }
}

/// Counts units of work from many threads and forwards them to a hook, serialized and
/// monotone (a thread that would report less than what was already reported stays quiet).
pub(crate) struct Reporter<'a> {
    hook: Option<&'a dyn Progress>,
    total: u64,
    done: AtomicU64,
    /// The last `done` reported, `None` before the first call.
    last: Mutex<Option<u64>>,
}

impl<'a> Reporter<'a> {
    /// A reporter of `total` units to `hook` (nothing at all without one).
    pub(crate) fn new(hook: Option<&'a dyn Progress>, total: u64) -> Self {
        Reporter {
            hook,
            total,
            done: AtomicU64::new(0),
            last: Mutex::new(None),
        }
    }

    /// `k` more units are done.
    #[inline]
    pub(crate) fn add(&self, k: u64) {
        let Some(h) = self.hook else { return };
        let d = (self.done.fetch_add(k, Ordering::Relaxed) + k).min(self.total);
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_none_or(|l| d > l) {
            *last = Some(d);
            h.work(d, self.total);
        }
    }

    /// The phase `name` ended.
    #[inline]
    pub(crate) fn phase(&self, name: &str) {
        if let Some(h) = self.hook {
            h.phase(name);
        }
    }

    /// Everything is done: reports `total` if that was not the last report.
    pub(crate) fn finish(&self) {
        let Some(h) = self.hook else { return };
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if *last != Some(self.total) {
            *last = Some(self.total);
            h.work(self.total, self.total);
        }
    }
}
