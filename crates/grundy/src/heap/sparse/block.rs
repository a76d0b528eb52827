//! The inner loops of a sparse-space block: marking option values into per-heap bitsets.
//!
//! A block computes heaps `[n0, n0 + len)`. Its first phase, run in parallel over heaps,
//! marks the split values of rare partners far from the heap: a rare position `p >= len`
//! pairs with `m - p < n0`, known before the block. (Marking pairs from the middle of the
//! split range there too was tried and dropped: the rare values a heap needs are found by
//! pairs `(a, m - a)` with small `a` — whose partners are recent values — after some 150 pairs
//! in 0.167, but take thousands of pairs from the middle, where values look independent.)
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

/// Marks `g(p) ^ g(m - p)` for each rare position of the list in the byte table `seen`
/// (one byte per value: plain stores, with no read-modify-write chain between steps).
#[inline]
pub(crate) fn rare_bytes(seen: &mut [u8], values: &[u16], m: usize, pos: &[u32], val: &[u16]) {
    for (&p, &v) in pos.iter().zip(val) {
        seen[(v ^ values[m - p as usize]) as usize] = 1;
    }
}

/// ORs the byte table `seen` (a multiple of 64 long) into the bitset `row`.
#[inline]
pub(crate) fn pack_bytes(seen: &[u8], row: &mut [u64]) {
    for (word, bytes) in row.iter_mut().zip(seen.chunks_exact(64)) {
        *word |= bytes
            .iter()
            .enumerate()
            .fold(0u64, |acc, (b, &s)| acc | ((s != 0) as u64) << b);
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
    /// Every value is below `size`.
    pub size: usize,
}

impl FarPhase<'_> {
    /// Fills the rows of heaps `n0 + first ..` (one bitset of `words` words each); returns
    /// the rare-partner nim-sums evaluated.
    pub fn fill(&self, first: usize, rows: &mut [u64], words: usize) -> u64 {
        let n0 = self.values.len();
        let mut rare_steps = 0u64;
        let mut seen = if self.size > 64 {
            vec![0u8; self.size]
        } else {
            Vec::new()
        };
        for (k, row) in rows.chunks_exact_mut(words).enumerate() {
            let n = n0 + first + k;
            let mut word = 0u64;
            seen.fill(0);
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
                rare_steps += hi as u64;
                if self.size <= 64 {
                    word |= rare_word(self.values, m, pos, val);
                } else {
                    rare_bytes(&mut seen, self.values, m, pos, val);
                }
            }
            row[0] |= word;
            pack_bytes(&seen, row);
        }
        rare_steps
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
                let direct =
                    (from..=to).fold(0u64, |acc, a| acc | 1 << (values[a] ^ values[m - a]));
                assert_eq!(range_word(&values, m, from, to), direct, "{m} {from} {to}");
            }
            let pos = [1u32, 4, 9];
            let val = [values[1], values[4], values[9]];
            let mut seen = [0u8; 64];
            rare_bytes(&mut seen, &values, m, &pos, &val);
            let mut row = [0u64; 1];
            pack_bytes(&seen, &mut row);
            assert_eq!(rare_word(&values, m, &pos, &val), row[0]);
        }
    }
}
