//! Sparse space in the domain: a near-linear engine for octal codes whose *positions*, not
//! their values, split into a rare and a common class.
//!
//! The sparse-space method ([`super::sparse`]) classes a value `v` by the parity
//! `P(v) = popcount(v & mask) mod 2`; a nim-sum's parity is the sum of the parities, so the
//! option values of one parity come only from pairs with one rare heap, and are listed in
//! `O(R)` per heap. Some games have no such mask, but have one once the heap's own parity is
//! added (A. Flammenkamp, *Sparse- and common-positions of Sprague–Grundy values of octal
//! games*, <http://wwwhomes.uni-bielefeld.de/achim/octal_sparse.html>, "sparse space in the
//! domain"): class the *position* `a` by
//!
//! `class(a) = P(g(a)) xor (a mod 2)`.
//!
//! For a split of `m` tokens into `a + b = m`,
//! `P(g(a) ^ g(b)) = class(a) xor class(b) xor (m mod 2)`: a pair of one position of each
//! class gives a value of parity `q = 1 xor (m mod 2)`, a pair of one class the other parity.
//! Whichever class is rare (a few positions), every option value of parity `q` comes from a
//! pair with a rare part (or from a move that leaves at most one heap), so:
//!
//! 1. mark the options that leave at most one heap, and the pairs `(p, m − p)` for every rare
//!    position `p < m` (`O(R)`);
//! 2. the *candidate* `c` is the smallest unmarked value of parity `q` (or the table size):
//!    every option of parity `q` is marked, so `c` is not an option and `g(n) ≤ c`;
//! 3. the values below `c` of the other parity still unmarked are looked for among all the
//!    splits `(a, m − a)`, `a = 1, 2, ...`, until all are found (then `g(n) = c`) or the splits
//!    run out (then `g(n)` is the smallest value still unmarked).
//!
//! This needs every split to have the same `m` parity for one heap, so the engine takes plain
//! octal codes whose split digits (those with the 4 bit) sit at indices of one parity. The
//! class only decides the speed: step 3 looks at every split when it must, so the values are
//! the definition's whatever the mask (checked against [`super::plain`] on random codes).
//! The mask and the rare class are chosen from the values (each mask below the table size,
//! from a histogram of values by position parity, `O(N + V²)`), and chosen again as the
//! values grow ([`DomainSequence::rechoose`]); rare positions met later are added to the list.
//!
//! Cost `O(R + s)` per heap for `R` rare positions and a scan of `s` splits: near-linear where
//! the rare positions are few and the values bounded. While the values are below 128 (the
//! codes this engine is for), the constant is cut two ways:
//!
//! - *far rare pairs by blocks* (module `far`): the heaps are taken `BLOCK = 64` at a time;
//!   a rare position `p ≥ 64` pairs every heap `n` of the block with `n − j − p`, which lies
//!   before the block, so at the block's start each such `p` is paired with 64 consecutive
//!   known values at once, one byte store `marks[t][g(p) ^ g(n − j − p)] = 1` a pair (no
//!   dependency between stores, the values read in order), and the block's rows are packed
//!   into one `u128` a heap (eight bytes at a time by one multiplication); each heap then
//!   adds the pairs of the near rare positions and of the rare positions met during the block;
//! - *a window of common positions* marked the same way: every position `a` in `64..128`,
//!   rare or not, with its partner `n − j − a`. These pairs are options like any other, so
//!   the values do not change (the candidate is the same: every option of its parity is a
//!   rare pair, marked anyway), but fewer values below the candidate are left for the scan
//!   to find, and the scan skips the window: 0.205 to `2^22` on one core, 0.77 s → 0.66 s of
//!   CPU (at load 5; windows of 32, 96 and 128: 0.70, 0.68, 0.69 s); the steps a heap go
//!   from 97 rare pairs and 116 scanned splits to 161 pairs (64 of the window) and 55 splits;
//! - *the scan by chunks of 32 splits*, computing the 32 nim-sums at once and comparing each
//!   value still missing with all of them (vector compares), or looking up each sum's bit
//!   when more than ten are missing.
//!
//! Both the rare pairs and the scanned splits are counted ([`DomainSequence::steps`]) and
//! charged to the work budget by [`super::sequence`]. The heaps depend on their
//! predecessors one by one (`g(n − j − 1)` is a partner of heap `n` when 1 is rare), so only
//! the far marks can move to another core: with [`Pipeline::On`] (module `pipeline`) the
//! next block's far marks (rare positions and window from `2·BLOCK` on, their partners below
//! the current block) are filled on a helper thread (module `heap::helper`) while the current
//! block is computed, with a byte copy of the values of its own. The values are the same bit
//! for bit (tests run every block on the helper's marks against the plain engine). It is
//! off by default: on this shared 2-core machine (load 5, no core idle) it made 0.205 slower
//! (1.4x the wall time, 1.6x the CPU time of one core); the far marks are a fifth of the
//! work on these codes, less than the hand-overs and the helper's spinning cost.
//!
//! Among the codes of up to three digits,
//! 0.104, 0.106, 0.205, 0.215, 0.207, 0.217, 0.324 and 0.325 have no sparse space in the values
//! but at most a handful of rare positions in the domain past the first few thousand; without
//! this engine they cost `O(n)` per heap ([`super::small`]).
//!
//! ```
//! use grundy::control::Control;
//! use grundy::heap::domain::DomainSequence;
//! use grundy::heap::rules::HeapRule;
//! let rule = HeapRule::parse("0.106").unwrap();
//! let mut s = DomainSequence::new(&rule, Vec::new()).unwrap();
//! assert!(s.extend_to_len(20, &mut Control::none()).unwrap());
//! // 0.106: g(1) = 1 (take the one token), g(2) = g(3) = 0 (no move), g(4) = 0 (its
//! // one move leaves a heap of 1).
//! assert_eq!(s.values()[..8], [0, 1, 0, 0, 0, 1, 2, 2]);
//! ```

mod far;
mod pipeline;

pub use pipeline::{PIPELINE_FROM, Pipeline};

use super::engine::{SequenceEngine, SequenceError};
use super::rules::HeapRule;
use crate::control::Control;
use far::Block;

/// Values computed between progress reports and cancellation checks, at most.
const REPORT_EVERY: usize = 1 << 12;
/// The most values the engine holds: positions are kept in 32 bits.
pub const MAX_LEN: u64 = u32::MAX as u64;
/// Engine steps (rare pairs and scanned splits) between cancellation checks, at most.
const WORK_EVERY: u64 = 1 << 24;
/// Tables (values) larger than this are not looked at for a mask: the engine is for games
/// with small values.
const MAX_TABLE: usize = 1 << 12;

/// A nim-sequence computed with sparse space in the domain: see the
/// [module documentation](self).
#[derive(Clone, Debug)]
pub struct DomainSequence {
    /// `j ≥ 1` that may take a whole heap of `j`.
    take_all: Vec<usize>,
    /// `j ≥ 1` that may leave one heap.
    take_one: Vec<usize>,
    /// `j ≥ 0` that may leave two non-empty heaps (all of one parity).
    split: Vec<usize>,
    values: Vec<u16>,
    max_value: u16,
    /// The mask of the value parity.
    mask: u16,
    /// The class (`P(g(a)) xor (a mod 2)`) of the rare positions.
    rare_class: u8,
    /// The positions `a ≥ 1` of the rare class, ascending.
    rare: Vec<u32>,
    /// `rare_values[i] = g(rare[i])`.
    rare_values: Vec<u16>,
    /// `seen[v] != 0` when value `v` is among the options of the heap being computed.
    seen: Vec<u8>,
    /// Work counters: rare pairs marked, splits scanned.
    rare_steps: u64,
    scan_steps: u64,
    /// `parity_bits[q]`: the values below 128 of parity `q` under the mask, as bits.
    parity_bits: [u128; 2],
    /// Mask choices so far (the helper's copy of the rare list belongs to one).
    epoch: u64,
    /// The positions past the far bound marked with the far pairs, rare or not
    /// (module [`far`]).
    window: usize,
    /// Whether the window is worth its pairs (decided from the probe blocks), and the scan
    /// steps when the last probe block began.
    window_on: bool,
    probe_mark: Option<u64>,
    /// Whether the far marks are filled on a second core, and that core's thread.
    pipeline: Pipeline,
    second: pipeline::Second,
}

/// The default window: positions past the far bound whose pairs are marked with the far
/// pairs, rare or not.
const WINDOW: usize = 64;

/// `BIT[v] = 1 << v`: a table load is cheaper than a variable shift of a `u128`.
static BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut v = 0;
    while v < 128 {
        t[v] = 1u128 << v;
        v += 1;
    }
    t
};

/// `popcount(v & mask) mod 2`.
#[inline]
fn parity(v: usize, mask: u16) -> u8 {
    ((v & usize::from(mask)).count_ones() & 1) as u8
}

impl DomainSequence {
    /// The engine for `rule`, continuing from `prefix` (its first values, each a `u16`);
    /// `None` unless the rule is a plain octal code (no constraint, no three-heap digit) that
    /// splits, with its split digits at indices of one parity.
    pub fn new(rule: &HeapRule, prefix: Vec<u16>) -> Option<Self> {
        let moves = super::small::PlainMoves::of(rule)?;
        let mut s = DomainSequence {
            take_all: moves.take_all,
            take_one: moves.take_one,
            split: moves.split,
            max_value: prefix.iter().copied().max().unwrap_or(0),
            values: prefix,
            mask: 0,
            rare_class: 0,
            rare: Vec::new(),
            rare_values: Vec::new(),
            seen: Vec::new(),
            rare_steps: 0,
            scan_steps: 0,
            parity_bits: [0; 2],
            epoch: 0,
            window: WINDOW,
            window_on: true,
            probe_mark: None,
            pipeline: Pipeline::Off,
            second: pipeline::Second::default(),
        };
        let first = *s.split.first()?;
        if s.split.iter().any(|&j| (j ^ first) & 1 != 0) {
            return None;
        }
        s.rechoose();
        Some(s)
    }

    /// The values computed so far: `values()[n]` is `g(n)`.
    pub fn values(&self) -> &[u16] {
        &self.values
    }

    /// The values, giving up the engine.
    pub fn into_values(self) -> Vec<u16> {
        self.values
    }

    /// How many positions are rare under the current mask and class.
    pub fn rare_positions(&self) -> usize {
        self.rare.len()
    }

    /// The mask of the value parity and the class of the rare positions.
    pub fn mask(&self) -> (u16, u8) {
        (self.mask, self.rare_class)
    }

    /// Chooses whether the far marks are filled on a second core ([`Pipeline`]); the values
    /// are the same either way.
    pub fn set_pipeline(&mut self, pipeline: Pipeline) {
        self.pipeline = pipeline;
    }

    /// Marks the pairs of the `window` positions past the far bound, rare or not, with the
    /// far pairs (tuning: fewer values left for the scan, more pairs marked; the values are
    /// the same whatever the window).
    pub fn set_window(&mut self, window: usize) {
        self.window = window;
    }

    /// Rare pairs marked and splits scanned so far.
    pub fn steps(&self) -> (u64, u64) {
        (self.rare_steps, self.scan_steps)
    }

    fn class(&self, a: usize) -> u8 {
        parity(usize::from(self.values[a]), self.mask) ^ (a & 1) as u8
    }

    /// Chooses the mask and rare class that leave the fewest rare positions among the values
    /// so far (every mask below the table size), and lists the rare positions again.
    /// Values past 4096 keep the mask (no mask is looked for in a table that large).
    pub fn rechoose(&mut self) {
        self.epoch += 1;
        let size = (usize::from(self.max_value) + 1).next_power_of_two();
        if size <= MAX_TABLE && self.values.len() > 1 {
            // hist[2v + s]: positions a ≥ 1 with g(a) = v and a mod 2 = s.
            let mut hist = vec![0u64; 2 * size];
            for (a, &v) in self.values.iter().enumerate().skip(1) {
                hist[2 * usize::from(v) + (a & 1)] += 1;
            }
            let total = (self.values.len() - 1) as u64;
            let mut best = (u64::MAX, 0u16, 0u8);
            for mask in 0..size {
                let mask = mask as u16;
                let class0: u64 = (0..2 * size)
                    .filter(|&i| parity(i / 2, mask) ^ (i & 1) as u8 == 0)
                    .map(|i| hist[i])
                    .sum();
                for (count, class) in [(class0, 0u8), (total - class0, 1)] {
                    if count < best.0 {
                        best = (count, mask, class);
                    }
                }
            }
            self.mask = best.1;
            self.rare_class = best.2;
        }
        self.parity_bits = [0; 2];
        for v in 0..128 {
            self.parity_bits[usize::from(parity(v, self.mask))] |= 1u128 << v;
        }
        self.rare = (1..self.values.len())
            .filter(|&a| self.class(a) == self.rare_class)
            .map(|a| a as u32)
            .collect();
        self.rare_values = self.rare.iter().map(|&p| self.values[p as usize]).collect();
    }

    /// Computes the values of heaps `0..len`; `Ok(false)` when cancelled through `control`
    /// (the values so far stay a valid prefix).
    pub fn extend_to_len(
        &mut self,
        len: u64,
        control: &mut Control,
    ) -> Result<bool, SequenceError> {
        let target = usize::try_from(len).map_err(|_| SequenceError::TooLong { requested: len })?;
        if target <= self.values.len() {
            return Ok(true);
        }
        if len > MAX_LEN {
            return Err(SequenceError::TooLong { requested: len });
        }
        self.values
            .try_reserve(target - self.values.len())
            .map_err(|_| SequenceError::TooLong { requested: len })?;
        let mut block = Block::new();
        let pipelined = self.wants_pipeline(target - self.values.len());
        let result = self.compute(target, len, pipelined, &mut block, control);
        // The helper's last job (one block of work) is collected even when this call fails.
        let settled = self.settle();
        let done = result?;
        settled?;
        Ok(done)
    }

    /// The loop of [`extend_to_len`](Self::extend_to_len).
    fn compute(
        &mut self,
        target: usize,
        len: u64,
        pipelined: bool,
        block: &mut Block,
        control: &mut Control,
    ) -> Result<bool, SequenceError> {
        let mut since_report = 0usize;
        let mut work_mark = self.rare_steps + self.scan_steps;
        while self.values.len() < target {
            let n = self.values.len();
            let v = if self.max_value < 128 {
                if !block.covers(n) {
                    self.start_block(n, block, pipelined, target)?;
                }
                self.value_of_word(n, block)
            } else {
                self.value_of(n)
            };
            let v =
                u16::try_from(v).map_err(|_| SequenceError::ValueTooLarge { heap: n as u64 })?;
            self.values.push(v);
            self.max_value = self.max_value.max(v);
            if n >= 1 && self.class(n) == self.rare_class {
                self.rare.push(n as u32);
                self.rare_values.push(v);
            }
            since_report += 1;
            let work = self.rare_steps + self.scan_steps;
            if since_report >= REPORT_EVERY || work - work_mark >= WORK_EVERY {
                since_report = 0;
                work_mark = work;
                control.report(self.values.len() as u64, len);
                if control.is_cancelled() {
                    return Ok(self.values.len() >= target);
                }
            }
        }
        control.report(self.values.len() as u64, len);
        Ok(true)
    }

    /// `g(n)` from `g(0..n)`: see the [module documentation](self).
    fn value_of(&mut self, n: usize) -> usize {
        // Every option value is below `size`, so `g(n) ≤ size`.
        let mut seen = std::mem::take(&mut self.seen);
        let size = super::small::mark_removals(
            &mut seen,
            n,
            self.max_value,
            (&self.take_all, &self.take_one),
            &self.values,
        );
        let values = &self.values;
        // 1. The pairs with a rare part.
        let mask = size - 1;
        let mut splits = 0usize;
        for &j in &self.split {
            if n < j + 2 {
                continue;
            }
            splits += 1;
            let m = n - j;
            for &p in &self.rare {
                let p = p as usize;
                if p >= m {
                    break;
                }
                seen[usize::from(values[p] ^ values[m - p]) & mask] = 1;
                self.rare_steps += 1;
            }
        }
        if splits == 0 {
            let mex = memchr::memchr(0, &seen).unwrap_or(size);
            self.seen = seen;
            return mex;
        }
        // 2. The candidate: the smallest unmarked value of the mixed pairs' parity.
        let q = 1 ^ ((n - self.split[0]) & 1) as u8;
        let cand = (0..size)
            .find(|&v| seen[v] == 0 && parity(v, self.mask) == q)
            .unwrap_or(size);
        // 3. The values below it still missing, looked for among all the splits.
        let mut need = (0..cand).filter(|&v| seen[v] == 0).count();
        if need > 0 {
            'scan: for &j in &self.split {
                if n < j + 2 {
                    continue;
                }
                let m = n - j;
                for a in 1..=m / 2 {
                    let v = usize::from(values[a] ^ values[m - a]) & mask;
                    self.scan_steps += 1;
                    if seen[v] == 0 {
                        seen[v] = 1;
                        if v < cand {
                            need -= 1;
                            if need == 0 {
                                break 'scan;
                            }
                        }
                    }
                }
            }
        }
        let g = if need == 0 {
            cand
        } else {
            memchr::memchr(0, &seen[..cand]).unwrap_or(cand)
        };
        self.seen = seen;
        g
    }
}

impl DomainSequence {
    /// [`value_of`](Self::value_of) for values below 128: the marks are bits of one `u128`
    /// (a shift and an or per pair, no memory round trip), and the scan tests its chunk of
    /// 16 splits at once.
    fn value_of_word(&mut self, n: usize, block: &Block) -> usize {
        let values = &self.values;
        let mut seen: u128 = block.far_marks(n);
        for &j in &self.take_all {
            if n == j {
                seen |= 1;
            }
        }
        for &j in &self.take_one {
            if n > j {
                seen |= 1u128 << (values[n - j] & 127);
            }
        }
        let mut splits = 0usize;
        for &j in &self.split {
            if n < j + 2 {
                continue;
            }
            splits += 1;
            let m = n - j;
            let below = &values[..m];
            // The near rare positions (the far ones are in the block's marks), and those
            // met since the block began.
            for range in [0..block.near_end, block.far_end..self.rare.len()] {
                let (rare, rare_values) = (&self.rare[range.clone()], &self.rare_values[range]);
                let end = rare.partition_point(|&p| (p as usize) < m);
                for (&p, &gp) in rare[..end].iter().zip(&rare_values[..end]) {
                    seen |= BIT[usize::from((gp ^ below[m - p as usize]) & 127)];
                }
                self.rare_steps += end as u64;
            }
        }
        if splits == 0 {
            return (!seen).trailing_zeros() as usize;
        }
        // Every value is below 128, so every option is, and `g(n) ≤ 128`.
        let q = 1 ^ ((n - self.split[0]) & 1);
        let free = !seen & self.parity_bits[q];
        let cand = free.trailing_zeros() as usize; // 128 when none
        let below = if cand >= 128 {
            u128::MAX
        } else {
            (1u128 << cand) - 1
        };
        let mut need = !seen & below;
        if need != 0 {
            // The splits `(a, m − a)` with `a` in the block's window are in its marks.
            let skip = block.window.clone();
            'scan: for &j in &self.split {
                if n < j + 2 {
                    continue;
                }
                let m = n - j;
                let last = m / 2;
                for (a0, a1) in [
                    (1, last.min(skip.start.max(1) - 1)),
                    (skip.end.max(1), last),
                ] {
                    if a0 > a1 {
                        continue;
                    }
                    // The left parts `a0..=a1` and the right parts `m − a1..=m − a0`.
                    let left = &values[a0..=a1];
                    let right = &values[m - a1..=m - a0];
                    let mut lc = left.chunks(SCAN_CHUNK);
                    let mut rc = right.rchunks(SCAN_CHUNK);
                    while let (Some(l), Some(r)) = (lc.next(), rc.next()) {
                        self.scan_steps += l.len() as u64;
                        need &= !scan_chunk(l, r, need);
                        if need == 0 {
                            break 'scan;
                        }
                    }
                }
            }
        }
        if need == 0 {
            cand
        } else {
            need.trailing_zeros() as usize
        }
    }
}

/// Splits scanned between two looks at the values still missing.
const SCAN_CHUNK: usize = 32;
/// Up to this many values missing, [`scan_chunk`] compares each with the whole chunk.
const SCAN_COMPARE_MAX: u32 = 10;

/// The values of `need` (bits, all below 128) among the nim-sums `l[i] ^ r[len − 1 − i]` of
/// one chunk of splits (`l` the left parts ascending, `r` the right parts, so reversed).
/// With a few values missing, each is compared with the whole chunk at
/// once (the compiler turns the fixed-size loops into vector compares); otherwise each
/// nim-sum's bit is looked up.
#[inline]
fn scan_chunk(l: &[u16], r: &[u16], need: u128) -> u128 {
    if let (Ok(l), Ok(r), true) = (
        <&[u16; SCAN_CHUNK]>::try_from(l),
        <&[u16; SCAN_CHUNK]>::try_from(r),
        need.count_ones() <= SCAN_COMPARE_MAX,
    ) {
        let mut sums = [0u16; SCAN_CHUNK];
        for (s, (&x, &y)) in sums.iter_mut().zip(l.iter().zip(r.iter().rev())) {
            *s = x ^ y;
        }
        let mut found = 0u128;
        let mut rest = need;
        while rest != 0 {
            let v = rest.trailing_zeros() as u16;
            rest &= rest - 1;
            if sums.iter().fold(false, |hit, &s| hit | (s == v)) {
                found |= BIT[usize::from(v)];
            }
        }
        return found;
    }
    let mut found: u128 = 0;
    for (&x, &y) in l.iter().zip(r.iter().rev()) {
        found |= BIT[usize::from((x ^ y) & 127)];
    }
    found & need
}

impl SequenceEngine for DomainSequence {
    fn name(&self) -> &'static str {
        "domain"
    }
    fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError> {
        DomainSequence::extend_to_len(self, len, control)
    }
    fn values(&self) -> &[u16] {
        DomainSequence::values(self)
    }
    fn into_values(self: Box<Self>) -> Vec<u16> {
        DomainSequence::into_values(*self)
    }
    fn work_steps(&self) -> Option<u64> {
        Some(self.rare_steps.saturating_add(self.scan_steps))
    }
    fn max_len(&self) -> u64 {
        MAX_LEN
    }
    fn memory_needed(&self, n: u64) -> u64 {
        // The values (two bytes each, grown by at most doubling), the rare list (at most
        // four bytes a position, in the worst case) and the tables.
        n.saturating_add(1)
            .saturating_mul(8)
            .saturating_add(1 << 13)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::plain::reference_values as plain;

    fn domain(rule: &HeapRule, n: u64) -> DomainSequence {
        let mut s = DomainSequence::new(rule, Vec::new()).unwrap();
        assert!(s.extend_to_len(n, &mut Control::none()).unwrap());
        s
    }

    #[test]
    fn refuses_what_it_does_not_compute() {
        // Constraints, hexadecimal, subtraction games, no split, splits of both parities.
        for rule in [
            "grundys-game",
            "0.8",
            "sub(1,3)",
            "lasker",
            "0.7!7",
            "0.33",
            "0.44",
        ] {
            let rule = HeapRule::parse(rule).unwrap();
            assert!(DomainSequence::new(&rule, Vec::new()).is_none(), "{rule}");
        }
    }

    #[test]
    fn domain_sparse_codes_match_the_plain_engine_with_few_rare_positions() {
        for code in ["0.106", "0.104", "0.205", "0.217", "0.325"] {
            let rule = HeapRule::parse(code).unwrap();
            let mut s = domain(&rule, 3000);
            assert_eq!(s.values(), plain(&rule, 3000).as_slice(), "{code}");
            // The mask chosen from 3000 values leaves few of them rare.
            s.rechoose();
            assert!(s.rare_positions() < 300, "{code}: {}", s.rare_positions());
        }
    }

    #[test]
    fn any_mask_gives_the_definition() {
        // A bad mask (kept from the first few values) is slow, not wrong; values that grow.
        for code in ["0.04", "0.007", "0.142", "4.04", "0.6"] {
            let rule = HeapRule::parse(code).unwrap();
            let s = domain(&rule, 2500);
            assert_eq!(s.values(), plain(&rule, 2500).as_slice(), "{code}");
        }
    }

    #[test]
    fn resumes_from_a_prefix_and_stops_when_cancelled() {
        let rule = HeapRule::parse("0.106").unwrap();
        let whole = plain(&rule, 2500);
        let mut s = DomainSequence::new(&rule, whole[..700].to_vec()).unwrap();
        assert!(s.extend_to_len(2500, &mut Control::none()).unwrap());
        assert_eq!(s.values(), whole.as_slice());
        let flag = std::sync::atomic::AtomicBool::new(true);
        let mut s = DomainSequence::new(&rule, Vec::new()).unwrap();
        assert!(
            !s.extend_to_len(1 << 20, &mut Control::none().with_cancel(&flag))
                .unwrap()
        );
        let n = s.values().len();
        assert!(n < 1 << 20);
        assert_eq!(&s.values()[..n.min(2500)], &whole[..n.min(2500)]);
    }

    /// Proptest cases: `default`, or `PROPTEST_CASES` when set (an explicit count in a
    /// config would otherwise ignore it).
    fn cases(default: u32) -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    }

    /// Octal codes `d0.d1d2d3` (`d0` 0 or 4) the engine takes.
    fn code() -> impl proptest::strategy::Strategy<Value = HeapRule> {
        use proptest::prelude::*;
        (
            prop::sample::select(vec!["0", "4"]),
            prop::collection::vec(0u8..8, 1..=4),
        )
            .prop_filter_map("a rule the engine takes", |(d0, digits)| {
                let digits: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
                let rule = HeapRule::parse(&format!("{d0}.{digits}")).ok()?;
                DomainSequence::new(&rule, Vec::new()).map(|_| rule)
            })
    }

    /// The engine with the far marks filled on the helper thread from the first block on
    /// (whatever the number of processors), and `window` positions marked with them.
    fn pipelined(rule: &HeapRule, window: usize) -> DomainSequence {
        let mut s = DomainSequence::new(rule, Vec::new()).unwrap();
        s.set_pipeline(Pipeline::Patient);
        s.set_window(window);
        s
    }

    #[test]
    fn the_pipeline_and_the_window_give_the_same_values() {
        for code in ["0.205", "0.217", "0.324", "0.106", "0.142"] {
            let rule = HeapRule::parse(code).unwrap();
            let alone = domain(&rule, 6000);
            for window in [0, 1, 64, 200] {
                let mut s = pipelined(&rule, window);
                assert!(s.extend_to_len(6000, &mut Control::none()).unwrap());
                assert_eq!(s.values(), alone.values(), "{code} window {window}");
                // The blocks (while the values are below 128) but the first took the
                // helper's marks.
                let (used, late) = s.pipeline_blocks();
                assert!(used > 0 && late == 0, "{code}: {used} {late}");
                if code != "0.142" {
                    assert_eq!(used, 6000 / 64, "{code}");
                }
                let mut s = DomainSequence::new(&rule, Vec::new()).unwrap();
                s.set_pipeline(Pipeline::Off);
                s.set_window(window);
                assert!(s.extend_to_len(6000, &mut Control::none()).unwrap());
                assert_eq!(
                    s.values(),
                    alone.values(),
                    "{code} window {window}, one core"
                );
            }
        }
    }

    #[test]
    fn a_failing_helper_is_an_error_not_a_hang() {
        let rule = HeapRule::parse("0.205").unwrap();
        let whole = plain(&rule, 3000);
        for fail_after in [0, 1, 5] {
            let mut s = pipelined(&rule, 16);
            s.second.fail_after = Some(fail_after);
            let err = s.extend_to_len(3000, &mut Control::none()).unwrap_err();
            assert!(err.to_string().contains("helper thread"), "{err}");
            // The values computed stay a valid prefix, and the engine goes on alone.
            // The failing job is the first collected after `fail_after` good ones.
            let n = s.values().len();
            assert_eq!(n, 64 * (fail_after as usize + 1), "{fail_after}");
            assert_eq!(s.values(), &whole[..n]);
            s.set_pipeline(Pipeline::Off);
            assert!(s.extend_to_len(3000, &mut Control::none()).unwrap());
            assert_eq!(s.values(), whole.as_slice());
        }
    }

    #[test]
    fn cancelling_stops_the_pipeline() {
        let rule = HeapRule::parse("0.205").unwrap();
        let flag = std::sync::atomic::AtomicBool::new(true);
        let mut s = pipelined(&rule, 64);
        assert!(
            !s.extend_to_len(1 << 22, &mut Control::none().with_cancel(&flag))
                .unwrap()
        );
        let n = s.values().len();
        assert!(n < 1 << 22);
        // And it resumes, on the same thread, from where it stopped.
        assert!(
            s.extend_to_len(n as u64 + 3000, &mut Control::none())
                .unwrap()
        );
        let whole = plain(&rule, n as u64 + 3000);
        assert_eq!(s.values(), whole.as_slice());
    }

    /// The values of `s` extended to `again` (at most `len`), the mask chosen again, then
    /// extended to `len` in steps of `step` (each call starts its blocks afresh).
    fn in_steps(mut s: DomainSequence, len: u64, again: u64, step: u64) -> Vec<u16> {
        assert!(
            s.extend_to_len(again.min(len), &mut Control::none())
                .unwrap()
        );
        s.rechoose();
        let mut to = again.min(len);
        while to < len {
            to = (to + step).min(len);
            assert!(s.extend_to_len(to, &mut Control::none()).unwrap());
        }
        s.values().to_vec()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
            cases(48)
        ))]

        /// With the far marks filled on the helper thread and a random window: the plain
        /// engine's values, the mask chosen again and the calls in steps as below.
        #[test]
        fn random_codes_match_the_plain_engine_on_two_cores(
            rule in code(),
            len in 1u64..2500,
            again in 0u64..2500,
            step in 1u64..600,
            window in 0usize..300,
        ) {
            let s = pipelined(&rule, window);
            proptest::prop_assert_eq!(in_steps(s, len, again, step), plain(&rule, len));
        }

        /// Whatever the code and the mask (chosen again at a random point), the plain
        /// engine's values.
        #[test]
        fn random_codes_match_the_plain_engine(
            rule in code(),
            len in 1u64..2000,
            again in 0u64..2000,
            step in 1u64..300,
        ) {
            let s = DomainSequence::new(&rule, Vec::new()).unwrap();
            proptest::prop_assert_eq!(in_steps(s, len, again, step), plain(&rule, len));
        }
    }
}
