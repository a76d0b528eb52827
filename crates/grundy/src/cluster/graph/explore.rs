//! A game explored in parts by the workers of every process, then solved where it lies: no
//! process holds the whole graph, and the answer is the start position's.
//!
//! Each position belongs to the worker its text hashes to (the sorted component texts of
//! [`Sum::key`], joined by ` + `, which every worker reads back with the same rules). In
//! supersteps, each worker lists the moves of the positions it has not expanded yet, sends
//! each option's text with the index of the position it came from to the option's owner, and
//! takes what it was sent: an option met for the first time gets the next local index `k`
//! (global index `k * W + w` on worker `w` of `W`, the ownership the passes use) and waits
//! to be expanded; every option, new or not, is an edge stored in its owner's list of
//! predecessors. When no worker has anything to expand or send, the passes of
//! [`super`] run on the shares as they lie, and the owners of the start and of its options
//! send worker 0 what the start's answer needs (its value, outcome and remoteness; for
//! `∞(K)`, the finite values of its options).
//!
//! The global indices run to `W` times the most positions of a worker: the indices past a
//! worker's own count are vertices with no edges, which no one reports (a few per worker,
//! since the hash spreads the positions evenly).
//!
//! Cost: every move is a message of its option's text (a few words) and every position is
//! read back from its text once, by its owner; a worker holds its positions' texts (for
//! duplicate detection), 8 bytes an edge into them until the share is built, and then the
//! share and the passes' state. Steps: at least one per level of the breadth-first search,
//! more when a worker has more than `per_step` messages to send. The limits are global: the
//! positions of all workers against `max_positions`, [`MOVE_COST`] units a move of all
//! workers (and what listing the moves charged, as in one process) against `max_work`,
//! checked after each step (a step may explore past them before
//! every worker stops with the one-process error).

use super::phases::Share;
use super::step::{Steps, Stopped};
use super::words::{ROOM, outcome_of, owner, push_text, take_text, text_words};
use super::{Halt, Progress, Setup, SolveStats, Tell, agree, execute, passes};
use crate::catalog::Catalog;
use crate::cluster::{Cluster, ClusterError};
use crate::control::{Budget, BudgetError, Limits};
use crate::graph::csr::{MAX_EDGES, MAX_VERTICES};
use crate::graph::explore::{ExploreError, MOVE_COST};
use crate::graph::loopy::{INFINITE, NO_REMOTENESS};
use crate::nimber::Nimber;
use crate::sum::{Context, Engine, Sum};
use crate::value::{Outcome, Value};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use timely::worker::Worker;

/// A game to explore in parts: its start, the rules that read its positions, the limits.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// The start as its key's text.
    start: String,
    /// The start as written (the name it is answered under).
    name: String,
    catalog: Catalog,
    max_positions: usize,
    max_work: u64,
    per_step: u64,
}

/// The start position's answer, and the size of the graph explored from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartAnswer {
    /// The start, as an expression.
    pub name: String,
    /// Positions reachable from the start (the start included).
    pub vertices: u64,
    /// Moves between them (one edge a move, as [`crate::graph::explore::explore`] counts).
    pub edges: u64,
    /// Whether no cycle is reachable.
    pub acyclic: bool,
    /// The start's (generalised) Sprague–Grundy value.
    pub value: Value,
    /// Who wins from the start.
    pub outcome: Outcome,
    /// Moves to the end with best play; `None` for a draw.
    pub remoteness: Option<u32>,
    /// What the run measured.
    pub stats: SolveStats,
}

impl Exploration {
    /// The game from `start`, whose positions `catalog` reads (the built-in rules and the
    /// rule scripts `start` uses), with at most `max_positions` positions and `max_work`
    /// units of work over all workers ([`MOVE_COST`] a move and what the components charge
    /// for listing them, as one process counts it). Refused when the start does not read
    /// back as itself from its text (every position travels as text; a later position that
    /// does not stops the run, naming it).
    pub fn new(
        start: &Sum,
        catalog: Catalog,
        max_positions: usize,
        max_work: u64,
    ) -> Result<Exploration, ClusterError> {
        let text = key_text(start);
        read_back(&catalog, &text).map_err(ClusterError::Protocol)?;
        Ok(Exploration {
            start: text,
            name: start.to_string(),
            catalog,
            max_positions: max_positions.min(MAX_VERTICES as usize),
            max_work,
            per_step: super::step::PER_STEP,
        })
    }

    /// At most `messages` messages a worker in one step (at least 1; the default is 2^20).
    pub fn with_per_step(mut self, messages: u64) -> Exploration {
        self.per_step = messages.max(1);
        self
    }

    /// What every process must agree on: the start, the rules by name, the limits.
    fn fingerprint(&self) -> u64 {
        let mut h = crate::hash::mix(0, self.max_positions as u64);
        h = crate::hash::mix(h, self.max_work);
        h = crate::hash::mix(h, self.per_step);
        let mut texts = vec![self.start.as_str()];
        #[cfg(feature = "scripts")]
        texts.extend(self.catalog.scripts().iter().map(|s| s.name()));
        for text in texts {
            let mut words = Vec::new();
            push_text(&mut words, text);
            h = words
                .into_iter()
                .fold(h, |h, w| crate::hash::mix(h, u64::from(w)));
        }
        h
    }
}

/// Explores and solves `game` with `workers` threads of this process.
pub fn explore_with_workers(
    game: &Exploration,
    workers: usize,
    cancel: Arc<AtomicBool>,
    progress: Progress,
) -> Result<StartAnswer, ClusterError> {
    let answer = run(Setup::workers(workers, cancel)?, game, progress)?;
    answer.ok_or_else(|| ClusterError::Protocol("the first worker gave no answer".into()))
}

/// Runs this process's part of exploring and solving `game` over `cluster` (every process
/// passes the same game): process 0 returns the answer, the others `None`.
pub fn explore_on_cluster(
    cluster: &Cluster,
    game: &Exploration,
    cancel: Arc<AtomicBool>,
    progress: Progress,
) -> Result<Option<StartAnswer>, ClusterError> {
    run(Setup::cluster(cluster, cancel)?, game, progress)
}

fn run(
    setup: Setup,
    game: &Exploration,
    progress: Progress,
) -> Result<Option<StartAnswer>, ClusterError> {
    let processes = setup.processes;
    let game = game.clone();
    let work = move |steps: &mut Steps, worker: &mut Worker, tell: &mut Tell<'_>| {
        let started = std::time::Instant::now();
        steps.per_step = game.per_step;
        agree(game.fingerprint(), steps, worker, |other, first| {
            format!(
                "process {other} explores another game than process {first} (the expression, \
                 the rule scripts or the limits differ): every process needs the same game, \
                 rule scripts and limits"
            )
        })?;
        let explored = explore(&game, steps, worker, tell)?;
        let local = passes(&explored.share, steps, worker, tell)?;
        let start = owner(&game.start, worker.peers()) as u32;
        let answer = answer_of_start(&explored.share, &local, start, steps, worker)?;
        Ok(answer.map(|start| StartAnswer {
            name: game.name.clone(),
            vertices: explored.vertices,
            edges: explored.edges,
            acyclic: local.acyclic,
            value: start.value,
            outcome: start.outcome,
            remoteness: start.remoteness,
            stats: SolveStats::since(
                processes,
                worker.peers(),
                steps.steps,
                start.bytes,
                local.acyclic,
                started,
            ),
        }))
    };
    let bad = || ClusterError::Protocol("a worker found bad input in an explored game".into());
    execute(setup, progress, work, bad)
}

/// A position's text as sent: the sorted component texts joined by ` + ` (`0` for none).
fn key_text(position: &Sum) -> String {
    let key = position.key();
    if key.is_empty() {
        "0".to_owned()
    } else {
        key.join(" + ")
    }
}

/// The position `text` reads as, checked to print back to `text` (so that equal positions
/// meet as equal texts on their owner).
fn read_back(catalog: &Catalog, text: &str) -> Result<Sum, String> {
    let sum = catalog
        .parse(text)
        .map_err(|e| format!("the position `{text}` cannot be read back: {e}"))?;
    let again = key_text(&sum);
    if again != text {
        return Err(format!(
            "the position `{text}` reads back as `{again}`: it cannot be sent between workers"
        ));
    }
    Ok(sum)
}

/// The header word of a worker's counts (a message of positions has a byte length there).
const COUNTS: u32 = u32::MAX;

/// What went wrong on one worker while exploring.
enum Trouble {
    /// A position's moves could not be listed (the one-process error).
    Refused(ExploreError),
    /// A position could not travel (a bug, or processes of different versions).
    Broken(String),
}

/// Stops every worker at the step they are in, as a panic would (see `execute`), with `why`
/// on this one.
fn fail(why: String, steps: &mut Steps, worker: &mut Worker) -> Halt {
    steps.fail();
    let mut out = steps.outboxes();
    let _ = steps.exchange(worker, &mut out, [0, 0]);
    Halt::Failed(Some(why))
}

/// One worker's part of the graph, explored.
struct Explored {
    share: Share,
    vertices: u64,
    edges: u64,
}

/// What a worker holds while exploring.
#[derive(Default)]
struct Frontier {
    /// The local index of each position owned, by its text.
    ids: FxHashMap<Box<str>, u32>,
    /// Out-degrees (moves listed) of the positions owned.
    degree: Vec<u32>,
    /// Edges into the positions owned: (local index of the option, global index of the
    /// position it is an option of).
    preds: Vec<(u32, u32)>,
    /// Positions owned and not expanded yet.
    open: VecDeque<(u32, Box<str>)>,
    /// Options listed and not sent yet: (owner, global index of the position, text).
    backlog: VecDeque<(usize, u32, Box<str>)>,
    /// Moves listed here.
    moves: u64,
}

impl Frontier {
    /// The local index of the position `text`, numbered and left to expand if new.
    fn meet(&mut self, text: &str) -> u32 {
        if let Some(&k) = self.ids.get(text) {
            return k;
        }
        let k = self.ids.len() as u32;
        let text: Box<str> = text.into();
        self.ids.insert(text.clone(), k);
        self.degree.push(0);
        self.open.push_back((k, text));
        k
    }

    /// Lists the moves of the local position `k` into the backlog; `Ok(false)` when a stop
    /// was asked (the next exchange stops every worker).
    fn expand(
        &mut self,
        k: u32,
        text: &str,
        game: &Exploration,
        ctx: &Context,
        (w, peers): (usize, usize),
    ) -> Result<bool, Trouble> {
        let position = read_back(&game.catalog, text).map_err(Trouble::Broken)?;
        let x = u64::from(k) * peers as u64 + w as u64;
        if x >= MAX_VERTICES {
            // Global indices are 32 bits: this worker holds more than its part of them.
            return Err(Trouble::Refused(ExploreError::TooManyPositions {
                limit: (MAX_VERTICES / peers as u64) as usize,
            }));
        }
        let x = x as u32;
        let mut listed = 0u32;
        for (i, component) in position.components.iter().enumerate() {
            let moves = match component.moves(ctx) {
                Ok(moves) => moves,
                Err(e) if e.budget_error() == Some(BudgetError::Cancelled) => return Ok(false),
                Err(e) => return Err(Trouble::Refused(ExploreError::Moves(e))),
            };
            for m in moves {
                let option = key_text(&position.replaced(i, &m.result));
                self.backlog
                    .push_back((owner(&option, peers), x, option.into()));
                listed += 1;
            }
        }
        self.degree[k as usize] = listed;
        self.moves += u64::from(listed);
        Ok(true)
    }

    /// Fills `out` with up to `per_step` messages, expanding positions as the backlog
    /// empties; returns the messages put in.
    fn fill(
        &mut self,
        out: &mut [Vec<u32>],
        per_step: u64,
        game: &Exploration,
        ctx: &Context,
        place: (usize, usize),
    ) -> Result<u64, Trouble> {
        let mut sent = 0u64;
        while sent < per_step {
            let Some((to, x, text)) = self.backlog.front() else {
                let Some((k, text)) = self.open.pop_front() else {
                    break;
                };
                if !self.expand(k, &text, game, ctx, place)? {
                    break;
                }
                continue;
            };
            if out[*to].len() + 1 + text_words(text.len()) > ROOM && !out[*to].is_empty() {
                break;
            }
            out[*to].push(*x);
            push_text(&mut out[*to], text);
            self.backlog.pop_front();
            sent += 1;
        }
        Ok(sent)
    }

    /// Takes a step's messages: options met, and every worker's counts (summed).
    fn take(&mut self, payloads: &[Vec<u32>]) -> Result<Counts, String> {
        let mut all = Counts::default();
        for words in payloads {
            let mut i = 0;
            while i + 2 <= words.len() {
                let (x, len) = (words[i], words[i + 1]);
                if len == COUNTS {
                    let c = words
                        .get(i + 2..i + 7)
                        .ok_or_else(|| "a worker's counts were cut short".to_owned())?;
                    let wide = |lo: u32, hi: u32| u64::from(lo) | (u64::from(hi) << 32);
                    all.positions += u64::from(c[0]);
                    all.most = all.most.max(u64::from(c[0]));
                    all.moves += wide(c[1], c[2]);
                    all.work = all.work.saturating_add(wide(c[3], c[4]));
                    i += 7;
                    continue;
                }
                i += 1;
                let text = take_text(words, &mut i)
                    .ok_or_else(|| "a message of the exploration was cut short".to_owned())?;
                let k = self.meet(&text);
                self.preds.push((k, x));
            }
        }
        Ok(all)
    }
}

/// The counts of all workers after a step.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    /// Positions met.
    positions: u64,
    /// Positions of the worker with the most.
    most: u64,
    /// Moves listed.
    moves: u64,
    /// Work done: [`MOVE_COST`] a move, and what listing the moves charged.
    work: u64,
}

/// Explores this worker's positions, in steps with every worker, and builds its share.
fn explore(
    game: &Exploration,
    steps: &mut Steps,
    worker: &mut Worker,
    tell: &mut Tell<'_>,
) -> Result<Explored, Halt> {
    let place = (worker.index(), worker.peers());
    let peers = place.1 as u64;
    let limits = Limits {
        max_work: u64::MAX,
        ..Limits::DEFAULT
    };
    let ctx = Context {
        engine: Engine::Fast,
        budget: Budget::with_cancel_flag(limits, steps.cancel_flag()),
        end_table: None,
    };
    let mut here = Frontier::default();
    if owner(&game.start, place.1) == place.0 {
        here.meet(&game.start);
    }
    tell("exploring", 0, 0);
    let (vertices, most, edges) = loop {
        let mut out = steps.outboxes();
        let (sent, refused) = match here.fill(&mut out, steps.per_step, game, &ctx, place) {
            Ok(sent) => (sent, None),
            Err(Trouble::Refused(e)) => (0, Some(e)),
            Err(Trouble::Broken(why)) => return Err(fail(why, steps, worker)),
        };
        let work = here
            .moves
            .saturating_mul(MOVE_COST)
            .saturating_add(ctx.budget.work_done());
        let counts = [
            here.ids.len() as u32,
            here.moves as u32,
            (here.moves >> 32) as u32,
            work as u32,
            (work >> 32) as u32,
        ];
        for batch in &mut out {
            batch.extend([0, COUNTS]);
            batch.extend(counts);
        }
        let pending = (here.open.len() + here.backlog.len()) as u64 + sent;
        let got = steps.exchange(worker, &mut out, [pending, u64::from(refused.is_some())])?;
        if got.totals[1] > 0 {
            // A worker could not list a position's moves: its own error there, `None` on
            // the others.
            return Err(Halt::Refused(refused));
        }
        let Counts {
            positions,
            most,
            moves,
            work,
        } = match here.take(&got.payloads) {
            Ok(counts) => counts,
            Err(why) => return Err(fail(why, steps, worker)),
        };
        tell("exploring", positions, 0);
        // The counts were taken before this step's options were met: the same on every
        // worker, and final once nothing is pending.
        if positions > game.max_positions as u64 {
            return Err(Halt::Refused(Some(ExploreError::TooManyPositions {
                limit: game.max_positions,
            })));
        }
        if work > game.max_work {
            return Err(Halt::Refused(Some(ExploreError::Budget(
                BudgetError::Work {
                    limit: game.max_work,
                },
            ))));
        }
        if moves > MAX_EDGES {
            return Err(Halt::Refused(Some(ExploreError::TooManyMoves {
                limit: MAX_EDGES,
            })));
        }
        if (most + 1).saturating_mul(peers) > MAX_VERTICES {
            return Err(Halt::Refused(Some(ExploreError::TooManyPositions {
                limit: (MAX_VERTICES / peers) as usize,
            })));
        }
        if got.totals[0] == 0 {
            break (positions, most, moves);
        }
    };
    let Frontier {
        ids, degree, preds, ..
    } = here;
    drop(ids);
    let mut share = Share::empty(most * peers, place.0, place.1);
    share.out_degree_mut()[..degree.len()].copy_from_slice(&degree);
    drop(degree);
    share.fill_from(&preds);
    Ok(Explored {
        share,
        vertices,
        edges,
    })
}

/// The start's answer as worker 0 learns it.
struct Start {
    value: Value,
    outcome: Outcome,
    remoteness: Option<u32>,
    /// Bytes sent between processes by all workers.
    bytes: u64,
}

/// The start's answer on worker 0;
/// `None` on the others. `start` is the start's global index (local 0 on its owner).
fn answer_of_start(
    share: &Share,
    local: &super::Local,
    start: u32,
    steps: &mut Steps,
    worker: &mut Worker,
) -> Result<Option<Start>, Stopped> {
    // Four words a message: 0 and the start's value, outcome, remoteness; or 1 and the
    // finite value of one of its options.
    let mut mine = Vec::new();
    let (owner, k) = share.locate(start);
    if share.mine(owner) {
        mine.extend([
            0,
            local.values[k],
            u32::from(local.outcomes[k]),
            local.remoteness[k],
        ]);
    }
    if !local.acyclic {
        for k in 0..share.len() {
            let x = local.values[k];
            if x != INFINITE && share.preds(k).contains(&start) {
                mine.extend([1, x, 0, 0]);
            }
        }
    }
    let mut out = steps.outboxes();
    out[0] = mine;
    let bytes = steps.bytes;
    let got = steps.exchange(worker, &mut out, [bytes, 0])?;
    if worker.index() != 0 {
        return Ok(None);
    }
    let mut start_answer = (0u32, Outcome::Draw, NO_REMOTENESS);
    let mut finite: Vec<Nimber> = Vec::new();
    for m in got.payloads.iter().flat_map(|w| w.chunks_exact(4)) {
        if m[0] == 0 {
            start_answer = (m[1], outcome_of(m[2]), m[3]);
        } else {
            finite.push(Nimber(u64::from(m[1])));
        }
    }
    let (x, outcome, remoteness) = start_answer;
    let value = if x == INFINITE {
        finite.sort_unstable();
        finite.dedup();
        Value::Infinite(finite)
    } else {
        Value::Finite(Nimber(u64::from(x)))
    };
    Ok(Some(Start {
        value,
        outcome,
        remoteness: (remoteness != NO_REMOTENESS).then_some(remoteness),
        bytes: got.totals[0],
    }))
}
