//! # grundy
//!
//! Analyse impartial combinatorial games: who wins, with which move, and why.
//!
//! The theory is the classical chain (T. S. Ferguson, *Game Theory, Part I: Impartial
//! Combinatorial Games*; Berlekamp, Conway and Guy, *Winning Ways*): P- and N-positions, the
//! Sprague–Grundy value (the mex of the options' values), and sums of games, whose values
//! nim-add.
//!
//! ```
//! use grundy::{analyze, Options};
//! let analysis = analyze("nim 13 12 8", &Options::default()).unwrap();
//! assert_eq!(analysis.value, Some(grundy::Nimber(9)));
//! assert_eq!(analysis.outcome, grundy::Outcome::N);
//! let results: Vec<_> = analysis.winning_moves.iter().map(|m| m.result.as_str()).collect();
//! assert_eq!(results, ["nim 4 12 8", "nim 13 5 8", "nim 13 12 1"]);
//! ```
//!
//! The layers, from text to answer:
//! - [`expr`]: the bare game-expression language, text → [`expr::Spec`] (unchecked);
//!   [`catalog`]: every family's rules, checking a spec into
//!   [`sum::Sum`] (a checked sum of components) → text again.
//! - [`sum::Component`]: what every game family offers the analysis: its value by the fastest
//!   correct method, its moves, and its value by the generic engine for cross-checks.
//! - [`game::ImpartialGame`] and [`solve`]: positions and options, and the generic engines
//!   written from the definitions.
//! - [`misere`]: misère play beyond Nim: Conway's genus, Plambeck–Siegel misère quotients
//!   and the outcomes of sums of heaps through them.
//! - [`analysis`]: value, outcome, every winning move and the reason, with notes that teach
//!   ([`analysis::teach`]: the mex table, staircase Nim, where a heap falls in its period).
//! - [`words`]: counts that agree in number in every message ("1 vertex", "2 vertices").

pub mod analysis;
pub mod boards;
pub mod catalog;
pub mod classic;
pub mod coins;
pub mod control;
pub mod expr;
pub mod game;
pub mod graph;
pub mod hackenbush;
pub mod heap;
pub mod misere;
pub mod nimber;
pub mod play;
mod plot;
pub mod scripted;
pub mod search;
pub mod solve;
pub mod sum;
pub mod value;
pub mod words;

pub use analysis::{Analysis, Options, analyze};
pub use nimber::Nimber;
pub use value::{Outcome, Value};
