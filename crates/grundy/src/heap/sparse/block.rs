//! The inner loops of a sparse-space block: marking option values into per-heap bitsets.
//!
//! A block computes heaps `[n0, n0 + len)`. Its first phase, run in parallel over heaps,
//! marks every option value that needs only values known before the block (`g(0..n0)`):
//! - rare partners far from the heap: a rare position `p >= len` pairs with `m - p < n0`;
//! - the middle of the split range: pairs `(a, m - a)` with `a` just below `m / 2` and
//!   `m - a < n0`, `mid` of them per split digit. Every split value found here saves the
//!   sequential scan later; how many to take is tuned as the run goes (see `SparseSequence`).
//!
//! Values in a block stay below `size` (a power of two), so every nim-sum is below `size` too;
//! when `size <= 64` the marks are gathered in one machine word, which keeps the loops free
//! of memory round trips.

/// Adds `g(p) ^ g(m - p)` for each rare position `p` (value `g(p)` in `val`) to `acc` (one
/// word: every value below 64).
#[inline]
pub(crate) fn rare_word(values: &[u16], m: usize, pos: &[u32], val: &[u16]) -> u64 {
    let mut acc = 0u64;
    for (&p, &v) in pos.iter().zip(val) {
        acc |= 1u64 << ((v ^ values[m - p as usize]) & 63);
    }
    acc
}

/// Marks `g(p) ^ g(m - p)` for each rare position of the list into the bitset `row`.
#[inline]
pub(crate) fn rare_row(row: &mut [u64], values: &[u16], m: usize, pos: &[u32], val: &[u16]) {
    for (&p, &v) in pos.iter().zip(val) {
        let x = (v ^ values[m - p as usize]) as usize;
        row[x >> 6] |= 1 << (x & 63);
    }
}

/// `g(a) ^ g(m - a)` for `a` in `from..=to` gathered in one word (every value below 64).
#[inline]
pub(crate) fn range_word(values: &[u16], m: usize, from: usize, to: usize) -> u64 {
    if from > to {
        return 0;
    }
    let low = &values[from..=to];
    let high = &values[m - to..=m - from];
    let mut acc = [0u64; 4];
    let mut chunks = low.chunks_exact(4).zip(high.rchunks_exact(4));
    for (l, h) in &mut chunks {
        for k in 0..4 {
            acc[k] |= 1u64 << ((l[k] ^ h[3 - k]) & 63);
        }
    }
    let done = low.len() / 4 * 4;
    for (k, &l) in low.iter().enumerate().skip(done) {
        acc[0] |= 1u64 << ((l ^ high[high.len() - 1 - k]) & 63);
    }
    acc[0] | acc[1] | acc[2] | acc[3]
}

/// Marks `g(a) ^ g(m - a)` for `a` in `from..=to` into the bitset `row`.
#[inline]
pub(crate) fn range_row(row: &mut [u64], values: &[u16], m: usize, from: usize, to: usize) {
    for a in from..=to {
        let x = (values[a] ^ values[m - a]) as usize;
        row[x >> 6] |= 1 << (x & 63);
    }
}

/// What the first phase of a block reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FarPhase<'a> {
    /// `g(0..n0)`.
    pub values: &'a [u16],
    /// Rare positions `>= len` below `n0`, ascending, and their values.
    pub far_pos: &'a [u32],
    pub far_val: &'a [u16],
    /// Two-heap split removals.
    pub split2: &'a [usize],
    /// Middle split pairs to mark per split digit.
    pub mid: usize,
    /// Every value is below `size`.
    pub size: usize,
}

impl FarPhase<'_> {
    /// Fills the rows of heaps `n0 + first ..` (one bitset of `words` words each); returns
    /// the nim-sums evaluated (rare partners, middle pairs).
    pub fn fill(&self, first: usize, rows: &mut [u64], words: usize) -> (u64, u64) {
        let n0 = self.values.len();
        let (mut rare_steps, mut mid_steps) = (0u64, 0u64);
        for (k, row) in rows.chunks_exact_mut(words).enumerate() {
            let n = n0 + first + k;
            let mut word = 0u64;
            for &j in self.split2 {
                if n < j + 2 {
                    continue;
                }
                let m = n - j;
                let hi = if m >= n0 {
                    self.far_pos.len()
                } else {
                    self.far_pos.partition_point(|&p| (p as usize) < m)
                };
                let (pos, val) = (&self.far_pos[..hi], &self.far_val[..hi]);
                // Middle pairs (a, m - a): a <= m / 2, m - a < n0, at most `mid` of them.
                let to = m / 2;
                let from = 1.max(to + 1 - self.mid.min(to)).max((m + 1).saturating_sub(n0));
                rare_steps += hi as u64;
                mid_steps += (to + 1).saturating_sub(from) as u64;
                if self.size <= 64 {
                    word |= rare_word(self.values, m, pos, val);
                    word |= range_word(self.values, m, from, to);
                } else {
                    rare_row(row, self.values, m, pos, val);
                    if from <= to {
                        range_row(row, self.values, m, from, to);
                    }
                }
            }
            row[0] |= word;
        }
        (rare_steps, mid_steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_and_row_marking_agree() {
        let values: Vec<u16> = (0..200u16).map(|i| (i * 37 + i / 7) % 64).collect();
        for m in [10, 57, 150, 199] {
            for (from, to) in [(1, m / 2), (3, 3), (5, 4), (m / 2 - 2, m / 2)] {
                let mut row = [0u64; 1];
                if from <= to {
                    range_row(&mut row, &values, m, from, to);
                }
                assert_eq!(range_word(&values, m, from, to), row[0], "{m} {from} {to}");
            }
            let pos = [1u32, 4, 9];
            let val = [values[1], values[4], values[9]];
            let mut row = [0u64; 1];
            rare_row(&mut row, &values, m, &pos, &val);
            assert_eq!(rare_word(&values, m, &pos, &val), row[0]);
        }
    }
}
