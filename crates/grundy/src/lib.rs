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
//! The layers, top to bottom; each uses only the ones below it (front ends — the `grundy`
//! binary, the web page, the Python package — sit above them all):
//! - **Analysis and play.** [`analysis`]: value, outcome, every winning move and the reason,
//!   with notes that teach ([`analysis::teach`]) and pictures ([`analysis::picture`]).
//!   [`play`]: a game in progress against a perfect opponent, with hints and undo.
//! - **Catalogue.** [`catalog`]: every family's rules, checking an [`expr::Spec`] into a
//!   [`sum::Sum`] (a checked sum of components), and back to text.
//! - **Families**, each a rule model, a [`sum::Component`] and its fast path: [`classic`]
//!   (Nim, staircase Nim, Moore's Nim_k, Wythoff), [`heap`] (take-and-break games and their
//!   nim-sequences), [`hackenbush`] (Green Hackenbush), [`coins`] (coin-turning games),
//!   [`boards`] (Cram, Node Kayles, Arc Kayles, Chomp), [`scripted`] (rule scripts).
//! - **Language and engines.** [`expr`]: the bare expression language, text → [`expr::Spec`]
//!   with spans (it knows no family). [`solve`]: the generic engines from the definitions
//!   ([`game::ImpartialGame`] in, values and misère outcomes out). [`search`]: the value of
//!   one big position (components, canonical forms, bounds). [`misere`]: Conway's genus and
//!   Plambeck–Siegel misère quotients. [`graph`]: explicit game graphs, with or without
//!   cycles. The sequence engines and period proofs live in [`heap`].
//! - **Ground floor.** [`nimber`] (nim-sum, nim-product, mex), [`value`] (values and
//!   outcomes), [`game`] (the [`game::ImpartialGame`] trait), [`control`] (budgets,
//!   cancellation, progress), [`sum`] (components, sums and the analysis context) and
//!   [`words`] (counts that agree in number: "1 vertex", "2 vertices").
//!
//! The library never prints, exits or handles signals: long work takes a
//! [`control::Budget`], and every refusal is a typed error naming the figure.

pub mod analysis;
pub mod api;
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
