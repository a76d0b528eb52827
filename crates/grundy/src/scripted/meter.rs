//! A memory meter for rule scripts: a global allocator that counts, for each thread, the bytes
//! it holds, so that one call into a script can be stopped when its data passes a ceiling.
//!
//! Rhai's own size limits (string length, array and map entries) are checked when Rhai checks
//! them, and it does not check a container that grows by index assignment: `a[i] = s + i` on
//! an array of 2^15 elements holding strings of 1 MiB, or `m[s + i] = 1` on a map, take all
//! the machine's memory within seconds, then abort the process. Counting allocations closes
//! that hole whatever the script does: the engine asks after every operation how many bytes
//! the thread has gained since the call began ([`ScriptLimits::max_memory`]).
//!
//! A Rust program decides its allocator once, so the library cannot install this one itself:
//! a program that runs rule scripts names it (the `grundy` command and the Python module do):
//!
//! ```
//! #[global_allocator]
//! static ALLOCATOR: grundy::scripted::CountingAllocator = grundy::scripted::CountingAllocator;
//! # fn main() {}
//! ```
//!
//! Without it the ceiling is not enforced (nothing is counted) and only Rhai's own limits
//! hold. The cost is one thread-local addition per allocation and a comparison per script
//! operation. Bytes freed by another thread than the one that allocated them are counted on
//! the thread that frees them; a script call runs on one thread, so its own count is exact.
//!
//! [`ScriptLimits::max_memory`]: super::ScriptLimits::max_memory

// A global allocator is `unsafe` by its trait: this module forwards every call unchanged to
// the system allocator and only adds a thread-local count beside it.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// The system allocator with a count of the bytes each thread holds; see the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAllocator;

thread_local! {
    /// Bytes allocated minus bytes freed by this thread (wrapping: only differences are read).
    static HELD: Cell<usize> = const { Cell::new(0) };
    /// `HELD` when the current script call began.
    static BASELINE: Cell<usize> = const { Cell::new(0) };
}

/// Whether the program counts through [`CountingAllocator`].
static COUNTING: AtomicBool = AtomicBool::new(false);

fn gained(bytes: usize) {
    // `try_with`: never fails, even while the thread's locals are being torn down (the cells
    // have no destructor, so they outlive every other local).
    let _ = HELD.try_with(|held| held.set(held.get().wrapping_add(bytes)));
    if !COUNTING.load(Ordering::Relaxed) {
        COUNTING.store(true, Ordering::Relaxed);
    }
}

fn released(bytes: usize) {
    let _ = HELD.try_with(|held| held.set(held.get().wrapping_sub(bytes)));
}

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counting touches only `Cell`s and an atomic, never allocates,
// and never unwinds.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            gained(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            gained(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` and `layout` come from this allocator, which got them from `System`.
        unsafe { System.dealloc(ptr, layout) };
        released(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`; `new_size` is the caller's, passed on unchanged.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            released(layout.size());
            gained(new_size);
        }
        new
    }
}

/// Whether allocations are being counted (the program installed [`CountingAllocator`]).
pub fn counting() -> bool {
    COUNTING.load(Ordering::Relaxed)
}

/// Marks the start of a script call on this thread; the mark is put back as it was when the
/// guard drops (a call inside a call measures from its own start, then the outer one goes on).
pub(crate) struct CallMark {
    previous: usize,
}

impl CallMark {
    pub(crate) fn start() -> CallMark {
        let held = HELD.try_with(Cell::get).unwrap_or(0);
        let previous = BASELINE.try_with(|b| b.replace(held)).unwrap_or(0);
        CallMark { previous }
    }
}

impl Drop for CallMark {
    fn drop(&mut self) {
        let _ = BASELINE.try_with(|b| b.set(self.previous));
    }
}

/// Bytes this thread has gained since the current call's [`CallMark`] (0 when it holds less).
pub(crate) fn gained_in_call() -> usize {
    let held = HELD.try_with(Cell::get).unwrap_or(0);
    let baseline = BASELINE.try_with(Cell::get).unwrap_or(0);
    let delta = held.wrapping_sub(baseline);
    // A call that freed more than it allocated shows as a huge wrapped number: it gained none.
    if delta > usize::MAX / 2 { 0 } else { delta }
}
