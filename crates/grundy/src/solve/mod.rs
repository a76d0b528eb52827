//! Engines that solve any game through its moves alone.
//!
//! - [`Solver`]: normal-play Sprague–Grundy values by memoised search that splits positions
//!   into components and nim-adds their values. Iterative, so a chain of millions of
//!   positions does not overflow the stack.
//! - [`MisereSolver`]: misère outcomes (the player who makes the last move loses), which do
//!   not split over sums, so whole positions are searched.
//!
//! Both are the reference implementations: slow but written straight from the definitions,
//! with an explicit limit on the number of positions they may store.

mod generic;
mod misere;

pub use generic::Solver;
pub use misere::MisereSolver;

/// Limits on the work an engine may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most positions an engine may store before it gives up with
    /// [`SolveError::TooManyPositions`].
    pub max_positions: usize,
}

impl Limits {
    /// The default: 20 million positions, a few GiB at most for small positions.
    pub const DEFAULT: Limits = Limits {
        max_positions: 20_000_000,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Why an engine could not finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The search needed to store more positions than allowed.
    #[error(
        "the search needs more than {limit} positions (the limit); the position is too big for \
         this engine (raise the limit with --max-positions if memory allows)"
    )]
    TooManyPositions {
        /// The limit that was reached.
        limit: usize,
    },
    /// A position can be reached from itself: the game is loopy, and these engines solve
    /// finite games only.
    #[error("a position repeats (the game has a cycle); use the loopy-game solver for it")]
    Cycle,
}
