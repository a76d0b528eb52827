//! Chomp by a dense table over every staircase in a box, in rank order: no hashing, no
//! recursion.
//!
//! A Chomp position inside an `R × C` box (rows `l_0 ≥ l_1 ≥ … ≥ l_{R−1} ≥ 0`, each at most
//! `C`) is a lattice path, and so an `R`-element subset of `0..R + C`: `s_j = l_{R−1−j} + j`
//! is strictly increasing. Its rank in the combinatorial number system,
//! `Σ_j binom(s_j, j + 1)`, numbers the `binom(R + C, R)` staircases densely, and a bite
//! only shortens rows, so **every option has a smaller rank**: the values can be filled in
//! rank order, each the mex of values already in the table, up to the rank of the start.
//!
//! The options of a position are found from its rank with no listing: for a column `c`,
//! the rows longer than `c` are a prefix `0..k(c)`, and biting at (`r`, `c`) cuts rows
//! `r..k(c)` to `c`, changing the rank by a sum of binomial differences over those rows,
//! accumulated from the bottom row up. So a position of `n` squares costs `n` additions
//! and `n` reads of the table (a byte each).
//!
//! Complexity: `O(binom(R + C, R) · R · C)` time and `binom(R + C, R)` bytes (Chomp 10 × 12:
//! 646 646 staircases, 0.6 MB). The generic position search ([`super::ChompGame`]) must
//! also reach every staircase below the start (no option of a Chomp position can be
//! skipped when its value is the mex), but through a hash table; this is the same
//! computation in the order that needs none. Reference for the numbering: D. E. Knuth,
//! *The Art of Computer Programming* 4A, §7.2.1.3 (combinations in colex order).

use crate::control::{Budget, BudgetError};

/// The most squares of a box the table takes (so that every value fits a byte: a value is
/// at most the number of options, one fewer than the squares).
pub const MAX_BOX: u64 = 256;

/// The values of every Chomp position in a box up to the rank of a start position.
#[derive(Clone, Debug)]
pub struct StaircaseTable {
    /// Rows of the box (not more than its columns: the table is built the short way).
    rows: usize,
    /// Columns of the box.
    cols: usize,
    /// Whether the positions asked about are turned (conjugated) into the box.
    turned: bool,
    /// `binom[n * (rows + 1) + k]` = `binom(n, k)` for `n ≤ rows + cols`, `k ≤ rows`.
    binom: Vec<u64>,
    /// The value of each rank, up to the start's.
    values: Vec<u8>,
}

/// The conjugate: column heights as row lengths.
fn conjugate(rows: &[u64]) -> Vec<u64> {
    let width = rows.first().copied().unwrap_or(0);
    (0..width)
        .map(|c| rows.iter().take_while(|&&len| len > c).count() as u64)
        .collect()
}

impl StaircaseTable {
    /// The number of staircases in the box of a position (row lengths, top first, never
    /// increasing), if it fits `u64` and the box has at most [`MAX_BOX`] squares.
    pub fn positions(rows: &[u64]) -> Option<u64> {
        let (r, c) = (rows.len() as u64, rows.first().copied()?);
        if r.checked_mul(c)? > MAX_BOX {
            return None;
        }
        binomial(r + c, r.min(c))
    }

    /// Fills the table up to the position `rows` (row lengths, top first, never
    /// increasing, each at least 1), charging the work (a unit per staircase filled and
    /// one per 16 of its squares) and the memory to `budget`.
    pub fn build(rows: &[u64], budget: &Budget) -> Result<StaircaseTable, BudgetError> {
        let turned = rows.len() as u64 > rows.first().copied().unwrap_or(0);
        let rows: Vec<u64> = if turned {
            conjugate(rows)
        } else {
            rows.to_vec()
        };
        let (r, c) = (rows.len(), rows[0] as usize);
        let mut binom = vec![0u64; (r + c + 1) * (r + 1)];
        for n in 0..=r + c {
            binom[n * (r + 1)] = 1;
            for k in 1..=r.min(n) {
                // binom(n, k) ≤ binom(r + c, r) for k ≤ r ≤ c: no overflow once the count
                // has been checked; saturate regardless.
                let v = binom[(n - 1) * (r + 1) + k - 1].saturating_add(if k < n {
                    binom[(n - 1) * (r + 1) + k]
                } else {
                    0
                });
                binom[n * (r + 1) + k] = v;
            }
        }
        let mut table = StaircaseTable {
            rows: r,
            cols: c,
            turned,
            binom,
            values: Vec::new(),
        };
        let start = table.rank(&rows);
        let count = usize::try_from(start)
            .ok()
            .and_then(|s| s.checked_add(1))
            .ok_or(BudgetError::Positions {
                limit: budget.limits().max_positions,
            })?;
        budget.check_positions(count)?;
        let mut values: Vec<u8> = budget.vec_with_capacity(count)?;
        values.resize(count, 0);
        table.fill(&mut values, budget)?;
        table.values = values;
        Ok(table)
    }

    /// `binom(n, k)` for `n ≤ rows + cols`, `k ≤ rows`.
    fn binom(&self, n: usize, k: usize) -> u64 {
        self.binom[n * (self.rows + 1) + k]
    }

    /// The rank of row lengths (at most `rows` of them, each at most `cols`).
    fn rank(&self, lengths: &[u64]) -> u64 {
        let r = self.rows;
        (0..r)
            .map(|j| {
                let len = lengths.get(r - 1 - j).copied().unwrap_or(0) as usize;
                self.binom(len + j, j + 1)
            })
            .sum()
    }

    /// Every rank in order, each the mex of its options' values.
    fn fill(&self, values: &mut [u8], budget: &Budget) -> Result<(), BudgetError> {
        let r = self.rows;
        // The current staircase, bottom row first (`len[j]` is row `r − 1 − j` from the
        // top), so that `s_j = len[j] + j`: colex order of subsets is rank order.
        let mut len = vec![0usize; r];
        // `here[j]`: row `j`'s term of the rank, `binom(len[j] + j, j + 1)`.
        let mut here = vec![0u64; r];
        let mut seen = [0u64; 4];
        let mut charged = 0u64;
        for rank in 0..values.len() {
            if rank > 0 {
                next_staircase(&mut len, self.cols);
            }
            let mut squares = 0;
            for (j, &l) in len.iter().enumerate() {
                here[j] = self.binom(l + j, j + 1);
                squares += l;
            }
            // One unit per staircase and one per 16 of its options (an option costs a few
            // nanoseconds here, against tens for a move of the other engines).
            charged += 1 + squares as u64 / 16;
            if charged >= 1 << 16 {
                budget.charge(charged)?;
                charged = 0;
            }
            seen.fill(0);
            // Rows longer than `c` are `lo..r` (bottom-first lengths never decrease).
            let mut lo = 0;
            for c in 0..len[r - 1] {
                while len[lo] <= c {
                    lo += 1;
                }
                // Biting at (row `r − 1 − j` from the top, column `c`) cuts rows `lo..=j`
                // to `c`: the rank falls by their terms' differences, summed upwards.
                let mut delta = 0u64;
                for (j, &term) in here.iter().enumerate().skip(lo) {
                    delta += term - self.binom(c + j, j + 1);
                    if j == r - 1 && c == 0 {
                        // The poisoned square is never bitten.
                        break;
                    }
                    let v = values[rank - delta as usize];
                    seen[usize::from(v >> 6)] |= 1 << (v & 63);
                }
            }
            values[rank] = mex(&seen);
        }
        budget.charge(charged)?;
        Ok(())
    }

    /// The value of a position (row lengths, top first) inside the box and at most the
    /// start, if it is one.
    pub fn value(&self, lengths: &[u64]) -> Option<u32> {
        let lengths = if self.turned {
            conjugate(lengths)
        } else {
            lengths.to_vec()
        };
        if lengths.len() > self.rows || lengths.first().is_some_and(|&l| l as usize > self.cols) {
            return None;
        }
        let rank = usize::try_from(self.rank(&lengths)).ok()?;
        self.values.get(rank).map(|&v| u32::from(v))
    }
}

/// The least value whose bit is not set.
fn mex(seen: &[u64; 4]) -> u8 {
    crate::nimber::mex_of_bits(seen).min(255) as u8
}

/// The next staircase in colex order of its subset (`len` bottom-first, `s_j = len[j] + j`).
fn next_staircase(len: &mut [usize], cols: usize) {
    let r = len.len();
    // The lowest j whose s_j can grow without meeting s_{j+1}: len[j] < len[j + 1] (or
    // the top row, below `cols`); every row below it starts again from 0.
    for j in 0..r {
        let room = if j + 1 < r {
            len[j] < len[j + 1]
        } else {
            len[j] < cols
        };
        if room {
            len[j] += 1;
            for l in &mut len[..j] {
                *l = 0;
            }
            return;
        }
    }
}

/// `binom(n, k)`, if it fits.
fn binomial(n: u64, k: u64) -> Option<u64> {
    let k = k.min(n - k.min(n));
    let mut out = 1u64;
    for i in 0..k {
        // out * (n - i) / (i + 1) stays whole.
        out = out.checked_mul(n - i)? / (i + 1);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Chomp from the definition: row lengths, top first.
    fn brute(rows: &[u64], memo: &mut HashMap<Vec<u64>, u8>) -> u8 {
        if let Some(&v) = memo.get(rows) {
            return v;
        }
        let mut seen = [0u64; 4];
        for r in 0..rows.len() {
            for c in 0..rows[r] {
                if r == 0 && c == 0 {
                    continue;
                }
                let next: Vec<u64> = rows
                    .iter()
                    .enumerate()
                    .map(|(i, &l)| if i >= r { l.min(c) } else { l })
                    .filter(|&l| l > 0)
                    .collect();
                let v = brute(&next, memo);
                seen[usize::from(v >> 6)] |= 1 << (v & 63);
            }
        }
        let v = mex(&seen);
        memo.insert(rows.to_vec(), v);
        v
    }

    /// Every staircase of at most `r` rows of at most `c` squares.
    fn staircases(r: usize, c: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let mut stack: Vec<Vec<u64>> = (1..=c).map(|l| vec![l]).collect();
        while let Some(rows) = stack.pop() {
            if rows.len() < r {
                for l in 1..=*rows.last().unwrap() {
                    let mut next = rows.clone();
                    next.push(l);
                    stack.push(next);
                }
            }
            out.push(rows);
        }
        out
    }

    #[test]
    fn every_staircase_in_small_boxes_matches_the_definition() {
        let mut memo = HashMap::new();
        for (r, c) in [(1, 5), (5, 1), (2, 7), (3, 4), (4, 3), (5, 6), (6, 5)] {
            // One table for the whole box answers every staircase in it.
            let full = vec![c; r];
            let table = StaircaseTable::build(&full, &Budget::default()).unwrap();
            assert_eq!(
                table.values.len() as u64,
                StaircaseTable::positions(&full).unwrap()
            );
            for rows in staircases(r, c) {
                let want = u32::from(brute(&rows, &mut memo));
                assert_eq!(table.value(&rows), Some(want), "{rows:?} in {r}x{c}");
                // And a table built up to the position itself.
                let own = StaircaseTable::build(&rows, &Budget::default()).unwrap();
                assert_eq!(own.value(&rows), Some(want), "{rows:?}");
            }
        }
    }

    #[test]
    fn ranks_number_the_box_densely_in_colex_order() {
        let full = vec![4u64; 3];
        let table = StaircaseTable::build(&full, &Budget::default()).unwrap();
        let mut len = vec![0usize; 3];
        for rank in 0..35u64 {
            let top_first: Vec<u64> = len.iter().rev().map(|&l| l as u64).collect();
            assert_eq!(table.rank(&top_first), rank, "{top_first:?}");
            next_staircase(&mut len, 4);
        }
        assert_eq!(binomial(7, 3), Some(35));
        assert_eq!(binomial(200, 100), None);
    }

    #[test]
    fn the_budget_bounds_the_table() {
        use crate::control::Limits;
        let budget = Budget::new(Limits {
            max_positions: 100,
            ..Limits::DEFAULT
        });
        assert!(StaircaseTable::build(&[6; 6], &budget).is_err());
        let budget = Budget::new(Limits {
            max_work: 1000,
            ..Limits::DEFAULT
        });
        assert!(StaircaseTable::build(&[9; 9], &budget).is_err());
        assert_eq!(StaircaseTable::positions(&[17; 16]), None);
    }
}
