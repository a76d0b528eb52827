//! The impartial-game trait: a game is its positions and their options.
//!
//! Every family of games implements [`ImpartialGame`] by listing a position's options (the
//! positions one move leads to) and, where a position is a sum of independent parts, by
//! saying how it splits. Everything else (values, outcomes, winning moves) follows from
//! these two methods through the generic engine in [`crate::solve`], which is the
//! reference that every family's fast path is tested against.
//!
//! ```
//! use grundy::game::ImpartialGame;
//! use grundy::solve::Solver;
//! use grundy::Nimber;
//!
//! /// Subtraction game S(1,2): take one or two tokens.
//! struct TakeOneOrTwo;
//! impl ImpartialGame for TakeOneOrTwo {
//!     type Position = u64;
//!     fn options(&self, n: &u64) -> Vec<u64> {
//!         [1, 2].iter().filter(|&&k| k <= *n).map(|k| n - k).collect()
//!     }
//! }
//! let mut solver = Solver::new(&TakeOneOrTwo);
//! assert_eq!(solver.value(&10).unwrap(), Nimber(10 % 3));
//! ```

use std::hash::Hash;

/// An impartial game in normal play: both players have the same moves, and the player who
/// cannot move loses.
pub trait ImpartialGame {
    /// A position of the game. Positions that are equal must have equal options.
    type Position: Clone + Eq + Hash;

    /// Every position one move leads to (repeats are allowed and harmless).
    fn options(&self, position: &Self::Position) -> Vec<Self::Position>;

    /// The independent parts of a position, whose values nim-add to the position's value
    /// (for example the heaps of a Kayles position). The default treats every position as
    /// one part. A part returned here must split into itself alone.
    fn components(&self, position: &Self::Position) -> Vec<Self::Position> {
        vec![position.clone()]
    }

    /// An upper bound on the number of options of `position`, where one is cheap to know
    /// (a Nim heap of size n has n). Engines refuse a position whose options would exceed
    /// their work budget before listing them. `None` (the default) means unknown.
    fn option_bound(&self, position: &Self::Position) -> Option<u64> {
        let _ = position;
        None
    }

    /// The 64-bit words a position owns outside its inline size (a `Vec<u64>` of `n` heaps
    /// owns `n`). Engines count them in the memory their tables take and in the work of
    /// listing options, so that games with big positions meet the limits in proportion.
    /// 0 (the default) for positions that own nothing.
    fn position_words(&self, position: &Self::Position) -> u64 {
        let _ = position;
        0
    }

    /// Whether the player to move has no move.
    fn is_terminal(&self, position: &Self::Position) -> bool {
        self.options(position).is_empty()
    }
}

impl<G: ImpartialGame + ?Sized> ImpartialGame for &G {
    type Position = G::Position;
    fn options(&self, position: &Self::Position) -> Vec<Self::Position> {
        (**self).options(position)
    }
    fn components(&self, position: &Self::Position) -> Vec<Self::Position> {
        (**self).components(position)
    }
    fn option_bound(&self, position: &Self::Position) -> Option<u64> {
        (**self).option_bound(position)
    }
    fn position_words(&self, position: &Self::Position) -> u64 {
        (**self).position_words(position)
    }
}
