//! A game graph solved by many workers, in one process or in many: every vertex's
//! (generalised) Sprague–Grundy value, outcome and remoteness, equal to what
//! [`crate::graph::solve`] gives in one thread.
//!
//! Vertex `v` belongs to worker `v mod W` of the `W` workers of all processes; each worker
//! keeps, for its vertices, the out-degree and the predecessors (a reversed edge list of
//! about `E / W` entries), and the passes send what a vertex learns along its reversed edges
//! to the owners of its predecessors, in supersteps (a barrier of every worker):
//!
//! 1. **Acyclic values**: a vertex is decided when all its followers have reported (mex of
//!    their values, remoteness as in [`crate::graph::acyclic`]); if every vertex is decided
//!    the graph has no reachable cycle and the answer is complete.
//! 2. Otherwise **win / lose / draw** by levels of remoteness (retrograde analysis), and
//! 3. **Smith's generalised values** by the rounds of Fraenkel and Yesha.
//!
//! The results come back to worker 0 (process 0), which alone returns the
//! [`GraphSolution`]; sums of tokens and kernels, which need the whole graph, are then
//! computed there by the one-process code.
//!
//! Here every process reads the whole graph (the same file on a shared path, or the same
//! explored game) and keeps its share: the per-worker state is about `1/W` of the passes'
//! memory, but the graph itself is held once per process. A judge-format file can instead be
//! read in parts, each worker its byte range, so that no process holds the whole graph
//! ([`judge`]); so can an edge list, each name owned by the worker it hashes to ([`edges`]);
//! and a game can be explored in parts, each worker the positions it owns ([`explore`]).
//!
//! Cost: messages `O(E)` for passes 1 and 2 and `O(E)` a round for pass 3 (`g + 1` rounds for
//! a largest finite value `g`), 8 to 12 bytes each; steps: the longest path (pass 1), the
//! largest remoteness (pass 2), a few per round (pass 3), and one more each time a worker has
//! more than 2^20 messages to send at once. Each step is a barrier of all
//! workers, so a graph with very long paths across workers pays a round trip per step.

pub mod edges;
pub mod explore;
pub mod judge;
mod phases;
mod step;
mod words;

use super::{Cluster, ClusterError};
use crate::graph::{Csr, GraphSolution};
use crate::value::Outcome;
use phases::Share;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use step::{Steps, Stopped};
use timely::WorkerConfig;
use timely::worker::Worker;

/// Progress: the pass, vertices decided, vertices in all.
pub type Progress = Box<dyn FnMut(&str, u64, u64) + Send>;

/// What a distributed solve measured, besides the solution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SolveStats {
    /// Processes.
    pub processes: usize,
    /// Workers in all.
    pub workers: usize,
    /// Supersteps taken (each a barrier of every worker).
    pub steps: u64,
    /// Payload bytes sent between processes (within a process the batches are not
    /// serialised).
    pub bytes_between_processes: u64,
    /// Whether the graph had no reachable cycle (the acyclic pass decided every vertex).
    pub acyclic: bool,
    /// Milliseconds from the shares' making to the answers gathered, on worker 0.
    pub millis: u64,
}

impl SolveStats {
    /// The statistics of a run of `workers` in `processes` that began at `started` and
    /// ends now.
    pub(crate) fn since(
        processes: usize,
        workers: usize,
        steps: u64,
        bytes_between_processes: u64,
        acyclic: bool,
        started: std::time::Instant,
    ) -> Self {
        SolveStats {
            processes,
            workers,
            steps,
            bytes_between_processes,
            acyclic,
            millis: started.elapsed().as_millis() as u64,
        }
    }
}

/// The answer on process 0.
#[derive(Clone, Debug)]
pub struct DistributedSolution {
    /// Every vertex's value, outcome and remoteness.
    pub solution: GraphSolution,
    /// What the run measured.
    pub stats: SolveStats,
}

/// Solves `graph` with `workers` threads of this process. `cancel` stops every worker at
/// its next step ([`ClusterError::Interrupted`]); `progress` hears, from the first worker,
/// of each step.
pub fn solve_with_workers(
    graph: Arc<Csr>,
    workers: usize,
    cancel: Arc<AtomicBool>,
    progress: Progress,
) -> Result<DistributedSolution, ClusterError> {
    solve_with_workers_in_steps(graph, workers, step::PER_STEP, cancel, progress)
}

/// [`solve_with_workers`] with at most `per_step` messages a worker in one step of the
/// passes (at least 1; the default is 2^20): fewer hold less memory and take more steps.
pub fn solve_with_workers_in_steps(
    graph: Arc<Csr>,
    workers: usize,
    per_step: u64,
    cancel: Arc<AtomicBool>,
    progress: Progress,
) -> Result<DistributedSolution, ClusterError> {
    let setup = Setup::workers(workers, cancel)?;
    let answer = run(setup, graph, per_step.max(1), progress)?;
    answer.ok_or_else(|| ClusterError::Protocol("the first worker gave no answer".into()))
}

/// Runs this process's part of solving `graph` over `cluster` (every process passes the same
/// graph). Process 0 returns the solution, the others `None`. A peer that never comes up,
/// leaves or fails ends every process with an error; Ctrl-C (`cancel`) on any process stops
/// all of them at the next step.
pub fn solve_on_cluster(
    cluster: &Cluster,
    graph: Arc<Csr>,
    cancel: Arc<AtomicBool>,
    progress: Progress,
) -> Result<Option<DistributedSolution>, ClusterError> {
    run(
        Setup::cluster(cluster, cancel)?,
        graph,
        step::PER_STEP,
        progress,
    )
}

/// Where the workers run: timely's allocators, the processes and workers of each, the stop
/// flag.
struct Setup {
    builders: Vec<timely::communication::allocator::AllocatorBuilder>,
    others: Box<dyn std::any::Any + Send>,
    processes: usize,
    per_process: usize,
    cancel: Arc<AtomicBool>,
}

impl Setup {
    /// `workers` threads of this process.
    fn workers(workers: usize, cancel: Arc<AtomicBool>) -> Result<Setup, ClusterError> {
        let workers = workers.clamp(1, 256);
        let config = timely::Config {
            communication: timely::CommunicationConfig::Process(workers),
            worker: WorkerConfig::default(),
        };
        let (builders, others) = config
            .communication
            .try_build()
            .map_err(ClusterError::Protocol)?;
        Ok(Setup {
            builders,
            others,
            processes: 1,
            per_process: workers,
            cancel,
        })
    }

    /// This process's workers in `cluster`.
    fn cluster(cluster: &Cluster, cancel: Arc<AtomicBool>) -> Result<Setup, ClusterError> {
        let (builders, others) = cluster.allocators()?;
        Ok(Setup {
            builders,
            others,
            processes: cluster.processes(),
            per_process: cluster.workers(),
            cancel,
        })
    }
}

/// The workers' common part: share, passes, results gathered on worker 0.
fn run(
    setup: Setup,
    graph: Arc<Csr>,
    per_step: u64,
    progress: Progress,
) -> Result<Option<DistributedSolution>, ClusterError> {
    let processes = setup.processes;
    let mine = Fingerprint::of(&graph);
    let work = move |steps: &mut Steps, worker: &mut Worker, tell: &mut Tell<'_>| {
        let started = std::time::Instant::now();
        steps.per_step = per_step;
        mine.compare(steps, worker)?;
        let share = Share::of(&graph, worker.index(), worker.peers());
        let local = passes(&share, steps, worker, tell)?;
        let mut answer = gather(&share, local, steps, worker, processes)?;
        if let Some(a) = answer.as_mut() {
            a.stats.millis = started.elapsed().as_millis() as u64;
        }
        Ok(answer)
    };
    let bad = || ClusterError::Protocol("a worker found bad input in a loaded graph".into());
    execute(setup, progress, work, bad)
}

/// Progress as a worker tells it: the first worker's calls reach the caller's [`Progress`].
type Tell<'a> = dyn FnMut(&str, u64, u64) + 'a;

/// Runs `work` on every worker with its supersteps, and gathers the answer of worker 0 (the
/// others return `None`); a stop, a failed check or a broken connection on any worker is the
/// error of all; `bad_input` says what a worker's [`Halt::BadInput`] means.
fn execute<T: Send + 'static>(
    setup: Setup,
    progress: Progress,
    work: impl Fn(&mut Steps, &mut Worker, &mut Tell<'_>) -> Result<Option<T>, Halt>
    + Send
    + Sync
    + 'static,
    bad_input: impl FnOnce() -> ClusterError,
) -> Result<Option<T>, ClusterError> {
    let Setup {
        builders,
        others,
        processes,
        per_process,
        cancel,
    } = setup;
    let progress = Mutex::new(progress);
    let each = move |worker: &mut Worker| -> Result<Option<T>, Halt> {
        let mut steps = Steps::new(worker, per_process, Arc::clone(&cancel));
        let first = worker.index() == 0;
        let mut tell = |pass: &str, done: u64, total: u64| {
            if first {
                let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
                p(pass, done, total);
            }
        };
        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            work(&mut steps, worker, &mut tell)
        }));
        let answer = match done {
            Ok(answer) => answer?,
            Err(payload) => {
                // The others wait for this worker's batches of the step it was in (or have
                // ended): one more exchange, flagged, stops them all.
                steps.fail();
                let mut out = steps.outboxes();
                let _ = steps.exchange(worker, &mut out, [0, 0]);
                return Err(Halt::Failed(Some(panic_message(payload.as_ref()))));
            }
        };
        steps.close(worker);
        Ok(answer)
    };
    let guards = timely::execute::execute_from(builders, others, WorkerConfig::default(), each)
        .map_err(ClusterError::Peer)?;
    let joined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || guards.join()));
    let broken = if processes > 1 {
        "a connection to another process broke (it stopped or its machine went away)"
    } else {
        "a worker thread failed"
    };
    let results = joined.map_err(|_| ClusterError::Peer(broken.into()))?;
    // The failed worker's own message first: the others only saw it stop.
    for r in &results {
        match r {
            Ok(Err(Halt::Failed(Some(why)))) => {
                return Err(ClusterError::Peer(format!("a worker failed: {why}")));
            }
            Ok(Err(Halt::Refused(Some(e)))) => return Err(ClusterError::Explore(e.clone())),
            _ => {}
        }
    }
    let mut answer = None;
    for r in results {
        match r {
            Ok(Ok(Some(a))) => answer = Some(a),
            Ok(Ok(None)) => {}
            Ok(Err(Halt::Stopped)) => return Err(ClusterError::Interrupted),
            Ok(Err(Halt::Different(why))) => return Err(ClusterError::Protocol(why)),
            Ok(Err(Halt::BadInput)) => return Err(bad_input()),
            Ok(Err(Halt::Refused(_))) => {
                return Err(ClusterError::Peer(
                    "a worker of another process could not list a position's moves (that \
                     process says why)"
                        .into(),
                ));
            }
            Ok(Err(Halt::Failed(_))) => {
                return Err(ClusterError::Peer(
                    "another worker failed (the process that holds it says why)".into(),
                ));
            }
            Err(_) => return Err(ClusterError::Peer(format!("a worker stopped: {broken}"))),
        }
    }
    Ok(answer)
}

/// Why a worker ended without an answer.
enum Halt {
    /// A stop was asked (every worker sees it at the same step).
    Stopped,
    /// The processes did not all load the same graph.
    Different(String),
    /// A worker found a malformed number in its part of the input (every worker stops).
    BadInput,
    /// A worker panicked (a bug): its message on that worker, `None` on those it stopped.
    Failed(Option<String>),
    /// A game could not be explored (a limit, or a position whose moves could not be
    /// listed): the error, on every worker that knows it; `None` on the others.
    Refused(Option<crate::graph::explore::ExploreError>),
}

impl From<Stopped> for Halt {
    fn from(stopped: Stopped) -> Halt {
        if stopped.failed {
            Halt::Failed(None)
        } else {
            Halt::Stopped
        }
    }
}

/// What a panic said.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_owned()
    }
}

/// Every worker sees every process's `mine` (a hash of what it was given): all stop alike,
/// with `differ(other, first)`, if one differs from process 0's.
fn agree(
    mine: u64,
    steps: &mut Steps,
    worker: &mut Worker,
    differ: impl Fn(u32, u32) -> String,
) -> Result<(), Halt> {
    let mut out = steps.outboxes();
    for batch in &mut out {
        batch.extend([steps.process() as u32, mine as u32, (mine >> 32) as u32]);
    }
    let got = steps.exchange(worker, &mut out, [0, 0])?;
    let mut seen: Vec<(u32, u64)> = got
        .payloads
        .iter()
        .flat_map(|words| words.chunks_exact(3))
        .map(|w| (w[0], u64::from(w[1]) | (u64::from(w[2]) << 32)))
        .collect();
    seen.sort_unstable();
    let Some(&(first, expected)) = seen.first() else {
        return Ok(());
    };
    match seen.iter().find(|(_, f)| *f != expected) {
        None => Ok(()),
        Some(&(other, _)) => Err(Halt::Different(differ(other, first))),
    }
}

/// What every process checks first: that all of them loaded the same graph (its size and a
/// hash of its edges), since each solves its share of its own copy.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Fingerprint {
    vertices: u32,
    edges: u32,
    hash: u64,
}

impl Fingerprint {
    fn of(graph: &Csr) -> Fingerprint {
        let mix = |h: u64, x: u32| crate::hash::mix(h, u64::from(x));
        let hash = graph.offsets().iter().fold(0u64, |h, &x| mix(h, x));
        Fingerprint {
            vertices: graph.vertex_count() as u32,
            edges: graph.edge_count() as u32,
            hash: graph.targets().iter().fold(hash, |h, &x| mix(h, x)),
        }
    }

    /// Sends this process's fingerprint to every worker and compares them all: every worker
    /// sees every fingerprint, so all stop alike, with the same message, if one differs.
    fn compare(self, steps: &mut Steps, worker: &mut Worker) -> Result<(), Halt> {
        let words = [
            steps.process() as u32,
            self.vertices,
            self.edges,
            self.hash as u32,
            (self.hash >> 32) as u32,
        ];
        let mut out = steps.outboxes();
        for batch in &mut out {
            batch.extend(words);
        }
        let got = steps.exchange(worker, &mut out, [0, 0])?;
        let mut seen: Vec<(u32, Fingerprint)> = got
            .payloads
            .iter()
            .flat_map(|words| words.chunks_exact(5))
            .map(|w| {
                let hash = u64::from(w[3]) | (u64::from(w[4]) << 32);
                (
                    w[0],
                    Fingerprint {
                        vertices: w[1],
                        edges: w[2],
                        hash,
                    },
                )
            })
            .collect();
        seen.sort_unstable_by_key(|&(p, _)| p);
        let Some(&(first, expected)) = seen.first() else {
            return Ok(());
        };
        match seen.iter().find(|(_, f)| *f != expected) {
            None => Ok(()),
            Some(&(other, f)) => Err(Halt::Different(format!(
                "process {other} loaded another graph ({} vertices, {} edges{}) than process \
                 {first} ({} vertices, {} edges): every process needs the same input",
                f.vertices,
                f.edges,
                if (f.vertices, f.edges) == (expected.vertices, expected.edges) {
                    ", other edges"
                } else {
                    ""
                },
                expected.vertices,
                expected.edges,
            ))),
        }
    }
}

/// What the passes found for one worker's vertices.
struct Local {
    /// Whether the graph has no reachable cycle (the same on every worker).
    acyclic: bool,
    /// Values (`INFINITE` for `∞`).
    values: Vec<u32>,
    /// Outcomes (0 P, 1 N, 2 draw).
    outcomes: Vec<u8>,
    remoteness: Vec<u32>,
}

/// The passes on one worker's share.
fn passes(
    share: &Share,
    steps: &mut Steps,
    worker: &mut Worker,
    progress: &mut Tell<'_>,
) -> Result<Local, Stopped> {
    let first = phases::acyclic(share, steps, worker, progress)?;
    // Every worker read the same totals: all take the same branch.
    if first.complete {
        let outcomes = first.values.iter().map(|&x| u8::from(x != 0)).collect();
        return Ok(Local {
            acyclic: true,
            values: first.values,
            outcomes,
            remoteness: first.remoteness,
        });
    }
    drop(first);
    let (outcomes, remoteness) = phases::win_lose_draw(share, steps, worker, progress)?;
    let values = phases::generalized(share, steps, worker, progress)?;
    let outcomes = outcomes.iter().map(|&o| words::outcome_word(o)).collect();
    Ok(Local {
        acyclic: false,
        values,
        outcomes,
        remoteness,
    })
}

/// Every vertex's answer gathered on worker 0.
fn gather(
    share: &Share,
    local: Local,
    steps: &mut Steps,
    worker: &mut Worker,
    processes: usize,
) -> Result<Option<DistributedSolution>, Stopped> {
    let acyclic = local.acyclic;
    // Four words a vertex: index, value, outcome (0 P, 1 N, 2 draw), remoteness.
    let mut mine: Vec<u32> = Vec::with_capacity(4 * share.len());
    for k in 0..share.len() {
        mine.extend([
            share.global(k),
            local.values[k],
            u32::from(local.outcomes[k]),
            local.remoteness[k],
        ]);
    }
    drop(local);
    let mut out = steps.outboxes();
    out[0] = mine;
    let bytes = steps.bytes;
    let got = steps.exchange(worker, &mut out, [bytes, 0])?;
    if worker.index() != 0 {
        return Ok(None);
    }
    let n = share.total as usize;
    let mut values = vec![0u32; n];
    let mut outcomes = vec![Outcome::Draw; n];
    let mut remoteness = vec![0u32; n];
    for words in &got.payloads {
        for m in words.chunks_exact(4) {
            let v = m[0] as usize;
            values[v] = m[1];
            outcomes[v] = words::outcome_of(m[2]);
            remoteness[v] = m[3];
        }
    }
    let stats = SolveStats {
        processes,
        workers: worker.peers(),
        steps: steps.steps,
        bytes_between_processes: got.totals[0],
        acyclic,
        millis: 0,
    };
    Ok(Some(DistributedSolution {
        solution: GraphSolution::from_parts(acyclic, values, outcomes, remoteness),
        stats,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// Runs `work` on 3 workers of this process, in a thread given a minute.
    fn three<T: Send + 'static>(
        work: impl Fn(&mut Steps, &mut Worker, &mut Tell<'_>) -> Result<Option<T>, Halt>
        + Send
        + Sync
        + 'static,
    ) -> Result<Option<T>, ClusterError> {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let setup = Setup::workers(3, Arc::new(AtomicBool::new(false))).unwrap();
            let got = execute(setup, Box::new(|_: &str, _: u64, _: u64| {}), work, || {
                ClusterError::Protocol("bad input".into())
            });
            let _ = tx.send(got);
        });
        rx.recv_timeout(Duration::from_secs(60))
            .expect("the workers did not stop within a minute")
    }

    #[test]
    fn a_worker_that_panics_stops_every_worker_with_its_message() {
        for at in [0u32, 5] {
            // The steps the other workers took: they stop in the step the failed one was in.
            let taken = Arc::new(std::sync::atomic::AtomicU32::new(0));
            let seen = Arc::clone(&taken);
            let got = three(move |steps, worker, _| {
                for round in 0..1000u32 {
                    if worker.index() == 1 && round == at {
                        panic!("a bug in round {round}");
                    }
                    let mut out = steps.outboxes();
                    steps.exchange(worker, &mut out, [0, 0])?;
                    seen.fetch_max(round + 1, std::sync::atomic::Ordering::Relaxed);
                }
                Ok(Some(worker.index()))
            });
            match got {
                Err(ClusterError::Peer(why)) => {
                    assert_eq!(why, format!("a worker failed: a bug in round {at}"));
                }
                other => panic!("{other:?}"),
            }
            assert_eq!(taken.load(std::sync::atomic::Ordering::Relaxed), at);
        }
    }

    #[test]
    fn a_worker_that_panics_after_the_last_step_still_ends_the_run() {
        let got = three(|steps, worker, _| {
            let mut out = steps.outboxes();
            steps.exchange(worker, &mut out, [0, 0])?;
            if worker.index() == 0 {
                panic!("after the steps");
            }
            Ok(None::<()>)
        });
        assert!(
            matches!(&got, Err(ClusterError::Peer(why)) if why.ends_with("after the steps")),
            "{got:?}"
        );
    }

    #[test]
    fn a_payload_longer_than_a_batch_arrives_whole() {
        let got = three(|steps, worker, _| {
            let me = worker.index() as u32;
            let len = step::CHUNK * 2 + 7;
            let mut out = steps.outboxes();
            out[0] = (0..len as u32).map(|i| i.wrapping_mul(3) ^ me).collect();
            out[1] = vec![me; 5];
            let got = steps.exchange(worker, &mut out, [1, 0])?;
            let expected: Vec<Vec<u32>> = match worker.index() {
                0 => (0..3u32)
                    .map(|w| (0..len as u32).map(|i| i.wrapping_mul(3) ^ w).collect())
                    .collect(),
                1 => (0..3u32).map(|w| vec![w; 5]).collect(),
                _ => Vec::new(),
            };
            let mut payloads = got.payloads;
            payloads.sort_unstable_by_key(|p| (p.len(), p.first().copied()));
            // A worker whose payloads differ fails the run (it panics).
            assert_eq!(got.totals, [3, 0]);
            assert!(
                payloads == expected,
                "worker {me}: the payloads came back otherwise"
            );
            Ok((me == 0).then_some(()))
        });
        assert_eq!(got.unwrap(), Some(()));
    }

    #[test]
    fn workers_that_do_not_fail_answer() {
        let got = three(|steps, worker, _| {
            let mut out = steps.outboxes();
            let got = steps.exchange(worker, &mut out, [worker.index() as u64 + 1, 0])?;
            Ok((worker.index() == 0).then_some(got.totals[0]))
        });
        assert_eq!(got.unwrap(), Some(6));
    }
}
