//! The far phase of a block: the marks of rare partners far behind its heaps, computed
//! ahead on the helper thread ([`super::helper`]) or at the block's start in parallel over
//! heaps, and when the helper is used (it rests when it comes late too often).

use rayon::prelude::*;

use super::MAX_WINDOW;
use super::block;
use super::mask::common_words;
use super::moves::{Split, set_bit};
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
                self.helper = helper::Helper::start(|(job, spare): (FarJob, Marks)| {
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

    /// Counts a job collected in time or not; pauses the helper when a quarter of a round
    /// came late (on a loaded machine, where its marks would mostly be made twice).
    pub(super) fn record(&mut self, in_time: bool) {
        self.collected += 1;
        self.late += u32::from(!in_time);
        if self.collected == ROUND {
            if self.late * 4 > ROUND {
                self.pause = PAUSE;
            }
            (self.collected, self.late) = (0, 0);
        }
    }
}

/// Split pairs a heap and split that the helper marks for values below 128
/// ([`FarJob::mark_pairs`]).
pub(super) const FAR_PAIRS: usize = 24;

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
        let mut steps = 0u64;
        for (k, row) in rows.chunks_exact_mut(self.words).take(self.len).enumerate() {
            let n = self.n0 + k;
            for split in &self.split2 {
                if n < split.j + 2 {
                    continue;
                }
                let m = n - split.j;
                let from = (m + 1).saturating_sub(self.known).max(1);
                let to = (from.saturating_add(self.pairs))
                    .min(split.last(m) + 1)
                    .min(self.low.len());
                for a in from..to {
                    let Some(i) = (m - a).checked_sub(self.base) else {
                        break;
                    };
                    let Some(&partner) = self.window.get(i) else {
                        continue;
                    };
                    steps += 1;
                    set_bit(row, usize::from(self.low[a] ^ partner));
                }
            }
        }
        steps
    }

    pub(super) fn run(&self, mut marks: Marks) -> Marks {
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
        marks
    }
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
        let pairs = if size <= 128 {
            self.tuning.far_pairs
        } else {
            0
        };
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
