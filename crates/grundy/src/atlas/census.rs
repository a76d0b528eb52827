//! A census: every game of some families computed and written to the atlas.
//!
//! Each game is computed to g(N) or until its period is proven, whichever comes first, by
//! the library's [`SequenceRun`] (the engine the rule needs; the proof driver where a
//! theorem can prove a period, as `grundy sequence CODE --prove --max N+1` does). Games run
//! in parallel on rayon's pool, one game per task; the calling thread writes each finished
//! game in its own transaction, so a census stopped at any moment keeps every game it
//! finished.
//!
//! - **Resumable.** A game the atlas already has computed to N or further, or with a proven
//!   period, is skipped, never recomputed; so is a game the time limit refused after running
//!   at least as long as this census allows one (raise the time limit to try it again).
//! - **A budget per game.** A game still running after [`CensusOptions::game_time`] is
//!   stopped and written as `refused`, with the reason and the values it reached; so is a
//!   game an engine refuses (memory, the engine's limit). The census goes on.
//! - **Cancellation.** The [`Control`]'s cancel flag stops the census: games in flight are
//!   dropped, every finished one is kept, and the run is recorded as interrupted.

use super::db::{Atlas, GameRow, GameStatus, Known};
use super::family::expand_all;
use super::misere::{MAX_MISERE_HEAP, MisereRow};
use super::{AtlasError, Fnv};
use crate::control::Control;
use crate::heap::period::{Period, ProofMethod, find_period, proof_method};
use crate::heap::rules::HeapRule;
use crate::heap::run::{Goal, RunOptions, RunStats, RunStatus, SequenceRun};
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// The largest N of a census: heaps are kept in 32 bits by the engines.
pub const MAX_TO: u64 = (1 << 32) - 2;

/// How many first values a game's row keeps.
pub const FIRST_VALUES: usize = 64;

/// How a census runs.
#[derive(Clone, Debug, PartialEq)]
pub struct CensusOptions {
    /// Compute g(0) to g(to), or until the period is proven.
    pub to: u64,
    /// The most time one game may take; past it the game is refused.
    pub game_time: Duration,
    /// The bytes the machine leaves to the census, if known: a game whose next step needs
    /// more than its share (this over the threads) is refused before it starts.
    pub memory_available: Option<u64>,
    /// Also each game's bounded misère quotient of heaps 1 to this (at most
    /// [`MAX_MISERE_HEAP`]), kept in the table `misere` ([`super::misere`]).
    pub misere: Option<u64>,
}

impl CensusOptions {
    /// To g(`to`), a minute per game, memory not checked.
    pub fn new(to: u64) -> Self {
        CensusOptions {
            to,
            game_time: Duration::from_secs(60),
            memory_available: None,
            misere: None,
        }
    }
}

/// What a census reports as it goes.
#[derive(Debug)]
pub enum CensusEvent<'a> {
    /// The plan, before any game runs.
    Planned {
        /// Games in the families.
        games: u64,
        /// Games to compute.
        to_compute: u64,
        /// Games skipped, known already.
        skipped: u64,
    },
    /// A game is written to the atlas.
    Game {
        /// The game's canonical name.
        code: &'a str,
        /// Its row, when this census computed it.
        row: Option<&'a GameRow>,
        /// Its misère quotient's row, when this census computed it.
        misere: Option<&'a MisereRow>,
        /// Games written so far by this census.
        done: u64,
        /// Games this census computes.
        to_compute: u64,
    },
}

/// The outcome of a census.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CensusSummary {
    /// The run's id in `runs`.
    pub run_id: i64,
    /// N.
    pub to: u64,
    /// Games in the families.
    pub games: u64,
    /// Codes of the patterns left out as no game.
    pub left_out: u64,
    /// The first code left out and why.
    pub left_out_first: Option<String>,
    /// Games computed and written by this census.
    pub computed: u64,
    /// Games skipped: known to N or proven already, or refused after as long a time.
    pub skipped: u64,
    /// Of those computed: proven.
    pub proven: u64,
    /// Of those computed: an apparent period.
    pub apparent: u64,
    /// Of those computed: no period seen.
    pub no_period: u64,
    /// Of those computed: refused.
    pub refused: u64,
    /// Misère quotients computed (`--misere`).
    pub quotients: u64,
    /// Misère quotients refused (the work limit, too many elements).
    pub quotients_refused: u64,
    /// Whether the census was interrupted before every game was computed.
    pub interrupted: bool,
    /// Seconds the census took.
    pub seconds: f64,
}

/// Runs a census of `patterns` into `atlas` (see the [module documentation](self)).
/// `progress` hears of the plan and of each game written, on the calling thread.
pub fn census(
    atlas: &mut Atlas,
    patterns: &[String],
    options: &CensusOptions,
    progress: &mut dyn FnMut(CensusEvent<'_>),
    control: &Control<'_>,
) -> Result<CensusSummary, AtlasError> {
    let Plan {
        mut summary,
        todo,
        started,
    } = plan(atlas, patterns, options, progress)?;
    let to_compute = todo.len() as u64;
    let mut per_game = options.clone();
    let threads = rayon::current_num_threads().max(1) as u64;
    per_game.memory_available = options.memory_available.map(|m| m / threads);
    let halt = AtomicBool::new(false);
    let user = control.cancel_flag();
    let stopped =
        || halt.load(Ordering::Relaxed) || user.is_some_and(|f| f.load(Ordering::Relaxed));
    let mut failure = None;
    // The quotients' budgets stop on this flag, which a watcher sets when the census stops.
    let quotient_cancel = Arc::new(AtomicBool::new(false));
    let finished = AtomicBool::new(false);
    let mut done = 0u64;
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let per_game = &per_game;
        let stopped = &stopped;
        let cancel = &quotient_cancel;
        let finished = &finished;
        scope.spawn(move || {
            while !finished.load(Ordering::Relaxed) {
                if stopped() {
                    cancel.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        scope.spawn(move || {
            todo.into_par_iter().for_each_with(sender, |sender, task| {
                if let Some(result) = work(&task, per_game, stopped, cancel) {
                    let _ = sender.send(result);
                }
            });
        });
        for result in receiver {
            if failure.is_some() {
                continue;
            }
            match record(atlas, &mut summary, result) {
                Ok(event) => {
                    done += 1;
                    progress(event.with_progress(done, to_compute));
                }
                Err(e) => {
                    halt.store(true, Ordering::Relaxed);
                    failure = Some(e);
                }
            }
        }
        finished.store(true, Ordering::Relaxed);
    });
    finish(atlas, summary, failure, done, to_compute, started)
}

/// A census planned: the run recorded as begun, the games to work on.
pub(crate) struct Plan {
    pub(crate) summary: CensusSummary,
    pub(crate) todo: Vec<Task>,
    pub(crate) started: Instant,
}

/// Checks the options, expands the families, reads what the atlas knows and records the
/// run's start; tells `progress` the plan.
pub(crate) fn plan(
    atlas: &mut Atlas,
    patterns: &[String],
    options: &CensusOptions,
    progress: &mut dyn FnMut(CensusEvent<'_>),
) -> Result<Plan, AtlasError> {
    let started = Instant::now();
    if options.to == 0 || options.to > MAX_TO {
        return Err(AtlasError::Input(format!(
            "N = {} is out of range: a census computes to g(1) at least and g({MAX_TO}) at most",
            options.to
        )));
    }
    if let Some(m) = options.misere
        && !(1..=MAX_MISERE_HEAP).contains(&m)
    {
        return Err(AtlasError::Input(format!(
            "--misere {m} is out of range: the quotients are of heaps 1 to at least 1 and at \
             most {MAX_MISERE_HEAP}"
        )));
    }
    let (rules, left_out) = expand_all(patterns)?;
    atlas.set_journal(true)?;
    let known = atlas.known()?;
    let known_misere = atlas.known_misere()?;
    let todo: Vec<Task> = rules
        .iter()
        .filter_map(|r| {
            let game = known.get(r.name()).is_none_or(|k| needs_work(k, options));
            let misere = options
                .misere
                .filter(|&m| known_misere.get(r.name()).is_none_or(|&k| k < m));
            (game || misere.is_some()).then(|| Task {
                rule: r.clone(),
                game,
                misere,
            })
        })
        .collect();
    let games = rules.len() as u64;
    let to_compute = todo.len() as u64;
    let summary = CensusSummary {
        run_id: atlas.begin_run(&patterns.join(" "), options.to)?,
        to: options.to,
        games,
        left_out: left_out.count,
        left_out_first: left_out.first,
        computed: 0,
        skipped: games - to_compute,
        proven: 0,
        apparent: 0,
        no_period: 0,
        refused: 0,
        quotients: 0,
        quotients_refused: 0,
        interrupted: false,
        seconds: 0.0,
    };
    progress(CensusEvent::Planned {
        games,
        to_compute,
        skipped: summary.skipped,
    });
    Ok(Plan {
        summary,
        todo,
        started,
    })
}

/// Whether a census computes a game the atlas has: not when it is proven or computed to N,
/// nor when the time limit refused it after running at least as long as this census allows a
/// game (it would be refused again, after as long: a re-run with the same budget went through
/// every refused game again). Games refused for another reason (memory, an engine's limit:
/// machines differ) are tried again.
fn needs_work(known: &Known, options: &CensusOptions) -> bool {
    let timed_out = known
        .reason
        .as_deref()
        .is_some_and(|r| r.starts_with(TIME_LIMIT_REASON));
    match known.status {
        GameStatus::Proven => false,
        GameStatus::Refused if timed_out && known.seconds >= options.game_time.as_secs_f64() => {
            false
        }
        _ => known.computed_to.is_none_or(|to| to < options.to),
    }
}

/// How the reason of a game refused by the time limit starts.
const TIME_LIMIT_REASON: &str = "the time limit of";

/// What one game's work gives: its canonical name, its row and checksums when its sequence
/// was computed, its quotient's row when that was.
pub(crate) type Done = (String, Option<Computed>, Option<MisereRow>);

/// Works on one game: its sequence, its quotient, or both; `None` when the census was
/// stopped meanwhile (what was computed is dropped: the game is not finished).
pub(crate) fn work(
    task: &Task,
    per_game: &CensusOptions,
    stopped: &(dyn Fn() -> bool + Sync),
    cancel: &Arc<AtomicBool>,
) -> Option<Done> {
    if stopped() {
        return None;
    }
    let game = if task.game {
        Some(compute_game(&task.rule, per_game, stopped)?)
    } else {
        None
    };
    let misere = task
        .misere
        .map(|m| super::misere::compute(&task.rule, m, Arc::clone(cancel)));
    if stopped() {
        return None;
    }
    Some((task.rule.name().to_string(), game, misere))
}

/// What [`record`] wrote, to tell the progress callback.
pub(crate) struct Recorded {
    code: String,
    row: Option<GameRow>,
    misere: Option<MisereRow>,
}

impl Recorded {
    /// The event, with the games done so far.
    pub(crate) fn with_progress(&self, done: u64, to_compute: u64) -> CensusEvent<'_> {
        CensusEvent::Game {
            code: &self.code,
            row: self.row.as_ref(),
            misere: self.misere.as_ref(),
            done,
            to_compute,
        }
    }
}

/// Writes one game's results (its row and checksums, its quotient) and counts them.
pub(crate) fn record(
    atlas: &mut Atlas,
    summary: &mut CensusSummary,
    (code, game, misere): Done,
) -> Result<Recorded, AtlasError> {
    let mut written = None;
    if let Some((mut row, checksums)) = game {
        row.run_id = Some(summary.run_id);
        atlas.write_game(&row, &checksums)?;
        summary.computed += 1;
        match row.status {
            GameStatus::Proven => summary.proven += 1,
            GameStatus::Apparent => summary.apparent += 1,
            GameStatus::None => summary.no_period += 1,
            GameStatus::Refused => summary.refused += 1,
        }
        written = Some(row);
    }
    if let Some(row) = &misere {
        atlas.write_misere(row)?;
        summary.quotients += 1;
        if !row.computed {
            summary.quotients_refused += 1;
        }
    }
    Ok(Recorded {
        code,
        row: written,
        misere,
    })
}

/// Records the run's end: finished, interrupted (fewer games done than planned) or failed.
pub(crate) fn finish(
    atlas: &mut Atlas,
    mut summary: CensusSummary,
    failure: Option<AtlasError>,
    done: u64,
    to_compute: u64,
    started: Instant,
) -> Result<CensusSummary, AtlasError> {
    summary.interrupted = done < to_compute;
    summary.seconds = started.elapsed().as_secs_f64();
    let status = match (&failure, summary.interrupted) {
        (Some(_), _) => "failed",
        (None, true) => "interrupted",
        (None, false) => "finished",
    };
    let counts = [
        summary.games,
        summary.computed,
        summary.skipped,
        summary.refused,
    ];
    let ended = atlas
        .end_run(summary.run_id, status, counts)
        .and_then(|()| atlas.set_journal(false));
    if let Some(e) = failure {
        return Err(e);
    }
    ended?;
    Ok(summary)
}

/// A game's row and its prefix checksums.
pub(crate) type Computed = (GameRow, Vec<(u64, String)>);

/// A game a census works on: its sequence, its misère quotient, or both.
#[derive(Clone, Debug)]
pub(crate) struct Task {
    pub(crate) rule: HeapRule,
    pub(crate) game: bool,
    pub(crate) misere: Option<u64>,
}

/// Computes one game; `None` when the census was stopped while it ran.
fn compute_game(
    rule: &HeapRule,
    options: &CensusOptions,
    stopped: &(dyn Fn() -> bool + Sync),
) -> Option<Computed> {
    let started = Instant::now();
    let count = options.to + 1;
    let goal = match proof_method(rule) {
        ProofMethod::GuySmith { .. } | ProofMethod::Theorem { .. } => Goal::Prove { max: count },
        _ => Goal::Values(count),
    };
    let mut run_options = RunOptions::new(goal);
    run_options.memory_available = options.memory_available;
    run_options.chunk = 1 << 12;
    let mut run = match SequenceRun::new(rule.clone(), run_options) {
        Ok(run) => run,
        Err(e) => {
            let facts = Facts::of(&[], None, options.to);
            return Some(facts.refused(rule, "", e.to_string(), started, options.to));
        }
    };
    let game_flag = AtomicBool::new(false);
    let mut watch = |_: u64, _: u64| {
        if stopped() || started.elapsed() > options.game_time {
            game_flag.store(true, Ordering::Relaxed);
        }
    };
    let mut control = Control::none()
        .with_progress(&mut watch)
        .with_cancel(&game_flag);
    let result = run.run(&mut control);
    if stopped() {
        return None;
    }
    let engine = run.engine_name();
    let reached = |run: &SequenceRun| {
        let n = run.values().len() as u64;
        let values = run.shown(n.min(count));
        let period = find_period(rule, values);
        Facts::of(values, period, options.to)
    };
    match result {
        Err(e) => Some(reached(&run).refused(rule, engine, e.to_string(), started, options.to)),
        Ok(report) if report.status == RunStatus::Interrupted => {
            let why = format!(
                "{TIME_LIMIT_REASON} {} s per game was reached after g(0) to g({})",
                options.game_time.as_secs_f64(),
                run.values().len().saturating_sub(1)
            );
            Some(reached(&run).refused(rule, engine, why, started, options.to))
        }
        Ok(report) => {
            let values = run.shown(report.shown);
            let facts = Facts::of(values, report.period.clone(), options.to);
            let stats = run.stats(&report);
            Some(facts.row(rule, &stats, started, options.to))
        }
    }
}

/// What a game's values say, before they become a row.
struct Facts {
    period: Option<Period>,
    computed: u64,
    max: Option<(u64, u64)>,
    p_positions: u64,
    first: String,
    checksum: Option<String>,
    checksums: Vec<(u64, String)>,
}

impl Facts {
    fn of(values: &[u16], period: Option<Period>, to: u64) -> Facts {
        let mut max = None;
        for (n, &v) in values.iter().enumerate() {
            if max.is_none_or(|(m, _)| u64::from(v) > m) {
                max = Some((u64::from(v), n as u64));
            }
        }
        // One pass over g(0) to g(to) (continued by a proven period, as far as the values fit
        // in 16 bits; else the values computed): the first values and the checksums of
        // g(0..16), g(0..32), ..., of the values computed and of the whole.
        let proven = period.as_ref().filter(|p| p.proven());
        let total = match proven {
            Some(_) => to.saturating_add(1).max(values.len() as u64),
            None => values.len() as u64,
        };
        let mut hash = Fnv::new();
        let mut first = Vec::new();
        let mut checksum = None;
        let mut checksums = Vec::new();
        let mut n = 0u64;
        while n < total {
            let v = match values.get(n as usize) {
                Some(&v) => v,
                None => match proven
                    .and_then(|p| p.value_at(values, n))
                    .and_then(|v| u16::try_from(v).ok())
                {
                    Some(v) => v,
                    None => break,
                },
            };
            hash.extend(&[v]);
            n += 1;
            if first.len() < FIRST_VALUES {
                first.push(v.to_string());
            }
            if n == values.len() as u64 {
                checksum = Some(format!("{:016x}", hash.0));
            }
            if n >= 16 && n.is_power_of_two() {
                checksums.push((n, format!("{:016x}", hash.0)));
            }
        }
        if n > 0 && checksums.last().is_none_or(|&(l, _)| l != n) {
            checksums.push((n, format!("{:016x}", hash.0)));
        }
        Facts {
            period,
            computed: values.len() as u64,
            max,
            p_positions: values.iter().filter(|&&v| v == 0).count() as u64,
            first: first.join(" "),
            checksum,
            checksums,
        }
    }

    fn base(&self, rule: &HeapRule, status: GameStatus, started: Instant, to: u64) -> GameRow {
        let p = self.period.as_ref();
        GameRow {
            code: rule.name().to_string(),
            status,
            target: to,
            computed_to: self.computed.checked_sub(1),
            engine: None,
            period: p.map(|p| p.period),
            preperiod: p.map(|p| p.preperiod),
            saltus: p.map(|p| p.saltus),
            proof: p
                .filter(|p| p.proven())
                .map(|p| crate::heap::period::PeriodSummary::from(p.clone()).proof),
            last_exceptional: p.and_then(|p| p.preperiod.checked_sub(1)),
            max_value: self.max.map(|m| m.0),
            max_value_heap: self.max.map(|m| m.1),
            p_positions: (self.computed > 0).then_some(self.p_positions),
            first_values: self.first.clone(),
            checksum: self.checksum.clone(),
            rare_mask: None,
            rare_values: None,
            rare_count: None,
            last_rare: None,
            reason: None,
            seconds: started.elapsed().as_secs_f64(),
            run_id: None,
            finished_at: None,
        }
    }

    fn refused(
        self,
        rule: &HeapRule,
        engine: &str,
        reason: String,
        started: Instant,
        to: u64,
    ) -> Computed {
        let mut row = self.base(rule, GameStatus::Refused, started, to);
        row.engine = (!engine.is_empty()).then(|| engine.to_string());
        row.reason = Some(reason);
        (row, self.checksums)
    }

    fn row(self, rule: &HeapRule, stats: &RunStats, started: Instant, to: u64) -> Computed {
        let status = match &self.period {
            Some(p) if p.proven() => GameStatus::Proven,
            Some(_) => GameStatus::Apparent,
            None => GameStatus::None,
        };
        let mut row = self.base(rule, status, started, to);
        row.engine = Some(stats.engine.clone());
        if let Some(sparse) = stats.engine_stats.as_ref().filter(|s| s.mask.is_some()) {
            row.rare_mask = sparse.mask.map(u64::from);
            row.rare_values = Some(
                sparse
                    .rare_values
                    .iter()
                    .map(u16::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            row.rare_count = Some(sparse.rare_positions);
            row.last_rare = sparse.last_rare.last().map(|&(n, _)| n);
        }
        (row, self.checksums)
    }
}
