//! A heap as a component of a sum, and heap games for the generic engine.
//!
//! [`HeapComponent`] is one heap under one rule. Its value comes from the rule's cached
//! nim-sequence ([`super::sequence`]): computed, from a proven period, or from a closed
//! form, for any heap size. Winning moves in a heap too large to list its moves one by one
//! are found through the proven period: the value of a part depends only on its class
//! modulo the period, so one representative per class of the smaller parts is tried; under
//! an arithmetic period (hexadecimal codes, `super::arithmetic`) one move per shape of
//! move is built to the value wanted.

use super::options::{
    HeapOption, for_each_option, least_option, option_count_bound, option_leaving,
};
use super::period::{Period, Proof};
use super::rules::{HeapRule, RuleKind};
use super::sequence::{HeapValueError, Known, known_within};
use crate::game::{ImpartialGame, SplitOptions};
use crate::nimber::Nimber;
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Engine, Move};
use crate::value::Outcome;
use std::sync::Arc;

/// The most options of a heap listed one by one; heaps with more are searched through
/// their period.
pub const MAX_LISTED_OPTIONS: u128 = 2_000_000;

/// One heap of a heap game.
#[derive(Clone, Debug)]
pub struct HeapComponent {
    rule: Arc<HeapRule>,
    heap: u64,
}

impl HeapComponent {
    /// A heap of `heap` tokens under `rule`.
    pub fn new(rule: Arc<HeapRule>, heap: u64) -> Self {
        HeapComponent { rule, heap }
    }

    /// The heap size.
    pub fn heap(&self) -> u64 {
        self.heap
    }

    /// The rule.
    pub fn heap_rule(&self) -> &HeapRule {
        &self.rule
    }

    /// The rule and size of `c`, if it is a heap of a heap rule.
    pub fn of(c: &dyn Component) -> Option<(&HeapRule, u64)> {
        let h = c.as_any().downcast_ref::<HeapComponent>()?;
        Some((&h.rule, h.heap))
    }

    /// What is known of the rule's sequence up to heap `n`, computed under the analysis's
    /// budget: the values computed are charged as work, and a cancellation stops them.
    fn known(&self, n: u64, ctx: &Context) -> Result<Arc<Known>, AnalysisError> {
        known_within(&self.rule, n, &ctx.budget).map_err(|e| match e {
            HeapValueError::Budget(b) => AnalysisError::budget(self, b),
            e => AnalysisError::unsupported(self, e.to_string()),
        })
    }

    fn parts(&self, parts: &[u64]) -> Vec<Box<dyn Component>> {
        parts
            .iter()
            .map(|&h| Box::new(HeapComponent::new(Arc::clone(&self.rule), h)) as Box<dyn Component>)
            .collect()
    }

    fn to_move(&self, option: &HeapOption, description: String) -> Move {
        Move {
            description,
            result: self.parts(&option.parts),
        }
    }

    /// Moves to value `target` found by listing every option.
    fn listed_moves_to_value(
        &self,
        target: Nimber,
        ctx: &Context,
    ) -> Result<Vec<Move>, AnalysisError> {
        let mut options = Vec::new();
        for_each_option(&self.rule, self.heap, |o| options.push(o));
        options.sort_by(|a, b| (a.removed, &a.parts).cmp(&(b.removed, &b.parts)));
        options.dedup();
        let mut found = Vec::new();
        if ctx.engine == Engine::Generic {
            let mut solver = Solver::with_budget(HeapGame::new(&self.rule), &ctx.budget);
            for o in &options {
                let v = solver
                    .value(&o.parts)
                    .map_err(|e| AnalysisError::solve(self, e))?;
                if v == target {
                    found.push(self.to_move(o, o.describe(self.heap)));
                }
            }
            return Ok(found);
        }
        let k = self.known(self.heap.saturating_sub(1), ctx)?;
        for o in &options {
            let mut v = 0;
            for &part in &o.parts {
                v ^= k
                    .value(part)
                    .ok_or_else(|| AnalysisError::unsupported(self, "a part's value is unknown"))?;
            }
            if Nimber(v) == target {
                found.push(self.to_move(o, o.describe(self.heap)));
            }
        }
        Ok(found)
    }

    /// Moves to value `target` from a huge heap, through the proven period `period` (saltus
    /// 0): one representative per class of the smaller parts.
    fn periodic_moves_to_value(
        &self,
        target: Nimber,
        k: &Known,
        period: &Period,
    ) -> Result<Vec<Move>, AnalysisError> {
        let n = self.heap;
        let (p, e1) = (period.period, period.preperiod.max(1));
        let value = |h: u64| k.value(h).map(Nimber);
        let digits: Vec<(u64, u8)> = match self.rule.kind() {
            RuleKind::TakeBreak(tb) if tb.as_plain_code().is_some() => tb
                .code()
                .digits()
                .iter()
                .enumerate()
                .map(|(j, &d)| (j as u64, d))
                .collect(),
            RuleKind::Subtraction(set) => set.iter().map(|&s| (s, 3)).collect(),
            _ => {
                return Err(AnalysisError::unsupported(
                    self,
                    "no move search through the period for this rule",
                ));
            }
        };
        let t = digits.last().map_or(0, |d| d.0);
        // Every representative part stays below `e1 + 2p`, so the largest part is at least
        // `n - t - 2(e1 + 2p)`; require it far past the preperiod.
        if n < t + 4 * (e1 + 2 * p) {
            return Err(AnalysisError::unsupported(
                self,
                "heap too small for the periodic move search",
            ));
        }
        // A smaller part at or past the preperiod stands for its whole class.
        let note = |small: &[u64]| {
            let classes: Vec<String> = small
                .iter()
                .filter(|&&a| a >= period.preperiod)
                .map(|a| format!("{a} + {p}k"))
                .collect();
            if classes.is_empty() {
                String::new()
            } else {
                format!(" (also {} for any k)", classes.join(", "))
            }
        };
        let mut found = Vec::new();
        let mut push = |removed: u64, parts: Vec<u64>, v: Option<Nimber>, small: &[u64]| {
            if v == Some(target) {
                let o = HeapOption { removed, parts };
                let d = format!("{}{}", o.describe(n), note(small));
                found.push(self.to_move(&o, d));
            }
        };
        for &(j, d) in &digits {
            let m = n - j;
            if d & 2 != 0 && j >= 1 {
                push(j, vec![m], value(m), &[]);
            }
            if d & 4 != 0 {
                for a in 1..e1 + p {
                    let v = value(a).zip(value(m - a)).map(|(x, y)| x ^ y);
                    push(j, vec![a, m - a], v, &[a]);
                }
            }
            if d & 8 != 0 {
                for a in 1..e1 + p {
                    for b in a..a.max(e1) + p {
                        let c = m - a - b;
                        let v = value(a)
                            .zip(value(b))
                            .zip(value(c))
                            .map(|((x, y), z)| x ^ y ^ z);
                        push(j, vec![a, b, c], v, &[a, b]);
                    }
                }
            }
        }
        Ok(found)
    }
}

impl HeapComponent {
    /// Whether this is the one Lasker heap whose value, `2^64`, does not fit in 64 bits
    /// (`g(4k+3) = 4k+4`, and `2^64 − 1 = 4k + 3`).
    fn lasker_overflows(&self) -> bool {
        *self.rule.kind() == RuleKind::Lasker && self.heap == u64::MAX
    }

    /// Charges the budget for listing `count` options (refused before listing if it cannot
    /// afford them).
    fn charge_listing(&self, ctx: &Context, count: u128) -> Result<(), AnalysisError> {
        crate::sum::charge_moves(self, ctx, u64::try_from(count).unwrap_or(u64::MAX))
    }

    /// Lasker's Nim moves to value 0, from its closed form: every heap `m > 0` has
    /// `g(m) ≥ m > 0` and `g` is one-to-one, so the only options of value 0 are taking the
    /// whole heap and (for an even heap) splitting it into two equal halves.
    fn lasker_moves_to_zero(&self) -> Vec<Move> {
        let n = self.heap;
        let mut options = Vec::new();
        if n > 0 {
            options.push(HeapOption {
                removed: n,
                parts: vec![],
            });
        }
        if n >= 2 && n % 2 == 0 {
            options.push(HeapOption {
                removed: 0,
                parts: vec![n / 2, n / 2],
            });
        }
        options
            .iter()
            .map(|o| self.to_move(o, o.describe(n)))
            .collect()
    }

    /// Even-if-not-all from its closed form (`g(2k) = k − 1`, `g(2k − 1) = k`): the heaps
    /// left have the parity of `n`, and on each parity `g` is increasing, so at most one
    /// remainder has value `target`; taking an odd heap whole gives 0.
    fn even_if_not_all_moves_to_value(&self, target: Nimber) -> Vec<Move> {
        let (n, t) = (self.heap, target.0);
        let mut options = Vec::new();
        if n % 2 == 1 {
            if t == 0 {
                options.push(HeapOption {
                    removed: n,
                    parts: vec![],
                });
            } else if let Some(m) = t
                .checked_mul(2)
                .map(|m| m - 1)
                .filter(|&m| m < n.saturating_sub(1))
            {
                options.push(HeapOption {
                    removed: n - m,
                    parts: vec![m],
                });
            }
        } else if let Some(m) = t
            .checked_mul(2)
            .and_then(|m| m.checked_add(2))
            .filter(|&m| m < n.saturating_sub(1))
        {
            options.push(HeapOption {
                removed: n - m,
                parts: vec![m],
            });
        }
        options
            .iter()
            .map(|o| self.to_move(o, o.describe(n)))
            .collect()
    }
}

impl Component for HeapComponent {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Heap
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        self.rule.name().to_string()
    }

    fn args(&self) -> Vec<String> {
        vec![self.heap.to_string()]
    }

    fn joins(&self) -> bool {
        true
    }

    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        ctx.budget
            .check()
            .map_err(|e| AnalysisError::budget(self, e))?;
        if self.lasker_overflows() {
            return Err(AnalysisError::unsupported(
                self,
                format!(
                    "its value is {} + 1 = 2^64 by Lasker's closed form (g(4k+3) = 4k+4), which \
                     does not fit in 64 bits",
                    self.heap
                ),
            ));
        }
        let k = self.known(self.heap, ctx)?;
        k.value(self.heap)
            .map(Nimber)
            .ok_or_else(|| AnalysisError::unsupported(self, "the value is unknown"))
    }

    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        // The heaps below are each listed once: refused at once if their options alone
        // pass the budget (the sum of the bounds for heaps 1..=n is at most n times the last).
        let work = option_count_bound(&self.rule, self.heap).saturating_mul(u128::from(self.heap));
        ctx.budget
            .afford(u64::try_from(work).unwrap_or(u64::MAX) / 2)
            .map_err(|e| AnalysisError::budget(self, e))?;
        Solver::with_budget(HeapGame::new(&self.rule), &ctx.budget)
            .value(&vec![self.heap])
            .map_err(|e| AnalysisError::solve(self, e))
    }

    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let count = option_count_bound(&self.rule, self.heap);
        if count > MAX_LISTED_OPTIONS {
            return Err(AnalysisError::unsupported(
                self,
                format!(
                    "a heap of {} has too many moves to list one by one",
                    self.heap
                ),
            ));
        }
        self.charge_listing(ctx, count)?;
        let mut moves = Vec::new();
        for_each_option(&self.rule, self.heap, |o| moves.push(o));
        moves.sort_by(|a, b| (a.removed, &a.parts).cmp(&(b.removed, &b.parts)));
        moves.dedup();
        Ok(moves
            .iter()
            .map(|o| self.to_move(o, o.describe(self.heap)))
            .collect())
    }

    /// Decided from the rule ([`option_leaving`]) at any heap size: the parts must be heaps
    /// of this rule (a heap of 0 counts as none).
    fn move_leaving(
        &self,
        result: &[Box<dyn Component>],
        _ctx: &Context,
    ) -> Result<Option<Move>, AnalysisError> {
        let rule = self.rule();
        let mut parts = Vec::with_capacity(result.len());
        for c in result {
            let size = match c.args()[..] {
                [ref size] if c.rule() == rule => size.parse::<u64>().ok(),
                _ => None,
            };
            match size {
                Some(0) => {}
                Some(size) => parts.push(size),
                None => return Ok(None),
            }
        }
        Ok(option_leaving(&self.rule, self.heap, &parts)
            .map(|o| self.to_move(&o, o.describe(self.heap))))
    }

    /// From the rule ([`least_option`]) at any heap size.
    fn least_move(&self, _ctx: &Context) -> Result<Option<Move>, AnalysisError> {
        Ok(least_option(&self.rule, self.heap).map(|o| self.to_move(&o, o.describe(self.heap))))
    }

    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(self.clone())
    }

    /// From the value where it is known; a Lasker heap whose value does not fit in 64 bits
    /// is still an N-position (its value, 2^64, is not 0).
    fn outcome(&self, ctx: &Context) -> Result<Outcome, AnalysisError> {
        if self.lasker_overflows() && ctx.engine == Engine::Fast {
            return Ok(Outcome::N);
        }
        Ok(if self.value_in(ctx)?.is_zero() {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    fn notes(&self) -> Vec<String> {
        if self.lasker_overflows() {
            vec![format!(
                "lasker {}: by Lasker's closed form its value is 2^64, not 0, so it is an \
                 N-position; taking the whole heap wins.",
                self.heap
            )]
        } else {
            Vec::new()
        }
    }

    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let count = option_count_bound(&self.rule, self.heap);
        if count <= MAX_LISTED_OPTIONS {
            self.charge_listing(ctx, count)?;
            return self.listed_moves_to_value(target, ctx);
        }
        if *self.rule.kind() == RuleKind::EvenIfNotAll {
            return Ok(self.even_if_not_all_moves_to_value(target));
        }
        if *self.rule.kind() == RuleKind::Lasker && target.is_zero() {
            return Ok(self.lasker_moves_to_zero());
        }
        let k = self.known(self.heap, ctx)?;
        match k.proven_period() {
            Some(period) if period.saltus == 0 => self.periodic_moves_to_value(target, &k, period),
            Some(period) if matches!(period.proof, Proof::Arithmetic { .. }) => {
                let options = self.rule.plain_code().and_then(|code| {
                    super::arithmetic::options_to_value(
                        &code,
                        &k.values,
                        period.period,
                        period.preperiod,
                        period.saltus,
                        self.heap,
                        target.0,
                    )
                });
                let options = options.ok_or_else(|| {
                    AnalysisError::unsupported(self, "no move search through this period")
                })?;
                Ok(options
                    .iter()
                    .map(|o| self.to_move(o, o.describe(self.heap)))
                    .collect())
            }
            _ => Err(AnalysisError::unsupported(
                self,
                format!(
                    "a heap of {} has too many moves to search one by one, and {} has no proven period to search through",
                    self.heap, self.rule
                ),
            )),
        }
    }
}

/// A heap game as an [`ImpartialGame`] for the generic engine: a position is the list of
/// heap sizes (ascending, no empty heaps), each heap a component.
#[derive(Clone, Debug)]
pub struct HeapGame {
    rule: HeapRule,
}

impl HeapGame {
    /// The game of `rule`.
    pub fn new(rule: &HeapRule) -> Self {
        HeapGame { rule: rule.clone() }
    }
}

impl ImpartialGame for HeapGame {
    type Position = Vec<u64>;

    fn options(&self, position: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for (i, &heap) in position.iter().enumerate() {
            if i > 0 && position[i - 1] == heap {
                continue;
            }
            for_each_option(&self.rule, heap, |o| {
                let mut next: Vec<u64> = position[..i]
                    .iter()
                    .chain(&position[i + 1..])
                    .copied()
                    .collect();
                next.extend(o.parts);
                next.sort_unstable();
                out.push(next);
            });
        }
        out
    }

    fn components(&self, position: &Vec<u64>) -> Vec<Vec<u64>> {
        position
            .iter()
            .filter(|&&h| h > 0)
            .map(|&h| vec![h])
            .collect()
    }

    fn split_options(&self, position: &Vec<u64>, out: &mut SplitOptions<Vec<u64>>) {
        // A single heap (every component): its options' heaps are the parts, with no whole
        // position built or sorted.
        if let [heap] = position.as_slice() {
            for_each_option(&self.rule, *heap, |o| {
                for &p in o.parts.iter().filter(|&&p| p > 0) {
                    out.part(vec![p]);
                }
                out.end_option();
            });
            return;
        }
        for option in self.options(position) {
            for part in self.components(&option) {
                out.part(part);
            }
            out.end_option();
        }
    }

    fn option_bound(&self, position: &Vec<u64>) -> Option<u64> {
        let total = position.iter().fold(0u128, |a, &h| {
            a.saturating_add(option_count_bound(&self.rule, h))
        });
        Some(u64::try_from(total).unwrap_or(u64::MAX))
    }

    fn position_words(&self, position: &Vec<u64>) -> u64 {
        position.len() as u64
    }

    /// A single heap (every component) is indexed by its size.
    fn dense_index(&self, position: &Vec<u64>) -> Option<u64> {
        match position.as_slice() {
            [heap] => Some(*heap),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::sequence::known;

    fn heap(rule: &str, n: u64) -> HeapComponent {
        HeapComponent::new(Arc::new(HeapRule::parse(rule).unwrap()), n)
    }

    #[test]
    fn fast_and_generic_values_agree_on_small_heaps() {
        let ctx = Context::default();
        for rule in [
            "kayles",
            "0.137",
            "4.07",
            "0.f",
            "grundys-game",
            "lasker",
            "half",
            "even-if-not-all",
            "sub(2,5)",
            "allbut(1,3)",
            "0.4!8",
        ] {
            for n in 0..28 {
                let c = heap(rule, n);
                assert_eq!(
                    c.value(&ctx).unwrap(),
                    c.value_generic(&ctx).unwrap(),
                    "{rule} {n}"
                );
            }
        }
    }

    #[test]
    fn winning_moves_in_a_huge_kayles_heap_come_through_the_period() {
        let ctx = Context::default();
        let c = heap("kayles", 1_000_000_000_000_000_000);
        let v = c.value(&ctx).unwrap();
        assert!(!v.is_zero());
        let moves = c.moves_to_value(Nimber::ZERO, &ctx).unwrap();
        assert!(!moves.is_empty());
        for m in &moves {
            let total: Nimber = m.result.iter().map(|r| r.value(&ctx).unwrap()).sum();
            assert_eq!(total, Nimber::ZERO, "{}", m.description);
        }
    }

    #[test]
    fn even_if_not_all_moves_from_the_closed_form_match_listing() {
        let ctx = Context::default();
        for n in 0..60 {
            let c = heap("even-if-not-all", n);
            for t in 0..35 {
                let listed: Vec<String> = c
                    .listed_moves_to_value(Nimber(t), &ctx)
                    .unwrap()
                    .iter()
                    .map(|m| m.description.clone())
                    .collect();
                let closed: Vec<String> = c
                    .even_if_not_all_moves_to_value(Nimber(t))
                    .iter()
                    .map(|m| m.description.clone())
                    .collect();
                assert_eq!(listed, closed, "heap {n} target {t}");
            }
        }
        let huge = heap("even-if-not-all", 1 << 60);
        assert_eq!(huge.moves_to_value(Nimber(7), &ctx).unwrap().len(), 1);
    }

    #[test]
    fn periodic_search_agrees_with_listing() {
        // A heap large enough for both searches: every listed winning move's class must be
        // among the representatives, and every representative must be a listed move.
        let ctx = Context::default();
        for (rule, n) in [
            ("kayles", 1000),
            ("0.137", 1500),
            ("sub(1,3,4)", 3000),
            ("0.f", 120),
            ("4.8", 100),
        ] {
            let c = heap(rule, n);
            let k = known(&c.rule, n).unwrap();
            let period = k.proven_period().unwrap().clone();
            for target in 0..4 {
                let listed = c.listed_moves_to_value(Nimber(target), &ctx).unwrap();
                let periodic = c
                    .periodic_moves_to_value(Nimber(target), &k, &period)
                    .unwrap();
                let key = |m: &Move| {
                    let mut parts: Vec<u64> = m
                        .result
                        .iter()
                        .map(|r| r.args()[0].parse().unwrap())
                        .collect();
                    parts.sort_unstable();
                    let removed = n - parts.iter().sum::<u64>();
                    let small: Vec<u64> = parts[..parts.len().saturating_sub(1)]
                        .iter()
                        .map(|&a| period.class_of(a))
                        .collect();
                    (removed, small)
                };
                let mut a: Vec<_> = listed.iter().map(key).collect();
                let mut b: Vec<_> = periodic.iter().map(key).collect();
                a.sort();
                a.dedup();
                b.sort();
                b.dedup();
                assert_eq!(a, b, "{rule} {n} target {target}");
            }
        }
    }
}
