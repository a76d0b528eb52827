//! The plain nim-sequence engine: `g(n) = mex` of the values of the options of a heap of
//! `n`, computed from the definition for every heap rule.
//!
//! The value of an option that leaves several heaps is the nim-sum of their values
//! (Sprague–Grundy), so `g(0), g(1), ...` are computed in order from the earlier ones.
//! Cost for a heap of `n`: `O(t)` for a code without splits or a subtraction game (`t` the
//! largest removal), `O(t·n)` with splits into two heaps, `O(t·n²)` into three, `O(n)` for
//! Lasker's Nim and all-but games; so `O(t·n²)` for a whole sequence of an octal game with
//! splits. This is the reference engine, and the engine for every rule the fast
//! (sparse-space) engine does not cover. Values are stored as `u16`.

use super::engine::{SequenceEngine, SequenceError};
use super::rules::{Constraint, HeapRule, RuleKind};
use crate::control::Control;
use std::sync::Arc;

/// How many values are computed between progress reports and cancellation checks.
const REPORT_EVERY: usize = 1 << 12;

/// A nim-sequence computed from the definition.
#[derive(Clone, Debug)]
pub struct PlainSequence {
    rule: Arc<HeapRule>,
    values: Vec<u16>,
    /// `seen[v] == stamp` when value `v` is among the options of the heap being computed.
    seen: Vec<u64>,
    stamp: u64,
}

impl PlainSequence {
    /// An empty sequence for `rule`.
    pub fn new(rule: &HeapRule) -> Self {
        Self::from_prefix(rule, Vec::new())
    }

    /// Continues from values already computed (a checkpoint): `values` must be the
    /// sequence's first values.
    pub fn from_prefix(rule: &HeapRule, values: Vec<u16>) -> Self {
        PlainSequence {
            rule: Arc::new(rule.clone()),
            values,
            seen: Vec::new(),
            stamp: 0,
        }
    }

    /// Computes the values up to and including `g(n)` (afterwards `values().len() > n`).
    /// Returns `Ok(false)` when cancelled through `control`; the values computed so far stay
    /// a valid prefix.
    pub fn extend_to(&mut self, n: u64, control: &mut Control) -> Result<bool, SequenceError> {
        let len = SequenceError::count_through(n)?;
        self.extend_to_len(len, control)
    }

    /// Computes the values of heaps `0..n` (afterwards `values().len() >= n`); as
    /// [`extend_to`](Self::extend_to) otherwise.
    pub fn extend_to_len(&mut self, n: u64, control: &mut Control) -> Result<bool, SequenceError> {
        let n = usize::try_from(n).map_err(|_| SequenceError::TooLong { requested: n })?;
        if n > self.values.len() {
            // Fallibly: a machine (or a process limit) that cannot give the memory is an
            // error, not an abort.
            self.values
                .try_reserve(n - self.values.len())
                .map_err(|_| SequenceError::TooLong {
                    requested: n as u64,
                })?;
        }
        while self.values.len() < n {
            let v = self.next_value()?;
            self.values.push(v);
            if self.values.len() % REPORT_EVERY == 0 {
                control.report(self.values.len() as u64, n as u64);
                if control.is_cancelled() {
                    return Ok(false);
                }
            }
        }
        control.report(self.values.len() as u64, n as u64);
        Ok(true)
    }

    /// The values computed so far: `values()[n]` is `g(n)`.
    pub fn values(&self) -> &[u16] {
        &self.values
    }

    /// The values, giving up the engine.
    pub fn into_values(self) -> Vec<u16> {
        self.values
    }

    fn mark(&mut self, v: u16) {
        let v = usize::from(v);
        if v >= self.seen.len() {
            self.seen.resize(v + 1, 0);
        }
        self.seen[v] = self.stamp;
    }

    fn mex(&self) -> usize {
        (0..)
            .find(|&v| self.seen.get(v) != Some(&self.stamp))
            .unwrap_or(0)
    }

    /// `g(n)` for `n = values.len()`.
    fn next_value(&mut self) -> Result<u16, SequenceError> {
        self.stamp += 1;
        let n = self.values.len();
        let rule = Arc::clone(&self.rule);
        self.mark_options(rule.kind(), n);
        let mex = self.mex();
        u16::try_from(mex).map_err(|_| SequenceError::ValueTooLarge { heap: n as u64 })
    }

    fn mark_options(&mut self, rule: &RuleKind, n: usize) {
        match rule {
            RuleKind::TakeBreak(tb) => {
                for (j, &digit) in tb.code().digits().iter().enumerate().take(n + 1) {
                    let m = n - j;
                    if digit & 1 != 0 && m == 0 {
                        self.mark(0);
                    }
                    if digit & 2 != 0 && m >= 1 && j >= 1 {
                        self.mark(self.values[m]);
                    }
                    if digit & 4 != 0 {
                        self.mark_pairs(m, tb.constraint(j));
                    }
                    if digit & 8 != 0 {
                        self.mark_triples(m, tb.constraint(j));
                    }
                }
            }
            RuleKind::Subtraction(set) => {
                for &s in set.iter().take_while(|&&s| s as usize <= n) {
                    self.mark(self.values[n - s as usize]);
                }
            }
            RuleKind::AllBut(set) => {
                for k in 1..=n {
                    if set.binary_search(&(k as u64)).is_err() {
                        self.mark(self.values[n - k]);
                    }
                }
            }
            RuleKind::Lasker => {
                for left in 0..n {
                    self.mark(self.values[left]);
                }
                self.mark_pairs(n, Constraint::Any);
            }
            RuleKind::Half => {
                if n > 0 {
                    for left in 0..=n / 2 {
                        self.mark(self.values[left]);
                    }
                }
            }
            RuleKind::EvenIfNotAll => {
                for k in (2..n).step_by(2) {
                    self.mark(self.values[n - k]);
                }
                if n % 2 == 1 {
                    self.mark(0);
                }
            }
        }
    }

    /// Marks the splits of `m` into two non-empty heaps `a ≤ b`.
    fn mark_pairs(&mut self, m: usize, constraint: Constraint) {
        for a in 1..=m / 2 {
            let b = m - a;
            if constraint.allows_pair(a as u64, b as u64) {
                self.mark(self.values[a] ^ self.values[b]);
            }
        }
    }

    /// Marks the splits of `m` into three non-empty heaps `a ≤ b ≤ c`.
    fn mark_triples(&mut self, m: usize, constraint: Constraint) {
        for a in 1..=m / 3 {
            for b in a..=(m - a) / 2 {
                let c = m - a - b;
                if constraint.allows_triple(a as u64, b as u64, c as u64) {
                    self.mark(self.values[a] ^ self.values[b] ^ self.values[c]);
                }
            }
        }
    }
}

/// The values of heaps `0..len` of `rule` by the plain engine: the reference the other
/// engines' tests compare against.
impl SequenceEngine for PlainSequence {
    fn name(&self) -> &'static str {
        "plain"
    }
    fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError> {
        PlainSequence::extend_to_len(self, len, control)
    }
    fn values(&self) -> &[u16] {
        PlainSequence::values(self)
    }
    fn into_values(self: Box<Self>) -> Vec<u16> {
        PlainSequence::into_values(*self)
    }
    fn memory_needed(&self, n: u64) -> u64 {
        // The values, and a vector growing by doubling (up to twice the values at the end).
        n.saturating_mul(4).saturating_add(1 << 16)
    }
}

#[cfg(test)]
pub(crate) fn reference_values(rule: &HeapRule, len: u64) -> Vec<u16> {
    let mut s = PlainSequence::new(rule);
    assert!(s.extend_to_len(len, &mut Control::none()).unwrap());
    s.into_values()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(rule: &str, n: u64) -> Vec<u16> {
        reference_values(&HeapRule::parse(rule).unwrap(), n)
    }

    #[test]
    fn small_sequences_from_the_literature() {
        // Winning Ways ch. 4: Kayles 0.77.
        assert_eq!(first("kayles", 13), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
        // Dawson's Kayles 0.07.
        assert_eq!(first("0.07", 12), [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]);
        // Nim is 0.333...: sub(1..) up to the heap; bash(2) is n mod 3.
        assert_eq!(first("bash(2)", 7), [0, 1, 2, 0, 1, 2, 0]);
        // Lasker's Nim.
        assert_eq!(first("lasker", 9), [0, 1, 2, 4, 3, 5, 6, 8, 7]);
        // Half: one more than the bit length.
        assert_eq!(first("half", 9), [0, 1, 2, 2, 3, 3, 3, 3, 4]);
        assert_eq!(first("even-if-not-all", 8), [0, 1, 0, 2, 1, 3, 2, 4]);
        // Grundy's game (OEIS A002188).
        assert_eq!(
            first("grundys-game", 12),
            [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2]
        );
    }

    #[test]
    fn resuming_from_a_prefix_gives_the_same_values() {
        let rule = HeapRule::parse("0.137").unwrap();
        let whole = first("0.137", 300);
        let mut s = PlainSequence::from_prefix(&rule, whole[..123].to_vec());
        s.extend_to_len(300, &mut Control::none()).unwrap();
        assert_eq!(s.values(), whole.as_slice());
    }

    #[test]
    fn cancelling_keeps_a_valid_prefix() {
        let flag = std::sync::atomic::AtomicBool::new(true);
        let mut s = PlainSequence::new(&HeapRule::parse("kayles").unwrap());
        let mut control = Control::none().with_cancel(&flag);
        assert!(!s.extend_to_len(100_000, &mut control).unwrap());
        let n = s.values().len();
        assert!(n < 100_000);
        assert_eq!(s.values(), &first("kayles", n as u64)[..]);
    }
}
