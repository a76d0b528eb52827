//! The far phase of a block: the marks of rare partners far behind its heaps, computed
//! ahead on the helper thread ([`super::helper`]) or at the block's start in parallel over
//! heaps, and when the helper is used (it rests when it comes late too often).

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::MAX_WINDOW;
use super::block;
use super::mask::common_words;
use super::moves::Split;
use crate::heap::helper;

/// The far marks of a block (computed ahead on another core, or at the block's start in
/// parallel over heaps), and what they were computed for.
#[derive(Debug, Clone, Default)]
pub(super) struct Marks {
    /// The block `[n0, n0 + len)`.
    pub(super) n0: usize,
    pub(super) len: usize,
    /// Values below `known` were read; the rare positions `rare_pos[..r0]` whose partners
    /// lie below it are marked.
    pub(super) known: usize,
    pub(super) r0: usize,
    /// The mask change count and value range they hold for.
    pub(super) epoch: (u64, usize),
    /// One bitset row per heap.
    pub(super) rows: Vec<u64>,
    /// With values past 128: the split ranges already scanned, one per heap and split.
    pub(super) scanned: Vec<block::Scanned>,
    pub(super) rare_steps: u64,
    pub(super) scan_steps: u64,
    /// Of the scan steps: the pairs of the spread probes, and those read in order past the
    /// early marks (module `spread`).
    pub(super) probed: u64,
    pub(super) after: u64,
}

impl Marks {
    /// Fills the marks of the block `phase` describes, `len` heaps, in parallel over heaps
    /// from `parallel_from` rare-partner nim-sums on (always when it scans).
    pub(super) fn fill(
        &mut self,
        phase: &block::FarPhase<'_>,
        len: usize,
        words: usize,
        parallel_from: usize,
    ) {
        let splits = phase.split2.len();
        self.n0 = phase.n0;
        self.len = len;
        self.known = phase.known;
        self.r0 = phase.rare_pos.len();
        self.rows.clear();
        self.rows.resize(len * words, 0);
        self.scanned.clear();
        if phase.scan {
            self.scanned.resize(len * splits, block::Scanned::NONE);
        }
        let work = phase.rare_pos.len() * splits * len;
        let steps = if phase.scan || work >= parallel_from {
            let per = (len / (4 * rayon::current_num_threads())).max(8);
            let scanned_per = if phase.scan { per * splits } else { 0 };
            let mut parts: Vec<&mut [block::Scanned]> = if phase.scan {
                self.scanned.chunks_mut(scanned_per).collect()
            } else {
                Vec::new()
            };
            parts.resize_with(len.div_ceil(per), Default::default);
            self.rows
                .par_chunks_mut(per * words)
                .zip(parts.into_par_iter())
                .enumerate()
                .map(|(t, (chunk, scanned))| phase.fill(t * per, chunk, scanned, words))
                .reduce(block::Steps::default, |a, b| a + b)
        } else {
            phase.fill(0, &mut self.rows, &mut self.scanned, words)
        };
        self.rare_steps = steps.rare;
        self.scan_steps = steps.scan;
        (self.probed, self.after) = (steps.probed, steps.after);
    }
}

/// The far phase of the next block with its own copy of what it reads, so that it runs on
/// another core while the current block appends values.
#[derive(Debug, Clone, Default)]
pub(super) struct FarJob {
    /// `g(base..known)`.
    pub(super) window: Vec<u16>,
    /// `g(0..low.len())`: the smaller parts of the pairs [`mark_pairs`](Self::mark_pairs)
    /// marks (empty when it marks none).
    pub(super) low: Vec<u16>,
    /// How many split pairs a heap and split [`mark_pairs`](Self::mark_pairs) marks.
    pub(super) pairs: usize,
    pub(super) base: usize,
    pub(super) known: usize,
    /// The block `[n0, n0 + len)`.
    pub(super) n0: usize,
    pub(super) len: usize,
    /// The rare positions `rare_pos[r0 - pos.len()..r0]` (those before are near for every
    /// heap of the block) and their values.
    pub(super) pos: Vec<u32>,
    pub(super) val: Vec<u16>,
    pub(super) r0: usize,
    pub(super) split2: Vec<Split>,
    pub(super) size: usize,
    pub(super) words: usize,
    pub(super) common: Vec<u64>,
    /// The mask change count and value range the marks hold for.
    pub(super) epoch: (u64, usize),
    /// When the job was done, and how long it took (the pairs adapt to it, [`Second::record`]).
    pub(super) finished: Option<Instant>,
    pub(super) busy: Duration,
}

/// The thread of the far phase ([`helper`]), started with the first block that can use it
/// when there is more than one processor (the thread pool's count: `RAYON_NUM_THREADS=1`
/// means one); a clone of the engine starts its own.
#[derive(Debug, Default)]
pub(super) struct Second {
    pub(super) helper: Option<helper::Helper<(FarJob, Marks), (FarJob, Marks)>>,
    pub(super) tried: bool,
    /// Jobs collected in the current round of [`ROUND`], and how many of them came late.
    pub(super) collected: u32,
    pub(super) late: u32,
    /// Blocks to go without the helper (it came late too often: no core is free for it).
    pub(super) pause: u32,
    /// The split pairs a heap and split the next job marks (values below 128,
    /// [`FarJob::mark_pairs`]), when they adapt (see [`Second::record`]); 0 before the
    /// first job.
    pub(super) pairs: usize,
    /// The job posted came late: its result, collected at a later block, is not counted
    /// again.
    pub(super) overdue: bool,
    /// How long the last job collected in time took the helper.
    pub(super) busy: Duration,
}

/// How a block found the far marks the helper prepared for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Arrival {
    /// Ready before the block asked: the helper worked `busy` and then waited `idle`.
    Waiting { busy: Duration, idle: Duration },
    /// Ready while the block spun for them.
    InTime,
    /// Not ready within the block's patience: the block marked them itself.
    Late,
}

/// Jobs between two looks at how many came late.
const ROUND: u32 = 64;
/// Blocks computed alone when more than a quarter of a round came late.
const PAUSE: u32 = 1024;

impl Clone for Second {
    fn clone(&self) -> Self {
        Second::default()
    }
}

impl Second {
    /// Whether the helper runs (starting it the first time).
    pub(super) fn ready(&mut self, force: bool) -> bool {
        if !self.tried {
            self.tried = true;
            if force || rayon::current_num_threads() > 1 {
                self.helper = helper::Helper::start(|(mut job, spare): (FarJob, Marks)| {
                    let marks = job.run(spare);
                    (job, marks)
                });
            }
        }
        self.helper.is_some()
    }

    /// Whether a job may be posted now: the helper is idle and not paused.
    pub(super) fn may_post(&mut self) -> bool {
        if self.pause > 0 {
            self.pause -= 1;
            return false;
        }
        self.helper.as_ref().is_some_and(|h| !h.pending())
    }

    /// The split pairs a heap and split the next job marks: `fixed` if set (tests), else
    /// adapted from [`FAR_PAIRS`] on ([`Second::record`]).
    pub(super) fn pairs(&mut self, fixed: Option<usize>) -> usize {
        fixed.unwrap_or_else(|| {
            if self.pairs == 0 {
                self.pairs = FAR_PAIRS;
            }
            self.pairs
        })
    }

    /// Counts a job collected, and how; pauses the helper when a quarter of a round came
    /// late (on a loaded machine, where its marks would mostly be made twice).
    ///
    /// Adaptive pairs grow by a sixteenth while the helper waits for the block more than an
    /// eighth of its own time, shrink by a sixteenth when the block spun for them and by a
    /// quarter when they came late (the block then marks its far partners itself, and the
    /// next block too): the helper's job ends a little before the block needs it. Which
    /// count is best depends on the game (0.167 to `2^24`, wall time, fixed counts: 24
    /// pairs 2.46 s, 48 2.88, 96 3.66; 0.015: 5.27, 4.68, 4.66; 0.336: 6.80, 6.20, 5.58; at
    /// 192 all three come late and run on one core), which no fixed count serves.
    pub(super) fn record(&mut self, arrival: Arrival) {
        if self.overdue {
            // The job that came late, collected at a later block (or still running): it was
            // counted then.
            self.overdue = arrival == Arrival::Late;
            return;
        }
        self.overdue = arrival == Arrival::Late;
        if let Arrival::Waiting { busy, .. } = arrival {
            self.busy = busy;
        }
        if self.pairs > 0 {
            self.pairs = match arrival {
                Arrival::Waiting { busy, idle } if idle > busy / 8 => {
                    self.pairs + self.pairs / 16 + 1
                }
                Arrival::Waiting { .. } => self.pairs,
                Arrival::InTime => self.pairs - self.pairs.div_ceil(16),
                Arrival::Late => self.pairs - self.pairs.div_ceil(4),
            }
            .clamp(MIN_FAR_PAIRS, MAX_FAR_PAIRS);
        }
        self.collected += 1;
        self.late += u32::from(arrival == Arrival::Late);
        if self.collected == ROUND {
            if self.late * 4 > ROUND {
                self.pause = PAUSE;
            }
            (self.collected, self.late) = (0, 0);
        }
    }
}

/// The value ranges whose far phases the helper thread runs one block ahead (its rare
/// partners streamed, [`block::FarPhase::fill`], and the first scan pairs,
/// [`FarJob::mark_pairs`]); past them every block's far phase, scan included, splits over
/// the thread pool.
pub(super) const PIPELINED_SIZES: usize = 1024;

/// Which way the far phases of values from 128 to [`PIPELINED_SIZES`] run, chosen by
/// measuring both: one block ahead on the helper thread (its rare partners and first scan
/// pairs, the rest of the scan heap by heap), or each block's far phase, scan included,
/// split over the thread pool. Neither wins everywhere (to `2^24`, wall, pairs in turn:
/// pipelined 0.80x the pool for 0.247 and 0.79x for 0.245, but 1.03x for 0.166 and 1.52x
/// for 0.36, whose far scans are long), so runs of heaps ([`super::REPORT_EVERY`]) are
/// timed each way: two of each first, then the faster, with a trial of [`TRIAL_RUNS`] runs
/// the other way after [`TRIAL_EVERY`] runs, and after twice as many each time the trial
/// does not change the choice (a trial of the slower way costs its difference). A way's
/// speed is the best of its last two runs: a run is a few milliseconds, and what disturbs
/// one makes it slower, never faster (with one run each, a single slow run of the faster
/// way kept 0.36 on the slower way for 169 runs).
#[derive(Debug, Clone, Default)]
pub(super) struct WideChoice {
    /// The last two runs each way, newest first, in seconds a heap: pipelined, pool.
    runs: [[Option<f64>; 2]; 2],
    /// Runs since the last trial, and how many before the next.
    since_trial: u32,
    interval: u32,
    /// Runs of the current trial still to make, and the faster way when it began.
    trial_left: u32,
    trial_from: Option<bool>,
}

/// Runs before the first trial of the slower way, the runs of a trial, and the longest
/// interval between two trials.
const TRIAL_EVERY: u32 = 8;
const TRIAL_RUNS: u32 = 2;
const LONGEST_INTERVAL: u32 = 512;

impl WideChoice {
    /// The best of the last two runs one way (0: pipelined, 1: pool).
    fn speed(&self, way: usize) -> Option<f64> {
        self.runs[way].iter().flatten().copied().reduce(f64::min)
    }

    /// The faster way so far (`true`: pipelined), once both were measured twice.
    fn best(&self) -> Option<bool> {
        let measured = |way: usize| self.runs[way][1].is_some();
        (measured(0) && measured(1)).then(|| self.speed(0) <= self.speed(1))
    }

    /// Whether the next run of heaps is to be pipelined.
    pub(super) fn next(&mut self) -> bool {
        let Some(best) = self.best() else {
            // Pipelined twice first, then the pool twice.
            return self.runs[0][1].is_none();
        };
        if self.trial_left > 0 {
            self.trial_left -= 1;
            return !self.trial_from.unwrap_or(best);
        }
        self.since_trial += 1;
        if self.since_trial > self.interval.max(TRIAL_EVERY) {
            self.since_trial = 0;
            self.trial_from = Some(best);
            self.trial_left = TRIAL_RUNS - 1;
            !best
        } else {
            best
        }
    }

    /// Records a run of heaps made one way: `per_heap` seconds a heap.
    pub(super) fn record(&mut self, pipelined: bool, per_heap: f64) {
        let way = usize::from(!pipelined);
        self.runs[way] = [Some(per_heap), self.runs[way][0]];
        if self.trial_left == 0
            && let Some(before) = self.trial_from.take()
        {
            self.interval = if self.best() == Some(before) {
                (self.interval.max(TRIAL_EVERY) * 2).min(LONGEST_INTERVAL)
            } else {
                TRIAL_EVERY
            };
        }
    }
}

/// Split pairs a heap and split that the helper marks for values below 128
/// ([`FarJob::mark_pairs`]) at first, and the bounds they adapt within.
pub(super) const FAR_PAIRS: usize = 24;
const MIN_FAR_PAIRS: usize = 4;
const MAX_FAR_PAIRS: usize = 1024;

impl FarJob {
    /// Marks in each heap's row the split values of its first `pairs` splits `(a, m - a)`
    /// whose larger part is known to the job (`m - a < known`, so `a > m - known`): the
    /// heap-by-heap scan (`finish::finish_word`) then wants only the rare values these
    /// missed, and scans nothing for most heaps. Any split value marked is a value of an
    /// option, so the marks change no value, only where the scan's work is done: here, on
    /// the helper's core, while the block before is computed (issue 14, part 3: 0.167 and
    /// 0.354 have their rare positions near, so the far phase alone left that core idle).
    /// Returns the pairs marked.
    fn mark_pairs(&self, rows: &mut [u64]) -> u64 {
        if self.pairs == 0 {
            return 0;
        }
        if self.size <= 64 {
            self.mark_pairs_in::<u64>(rows)
        } else if self.size <= 128 {
            self.mark_pairs_in::<block::Pair>(rows)
        } else {
            self.mark_pairs_wide(rows)
        }
    }

    /// Calls `f(low, high)` for each split of heap `n`: its first pairs `(a, m - a)` as
    /// [`mark_pairs`](Self::mark_pairs) takes them, `low` the values `g(a)` ascending and
    /// `high` their partners `g(m - a)` descending (one length); returns the pairs.
    #[inline]
    fn pairs_of(&self, n: usize, mut f: impl FnMut(&[u16], &[u16])) -> u64 {
        let mut steps = 0u64;
        for split in &self.split2 {
            if n < split.j + 2 {
                continue;
            }
            let m = n - split.j;
            let from = (m + 1).saturating_sub(self.known).max(1);
            let to = (from.saturating_add(self.pairs))
                .min(split.last(m) + 1)
                .min(self.low.len());
            // The partner of `a` is `g(m - a)`, at `m - a - base` in the window: the `a`
            // whose partner lies in it run from `m + 1 - base - window.len()` to `m - base`,
            // their partners backwards through the window.
            let Some(top) = m.checked_sub(self.base) else {
                continue;
            };
            let from = from.max((top + 1).saturating_sub(self.window.len()));
            let to = to.min(top + 1);
            if from >= to {
                continue;
            }
            f(&self.low[from..to], &self.window[top + 1 - to..=top - from]);
            steps += (to - from) as u64;
        }
        steps
    }

    /// [`mark_pairs`](Self::mark_pairs) with the marks of a heap gathered in a `W` (every
    /// value below `size`, so every split value too) and stored once: a store per pair into
    /// the row's words was a third of 0.336's profile.
    fn mark_pairs_in<W: block::Word>(&self, rows: &mut [u64]) -> u64 {
        let mut steps = 0u64;
        for (k, row) in rows.chunks_exact_mut(self.words).take(self.len).enumerate() {
            let mut marks = W::default();
            steps += self.pairs_of(self.n0 + k, |low, high| marks |= pairs_word::<W>(low, high));
            marks.store_or(row);
        }
        steps
    }

    /// [`mark_pairs`](Self::mark_pairs) for values from 128 to [`PIPELINED_SIZES`]: a byte
    /// per value and heap (independent stores), packed into the row's words once.
    fn mark_pairs_wide(&self, rows: &mut [u64]) -> u64 {
        debug_assert!(self.size <= PIPELINED_SIZES);
        let mut table = [0u8; PIPELINED_SIZES];
        let mask = PIPELINED_SIZES - 1;
        let mut steps = 0u64;
        for (k, row) in rows.chunks_exact_mut(self.words).take(self.len).enumerate() {
            steps += self.pairs_of(self.n0 + k, |low, high| {
                for (&l, &h) in low.iter().zip(high.iter().rev()) {
                    table[usize::from(l ^ h) & mask] = 1;
                }
            });
            block::pack_bytes(&table[..self.size], row);
            table[..self.size].fill(0);
        }
        steps
    }

    pub(super) fn run(&mut self, mut marks: Marks) -> Marks {
        let started = Instant::now();
        let phase = block::FarPhase {
            values: &self.window,
            base: self.base,
            n0: self.n0,
            known: self.known,
            start: 0,
            rare_pos: &self.pos,
            rare_val: &self.val,
            split2: &self.split2,
            size: self.size,
            common: &self.common,
            scan: false,
            early: 0,
            bytes: None,
            spread: &[],
        };
        // On one thread: the core computing the block is busy with it.
        marks.fill(&phase, self.len, self.words, usize::MAX);
        marks.scan_steps += self.mark_pairs(&mut marks.rows);
        marks.r0 = self.r0;
        marks.epoch = self.epoch;
        self.finished = Some(Instant::now());
        self.busy = started.elapsed();
        marks
    }
}

/// `low[i] ^ high[high.len() - 1 - i]` for every `i`, gathered in one word (every value
/// below `W::BITS`; `low` and `high` of one length). Four accumulators: the steps are
/// independent but for the OR into the word.
#[inline]
fn pairs_word<W: block::Word>(low: &[u16], high: &[u16]) -> W {
    let mut acc = [W::default(); 4];
    let (low4, high4) = (low.chunks_exact(4), high.rchunks_exact(4));
    let (low_rest, high_rest) = (low4.remainder(), high4.remainder());
    for (l, h) in low4.zip(high4) {
        for k in 0..4 {
            acc[k] |= W::mark(l[k] ^ h[3 - k]);
        }
    }
    for (&l, &h) in low_rest.iter().zip(high_rest.iter().rev()) {
        acc[0] |= W::mark(l ^ h);
    }
    acc[0] | acc[1] | acc[2] | acc[3]
}

impl super::SparseSequence {
    /// The far phase of the block `[n1, n1 + len)` to run while the heaps `n0..n1` are
    /// computed: the rare positions known now whose partners lie below n0. `None` when
    /// there is too little far work for a second core, or copying the values it reads would
    /// cost too much.
    pub(super) fn far_job(
        &mut self,
        n0: usize,
        n1: usize,
        len: usize,
        size: usize,
        words: usize,
    ) -> Option<FarJob> {
        let split2 = &self.moves.split2;
        let threshold = block::FarPhase::far_from(n0, n1 + len);
        let far =
            self.rare_pos.len() - self.rare_pos.partition_point(|&p| (p as usize) < threshold);
        // Values below 128 scan heap by heap: the helper marks the first pairs of a scan
        // that starts past the heaps not yet known (`far::FarJob::mark_pairs`).
        let pairs = self.second.pairs(self.tuning.fixed_far_pairs);
        let work = (far.saturating_add(pairs))
            .saturating_mul(split2.len())
            .saturating_mul(len);
        if work == 0 || work < self.tuning.pipeline_from {
            return None;
        }
        let largest = self.rare_pos.last().map_or(0, |&p| p as usize);
        let j_max = split2.iter().map(|s| s.j).max()?;
        let base = n1
            .saturating_sub(j_max)
            .saturating_sub(largest)
            .min(n0.saturating_sub(pairs));
        // The smaller parts of those pairs: up to both blocks' lengths and `pairs` more.
        let low = if pairs == 0 {
            0
        } else {
            (n1 + len - n0)
                .saturating_add(pairs)
                .saturating_add(1)
                .min(n0)
        };
        // Rare positions below the lowest threshold of the block are near for every heap.
        let first = self.rare_pos.partition_point(|&p| {
            (p as usize) < block::FarPhase::far_from(n0, n1.saturating_sub(j_max))
        });
        let copied = n0 - base + low + self.rare_pos.len() - first;
        if copied > MAX_WINDOW || copied > work.saturating_mul(self.tuning.copy_per_step) {
            return None;
        }
        // The buffers of the last job are refilled (no allocation per block).
        let mut job = self.spare_job.take().unwrap_or_default();
        let refill = |to: &mut Vec<_>, from: &[_]| {
            to.clear();
            to.extend_from_slice(from);
        };
        refill(&mut job.window, &self.values[base..n0]);
        refill(&mut job.low, &self.values[..low]);
        job.pairs = pairs;
        job.pos.clear();
        job.pos.extend_from_slice(&self.rare_pos[first..]);
        refill(&mut job.val, &self.rare_val[first..]);
        job.split2.clone_from(split2);
        job.common.clone_from(&common_words(self.mask, words));
        (job.base, job.known, job.n0, job.len) = (base, n0, n1, len);
        (job.r0, job.size, job.words) = (self.rare_pos.len(), size, words);
        Some(job)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wide_way_is_the_faster_one_tried_again_now_and_then() {
        let mut choice = WideChoice::default();
        let run = |choice: &mut WideChoice, pipelined_time: f64, pool_time: f64| {
            let pipelined = choice.next();
            choice.record(
                pipelined,
                if pipelined { pipelined_time } else { pool_time },
            );
            pipelined
        };
        // Two runs each way first; the pool is faster.
        let first: Vec<bool> = (0..4).map(|_| run(&mut choice, 2.0, 1.0)).collect();
        assert_eq!(first, [true, true, false, false]);
        // The pool runs; after eight runs the pipeline is tried for two runs.
        let runs: Vec<bool> = (0..10).map(|_| run(&mut choice, 2.0, 1.0)).collect();
        assert_eq!(runs.iter().filter(|&&p| p).count(), 2);
        assert!(runs[8] && runs[9]);
        // Still slower: the next trial comes after twice as many runs.
        let runs: Vec<bool> = (0..18).map(|_| run(&mut choice, 2.0, 1.0)).collect();
        assert_eq!(runs.iter().filter(|&&p| p).count(), 2, "{runs:?}");
        assert!(runs[16] && runs[17]);
        // One slow run of the pool does not turn the choice: its best of two stands.
        choice.record(false, 5.0);
        assert!(!choice.next());
        // The game changes: the pipeline becomes faster; at the next trial it wins, and
        // runs from then on.
        let runs: Vec<bool> = (0..40).map(|_| run(&mut choice, 0.5, 1.0)).collect();
        let first_trial = runs.iter().position(|&p| p).expect("a trial");
        assert!(runs[first_trial..].iter().filter(|&&p| !p).count() <= 2 * TRIAL_RUNS as usize);
        assert!(runs[runs.len() - 5..].iter().all(|&p| p), "{runs:?}");
    }

    fn waiting(idle_micros: u64) -> Arrival {
        Arrival::Waiting {
            busy: Duration::from_millis(1),
            idle: Duration::from_micros(idle_micros),
        }
    }

    #[test]
    fn pairs_grow_while_the_helper_waits_and_shrink_when_the_block_waits() {
        let mut second = Second::default();
        assert_eq!(second.pairs(Some(7)), 7);
        assert_eq!(second.pairs(None), FAR_PAIRS);
        second.record(waiting(500));
        let p = FAR_PAIRS + FAR_PAIRS / 16 + 1;
        assert_eq!(second.pairs(None), p);
        // Idle for less than an eighth of its work: about right, held.
        second.record(waiting(100));
        assert_eq!(second.pairs, p);
        second.record(Arrival::InTime);
        let p = p - p.div_ceil(16);
        assert_eq!(second.pairs, p);
        second.record(Arrival::Late);
        let p = p - p.div_ceil(4);
        assert_eq!(second.pairs, p);
        // The late job, collected at a later block: counted once.
        second.record(Arrival::Late);
        second.record(waiting(500));
        assert_eq!(second.pairs, p);
        assert_eq!((second.collected, second.late), (4, 1));
        for _ in 0..200 {
            second.record(waiting(500));
        }
        assert_eq!(second.pairs, MAX_FAR_PAIRS);
        for _ in 0..200 {
            second.record(Arrival::InTime);
        }
        assert_eq!(second.pairs, MIN_FAR_PAIRS);
        assert_eq!(second.pause, 0);
    }

    #[test]
    fn a_helper_late_for_a_quarter_of_a_round_rests() {
        let mut second = Second::default();
        for k in 0..ROUND {
            second.record(if k % 3 == 0 {
                Arrival::Late
            } else {
                Arrival::InTime
            });
            if k % 3 == 0 {
                // Its job collected at the next block: no second count.
                second.record(Arrival::InTime);
            }
        }
        assert_eq!(second.pause, PAUSE);
        assert!(!second.may_post());
        assert_eq!(second.pause, PAUSE - 1);
    }
}
