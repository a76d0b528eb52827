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
//! ## Where to start
//!
//! - **One question, any front end:** [`api`]. A [`api::Session`] answers typed requests
//!   ([`api::AnalyzeRequest`], [`api::SequenceRequest`], [`api::QuotientRequest`],
//!   [`api::GraphRequest`], [`api::PlayRequest`]) under named limit presets, with responses
//!   that serialise to the JSON the command line, the web server and the Python package print
//!   (one schema: [`api::schema`]).
//! - **A position in code:** [`analyze`] (text in, [`Analysis`] out), or
//!   [`catalog::parse`] then [`analysis::analyze_sum`] on the checked [`sum::Sum`].
//! - **A game of your own**, by its moves alone: implement [`game::ImpartialGame`] (a
//!   position's options, and optionally how it splits into independent parts) and solve it with
//!   [`solve::Solver`] (normal play), [`solve::MisereSolver`], [`misere::genus::GenusSolver`]
//!   or [`search`] (one big position). To make it a family of the expression language, so it
//!   mixes in sums with everything else, implement [`sum::Component`] (ARCHITECTURE.md, "How
//!   to add a game family"). Games that are explicit graphs go to [`graph`].
//! - **Nim-sequences at scale:** [`heap::run::SequenceRun`] (chunks, checkpoints, proofs of
//!   periods).
//!
//! ## Layers
//!
//! Top to bottom; each uses only the ones below it (front ends — the `grundy` binary, the web
//! page, the Python package — sit above them all and speak [`api`]):
//! - **API.** [`api`]: typed requests and responses, limit presets, one error type.
//! - **Atlas** (feature `atlas`). `atlas`: censuses over families of heap rules, kept in an
//!   SQLite database with a versioned schema; its queries.
//! - **Cluster** (feature `cluster`). `cluster`: game graphs solved and censuses spread over
//!   worker threads and processes on timely dataflow, connected under a deadline.
//! - **Analysis and play.** [`analysis`]: value, outcome, every winning move and the reason,
//!   one report per component whatever route answered, notes that teach and pictures.
//!   [`play`]: a game in progress against a perfect opponent, with hints and undo.
//! - **Catalogue.** [`catalog`]: every family's rules, checking an [`expr::Spec`] into a
//!   [`sum::Sum`], and back to text.
//! - **Families above the heap games:** [`misere`] (Conway's genus, Plambeck–Siegel misère
//!   quotients, built on the heap rules) and [`boards`] (Cram, Node Kayles, Arc Kayles,
//!   Chomp, on [`search`]).
//! - **Families**, each a rule model, a [`sum::Component`] and its fast path: [`classic`]
//!   (Nim, staircase Nim, Moore's Nim_k, Wythoff), [`heap`] (take-and-break games, their
//!   nim-sequences, periods and proofs), [`hackenbush`], [`coins`], [`scripted`] (rule
//!   scripts).
//! - **Language and graphs.** [`expr`]: the bare expression language, text →
//!   [`expr::Spec`] with spans (it knows no family, only that a rule builds components).
//!   [`graph`]: explicit game graphs, with or without cycles, and any sum explored into one.
//! - **Sums.** [`sum`]: the [`sum::Component`] trait (with [`sum::Family`], a component's
//!   typed identity), [`sum::Sum`], the analysis [`sum::Context`].
//! - **Engines.** [`solve`]: the generic engines from the definitions. [`search`]: the
//!   value of one big position.
//! - **Ground floor.** [`nimber`] (nim-sum, nim-product, mex), [`value`] (values and
//!   outcomes), [`game`] (the [`game::ImpartialGame`] trait), [`control`] (budgets,
//!   cancellation, progress) and [`words`] (counts that agree in number).
//!
//! The library never prints, exits or handles signals: long work takes a
//! [`control::Budget`], and every refusal is a typed error naming the figure.

pub mod analysis;
pub mod api;
#[cfg(feature = "atlas")]
pub mod atlas;
pub mod boards;
pub mod catalog;
pub mod classic;
#[cfg(feature = "cluster")]
pub mod cluster;
pub mod coins;
pub mod control;
pub mod expr;
pub mod game;
pub mod graph;
pub mod hackenbush;
mod hash;
pub mod heap;
pub mod misere;
pub mod nimber;
pub mod play;
mod plot;
#[cfg(feature = "scripts")]
pub mod scripted;
pub mod search;
pub mod solve;
pub mod sum;
pub mod value;
pub mod words;

pub use analysis::{Analysis, MoveSearch, Options, analyze};
pub use api::{ApiError, Preset, Session};
pub use control::{Budget, Limits};
pub use game::ImpartialGame;
pub use nimber::Nimber;
pub use sum::{Component, Sum};
pub use value::{Outcome, Value};
