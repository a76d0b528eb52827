//! The periodicity theorem for misère quotients: when a period of the heap map, seen in the
//! heaps computed, holds for every heap.
//!
//! Plambeck and Siegel (*Misère quotients for impartial games*, JCTA 115 (2008), arXiv
//! math/0609825; proof in Siegel, *Misère games and misère quotients*, Games of No Chance 5
//! (2017), arXiv math/0612616) prove a periodicity theorem for the misère quotients of octal
//! games, the misère analogue of the Guy–Smith theorem for nim-sequences: once the quotient of
//! the heaps `1..N` and its heap map `Φ` repeat with period `p` from `n0` over a long enough
//! range, the quotient of *all* heaps is that same monoid and `Φ(n + p) = Φ(n)` for every
//! `n ≥ n0`. Siegel's MisereSolver stops an octal game at such a heap and calls it solved.
//! The published papers could not be read where this module was written, so the statement
//! below, its bound and its proof are this module's own; they are shaped as the Guy–Smith
//! argument of [`crate::heap::period`] and rest on the verification of
//! [`super::quotient`]. For comparison, MisereSolver (as read in CGSuite's source) accepts a
//! period of the pretending function once `k·n0 + k·p + t + k ≤ N + 1`, that is
//! `N ≥ M + k − 1`: one heap more than asked here for octal codes (the proof below needs
//! `N ≥ M − 1`).
//!
//! ## Statement
//! Let the rule be an octal or hexadecimal code without constraints (subtraction games with
//! small sets included, [`HeapRule::plain_code`]) whose digit before the point allows no
//! removal of nothing (`d0 ∈ {0, 4, 8, 12}`), whose moves remove at most `t` tokens and leave
//! at most `k` heaps (`k = 1` without splits, `2` octal, `3` hexadecimal). Let `(Q, P, Φ)` be
//! the verified quotient of the heaps `1..N` (the final one: `Φ` read in `Q`), and suppose
//! `Φ(n + p) = Φ(n)` for all `n0 ≤ n ≤ N − p`, with `n0 ≥ 1`. If
//!
//! ```text
//!     N ≥ M = k·(n0 + p) + t
//! ```
//!
//! then for every `N' ≥ N` the quotient of the heaps `1..N'` is `(Q, P)` with `Φ` extended by
//! `Φ(n) = Φ(n − p)`: every sum of heaps of any sizes is a P-position exactly when its element
//! lies in `P`. (The induction below starts at heap `M`, so `N ≥ M − 1` would do; `M` itself is
//! asked for, one heap more, the heaps the report names.)
//!
//! ## Proof
//! Induction on `n > N`, assuming the statement for the heaps `1..n−1`. The *type* of a heap
//! in `Q` is its image and the set `W = {y : y·Φ(O) ∈ P for an option O of it}`; the
//! verification automaton of [`super::quotient`] depends only on the table, `P` and the set
//! of types, and it passes for `Q` and the heaps `1..n−1` (a correct quotient passes it: each
//! state is some sum, whose outcome the quotient predicts). So if heap `n` has the type of
//! heap `n − p`, the automaton for the heaps `1..n` is the same one and passes: `Q`, with `n`
//! mapped to `Φ(n − p)`, predicts every outcome, its elements are still told apart by sums of
//! the smaller heaps, so it is the quotient of the heaps `1..n`. The type of a heap is fixed by
//! the set of images of its options; those of `n` and `n − p` are equal:
//! - a move from `n` removes `j ≤ t` and leaves at most `k` heaps (none only when `n ≤ t`, and
//!   `n − p ≥ M − p > t`). Its largest part `c ≥ (n − t)/k ≥ n0 + p`, so `Φ(c) = Φ(c − p)`
//!   (heaps below `n`, by induction), and leaving `c − p ≥ n0 ≥ 1` instead is a move from
//!   `n − p` with the same image;
//! - conversely the largest part `c'` of a move from `n − p` has
//!   `c' ≥ (n − p − t)/k ≥ n0`, and `c' + p` stays below `n` (the move removes a token or
//!   leaves another part), so `Φ(c' + p) = Φ(c')` and the move from `n` leaving `c' + p`
//!   has the same image.
//!
//! The same holds, word for word, for the closure of the heaps and a fixed finite set of
//! other games closed under options, such as the Nim heaps `*1..*m` of a sum that holds them
//! beside the rule's heaps ([`heap_quotient_proving_with_nim`]): those games are types of the
//! automaton from the start, their options are among them, and the induction adds heaps
//! after them as before. It holds too for the heaps of several rules together (a sum of
//! Kayles and 0.75 heaps), each rule with its own period and bound: a heap of one rule
//! whose type repeats leaves the quotient unchanged whatever the other rules' heaps are, so
//! the heaps of every rule can be added, one at a time in any order, past their bounds.
//!
//! The argument needs every split allowed whatever the parts' sizes: codes with `!`, `?` or
//! `=` (Grundy's game: unequal parts) and the other rule families get their period reported
//! as observed.
//!
//! ## Cost
//! Deciding is `O(N)` (the map is read once). When the heaps computed fall short of `M`,
//! [`heap_quotient_proving`] computes the quotient again to `M`, under the same budget, when
//! `M` is at most the caller's bound: for 0.75 (period 2 from 8, `t = 2`) `M = 22`; for Kayles
//! (period 12 from 71) `M = 168`, a few seconds in a debug build (`quotient kayles --max-heap
//! 120`, which computes on to 168: 6 s of user time in a debug build).
//!
//! ```
//! use grundy::control::Budget;
//! use grundy::heap::rules::HeapRule;
//! use grundy::misere::periodicity::heap_quotient_proving;
//! let rule = HeapRule::parse("0.75").unwrap();
//! let q = heap_quotient_proving(&rule, 16, &Budget::default(), 1000, 64).unwrap();
//! let p = q.reported_period().unwrap();
//! assert_eq!((p.period, p.preperiod), (2, 8));
//! assert!(p.proven);
//! assert_eq!(p.needed, Some(22)); // 2·(8 + 2) + 2
//! assert_eq!(q.generators.max_heap(), 22); // computed further than 16 to apply it
//! ```

use super::MisereError;
use super::quotient::{HeapQuotient, MapPeriod, QuotientStop, heap_quotient_with_nim};
use crate::control::{Budget, BudgetError};
use crate::heap::rules::HeapRule;

/// A heap map's period as reported ([`assess`]): proven for every heap
/// by the periodicity theorem when it applies and the heaps computed reach its bound,
/// otherwise observed over the heaps computed.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct ReportedPeriod {
    /// The period.
    pub period: u64,
    /// The first heap size from which it holds.
    pub preperiod: u64,
    /// Whether the period holds for every heap (the periodicity theorem); `false`: observed
    /// over the heaps computed.
    pub proven: bool,
    /// The heap to which the periodicity theorem needs the map computed,
    /// `k·(max(preperiod, 1) + period) + t`; `None` when the theorem does not apply to the
    /// rule.
    pub needed: Option<u64>,
    /// The largest heap computed.
    pub computed: u64,
}

impl HeapQuotient {
    /// The heap map's period with what is proven of it ([`assess`]).
    pub fn reported_period(&self) -> Option<ReportedPeriod> {
        assess(self)
    }
}

/// The most times [`heap_quotient_proving`] computes the quotient again (each time to the
/// bound the period then seen needs).
const ROUNDS: usize = 4;

/// The heap `M = k·(n0 + p) + t` to which the theorem needs the map computed for `period`,
/// or why it does not apply to `rule`.
pub fn needed_heap(rule: &HeapRule, period: MapPeriod) -> Result<u64, NotCovered> {
    let code = rule.plain_code().ok_or(NotCovered::Rule)?;
    if code.digit(0) & 3 != 0 {
        return Err(NotCovered::Rule);
    }
    let k: u64 = if code.digits().iter().any(|&d| d & 8 != 0) {
        3
    } else if code.digits().iter().any(|&d| d & 4 != 0) {
        2
    } else {
        1
    };
    let t = code.max_removal() as u64;
    let n0 = period.preperiod.max(1);
    n0.checked_add(period.period)
        .and_then(|x| x.checked_mul(k))
        .and_then(|x| x.checked_add(t))
        .ok_or(NotCovered::Overflow)
}

/// Why the periodicity theorem does not apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotCovered {
    /// The rule is not an unconstrained code.
    #[error(
        "the periodicity theorem is proven here for octal and hexadecimal codes without constraints (and subtraction games), not for this rule"
    )]
    Rule,
    /// The bound does not fit in 64 bits.
    #[error("the heap the periodicity theorem needs does not fit in 64 bits")]
    Overflow,
}

/// Whether `Φ(n + p) = Φ(n)` for every `n0 ≤ n ≤ N − p` in the computed map.
fn repeats(map: &[u32], period: MapPeriod) -> bool {
    let (Ok(p), Ok(n0)) = (
        usize::try_from(period.period),
        usize::try_from(period.preperiod),
    ) else {
        return false;
    };
    p >= 1 && (n0.saturating_add(p)..map.len()).all(|n| map[n] == map[n - p])
}

/// Whether the theorem proves `period` for the quotient `q`: it applies to the rule, the heaps
/// computed reach the bound it needs, and the map repeats with that period over them. Any
/// period, not only the one [`HeapQuotient::period`] finds.
pub fn proves(q: &HeapQuotient, period: MapPeriod) -> bool {
    needed_heap(&q.rule, period)
        .is_ok_and(|m| q.generators.max_heap() >= m && repeats(&q.heap_map, period))
}

/// The heap map's period as reported: proven when the theorem applies and the heaps computed
/// reach the bound it needs, observed otherwise.
pub fn assess(q: &HeapQuotient) -> Option<ReportedPeriod> {
    let period = q.period()?;
    let computed = q.generators.max_heap();
    let needed = needed_heap(&q.rule, period).ok();
    let proven = proves(q, period);
    Some(ReportedPeriod {
        period: period.period,
        preperiod: period.preperiod,
        proven,
        needed,
        computed,
    })
}

/// The quotient of the heaps `1..=max_heap` of `rule`
/// ([`heap_quotient`](super::quotient::heap_quotient)), computed again to a larger heap (at
/// most `extend_to`) when a period of its map shows but the heaps fall short of the bound
/// the periodicity theorem needs. The heaps of the result are `max_heap` or
/// more; its [`HeapQuotient::reported_period`] says whether the period is proven.
///
/// A computation further that fails (the budget's work, the element limit) leaves the
/// quotient to `max_heap`, its period observed; cancellation is an error.
pub fn heap_quotient_proving(
    rule: &HeapRule,
    max_heap: u64,
    budget: &Budget,
    max_elements: usize,
    extend_to: u64,
) -> Result<HeapQuotient, MisereError> {
    Ok(heap_quotient_proving_or_stop(
        rule,
        max_heap,
        budget,
        max_elements,
        extend_to,
    )?)
}

/// As [`heap_quotient_proving`], but when a limit stops the quotient to `max_heap` the error
/// keeps the quotient of the heaps proven before it
/// ([`heap_quotient_reaching`](super::quotient::heap_quotient_reaching)).
pub fn heap_quotient_proving_or_stop(
    rule: &HeapRule,
    max_heap: u64,
    budget: &Budget,
    max_elements: usize,
    extend_to: u64,
) -> Result<HeapQuotient, QuotientStop> {
    heap_quotient_proving_with_nim(rule, 0, max_heap, budget, max_elements, extend_to)
}

/// The largest heap bound the front ends accept (`grundy quotient --max-heap`, Python's
/// `quotient`): the search behind each heap grows quickly with its size.
pub const MAX_HEAP_BOUND: u64 = 4096;
/// The most Nim heaps a closure takes beside the heaps (`--nim`): each is a generator.
pub const MAX_NIM_HEAPS: u32 = 64;

/// The quotient as the front ends compute it: the heaps `1..=max_heap` with the Nim heaps
/// `*1..=*nim`, computed further to prove a period that shows (up to twice `max_heap`, at
/// least 256, at most [`MAX_HEAP_BOUND`]; [`heap_quotient_proving_with_nim`]). Bounds past
/// [`MAX_HEAP_BOUND`] or [`MAX_NIM_HEAPS`] are refused before any work.
///
/// ```
/// use grundy::control::Budget;
/// use grundy::heap::rules::HeapRule;
/// use grundy::misere::periodicity::heap_quotient_as_asked;
/// let kayles = HeapRule::parse("kayles").unwrap();
/// let q = heap_quotient_as_asked(&kayles, 2, 120, &Budget::default(), 1024).unwrap();
/// assert_eq!(q.quotient.order(), 40);
/// assert!(q.reported_period().unwrap().proven); // computed to heap 168 = 2·(71 + 12) + 2
/// ```
pub fn heap_quotient_as_asked(
    rule: &HeapRule,
    nim: u32,
    max_heap: u64,
    budget: &Budget,
    max_elements: usize,
) -> Result<HeapQuotient, QuotientStop> {
    let refused = |error: MisereError| QuotientStop {
        error,
        heap: None,
        reached: None,
        progress: Default::default(),
    };
    if max_heap > MAX_HEAP_BOUND {
        return Err(refused(MisereError::HeapBound {
            max_heap,
            limit: MAX_HEAP_BOUND,
        }));
    }
    if nim > MAX_NIM_HEAPS {
        return Err(refused(MisereError::Unsupported(format!(
            "{nim} Nim heaps asked for beside the heaps, more than the {MAX_NIM_HEAPS} a closure may hold (each is a generator)"
        ))));
    }
    let extend_to = max_heap.saturating_mul(2).clamp(256, MAX_HEAP_BOUND);
    heap_quotient_proving_with_nim(rule, nim, max_heap, budget, max_elements, extend_to)
}

/// As [`heap_quotient_proving_or_stop`], for the closure of the Nim heaps `*1..=*nim` and the
/// rule's heaps ([`heap_quotient_with_nim`]). The theorem holds for that closure as stated
/// (the module's proof, its closing paragraph on fixed games beside the heaps).
pub fn heap_quotient_proving_with_nim(
    rule: &HeapRule,
    nim: u32,
    max_heap: u64,
    budget: &Budget,
    max_elements: usize,
    extend_to: u64,
) -> Result<HeapQuotient, QuotientStop> {
    let mut q = heap_quotient_with_nim(rule, nim, max_heap, budget, max_elements)?;
    for _ in 0..ROUNDS {
        let Some(r) = assess(&q) else { break };
        let Some(m) = r
            .needed
            .filter(|&m| !r.proven && m > r.computed && m <= extend_to)
        else {
            break;
        };
        match heap_quotient_with_nim(rule, nim, m, budget, max_elements).map_err(|s| s.error) {
            Ok(further) => q = further,
            Err(MisereError::Budget(BudgetError::Cancelled)) => {
                return Err(QuotientStop {
                    error: BudgetError::Cancelled.into(),
                    heap: None,
                    reached: None,
                    progress: Default::default(),
                });
            }
            Err(_) => break,
        }
    }
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(s: &str) -> HeapRule {
        HeapRule::parse(s).unwrap()
    }

    fn per(period: u64, preperiod: u64) -> MapPeriod {
        MapPeriod { period, preperiod }
    }

    #[test]
    fn bounds_follow_the_heaps_a_move_leaves() {
        // 0.75: t = 2, two heaps.
        assert_eq!(needed_heap(&rule("0.75"), per(2, 8)), Ok(22));
        // Kayles: 2·(71 + 12) + 2.
        assert_eq!(needed_heap(&rule("kayles"), per(12, 71)), Ok(168));
        // A subtraction game leaves one heap; a hexadecimal code three.
        assert_eq!(needed_heap(&rule("sub(1,3)"), per(2, 1)), Ok(6));
        assert_eq!(needed_heap(&rule("0.8"), per(1, 1)), Ok(7));
        // Splitting without removing: t counts from the digit before the point.
        assert_eq!(needed_heap(&rule("4.07"), per(3, 5)), Ok(18));
        // The preperiod is taken to be at least 1.
        assert_eq!(needed_heap(&rule("0.75"), per(2, 0)), Ok(8));
    }

    #[test]
    fn constrained_codes_and_other_families_are_not_covered() {
        for r in ["grundys-game", "0.4!", "lasker", "half", "allbut(1)"] {
            assert_eq!(
                needed_heap(&rule(r), per(2, 1)),
                Err(NotCovered::Rule),
                "{r}"
            );
        }
        assert_eq!(
            needed_heap(&rule("0.75"), per(u64::MAX, 1)),
            Err(NotCovered::Overflow)
        );
    }

    #[test]
    fn repeats_reads_the_whole_range() {
        let map = [0, 1, 2, 3, 2, 3, 2, 3];
        assert!(repeats(&map, per(2, 2)));
        assert!(!repeats(&map, per(2, 1)));
        assert!(!repeats(&map, per(0, 2)));
        assert!(repeats(&map, per(100, 2))); // nothing to compare: vacuous
    }
}
