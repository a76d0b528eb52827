//! The moves of a take-and-break code, sorted by how many heaps they leave.

use rayon::prelude::*;

use crate::heap::code::Code;
use crate::heap::rules::{Constraint, TakeBreak};

use super::SparseError;

/// A two-heap split: remove `j` tokens and split the rest `m = n - j` into `a + (m - a)`,
/// both non-empty, the two heaps unequal when `unequal` (the `!` and `?` constraints:
/// Grundy's game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    /// The tokens removed.
    pub j: usize,
    /// Whether the two heaps must differ (`a ≠ m − a`).
    pub unequal: bool,
}

impl Split {
    /// The largest smaller part `a` of a split of `m ≥ 2`: `⌊m/2⌋`, or `⌊(m − 1)/2⌋` when the
    /// parts must differ.
    #[inline]
    pub fn last(self, m: usize) -> usize {
        if self.unequal { (m - 1) / 2 } else { m / 2 }
    }

    /// The rare positions of `pos` (ascending, all below `m`) that pair with a partner
    /// under this split: all of them, or, for unequal parts, all but `m / 2`. Two slices
    /// of indices into `pos`, the second possibly empty.
    #[inline]
    pub fn partners(self, pos: &[u32], m: usize) -> [std::ops::Range<usize>; 2] {
        let all = 0..pos.len();
        if !self.unequal || m % 2 == 1 {
            return [all, 0..0];
        }
        let half = m / 2;
        let i = pos.partition_point(|&p| (p as usize) < half);
        if pos.get(i).is_some_and(|&p| p as usize == half) {
            [0..i, i + 1..pos.len()]
        } else {
            [all, 0..0]
        }
    }
}

/// The moves of an octal or hexadecimal code, grouped by the number of heaps left.
///
/// Removing `j` tokens from a heap of `n` may leave no heap (only when `j = n`), one heap of
/// `n - j >= 1`, two heaps `a + b = n - j` with `a, b >= 1`, or (hexadecimal codes) three
/// non-empty heaps. The digit before the point (`j = 0`) may only split. Constraints on
/// two-heap splits are kept (`!` and `?`: the heaps differ; `=`: they are equal, which
/// leaves the single option value 0); constraints on three-heap splits are not supported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Moves {
    /// `j >= 1` whose removal may take the whole heap.
    pub take_all: Vec<usize>,
    /// `j >= 1` whose removal may leave one heap.
    pub take_one: Vec<usize>,
    /// The two-heap splits.
    pub split2: Vec<Split>,
    /// `j >= 0` whose removal may leave two equal heaps only (`=`): option value 0.
    pub equal2: Vec<usize>,
    /// `j >= 0` whose removal may leave three heaps.
    pub split3: Vec<usize>,
}

impl Moves {
    /// The moves of `code`; refuses a digit before the point that allows anything but splits
    /// (removing nothing and leaving one heap, or the empty heap, is not a move).
    pub fn new(code: &Code) -> Result<Moves, SparseError> {
        Moves::with_constraints(code, &[])
    }

    /// The moves of a code with constraints (`constraints[j]` for digit `j`, `Any` where
    /// missing); refuses constraints on three-heap splits.
    pub fn of(tb: &TakeBreak) -> Result<Moves, SparseError> {
        Moves::with_constraints(tb.code(), tb.constraints())
    }

    fn with_constraints(code: &Code, constraints: &[Constraint]) -> Result<Moves, SparseError> {
        let unsupported = |reason: &str| SparseError::Unsupported {
            code: code.to_string(),
            reason: reason.into(),
        };
        if code.digit(0) & 0b0011 != 0 {
            return Err(unsupported(
                "the digit before the point may only allow splitting (4, 8 or c): \
                 removing nothing cannot leave one heap or none",
            ));
        }
        let mut moves = Moves {
            take_all: Vec::new(),
            take_one: Vec::new(),
            split2: Vec::new(),
            equal2: Vec::new(),
            split3: Vec::new(),
        };
        for (j, &d) in code.digits().iter().enumerate() {
            let constraint = constraints.get(j).copied().unwrap_or_default();
            if d & 1 != 0 {
                moves.take_all.push(j);
            }
            if d & 2 != 0 {
                moves.take_one.push(j);
            }
            if d & 4 != 0 {
                match constraint {
                    Constraint::Any => moves.split2.push(Split { j, unequal: false }),
                    Constraint::Unequal | Constraint::NotAllEqual => {
                        moves.split2.push(Split { j, unequal: true })
                    }
                    Constraint::AllEqual => moves.equal2.push(j),
                }
            }
            if d & 8 != 0 {
                if constraint != Constraint::Any {
                    return Err(unsupported(
                        "constraints on splits into three heaps have no sparse-space method here",
                    ));
                }
                moves.split3.push(j);
            }
        }
        Ok(moves)
    }
}

/// Sets bit `x` of a bitset.
#[inline(always)]
pub(crate) fn set_bit(bits: &mut [u64], x: usize) {
    bits[x >> 6] |= 1 << (x & 63);
}

/// Marks every option value of heap `n` except the two-heap splits: whole-heap removals,
/// one-heap removals and (by a direct triple loop, `O(n^2)` per heap) three-heap splits.
/// `values` holds `g(0..n)`; every value marked must be below `bits.len() * 64`.
pub(crate) fn mark_simple_options(moves: &Moves, values: &[u16], n: usize, bits: &mut [u64]) {
    for &j in &moves.take_all {
        if n == j {
            set_bit(bits, 0);
        }
    }
    for &j in &moves.take_one {
        if n > j {
            set_bit(bits, values[n - j] as usize);
        }
    }
    for &j in &moves.equal2 {
        if n >= j + 2 && (n - j) % 2 == 0 {
            set_bit(bits, 0);
        }
    }
    for &j in &moves.split3 {
        if n < j + 3 {
            continue;
        }
        let m = n - j;
        for a in 1..=m / 3 {
            let ga = values[a];
            for b in a..=(m - a) / 2 {
                let c = m - a - b;
                set_bit(bits, (ga ^ values[b] ^ values[c]) as usize);
            }
        }
    }
}

/// Marks every two-heap split value of heap `n` (`O(n)`); long ranges are split over all
/// cores, each part marking its own bitset.
pub(crate) fn mark_all_splits(moves: &Moves, values: &[u16], n: usize, bits: &mut [u64]) {
    const PARALLEL_FROM: usize = 1 << 16;
    for &split in &moves.split2 {
        let j = split.j;
        if n < j + 2 {
            continue;
        }
        let m = n - j;
        let last = split.last(m);
        if last < PARALLEL_FROM {
            mark_split_range(values, m, 1, last, bits);
            continue;
        }
        let parts = 4 * rayon::current_num_threads();
        let per = last.div_ceil(parts);
        let words = bits.len();
        let found = (0..parts)
            .into_par_iter()
            .map(|k| {
                let mut part = vec![0u64; words];
                let from = 1 + k * per;
                mark_split_range(values, m, from, (from + per - 1).min(last), &mut part);
                part
            })
            .reduce(
                || vec![0u64; words],
                |mut a, b| {
                    a.iter_mut().zip(&b).for_each(|(x, y)| *x |= y);
                    a
                },
            );
        bits.iter_mut().zip(&found).for_each(|(x, y)| *x |= y);
    }
}

/// Marks `g(a) ^ g(m - a)` for `a` in `from..=to`.
fn mark_split_range(values: &[u16], m: usize, from: usize, to: usize, bits: &mut [u64]) {
    for a in from..=to {
        set_bit(bits, (values[a] ^ values[m - a]) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_split_ranges_are_marked_in_parallel_alike() {
        let n = (1 << 17) + 11;
        let values: Vec<u16> = (0..n as u64)
            .map(|i| ((i * i + 7 * i) % 251) as u16)
            .collect();
        let moves = Moves::new(&"0.04".parse().unwrap()).unwrap();
        let mut parallel = vec![0u64; 4];
        mark_all_splits(&moves, &values, n, &mut parallel);
        let mut direct = vec![0u64; 4];
        let m = n - 2;
        for a in 1..=m / 2 {
            set_bit(&mut direct, (values[a] ^ values[m - a]) as usize);
        }
        assert_eq!(parallel, direct);
        assert!(direct.iter().map(|w| w.count_ones()).sum::<u32>() > 100);
    }
}
