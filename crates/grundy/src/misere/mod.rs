//! Misère play beyond Nim: Conway's genus, Plambeck–Siegel misère quotients, and misère
//! outcomes of sums through them.
//!
//! In misère play the player who makes the last move loses. Values no longer add over sums,
//! so two theories stand in for the Sprague–Grundy value:
//! - [`genus`]: Conway's genus `g^{g0 g1 g2 …}` (J. H. Conway, *On Numbers and Games*,
//!   ch. 12; Berlekamp, Conway, Guy, *Winning Ways*, ch. 13), from the definition through
//!   misère Grundy values; tame games (whose every position has the genus of a Nim position)
//!   add like misère Nim.
//! - [`quotient`]: the misère quotient of the sums of a game's heaps (T. E. Plambeck, *Taming
//!   the wild*, 2005; Plambeck and Siegel, *Misère quotients for impartial games*, 2008),
//!   built heap by heap and verified, [`periodicity`]: when a period of its heap map holds for
//!   every heap (the periodicity theorem), and [`outcome`]: the outcome of a sum of heaps of any
//!   size as a product in it, and winning moves found through it.
//!
//! - `bound`: certified lower bounds on the order of a quotient that could not be
//!   finished (sums told apart by their real misère outcomes).
//! - [`canonical`]: misère canonical (simplest) forms (Conway), hash-consed, and tameness
//!   read off them as CGSuite reads it; [`form_genus`]: the genus of a heap read off its
//!   canonical form, the longest route of [`sequence`] for the classic octal games.
//! - `presentation`: generators and relations of a quotient (normal forms, the reduced
//!   Gröbner basis of its congruence), as Plambeck and Siegel write them.
//! - [`kayles`]: the misère outcome of any sum of Kayles rows at any size, through a
//!   Sibert–Conway decomposition proven here by a finite induction.
//!
//! Positions are sums of [`generators::Generators`]; exact outcomes come from the memoised
//! search of [`oracle`], the reference the fast paths are tested against.

pub(crate) mod bound;
pub mod canonical;
pub(crate) mod dominance;
pub(crate) mod extend;
pub mod form_genus;
pub mod gamma;
pub mod generators;
pub mod genus;
pub(crate) mod genus_report;
pub mod kayles;
pub mod labels;
pub mod low;
pub(crate) mod monoid;
mod moore;
mod names;
pub mod oracle;
pub mod outcome;
pub mod periodicity;
pub(crate) mod presentation;
pub mod quotient;
pub mod recal;
pub mod refine;
pub(crate) mod report;
pub mod sequence;

use crate::control::BudgetError;

/// Why a misère computation could not be done.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MisereError {
    /// A limit of the budget was reached, or the work was cancelled.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// The quotient has more elements than allowed.
    #[error(
        "the misère quotient has more than {limit} elements (the element limit); it is too large to compute here"
    )]
    TooManyElements {
        /// The limit.
        limit: usize,
    },
    /// The heap bound is larger than allowed.
    #[error("the heap bound {max_heap} is larger than the limit of {limit} heaps")]
    HeapBound {
        /// The bound asked for.
        max_heap: u64,
        /// The limit.
        limit: u64,
    },
    /// The question does not apply (a rule without a quotient, a loopy game).
    #[error("{0}")]
    Unsupported(String),
    /// A theorem's consequence failed on computed data: a bug, reported rather than hidden.
    #[error("internal check failed: {0}")]
    Invariant(String),
}
