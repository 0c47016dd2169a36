//! A small team of threads that stay awake between short parallel steps.
//!
//! Rayon's workers go to sleep when they run out of work and a sleeping worker takes
//! several microseconds to wake. A road graph's BFS has thousands of levels of a few
//! thousand arcs each (tens of microseconds of work): waking the pool for every level
//! costs about what the level saves, so those levels ran on one thread. OpenMP's
//! answer, which gapbs gets for free, is threads that spin for a while after a parallel
//! region before they sleep. A [`Team`] does the same for the steps that ask for it:
//! `threads - 1` helpers spin on an epoch counter for [`SPIN`] after each job, then
//! park on a condition variable.
//!
//! A job is a number of chunks, taken from a shared counter by whichever thread is
//! free, the caller included. So a helper that the operating system has descheduled
//! (on a shared machine) delays nothing: the caller takes its chunks, and closes the
//! job when none are left; a helper that arrives after that skips the job. The caller
//! waits only for helpers inside a chunk.
//!
//! Only short steps go through a team; big ones keep using rayon (a team's helpers are
//! extra threads beside rayon's, so they must not spin while rayon's workers compute:
//! after [`SPIN`] without a job they sleep).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a helper spins for the next job before it parks.
const SPIN: Duration = Duration::from_micros(50);

/// The job of the current epoch: `f(chunk)` for chunks `0..chunks`.
type Job = dyn Fn(usize) + Sync;

struct Shared {
    /// Bumped once per job; a helper looks at the job when it sees a new value.
    epoch: AtomicU64,
    /// The epoch a helper may still join (0: closed).
    open: AtomicU64,
    /// Helpers that joined the current job and have not left it.
    active: AtomicUsize,
    /// The next chunk to take, and the job's chunk count.
    next: AtomicUsize,
    chunks: AtomicUsize,
    /// The current job, valid while the job is open or a helper is active in it.
    job: Mutex<Option<&'static Job>>,
    /// Helpers parked on `wake` (so that `run` notifies only when someone sleeps).
    sleeping: Mutex<usize>,
    wake: Condvar,
    quit: AtomicBool,
    /// A helper's chunk panicked: `run` re-raises it.
    panicked: AtomicBool,
}

impl Shared {
    /// Takes and runs chunks until none are left.
    fn work(&self, job: &Job) {
        let chunks = self.chunks.load(SeqCst);
        loop {
            let c = self.next.fetch_add(1, SeqCst);
            if c >= chunks {
                return;
            }
            job(c);
        }
    }
}

/// `threads - 1` helper threads plus the caller (see the module docs).
pub(crate) struct Team {
    shared: Arc<Shared>,
    helpers: Vec<JoinHandle<()>>,
}

impl Team {
    /// A team of `threads` (the caller and `threads - 1` helpers).
    pub(crate) fn new(threads: usize) -> Team {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            open: AtomicU64::new(0),
            active: AtomicUsize::new(0),
            next: AtomicUsize::new(0),
            chunks: AtomicUsize::new(0),
            job: Mutex::new(None),
            sleeping: Mutex::new(0),
            wake: Condvar::new(),
            quit: AtomicBool::new(false),
            panicked: AtomicBool::new(false),
        });
        let helpers = (1..threads.max(1))
            .map(|_| {
                let s = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name("edgeblas-team".into())
                    .spawn(move || helper(&s))
                    .expect("spawning a team thread")
            })
            .collect();
        Team { shared, helpers }
    }

    /// Threads in the team, the caller included.
    pub(crate) fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Runs `f(chunk)` once for every chunk `0..chunks`, on whichever threads of the
    /// team are free (the caller always takes part), and returns when all have run.
    ///
    /// # Panics
    /// If `f` panicked on any thread (after every chunk has finished).
    pub(crate) fn run<'a>(&self, chunks: usize, f: &'a (dyn Fn(usize) + Sync + 'a)) {
        let s = &*self.shared;
        if self.helpers.is_empty() || chunks <= 1 {
            (0..chunks).for_each(f);
            return;
        }
        // SAFETY: the 'static lifetime is a lie that `run` makes true: a helper calls
        // the job only after joining it (`active` raised while the job is open), and
        // `run` neither returns nor unwinds (see `Close`) before it has closed the job
        // and seen `active` fall to 0; so `f` outlives every use.
        let job: &'static Job =
            unsafe { std::mem::transmute::<&'a (dyn Fn(usize) + Sync + 'a), &'static Job>(f) };
        *s.job.lock().expect("team job lock") = Some(job);
        s.next.store(0, SeqCst);
        s.chunks.store(chunks, SeqCst);
        let epoch = s.epoch.load(SeqCst) + 1;
        s.open.store(epoch, SeqCst);
        s.epoch.store(epoch, SeqCst);
        if *s.sleeping.lock().expect("team sleep lock") > 0 {
            s.wake.notify_all();
        }
        // Closes the job and waits for the helpers inside it, even if `f` panics here.
        struct Close<'a>(&'a Shared);
        impl Drop for Close<'_> {
            fn drop(&mut self) {
                let s = self.0;
                s.open.store(0, SeqCst);
                let start = Instant::now();
                let mut spins = 0u32;
                while s.active.load(SeqCst) != 0 {
                    spins = spins.wrapping_add(1);
                    if spins.is_multiple_of(64) && start.elapsed() > SPIN {
                        std::thread::yield_now();
                    } else {
                        std::hint::spin_loop();
                    }
                }
                *s.job.lock().expect("team job lock") = None;
            }
        }
        let close = Close(s);
        s.work(job);
        drop(close);
        if s.panicked.swap(false, SeqCst) {
            panic!("a team thread panicked");
        }
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        self.shared.quit.store(true, SeqCst);
        {
            let _sleeping = self.shared.sleeping.lock().expect("team sleep lock");
            self.shared.wake.notify_all();
        }
        for h in self.helpers.drain(..) {
            let _ = h.join();
        }
    }
}

impl std::fmt::Debug for Team {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Team({} threads)", self.threads())
    }
}

/// A helper's loop: wait for a new epoch (spinning, then parked), join the job if it is
/// still open, take chunks until none are left, leave.
fn helper(s: &Shared) {
    let mut seen = 0u64;
    loop {
        let start = Instant::now();
        let mut spins = 0u32;
        loop {
            let e = s.epoch.load(SeqCst);
            if e != seen {
                seen = e;
                break;
            }
            if s.quit.load(SeqCst) {
                return;
            }
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(64) && start.elapsed() > SPIN {
                let mut sleeping = s.sleeping.lock().expect("team sleep lock");
                *sleeping += 1;
                while s.epoch.load(SeqCst) == seen && !s.quit.load(SeqCst) {
                    sleeping = s.wake.wait(sleeping).expect("team sleep lock");
                }
                *sleeping -= 1;
            } else {
                std::hint::spin_loop();
            }
        }
        // Join: raise `active`, then check that the job is still open. The caller
        // closes (`open = 0`) before it waits for `active == 0`, so either it sees this
        // helper active, or this helper sees the job closed and leaves untouched.
        s.active.fetch_add(1, SeqCst);
        if s.open.load(SeqCst) == seen {
            let job = *s.job.lock().expect("team job lock");
            if let Some(job) = job {
                let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.work(job)));
                if ok.is_err() {
                    s.panicked.store(true, SeqCst);
                }
            }
        }
        s.active.fetch_sub(1, SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chunk_runs_once_per_job() {
        for threads in [1, 2, 3, 5] {
            let team = Team::new(threads);
            for round in 0..2000usize {
                let chunks = round % 37;
                let hits: Vec<AtomicUsize> = (0..chunks).map(|_| AtomicUsize::new(0)).collect();
                team.run(chunks, &|c| {
                    hits[c].fetch_add(1, SeqCst);
                });
                for (c, h) in hits.iter().enumerate() {
                    assert_eq!(
                        h.load(SeqCst),
                        1,
                        "{threads} threads, round {round}, chunk {c}"
                    );
                }
                if round == 1000 {
                    // long enough for the helpers to park: they must wake again
                    std::thread::sleep(Duration::from_millis(3));
                }
            }
        }
    }

    #[test]
    fn a_panicking_chunk_is_reported_after_all_finish() {
        let team = Team::new(3);
        let done = AtomicUsize::new(0);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            team.run(8, &|c| {
                if c == 5 {
                    panic!("chunk 5 fails");
                }
                done.fetch_add(1, SeqCst);
            })
        }));
        assert!(r.is_err());
        // the team still works afterwards
        let after = AtomicUsize::new(0);
        team.run(6, &|_| {
            after.fetch_add(1, SeqCst);
        });
        assert_eq!(after.load(SeqCst), 6);
    }
}
