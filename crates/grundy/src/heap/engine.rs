//! The nim-sequence engine as a capability: [`SequenceEngine`] computes `g(0), g(1), ...` in
//! order, resumably and under a [`Control`] (cancellation, progress, work budget), with
//! [`SequenceError`] for why it could not; and [`SparseEngine`], the sparse-space engine of
//! a plain code behind that trait.
//!
//! Every engine implements the trait in its own module (plain, small values, sparse space in
//! the domain, adaptive, periodic); the choice among them is made above, in `sequence`.

use super::code::Code;
use super::sparse::{MAX_HEAP, SparseSequence, SparseStats};
use crate::control::Control;
use std::fmt;

/// Why a nim-sequence could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum SequenceError {
    /// A value does not fit the engines' 16-bit storage.
    #[error(
        "g({heap}) is larger than 65535, the largest value the sequence engines store \
         (`analyze` reads larger values of one heap off a proven period)"
    )]
    ValueTooLarge {
        /// The heap whose value overflowed.
        heap: u64,
    },
    /// More values than this machine can address.
    #[error("{requested} values do not fit in this machine's address space")]
    TooLong {
        /// How many values were asked for.
        requested: u64,
    },
    /// An error of a specific engine.
    #[error(transparent)]
    Engine(Box<dyn std::error::Error + Send + Sync>),
}

impl SequenceError {
    /// Wraps an engine's own error.
    pub fn engine(e: impl std::error::Error + Send + Sync + 'static) -> Self {
        SequenceError::Engine(Box::new(e))
    }

    /// How many values `g(0)` to `g(n)` are: `n + 1`, or [`SequenceError::TooLong`] past
    /// `u64`.
    pub fn count_through(n: u64) -> Result<u64, Self> {
        n.checked_add(1)
            .ok_or(SequenceError::TooLong { requested: n })
    }
}

/// A nim-sequence engine: computes `g(0), g(1), ...` in order, resumable and cancellable.
pub trait SequenceEngine: fmt::Debug + Send {
    /// The engine's name for people (`plain`, `sparse`).
    fn name(&self) -> &'static str;
    /// Computes the values of heaps `0..len` (`len` values; nothing when they are known).
    /// `Ok(false)` when cancelled: the values so far stay a valid prefix.
    fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError>;
    /// Computes the values up to and including `g(n)`; as
    /// [`extend_to_len`](Self::extend_to_len) otherwise.
    fn extend_to(&mut self, n: u64, control: &mut Control) -> Result<bool, SequenceError> {
        self.extend_to_len(SequenceError::count_through(n)?, control)
    }
    /// The values computed so far: `values()[n]` is `g(n)`.
    fn values(&self) -> &[u16];
    /// The values, giving up the engine.
    fn into_values(self: Box<Self>) -> Vec<u16>;
    /// The bytes this engine needs to compute up to `g(n)` (to refuse what the machine
    /// cannot).
    fn memory_needed(&self, n: u64) -> u64;
    /// The most values this engine can hold (`g(0)` to `g(max_len − 1)`), so that a run
    /// asking for more is refused before it starts rather than after hours of work.
    fn max_len(&self) -> u64 {
        u64::MAX
    }
    /// Whether [`SequenceEngine::max_len`] may grow as values are computed: a period proven
    /// on the way lets the values be copied without limit.
    fn limit_may_lift(&self) -> bool {
        false
    }
    /// The sparse-space engine's statistics (mask, rare values, work counters); `None` for
    /// the other engines.
    fn sparse_stats(&self) -> Option<SparseStats> {
        None
    }
    /// The engine's own work so far, in steps (pairs of heaps looked at), for the engines
    /// whose cost per value is not one listing of options or one sparse-space step each:
    /// the small-values and the domain engines. `None` for the others.
    fn work_steps(&self) -> Option<u64> {
        None
    }
    /// Which engine runs and why, in words, where the choice was made by measuring the
    /// values (the adaptive engine); `None` otherwise.
    fn note(&self) -> Option<String> {
        None
    }
}

/// The sparse-space engine ([`SparseSequence`]) for a plain octal or hexadecimal code.
#[derive(Debug)]
pub struct SparseEngine {
    code: Code,
    inner: SparseSequence,
}

impl SparseEngine {
    /// The engine for `code`, computing with `inner`.
    pub(crate) fn new(code: Code, inner: SparseSequence) -> Self {
        SparseEngine { code, inner }
    }
}

impl SequenceEngine for SparseEngine {
    fn name(&self) -> &'static str {
        "sparse"
    }
    fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError> {
        match len.checked_sub(1) {
            None => Ok(true),
            Some(n) => self
                .inner
                .extend_to(n, control)
                .map_err(SequenceError::engine),
        }
    }
    fn values(&self) -> &[u16] {
        self.inner.values()
    }
    fn into_values(self: Box<Self>) -> Vec<u16> {
        self.inner.into_values()
    }
    fn memory_needed(&self, n: u64) -> u64 {
        SparseSequence::memory_needed(&self.code, n)
    }
    fn max_len(&self) -> u64 {
        MAX_HEAP + 1
    }
    fn sparse_stats(&self) -> Option<SparseStats> {
        Some(self.inner.stats())
    }
}
