//! Heap games: take-and-break rules and their nim-sequences.
//!
//! - [`rules`]: the rules as the expression language writes them ([`HeapRule`], checked
//!   [`RuleKind`]s: [`TakeBreak`] codes with constraints, [`RemovalSet`]s);
//!   [`code`]: octal and hexadecimal codes.
//! - [`plain`], [`sparse`], [`small`]: the sequence engines; [`sequence`] picks one
//!   ([`engine_for`]) and caches what is known per rule ([`heap_value`]); `adaptive`
//!   chooses between sparse space and the small-values engine by the values seen, and
//!   `periodic` copies values once a period is proven.
//! - [`period`]: periods, found and proven (Guy–Smith and published theorems);
//!   `arithmetic`: arithmetic periods of hexadecimal codes, proven.
//! - [`run`]: a long computation as one call ([`SequenceRun`]): chunks, checkpoints
//!   ([`checkpoint`]), the proof driver, typed reports; [`report`]: histograms and plots.
//! - [`component`]: a heap as a component of a sum; [`options`]: the moves of one heap;
//!   `catalog`: the heap rules' entries in the catalogue of rules.
//! - `engine`: the [`SequenceEngine`] capability every engine implements.
//!
//! ```
//! use grundy::control::Control;
//! use grundy::heap::{Goal, HeapRule, RunOptions, SequenceRun};
//! let mut run = SequenceRun::new(HeapRule::parse("0.137").unwrap(), RunOptions::new(Goal::Values(201))).unwrap();
//! let report = run.run(&mut Control::none()).unwrap();
//! assert_eq!(&run.values()[..10], &[0, 1, 1, 2, 0, 3, 1, 1, 0, 3]);
//! assert!(report.period.unwrap().proven());
//! ```

pub(crate) mod adaptive;
pub(crate) mod arithmetic;
pub(crate) mod catalog;
pub mod checkpoint;
pub(crate) mod closed;
pub mod code;
pub mod component;
pub mod domain;
pub(crate) mod engine;
mod helper;
pub(crate) mod kind;
pub mod options;
pub mod period;
pub(crate) mod periodic;
pub mod plain;
pub mod report;
pub mod rules;
pub mod run;
pub mod sequence;
pub mod small;
pub mod sparse;

pub use checkpoint::CheckpointError;
pub use code::{Code, CodeError};
pub use component::{HeapComponent, HeapGame};
pub use period::{Period, PeriodSummary, Proof, ProofStep, find_period, next_proof_step};
pub use rules::{Constraint, HeapRule, RemovalSet, RuleError, RuleKind, TakeBreak};
pub use run::{
    CheckpointMode, Goal, ProofStatus, RunError, RunOptions, RunReport, RunStats, RunStatus,
    SequenceRun,
};
pub use sequence::{
    HeapValueError, SequenceEngine, SequenceError, engine_for, heap_value, heap_value_within,
};
