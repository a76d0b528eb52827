//! Supersteps over timely: every worker sends one batch to every worker, then all wait until
//! every batch of the step has arrived (the probe passes the step's epoch).
//!
//! A batch carries a payload of `u32` words (the phase says how many make a message) and two
//! counts and a stop flag; the counts are summed and the largest flag kept over all workers, so
//! every worker reads the same totals after a step and takes the same decision (go on, next phase,
//! stop). A payload longer than [`CHUNK`] words goes in several batches, joined again on
//! arrival: a worker receives one payload from each worker that sent it words, whole.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

/// A batch: the worker it goes to, its step, two counts, the stop flag ([`GO_ON`], [`ASKED`]
/// or [`FAILED`]), the worker it comes from and the piece's number (a payload cut in pieces
/// is joined again in order), the payload. The step is needed because a faster worker's
/// batches of the next step may arrive before this worker has taken those of the step just
/// ended.
type Batch = (u32, u64, [u64; 2], u8, (u32, u32), Vec<u32>);

/// The stop flags, the largest of a step wins.
const GO_ON: u8 = 0;
const ASKED: u8 = 1;
const FAILED: u8 = 2;

/// The most words in one batch (15 MiB): a longer payload is sent in pieces.
pub(super) const CHUNK: usize = 60 << 16;

/// Messages a worker sends in one step of a pass, by default ([`Steps::per_step`]): a
/// cascade that has more to tell pauses and goes on after the step, so a step's outboxes,
/// the batches in transit and the inbox stay within tens of mebibytes. The bound is checked
/// before each vertex tells its predecessors, so a step may carry one vertex's list more.
pub(super) const PER_STEP: u64 = 1 << 20;

/// A worker asked to stop (its own Ctrl-C or another's) or failed: every worker sees it in
/// the same step.
#[derive(Debug)]
pub(super) struct Stopped {
    /// Whether a worker failed (rather than a stop asked for).
    pub failed: bool,
}

/// What a step brought: the payloads received and the totals over all workers.
pub(super) struct Received {
    pub payloads: Vec<Vec<u32>>,
    pub totals: [u64; 2],
}

/// One worker's end of the supersteps.
pub(super) struct Steps {
    input: InputHandle<u64, CapacityContainerBuilder<Vec<Batch>>>,
    probe: ProbeHandle<u64>,
    inbox: Rc<RefCell<Vec<Batch>>>,
    epoch: u64,
    index: usize,
    peers: usize,
    /// Workers in each process (timely numbers the workers process by process).
    per_process: usize,
    cancel: Arc<AtomicBool>,
    /// Payload bytes sent to workers of other processes.
    pub bytes: u64,
    /// Supersteps taken.
    pub steps: u64,
    /// Messages a worker sends in one step of a pass ([`PER_STEP`] unless set).
    pub per_step: u64,
    /// Whether this worker failed: its next step tells every worker to stop.
    failed: bool,
}

impl Steps {
    /// Builds the dataflow in `worker`.
    pub fn new(worker: &mut Worker, per_process: usize, cancel: Arc<AtomicBool>) -> Steps {
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let inbox: Rc<RefCell<Vec<Batch>>> = Rc::default();
        let sink = Rc::clone(&inbox);
        worker.dataflow::<u64, _, _>(|scope| {
            // Batches go to the worker they name and are moved into its inbox; the probe
            // after that operator passes a step once every batch of it is in an inbox.
            scope
                .input_from(&mut input)
                .container::<Vec<Batch>>()
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|batch: &Batch| u64::from(batch.0)),
                    "inbox",
                    move |_, _| {
                        move |input, _| {
                            input.for_each(|_, batches| sink.borrow_mut().append(batches));
                        }
                    },
                )
                .probe_with(&probe);
        });
        Steps {
            input,
            probe,
            inbox,
            epoch: 0,
            index: worker.index(),
            peers: worker.peers(),
            per_process: per_process.max(1),
            cancel,
            bytes: 0,
            steps: 0,
            per_step: PER_STEP,
            failed: false,
        }
    }

    /// Sends `out[w]` to worker `w` with this worker's `counts`, and waits for the step to
    /// end everywhere. `out` is left empty for the next step.
    pub fn exchange(
        &mut self,
        worker: &mut Worker,
        out: &mut [Vec<u32>],
        counts: [u64; 2],
    ) -> Result<Received, Stopped> {
        let stop = if self.failed {
            FAILED
        } else if self.cancel.load(Ordering::Relaxed) {
            ASKED
        } else {
            GO_ON
        };
        let process = self.index / self.per_process;
        for (to, words) in out.iter_mut().enumerate() {
            if to / self.per_process != process {
                self.bytes += 4 * words.len() as u64;
            }
            let words = std::mem::take(words);
            let (dest, from) = (to as u32, self.index as u32);
            if words.len() <= CHUNK {
                self.input
                    .send((dest, self.epoch, counts, stop, (from, 0), words));
            } else {
                let mut pieces = words.chunks(CHUNK).enumerate().peekable();
                while let Some((i, piece)) = pieces.next() {
                    let last = pieces.peek().is_none();
                    let (c, s) = if last {
                        (counts, stop)
                    } else {
                        ([0; 2], GO_ON)
                    };
                    let tag = (from, i as u32);
                    self.input
                        .send((dest, self.epoch, c, s, tag, piece.to_vec()));
                }
            }
        }
        let this = self.epoch;
        self.epoch += 1;
        self.steps += 1;
        self.input.advance_to(self.epoch);
        while self.probe.less_than(&self.epoch) {
            worker.step_or_park(Some(Duration::from_millis(50)));
        }
        let mut batches: Vec<Batch> = {
            let mut inbox = self.inbox.borrow_mut();
            let (now, later) = inbox.drain(..).partition(|b| b.1 == this);
            *inbox = later;
            now
        };
        // The pieces of one sender's payload, in order, joined again.
        batches.sort_unstable_by_key(|b| b.4);
        let mut totals = [0u64; 2];
        let mut stopped = GO_ON;
        let mut payloads: Vec<Vec<u32>> = Vec::with_capacity(batches.len());
        let mut last_from = None;
        for (_, _, c, s, (from, piece), words) in batches {
            totals[0] += c[0];
            totals[1] += c[1];
            stopped = stopped.max(s);
            if piece > 0 && last_from == Some(from) {
                if let Some(joined) = payloads.last_mut() {
                    joined.extend_from_slice(&words);
                }
            } else if !words.is_empty() {
                payloads.push(words);
                last_from = Some(from);
            }
        }
        if stopped != GO_ON {
            return Err(Stopped {
                failed: stopped == FAILED,
            });
        }
        Ok(Received { payloads, totals })
    }

    /// Marks this worker failed (it panicked): its next exchange, with whatever it holds,
    /// stops every worker at the step they wait in.
    pub fn fail(&mut self) {
        self.failed = true;
    }

    /// This worker's process.
    pub fn process(&self) -> usize {
        self.index / self.per_process
    }

    /// Whether this process was asked to stop (checked in long local loops, which then end
    /// early: the next exchange stops every worker).
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The stop flag (Ctrl-C) this worker's steps look at.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// An empty batch for every worker.
    pub fn outboxes(&self) -> Vec<Vec<u32>> {
        vec![Vec::new(); self.peers]
    }

    /// Ends the dataflow: no more steps.
    pub fn close(self, worker: &mut Worker) {
        let Steps { input, probe, .. } = self;
        drop(input);
        while !probe.done() {
            worker.step_or_park(Some(Duration::from_millis(50)));
        }
    }
}
