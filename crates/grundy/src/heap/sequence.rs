//! Nim-sequences of heap rules: the engine choice, and a per-rule cache of what is known.
//!
//! [`engine_for`] is the one place that picks the engine for a rule. [`known`] answers "what
//! is `g(n)`" for any heap size: from a closed form where the rule has one (`half`, Lasker's
//! Nim, even-if-not-all), else from the cached sequence and its period, computing more values
//! (and trying to prove a period) on the way. The cache is per rule, so `kayles 10 20 30`
//! computes Kayles' sequence once, and `kayles` and `0.77` share it.

use super::code::Code;
use super::period::{Period, ProofMethod, ProofStep, find_period, next_proof_step, proof_method};
use super::plain::PlainSequence;
use super::rules::{HeapRule, RuleKind};
use super::sparse::{SparseError, SparseSequence};
use crate::control::Control;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

/// Why a nim-sequence could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum SequenceError {
    /// A value does not fit the engines' 16-bit storage.
    #[error("g({heap}) is larger than 65535, the largest value the sequence engines store")]
    ValueTooLarge {
        /// The heap whose value overflowed.
        heap: u64,
    },
    /// More values than this machine can address.
    #[error("{requested} values do not fit in this machine's address space")]
    TooLong {
        /// How many values were asked for.
        requested: u64,
    },
    /// An error of a specific engine.
    #[error(transparent)]
    Engine(Box<dyn std::error::Error + Send + Sync>),
}

impl SequenceError {
    /// Wraps an engine's own error.
    pub fn engine(e: impl std::error::Error + Send + Sync + 'static) -> Self {
        SequenceError::Engine(Box::new(e))
    }
}

/// A nim-sequence engine: computes `g(0), g(1), ...` in order, resumable and cancellable.
pub trait SequenceEngine: fmt::Debug + Send {
    /// The engine's name for people (`plain`, `sparse`).
    fn name(&self) -> &'static str;
    /// Computes the values up to and including `g(n)`. `Ok(false)` when cancelled: the values
    /// so far stay a valid prefix.
    fn extend_to(&mut self, n: u64, control: &mut Control) -> Result<bool, SequenceError>;
    /// Computes the values of heaps `0..len` (`len` values); as [`extend_to`](Self::extend_to)
    /// otherwise.
    fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError> {
        if len == 0 || self.values().len() as u64 >= len {
            return Ok(true);
        }
        self.extend_to(len - 1, control)
    }
    /// The values computed so far: `values()[n]` is `g(n)`.
    fn values(&self) -> &[u16];
    /// The values, giving up the engine.
    fn into_values(self: Box<Self>) -> Vec<u16>;
    /// The bytes this engine needs to compute up to `g(n)` (to refuse what the machine
    /// cannot).
    fn memory_needed(&self, n: u64) -> u64;
    /// Engine-specific statistics (name, value) for `--stats`.
    fn stats(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

impl SequenceEngine for PlainSequence {
    fn name(&self) -> &'static str {
        "plain"
    }
    fn extend_to(&mut self, n: u64, control: &mut Control) -> Result<bool, SequenceError> {
        PlainSequence::extend_to(self, n, control)
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

/// The sparse-space engine ([`SparseSequence`]) for a plain octal or hexadecimal code.
#[derive(Debug)]
pub struct SparseEngine {
    code: Code,
    inner: SparseSequence,
}

impl SequenceEngine for SparseEngine {
    fn name(&self) -> &'static str {
        "sparse"
    }
    fn extend_to(&mut self, n: u64, control: &mut Control) -> Result<bool, SequenceError> {
        self.inner
            .extend_to(n, control)
            .map_err(SequenceError::engine)
    }
    fn values(&self) -> &[u16] {
        self.inner.values()
    }
    fn into_values(self: Box<Self>) -> Vec<u16> {
        self.inner.into_values()
    }
    fn memory_needed(&self, n: u64) -> u64 {
        SparseSequence::memory_needed(&self.code, n)
    }
    fn stats(&self) -> Vec<(String, String)> {
        let s = self.inner.stats();
        let rare: Vec<String> = s.rare_values.iter().map(u16::to_string).collect();
        vec![
            (
                "mask".into(),
                s.mask
                    .map_or("none (all values in full)".into(), |m| format!("{m:#b}")),
            ),
            ("rare values".into(), rare.join(" ")),
            ("rare positions".into(), s.rare_positions.to_string()),
            ("rare-xor steps".into(), s.rare_xor_steps.to_string()),
            ("scan steps".into(), s.scan_steps.to_string()),
            ("dense values".into(), s.dense_values.to_string()),
            ("mask changes".into(), s.mask_changes.to_string()),
        ]
    }
}

/// The engine for `rule`, continuing from `prefix` (the first values, e.g. from a
/// checkpoint; empty to start afresh). The one place where the engine is chosen: the
/// sparse-space engine for plain octal and hexadecimal codes (subtraction games with small
/// sets included) where it supports them, the plain engine for everything else.
pub fn engine_for(
    rule: &HeapRule,
    prefix: Vec<u16>,
) -> Result<Box<dyn SequenceEngine>, SequenceError> {
    if let Some(code) = rule.plain_code() {
        match SparseSequence::from_prefix(&code, prefix.clone()) {
            Ok(inner) => return Ok(Box::new(SparseEngine { code, inner })),
            Err(SparseError::Unsupported { .. }) => {}
            Err(e) => return Err(SequenceError::engine(e)),
        }
    }
    Ok(Box::new(PlainSequence::from_prefix(rule, prefix)))
}

/// Whether `rule` runs on the fast (sparse-space) engine.
fn runs_sparse(rule: &HeapRule) -> bool {
    engine_for(rule, Vec::new()).is_ok_and(|e| e.name() == "sparse")
}

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
    match rule.kind {
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

/// What is known of a rule's sequence: its first values and their period.
#[derive(Clone, Debug)]
pub struct Known {
    /// The rule, canonically named.
    pub rule: HeapRule,
    /// The first values.
    pub values: Arc<Vec<u16>>,
    /// The period, proven or apparent.
    pub period: Option<Period>,
}

impl Known {
    /// `g(n)` if known: computed, or from a proven period.
    pub fn value(&self, n: u64) -> Option<u64> {
        if let Some(v) = closed_form(&self.rule, n) {
            return Some(v);
        }
        if let Some(&v) = usize::try_from(n).ok().and_then(|i| self.values.get(i)) {
            return Some(u64::from(v));
        }
        self.period.as_ref()?.value_at(&self.values, n)
    }

    /// The proven period, if any.
    pub fn proven_period(&self) -> Option<&Period> {
        self.period.as_ref().filter(|p| p.proven())
    }
}

/// Why a heap's value is not available.
#[derive(Debug, thiserror::Error)]
pub enum HeapValueError {
    /// The engine failed.
    #[error(transparent)]
    Sequence(#[from] SequenceError),
    /// The heap is too large to compute directly and no proven period covers it.
    #[error(
        "heap {heap} is too large: no period of {rule} is proven within {checked} values, and \
         computing {heap} values directly is beyond the limit of {limit} \
         (try `grundy sequence {rule} --prove --max N`)"
    )]
    TooLarge {
        /// The rule.
        rule: String,
        /// The heap.
        heap: u64,
        /// How many values were computed looking for a period.
        checked: u64,
        /// The most values computed directly.
        limit: u64,
    },
}

/// How many values the cache computes at most to look for a proof of a period.
fn proof_budget(rule: &HeapRule) -> u64 {
    match &rule.kind {
        _ if runs_sparse(rule) => 1 << 20,
        RuleKind::TakeBreak(tb) if tb.max_heaps_left() == 3 => 1 << 9,
        RuleKind::TakeBreak(tb) if tb.max_heaps_left() == 2 => 1 << 12,
        _ => (1 << 16).min(direct_limit(rule)),
    }
}

/// How many values the cache computes at most to answer a heap directly: `2^26` (128 MiB of
/// values) on the sparse engine; on the plain engine about `2^30` steps: it costs `O(n)` per
/// value with splits into two heaps, `O(n²)` into three, `O(|S|)` for a subtraction game.
pub fn direct_limit(rule: &HeapRule) -> u64 {
    match &rule.kind {
        _ if runs_sparse(rule) => 1 << 26,
        RuleKind::TakeBreak(tb) if tb.max_heaps_left() == 3 => 1 << 10,
        RuleKind::TakeBreak(tb) if tb.max_heaps_left() == 2 => 1 << 15,
        RuleKind::AllBut(_) | RuleKind::Lasker | RuleKind::EvenIfNotAll | RuleKind::Half => 1 << 15,
        RuleKind::Subtraction(set) => {
            ((1u64 << 32) / set.len().max(1) as u64).clamp(1 << 12, 1 << 24)
        }
        RuleKind::TakeBreak(_) => 1 << 24,
    }
}

#[derive(Debug)]
struct Entry {
    engine: Box<dyn SequenceEngine>,
    known: Arc<Known>,
    /// Whether the proof attempt within the budget was made.
    proof_tried: bool,
}

type Cache = Mutex<HashMap<String, Arc<Mutex<Entry>>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fn entry_for(rule: &HeapRule) -> Result<Arc<Mutex<Entry>>, SequenceError> {
    let canonical = HeapRule::from_kind(rule.kind.clone());
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = map.get(&canonical.name) {
        return Ok(Arc::clone(e));
    }
    let entry = Arc::new(Mutex::new(Entry {
        engine: engine_for(&canonical, Vec::new())?,
        known: Arc::new(Known {
            rule: canonical.clone(),
            values: Arc::new(Vec::new()),
            period: None,
        }),
        proof_tried: false,
    }));
    map.insert(canonical.name, Arc::clone(&entry));
    Ok(entry)
}

impl Entry {
    fn extend(&mut self, n: u64) -> Result<(), SequenceError> {
        self.engine.extend_to_len(n, &mut Control::none())?;
        let values = self.engine.values().to_vec();
        let period = find_period(&self.known.rule, &values);
        self.known = Arc::new(Known {
            rule: self.known.rule.clone(),
            values: Arc::new(values),
            period,
        });
        Ok(())
    }

    fn try_proof(&mut self) -> Result<(), SequenceError> {
        self.proof_tried = true;
        if matches!(
            proof_method(&self.known.rule),
            ProofMethod::None { .. } | ProofMethod::NotPeriodic
        ) {
            return Ok(());
        }
        let budget = proof_budget(&self.known.rule);
        while let ProofStep::Extend(n) =
            next_proof_step(&self.known.rule, self.engine.values(), budget)
        {
            self.engine.extend_to_len(n, &mut Control::none())?;
        }
        self.extend(0)
    }
}

/// What is known of `rule`'s sequence, enough to answer `g(n)` for every heap up to `n`
/// (computing and caching more values, and proving a period, as needed).
pub fn known(rule: &HeapRule, n: u64) -> Result<Arc<Known>, HeapValueError> {
    if closed_form(rule, n).is_some() {
        return Ok(Arc::new(Known {
            rule: rule.clone(),
            values: Arc::new(Vec::new()),
            period: None,
        }));
    }
    let entry = entry_for(rule)?;
    let mut entry = entry.lock().unwrap_or_else(|e| e.into_inner());
    if entry.known.value(n).is_some() {
        return Ok(Arc::clone(&entry.known));
    }
    let limit = direct_limit(rule);
    // Small heaps are computed directly; a proof is looked for (once) when a heap is past
    // what a proof attempt would compute anyway.
    if !entry.proof_tried && n >= proof_budget(rule).min(limit) {
        entry.try_proof()?;
        if entry.known.value(n).is_some() {
            return Ok(Arc::clone(&entry.known));
        }
    }
    if n >= limit {
        return Err(HeapValueError::TooLarge {
            rule: rule.name.clone(),
            heap: n,
            checked: entry.known.values.len() as u64,
            limit,
        });
    }
    // Grow geometrically so that heaps asked one after another do not recompute the period.
    let len = entry.known.values.len() as u64;
    entry.extend((n + 1).max(len.saturating_mul(2)).min(limit))?;
    Ok(Arc::clone(&entry.known))
}

/// `g(n)` for a heap of `n` under `rule`.
pub fn heap_value(rule: &HeapRule, n: u64) -> Result<u64, HeapValueError> {
    if let Some(v) = closed_form(rule, n) {
        return Ok(v);
    }
    let k = known(rule, n)?;
    Ok(k.value(n)
        .expect("`known` covers the heap it was asked for"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_forms_match_the_plain_engine() {
        for rule in [
            "half",
            "lasker",
            "even-if-not-all",
            "bash(1)",
            "bash(4)",
            "sub(1,2,3)",
        ] {
            let rule = HeapRule::parse(rule).unwrap();
            let mut s = PlainSequence::new(&rule);
            s.extend_to_len(600, &mut Control::none()).unwrap();
            for (n, &v) in s.values().iter().enumerate() {
                assert_eq!(
                    closed_form(&rule, n as u64),
                    Some(u64::from(v)),
                    "{rule} {n}"
                );
            }
        }
    }

    #[test]
    fn huge_heaps_answer_from_proven_periods() {
        let kayles = HeapRule::parse("kayles").unwrap();
        // 10^18 = 71 + 12k + r: the value of 71 + r.
        let n = 1_000_000_000_000_000_000u64;
        let r = (n - 71) % 12;
        let small = heap_value(&kayles, 71 + r + 12 * 10).unwrap();
        assert_eq!(heap_value(&kayles, n).unwrap(), small);
        let k = known(&kayles, n).unwrap();
        assert_eq!(
            k.proven_period().map(|p| (p.period, p.preperiod)),
            Some((12, 71))
        );
    }

    #[test]
    fn huge_heaps_without_a_proof_are_refused() {
        let grundy = HeapRule::parse("grundys-game").unwrap();
        let e = heap_value(&grundy, 1 << 40).unwrap_err();
        assert!(e.to_string().contains("too large"), "{e}");
    }
}
