//! Nim-sequences of heap rules: the engine choice, and a per-rule cache of what is known.
//!
//! [`engine_for`] is the one place that picks the engine for a rule. [`known`] answers "what
//! is `g(n)`" for any heap size: from a closed form where the rule has one (`half`, Lasker's
//! Nim, even-if-not-all), else from the cached sequence and its period, computing more values
//! (and trying to prove a period) on the way. The cache is per rule, so `kayles 10 20 30`
//! computes Kayles' sequence once, and `kayles` and `0.77` share it.
//!
//! # Which octal codes run on which engine, and why (issue 14, part 2)
//!
//! The target: every octal code of up to three digits, `0.d1`, `0.d1d2`, `0.d1d2d3` (511
//! games), to `2^24` values in under 5 s (`cargo bench -p grundy --bench all_codes -- 2^24 5
//! why` prints each code's engine and the library's reason). Measured on the shared 2-core
//! machine (release, load 5 to 6): 318 of the 511 make it. The codes fall into these classes:
//!
//! - **Proven periodic early** (the 316 other codes that make it): the Guy–Smith theorem
//!   proves the period after a few hundred to a few hundred thousand values, and
//!   `PeriodicEngine` copies the rest at memory speed. It
//!   looks for the proof where the theorem needs it for the period the values show
//!   (`2e + 2p + t`), not only at doublings: 0.127 (period 4 from 46,578, proven by 93,167
//!   values) is proven at about 94,000 values instead of 131,072. 0.376 and the other codes
//!   whose proof needs more values than 5 s computes stay in the classes below.
//! - **Sparse space in the domain** ([`super::domain`]): no mask leaves few rare values, but
//!   one leaves few rare *positions* once the parity of the heap is added (Flammenkamp's
//!   "sparse space in the domain"). 0.104 and 0.106 (a handful of rare positions; 0.106's
//!   period, by Flammenkamp, starts past `4·10^11`) now reach `2^24` in 2.6 to 3.2 s. 0.205,
//!   0.215, 0.207, 0.217, 0.324 and 0.325 (97 to 154 rare positions, most below 1,100) cost
//!   some 200 to 250 steps a heap (rare pairs and scanned splits; 0.205: 97 rare pairs, of
//!   which 76 far and marked by blocks, and 116 scanned splits): 3.1 to 3.9 s of CPU for
//!   `2^24` (3.4 to 4.0 s before the window of common positions marked with the far pairs,
//!   [`super::domain`]; user time of the whole run, pairs run in turn at load 6, where the
//!   wall time is 6.7 to 8.7 s, so they pass 5 s only on a quiet machine), against some
//!   100,000 values in 5 s on the small-values engine. The far marks on a second core
//!   ([`super::domain::Pipeline::On`]) made 0.205 slower at load 5 (1.4x the wall time):
//!   off by default. 0.142, 0.204 and 0.214 have thousands of rare positions (1,356 and
//!   2,245) and values past 128 (409, 445), so they run on the engine's byte path (2x to 4x
//!   the small-values engine), 0.005 about as many as the small-values engine's work (values
//!   that grow).
//! - **Sparse space in the values, no proof in reach** (121 codes): the sparse-space engine
//!   ([`super::sparse`]), `O(R + s)` per heap. Close when the rare positions are few (0.45x and
//!   0.47x, 0.054, 0.056: 5 to 15 million values in 5 s; 0.167, 0.174, 0.354, 0.015, 0.336:
//!   2.4 to 4.2 million), far when they are many (0.6, Officers, and the codes that share its
//!   values, some 1,580 rare positions; 0.64x to 0.67x, 486; 0.14, 2,335; 0.74x, 0.56x, 0.06x,
//!   0.26x, 0.27x: 100,000 to 600,000 values in 5 s). No period of these games is known
//!   (Flammenkamp's tables) and none is proven by `2^24` values.
//! - **Values that grow** (62 codes on the small-values engine: 0.004, 0.006, 0.007, 0.016,
//!   0.024 to 0.027, 0.036, 0.037, 0.04, 0.042, 0.06 to 0.063, 0.114, 0.125, 0.126, 0.135,
//!   0.136, 0.162 to 0.164, 0.206, 0.216, 0.224, 0.225, 0.234, 0.235, 0.244, 0.246, 0.254,
//!   0.256, 0.314, 0.334, 0.342 to 0.347, 0.371, 0.414, 0.415, 0.434, 0.435, 0.604, 0.605,
//!   0.614, 0.615, 0.624, 0.625, 0.634, 0.635, 0.76, 0.761 to 0.767): `max g(0..n)` keeps
//!   rising (0.764: 343, 645, 1168, 2060 at `n = 2^11 .. 2^14`), no mask leaves few positions
//!   rare in the values or in the domain, and no period can come: a finite octal game is never
//!   arithmetic-periodic (Austin; Horrocks and Nowakowski, INTEGERS 3 (2003) G01), so the
//!   arithmetic periodicity that some hexadecimal and infinite octal games have cannot help
//!   here. A mex must see each of the `g(n)` smaller values among the options, so any
//!   computation from the definition takes `Ω(Σ g(n))` steps; the small-values engine
//!   ([`super::small`]) takes `O(n)` per heap: 60,000 to 140,000 values in 5 s, and `2^24` is
//!   hours away.

use super::adaptive::AdaptiveEngine;
use super::closed::ClosedFormEngine;
pub use super::closed::closed_form;
pub use super::engine::{SequenceEngine, SequenceError, SparseEngine};
use super::options::option_count_bound;
use super::period::{Period, ProofMethod, ProofStep, find_period, next_proof_step, proof_method};
use super::periodic::extend_by_period;
use super::plain::PlainSequence;
use super::rules::{HeapRule, RuleKind};
use super::sparse::{SparseError, SparseSequence, SparseStats};
use crate::control::{Budget, BudgetError, Control};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The engine for `rule`, continuing from `prefix` (the first values, e.g. from a
/// checkpoint; empty to start afresh). The one place where the engine is chosen: for plain
/// octal codes the `AdaptiveEngine` (sparse space while the values show it, sparse space
/// in the domain ([`super::domain`]) while the positions do, the small-values engine
/// [`super::small`] otherwise; see the [module documentation](self) for which codes run
/// where); the
/// sparse-space engine for the other octal and hexadecimal codes (subtraction games with small sets
/// included, constraints on two-heap splits such as Grundy's game too) where it supports
/// them, the plain engine for everything else; wrapped, when a theorem can prove the rule's
/// period, in `PeriodicEngine`, which extends by copying
/// once the period is proven.
pub fn engine_for(
    rule: &HeapRule,
    prefix: Vec<u16>,
) -> Result<Box<dyn SequenceEngine>, SequenceError> {
    // Closed forms before search: `half`, whose values (the bit length) have no period.
    // Lasker's Nim and even-if-not-all are arithmetic-periodic: the periodic engine copies
    // them by their proven saltus, and reports the period.
    if matches!(rule.kind(), RuleKind::Half)
        && let Some(closed) = ClosedFormEngine::new(rule, prefix.clone())
    {
        return Ok(Box::new(closed));
    }
    // Plain octal codes: sparse space or the small-values engine, by measuring the values.
    if let Some(adaptive) = AdaptiveEngine::new(rule, prefix.clone())? {
        return Ok(extend_by_period(rule, Box::new(adaptive)));
    }
    let sparse = match rule.kind() {
        // Constraints on the splits (Grundy's game): see `sparse::moves::Split`.
        RuleKind::TakeBreak(tb) if tb.as_plain_code().is_none() => Some((
            tb.code().clone(),
            SparseSequence::from_take_break(tb, prefix.clone()),
        )),
        _ => rule.plain_code().map(|code| {
            let sparse = SparseSequence::from_prefix(&code, prefix.clone());
            (code, sparse)
        }),
    };
    if let Some((code, sparse)) = sparse {
        match sparse {
            Ok(inner) => {
                return Ok(extend_by_period(
                    rule,
                    Box::new(SparseEngine::new(code, inner)),
                ));
            }
            Err(SparseError::Unsupported { .. }) => {}
            Err(e) => return Err(SequenceError::engine(e)),
        }
    }
    Ok(extend_by_period(
        rule,
        Box::new(PlainSequence::from_prefix(rule, prefix)),
    ))
}

/// Whether `rule` runs on the fast (sparse-space) engine.
fn runs_sparse(rule: &HeapRule) -> bool {
    engine_for(rule, Vec::new()).is_ok_and(|e| e.name() == "sparse")
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
    /// The computation was cancelled, or passed the work budget.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// The heap is too large to compute directly and no proven period covers it. (A front
    /// end may suggest how to look for a proof with more values.)
    #[error(
        "heap {heap} is too large: {}, and computing {heap} values directly is beyond the \
         limit of {limit}",
        if *provable {
            format!(
                "no period of {rule} is proven within {}",
                crate::words::count(*checked, "value")
            )
        } else {
            format!("no theorem known here proves a period of {rule}")
        }
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
        /// Whether a proof of a period is possible at all for this rule (with more values).
        provable: bool,
    },
}

/// How many values the cache computes at most to look for a proof of a period.
fn proof_budget(rule: &HeapRule) -> u64 {
    match rule.kind() {
        _ if runs_sparse(rule) => 1 << 20,
        RuleKind::TakeBreak(tb) if tb.max_heaps_left() == 3 => 1 << 9,
        RuleKind::TakeBreak(tb) if tb.max_heaps_left() == 2 => 1 << 12,
        _ => (1 << 16).min(direct_limit(rule)),
    }
}

/// How many values the cache computes at most to answer a heap directly: `2^26` (128 MiB of
/// values) on the sparse engine (`2^18` for constrained splits, whose scans are long); on the plain engine about `2^30` steps: it costs `O(n)` per
/// value with splits into two heaps, `O(n²)` into three, `O(|S|)` for a subtraction game.
pub fn direct_limit(rule: &HeapRule) -> u64 {
    match rule.kind() {
        // Constrained two-heap splits (Grundy's game) on the sparse engine: some 4000 steps
        // per value (the scan for rare values is long), so `2^30` steps is `2^18` values.
        RuleKind::TakeBreak(tb) if tb.as_plain_code().is_none() && tb.max_heaps_left() == 2 => {
            1 << 18
        }
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

/// The most rules the cache holds: past it, the least recently used rule's entry goes (a
/// server asked for thousands of distinct rules keeps a bounded memory).
pub const CACHED_RULES: usize = 32;

/// The most values the cached rules hold in all (512 MiB of `u16`): past it, the least
/// recently used entries go, the one in use excepted.
pub const CACHED_VALUES: usize = 1 << 28;

/// The per-rule cache, keyed by the moves (so `kayles` and `0.77` share one entry), each entry
/// with the tick of its last use.
#[derive(Debug, Default)]
struct CacheMap {
    entries: HashMap<RuleKind, (Arc<Mutex<Entry>>, u64)>,
    tick: u64,
}

type Cache = Mutex<CacheMap>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// How many rules the cache holds now.
pub fn cached_rules() -> usize {
    cache()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entries
        .len()
}

impl CacheMap {
    /// Drops least recently used entries (never `keep`) while there are more than
    /// [`CACHED_RULES`] or they hold more than [`CACHED_VALUES`] values. An entry another
    /// thread is computing (locked) is counted as empty and never dropped.
    fn evict(&mut self, keep: &RuleKind) {
        loop {
            let held: usize = self
                .entries
                .values()
                .map(|(e, _)| e.try_lock().map_or(0, |e| e.known.values.len()))
                .sum();
            if self.entries.len() <= CACHED_RULES && held <= CACHED_VALUES {
                return;
            }
            let oldest = self
                .entries
                .iter()
                .filter(|(k, (e, _))| *k != keep && e.try_lock().is_ok())
                .min_by_key(|(_, (_, t))| *t)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => {
                    self.entries.remove(&k);
                }
                None => return,
            }
        }
    }
}

fn entry_for(rule: &HeapRule) -> Result<Arc<Mutex<Entry>>, SequenceError> {
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    map.tick += 1;
    let tick = map.tick;
    if let Some((e, used)) = map.entries.get_mut(rule.kind()) {
        *used = tick;
        return Ok(Arc::clone(e));
    }
    let canonical = rule.canonical();
    let entry = Arc::new(Mutex::new(Entry {
        engine: engine_for(&canonical, Vec::new())?,
        known: Arc::new(Known {
            rule: canonical.clone(),
            values: Arc::new(Vec::new()),
            period: None,
        }),
        proof_tried: false,
    }));
    let key = canonical.kind().clone();
    map.entries.insert(key.clone(), (Arc::clone(&entry), tick));
    map.evict(&key);
    Ok(entry)
}

/// Engine steps (options listed by the plain engine, rare nim-sums and split pairs scanned by
/// the sparse-space engine) in one unit of work: measured at 4 to 12 ns a step, so a unit is
/// some 15 to 50 ns, as for the other engines.
pub const STEPS_PER_UNIT: u64 = 4;

/// The sparse-space engine's values are computed in chunks of this many between charges.
const SPARSE_CHUNK: u64 = 1 << 14;

/// The plain engine's values are computed in chunks of at most this many units between
/// charges (a fraction of a second).
const PLAIN_CHUNK_UNITS: u64 = 1 << 22;

/// The work, in units, of the plain engine for the heaps `from..to`: the options it lists
/// ([`option_count_bound`]) over [`STEPS_PER_UNIT`], and one unit a value.
fn plain_units(rule: &HeapRule, from: u64, to: u64) -> u64 {
    (from..to).fold(0u64, |sum, n| {
        let steps = u64::try_from(option_count_bound(rule, n)).unwrap_or(u64::MAX);
        sum.saturating_add(steps / STEPS_PER_UNIT + 1)
    })
}

/// The work of the sparse-space engine so far, in its own steps.
fn sparse_steps(stats: &SparseStats) -> u64 {
    stats.rare_xor_steps.saturating_add(stats.scan_steps)
}

/// A lower estimate of the work, in units, to compute the heaps `from..to` on `engine`
/// (the plain engine's option counts, by the midpoint rule; one unit a value otherwise),
/// to refuse up front what cannot fit the budget.
pub(crate) fn estimated_units(
    rule: &HeapRule,
    engine: &dyn SequenceEngine,
    from: u64,
    to: u64,
) -> u64 {
    let count = to.saturating_sub(from);
    if engine.name() != "plain" || count == 0 {
        return count;
    }
    let mid = from + count / 2;
    let steps = u64::try_from(option_count_bound(rule, mid)).unwrap_or(u64::MAX);
    count.saturating_mul(steps / STEPS_PER_UNIT + 1)
}

/// Extends `engine` (the engine of `rule`) to `len` values under `budget`, in chunks: each
/// chunk's work is charged as it is done (the plain engine's options listed, the sparse-space
/// engine's steps, the small-values and domain engines' pairs looked at
/// ([`SequenceEngine::work_steps`]), and one unit a value), so a long computation
/// stops at the work limit; the budget's cancellation stops it within a chunk. A computation
/// whose estimate alone passes the limit is refused before it starts.
pub(crate) fn extend_under(
    rule: &HeapRule,
    engine: &mut dyn SequenceEngine,
    len: u64,
    budget: &Budget,
) -> Result<(), ExtendError> {
    // A budget already spent (by an earlier refusal) answers nothing more, even from values
    // the refused chunk computed: they wait in the engine for the next budget.
    budget.charge(0)?;
    let have = engine.values().len() as u64;
    if have >= len {
        return Ok(());
    }
    budget.afford(estimated_units(rule, engine, have, len))?;
    // The small-values and domain engines' steps a value in the last chunk.
    let mut steps_per_value = 1u64;
    loop {
        let start = engine.values().len() as u64;
        if start >= len {
            return Ok(());
        }
        budget.check()?;
        let plain = engine.name() == "plain";
        // The sparse-space engine computes every value in full (as the plain engine does)
        // until it has chosen its mask: chunked by the plain engine's cost meanwhile.
        let dense = engine.sparse_stats().is_some_and(|s| s.mask.is_none());
        let end = if plain || dense {
            // As many heaps as fit one chunk of work (at least one).
            let mut end = start;
            let mut units = 0u64;
            while end < len && (end == start || units < PLAIN_CHUNK_UNITS) {
                units = units.saturating_add(plain_units(rule, end, end + 1));
                end += 1;
            }
            end
        } else {
            // As many values as the last chunk's steps a value say fit one chunk of work
            // (at most `SPARSE_CHUNK`), so that an engine costing `O(n)` a value (the
            // small-values engine) is charged, and stopped, within a fraction of a second.
            let chunk = (PLAIN_CHUNK_UNITS * STEPS_PER_UNIT / steps_per_value.max(1))
                .clamp(1, SPARSE_CHUNK);
            start.saturating_add(chunk).min(len)
        };
        let steps_before = engine
            .sparse_stats()
            .map(|s| (sparse_steps(&s), s.dense_values));
        let work_before = engine.work_steps().unwrap_or(0);
        let mut control = Control::none().with_cancel(budget.cancel_flag());
        let done = engine.extend_to_len(end, &mut control)?;
        let reached = engine.values().len() as u64;
        let units = if plain {
            plain_units(rule, start, reached)
        } else {
            // Steps of the sparse-space engine, and values computed in full (each listing
            // its options), when it was running (not copying by a proven period).
            let stats = engine.sparse_stats();
            let sparse = match (steps_before, stats) {
                (Some((steps, dense)), Some(s)) => {
                    let full = s.dense_values.saturating_sub(dense);
                    let per_full = u64::try_from(option_count_bound(rule, reached))
                        .unwrap_or(u64::MAX)
                        / STEPS_PER_UNIT;
                    (sparse_steps(&s).saturating_sub(steps) / STEPS_PER_UNIT)
                        .saturating_add(full.saturating_mul(per_full))
                }
                _ => 0,
            };
            // Steps of the small-values and domain engines.
            let work = engine.work_steps().unwrap_or(0).saturating_sub(work_before);
            if reached > start {
                steps_per_value = work / (reached - start);
            }
            sparse
                .saturating_add(work / STEPS_PER_UNIT)
                .saturating_add(reached.saturating_sub(start))
        };
        budget.charge(units)?;
        if !done {
            return Err(BudgetError::Cancelled.into());
        }
    }
}

impl Entry {
    fn extend(&mut self, n: u64, budget: &Budget) -> Result<(), HeapValueError> {
        extend_under(&self.known.rule, self.engine.as_mut(), n, budget)?;
        let values = self.engine.values().to_vec();
        let period = find_period(&self.known.rule, &values);
        self.known = Arc::new(Known {
            rule: self.known.rule.clone(),
            values: Arc::new(values),
            period,
        });
        Ok(())
    }

    fn try_proof(&mut self, budget: &Budget) -> Result<(), HeapValueError> {
        if matches!(
            proof_method(&self.known.rule),
            ProofMethod::None { .. } | ProofMethod::NotPeriodic
        ) {
            self.proof_tried = true;
            return Ok(());
        }
        let max = proof_budget(&self.known.rule);
        while let ProofStep::Extend(n) =
            next_proof_step(&self.known.rule, self.engine.values(), max)
        {
            // A cancelled attempt is tried again next time (the values so far are kept).
            extend_under(&self.known.rule, self.engine.as_mut(), n, budget)?;
        }
        self.proof_tried = true;
        self.extend(0, budget)
    }
}

/// Why [`extend_under`] stopped.
#[derive(Debug)]
pub(crate) enum ExtendError {
    /// The engine failed.
    Sequence(SequenceError),
    /// The budget refused, or was cancelled.
    Budget(BudgetError),
}

impl From<SequenceError> for ExtendError {
    fn from(e: SequenceError) -> Self {
        ExtendError::Sequence(e)
    }
}

impl From<BudgetError> for ExtendError {
    fn from(e: BudgetError) -> Self {
        ExtendError::Budget(e)
    }
}

impl From<ExtendError> for HeapValueError {
    fn from(e: ExtendError) -> Self {
        match e {
            ExtendError::Sequence(e) => HeapValueError::Sequence(e),
            ExtendError::Budget(e) => HeapValueError::Budget(e),
        }
    }
}

/// What is known of `rule`'s sequence, enough to answer `g(n)` for every heap up to `n`
/// (computing and caching more values, and proving a period, as needed), with no budget but
/// the rule's own limits ([`known_within`] with a fresh default [`Budget`]).
pub fn known(rule: &HeapRule, n: u64) -> Result<Arc<Known>, HeapValueError> {
    known_within(rule, n, &Budget::default())
}

/// As [`known`], under `budget`: the work of every value computed is charged (see
/// [`STEPS_PER_UNIT`]), a computation whose estimate passes the work limit is refused before
/// it starts, and cancelling the budget stops the computation ([`HeapValueError::Budget`]); the values computed so far
/// stay cached for the next call.
pub fn known_within(
    rule: &HeapRule,
    n: u64,
    budget: &Budget,
) -> Result<Arc<Known>, HeapValueError> {
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
        entry.try_proof(budget)?;
        if entry.known.value(n).is_some() {
            return Ok(Arc::clone(&entry.known));
        }
    }
    if n >= limit {
        return Err(HeapValueError::TooLarge {
            rule: rule.name().to_string(),
            heap: n,
            checked: entry.known.values.len() as u64,
            limit,
            provable: !matches!(
                proof_method(rule),
                ProofMethod::None { .. } | ProofMethod::NotPeriodic
            ),
        });
    }
    // Grow geometrically so that heaps asked one after another do not recompute the period.
    let len = entry.known.values.len() as u64;
    let grown = entry.extend(
        n.saturating_add(1).max(len.saturating_mul(2)).min(limit),
        budget,
    );
    match grown {
        // Values past 65535 are not stored: an arithmetic-periodic rule (`0.8`) answers them
        // from its proven period and saltus, which a proof attempt finds from the values below.
        Err(HeapValueError::Sequence(SequenceError::ValueTooLarge { .. }))
            if !entry.proof_tried =>
        {
            entry.try_proof(budget)?;
            if entry.known.value(n).is_some() {
                Ok(Arc::clone(&entry.known))
            } else {
                grown.map(|()| Arc::clone(&entry.known))
            }
        }
        _ => grown.map(|()| Arc::clone(&entry.known)),
    }
}

/// `g(n)` for a heap of `n` under `rule`.
pub fn heap_value(rule: &HeapRule, n: u64) -> Result<u64, HeapValueError> {
    heap_value_within(rule, n, &Budget::default())
}

/// `g(n)` for a heap of `n` under `rule`, under `budget` (as [`known_within`]).
pub fn heap_value_within(rule: &HeapRule, n: u64, budget: &Budget) -> Result<u64, HeapValueError> {
    if let Some(v) = closed_form(rule, n) {
        return Ok(v);
    }
    let k = known_within(rule, n, budget)?;
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
    fn values_past_65535_below_the_proof_heap_come_from_the_proven_saltus() {
        // `0.8` (values about n/3) overflows the stored 16 bits at heap 196609, below the
        // heap (2^20) from which a proof was first tried: the overflow tries it.
        for (code, first_large) in [("0.8", 196_609u64), ("0.c", 131_073), ("0.0f", 131_072)] {
            let rule = HeapRule::parse(code).unwrap();
            for n in first_large - 2..first_large + 40 {
                let v = heap_value(&rule, n).unwrap();
                let k = known(&rule, n).unwrap();
                let p = k.proven_period().expect("a proven arithmetic period");
                assert!(p.saltus > 0, "{code}: {p:?}");
                // The saltus relation, one period down, from values that fit 16 bits.
                let below = heap_value(&rule, n - p.period).unwrap();
                assert_eq!(v, below + p.saltus, "{code} {n}");
            }
            assert!(heap_value(&rule, first_large).unwrap() > 65535, "{code}");
        }
    }

    #[test]
    fn the_cache_holds_a_bounded_number_of_rules() {
        // Subtraction games with distinct sets of odd numbers (whose values are n mod 2): one
        // entry each, at most CACHED_RULES kept.
        for k in 1..=(CACHED_RULES as u64 + 8) {
            let rule = HeapRule::parse(&format!("sub(1,{})", 1001 + 2 * k)).unwrap();
            assert_eq!(heap_value(&rule, 3000 + k).unwrap(), ((3000 + k) % 2));
            assert!(cached_rules() <= CACHED_RULES, "{}", cached_rules());
        }
    }

    #[test]
    fn the_cache_is_keyed_by_the_moves_and_cancellable() {
        // `dawson` and `0.137` are one game: one cache entry, whatever the name.
        let a = known(&HeapRule::parse("dawson").unwrap(), 500).unwrap();
        let b = known(&HeapRule::parse("0.137").unwrap(), 500).unwrap();
        assert!(Arc::ptr_eq(&a.values, &b.values));
        // A cancelled budget stops the computation with a budget error; the next call
        // (not cancelled) finishes it. (A rule no other test here uses.)
        let rule = HeapRule::parse("0.6143").unwrap();
        let budget = Budget::default();
        budget.cancel();
        let e = heap_value_within(&rule, 5000, &budget).unwrap_err();
        assert!(
            matches!(e, HeapValueError::Budget(BudgetError::Cancelled)),
            "{e}"
        );
        let mut plain = PlainSequence::new(&rule);
        plain.extend_to_len(5001, &mut Control::none()).unwrap();
        assert_eq!(
            heap_value(&rule, 5000).unwrap(),
            u64::from(plain.values()[5000])
        );
        // Too little work allowed: refused before the work, naming the limit.
        let small = Budget::new(crate::control::Limits {
            max_work: 10,
            ..Default::default()
        });
        let e = heap_value_within(&HeapRule::parse("0.3704").unwrap(), 4000, &small).unwrap_err();
        assert!(
            matches!(e, HeapValueError::Budget(BudgetError::Work { limit: 10 })),
            "{e}"
        );
    }

    #[test]
    fn the_domain_engine_is_charged_for_its_pairs() {
        // 0.325 runs on the domain engine from 4096 values on, some 200 pairs a heap (rare
        // pairs and scanned splits): charged for them, not one unit a value. (A rule no
        // other test here uses.)
        let rule = HeapRule::parse("0.325").unwrap();
        let budget = Budget::default();
        let v = heap_value_within(&rule, 30_000, &budget).unwrap();
        let mut plain = PlainSequence::new(&rule);
        plain.extend_to_len(30_001, &mut Control::none()).unwrap();
        assert_eq!(v, u64::from(plain.values()[30_000]));
        assert!(budget.work_done() > 300_000, "{}", budget.work_done());
        // A limit that one unit a value would meet is passed, with the figure named.
        let rule = HeapRule::parse("0.324").unwrap();
        let small = Budget::new(crate::control::Limits {
            max_work: 100_000,
            ..Default::default()
        });
        let e = heap_value_within(&rule, 30_000, &small).unwrap_err();
        assert!(
            matches!(
                e,
                HeapValueError::Budget(BudgetError::Work { limit: 100_000 })
            ),
            "{e}"
        );
    }

    #[test]
    fn huge_heaps_without_a_proof_are_refused() {
        let grundy = HeapRule::parse("grundys-game").unwrap();
        let e = heap_value(&grundy, 1 << 40).unwrap_err();
        assert!(e.to_string().contains("too large"), "{e}");
        assert!(e.to_string().contains("no theorem"), "{e}");
        assert!(!e.to_string().contains("--"), "{e}");
        assert!(matches!(
            e,
            HeapValueError::TooLarge {
                provable: false,
                ..
            }
        ));
    }
}
