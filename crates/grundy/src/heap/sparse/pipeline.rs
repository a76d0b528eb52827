//! The second core's helper thread: far marks of the next block computed while the current
//! block is finished heap by heap.
//!
//! Games with few, early rare positions (0.167, 0.354) are computed in blocks of some 64
//! heaps, a few tens of microseconds each. Handing each block's far phase to a thread pool
//! ([`rayon::join`]) costs a wake-up and a sleep per block: measured on 0.167 to `2^22`,
//! 320,000 `futex` and 21,000 `sched_yield` calls, over 5 s of system time. Here one helper
//! thread lives for a whole [`extend_to`](super::SparseSequence::extend_to) call and the two
//! threads exchange work through two one-item [`Slot`]s: the side that waits first spins
//! for a short while (the other side is usually a few microseconds away) and only then
//! sleeps on a condition variable, and the other side wakes it only if it sleeps. In the
//! steady state no system call is made per block.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a waiting side spins before it sleeps.
const SPIN: Duration = Duration::from_micros(60);

/// A one-item hand-off between two threads (see the module documentation).
#[derive(Debug)]
pub(crate) struct Slot<T> {
    /// Set when an item is in the slot (or the slot is closed): read while spinning.
    ready: AtomicBool,
    state: Mutex<SlotState<T>>,
    wake: Condvar,
}

#[derive(Debug)]
struct SlotState<T> {
    item: Option<T>,
    /// The taker sleeps on `wake`.
    sleeping: bool,
    closed: bool,
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot {
            ready: AtomicBool::new(false),
            state: Mutex::new(SlotState {
                item: None,
                sleeping: false,
                closed: false,
            }),
            wake: Condvar::new(),
        }
    }
}

impl<T> Slot<T> {
    fn lock(&self) -> MutexGuard<'_, SlotState<T>> {
        // A panic on the other side leaves the state consistent (an item or none).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Puts `item` in the slot (which the protocol keeps empty), waking the taker if it
    /// sleeps.
    pub fn put(&self, item: T) {
        let mut state = self.lock();
        debug_assert!(state.item.is_none());
        state.item = Some(item);
        self.ready.store(true, Ordering::Release);
        if state.sleeping {
            self.wake.notify_one();
        }
    }

    /// Closes the slot: a taker waiting or to come gets `None` once the slot is empty.
    pub fn close(&self) {
        let mut state = self.lock();
        state.closed = true;
        self.ready.store(true, Ordering::Release);
        if state.sleeping {
            self.wake.notify_one();
        }
    }

    /// Takes the item, waiting for it (spinning first, then sleeping); `None` once closed
    /// and empty.
    pub fn take(&self) -> Option<T> {
        let start = Instant::now();
        let mut spins = 0u32;
        while !self.ready.load(Ordering::Acquire) {
            std::hint::spin_loop();
            spins += 1;
            if spins % 64 == 0 && start.elapsed() > SPIN {
                break;
            }
        }
        let mut state = self.lock();
        loop {
            if let Some(item) = state.item.take() {
                self.ready.store(state.closed, Ordering::Release);
                return Some(item);
            }
            if state.closed {
                return None;
            }
            state.sleeping = true;
            state = self.wake.wait(state).unwrap_or_else(|e| e.into_inner());
            state.sleeping = false;
        }
    }
}

/// The two slots between the thread computing blocks and its helper: jobs one way, results
/// the other.
#[derive(Debug)]
pub(crate) struct Exchange<J, R> {
    pub jobs: Slot<J>,
    pub results: Slot<R>,
}

impl<J, R> Default for Exchange<J, R> {
    fn default() -> Self {
        Exchange {
            jobs: Slot::default(),
            results: Slot::default(),
        }
    }
}

impl<J, R> Exchange<J, R> {
    /// The helper's loop: runs each job with `work` and hands back its result, until the
    /// jobs slot is closed.
    pub fn serve(&self, mut work: impl FnMut(J) -> R) {
        while let Some(job) = self.jobs.take() {
            self.results.put(work(job));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_comes_back_in_order() {
        let exchange: Exchange<u64, u64> = Exchange::default();
        std::thread::scope(|s| {
            s.spawn(|| exchange.serve(|x| x * x));
            for i in 0..2000u64 {
                exchange.jobs.put(i);
                if i % 100 == 0 {
                    // Let the helper fall asleep now and then.
                    std::thread::sleep(Duration::from_micros(200));
                }
                assert_eq!(exchange.results.take(), Some(i * i));
            }
            exchange.jobs.close();
        });
    }

    #[test]
    fn a_closed_slot_gives_none() {
        let slot: Slot<u8> = Slot::default();
        slot.put(3);
        slot.close();
        assert_eq!(slot.take(), Some(3));
        assert_eq!(slot.take(), None);
    }
}
