//! Extension by a proven period: once a theorem proves the period of a sequence, every later
//! value is a copy, and a sequence is extended at memory speed.
//!
//! A sequence that is (arithmetic-)periodic with period `p`, preperiod `e` and saltus `s`
//! satisfies `g(n) = g(n − p) + s` for every `n ≥ e + p`. When the period is *proven*
//! ([`find_period`](super::period::find_period): the Guy–Smith theorem for octal and hexadecimal codes and subtraction
//! games, Guy and Smith 1956, Winning Ways ch. 4; the published theorems for Lasker's Nim and
//! even-if-not-all), the values past the proof are not computed from their options at all:
//! they are copied, `O(1)` per value, against `O(n)` per value (splits into two heaps) on
//! the engines that compute from the options. Dawson's chess (`0.137`) is proven periodic
//! (period 34) from 175 values on; its first `2^24` values then take a fraction of a second
//! instead of the day the plain `O(n²)` computation would need.
//!
//! [`PeriodicEngine`] wraps the engine [`engine_for`](super::sequence::engine_for) chose.
//! It looks for a proof when the values computed reach 256, then where the theorem would
//! prove the period the values show (the length [`next_proof_step`] aims at: `2e + 2p + t`
//! for an octal code whose values repeat with period `p` from `e`), at least an eighth and
//! at most twice further on each time (so the `O(N)` looks cost `O(N)` in all), and switches
//! to copying as soon as a proof is found. (Looking only at doublings, a code proven with
//! 653,571 values, 0.561, computed 2^20 values before the look that found it.) The
//! values are those the wrapped engine would compute, by the theorem; the property tests
//! check them against [`PlainSequence`](super::plain::PlainSequence) on random codes.
//!
//! Rules whose periods no theorem proves here (codes with `!`, `?` or `=` constraints such
//! as Grundy's game, all-but games) are not wrapped.
//!
//! ```
//! use grundy::control::Control;
//! use grundy::heap::rules::HeapRule;
//! use grundy::heap::sequence::engine_for;
//! let rule = HeapRule::parse("0.137").unwrap();
//! let mut engine = engine_for(&rule, Vec::new()).unwrap();
//! assert!(engine.extend_to_len(1 << 20, &mut Control::none()).unwrap());
//! assert_eq!(engine.name(), "periodic");
//! // Period 34: g(n) = g(n - 34) far out.
//! let v = engine.values();
//! assert_eq!(v[(1 << 20) - 1], v[(1 << 20) - 1 - 34]);
//! ```

use super::engine::{SequenceEngine, SequenceError};
use super::period::{Period, ProofMethod, ProofStep, next_proof_step, proof_method};
use super::rules::HeapRule;
use super::sparse::SparseStats;
use crate::control::Control;

/// The first length at which a proof is looked for; then at every doubling.
const FIRST_CHECK: usize = 256;
/// Values copied between progress reports and cancellation checks.
const COPY_CHUNK: usize = 1 << 20;

/// What the engine is doing: computing with the wrapped engine, or copying by the period.
#[derive(Debug)]
enum State {
    /// Computing on the wrapped engine; a proof is looked for once `next_check` values are
    /// computed.
    Computing {
        inner: Box<dyn SequenceEngine>,
        next_check: usize,
    },
    /// The period is proven: values are copied.
    Copying { values: Vec<u16>, period: Period },
}

/// A sequence engine that extends by the period once it is proven: see the
/// [module documentation](self).
#[derive(Debug)]
pub struct PeriodicEngine {
    rule: HeapRule,
    state: State,
}

/// Wraps `engine` (computing `rule`'s sequence) in a [`PeriodicEngine`] when some theorem
/// can prove a period of `rule`; returns it unchanged otherwise.
pub fn extend_by_period(
    rule: &HeapRule,
    engine: Box<dyn SequenceEngine>,
) -> Box<dyn SequenceEngine> {
    match proof_method(rule) {
        ProofMethod::GuySmith { .. } | ProofMethod::Theorem { .. } => {
            Box::new(PeriodicEngine::new(rule, engine))
        }
        ProofMethod::None { .. } | ProofMethod::NotPeriodic => engine,
    }
}

impl PeriodicEngine {
    /// Wraps `inner`, which computes `rule`'s sequence (possibly resumed from a prefix).
    pub fn new(rule: &HeapRule, inner: Box<dyn SequenceEngine>) -> Self {
        PeriodicEngine {
            rule: rule.clone(),
            state: State::Computing {
                inner,
                next_check: FIRST_CHECK,
            },
        }
    }

    /// Looks for a proof in the values computed; switches to copying if one is found.
    fn check(&mut self) {
        let State::Computing { inner, next_check } = &mut self.state else {
            return;
        };
        let len = inner.values().len();
        if len < *next_check {
            return;
        }
        // The next look: where the theorem would prove the period the values show (at least
        // an eighth further on, so that the looks stay geometric and cost `O(N)` in all), or
        // at the doubling.
        let period = match next_proof_step(&self.rule, inner.values(), u64::MAX) {
            ProofStep::Proven(period) => period,
            ProofStep::Extend(target) => {
                let target = usize::try_from(target).unwrap_or(usize::MAX);
                *next_check = target.clamp(
                    len.saturating_add(len / 8).max(len + 1),
                    len.saturating_mul(2),
                );
                return;
            }
            ProofStep::GiveUp(_) | ProofStep::Unprovable(_) => {
                *next_check = len.saturating_mul(2);
                return;
            }
        };
        let State::Computing { inner, .. } = std::mem::replace(
            &mut self.state,
            State::Copying {
                values: Vec::new(),
                period: period.clone(),
            },
        ) else {
            unreachable!("matched above")
        };
        self.state = State::Copying {
            values: inner.into_values(),
            period,
        };
    }
}

/// Appends copies to `values` up to `target` values: `g(n) = g(n − p) + s`. Every `n` copied
/// is at least `e + p`, since the proof needed more than `e + p` values.
fn copy_by_period(
    values: &mut Vec<u16>,
    period: &Period,
    target: usize,
) -> Result<(), SequenceError> {
    let p = period.period as usize;
    let s = period.saltus;
    if s == 0 {
        while values.len() < target {
            // Copy whole stretches of up to `p` values at once.
            let n = values.len();
            let take = p.min(target - n);
            values.extend_from_within(n - p..n - p + take);
        }
        return Ok(());
    }
    while values.len() < target {
        let n = values.len();
        let v = u64::from(values[n - p]) + s;
        let v = u16::try_from(v).map_err(|_| SequenceError::ValueTooLarge { heap: n as u64 })?;
        values.push(v);
    }
    Ok(())
}

impl SequenceEngine for PeriodicEngine {
    fn name(&self) -> &'static str {
        match &self.state {
            State::Computing { inner, .. } => inner.name(),
            State::Copying { .. } => "periodic",
        }
    }

    fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError> {
        let target = usize::try_from(len).map_err(|_| SequenceError::TooLong { requested: len })?;
        loop {
            self.check();
            match &mut self.state {
                State::Computing { inner, next_check } => {
                    let have = inner.values().len();
                    if have >= target {
                        return Ok(true);
                    }
                    let step = target.min((*next_check).max(have + 1));
                    if !inner.extend_to_len(step as u64, control)? {
                        return Ok(false);
                    }
                }
                State::Copying { values, period } => {
                    if values.len() >= target {
                        return Ok(true);
                    }
                    values
                        .try_reserve_exact(target - values.len())
                        .map_err(|_| SequenceError::TooLong { requested: len })?;
                    while values.len() < target {
                        let next = target.min(values.len().saturating_add(COPY_CHUNK));
                        copy_by_period(values, period, next)?;
                        control.report(values.len() as u64, len);
                        if control.is_cancelled() && values.len() < target {
                            return Ok(false);
                        }
                    }
                    return Ok(true);
                }
            }
        }
    }

    fn values(&self) -> &[u16] {
        match &self.state {
            State::Computing { inner, .. } => inner.values(),
            State::Copying { values, .. } => values,
        }
    }

    fn into_values(self: Box<Self>) -> Vec<u16> {
        match self.state {
            State::Computing { inner, .. } => inner.into_values(),
            State::Copying { values, .. } => values,
        }
    }

    fn memory_needed(&self, n: u64) -> u64 {
        match &self.state {
            State::Computing { inner, .. } => inner.memory_needed(n),
            // The values, two bytes each.
            State::Copying { .. } => n.saturating_add(1).saturating_mul(2),
        }
    }

    fn max_len(&self) -> u64 {
        match &self.state {
            State::Computing { inner, .. } => inner.max_len(),
            // Copying is bounded by memory alone.
            State::Copying { .. } => u64::MAX,
        }
    }

    fn limit_may_lift(&self) -> bool {
        matches!(self.state, State::Computing { .. })
    }

    fn sparse_stats(&self) -> Option<SparseStats> {
        match &self.state {
            State::Computing { inner, .. } => inner.sparse_stats(),
            State::Copying { .. } => None,
        }
    }

    fn work_steps(&self) -> Option<u64> {
        match &self.state {
            State::Computing { inner, .. } => inner.work_steps(),
            State::Copying { .. } => None,
        }
    }

    fn note(&self) -> Option<String> {
        match &self.state {
            State::Computing { inner, .. } => inner.note(),
            State::Copying { period, .. } => Some(format!(
                "{period}: the values past the proof are copied by the period"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::plain::reference_values as plain;
    use crate::heap::sequence::engine_for;

    #[test]
    fn copies_match_the_plain_engine() {
        for (code, proven) in [
            ("0.137", true),
            ("kayles", true),
            ("0.07", true),
            ("4.07", true),
            ("sub(2,5,7)", true),
            ("lasker", true),
            ("0.16", false),
        ] {
            let rule = HeapRule::parse(code).unwrap();
            let mut e = engine_for(&rule, Vec::new()).unwrap();
            assert!(e.extend_to_len(6000, &mut Control::none()).unwrap());
            assert_eq!(e.values(), plain(&rule, 6000).as_slice(), "{code}");
            assert_eq!(e.name() == "periodic", proven, "{code}: {}", e.name());
            // Copying by a proven period is bounded by memory alone; computing, by the
            // engine's 32-bit heaps.
            let limit = if proven {
                u64::MAX
            } else {
                u64::from(u32::MAX)
            };
            assert_eq!(e.max_len(), limit, "{code}");
        }
    }

    /// Octal codes of up to three digits after the point, `4.` before it or not.
    fn short_code() -> impl proptest::strategy::Strategy<Value = HeapRule> {
        use proptest::prelude::*;
        (
            prop::sample::select(vec!["0", "4"]),
            prop::collection::vec(0u8..8, 1..=3),
        )
            .prop_filter_map("a rule", |(d0, rest)| {
                let digits: String = rest.iter().map(|d| char::from(b'0' + d)).collect();
                HeapRule::parse(&format!("{d0}.{digits}")).ok()
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Whatever the code, proven early or not, the values are the plain engine's.
        #[test]
        fn random_codes_match_the_plain_engine(rule in short_code()) {
            let mut e = engine_for(&rule, Vec::new()).unwrap();
            proptest::prop_assert!(e.extend_to_len(3000, &mut Control::none()).unwrap());
            let expected = plain(&rule, 3000);
            proptest::prop_assert_eq!(e.values(), expected.as_slice());
        }
    }

    #[test]
    fn the_proof_is_looked_for_where_the_theorem_needs_it() {
        // 0.127: period 4 from 46,578, proven by 93,167 values. Looking only at doublings,
        // the look at 65,536 fails and the next is at 131,072; aimed at the apparent
        // period, the proof is found before 100,000 values.
        let rule = HeapRule::parse("0.127").unwrap();
        let mut e = engine_for(&rule, Vec::new()).unwrap();
        assert!(e.extend_to_len(100_000, &mut Control::none()).unwrap());
        assert_eq!(e.name(), "periodic", "{:?}", e.note());
        let whole = plain_prefix_check(&rule, e.values());
        assert!(whole);
    }

    /// The first 3000 values agree with the plain engine's, and the rest repeat by 4.
    fn plain_prefix_check(rule: &HeapRule, values: &[u16]) -> bool {
        values[..3000] == plain(rule, 3000)[..]
            && (93_167..values.len()).all(|n| values[n] == values[n - 4])
    }

    #[test]
    fn resuming_and_extending_in_steps_give_the_same_values() {
        let rule = HeapRule::parse("0.137").unwrap();
        let whole = plain(&rule, 3000);
        let mut e = engine_for(&rule, whole[..700].to_vec()).unwrap();
        for len in [701, 1000, 1001, 2999, 3000] {
            assert!(e.extend_to_len(len, &mut Control::none()).unwrap());
        }
        assert_eq!(e.values(), whole.as_slice());
        assert_eq!(e.name(), "periodic");
    }

    #[test]
    fn cancelling_while_copying_keeps_a_valid_prefix() {
        let rule = HeapRule::parse("kayles").unwrap();
        let mut e = engine_for(&rule, Vec::new()).unwrap();
        e.extend_to_len(1000, &mut Control::none()).unwrap();
        let flag = std::sync::atomic::AtomicBool::new(true);
        let mut control = Control::none().with_cancel(&flag);
        assert!(
            !e.extend_to_len(10 * COPY_CHUNK as u64, &mut control)
                .unwrap()
        );
        let n = e.values().len();
        assert!(n < 10 * COPY_CHUNK);
        assert_eq!(e.values()[..3000], plain(&rule, 3000)[..]);
        assert_eq!(e.values()[n - 12], e.values()[n - 24]);
    }
}
