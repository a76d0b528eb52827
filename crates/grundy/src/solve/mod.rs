//! Engines that solve any game through its moves alone.
//!
//! - [`Solver`]: normal-play Sprague–Grundy values by memoised search that splits positions
//!   into components and nim-adds their values. Iterative, so a chain of millions of
//!   positions does not overflow the stack.
//! - [`MisereSolver`]: misère outcomes (the player who makes the last move loses), which do
//!   not split over sums, so whole positions are searched.
//!
//! Both are the reference implementations: slow but written straight from the definitions,
//! under a [`Budget`] that counts the moves they generate and the positions they store.

mod dense;
mod generic;
mod memory;
mod misere;

pub use generic::Solver;
pub use misere::MisereSolver;

pub use crate::control::{Budget, BudgetError, Limits};

/// Why an engine could not finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A limit of the budget was reached, or the work was cancelled.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// A position can be reached from itself: the game is loopy, and these engines solve
    /// finite games only.
    #[error("a position repeats (the game has a cycle); use the loopy-game solver for it")]
    Cycle,
}
