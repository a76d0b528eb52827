//! The far marks of a block of heaps, computed at the block's start or ahead on a second
//! core ([`crate::heap::helper`]).
//!
//! A block is `B` consecutive heaps `[S, S + B)`. Its far marks are, for each heap
//! `S + t` and each split digit `j`, the nim-sums `g(p) ^ g(S + t − j − p)` of the pairs
//! whose parts are both known before some heap `K ≤ S`: every rare position `p ≥ lo` with
//! `lo = S + B − K` (then `S + t − j − p < K`), and, as a *window*, every position (rare or
//! not) `a` in `[lo, lo + W)`. The window's pairs are options like any other, so marking them
//! never changes a value: the candidate (the smallest value of the mixed pairs' parity not
//! marked) is the same, since every option of that parity is a rare pair and marked anyway,
//! and fewer values below it are left for the scan to find. For one `p` (or `a`) the
//! partners of the block's heaps are `B` consecutive values, read in order, one byte store a
//! pair (module docs of [`super`]).
//!
//! Alone, a block is filled at its start (`K = S`, `lo = B`). With the pipeline, the next
//! block's marks are filled on the helper thread while the current block is computed, from
//! the values before the current block (`K = S − B`, `lo = 2B`), with a byte copy of the
//! values and the rare list of its own (brought up to date at each hand-over).

use std::fmt;

/// Heaps in one block.
pub(super) const BLOCK: usize = 64;

/// The marks of the far pairs of `BLOCK` heaps from `start`, as bits (one `u128` a heap:
/// the main side reads 16 bytes a heap, a quarter of a cache line, when the helper filled
/// them on another core).
#[derive(Debug)]
pub(super) struct Block {
    pub(super) start: usize,
    /// Bit `v` of `bits[t]` is set when a far pair of heap `start + t` has nim-sum `v`.
    pub(super) bits: Vec<u128>,
    /// The rare positions `rare[..near_end]` (below `lo`) and `rare[far_end..]` (met since
    /// the marks' values) are not in the marks; those between are.
    pub(super) near_end: usize,
    pub(super) far_end: usize,
    /// The positions `a` whose splits `(a, m − a)` are all in the marks (the window), for
    /// every heap of the block and split digit with `a < m`.
    pub(super) window: std::ops::Range<usize>,
    /// Byte rows for the blocks filled here.
    pub(super) rows: Vec<[u8; 128]>,
}

impl Block {
    /// An empty block (covering no heap).
    pub(super) fn new() -> Self {
        Block {
            start: usize::MAX,
            bits: vec![0; BLOCK],
            near_end: 0,
            far_end: 0,
            window: 0..0,
            rows: vec![[0; 128]; BLOCK],
        }
    }

    /// Whether heap `n` is in the block.
    pub(super) fn covers(&self, n: usize) -> bool {
        n >= self.start && n - self.start < BLOCK
    }

    /// Heap `n`'s far marks as bits (`n` in the block).
    #[inline]
    pub(super) fn far_marks(&self, n: usize) -> u128 {
        self.bits[n - self.start]
    }
}

/// Packs each byte row (bytes 0 or 1) into bits, reading the first `words` eight-byte words
/// of each row.
pub(super) fn pack(rows: &[[u8; 128]], words: usize, bits: &mut [u128]) {
    for (row, out) in rows.iter().zip(bits.iter_mut()) {
        let mut b = 0u128;
        for (w, bytes) in row.chunks_exact(8).take(words).enumerate() {
            let bytes: [u8; 8] = bytes.try_into().expect("chunks of eight");
            // Byte `i` times `2^(56 − 7i)` lands on bit `56 + i`, and no two of the 64
            // products share a bit (so no carry).
            let x = u64::from_le_bytes(bytes).wrapping_mul(0x0102_0408_1020_4080) >> 56;
            b |= u128::from(x) << (8 * w);
        }
        *out = b;
    }
}

/// How many bytes of eight of a row hold the nim-sums of values up to `max_value` (below
/// 128).
pub(super) fn words_for(max_value: usize) -> usize {
    (max_value + 1).next_power_of_two().max(8) / 8
}

/// The end of the window of a fill (the positions `lo..end` whose pairs it marks).
pub(super) fn window_end(start: usize, lo: usize, window: usize) -> usize {
    (lo + window)
        .min((start + BLOCK).saturating_sub(lo))
        .max(lo)
}

/// What one fill reads: the values, the rare positions and the split digits.
pub(super) struct Source<'a, V> {
    /// `g(0..K)` (at least).
    pub(super) values: &'a [V],
    /// Rare positions below `K`, ascending, and their values.
    pub(super) rare: &'a [u32],
    pub(super) rare_values: &'a [V],
    pub(super) split: &'a [usize],
}

/// Fills `marks` (`BLOCK` rows, zeroed here) with the far pairs of the block at `start`
/// whose parts lie below `known = start + BLOCK − lo`: the rare positions `p ≥ lo` of
/// `src.rare` and the window `lo..lo + window` (every position, up to `known`). Returns the
/// pairs marked.
pub(super) fn fill<V: Copy + Into<usize>>(
    marks: &mut [[u8; 128]],
    start: usize,
    lo: usize,
    window: usize,
    src: &Source<'_, V>,
) -> u64 {
    for row in marks.iter_mut() {
        *row = [0; 128];
    }
    let known = start + BLOCK - lo;
    debug_assert!(src.values.len() >= known);
    let first_far = src.rare.partition_point(|&p| (p as usize) < lo);
    let window_end = window_end(start, lo, window);
    let mut steps = 0u64;
    for &j in src.split {
        // Pairs `p` with `m − p = start + t − j − p` for the heaps `start + t` where that
        // is at least 1; the last, `start + BLOCK − 1 − j − p`, is below `known`.
        let mut pair = |p: usize, gp: usize| -> bool {
            let t0 = (p + j + 1).saturating_sub(start);
            if t0 >= BLOCK {
                return false;
            }
            let first = start + t0 - j - p;
            let part = &src.values[first..first + (BLOCK - t0)];
            for (row, &x) in marks[t0..].iter_mut().zip(part) {
                row[(x.into() ^ gp) & 127] = 1;
            }
            steps += (BLOCK - t0) as u64;
            true
        };
        for (&p, &gp) in src.rare[first_far..]
            .iter()
            .zip(&src.rare_values[first_far..])
        {
            // The rare positions are ascending: none further pairs in this block.
            if !pair(p as usize, gp.into()) {
                break;
            }
        }
        for a in lo..window_end {
            if !pair(a, src.values[a].into()) {
                break;
            }
        }
    }
    steps
}

/// The helper thread's state and one job: a byte copy of the values and of the rare list
/// (brought up to date by the main side before each hand-over), what to fill, and the
/// marks filled.
pub(super) struct FarJob {
    /// `g(0..K)` as bytes (every value below 128).
    pub(super) values: Vec<u8>,
    /// The rare positions below `K` and their values.
    pub(super) rare: Vec<u32>,
    pub(super) rare_values: Vec<u8>,
    pub(super) split: Vec<usize>,
    /// The mask choice the rare list belongs to ([`super::DomainSequence::rechoose`]
    /// counts them).
    pub(super) epoch: u64,
    /// The block to fill, from which position on pairs are far, and the window.
    pub(super) start: usize,
    pub(super) lo: usize,
    pub(super) window: usize,
    /// The largest value below `K`.
    pub(super) max_value: u8,
    /// The byte rows filled, the marks as bits, and the pairs marked.
    pub(super) rows: Vec<[u8; 128]>,
    pub(super) bits: Vec<u128>,
    pub(super) steps: u64,
    /// Tests: the job panics (to check that the failure is reported, not a hang).
    pub(super) fail: bool,
}

impl fmt::Debug for FarJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FarJob")
            .field("known", &self.values.len())
            .field("rare", &self.rare.len())
            .field("epoch", &self.epoch)
            .field("start", &self.start)
            .field("lo", &self.lo)
            .field("window", &self.window)
            .finish_non_exhaustive()
    }
}

impl FarJob {
    /// An empty state for the split digits `split`.
    pub(super) fn new(split: &[usize]) -> Self {
        FarJob {
            values: Vec::new(),
            rare: Vec::new(),
            rare_values: Vec::new(),
            split: split.to_vec(),
            epoch: u64::MAX,
            start: 0,
            lo: 0,
            window: 0,
            max_value: 0,
            rows: vec![[0; 128]; BLOCK],
            bits: vec![0; BLOCK],
            steps: 0,
            fail: false,
        }
    }

    /// Fills the marks (on the helper thread).
    pub(super) fn run(mut self: Box<Self>) -> Box<Self> {
        assert!(!self.fail, "a far job told to fail (tests)");
        let src = Source {
            values: &self.values,
            rare: &self.rare,
            rare_values: &self.rare_values,
            split: &self.split,
        };
        let mut rows = std::mem::take(&mut self.rows);
        self.steps = fill(&mut rows, self.start, self.lo, self.window, &src);
        pack(
            &rows,
            words_for(usize::from(self.max_value)),
            &mut self.bits,
        );
        self.rows = rows;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_cover_the_nim_sums() {
        assert_eq!(words_for(0), 1);
        assert_eq!(words_for(7), 1);
        assert_eq!(words_for(8), 2);
        assert_eq!(words_for(100), 16);
    }

    #[test]
    fn a_fill_marks_exactly_the_far_pairs_and_the_window() {
        // Values `g(a) = a * 7 mod 61`, rare positions every fifth; split digits 0 and 2.
        let values: Vec<u16> = (0..600u16).map(|a| a * 7 % 61).collect();
        let rare: Vec<u32> = (1..600u32).filter(|p| p % 5 == 0).collect();
        let rare_values: Vec<u16> = rare.iter().map(|&p| values[p as usize]).collect();
        let split = [0usize, 2];
        for (start, lo, window) in [(400, 64, 0), (400, 128, 0), (400, 128, 40), (130, 64, 200)] {
            let known = start + BLOCK - lo;
            let src = Source {
                values: &values[..known],
                rare: &rare[..rare.partition_point(|&p| (p as usize) < known)],
                rare_values: &rare_values,
                split: &split,
            };
            let mut marks = vec![[1u8; 128]; BLOCK];
            fill(&mut marks, start, lo, window, &src);
            for (t, row) in marks.iter().enumerate() {
                let mut expected = [0u8; 128];
                for &j in &split {
                    let m = start + t - j;
                    for p in lo..m {
                        let far = p % 5 == 0 || p < lo + window;
                        if far && m - p < known && p < known {
                            expected[usize::from(values[p] ^ values[m - p])] = 1;
                        }
                    }
                }
                assert_eq!(*row, expected, "start {start} lo {lo} heap {t}");
            }
            let mut bits = vec![0u128; BLOCK];
            pack(&marks, 8, &mut bits);
            for (row, b) in marks.iter().zip(&bits) {
                for (v, &byte) in row.iter().enumerate() {
                    assert_eq!(byte == 1, b >> v & 1 == 1);
                }
            }
        }
    }
}
