//! The small-values engine: the definition, `g(n) = mex` of the options, for plain octal codes
//! without sparse space, with the option values marked by plain byte stores.
//!
//! Many octal games have no sparse space (no mask leaves few rare positions): 0.274, 0.565,
//! 0.614, 0.004, 0.765 and a hundred more of the three-digit codes. For them the
//! sparse-space method of [`super::sparse`] cannot help and every split must be looked at:
//! `O(n)` per heap, `O(N²)` for `g(0..N)`. What is left to win is the constant. This engine
//! marks `seen[g(a) ^ g(m − a)] = 1` in a byte table as long as the next power of two above
//! the largest value (cleared per heap, a few hundred bytes for these games): a plain store
//! per split, where a bitset needs a load, an or and a store, so that consecutive marks
//! never wait on each other; no option is built; the mex is the first zero byte (`memchr`).
//! Long split ranges (`m ≥ 2^17`) are halved over two threads (rayon). Measured
//! (`cargo bench -p grundy --bench all_codes`): see `benches/all_codes.rs`.
//!
//! Cost: `O(t + s·n)` per heap for `s` the split digits, `O(s·N²/4)` in all, each step a few
//! instructions; the same values as [`super::plain`] (checked on random codes). It computes
//! plain octal codes (digits 0–7, the digit before the point 0 or 4); others are refused
//! with [`SmallSequence::new`] returning `None`.
//!
//! ```
//! use grundy::control::Control;
//! use grundy::heap::rules::HeapRule;
//! use grundy::heap::small::SmallSequence;
//! let mut s = SmallSequence::new(&HeapRule::parse("0.77").unwrap(), Vec::new()).unwrap();
//! assert!(s.extend_to_len(12, &mut Control::none()).unwrap());
//! assert_eq!(s.values(), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
//! ```

use super::engine::{SequenceEngine, SequenceError};
use super::rules::{HeapRule, RuleKind};
use crate::control::Control;

/// Values computed between progress reports and cancellation checks, at most.
const REPORT_EVERY: usize = 1 << 12;
/// Split pairs looked at between cancellation checks, at most.
const WORK_EVERY: u64 = 1 << 26;
/// Split ranges at least this long are halved over two threads.
const PARALLEL_FROM: usize = 1 << 16;

/// A nim-sequence of a plain octal code computed from the definition with word-sized marks:
/// see the [module documentation](self).
#[derive(Clone, Debug)]
pub struct SmallSequence {
    /// `j ≥ 1` that may take a whole heap of `j`.
    take_all: Vec<usize>,
    /// `j ≥ 1` that may leave one heap.
    take_one: Vec<usize>,
    /// `j ≥ 0` that may leave two non-empty heaps.
    split: Vec<usize>,
    values: Vec<u16>,
    max_value: u16,
    /// `seen[v] != 0` when value `v` is among the options of the heap being computed.
    seen: Vec<u8>,
    /// The second thread's marks on long split ranges.
    other: Vec<u8>,
    /// Split pairs looked at so far (at most `n/2` a split digit and heap `n`), and one a
    /// value.
    steps: u64,
}

/// The moves of a plain octal code (digits 0–7, no constraint, no three-heap digit, the
/// digit before the point 0 or 4), read off its digits: the amounts `j` that may take a
/// whole heap, that may leave one heap, and that may leave two.
pub(super) struct PlainMoves {
    /// `j ≥ 1` whose digit has bit 1: a heap of `j` may be taken whole.
    pub take_all: Vec<usize>,
    /// `j ≥ 1` whose digit has bit 2: `j` may be taken leaving one heap.
    pub take_one: Vec<usize>,
    /// `j ≥ 0` whose digit has bit 4: `j` may be taken leaving two heaps.
    pub split: Vec<usize>,
}

impl PlainMoves {
    /// The moves of `rule`, or `None` unless it is a plain octal code.
    pub(super) fn of(rule: &HeapRule) -> Option<Self> {
        let RuleKind::TakeBreak(tb) = rule.kind() else {
            return None;
        };
        let code = tb.as_plain_code()?;
        if code.is_hex() || code.digit(0) & 3 != 0 {
            return None;
        }
        let mut moves = PlainMoves {
            take_all: Vec::new(),
            take_one: Vec::new(),
            split: Vec::new(),
        };
        for (j, &d) in code.digits().iter().enumerate() {
            if d & 1 != 0 && j > 0 {
                moves.take_all.push(j);
            }
            if d & 2 != 0 && j > 0 {
                moves.take_one.push(j);
            }
            if d & 4 != 0 {
                moves.split.push(j);
            }
        }
        Some(moves)
    }
}

impl SmallSequence {
    /// The engine for `rule`, continuing from `prefix` (its first values); `None` unless the
    /// rule is a plain octal code (no constraint, no three-heap digit).
    pub fn new(rule: &HeapRule, prefix: Vec<u16>) -> Option<Self> {
        let moves = PlainMoves::of(rule)?;
        Some(SmallSequence {
            take_all: moves.take_all,
            take_one: moves.take_one,
            split: moves.split,
            max_value: prefix.iter().copied().max().unwrap_or(0),
            values: prefix,
            seen: Vec::new(),
            other: Vec::new(),
            steps: 0,
        })
    }

    /// The values computed so far: `values()[n]` is `g(n)`.
    pub fn values(&self) -> &[u16] {
        &self.values
    }

    /// The values, giving up the engine.
    pub fn into_values(self) -> Vec<u16> {
        self.values
    }

    /// The largest value so far.
    pub fn max_value(&self) -> u16 {
        self.max_value
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
        self.values
            .try_reserve(target - self.values.len())
            .map_err(|_| SequenceError::TooLong { requested: len })?;
        let mut since_report = 0usize;
        let mut work = 0u64;
        while self.values.len() < target {
            let n = self.values.len();
            let v = self.value_of(n);
            let v =
                u16::try_from(v).map_err(|_| SequenceError::ValueTooLarge { heap: n as u64 })?;
            self.values.push(v);
            self.max_value = self.max_value.max(v);
            since_report += 1;
            let pairs = (self.split.len() * (n / 2)) as u64 + 1;
            work += pairs;
            self.steps = self.steps.saturating_add(pairs);
            if since_report >= REPORT_EVERY || work >= WORK_EVERY {
                since_report = 0;
                work = 0;
                control.report(self.values.len() as u64, len);
                if control.is_cancelled() {
                    return Ok(self.values.len() >= target);
                }
            }
        }
        control.report(self.values.len() as u64, len);
        Ok(true)
    }

    /// `g(n)` from `g(0..n)`.
    fn value_of(&mut self, n: usize) -> usize {
        let mut seen = std::mem::take(&mut self.seen);
        let size = mark_removals(
            &mut seen,
            n,
            self.max_value,
            (&self.take_all, &self.take_one),
            &self.values,
        );
        for k in 0..self.split.len() {
            let j = self.split[k];
            if n >= j + 2 {
                self.mark_splits(n - j, &mut seen);
            }
        }
        let mex = memchr::memchr(0, &seen).unwrap_or(size);
        self.seen = seen;
        mex
    }

    /// Marks `g(a) ^ g(m − a)` for `1 ≤ a ≤ m/2` in `seen` (its length a power of two above
    /// every value); long ranges on two threads.
    fn mark_splits(&mut self, m: usize, seen: &mut [u8]) {
        let last = m / 2;
        if last < PARALLEL_FROM {
            mark_pairs(&self.values, m, 1, last, seen);
            return;
        }
        let mid = last / 2;
        let mut other = std::mem::take(&mut self.other);
        other.clear();
        other.resize(seen.len(), 0);
        let values = &self.values;
        rayon::join(
            || mark_pairs(values, m, 1, mid, seen),
            || mark_pairs(values, m, mid + 1, last, &mut other),
        );
        for (a, &b) in seen.iter_mut().zip(&other) {
            *a |= b;
        }
        self.other = other;
    }
}

/// Clears `seen` to a table of `size` bytes, a power of two (at least 64) above `max_value`,
/// and marks the values of the options of heap `n` that leave one heap or none (`take_all`:
/// the amounts that may take the whole heap; `take_one`: those that may leave a heap).
/// Returns `size`. Every option value is below `size`: values are at most `max_value`, and a
/// nim-sum of two values below a power of two is below it.
#[inline]
pub(super) fn mark_removals(
    seen: &mut Vec<u8>,
    n: usize,
    max_value: u16,
    (take_all, take_one): (&[usize], &[usize]),
    values: &[u16],
) -> usize {
    let size = (usize::from(max_value) + 1).next_power_of_two().max(64);
    seen.clear();
    seen.resize(size, 0);
    if take_all.contains(&n) {
        seen[0] = 1;
    }
    for &j in take_one {
        if n > j {
            seen[usize::from(values[n - j])] = 1;
        }
    }
    size
}

/// Sets `seen[g(a) ^ g(m − a)]` for `from ≤ a ≤ to` (`seen`'s length a power of two above
/// every value). Plain stores, no read-modify-write: consecutive marks do not wait on each
/// other.
#[inline]
fn mark_pairs(values: &[u16], m: usize, from: usize, to: usize, seen: &mut [u8]) {
    if from > to {
        return;
    }
    let mask = seen.len() - 1;
    // a = from..=to pairs with m - a = m - from down to m - to.
    let left = &values[from..=to];
    let right = &values[m - to..=m - from];
    for (&x, &y) in left.iter().zip(right.iter().rev()) {
        // The mask changes nothing (every nim-sum is below the length); it lets the
        // compiler drop the bounds check.
        seen[usize::from(x ^ y) & mask] = 1;
    }
}

impl SequenceEngine for SmallSequence {
    fn name(&self) -> &'static str {
        "small"
    }
    fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError> {
        SmallSequence::extend_to_len(self, len, control)
    }
    fn values(&self) -> &[u16] {
        SmallSequence::values(self)
    }
    fn into_values(self: Box<Self>) -> Vec<u16> {
        SmallSequence::into_values(*self)
    }
    fn work_steps(&self) -> Option<u64> {
        Some(self.steps)
    }
    fn memory_needed(&self, n: u64) -> u64 {
        // The values (two bytes each, grown by at most doubling) and the tables.
        n.saturating_add(1)
            .saturating_mul(4)
            .saturating_add(1 << 13)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::plain::reference_values as plain;

    fn small(rule: &HeapRule, n: u64) -> Vec<u16> {
        let mut s = SmallSequence::new(rule, Vec::new()).unwrap();
        assert!(s.extend_to_len(n, &mut Control::none()).unwrap());
        s.into_values()
    }

    #[test]
    fn refuses_what_it_does_not_compute() {
        for rule in ["grundys-game", "0.8", "sub(1,3)", "lasker", "0.7!7"] {
            let rule = HeapRule::parse(rule).unwrap();
            assert!(SmallSequence::new(&rule, Vec::new()).is_none(), "{rule}");
        }
    }

    #[test]
    fn matches_the_plain_engine_across_word_widths() {
        // 0.274 stays below 128, 0.004 and 0.765 grow past 256 and 1024 (the table grows),
        // 4.07 splits without removing.
        for (code, n) in [
            ("0.274", 3000),
            ("0.004", 6000),
            ("0.765", 12_000),
            ("4.07", 2000),
            ("0.6", 3000),
        ] {
            let rule = HeapRule::parse(code).unwrap();
            let a = small(&rule, n);
            assert_eq!(a, plain(&rule, n), "{code}");
            if code == "0.765" {
                assert!(a.iter().any(|&v| v >= 1024), "0.765 grows past 1024");
            }
        }
    }

    #[test]
    fn resumes_from_a_prefix_and_stops_when_cancelled() {
        let rule = HeapRule::parse("0.004").unwrap();
        let whole = plain(&rule, 2500);
        let mut s = SmallSequence::new(&rule, whole[..700].to_vec()).unwrap();
        assert!(s.extend_to_len(2500, &mut Control::none()).unwrap());
        assert_eq!(s.values(), whole.as_slice());
        let flag = std::sync::atomic::AtomicBool::new(true);
        let mut s = SmallSequence::new(&rule, Vec::new()).unwrap();
        assert!(
            !s.extend_to_len(1 << 20, &mut Control::none().with_cancel(&flag))
                .unwrap()
        );
        let n = s.values().len();
        assert!(n < 1 << 20);
        assert_eq!(&s.values()[..n.min(2500)], &whole[..n.min(2500)]);
    }
}
