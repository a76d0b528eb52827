//! Progress and cancellation for long computations, without terminals.
//!
//! Engines that may run for minutes take a [`Control`]: they report progress through it and
//! ask it whether to stop. The command-line tool turns these into a progress bar and Ctrl-C
//! handling; tests and libraries pass [`Control::none`].

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// Progress reporting and a cancellation flag for a long computation.
pub struct Control<'a> {
    progress: Option<&'a mut dyn FnMut(u64, u64)>,
    cancel: Option<&'a AtomicBool>,
}

impl fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Control")
            .field("progress", &self.progress.is_some())
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

impl<'a> Control<'a> {
    /// No progress reports, never cancelled.
    pub fn none() -> Self {
        Control {
            progress: None,
            cancel: None,
        }
    }

    /// Reports progress to `progress(done, total)`.
    pub fn with_progress(mut self, progress: &'a mut dyn FnMut(u64, u64)) -> Self {
        self.progress = Some(progress);
        self
    }

    /// Stops when `flag` becomes true.
    pub fn with_cancel(mut self, flag: &'a AtomicBool) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// Reports that `done` of `total` units of work are finished.
    pub fn report(&mut self, done: u64, total: u64) {
        if let Some(p) = self.progress.as_mut() {
            p(done, total);
        }
    }

    /// Whether the computation should stop (saving what it has).
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}
