//! The domain engine on two cores: the far marks of the next block filled on a helper
//! thread while the current block is computed (module docs of [`super`] and [`super::far`]).
//!
//! At the start of block `[S, S + B)` the main side collects the marks the helper filled
//! for it (posted at the start of the block before, from the values below `S − B`), brings
//! the helper's byte copy of the values and of the rare list up to `S` (one block of values
//! and the rare positions met in it), and posts the job of block `S + B`. The marks are the
//! same pairs in every arrangement (a rare pair is far in the helper's marks or near, heap by
//! heap), so the values are the same bit for bit. A block never waits long: if the marks are
//! not ready within [`PATIENCE`] (on a loaded machine the helper may have no core), the block
//! fills its own and the late result is dropped; when a quarter of the jobs of a round of
//! [`ROUND`] come late, the helper rests for [`PAUSE`] blocks. A job that panics ends the
//! helper thread and the computation returns
//! [`HelperFailed`](crate::heap::helper::HelperFailed) as an error (never a hang: the
//! helper's slot says so at once).

use super::DomainSequence;
use super::far::{self, BLOCK, Block, FarJob};
use crate::heap::engine::SequenceError;
use crate::heap::helper::Helper;
use std::time::Duration;

/// Whether the far marks of the next block are filled on a second core.
///
/// Off by default: on the shared 2-core machine at load 5 (no core idle) the second core
/// made the domain engine slower, not faster (0.205 to `2^22`: 1.4x the wall time and 1.6x
/// the CPU time of one core, the helper's hand-overs and its spinning taking the time the
/// main side saves; 0.205's far pairs are some 65 a heap, cheap byte stores). The values
/// are the same either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pipeline {
    /// One core.
    #[default]
    Off,
    /// A second core for calls that compute at least [`PIPELINE_FROM`] values, when the
    /// thread pool has more than one thread (`RAYON_NUM_THREADS=1` means one); a block
    /// whose marks are late fills its own.
    On,
    /// A second core for every call, and every block waits for the helper's marks however
    /// late they come (tests: every block but the first of a call takes its far marks from
    /// the helper thread).
    Patient,
}

/// [`Pipeline::On`] uses the second core for calls computing at least this many values.
pub const PIPELINE_FROM: usize = 1 << 15;
/// One block in this many is a probe block (no window).
const PROBE_EVERY: usize = 64;
/// The window is used while a probe block's scan looks at this many splits a heap or more.
const WINDOW_FROM: usize = 64;
/// How long a block waits for the marks the helper fills for it before filling its own.
const PATIENCE: Duration = Duration::from_micros(2);
/// Jobs between two looks at how many came late.
const ROUND: u32 = 64;
/// Blocks computed alone when more than a quarter of a round came late.
const PAUSE: u32 = 1024;

/// The helper thread and its state.
#[derive(Debug, Default)]
pub(super) struct Second {
    helper: Option<Helper<Box<FarJob>, Box<FarJob>>>,
    tried: bool,
    /// The helper's state while no job is posted.
    job: Option<Box<FarJob>>,
    /// The posted job is for a block already filled without it (it came late).
    stale: bool,
    /// Jobs collected in the current round, and how many came late.
    collected: u32,
    late: u32,
    /// Blocks to go without the helper.
    pause: u32,
    /// Tests: the job posted after this many is told to panic.
    pub(super) fail_after: Option<u64>,
    posted: u64,
    /// Jobs whose marks were used, and jobs that came late (all calls).
    pub(super) used: u64,
    pub(super) dropped: u64,
}

impl Clone for Second {
    fn clone(&self) -> Self {
        // A clone starts its own thread when it needs one.
        Second {
            fail_after: self.fail_after,
            ..Second::default()
        }
    }
}

impl Second {
    /// Whether the helper runs (starting it the first time it is wanted).
    fn ready(&mut self) -> bool {
        if !self.tried {
            self.tried = true;
            self.helper = Helper::start_named("grundy-domain-helper", FarJob::run);
        }
        self.helper.is_some()
    }

    /// Counts a job collected in time or late; rests the helper after a bad round.
    fn count(&mut self, late: bool) {
        if late {
            self.dropped += 1;
        } else {
            self.used += 1;
        }
        self.collected += 1;
        self.late += u32::from(late);
        if self.collected == ROUND {
            if self.late * 4 > ROUND {
                self.pause = PAUSE;
            }
            self.collected = 0;
            self.late = 0;
        }
    }
}

impl DomainSequence {
    /// Blocks whose far marks the helper thread filled in time, and blocks that filled
    /// their own because the helper's came late.
    pub fn pipeline_blocks(&self) -> (u64, u64) {
        (self.second.used, self.second.dropped)
    }

    /// Whether a call computing `count` values uses the second core.
    pub(super) fn wants_pipeline(&self, count: usize) -> bool {
        match self.pipeline {
            Pipeline::Patient => true,
            Pipeline::Off => false,
            Pipeline::On => count >= PIPELINE_FROM && rayon::current_num_threads() > 1,
        }
    }

    /// Starts the block at heap `s` (every value so far below 128): its far marks from the
    /// helper when they are ready, else filled here; then, with `pipelined` and heaps to go
    /// past the block (`target`), posts the next block's job.
    pub(super) fn start_block(
        &mut self,
        s: usize,
        block: &mut Block,
        pipelined: bool,
        target: usize,
    ) -> Result<(), SequenceError> {
        self.probe(s);
        let mut ready = false;
        if let Some(helper) = self.second.helper.as_mut().filter(|h| h.pending()) {
            if self.second.stale {
                // The late job of an earlier block: take the state back when it is done (drop
                // the marks), without waiting for it (the helper may have no core).
                if let Some(result) = helper.try_collect_within(Duration::ZERO) {
                    self.second.job = Some(result.map_err(SequenceError::engine)?);
                    self.second.stale = false;
                }
            } else {
                let result = if self.pipeline == Pipeline::Patient {
                    Some(helper.try_collect())
                } else {
                    helper.try_collect_within(PATIENCE)
                };
                match result {
                    Some(result) => {
                        let mut job = result.map_err(SequenceError::engine)?;
                        if job.start == s && job.epoch == self.epoch {
                            std::mem::swap(&mut block.bits, &mut job.bits);
                            block.start = s;
                            block.near_end = self.rare.partition_point(|&p| (p as usize) < job.lo);
                            block.far_end = job.rare.len();
                            block.window = job.lo..far::window_end(s, job.lo, job.window);
                            self.rare_steps += job.steps;
                            ready = true;
                        }
                        self.second.job = Some(job);
                        self.second.count(false);
                    }
                    None => {
                        self.second.stale = true;
                        self.second.count(true);
                    }
                }
            }
        }
        if !ready {
            self.fill_here(s, block);
        }
        if pipelined && s + BLOCK < target {
            self.post_next(s)?;
        }
        Ok(())
    }

    /// The window of the block at `s`: none in a probe block (one block in [`PROBE_EVERY`]),
    /// which measures the scan without it; else the window while it pays.
    fn window_for(&self, s: usize) -> usize {
        if (s / BLOCK) % PROBE_EVERY == 0 || !self.window_on {
            0
        } else {
            self.window
        }
    }

    /// At the start of the block at `s`: the scan steps from the start of a probe block, and
    /// after it the choice whether the window pays (the probe block's scan looked at
    /// [`WINDOW_FROM`] splits a heap or more; the window's pairs cost about as much as the
    /// splits they spare the scan, stores against compares).
    fn probe(&mut self, s: usize) {
        match (s / BLOCK) % PROBE_EVERY {
            0 => self.probe_mark = Some(self.scan_steps),
            1 => {
                if let Some(mark) = self.probe_mark.take() {
                    self.window_on = self.scan_steps - mark >= (WINDOW_FROM * BLOCK) as u64;
                }
            }
            _ => {}
        }
    }

    /// Fills the far marks of the block at `s` here, from the values below `s`.
    fn fill_here(&mut self, s: usize, block: &mut Block) {
        let src = far::Source {
            values: &self.values,
            rare: &self.rare,
            rare_values: &self.rare_values,
            split: &self.split,
        };
        let window = self.window_for(s);
        self.rare_steps += far::fill(&mut block.rows, s, BLOCK, window, &src);
        let words = far::words_for(usize::from(self.max_value));
        far::pack(&block.rows, words, &mut block.bits);
        block.start = s;
        block.near_end = self.rare.partition_point(|&p| (p as usize) < BLOCK);
        block.far_end = self.rare.len();
        block.window = BLOCK..far::window_end(s, BLOCK, window);
    }

    /// Posts the job of the block after the one at `s` (its pairs with both parts below `s`),
    /// unless the helper is busy, resting or not running.
    fn post_next(&mut self, s: usize) -> Result<(), SequenceError> {
        if self.second.pause > 0 {
            self.second.pause -= 1;
            return Ok(());
        }
        if !self.second.ready() || self.second.helper.as_ref().is_some_and(|h| h.pending()) {
            return Ok(());
        }
        let mut job = self
            .second
            .job
            .take()
            .unwrap_or_else(|| Box::new(FarJob::new(&self.split)));
        if job.epoch != self.epoch || job.values.len() > s || job.rare.len() > self.rare.len() {
            job.values.clear();
            job.rare.clear();
            job.rare_values.clear();
            job.max_value = 0;
            job.epoch = self.epoch;
        }
        // Every value below `s` is below 128 (the block at `s` computes by words).
        let new = &self.values[job.values.len()..s];
        job.values
            .try_reserve(new.len())
            .map_err(|_| SequenceError::TooLong {
                requested: s as u64,
            })?;
        job.values.extend(new.iter().map(|&v| v as u8));
        job.max_value = job
            .max_value
            .max(new.iter().copied().max().unwrap_or(0) as u8);
        let from = job.rare.len();
        job.rare.extend_from_slice(&self.rare[from..]);
        job.rare_values
            .extend(self.rare_values[from..].iter().map(|&v| v as u8));
        job.start = s + BLOCK;
        job.lo = 2 * BLOCK;
        job.window = self.window_for(s + BLOCK);
        job.fail = self
            .second
            .fail_after
            .is_some_and(|k| self.second.posted >= k);
        self.second.posted += 1;
        let helper = self.second.helper.as_mut().expect("ready above");
        helper.post(job);
        Ok(())
    }

    /// Ends a call: takes back the state of a job still posted (one block of work).
    pub(super) fn settle(&mut self) -> Result<(), SequenceError> {
        if let Some(helper) = self.second.helper.as_mut().filter(|h| h.pending()) {
            let job = helper.try_collect().map_err(SequenceError::engine)?;
            self.second.job = Some(job);
            self.second.stale = false;
        }
        Ok(())
    }
}
