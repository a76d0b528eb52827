//! Budgets, progress and cancellation for long computations, without terminals.
//!
//! - [`Budget`]: every engine that can run long counts its work (moves generated, positions
//!   stored, bytes asked for) against [`Limits`], and stops with a [`BudgetError`] that names
//!   the figure when a limit is reached or the work is cancelled. A front end keeps a clone
//!   to show progress and to cancel on Ctrl-C.
//! - [`Control`]: long sequence runs report progress through it and ask it whether to stop
//!   (saving what they have). The command-line tool turns these into a progress bar and
//!   Ctrl-C handling; tests and libraries pass [`Control::none`].
//! - [`files`]: files written safely (regular files only, atomically, links followed).
//! - [`memory`]: the memory this machine and process leave to a computation, and
//!   [`Limits::for_this_machine`], the defaults front ends start from.

pub mod files;
pub mod memory;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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

    /// The cancellation flag, if any: to pass on to a [`Control`] for a part of this
    /// computation (with its own progress scale).
    pub fn cancel_flag(&self) -> Option<&'a AtomicBool> {
        self.cancel
    }

    /// Whether the computation should stop (saving what it has).
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// Limits on the work a computation may do. Every engine that can run long counts its work
/// against these through a [`Budget`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most positions (or components, or table entries) an engine may store.
    pub max_positions: usize,
    /// The most units of work: one unit is one move generated, one position expanded or one
    /// table entry computed, roughly 10 to 100 nanoseconds each.
    pub max_work: u64,
    /// The most bytes one table may ask for in one allocation.
    pub max_bytes: u64,
    /// The most threads one computation may run at once (the position search of a board
    /// uses them; other engines use one).
    pub max_threads: usize,
}

impl Limits {
    /// The defaults: 20 million stored positions, 2.5 · 10^8 units of work (a few seconds to
    /// about twenty of one core for the generic engines, measured on the examples of issue
    /// 10), 4 GiB for one table and one thread.
    pub const DEFAULT: Limits = Limits {
        max_positions: 20_000_000,
        max_work: 250_000_000,
        max_bytes: 4 << 30,
        max_threads: 1,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Why a computation stopped before its answer.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    thiserror::Error,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case", tag = "name")]
pub enum BudgetError {
    /// The work limit was reached.
    #[error(
        "the computation needs more than {limit} steps of work (the work limit); it is too \
         large for this method"
    )]
    Work {
        /// The limit.
        limit: u64,
    },
    /// More positions would have to be stored than allowed.
    #[error(
        "the search needs more than {limit} stored positions (the position limit); it is too \
         large for this method"
    )]
    Positions {
        /// The limit.
        limit: usize,
    },
    /// A table would need more memory than allowed (`needed` is `None` when the size does not
    /// even fit in 64 bits).
    #[error("{}", memory_message(*needed, *limit))]
    Memory {
        /// The bytes the table needs, if that is a 64-bit number.
        needed: Option<u64>,
        /// The limit in bytes.
        limit: u64,
    },
    /// The computation was cancelled (Ctrl-C, a signal, a closed connection).
    #[error("interrupted")]
    Cancelled,
}

fn memory_message(needed: Option<u64>, limit: u64) -> String {
    let mib = |b: u64| b.div_ceil(1 << 20);
    match needed {
        Some(b) => format!(
            "a table of {} MiB is needed, more than the memory limit of {} MiB",
            mib(b),
            mib(limit)
        ),
        None => format!(
            "a table larger than 2^64 bytes would be needed (the memory limit is {} MiB)",
            mib(limit)
        ),
    }
}

/// How much work a computation has done against its [`Limits`], and whether it was
/// cancelled. Cheap to clone: clones share one count and one cancellation flag, so a front
/// end can keep a clone to watch progress ([`Budget::work_done`]) or cancel from another
/// thread ([`Budget::cancel`]).
///
/// ```
/// use grundy::control::{Budget, BudgetError, Limits};
/// let budget = Budget::new(Limits { max_work: 10, ..Limits::DEFAULT });
/// assert!(budget.charge(8).is_ok());
/// assert_eq!(budget.charge(8), Err(BudgetError::Work { limit: 10 }));
/// budget.cancel();
/// assert_eq!(budget.check(), Err(BudgetError::Cancelled));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Budget {
    inner: Arc<BudgetInner>,
}

#[derive(Debug, Default)]
struct BudgetInner {
    limits: Limits,
    work: AtomicU64,
    cancelled: Arc<AtomicBool>,
    /// The budget this one is a part of: its work counts there too.
    parent: Option<Budget>,
    /// What the computation is doing, in words, for a progress display.
    status: std::sync::Mutex<Option<String>>,
}

impl Budget {
    /// A fresh budget with these limits.
    pub fn new(limits: Limits) -> Self {
        Budget {
            inner: Arc::new(BudgetInner {
                limits,
                work: AtomicU64::new(0),
                cancelled: Arc::new(AtomicBool::new(false)),
                parent: None,
                status: Default::default(),
            }),
        }
    }

    /// A fresh budget with these limits that stops when `flag` becomes true (a flag a
    /// signal handler sets).
    pub fn with_cancel_flag(limits: Limits, flag: Arc<AtomicBool>) -> Self {
        Budget {
            inner: Arc::new(BudgetInner {
                limits,
                work: AtomicU64::new(0),
                cancelled: flag,
                parent: None,
                status: Default::default(),
            }),
        }
    }

    /// A part of this budget with its own, usually tighter, limits: one route of a larger
    /// computation. It shares the cancellation flag, and every unit of work it charges counts
    /// here too, so the whole request stays under this budget's limits.
    ///
    /// ```
    /// use grundy::control::{Budget, BudgetError, Limits};
    /// let whole = Budget::new(Limits { max_work: 100, ..Limits::DEFAULT });
    /// let part = whole.child(Limits { max_work: 10, ..Limits::DEFAULT });
    /// assert!(part.charge(8).is_ok());
    /// assert_eq!(whole.work_done(), 8);
    /// assert_eq!(part.charge(8), Err(BudgetError::Work { limit: 10 }));
    /// whole.cancel();
    /// assert_eq!(part.check(), Err(BudgetError::Cancelled));
    /// ```
    pub fn child(&self, limits: Limits) -> Budget {
        Budget {
            inner: Arc::new(BudgetInner {
                limits,
                work: AtomicU64::new(0),
                cancelled: Arc::clone(&self.inner.cancelled),
                parent: Some(self.clone()),
                status: Default::default(),
            }),
        }
    }

    /// Says what the computation is doing, in words (a long search: its nodes, its table,
    /// the value it is trying), for a front end's progress display; a part's status is
    /// its whole budget's too. Meant for every second or so, not every step.
    ///
    /// ```
    /// use grundy::control::{Budget, Limits};
    /// let whole = Budget::new(Limits::DEFAULT);
    /// let part = whole.child(Limits::DEFAULT);
    /// assert_eq!(whole.status(), None);
    /// part.set_status("trying the value 2".to_string());
    /// assert_eq!(whole.status().as_deref(), Some("trying the value 2"));
    /// ```
    pub fn set_status(&self, text: String) {
        if let Some(parent) = &self.inner.parent {
            parent.set_status(text.clone());
        }
        // A poisoned lock (a panic while it was held) only loses the status.
        if let Ok(mut status) = self.inner.status.lock() {
            *status = Some(text);
        }
    }

    /// The last status said ([`Budget::set_status`]), if any.
    pub fn status(&self) -> Option<String> {
        self.inner.status.lock().ok().and_then(|s| s.clone())
    }

    /// A fresh budget for a side computation: its own count of work against `limits`, and
    /// the same cancellation flag (cancelling either cancels both, so Ctrl-C or a closed
    /// connection stops the side computation too). Its work is not counted here; charge it
    /// afterwards if it should be.
    ///
    /// ```
    /// use grundy::control::{Budget, Limits};
    /// let budget = Budget::new(Limits::DEFAULT);
    /// let side = budget.share(Limits { max_work: 5, ..budget.limits() });
    /// assert!(side.charge(6).is_err());
    /// budget.cancel();
    /// assert!(side.is_cancelled());
    /// ```
    pub fn share(&self, limits: Limits) -> Budget {
        Budget::with_cancel_flag(limits, Arc::clone(&self.inner.cancelled))
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// Units of work done so far.
    pub fn work_done(&self) -> u64 {
        self.inner.work.load(Ordering::Relaxed)
    }

    /// Asks every computation under this budget to stop.
    pub fn cancel(&self) {
        self.inner.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether the computation was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::Relaxed)
    }

    /// The cancellation flag, to hand to a [`Control`].
    pub fn cancel_flag(&self) -> &AtomicBool {
        &self.inner.cancelled
    }

    /// Checks for cancellation.
    pub fn check(&self) -> Result<(), BudgetError> {
        if self.is_cancelled() {
            Err(BudgetError::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Counts `units` of work done, failing once the total passes the work limit or when the
    /// computation was cancelled.
    pub fn charge(&self, units: u64) -> Result<(), BudgetError> {
        let before = self.inner.work.fetch_add(units, Ordering::Relaxed);
        let limit = self.inner.limits.max_work;
        if before.saturating_add(units) > limit {
            return Err(BudgetError::Work { limit });
        }
        if let Some(parent) = &self.inner.parent {
            parent.charge(units)?;
        }
        self.check()
    }

    /// Fails before any work is done if `units` more would pass the work limit: for a
    /// component that would list more moves than the budget allows.
    pub fn afford(&self, units: u64) -> Result<(), BudgetError> {
        let limit = self.inner.limits.max_work;
        if self.work_done().saturating_add(units) > limit {
            return Err(BudgetError::Work { limit });
        }
        if let Some(parent) = &self.inner.parent {
            parent.afford(units)?;
        }
        self.check()
    }

    /// Fails if storing `stored` positions passes the position limit.
    pub fn check_positions(&self, stored: usize) -> Result<(), BudgetError> {
        let limit = self.inner.limits.max_positions;
        if stored > limit {
            return Err(BudgetError::Positions { limit });
        }
        Ok(())
    }

    /// The bytes of a table of `count` entries of `size` bytes, if within the memory limit.
    pub fn check_bytes(&self, count: u64, size: u64) -> Result<u64, BudgetError> {
        let limit = self.inner.limits.max_bytes;
        match count.checked_mul(size) {
            Some(b) if b <= limit => Ok(b),
            needed => Err(BudgetError::Memory { needed, limit }),
        }
    }

    /// An empty vector with room for `count` entries, checked against the memory limit and
    /// reserved fallibly: a request the machine cannot satisfy is an error, not an abort.
    pub fn vec_with_capacity<T>(&self, count: usize) -> Result<Vec<T>, BudgetError> {
        let size = std::mem::size_of::<T>() as u64;
        let bytes = self.check_bytes(count as u64, size)?;
        let mut v = Vec::new();
        v.try_reserve_exact(count)
            .map_err(|_| BudgetError::Memory {
                needed: Some(bytes),
                limit: self.inner.limits.max_bytes,
            })?;
        Ok(v)
    }
}
