//! The engine choice by measurement: sparse space while it pays, the small-values engine
//! while it does not.
//!
//! A plain octal code runs on the sparse-space engine ([`super::sparse`]) when its values
//! have sparse space (a mask leaving few rare positions), and otherwise has to look at every
//! split, `O(n)` per heap. The sparse engine does that itself ("computing in full"), but the
//! small-values engine ([`super::small`]) does it faster (byte stores instead of a bitset:
//! 1.1x to 1.8x on the codes measured in `benches/all_codes.rs`). Which case a game is in is
//! seen only in its values, and it can change as they grow: 0.6 (Officers) has no sparse
//! space in its first few thousand values and has it later.
//!
//! A third case lies between: no sparse space in the values, but in the *domain* (the class
//! of a position is the parity of its value under a mask plus the parity of the position;
//! [`super::domain`]), where the domain engine costs `O(R + s)` per heap like the sparse one.
//!
//! [`AdaptiveEngine`] starts on the sparse engine and looks at the values at `2^12`, `2^13`,
//! ... values (doubling, so the looks cost `O(N)` in all):
//! - on the sparse engine, when it computes in full (no mask leaves at most an eighth of the
//!   positions rare, the sparse engine's own test), it moves to the domain engine if some
//!   mask leaves at most an eighth of the positions rare in the domain, else to the
//!   small-values engine;
//! - on the small-values or the domain engine, it asks a sparse engine started from the
//!   values so far whether it finds sparse space (the same test), and moves back to it when
//!   it does; else to (or on with) the domain engine while the domain is sparse (the mask
//!   chosen again), else to the small-values engine.
//!
//! All three engines compute the definition, so the choice never changes a value (the property
//! tests compare with [`super::plain`]); [`AdaptiveEngine::note`] says which engine runs
//! and why, and the run report carries it.

use super::code::Code;
use super::domain::{DomainSequence, MAX_LEN as DOMAIN_MAX_LEN};
use super::engine::{SequenceEngine, SequenceError, SparseEngine};
use super::rules::HeapRule;
use super::small::SmallSequence;
use super::sparse::{MAX_HEAP, SparseSequence, SparseStats};
use crate::control::Control;

/// An engine refusing a rule it was checked to compute (never happens).
fn unsupported() -> SequenceError {
    SequenceError::engine(std::io::Error::other(
        "the small-values engine refused a rule it computes",
    ))
}

/// The first length at which the choice is looked at; then at every doubling.
const FIRST_CHECK: usize = 1 << 12;

#[derive(Debug)]
enum Inner {
    Sparse(Box<SparseEngine>),
    Small(SmallSequence),
    Domain(Box<DomainSequence>),
}

/// Sparse space or the small-values engine, chosen by the values seen: see the
/// [module documentation](self).
#[derive(Debug)]
pub struct AdaptiveEngine {
    rule: HeapRule,
    code: Code,
    inner: Inner,
    next_check: usize,
    note: String,
}

impl AdaptiveEngine {
    /// The engine for `rule` (a plain octal code: both engines must compute it), continuing
    /// from `prefix`; `None` when one of the two engines does not compute the rule.
    pub fn new(rule: &HeapRule, prefix: Vec<u16>) -> Result<Option<Self>, SequenceError> {
        let Some(code) = rule.plain_code() else {
            return Ok(None);
        };
        if SmallSequence::new(rule, Vec::new()).is_none() {
            return Ok(None);
        }
        let sparse = match SparseSequence::from_prefix(&code, prefix) {
            Ok(s) => s,
            Err(super::sparse::SparseError::Unsupported { .. }) => return Ok(None),
            Err(e) => return Err(SequenceError::engine(e)),
        };
        let next_check = FIRST_CHECK.max(sparse.values().len().saturating_mul(2));
        Ok(Some(AdaptiveEngine {
            rule: rule.clone(),
            inner: Inner::Sparse(Box::new(SparseEngine::new(code.clone(), sparse))),
            code,
            next_check,
            note: "sparse space is looked for in the values (the sparse-space engine)".into(),
        }))
    }

    /// Which engine runs and why, in words (the tests read it; the engine reports it through
    /// `SequenceEngine::note`).
    #[cfg(test)]
    pub fn note(&self) -> &str {
        &self.note
    }

    fn engine(&self) -> &dyn SequenceEngine {
        match &self.inner {
            Inner::Sparse(s) => s.as_ref(),
            Inner::Small(s) => s,
            Inner::Domain(s) => s.as_ref(),
        }
    }

    fn engine_mut(&mut self) -> &mut dyn SequenceEngine {
        match &mut self.inner {
            Inner::Sparse(s) => s.as_mut(),
            Inner::Small(s) => s,
            Inner::Domain(s) => s.as_mut(),
        }
    }

    /// A domain engine from `values` when its best mask leaves at most an eighth of the
    /// positions rare (the sparse engine's own test, in the domain), with the note saying so.
    fn domain_for(rule: &HeapRule, values: &[u16]) -> Option<(DomainSequence, String)> {
        let domain = DomainSequence::new(rule, values.to_vec())?;
        let len = values.len();
        (domain.rare_positions() <= len / 8).then(|| {
            let (mask, class) = domain.mask();
            let note = format!(
                "no sparse space in the values of g(0..{len}), but in the domain: {} rare \
                 positions of class {class} under mask {mask:#b} (the domain engine)",
                domain.rare_positions()
            );
            (domain, note)
        })
    }

    /// Looks at the values at the check points and moves to the engine that fits them.
    fn check(&mut self) -> Result<(), SequenceError> {
        let len = self.engine().values().len();
        if len < self.next_check {
            return Ok(());
        }
        self.next_check = len.saturating_mul(2);
        match &mut self.inner {
            Inner::Sparse(s) => {
                let Some(stats) = s.sparse_stats() else {
                    return Ok(());
                };
                if let Some(mask) = stats.mask {
                    self.note = format!(
                        "sparse space in g(0..{len}): {} rare positions under mask {mask:#b}",
                        stats.rare_positions
                    );
                    return Ok(());
                }
                if let Some((domain, note)) = Self::domain_for(&self.rule, s.values()) {
                    self.inner = Inner::Domain(Box::new(domain));
                    self.note = note;
                    return Ok(());
                }
                // The small-values engine computes every plain octal code (checked in `new`).
                let empty = SmallSequence::new(&self.rule, Vec::new()).ok_or_else(unsupported)?;
                let Inner::Sparse(s) = std::mem::replace(&mut self.inner, Inner::Small(empty))
                else {
                    unreachable!("matched above")
                };
                let small =
                    SmallSequence::new(&self.rule, s.into_values()).ok_or_else(unsupported)?;
                self.inner = Inner::Small(small);
                self.note = format!(
                    "no sparse space in g(0..{len}), in the values or the domain (every mask \
                     leaves more than an eighth of the positions rare): the small-values \
                     engine computes every split"
                );
            }
            Inner::Small(_) | Inner::Domain(_) => {
                let values = self.engine().values().to_vec();
                // Would the sparse engine find sparse space in these values? Its own test,
                // on a copy, computing one more value.
                let mut trial = SparseSequence::from_prefix(&self.code, values.clone())
                    .map_err(SequenceError::engine)?;
                trial
                    .extend_to(len as u64, &mut Control::none())
                    .map_err(SequenceError::engine)?;
                let stats: SparseStats = trial.stats();
                if let Some(mask) = stats.mask {
                    self.note = format!(
                        "sparse space from g(0..{len}) on: {} rare positions under mask {mask:#b}",
                        stats.rare_positions
                    );
                    self.inner =
                        Inner::Sparse(Box::new(SparseEngine::new(self.code.clone(), trial)));
                    return Ok(());
                }
                // Sparse space in the domain (the mask chosen again on more values)?
                if let Inner::Domain(d) = &mut self.inner {
                    d.rechoose();
                    if d.rare_positions() <= len / 8 {
                        let (mask, class) = d.mask();
                        self.note = format!(
                            "no sparse space in the values of g(0..{len}), but in the domain: \
                             {} rare positions of class {class} under mask {mask:#b} (the \
                             domain engine)",
                            d.rare_positions()
                        );
                        return Ok(());
                    }
                } else if let Some((domain, note)) = Self::domain_for(&self.rule, &values) {
                    self.inner = Inner::Domain(Box::new(domain));
                    self.note = note;
                    return Ok(());
                }
                let small = SmallSequence::new(&self.rule, values).ok_or_else(unsupported)?;
                self.inner = Inner::Small(small);
                self.note = format!(
                    "no sparse space in g(0..{len}), in the values or the domain (every mask \
                     leaves more than an eighth of the positions rare): the small-values \
                     engine computes every split"
                );
            }
        }
        Ok(())
    }
}

impl SequenceEngine for AdaptiveEngine {
    fn name(&self) -> &'static str {
        self.engine().name()
    }

    fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError> {
        let target = usize::try_from(len).map_err(|_| SequenceError::TooLong { requested: len })?;
        loop {
            self.check()?;
            let have = self.engine().values().len();
            if have >= target {
                return Ok(true);
            }
            let step = target.min(self.next_check.max(have + 1));
            if !self.engine_mut().extend_to_len(step as u64, control)? {
                return Ok(false);
            }
        }
    }

    fn values(&self) -> &[u16] {
        self.engine().values()
    }

    fn into_values(self: Box<Self>) -> Vec<u16> {
        match self.inner {
            Inner::Sparse(s) => s.into_values(),
            Inner::Small(s) => s.into_values(),
            Inner::Domain(s) => s.into_values(),
        }
    }

    fn memory_needed(&self, n: u64) -> u64 {
        // Either engine may run up to `n`.
        SparseSequence::memory_needed(&self.code, n).max(n.saturating_add(1).saturating_mul(4))
    }

    fn max_len(&self) -> u64 {
        // Any of the three may run next: the least of their limits.
        self.engine()
            .max_len()
            .min(MAX_HEAP + 1)
            .min(DOMAIN_MAX_LEN)
    }

    fn sparse_stats(&self) -> Option<SparseStats> {
        self.engine().sparse_stats()
    }

    fn work_steps(&self) -> Option<u64> {
        self.engine().work_steps()
    }

    fn note(&self) -> Option<String> {
        Some(self.note.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::plain::reference_values as plain;
    use crate::heap::sequence::engine_for;

    fn adaptive(code: &str, n: u64) -> (HeapRule, AdaptiveEngine) {
        let rule = HeapRule::parse(code).unwrap();
        let mut e = AdaptiveEngine::new(&rule, Vec::new()).unwrap().unwrap();
        assert!(e.extend_to_len(n, &mut Control::none()).unwrap());
        (rule, e)
    }

    #[test]
    fn without_sparse_space_the_small_values_engine_runs() {
        // 0.004: values grow, no mask leaves few rare positions.
        let (rule, e) = adaptive("0.004", 9000);
        assert_eq!(e.name(), "small", "{}", e.note());
        assert!(e.note().starts_with("no sparse space"), "{}", e.note());
        assert_eq!(e.values(), plain(&rule, 9000).as_slice());
    }

    #[test]
    fn with_sparse_space_the_sparse_engine_runs_and_moves_back() {
        // 0.167 has sparse space early on (59 rare positions): the sparse engine throughout.
        let (rule, e) = adaptive("0.167", 9000);
        assert_eq!(e.name(), "sparse", "{}", e.note());
        assert!(e.note().starts_with("sparse space"), "{}", e.note());
        assert_eq!(e.values(), plain(&rule, 9000).as_slice());
        // 0.127 has none in its first 2^12 values (but has it in the domain) and finds it by
        // 2^15: the domain engine first, then back to sparse.
        let (rule, e) = adaptive("0.127", 20_000);
        assert_eq!(e.name(), "domain", "{}", e.note());
        assert!(e.note().contains("in the domain"), "{}", e.note());
        assert_eq!(e.values(), plain(&rule, 20_000).as_slice());
        let (_, e) = adaptive("0.127", 33_000);
        assert_eq!(e.name(), "sparse", "{}", e.note());
        assert!(e.note().starts_with("sparse space"), "{}", e.note());
        assert_eq!(&e.values()[..33_000], plain(&rule, 33_000).as_slice());
    }

    #[test]
    fn with_sparse_space_in_the_domain_the_domain_engine_runs() {
        // 0.106: no mask leaves few positions rare in the values; in the domain, a handful.
        let (rule, e) = adaptive("0.106", 9000);
        assert_eq!(e.name(), "domain", "{}", e.note());
        assert!(e.note().contains("in the domain"), "{}", e.note());
        assert_eq!(e.values(), plain(&rule, 9000).as_slice());
    }

    #[test]
    fn rules_outside_both_engines_are_not_taken() {
        for rule in ["grundys-game", "0.8", "sub(1,3)", "lasker", "4.07"] {
            let rule = HeapRule::parse(rule).unwrap();
            let taken = AdaptiveEngine::new(&rule, Vec::new()).unwrap().is_some();
            assert_eq!(taken, rule.name() == "4.07", "{rule}");
        }
    }

    /// Octal codes `0.d1d2d3`.
    fn code() -> impl proptest::strategy::Strategy<Value = HeapRule> {
        use proptest::prelude::*;
        prop::collection::vec(0u8..8, 1..=3).prop_filter_map("a rule", |digits| {
            let digits: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
            HeapRule::parse(&format!("0.{digits}")).ok()
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// Past two check points (so engines may change on the way), through `engine_for`
        /// (the period wrapper included): the plain engine's values.
        #[test]
        fn random_codes_match_the_plain_engine(rule in code(), len in 8200u64..9000) {
            let mut e = engine_for(&rule, Vec::new()).unwrap();
            proptest::prop_assert!(e.extend_to_len(len, &mut Control::none()).unwrap());
            let expected = plain(&rule, len);
            proptest::prop_assert_eq!(&e.values()[..len as usize], expected.as_slice());
        }
    }
}
