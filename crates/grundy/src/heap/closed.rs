//! Rules whose nim-sequence has a closed form: [`closed_form`] answers `g(n)` for any `n`,
//! and [`ClosedFormEngine`] fills a sequence from it at memory speed, where the plain engine
//! would list `O(n)` options a heap (`half` to `2^32` took hours by its definition). The
//! sequence engines use it for `half`; Lasker's Nim and even-if-not-all, arithmetic-periodic,
//! are copied by their proven period ([`super::periodic`]).

use super::engine::{SequenceEngine, SequenceError};
use super::kind::RuleKind;
use super::rules::HeapRule;
use crate::control::Control;

/// How many values between progress reports and cancellation checks.
const REPORT_EVERY: usize = 1 << 20;

/// `g(n)` for the rules whose values have a closed form, for any `n`:
/// - `half`: `g(n)` is the bit length of `n` (`g(n) = 1 + g(⌊n/2⌋)`: the options are the
///   heaps `0..=⌊n/2⌋`, whose values are `0..=g(⌊n/2⌋)` by induction);
/// - Lasker's Nim: `g(4k+1) = 4k+1`, `g(4k+2) = 4k+2`, `g(4k+3) = 4k+4`, `g(4k+4) = 4k+3`
///   (Winning Ways ch. 4);
/// - even-if-not-all: `g(2k) = k − 1`, `g(2k − 1) = k` for `k ≥ 1` (Ferguson, Part I);
/// - Bash, `sub(1,...,k)`: `g(n) = n mod (k + 1)`.
///
/// Tested against the plain engine.
pub fn closed_form(rule: &HeapRule, n: u64) -> Option<u64> {
    if n == 0 {
        // No move from an empty heap; answered here for the rules with a closed form.
        return closed_form(rule, 1).map(|_| 0);
    }
    match *rule.kind() {
        RuleKind::Half => Some(u64::from(64 - n.leading_zeros())),
        RuleKind::Lasker => Some(match n % 4 {
            1 | 2 => n,
            // 2^64 − 1 is 4k + 3, whose value 2^64 does not fit: no answer rather than a wrap.
            3 => n.checked_add(1)?,
            _ => n - 1,
        }),
        RuleKind::EvenIfNotAll => Some(if n % 2 == 0 { n / 2 - 1 } else { n / 2 + 1 }),
        // Bash, sub(1..=k): the classic n mod (k + 1).
        // (A set of distinct positive numbers whose largest is its size is 1..=k.)
        RuleKind::Subtraction(ref set) if set.last() == Some(&(set.len() as u64)) => {
            Some(n % (set.len() as u64 + 1))
        }
        _ => None,
    }
}

/// The nim-sequence of a rule with a closed form (`half`, Lasker's Nim, even-if-not-all),
/// value by value from [`closed_form`]: `O(1)` a value. Values past 65535 (Lasker's Nim and
/// even-if-not-all grow as `n`) are refused at the first such heap, as every engine refuses
/// them.
#[derive(Debug)]
pub struct ClosedFormEngine {
    rule: HeapRule,
    values: Vec<u16>,
}

impl ClosedFormEngine {
    /// The engine for `rule` after the values `prefix`, if the rule is `half`, Lasker's Nim
    /// or even-if-not-all (subtraction games with a closed form run on the periodic engines).
    pub fn new(rule: &HeapRule, prefix: Vec<u16>) -> Option<Self> {
        matches!(
            rule.kind(),
            RuleKind::Half | RuleKind::Lasker | RuleKind::EvenIfNotAll
        )
        .then(|| ClosedFormEngine {
            rule: rule.clone(),
            values: prefix,
        })
    }
}

impl SequenceEngine for ClosedFormEngine {
    fn name(&self) -> &'static str {
        "closed form"
    }
    fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError> {
        let n = usize::try_from(len).map_err(|_| SequenceError::TooLong { requested: len })?;
        if n > self.values.len() {
            // Fallibly: a machine (or a process limit) that cannot give the memory is an
            // error, not an abort.
            self.values
                .try_reserve(n - self.values.len())
                .map_err(|_| SequenceError::TooLong { requested: len })?;
        }
        while self.values.len() < n {
            let heap = self.values.len() as u64;
            let v = closed_form(&self.rule, heap)
                .and_then(|v| u16::try_from(v).ok())
                .ok_or(SequenceError::ValueTooLarge { heap })?;
            self.values.push(v);
            if self.values.len() % REPORT_EVERY == 0 {
                control.report(self.values.len() as u64, len);
                if control.is_cancelled() {
                    return Ok(false);
                }
            }
        }
        control.report(self.values.len() as u64, len);
        Ok(true)
    }
    fn values(&self) -> &[u16] {
        &self.values
    }
    fn into_values(self: Box<Self>) -> Vec<u16> {
        self.values
    }
    fn memory_needed(&self, n: u64) -> u64 {
        // The values (reserved once, two bytes each).
        n.saturating_mul(2).saturating_add(1 << 16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::plain::PlainSequence;

    #[test]
    fn the_engine_agrees_with_the_definition() {
        for name in ["half", "lasker", "even-if-not-all"] {
            let rule = HeapRule::parse(name).unwrap();
            let mut slow = PlainSequence::new(&rule);
            assert!(slow.extend_to_len(3000, &mut Control::none()).unwrap());
            let mut fast = ClosedFormEngine::new(&rule, Vec::new()).unwrap();
            assert!(fast.extend_to_len(3000, &mut Control::none()).unwrap());
            assert_eq!(fast.values(), slow.values(), "{name}");
            // From a prefix, as a resumed run starts.
            let mut resumed = ClosedFormEngine::new(&rule, slow.values()[..1234].to_vec()).unwrap();
            assert!(resumed.extend_to_len(3000, &mut Control::none()).unwrap());
            assert_eq!(resumed.values(), slow.values(), "{name}");
        }
        assert!(ClosedFormEngine::new(&HeapRule::parse("kayles").unwrap(), Vec::new()).is_none());
    }

    #[test]
    fn values_past_the_storage_are_refused_at_their_heap() {
        let rule = HeapRule::parse("lasker").unwrap();
        let mut e = ClosedFormEngine::new(&rule, Vec::new()).unwrap();
        match e.extend_to_len(1 << 17, &mut Control::none()) {
            // g(65535) = 65536 (4k + 3 maps to 4k + 4).
            Err(SequenceError::ValueTooLarge { heap }) => assert_eq!(heap, 65535),
            other => panic!("{other:?}"),
        }
        assert_eq!(e.values().len(), 65535);
    }
}
