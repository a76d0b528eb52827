//! A persistent second thread: one job at a time, handed over without the thread pool.
//!
//! The sparse engine gives the far rare partners of the *next* block to another core while it
//! finishes the current block heap by heap (module docs of [`super`]). Through the thread
//! pool (`rayon::join`) every block cost some five futex or `sched_yield` calls and a
//! wake-up of a sleeping worker (tens of microseconds on a loaded machine), which is why the
//! blocks had to be long (256 heaps) and why the two-thread engine slowed down under load.
//!
//! Here one thread lives as long as the engine. A job goes into a slot guarded by a mutex
//! (never contended: the two sides take turns) and an atomic state word says whose turn it
//! is: `IDLE` (the main side may post) → `POSTED` (the helper runs it) → `DONE` (the main
//! side takes the result) → `IDLE`. The side that waits spins on the state word for a few
//! microseconds ([`SPIN`]) and then parks; the other side always unparks it after changing
//! the state, which costs one atomic swap when the waiter is still spinning and a futex wake
//! only when it really sleeps. So with the two sides' work balanced a hand-over is a few
//! cache-line transfers, and blocks can be short (fewer rare positions near the heap, more
//! of the work on the second core).
//!
//! If the job panics, the helper records it and the main side panics too when it collects
//! the result with [`Helper::collect`] (as `rayon::join` would), or gets [`HelperFailed`]
//! from [`Helper::try_collect`]. Dropping the [`Helper`] stops and joins the thread.
//!
//! Used by the sparse engine ([`super::sparse`]) and the domain engine ([`super::domain`]).
//! No `unsafe`: the job and its result move through `Mutex<Option<_>>`.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle, Thread};
use std::time::{Duration, Instant};

/// The main side may post a job.
const IDLE: u8 = 0;
/// A job waits for the helper (or runs).
const POSTED: u8 = 1;
/// The result waits for the main side.
const DONE: u8 = 2;
/// The helper is to end.
const STOP: u8 = 3;
/// The job panicked.
const FAILED: u8 = 4;

/// How long a waiting side spins before it parks.
const SPIN: Duration = Duration::from_micros(10);

/// What the two sides share.
#[derive(Debug)]
struct Shared<J, R> {
    state: AtomicU8,
    job: Mutex<Option<J>>,
    result: Mutex<Option<R>>,
    /// The thread that waits for the result (set by each wait: the thread that collects or
    /// drops may not be the one that posted, e.g. a thread-pool worker posts and the
    /// engine is dropped on the caller's thread; unparking the poster then woke nobody).
    waiter: Mutex<Option<Thread>>,
}

/// Waits until `state` satisfies `ready`: spins for [`SPIN`], then parks (woken by the
/// other side's `unpark` after it changes the state; a spurious wake-up looks again).
fn wait_for(state: &AtomicU8, ready: impl Fn(u8) -> bool) -> u8 {
    let mut spins = 0u32;
    let mut start = None;
    loop {
        let s = state.load(Ordering::Acquire);
        if ready(s) {
            return s;
        }
        if spins < u32::MAX {
            spins += 1;
            std::hint::spin_loop();
            if spins % 64 == 0 && start.get_or_insert_with(Instant::now).elapsed() > SPIN {
                spins = u32::MAX;
            }
        } else {
            thread::park();
        }
    }
}

/// The helper's job panicked (the thread has ended).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the engine's helper thread failed (its job panicked)")]
pub struct HelperFailed;

/// A second thread that runs `run(job)` for one job at a time.
#[derive(Debug)]
pub(crate) struct Helper<J: Send + 'static, R: Send + 'static> {
    shared: Arc<Shared<J, R>>,
    thread: Option<JoinHandle<()>>,
    /// A job is posted and its result not yet collected.
    pending: bool,
}

impl<J: Send + 'static, R: Send + 'static> Helper<J, R> {
    /// Starts the thread; `None` if the system refuses one (the caller then works alone).
    pub fn start(run: fn(J) -> R) -> Option<Self> {
        Self::start_named("grundy-sparse-helper", run)
    }

    /// [`start`](Self::start), naming the thread `name`.
    pub fn start_named(name: &str, run: fn(J) -> R) -> Option<Self> {
        let shared = Arc::new(Shared {
            state: AtomicU8::new(IDLE),
            job: Mutex::new(None),
            result: Mutex::new(None),
            waiter: Mutex::new(None),
        });
        let theirs = Arc::clone(&shared);
        let thread = thread::Builder::new()
            .name(name.into())
            .spawn(move || serve(&theirs, run))
            .ok()?;
        Some(Helper {
            shared,
            thread: Some(thread),
            pending: false,
        })
    }

    /// Hands `job` to the thread (the last result must have been collected). After a job
    /// panicked the thread has ended: the job is dropped and collecting reports the failure.
    pub fn post(&mut self, job: J) {
        assert!(!self.pending, "one job at a time");
        if self.failed() {
            self.pending = true;
            return;
        }
        *lock(&self.shared.job) = Some(job);
        self.shared.state.store(POSTED, Ordering::Release);
        self.pending = true;
        if let Some(t) = &self.thread {
            t.thread().unpark();
        }
    }

    /// Whether a job is posted and its result not yet collected.
    pub fn pending(&self) -> bool {
        self.pending
    }

    /// Whether the job posted has finished (its result waits to be collected), without
    /// waiting.
    pub fn finished(&self) -> bool {
        self.pending && matches!(self.shared.state.load(Ordering::Acquire), DONE | FAILED)
    }

    /// The result of the job posted if it comes within `patience` (spinning, never
    /// parking), else `None` (the job stays posted). Panics if the job panicked.
    pub fn collect_within(&mut self, patience: Duration) -> Option<R> {
        self.try_collect_within(patience)
            .map(|r| r.expect("the sparse engine's helper thread panicked"))
    }

    /// [`collect_within`](Self::collect_within), with [`HelperFailed`] instead of a panic
    /// when the job panicked.
    pub fn try_collect_within(&mut self, patience: Duration) -> Option<Result<R, HelperFailed>> {
        assert!(self.pending, "no job posted");
        let ready = |s| s == DONE || s == FAILED;
        let mut start = None;
        let mut spins = 0u32;
        while !ready(self.shared.state.load(Ordering::Acquire)) {
            spins = spins.wrapping_add(1);
            std::hint::spin_loop();
            if spins % 64 == 0 && start.get_or_insert_with(Instant::now).elapsed() >= patience {
                return None;
            }
        }
        Some(self.try_collect())
    }

    /// Waits for the result of the job posted. Panics if the job panicked.
    #[cfg(test)]
    pub fn collect(&mut self) -> R {
        self.try_collect()
            .expect("the sparse engine's helper thread panicked")
    }

    /// Waits for the result of the job posted; [`HelperFailed`] if the job panicked (the
    /// thread has then ended, and every later job fails too).
    pub fn try_collect(&mut self) -> Result<R, HelperFailed> {
        assert!(self.pending, "no job posted");
        self.wake_me();
        let state = wait_for(&self.shared.state, |s| s == DONE || s == FAILED);
        self.pending = false;
        if state == FAILED {
            return Err(HelperFailed);
        }
        let result = lock(&self.shared.result).take();
        self.shared.state.store(IDLE, Ordering::Release);
        Ok(result.expect("a result is stored before DONE"))
    }

    /// Makes the helper wake this thread when the job is done (set before waiting: the
    /// wait looks at the state again before it parks, so a job done meanwhile is seen).
    fn wake_me(&self) {
        *lock(&self.shared.waiter) = Some(thread::current());
    }

    /// Whether the thread has ended because a job panicked.
    pub fn failed(&self) -> bool {
        self.shared.state.load(Ordering::Acquire) == FAILED
    }
}

/// Locks a mutex, ignoring poisoning (the data is a plain slot).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The helper thread's loop.
fn serve<J, R>(shared: &Shared<J, R>, run: fn(J) -> R) {
    /// Reports a panic of the job to the waiting side.
    struct Failed<'a, J, R>(&'a Shared<J, R>);
    impl<J, R> Drop for Failed<'_, J, R> {
        fn drop(&mut self) {
            if thread::panicking() {
                self.0.state.store(FAILED, Ordering::Release);
                if let Some(t) = lock(&self.0.waiter).as_ref() {
                    t.unpark();
                }
            }
        }
    }
    let _failed = Failed(shared);
    loop {
        let state = wait_for(&shared.state, |s| s == POSTED || s == STOP);
        if state == STOP {
            return;
        }
        let job = lock(&shared.job)
            .take()
            .expect("a job is stored before POSTED");
        let result = run(job);
        *lock(&shared.result) = Some(result);
        shared.state.store(DONE, Ordering::Release);
        if let Some(t) = lock(&shared.waiter).as_ref() {
            t.unpark();
        }
    }
}

impl<J: Send + 'static, R: Send + 'static> Drop for Helper<J, R> {
    fn drop(&mut self) {
        if self.pending {
            // Let the job finish (it is short) before stopping the thread.
            self.wake_me();
            wait_for(&self.shared.state, |s| s == DONE || s == FAILED);
        }
        if self.shared.state.load(Ordering::Acquire) == FAILED {
            // The thread has ended.
        } else {
            self.shared.state.store(STOP, Ordering::Release);
        }
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: u64) -> u64 {
        x * x
    }

    #[test]
    fn jobs_come_back_in_turn() {
        let mut helper = Helper::start(square).unwrap();
        let mut total = 0u64;
        for x in 0..20_000u64 {
            helper.post(x);
            total += x;
            assert_eq!(helper.collect(), x * x);
        }
        assert_eq!(total, 20_000 * 19_999 / 2);
    }

    #[test]
    fn a_slow_main_side_finds_the_helper_parked() {
        let mut helper = Helper::start(square).unwrap();
        for x in 0..5u64 {
            // Longer than the spin: the helper parks between jobs, and the main side too.
            thread::sleep(Duration::from_millis(2));
            helper.post(x);
            thread::sleep(Duration::from_millis(2));
            assert_eq!(helper.collect(), x * x);
        }
    }

    fn slow(x: u64) -> u64 {
        thread::sleep(Duration::from_millis(20));
        x + 1
    }

    #[test]
    fn an_impatient_main_side_gets_the_result_later() {
        let mut helper = Helper::start(slow).unwrap();
        helper.post(1);
        assert!(helper.pending());
        assert_eq!(helper.collect_within(Duration::from_micros(10)), None);
        assert!(helper.pending());
        assert_eq!(helper.collect_within(Duration::from_secs(60)), Some(2));
        assert!(!helper.pending());
    }

    #[test]
    fn a_job_posted_on_one_thread_is_collected_and_dropped_on_another() {
        // The thread that waits is woken, not the one that posted: a job posted from a
        // thread-pool worker and an engine dropped on the caller's thread hung before.
        let mut helper = Helper::start(slow).unwrap();
        thread::scope(|s| {
            s.spawn(|| helper.post(1));
        });
        assert_eq!(helper.collect(), 2);
        thread::scope(|s| {
            s.spawn(|| helper.post(2));
        });
        drop(helper);
    }

    #[test]
    fn dropping_with_a_job_posted_ends_the_thread() {
        let mut helper = Helper::start(square).unwrap();
        helper.post(3);
        drop(helper);
    }

    fn boom(x: u64) -> u64 {
        assert!(x < 3, "a job that panics");
        x
    }

    #[test]
    fn a_panicking_job_panics_the_main_side() {
        let mut helper = Helper::start(boom).unwrap();
        helper.post(1);
        assert_eq!(helper.collect(), 1);
        helper.post(7);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| helper.collect()));
        assert!(caught.is_err());
        drop(helper);
    }

    #[test]
    fn a_panicking_job_is_reported_and_later_jobs_fail_at_once() {
        let mut helper = Helper::start(boom).unwrap();
        helper.post(2);
        assert_eq!(helper.try_collect(), Ok(2));
        helper.post(9);
        assert_eq!(helper.try_collect(), Err(HelperFailed));
        assert!(helper.failed());
        // The thread has ended: a later job is not run, and collecting does not hang.
        helper.post(1);
        assert_eq!(
            helper.try_collect_within(Duration::from_secs(60)),
            Some(Err(HelperFailed))
        );
        helper.post(1);
        drop(helper);
    }

    #[test]
    fn the_helper_can_change_hands() {
        let mut helper = Helper::start(square).unwrap();
        helper.post(2);
        assert_eq!(helper.collect(), 4);
        let helper = thread::spawn(move || {
            helper.post(5);
            assert_eq!(helper.collect(), 25);
            helper
        })
        .join()
        .unwrap();
        drop(helper);
    }
}
