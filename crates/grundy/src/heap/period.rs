//! Periods of nim-sequences: detection, and proofs where the theory gives one.
//!
//! A sequence is *(arithmetic-)periodic* with period `p`, preperiod `e` and saltus `s` when
//! `g(n + p) = g(n) + s` for every `n ≥ e`; `s = 0` is plain periodicity. Detection looks for
//! the smallest `p` for which the computed values satisfy this from some `e` on, scanning
//! back from the end (`O(N)` per candidate in the worst case, usually a few steps).
//!
//! A period seen in finitely many values is only *apparent*. It is *proven* when a theorem
//! says that the values checked so far force it forever:
//!
//! - **Octal and hexadecimal codes (Guy–Smith).** For a code whose moves remove at most `t`
//!   tokens and leave at most `k` heaps (`k = 2` octal, `3` hexadecimal, `1` without splits):
//!   if `g(n + p) = g(n)` for all `e ≤ n < k·e' + (k−1)·p + t`, with `e' = max(e, 1)`, then it
//!   holds for all `n ≥ e`. For `k = 2` this is the periodicity theorem of Guy and Smith
//!   (*The G-values of various games*, 1956; Winning Ways ch. 4; Siegel, *Combinatorial Game
//!   Theory*, Thm IV.2.7 — the "values agree up to `2e + 2p + t`"). The proof is by
//!   induction on `n`: a move from `n + p` removes `j ≤ t` and leaves at most `k` heaps whose
//!   largest is at least `(n + p − j)/k ≥ e' + p`, so taking `p` from it gives a move from
//!   `n` with an equal value, and back; the same argument with three parts gives the
//!   hexadecimal bound (Howse and Nowakowski, *Periodicity and arithmetic-periodicity in
//!   hexadecimal games*, TCS 313, 2004), and it covers codes that split without removing
//!   (`4.07`: `j = 0`). We use `e' = max(e, 1)` so that the shortened part is never empty
//!   (a move leaving an empty heap is a different move). The theorem needs unconstrained
//!   digits: codes with `!`, `?` or `=` (Grundy's game) get apparent periods only.
//! - **Subtraction games** are codes with `k = 1`: the window argument (`g(n)` depends only on
//!   the `t` values before it) proves the period once `g(n + p) = g(n)` for `e ≤ n < e' + t`.
//! - **Lasker's Nim** (`g(n + 4) = g(n) + 4` from `n = 1`; Winning Ways ch. 4) and
//!   **even-if-not-all** (`g(n + 2) = g(n) + 1` from `n = 1`; Ferguson, *Game Theory*, Part I,
//!   §3) are arithmetic-periodic by published theorems; the period found must be the one the
//!   theorem states.
//! - **No saltus for finite octal codes.** A finite octal game is never arithmetic-periodic
//!   with a positive saltus (stated by Horrocks and Nowakowski, *Regularity in the
//!   G-sequences of octal games with a pass*, INTEGERS 3 (2003) G01: "Finite octal games are
//!   not arithmetic periodic"), so for codes only plain periods are looked for: an octal game
//!   whose values keep growing (0.004, 0.765, ...) has no period to find, and its values are
//!   computed (`super::adaptive`).
//! - **Hexadecimal codes with a saltus.** Codes that split a heap into three have growing
//!   values, often arithmetic-periodic (Howse and Nowakowski 2004): when no plain period
//!   shows, an arithmetic one is looked for, and proven by the test of `super::arithmetic`
//!   (a power-of-two saltus above the first period's values; conditions on the moves'
//!   shapes that hold for every heap at once) from `max(t + 3e, e + p)` values.
//! - All-but subtraction games are arithmetic-periodic (A. Siegel, 2005) but with no bound
//!   implemented here; their periods are reported as apparent.

use super::rules::{HeapRule, RuleKind};
use std::fmt;

/// How a period was established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Seen in the values computed, not proven.
    Apparent,
    /// The Guy–Smith theorem (octal and hexadecimal codes; subtraction games when `heaps`
    /// is 1): the values agree through `checked` values, as many as the theorem needs.
    GuySmith {
        /// The most heaps a move leaves (`k`).
        heaps: u32,
        /// The largest removal (`t`).
        max_removal: u64,
        /// How many values the theorem needs, `k·e' + k·p + t`.
        needed: u64,
    },
    /// A published theorem for this rule (the text names it), agreeing with the values.
    Theorem(&'static str),
    /// The arithmetic-periodicity test for hexadecimal codes (`super::arithmetic`): the
    /// values agree through `needed` values and the moves' shapes pass.
    Arithmetic {
        /// How many values the test read.
        needed: u64,
    },
}

/// A period of a nim-sequence: `g(n + period) = g(n) + saltus` for all `n ≥ preperiod`.
/// Serialized as a [`PeriodSummary`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(into = "PeriodSummary")]
pub struct Period {
    /// The period `p ≥ 1`.
    pub period: u64,
    /// The preperiod `e`: the first heap from which the pattern holds.
    pub preperiod: u64,
    /// The saltus `s` (0 for plain periodicity).
    pub saltus: u64,
    /// Proven or apparent, and why.
    pub proof: Proof,
}

impl Period {
    /// Whether the period is proven (holds for every heap).
    pub fn proven(&self) -> bool {
        self.proof != Proof::Apparent
    }

    /// `g(n)` from the first values and this period: exact for `n < values.len()` and, when
    /// the period is proven, for every `n`. `None` if `n` is past the values and the period
    /// is not proven, or the value overflows `u64`.
    pub fn value_at(&self, values: &[u16], n: u64) -> Option<u64> {
        if let Some(&v) = usize::try_from(n).ok().and_then(|i| values.get(i)) {
            return Some(u64::from(v));
        }
        if !self.proven() || n < self.preperiod {
            return None;
        }
        let offset = n - self.preperiod;
        let base = self.preperiod + offset % self.period;
        let v = u64::from(*values.get(usize::try_from(base).ok()?)?);
        let rise = u128::from(offset / self.period) * u128::from(self.saltus);
        u64::try_from(u128::from(v) + rise).ok()
    }

    /// The class of heap `n` under this period: heaps of one class have the same value (when
    /// the saltus is 0). Below the preperiod every heap is its own class.
    pub fn class_of(&self, n: u64) -> u64 {
        if n < self.preperiod {
            n
        } else {
            self.preperiod + (n - self.preperiod) % self.period
        }
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "period {} from n = {}", self.period, self.preperiod)?;
        if self.saltus != 0 {
            write!(f, " with saltus {}", self.saltus)?;
        }
        match &self.proof {
            Proof::Apparent => f.write_str(", apparent (not proven)"),
            Proof::GuySmith {
                heaps: 1, needed, ..
            } => {
                write!(
                    f,
                    ", proven (subtraction-game window: {} checked)",
                    crate::words::count(*needed, "value")
                )
            }
            Proof::GuySmith { heaps, needed, .. } => write!(
                f,
                ", proven (Guy–Smith theorem, {} code: {} checked)",
                if *heaps == 3 { "hexadecimal" } else { "octal" },
                crate::words::count(*needed, "value")
            ),
            Proof::Theorem(t) => write!(f, ", proven ({t})"),
            Proof::Arithmetic { needed } => write!(
                f,
                ", proven (arithmetic-periodicity test, hexadecimal code: {} checked)",
                crate::words::count(*needed, "value")
            ),
        }
    }
}

/// A [`Period`] as front ends show it in JSON: the numbers, whether it is proven, and the
/// proof in words (`apparent`, `Guy-Smith theorem, 168 values`, a theorem's statement).
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct PeriodSummary {
    /// The period `p`.
    pub period: u64,
    /// The preperiod `e`.
    pub preperiod: u64,
    /// How it is established, in words.
    pub proof: String,
    /// Whether it is proven.
    pub proven: bool,
    /// The saltus `s`.
    pub saltus: u64,
    /// The period in a sentence, as the text output prints it.
    pub text: String,
}

impl From<Period> for PeriodSummary {
    fn from(p: Period) -> Self {
        let proof = match &p.proof {
            Proof::Apparent => "apparent".to_string(),
            Proof::GuySmith {
                heaps: 1, needed, ..
            } => format!("subtraction-game window, {needed} values"),
            Proof::GuySmith { needed, .. } => format!("Guy-Smith theorem, {needed} values"),
            Proof::Theorem(t) => (*t).to_string(),
            Proof::Arithmetic { needed } => {
                format!("arithmetic-periodicity test, {needed} values")
            }
        };
        PeriodSummary {
            period: p.period,
            preperiod: p.preperiod,
            proven: p.proven(),
            proof,
            saltus: p.saltus,
            text: p.to_string(),
        }
    }
}

/// What kind of argument can prove a period of a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofMethod {
    /// The Guy–Smith bound with `heaps` (`k`) and `max_removal` (`t`).
    GuySmith {
        /// `k`.
        heaps: u32,
        /// `t`.
        max_removal: u64,
    },
    /// A theorem stating the exact period, preperiod and saltus.
    Theorem {
        /// `p`.
        period: u64,
        /// `e`.
        preperiod: u64,
        /// `s`.
        saltus: u64,
        /// The theorem.
        name: &'static str,
    },
    /// The sequence is known not to be (arithmetic-)periodic (`half`: `g(n)` is the bit
    /// length of `n`); no period is looked for.
    NotPeriodic,
    /// No proof available: periods are apparent. `saltus` says whether arithmetic
    /// periodicity is looked for.
    None {
        /// Whether to look for a non-zero saltus.
        saltus: bool,
    },
}

/// How periods of `rule` are proven.
pub fn proof_method(rule: &HeapRule) -> ProofMethod {
    match rule.kind() {
        RuleKind::TakeBreak(tb) if tb.as_plain_code().is_some() => ProofMethod::GuySmith {
            heaps: tb.max_heaps_left(),
            max_removal: tb.code().max_removal() as u64,
        },
        RuleKind::TakeBreak(_) => ProofMethod::None { saltus: false },
        RuleKind::Subtraction(set) => ProofMethod::GuySmith {
            heaps: 1,
            max_removal: *set.last().unwrap_or(&1),
        },
        RuleKind::Lasker => ProofMethod::Theorem {
            period: 4,
            preperiod: 1,
            saltus: 4,
            name: "Lasker's Nim: g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4, g(4k+4) = 4k+3; Winning Ways ch. 4",
        },
        RuleKind::EvenIfNotAll => ProofMethod::Theorem {
            period: 2,
            preperiod: 1,
            saltus: 1,
            name: "even-if-not-all: g(2k) = k-1, g(2k-1) = k for k >= 1; Ferguson, Game Theory Part I",
        },
        RuleKind::AllBut(_) => ProofMethod::None { saltus: true },
        RuleKind::Half => ProofMethod::NotPeriodic,
    }
}

/// For a Guy–Smith rule, how many values prove period `p` from `e`: `k·e' + k·p + t`.
pub fn values_needed(heaps: u32, max_removal: u64, period: u64, preperiod: u64) -> u64 {
    let k = u64::from(heaps);
    let e = preperiod.max(1);
    k.saturating_mul(e)
        .saturating_add(k.saturating_mul(period))
        .saturating_add(max_removal)
}

/// The smallest `e` with `g(n + p) = g(n) + s` for all `e ≤ n < N − p`, or `None` when `p`
/// is too long for the values: the reference the scans through `Base` are tested against.
#[cfg(test)]
fn preperiod_for(values: &[u16], p: usize, s: i64) -> Option<usize> {
    preperiod_from(values, p, s, usize::MAX)
}

/// The smallest `e` with `g(n + p) = g(n) + s` for all `e ≤ n < N − p` (`None` when `p` is
/// too long for the values), knowing that the pattern already holds for `start ≤ n < N − p`
/// (so the scan starts at `start`).
fn preperiod_from(values: &[u16], p: usize, s: i64, start: usize) -> Option<usize> {
    let n = values.len();
    if p == 0 || p >= n {
        return None;
    }
    let mut e = (n - p).min(start);
    while e > 0 && i64::from(values[e - 1 + p]) == i64::from(values[e - 1]) + s {
        e -= 1;
    }
    Some(e)
}

fn saltus_for(values: &[u16], p: usize, arithmetic: bool) -> Option<i64> {
    if !arithmetic {
        return Some(0);
    }
    let n = values.len();
    let s = i64::from(values[n - 1]) - i64::from(values[n - 1 - p]);
    (s >= 0).then_some(s)
}

/// The period the values show, apparent: the smallest `p` (at most `N/3`) such that the
/// pattern holds for at least three periods at the end of the values.
pub fn apparent_period(values: &[u16], arithmetic: bool) -> Option<Period> {
    repeating(values, arithmetic, 3)
}

/// The smallest `p` whose pattern holds for at least `repeats` periods (and 12 values) at
/// the end of the values.
fn repeating(values: &[u16], arithmetic: bool, repeats: usize) -> Option<Period> {
    let n = values.len();
    let mut base = Base::default();
    for p in 1..=n / repeats {
        let Some(s) = saltus_for(values, p, arithmetic) else {
            continue;
        };
        let Some(e) = base.preperiod(values, p, s) else {
            continue;
        };
        if n - e >= repeats * p && n - e >= 12 {
            return Some(Period {
                period: p as u64,
                preperiod: e as u64,
                saltus: s as u64,
                proof: Proof::Apparent,
            });
        }
    }
    None
}

/// The pattern with the shortest preperiod met so far in a scan over the periods `p`, so
/// that the scan of a multiple of it can start where it starts: `g(n + d) = g(n) + s` for
/// `e ≤ n < N − d` gives `g(n + kd) = g(n) + ks` for `e ≤ n < N − kd`. This keeps a scan
/// over `p` near-linear where a long stretch repeats (the multiples of its period would
/// otherwise each compare the whole stretch again); the preperiods found are the same.
#[derive(Debug, Default)]
struct Base {
    /// `(d, e, s)`: the period, its preperiod and its saltus.
    shortest: Option<(usize, usize, i64)>,
}

impl Base {
    /// The preperiod of `p` with saltus `s` (see `preperiod_from`), starting from the base where `p` is a multiple of
    /// its period with the matching saltus; remembers the result if its preperiod is the
    /// shortest yet.
    fn preperiod(&mut self, values: &[u16], p: usize, s: i64) -> Option<usize> {
        let start = match self.shortest {
            Some((d, e, sd))
                if p % d == 0
                    && i64::try_from(p / d).ok().and_then(|k| k.checked_mul(sd)) == Some(s) =>
            {
                e
            }
            _ => usize::MAX,
        };
        let e = preperiod_from(values, p, s, start)?;
        if self.shortest.is_none_or(|(_, best, _)| e < best) {
            self.shortest = Some((p, e, s));
        }
        Some(e)
    }
}

/// The period of `rule`'s sequence as far as `values` show it: proven if a theorem applies
/// and the values suffice, else apparent, else `None`.
pub fn find_period(rule: &HeapRule, values: &[u16]) -> Option<Period> {
    match proof_method(rule) {
        ProofMethod::GuySmith { heaps, max_removal } => {
            let n = values.len();
            // The scan of a multiple of the period with the shortest preperiod yet starts
            // where that one starts (see `Base`).
            let mut base = Base::default();
            for p in 1..n {
                let Some(e) = base.preperiod(values, p, 0) else {
                    continue;
                };
                let needed = values_needed(heaps, max_removal, p as u64, e as u64);
                if needed <= n as u64 {
                    return Some(Period {
                        period: p as u64,
                        preperiod: e as u64,
                        saltus: 0,
                        proof: Proof::GuySmith {
                            heaps,
                            max_removal,
                            needed,
                        },
                    });
                }
                // Periods longer than this cannot be proven with these values either way
                // (`needed ≥ 2p` at least for p itself).
                if p as u64 * u64::from(heaps.max(1)) + max_removal > n as u64 {
                    break;
                }
            }
            let plain = apparent_period(values, false);
            if heaps < 3 || plain.is_some() {
                return plain;
            }
            let found = apparent_period(values, true)?;
            let needed = rule.plain_code().and_then(|code| {
                super::arithmetic::prove(&code, values, found.period, found.preperiod, found.saltus)
            });
            Some(match needed {
                Some(needed) => Period {
                    proof: Proof::Arithmetic { needed },
                    ..found
                },
                None => found,
            })
        }
        ProofMethod::Theorem {
            period,
            preperiod,
            saltus,
            name,
        } => {
            let found = apparent_period(values, true)?;
            let agrees =
                found.period == period && found.preperiod == preperiod && found.saltus == saltus;
            Some(Period {
                proof: if agrees {
                    Proof::Theorem(name)
                } else {
                    Proof::Apparent
                },
                ..found
            })
        }
        ProofMethod::None { saltus } => apparent_period(values, saltus),
        ProofMethod::NotPeriodic => None,
    }
}

/// What to do next when proving a period: it is proven, or compute up to a new length, or
/// give up at the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofStep {
    /// Proven.
    Proven(Period),
    /// Compute this many values and look again.
    Extend(u64),
    /// `max` values are computed and no period is proven; the apparent one, if any.
    GiveUp(Option<Period>),
    /// No theorem can prove a period of this rule.
    Unprovable(Option<Period>),
}

/// The next step towards a proof for `rule` with `values` computed, computing at most `max`.
///
/// Where the values show an apparent period `p` from `e`, the next length is what the
/// theorem needs for it; otherwise the length doubles.
pub fn next_proof_step(rule: &HeapRule, values: &[u16], max: u64) -> ProofStep {
    let found = find_period(rule, values);
    if let Some(p) = found.as_ref().filter(|p| p.proven()) {
        return ProofStep::Proven(p.clone());
    }
    let n = values.len() as u64;
    let target = match proof_method(rule) {
        ProofMethod::None { .. } | ProofMethod::NotPeriodic => return ProofStep::Unprovable(found),
        // A candidate seen twice is enough to aim at: compute what the theorem needs for it.
        ProofMethod::GuySmith { heaps, max_removal } => match repeating(values, false, 2) {
            // At most doubling, so that a spurious candidate does not overshoot.
            Some(p) => values_needed(heaps, max_removal, p.period, p.preperiod)
                .min(2 * n)
                .max(n + 1),
            // Hexadecimal codes: an arithmetic candidate needs `max(t + 3e, e + p)` values
            // and three periods to be seen.
            None => match repeating(values, heaps == 3, 2).filter(|p| p.saltus > 0) {
                Some(p) => {
                    let e = p.preperiod.max(1);
                    (max_removal + 3 * e)
                        .max(e + 3 * p.period)
                        .min(2 * n)
                        .max(n + 1)
                }
                None => (2 * n).max(64),
            },
        },
        ProofMethod::Theorem {
            period, preperiod, ..
        } => (preperiod + 4 * period + 16).max(2 * n).max(64),
    };
    if n >= max {
        return ProofStep::GiveUp(found);
    }
    ProofStep::Extend(target.min(max).max(n + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::heap::plain::PlainSequence;

    fn values(rule: &str, n: u64) -> (HeapRule, Vec<u16>) {
        let rule = HeapRule::parse(rule).unwrap();
        let values = crate::heap::plain::reference_values(&rule, n);
        (rule, values)
    }

    fn prove(rule: &str, max: u64) -> Period {
        let rule = HeapRule::parse(rule).unwrap();
        let mut s = PlainSequence::new(&rule);
        loop {
            match next_proof_step(&rule, s.values(), max) {
                ProofStep::Proven(p) => return p,
                ProofStep::Extend(n) => {
                    s.extend_to_len(n, &mut Control::none()).unwrap();
                }
                other => panic!("{rule}: {other:?}"),
            }
        }
    }

    #[test]
    fn kayles_and_dawsons_chess_are_proven() {
        let p = prove("kayles", 10_000);
        assert_eq!((p.period, p.preperiod, p.saltus), (12, 71, 0));
        assert!(
            matches!(p.proof, Proof::GuySmith { needed: 168, .. }),
            "{p:?}"
        );
        let p = prove("0.137", 10_000);
        assert_eq!((p.period, p.preperiod), (34, 52));
        // Dawson's Kayles is Dawson's chess shifted by one heap.
        let p = prove("0.07", 10_000);
        assert_eq!((p.period, p.preperiod), (34, 53));
    }

    #[test]
    fn subtraction_games_by_the_window() {
        let p = prove("sub(1,3,4)", 1000);
        assert_eq!((p.period, p.preperiod), (7, 0));
        let p = prove("bash(3)", 1000);
        assert_eq!((p.period, p.preperiod), (4, 0));
    }

    #[test]
    fn too_few_values_do_not_prove() {
        // 0.137 shows period 34 from 52 well before the 175 values the theorem needs.
        let (rule, v) = values("0.137", 170);
        let p = find_period(&rule, &v).unwrap();
        assert_eq!((p.period, p.preperiod), (34, 52));
        assert!(!p.proven());
        let (rule, v) = values("0.137", 175);
        assert!(find_period(&rule, &v).unwrap().proven());
    }

    #[test]
    fn arithmetic_periodicity() {
        let (rule, v) = values("lasker", 100);
        let p = find_period(&rule, &v).unwrap();
        assert_eq!((p.period, p.preperiod, p.saltus), (4, 1, 4));
        assert!(matches!(p.proof, Proof::Theorem(_)));
        assert_eq!(p.value_at(&v, 1_000_000_000_003), Some(1_000_000_000_004));
        let (rule, v) = values("allbut(1,2)", 200);
        let p = find_period(&rule, &v).unwrap();
        assert!(p.saltus > 0 && !p.proven(), "{p:?}");
        assert_eq!(p.value_at(&v, 10_000), None);
        let (rule, v) = values("grundys-game", 300);
        assert!(find_period(&rule, &v).is_none_or(|p| !p.proven()));
    }

    #[test]
    fn values_from_a_proven_period_match_computed_ones() {
        let (rule, v) = values("kayles", 2000);
        let p = find_period(&rule, &v[..200]).unwrap();
        assert!(p.proven());
        for n in 0..2000 {
            assert_eq!(
                p.value_at(&v[..200], n),
                Some(u64::from(v[n as usize])),
                "n = {n}"
            );
        }
    }

    proptest::proptest! {
        /// A scan over every `p` through `Base` finds the same preperiods as scanning each
        /// `p` alone, on sequences with a planted period (and saltus) after random values.
        #[test]
        fn scans_from_a_base_find_the_preperiods_of_plain_scans(
            head in proptest::collection::vec(0u16..4, 0..60),
            pattern in proptest::collection::vec(0u16..4, 1..8),
            repeats in 1usize..30,
            saltus in 0i64..3,
        ) {
            let mut values = head.clone();
            for r in 0..repeats {
                for &v in &pattern {
                    values.push(v + (r as i64 * saltus) as u16);
                }
            }
            // The saltus 0, the planted one, and each p's own (as `repeating` takes it).
            for mode in 0..3 {
                let mut base = Base::default();
                for p in 1..values.len() + 1 {
                    let s = match mode {
                        0 => 0,
                        1 => saltus,
                        _ if p < values.len() => match saltus_for(&values, p, true) {
                            Some(s) => s,
                            None => continue,
                        },
                        _ => continue,
                    };
                    proptest::prop_assert_eq!(
                        base.preperiod(&values, p, s),
                        preperiod_for(&values, p, s),
                        "p = {}, s = {}", p, s
                    );
                }
            }
        }
    }
}
