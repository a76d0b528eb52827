//! A census spread over the processes of a cluster.
//!
//! One dataflow: process 0's first worker plans the census from its database (what is known
//! is skipped, as in one process) and sends the games, numbered; game i goes to worker
//! i mod W of the W workers of all processes; each worker computes its games with the same
//! code as a one-process census ([`crate::atlas::census()`]); the results are exchanged to
//! process 0's first worker, which writes each game in its own transaction as it arrives.
//! The other processes never open a database: they need only the hosts file and the binary.
//!
//! The results are those of a one-process census of the same games (the same engines, the
//! same rows); only `seconds` and the times written differ. Communication is one message
//! per game each way (its name out, its row, checksums and quotient back), a few hundred
//! bytes: the census's cost is the games, not the network.

use super::{Cluster, ClusterError};
use crate::atlas::census::{Done, Task, finish, plan, record, work};
use crate::atlas::{Atlas, CensusEvent, CensusOptions, CensusSummary};
use crate::heap::rules::HeapRule;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use timely::WorkerConfig;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::vec::Map;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

/// A game sent to a worker: its number, its name, whether its sequence and which quotient
/// are wanted.
type Job = (u64, String, bool, Option<u64>);

/// What a census run by one process of the cluster gives: process 0 the summary, the others
/// `None`.
pub type Outcome = Option<CensusSummary>;

/// Runs this process's part of a census of `patterns` spread over `cluster`. Process 0
/// opens (or creates) the atlas at `db`, plans the census, writes every result and returns
/// its summary; the others compute their share and return `None`. `cancel` stops this
/// process's games (the game in flight is dropped); process 0 records the run as
/// interrupted. `progress` hears, on process 0, of the plan and of each game written.
pub fn distributed_census(
    cluster: &Cluster,
    db: PathBuf,
    patterns: Vec<String>,
    options: CensusOptions,
    cancel: Arc<AtomicBool>,
    progress: Box<dyn FnMut(CensusEvent<'_>) + Send>,
) -> Result<Outcome, ClusterError> {
    let (builders, comms) = cluster.allocators()?;
    let progress = std::sync::Mutex::new(progress);
    // Process 0's run and its counts so far, to end the run as failed if a peer breaks the
    // cluster (the worker that held the atlas is gone by then).
    let ledger: Arc<Mutex<Option<Ledger>>> = Arc::default();
    let written = Arc::clone(&ledger);
    let own_db = db.clone();
    let run = move |worker: &mut timely::worker::Worker| {
        let index = worker.index();
        let peers = worker.peers() as u64;
        let mut input: InputHandle<u64, CapacityContainerBuilder<Vec<Job>>> = InputHandle::new();
        let probe = ProbeHandle::new();
        let arrived: Rc<RefCell<Vec<Done>>> = Rc::new(RefCell::new(Vec::new()));
        let sink = Rc::clone(&arrived);
        let stopped = {
            let cancel = Arc::clone(&cancel);
            move || cancel.load(Ordering::Relaxed)
        };
        let per_game = options.clone();
        let quotient_cancel = Arc::clone(&cancel);
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .container::<Vec<Job>>()
                .exchange(move |job: &Job| job.0 % peers)
                .flat_map(move |(_, code, game, misere): Job| {
                    let rule = HeapRule::parse(&code).ok()?;
                    let task = Task { rule, game, misere };
                    work(&task, &per_game, &stopped, &quotient_cancel)
                })
                .exchange(|_: &Done| 0)
                .inspect(move |done: &Done| sink.borrow_mut().push(done.clone()))
                .probe_with(&probe);
        });
        if index != 0 {
            drop(input);
            while !probe.done() {
                worker.step_or_park(Some(Duration::from_millis(100)));
            }
            return None;
        }
        // Process 0, worker 0: plan, send the games, write the results as they arrive.
        let mut progress = progress.lock().unwrap_or_else(|e| e.into_inner());
        let result = (|| {
            let mut atlas = Atlas::create_or_open(&db)?;
            let planned = plan(&mut atlas, &patterns, &options, &mut **progress)?;
            let to_compute = planned.todo.len() as u64;
            let jobs: Vec<Job> = planned
                .todo
                .iter()
                .enumerate()
                .map(|(i, task)| {
                    (
                        i as u64,
                        task.rule.name().to_string(),
                        task.game,
                        task.misere,
                    )
                })
                .collect();
            // Rounds of one game a worker, at most two in flight: a worker returns to its
            // loop (and notices a peer that left) after at most two games.
            let rounds: Vec<&[Job]> = jobs.chunks(peers as usize).collect();
            let mut input = Some(input);
            let (mut sent, mut passed) = (0usize, 0usize);
            let mut summary = planned.summary;
            let mut done = 0u64;
            let mut failure = None;
            let note = |summary: &CensusSummary| {
                if let Ok(mut l) = written.lock() {
                    *l = Some((summary.run_id, counts(summary)));
                }
            };
            note(&summary);
            loop {
                while let Some(handle) = input.as_mut() {
                    // Stopped: no more games go out; those in flight elsewhere come back
                    // and are written, and the run ends as interrupted.
                    if sent == rounds.len() || cancel.load(Ordering::Relaxed) {
                        input = None;
                    } else if sent < passed + 2 {
                        for job in rounds[sent] {
                            handle.send(job.clone());
                        }
                        sent += 1;
                        handle.advance_to(sent as u64);
                    } else {
                        break;
                    }
                }
                let finished = probe.done();
                let batch: Vec<Done> = arrived.borrow_mut().drain(..).collect();
                for result in batch {
                    if failure.is_some() {
                        break;
                    }
                    match record(&mut atlas, &mut summary, result) {
                        Ok(event) => {
                            done += 1;
                            progress(event.with_progress(done, to_compute));
                            note(&summary);
                        }
                        Err(e) => failure = Some(e),
                    }
                }
                if finished {
                    break;
                }
                while passed < sent && !probe.less_than(&(passed as u64 + 1)) {
                    passed += 1;
                }
                worker.step_or_park(Some(Duration::from_millis(100)));
            }
            finish(
                &mut atlas,
                summary,
                failure,
                done,
                to_compute,
                planned.started,
            )
        })();
        // The run is ended (or its end failed with the error returned): nothing to mend.
        if let Ok(mut l) = written.lock() {
            *l = None;
        }
        Some(result)
    };
    let guards = timely::execute::execute_from(builders, comms, WorkerConfig::default(), run)
        .map_err(ClusterError::Peer)?;
    // A peer that failed or left makes timely's threads panic, in the workers or when the
    // connection threads are joined: caught here, and reported as the run's end.
    let joined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || guards.join()));
    let broken = |why: &str| {
        end_as_failed(&own_db, &ledger);
        ClusterError::Peer(why.into())
    };
    let results = joined.map_err(|_| {
        broken("a connection to another process broke (it stopped or its machine went away)")
    })?;
    let mut outcome = None;
    for r in results {
        match r {
            Ok(Some(summary)) => outcome = Some(summary?),
            Ok(None) => {}
            Err(_) => {
                return Err(broken(
                    "a worker stopped: a connection to another process broke (it stopped or \
                     its machine went away)",
                ));
            }
        }
    }
    Ok(outcome)
}

/// A run's id and its counts (games, computed, skipped, refused).
type Ledger = (i64, [u64; 4]);

fn counts(s: &CensusSummary) -> [u64; 4] {
    [s.games, s.computed, s.skipped, s.refused]
}

/// Ends process 0's run as failed after a peer broke the cluster, so that the runs table
/// does not show it running. Every game written stays; a failure here changes nothing more.
fn end_as_failed(db: &std::path::Path, ledger: &Mutex<Option<Ledger>>) {
    let Some((run, counts)) = ledger.lock().ok().and_then(|l| *l) else {
        return;
    };
    if let Ok(mut atlas) = Atlas::create_or_open(db) {
        let _ = atlas.end_run(run, "failed", counts);
        let _ = atlas.set_journal(false);
    }
}
