//! The small-values engine: the definition, `g(n) = mex` of the options, for plain octal codes
//! whose values stay small, with the option values gathered in machine words.
//!
//! Many octal games have no sparse space (no mask leaves few rare positions: every value class
//! is common) yet small values: 0.274, 0.565, 0.566 and 0.614 stay below 128 to `2^15` and
//! beyond. For them the sparse-space method of [`super::sparse`] cannot help and every split
//! must be looked at: `O(n)` per heap, `O(N²)` for `g(0..N)`. What is left to win is the
//! constant. This engine keeps the values seen among the options of a heap in `W` machine
//! words held in registers (`W = 1` while every value is below 64, then 2, 4, 8, 16 up to
//! 1024), set by a branch-free shift-and-or per split, `acc[x >> 6] |= 1 << (x & 63)` with
//! `x = g(a) ^ g(m − a)`; no option is built, no table is cleared per heap, and the mex is
//! the first zero bit. Values of 1024 and more go to a bitset in memory. Long split ranges
//! (`m ≥ 2^16`) are halved over two threads (rayon).
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

use super::rules::{HeapRule, RuleKind};
use super::sequence::{SequenceEngine, SequenceError};
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
    /// The bitset for values of 1024 and more.
    wide: Vec<u64>,
}

impl SmallSequence {
    /// The engine for `rule`, continuing from `prefix` (its first values); `None` unless the
    /// rule is a plain octal code (no constraint, no three-heap digit).
    pub fn new(rule: &HeapRule, prefix: Vec<u16>) -> Option<Self> {
        let RuleKind::TakeBreak(tb) = rule.kind() else {
            return None;
        };
        let code = tb.as_plain_code()?;
        if code.is_hex() || code.digit(0) & 3 != 0 {
            return None;
        }
        let mut s = SmallSequence {
            take_all: Vec::new(),
            take_one: Vec::new(),
            split: Vec::new(),
            max_value: prefix.iter().copied().max().unwrap_or(0),
            values: prefix,
            wide: Vec::new(),
        };
        for (j, &d) in code.digits().iter().enumerate() {
            if d & 1 != 0 && j > 0 {
                s.take_all.push(j);
            }
            if d & 2 != 0 && j > 0 {
                s.take_one.push(j);
            }
            if d & 4 != 0 {
                s.split.push(j);
            }
        }
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

    /// The largest value so far.
    pub fn max_value(&self) -> u16 {
        self.max_value
    }

    /// Computes the values of heaps `0..len`; `Ok(false)` when cancelled through `control`
    /// (the values so far stay a valid prefix).
    pub fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError> {
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
            let v = u16::try_from(v).map_err(|_| SequenceError::ValueTooLarge { heap: n as u64 })?;
            self.values.push(v);
            self.max_value = self.max_value.max(v);
            since_report += 1;
            work += (self.split.len() * (n / 2)) as u64 + 1;
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
        // Every option value is below `size`: values are at most `max_value`, and a nim-sum
        // of two values below a power of two is below it.
        let size = (usize::from(self.max_value) + 1).next_power_of_two().max(64);
        match size / 64 {
            1 => self.mex_words::<1>(n),
            2 => self.mex_words::<2>(n),
            4 => self.mex_words::<4>(n),
            8 => self.mex_words::<8>(n),
            16 => self.mex_words::<16>(n),
            words => self.mex_wide(n, words),
        }
    }

    /// The simple options (no split) of `n`, marked through `mark`.
    fn simple_options(&self, n: usize, mut mark: impl FnMut(usize)) {
        for &j in &self.take_all {
            if n == j {
                mark(0);
            }
        }
        for &j in &self.take_one {
            if n > j {
                mark(usize::from(self.values[n - j]));
            }
        }
    }

    fn mex_words<const W: usize>(&self, n: usize) -> usize {
        let mut acc = [0u64; W];
        self.simple_options(n, |x| acc[x >> 6] |= 1 << (x & 63));
        for &j in &self.split {
            if n < j + 2 {
                continue;
            }
            let part = split_words::<W>(&self.values, n - j);
            for (a, p) in acc.iter_mut().zip(part) {
                *a |= p;
            }
        }
        first_zero(&acc)
    }

    fn mex_wide(&mut self, n: usize, words: usize) -> usize {
        let mut bits = std::mem::take(&mut self.wide);
        bits.clear();
        bits.resize(words, 0);
        self.simple_options(n, |x| bits[x >> 6] |= 1 << (x & 63));
        for &j in &self.split {
            if n < j + 2 {
                continue;
            }
            let m = n - j;
            for a in 1..=m / 2 {
                let x = usize::from(self.values[a] ^ self.values[m - a]);
                bits[x >> 6] |= 1 << (x & 63);
            }
        }
        let mex = first_zero(&bits);
        self.wide = bits;
        mex
    }
}

/// The first zero bit of a bitset (its length in bits when full).
fn first_zero(bits: &[u64]) -> usize {
    bits.iter()
        .position(|&w| w != u64::MAX)
        .map_or(bits.len() * 64, |i| i * 64 + (!bits[i]).trailing_zeros() as usize)
}

/// The values `g(a) ^ g(m − a)` for `1 ≤ a ≤ m/2`, as a bitset of `W` words (every value of
/// `values` below `64·W`, a power of two).
fn split_words<const W: usize>(values: &[u16], m: usize) -> [u64; W] {
    let last = m / 2;
    if last >= PARALLEL_FROM {
        let mid = last / 2;
        let (x, y) = rayon::join(
            || pair_words::<W>(values, m, 1, mid),
            || pair_words::<W>(values, m, mid + 1, last),
        );
        let mut acc = x;
        for (a, b) in acc.iter_mut().zip(y) {
            *a |= b;
        }
        return acc;
    }
    pair_words::<W>(values, m, 1, last)
}

/// As [`split_words`] for `from ≤ a ≤ to`.
#[inline]
fn pair_words<const W: usize>(values: &[u16], m: usize, from: usize, to: usize) -> [u64; W] {
    let mut acc = [0u64; W];
    if from > to {
        return acc;
    }
    // a = from..=to pairs with m - a = m - from down to m - to.
    let left = &values[from..=to];
    let right = &values[m - to..=m - from];
    for (&x, &y) in left.iter().zip(right.iter().rev()) {
        let v = usize::from(x ^ y);
        // `W` is a power of two and `v < 64·W`: the mask only lets the compiler drop the
        // bounds check.
        acc[(v >> 6) & (W - 1)] |= 1 << (v & 63);
    }
    acc
}

impl SequenceEngine for SmallSequence {
    fn name(&self) -> &'static str {
        "small"
    }
    fn extend_to(&mut self, n: u64, control: &mut Control) -> Result<bool, SequenceError> {
        let len = n
            .checked_add(1)
            .ok_or(SequenceError::TooLong { requested: n })?;
        SmallSequence::extend_to_len(self, len, control)
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
    fn memory_needed(&self, n: u64) -> u64 {
        // The values (two bytes each, grown by at most doubling) and the wide bitset.
        n.saturating_add(1).saturating_mul(4).saturating_add(1 << 13)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::plain::PlainSequence;

    fn plain(rule: &HeapRule, n: u64) -> Vec<u16> {
        let mut s = PlainSequence::new(rule);
        assert!(s.extend_to_len(n, &mut Control::none()).unwrap());
        s.into_values()
    }

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
        // 0.274 stays below 128 (one or two words), 0.004 and 0.765 grow past 64, 128, 256,
        // 512 (all widths), 0.765 past 1024 (the bitset in memory), 4.07 splits without removing.
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
                assert!(a.iter().any(|&v| v >= 1024), "0.765 reaches the wide bitset");
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
