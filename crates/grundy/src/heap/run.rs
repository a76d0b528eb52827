//! A long nim-sequence computation as one call: chunks, checkpoints on a schedule, the
//! proof driver, and typed results.
//!
//! [`SequenceRun`] computes the sequence of a [`HeapRule`] towards a [`Goal`] — the values
//! of heaps `0..count`, or until a period is proven ([`next_proof_step`]) — on the engine
//! [`engine_for`] picks. It works in chunks of [`RunOptions::chunk`] values; between chunks
//! it saves the checkpoint when [`RunOptions::save_every`] has passed (stretched so that saves
//! take at most a twentieth of the run once the file grows large), and it saves once more
//! at the end, whether the run finished or was cancelled through the [`Control`]. Progress
//! goes to the control as `(values computed, values aimed at)`.
//!
//! Data is never lost by accident:
//! - a fresh run ([`CheckpointMode::Fresh`]) refuses to replace a file that is not a
//!   checkpoint, a checkpoint of another rule, or one holding more values than the run is
//!   sure to compute (with `--prove`, any saved values of the rule: continue from them
//!   instead) — [`CheckpointMode::Replace`] says the user wants it replaced;
//! - a resumed run ([`CheckpointMode::Resume`]) checks the saved values before trusting them
//!   ([`verify_prefix`]) and only ever saves more values than it loaded;
//! - files are written atomically under unique temporary names ([`checkpoint::save`]).
//!
//! The goal bounds what the answer covers even when a checkpoint holds more: `Values(n)`
//! looks for a period in `g(0..n)` only, and `Prove { max }` proves from `g(0..max)` only
//! (a longer checkpoint is kept whole, but the answer is the one `max` values give).
//!
//! Costs are the engines': see [`super::plain`] and [`super::sparse`].
//!
//! ```
//! use grundy::control::Control;
//! use grundy::heap::rules::HeapRule;
//! use grundy::heap::run::{Goal, ProofStatus, RunOptions, RunStatus, SequenceRun};
//!
//! let rule = HeapRule::parse("kayles").unwrap();
//! let mut run = SequenceRun::new(rule, RunOptions::new(Goal::Prove { max: 10_000 })).unwrap();
//! let report = run.run(&mut Control::none()).unwrap();
//! assert_eq!(report.status, RunStatus::Finished);
//! assert_eq!(report.proof, ProofStatus::Proven);
//! let period = report.period.unwrap();
//! assert_eq!((period.period, period.preperiod), (12, 71));
//! assert!(run.values().len() >= 168);
//! ```

use super::checkpoint::{self, CheckpointError};
use super::options::{for_each_option, option_count_bound};
use super::period::{Period, ProofStep, find_period, next_proof_step};
use super::report::histogram;
use super::rules::HeapRule;
use super::sequence::{
    ExtendError, SequenceEngine, SequenceError, engine_for, estimated_units, extend_under,
};
use crate::control::{Budget, BudgetError, Control};
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What a run computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    /// The values of heaps `0..count` (`count` values), and the period they show.
    Values(u64),
    /// Values until a period is proven, at most `max` of them.
    Prove {
        /// The most values to compute (and to use, when a checkpoint holds more).
        max: u64,
    },
}

/// What to do with the checkpoint file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckpointMode {
    /// Start afresh; refuse to replace a file whose data this run would lose.
    Fresh,
    /// Continue from the values saved in the file (which must exist and hold this rule).
    Resume,
    /// Start afresh and replace whatever the file holds.
    Replace,
}

/// A checkpoint file and what to do with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointFile {
    /// The file.
    pub path: PathBuf,
    /// Fresh, resume or replace.
    pub mode: CheckpointMode,
}

/// How a [`SequenceRun`] runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// What to compute.
    pub goal: Goal,
    /// Where to save (and resume from), if anywhere.
    pub checkpoint: Option<CheckpointFile>,
    /// How often to save the checkpoint while running (checked between chunks).
    pub save_every: Duration,
    /// Values computed between checks of the checkpoint clock.
    pub chunk: u64,
    /// The bytes this machine has for the computation, if known: a step that needs more is
    /// refused before it starts ([`RunError::Memory`]).
    pub memory_available: Option<u64>,
}

impl RunOptions {
    /// Saving every 30 s, in chunks of 2^14 values, no checkpoint, memory not checked.
    pub fn new(goal: Goal) -> Self {
        RunOptions {
            goal,
            checkpoint: None,
            save_every: Duration::from_secs(30),
            chunk: 1 << 14,
            memory_available: None,
        }
    }

    /// With this checkpoint file.
    pub fn with_checkpoint(mut self, path: impl Into<PathBuf>, mode: CheckpointMode) -> Self {
        self.checkpoint = Some(CheckpointFile {
            path: path.into(),
            mode,
        });
        self
    }
}

/// What an existing file holds that a fresh run would lose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Occupant {
    /// A file that is not a checkpoint (or a damaged one).
    NotACheckpoint {
        /// What is wrong with it.
        reason: String,
    },
    /// A checkpoint of another rule.
    OtherRule {
        /// The rule saved.
        rule: String,
        /// How many values.
        values: u64,
    },
    /// A checkpoint of this rule with more values than the run is sure to compute.
    MoreValues {
        /// How many values it holds.
        values: u64,
    },
}

impl fmt::Display for Occupant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Occupant::NotACheckpoint { reason } => {
                write!(f, "is not a checkpoint of a sequence ({reason})")
            }
            Occupant::OtherRule { rule, values } => {
                write!(
                    f,
                    "holds {} of {rule}, another rule",
                    crate::words::count(*values, "value")
                )
            }
            Occupant::MoreValues { values } => write!(
                f,
                "holds {values} saved values of this rule, which this run would replace"
            ),
        }
    }
}

/// Why a run could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The checkpoint could not be read or written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// A fresh run would replace data it cannot give back.
    #[error("{} {found}", path.display())]
    Occupied {
        /// The checkpoint file.
        path: PathBuf,
        /// What it holds.
        found: Occupant,
    },
    /// The checkpoint to resume holds another rule.
    #[error("{} holds values of {saved}, not of {rule}", path.display())]
    OtherRule {
        /// The file.
        path: PathBuf,
        /// The rule saved in it.
        saved: String,
        /// The rule of this run.
        rule: String,
    },
    /// The rule saved in a checkpoint is not a rule (this version cannot read it).
    #[error(
        "{}: the rule saved in it, `{}`, cannot be read: {message}",
        path.display(),
        crate::expr::shorten(.saved)
    )]
    UnreadableRule {
        /// The file.
        path: PathBuf,
        /// The rule as saved.
        saved: String,
        /// Why it cannot be read.
        message: String,
    },
    /// A saved value is not what the rule gives.
    #[error(
        "{}: the saved values are wrong: g({heap}) is {computed}, not {saved}",
        path.display()
    )]
    BadPrefix {
        /// The file.
        path: PathBuf,
        /// The heap checked.
        heap: u64,
        /// Its saved value.
        saved: u16,
        /// Its value by the rule, from the saved values before it.
        computed: u64,
    },
    /// A step needs more memory than the machine has.
    #[error(
        "computing g(0) to g({}) needs about {} of memory, but this machine has {} available",
        values.saturating_sub(1),
        bytes(*needed),
        bytes(*available)
    )]
    Memory {
        /// How many values the step computes.
        values: u64,
        /// The bytes it needs.
        needed: u64,
        /// The bytes available.
        available: u64,
    },
    /// More values are asked for than the engine holds, and no period is proven to copy.
    #[error(
        "g(0) to g({}) is more than the {engine} engine holds: it stores g(0) to g({}) (heaps \
         are kept in 32 bits), and no period is proven to copy the values by",
        values.saturating_sub(1),
        limit.saturating_sub(1)
    )]
    TooLong {
        /// How many values were asked for.
        values: u64,
        /// The most values the engine holds.
        limit: u64,
        /// The engine's name.
        engine: &'static str,
    },
    /// The goal is to prove a period, and no theorem known here proves one for this rule.
    #[error("no theorem this tool knows proves a period of {rule}")]
    Unprovable {
        /// The rule.
        rule: String,
        /// The apparent period of the values computed so far, if any.
        apparent: Option<Period>,
    },
    /// The engine failed.
    #[error(transparent)]
    Sequence(#[from] SequenceError),
    /// The run passed its work or memory limit (the values computed so far are kept, and
    /// saved to the checkpoint if there is one).
    #[error("computing g(0) to g({}): {error}", values.saturating_sub(1))]
    Budget {
        /// How many values the step asked for.
        values: u64,
        /// How many values were computed when it stopped.
        computed: u64,
        /// The limit passed.
        error: BudgetError,
    },
}

/// A byte count for people: MiB below a GiB, GiB above.
pub fn bytes(n: u64) -> String {
    const GIB: f64 = (1u64 << 30) as f64;
    if n >= 1 << 30 {
        format!("{:.1} GiB", n as f64 / GIB)
    } else {
        format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64)
    }
}

/// Whether a run reached its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// The goal is reached (values computed, or the proof attempt over).
    Finished,
    /// Cancelled through the [`Control`]; the values so far are saved.
    Interrupted,
}

/// Where a proof stands at the end of a run.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ProofStatus {
    /// The goal was values, not a proof (the period may still be proven by them).
    NotAsked,
    /// The period is proven.
    Proven,
    /// The most values allowed are computed and no period is proven.
    GaveUp,
    /// Interrupted before the proof.
    Unfinished,
}

/// The result of [`SequenceRun::run`]. The values themselves are in
/// [`SequenceRun::values`]; the answer covers the first [`shown`](Self::shown).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    /// The rule as written.
    pub rule: String,
    /// The engine (`plain`, `sparse`, `small`, `periodic`).
    pub engine: &'static str,
    /// Why this engine, where it was chosen by measuring the values (plain octal codes:
    /// sparse space or not; a proven period).
    pub engine_note: Option<String>,
    /// Finished or interrupted.
    pub status: RunStatus,
    /// Where the proof stands.
    pub proof: ProofStatus,
    /// How many values the answer covers: `g(0)` to `g(shown - 1)`.
    pub shown: u64,
    /// How many values are computed (and saved), possibly more than `shown` when resumed
    /// from a longer checkpoint.
    pub computed: u64,
    /// How many values were loaded from the checkpoint.
    pub resumed: u64,
    /// The period of the values shown: proven, apparent, or none.
    pub period: Option<Period>,
    /// Seconds spent computing in this run.
    pub seconds: f64,
    /// The checkpoint file saved, if any.
    pub saved: Option<PathBuf>,
}

/// The sparse-space engine's figures: the mask, the rare values and the work counters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct SparseSummary {
    /// The mask splitting rare from common values, `None` while every value is computed in
    /// full.
    pub mask: Option<u16>,
    /// The distinct rare values.
    pub rare_values: Vec<u16>,
    /// How many heaps `n >= 1` have a rare value (heap 0, rare under every mask, is left
    /// out: it is never a part of a split).
    pub rare_positions: u64,
    /// The last rare heaps `(n, g(n))`, ascending (at most
    /// [`LAST_RARE`](crate::heap::sparse::LAST_RARE)).
    pub last_rare: Vec<(u64, u16)>,
    /// Rare-partner nim-sums evaluated.
    pub rare_xor_steps: u64,
    /// Split pairs scanned.
    pub scan_steps: u64,
    /// Values computed in full.
    pub dense_values: u64,
    /// How many times the mask was chosen.
    pub mask_changes: u64,
}

/// Statistics of the values a run shows.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct RunStats {
    /// How many distinct values occur.
    pub distinct_values: usize,
    /// The engine.
    pub engine: String,
    /// Why this engine (see [`RunReport::engine_note`]).
    pub engine_note: Option<String>,
    /// The sparse-space engine's figures (`None` on the plain engine).
    pub engine_stats: Option<SparseSummary>,
    /// `histogram[v]`: how many heaps shown have value `v` (`g(0)` included).
    pub histogram: Vec<u64>,
    /// The largest value (`None` with no values).
    pub max_value: Option<u16>,
    /// Seconds spent computing.
    pub seconds: f64,
}

/// A nim-sequence computation with its checkpoint: see the [module documentation](self).
#[derive(Debug)]
pub struct SequenceRun {
    rule: HeapRule,
    options: RunOptions,
    engine: Box<dyn SequenceEngine>,
    resumed: u64,
    last_save: Instant,
    /// How long the last save took: saves are spaced so that they take at most
    /// 1/[`SAVE_SHARE`] of the run (a deep run's file grows to gigabytes).
    last_save_cost: Duration,
}

/// Saves take at most one part in this many of a run's time: the interval between saves is
/// the larger of [`RunOptions::save_every`] and this many times the last save's duration.
const SAVE_SHARE: u32 = 20;

impl SequenceRun {
    /// Prepares a run: loads and checks the checkpoint to resume, or makes sure a fresh run
    /// may write its checkpoint, and picks the engine.
    pub fn new(rule: HeapRule, options: RunOptions) -> Result<Self, RunError> {
        let prefix = match &options.checkpoint {
            Some(CheckpointFile {
                path,
                mode: CheckpointMode::Resume,
            }) => load_prefix(path, &rule)?,
            Some(CheckpointFile {
                path,
                mode: CheckpointMode::Fresh,
            }) => {
                guard_fresh(path, &rule, options.goal)?;
                Vec::new()
            }
            _ => Vec::new(),
        };
        let resumed = prefix.len() as u64;
        let engine = engine_for(&rule, prefix)?;
        Ok(SequenceRun {
            rule,
            options,
            engine,
            resumed,
            last_save: Instant::now(),
            last_save_cost: Duration::ZERO,
        })
    }

    /// The rule.
    pub fn rule(&self) -> &HeapRule {
        &self.rule
    }

    /// The engine's name (`plain`, `sparse`).
    pub fn engine_name(&self) -> &'static str {
        self.engine.name()
    }

    /// Every value computed so far (loaded or computed): `values()[n]` is `g(n)`.
    pub fn values(&self) -> &[u16] {
        self.engine.values()
    }

    /// How many values were loaded from the checkpoint.
    pub fn resumed(&self) -> u64 {
        self.resumed
    }

    /// Computes towards the goal, saving the checkpoint on the schedule and at the end
    /// (finished or cancelled; also when the engine fails after computing new values).
    pub fn run(&mut self, control: &mut Control) -> Result<RunReport, RunError> {
        self.run_inner(control, None)
    }

    /// As [`run`](Self::run), under `budget`: a step whose estimated work passes the work
    /// limit is refused before it starts, every chunk computed is charged (the cost model of
    /// [`heap_value_within`](super::sequence::heap_value_within)), and the budget's cancel
    /// flag stops the run as Ctrl-C does. A refusal is [`RunError::Budget`]; the values
    /// computed before it are kept and saved.
    pub fn run_within(
        &mut self,
        control: &mut Control,
        budget: &Budget,
    ) -> Result<RunReport, RunError> {
        self.run_inner(control, Some(budget))
    }

    fn run_inner(
        &mut self,
        control: &mut Control,
        budget: Option<&Budget>,
    ) -> Result<RunReport, RunError> {
        let started = Instant::now();
        let before = self.engine.values().len();
        let result = match self.options.goal {
            Goal::Values(count) => self.run_values(count, control, budget),
            Goal::Prove { max } => self.run_proof(max, control, budget),
        };
        let seconds = started.elapsed().as_secs_f64();
        let (status, proof, shown, period) = match result {
            Ok(r) => r,
            Err(e) => {
                if self.engine.values().len() > before {
                    // Keep what was computed; the engine's error is the one to report.
                    let _ = self.save();
                }
                return Err(e);
            }
        };
        let saved = self.save()?;
        Ok(RunReport {
            rule: self.rule.name().to_string(),
            engine: self.engine.name(),
            engine_note: self.engine.note(),
            status,
            proof,
            shown,
            computed: self.engine.values().len() as u64,
            resumed: self.resumed,
            period,
            seconds,
            saved,
        })
    }

    /// Statistics of the first `shown` values (from a [`RunReport`]).
    pub fn stats(&self, report: &RunReport) -> RunStats {
        let values = self.shown(report.shown);
        let hist = histogram(values);
        RunStats {
            distinct_values: hist.iter().filter(|&&c| c > 0).count(),
            engine: self.engine.name().to_string(),
            engine_note: self.engine.note(),
            engine_stats: self.engine.sparse_stats().map(|s| SparseSummary {
                mask: s.mask,
                rare_values: s.rare_values,
                rare_positions: s.rare_positions,
                last_rare: s.last_rare,
                rare_xor_steps: s.rare_xor_steps,
                scan_steps: s.scan_steps,
                dense_values: s.dense_values,
                mask_changes: s.mask_changes,
            }),
            histogram: hist,
            max_value: values.iter().copied().max(),
            seconds: report.seconds,
        }
    }

    /// The first `count` values (all of them if fewer are computed).
    pub fn shown(&self, count: u64) -> &[u16] {
        let values = self.engine.values();
        let n = usize::try_from(count)
            .unwrap_or(usize::MAX)
            .min(values.len());
        &values[..n]
    }

    /// Saves the checkpoint now, if the run has one; the file saved.
    pub fn save(&mut self) -> Result<Option<PathBuf>, RunError> {
        let started = Instant::now();
        self.last_save = started;
        let Some(file) = &self.options.checkpoint else {
            return Ok(None);
        };
        checkpoint::save(&file.path, self.rule.name(), self.engine.values())?;
        self.last_save_cost = started.elapsed();
        // The next interval counts from the end of this save.
        self.last_save = Instant::now();
        Ok(Some(file.path.clone()))
    }

    /// The time between scheduled saves: [`RunOptions::save_every`], stretched so that
    /// saving a large file takes at most 1/20 of the run (`SAVE_SHARE`).
    pub fn save_interval(&self) -> Duration {
        self.options
            .save_every
            .max(self.last_save_cost.saturating_mul(SAVE_SHARE))
    }

    fn run_values(
        &mut self,
        count: u64,
        control: &mut Control,
        budget: Option<&Budget>,
    ) -> Result<(RunStatus, ProofStatus, u64, Option<Period>), RunError> {
        let done = self.compute(count, control, budget)?;
        let shown = count.min(self.engine.values().len() as u64);
        let period = find_period(&self.rule, self.shown(shown));
        let status = if done {
            RunStatus::Finished
        } else {
            RunStatus::Interrupted
        };
        Ok((status, ProofStatus::NotAsked, shown, period))
    }

    fn run_proof(
        &mut self,
        max: u64,
        control: &mut Control,
        budget: Option<&Budget>,
    ) -> Result<(RunStatus, ProofStatus, u64, Option<Period>), RunError> {
        loop {
            let shown = max.min(self.engine.values().len() as u64);
            match next_proof_step(&self.rule, self.shown(shown), max) {
                ProofStep::Proven(p) => {
                    return Ok((RunStatus::Finished, ProofStatus::Proven, shown, Some(p)));
                }
                ProofStep::GiveUp(p) => {
                    return Ok((RunStatus::Finished, ProofStatus::GaveUp, shown, p));
                }
                ProofStep::Unprovable(apparent) => {
                    return Err(RunError::Unprovable {
                        rule: self.rule.name().to_string(),
                        apparent,
                    });
                }
                ProofStep::Extend(n) => {
                    if !self.compute(n, control, budget)? {
                        let shown = max.min(self.engine.values().len() as u64);
                        let period = find_period(&self.rule, self.shown(shown));
                        return Ok((
                            RunStatus::Interrupted,
                            ProofStatus::Unfinished,
                            shown,
                            period,
                        ));
                    }
                }
            }
        }
    }

    /// The refusal of a step of `count` values by the budget.
    fn over_budget(&self, count: u64, error: BudgetError) -> RunError {
        RunError::Budget {
            values: count,
            computed: self.engine.values().len() as u64,
            error,
        }
    }

    /// The refusal of `count` values, more than the engine holds.
    fn too_long(&self, count: u64) -> RunError {
        RunError::TooLong {
            values: count,
            limit: self.engine.max_len(),
            engine: self.engine.name(),
        }
    }

    /// Refuses a step the machine has not the memory for.
    fn check_memory(&self, count: u64) -> Result<(), RunError> {
        self.check_bytes(count, self.engine.memory_needed(count.saturating_sub(1)))
    }

    /// Refuses a step of `count` values that needs `needed` bytes, if the machine has not
    /// that many.
    fn check_bytes(&self, count: u64, needed: u64) -> Result<(), RunError> {
        match self.options.memory_available {
            Some(available) if needed > available => Err(RunError::Memory {
                values: count,
                needed,
                available,
            }),
            _ => Ok(()),
        }
    }

    /// Computes the values of heaps `0..count` in chunks, saving on the schedule; `false`
    /// when cancelled.
    fn compute(
        &mut self,
        count: u64,
        control: &mut Control,
        budget: Option<&Budget>,
    ) -> Result<bool, RunError> {
        if (self.engine.values().len() as u64) >= count {
            return Ok(true);
        }
        // Past the engine's limit only a period proven in the first chunk lifts it (the
        // values are then copied, two bytes each): with no period to come the run is refused
        // now, for that reason (not for the memory of values it would never hold, which made
        // the refusal depend on the machine); otherwise first for the copies' memory (what
        // any run to `count` needs), then after the first chunk for the limit if no period
        // was proven in it.
        let mut memory_checked = count <= self.engine.max_len();
        if memory_checked {
            self.check_memory(count)?;
        } else if !self.engine.limit_may_lift() {
            return Err(self.too_long(count));
        } else {
            self.check_bytes(count, count.saturating_mul(2))?;
        }
        if let Some(budget) = budget {
            let have = self.engine.values().len() as u64;
            let estimate = estimated_units(&self.rule, self.engine.as_ref(), have, count);
            budget
                .afford(estimate)
                .map_err(|error| self.over_budget(count, error))?;
        }
        let chunk = self.options.chunk.max(1);
        let flag = control.cancel_flag();
        control.report(self.engine.values().len() as u64, count);
        while (self.engine.values().len() as u64) < count {
            let next = (self.engine.values().len() as u64)
                .saturating_add(chunk)
                .min(count);
            if !memory_checked {
                if count <= self.engine.max_len() {
                    self.check_memory(count)?;
                    memory_checked = true;
                } else {
                    self.check_memory(next)?;
                }
            }
            let finished = match budget {
                Some(budget) => {
                    match extend_under(&self.rule, self.engine.as_mut(), next, budget) {
                        Ok(()) => {
                            control.report(self.engine.values().len() as u64, count);
                            true
                        }
                        Err(ExtendError::Budget(BudgetError::Cancelled)) => false,
                        Err(ExtendError::Budget(error)) => {
                            let e = self.over_budget(count, error);
                            if self.options.checkpoint.is_some() {
                                self.save()?;
                            }
                            return Err(e);
                        }
                        Err(ExtendError::Sequence(e)) => return Err(e.into()),
                    }
                }
                None => {
                    // The engine reports against the chunk; the caller sees the whole step.
                    let mut report = |done: u64, _chunk_end: u64| control.report(done, count);
                    let mut inner = Control::none().with_progress(&mut report);
                    if let Some(flag) = flag {
                        inner = inner.with_cancel(flag);
                    }
                    self.engine.extend_to_len(next, &mut inner)?
                }
            };
            if !finished || control.is_cancelled() {
                return Ok(false);
            }
            // Checked after a chunk, not before the first: a period proven in it lifts the
            // limit (the values are then copied), and the refusal still comes at once.
            if count > self.engine.max_len() {
                if self.options.checkpoint.is_some() {
                    self.save()?;
                }
                return Err(self.too_long(count));
            }
            if self.options.checkpoint.is_some() && self.last_save.elapsed() >= self.save_interval()
            {
                self.save()?;
            }
        }
        Ok(true)
    }
}

/// Loads the values to resume from `path`, checking that they are of `rule` and correct
/// ([`verify_prefix`]).
fn load_prefix(path: &Path, rule: &HeapRule) -> Result<Vec<u16>, RunError> {
    let (saved, values) = checkpoint::load(path)?;
    let saved_rule = HeapRule::parse(&saved).map_err(|e| RunError::UnreadableRule {
        path: path.to_path_buf(),
        saved: saved.clone(),
        message: e.message.clone(),
    })?;
    if saved_rule.kind() != rule.kind() {
        return Err(RunError::OtherRule {
            path: path.to_path_buf(),
            saved,
            rule: rule.name().to_string(),
        });
    }
    if let Err(Mismatch {
        heap,
        saved,
        computed,
    }) = verify_prefix(rule, &values)
    {
        return Err(RunError::BadPrefix {
            path: path.to_path_buf(),
            heap,
            saved,
            computed,
        });
    }
    Ok(values)
}

/// Refuses a fresh run that would replace data it cannot give back (see the module docs).
fn guard_fresh(path: &Path, rule: &HeapRule, goal: Goal) -> Result<(), RunError> {
    let occupied = |found| {
        Err(RunError::Occupied {
            path: path.to_path_buf(),
            found,
        })
    };
    let (saved, values) = match checkpoint::load(path) {
        Ok(loaded) => loaded,
        Err(CheckpointError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            return Ok(());
        }
        Err(CheckpointError::Invalid { reason, .. }) => {
            return occupied(Occupant::NotACheckpoint { reason });
        }
        Err(e) => return Err(e.into()),
    };
    let count = values.len() as u64;
    let same = HeapRule::parse(&saved).is_ok_and(|r| r.kind() == rule.kind());
    if !same {
        return occupied(Occupant::OtherRule {
            rule: saved,
            values: count,
        });
    }
    // What the run is sure to compute: `count` values, or (proving) nothing certain.
    let sure = match goal {
        Goal::Values(n) => n,
        Goal::Prove { .. } => 0,
    };
    if count > sure {
        return occupied(Occupant::MoreValues { values: count });
    }
    Ok(())
}

/// A saved value that is not the rule's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The heap.
    pub heap: u64,
    /// The saved value.
    pub saved: u16,
    /// The rule's value from the saved values before it.
    pub computed: u64,
}

/// The options listed in all by [`verify_prefix`], at most.
pub const VERIFY_WORK: u128 = 50_000_000;
/// How many heaps past the first [`verify_prefix`] samples, at most.
pub const VERIFY_SAMPLES: u64 = 64;

/// Checks saved values before a resumed run trusts them, where that is cheap. Each heap `n`
/// checked is recomputed from the definition — the mex of its options' values, taken from
/// the saved values below `n` — and compared with the saved `g(n)`:
///
/// - every heap from 0 on, while the options listed stay within half of [`VERIFY_WORK`]: the
///   whole prefix when it is small, so a short checkpoint is verified completely (each value
///   right given the earlier ones, hence all right by induction);
/// - then up to [`VERIFY_SAMPLES`] heaps spread evenly over the rest, the last one included,
///   each only if its options fit in its share of the other half.
///
/// This catches a checkpoint of another rule saved under a wrong name, values shifted or
/// damaged before the checksum was computed, and an engine bug that made them; it cannot
/// prove a long prefix right (that would cost as much as computing it). Cost: at most
/// [`VERIFY_WORK`] options listed (a fraction of a second).
pub fn verify_prefix(rule: &HeapRule, values: &[u16]) -> Result<(), Mismatch> {
    let len = values.len() as u64;
    let mut spent: u128 = 0;
    let mut n = 0u64;
    while n < len {
        let cost = option_count_bound(rule, n).saturating_add(1);
        if spent.saturating_add(cost) > VERIFY_WORK / 2 {
            break;
        }
        spent += cost;
        check_one(rule, values, n)?;
        n += 1;
    }
    if n >= len {
        return Ok(());
    }
    let share = VERIFY_WORK / 2 / u128::from(VERIFY_SAMPLES);
    let rest = len - n;
    let samples = VERIFY_SAMPLES.min(rest);
    for i in 1..=samples {
        // Evenly spread over n..len, ending at the last heap.
        let heap = n + (u128::from(rest) * u128::from(i) / u128::from(samples)) as u64 - 1;
        if option_count_bound(rule, heap) <= share {
            check_one(rule, values, heap)?;
        }
    }
    Ok(())
}

/// Checks `values[n]` against the mex of the options of heap `n` (values from `values[..n]`).
fn check_one(rule: &HeapRule, values: &[u16], n: u64) -> Result<(), Mismatch> {
    let mut seen: Vec<bool> = Vec::new();
    for_each_option(rule, n, |option| {
        let v = option.parts.iter().fold(0usize, |acc, &part| {
            // Every part of an option of `n` is a smaller heap.
            acc ^ usize::from(values.get(part as usize).copied().unwrap_or(0))
        });
        if v >= seen.len() {
            seen.resize(v + 1, false);
        }
        seen[v] = true;
    });
    let mex = seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u64;
    let saved = values[n as usize];
    if mex == u64::from(saved) {
        Ok(())
    } else {
        Err(Mismatch {
            heap: n,
            saved,
            computed: mex,
        })
    }
}

#[cfg(test)]
mod tests;
