//! Moore's Nim_k (E. H. Moore, 1910): a move takes tokens from at least one and at most `k`
//! heaps. Nim is Moore's Nim_1.
//!
//! Moore's theorem: a position is a P-position exactly when, writing the heaps in binary, the
//! number of heaps with a 1 in each bit position is a multiple of `k + 1`. No closed form is
//! known for the values, so values come from the generic engine (with a limit), while the
//! outcome and the winning moves of a position played alone come from the theorem.

use super::MAX_LISTED_MOVES;
use crate::expr::{ExprError, TermSpec, parse_u64, required_params, some_args};
use crate::game::ImpartialGame;
use crate::nimber::Nimber;
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Engine, Move};
use crate::value::Outcome;

/// A position of Moore's Nim_k.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MooreNim {
    /// How many heaps one move may take from (at least 1).
    pub k: u64,
    /// The heaps.
    pub heaps: Vec<u64>,
}

pub(super) fn build(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    let usage = "moore(K) HEAP..., K >= 1 heaps touched per move";
    let params = required_params(term, usage)?;
    if params.len() != 1 {
        return Err(ExprError::new(
            params[0].span.start..params[params.len() - 1].span.end,
            format!("expected one parameter: {usage}"),
        ));
    }
    let k = parse_u64(&params[0], "the number of heaps a move may touch")?;
    if k == 0 {
        return Err(ExprError::new(
            params[0].span.clone(),
            "K must be at least 1: a move touches at least one heap",
        ));
    }
    let heaps = some_args(term, usage)?
        .iter()
        .map(|a| parse_u64(a, "a heap size"))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(vec![Box::new(MooreNim { k, heaps })])
}

/// Moore's theorem: P exactly when every bit column holds a multiple of `k + 1` ones.
/// (`k + 1` is taken in 128 bits: `k` may be `u64::MAX`.)
pub fn moore_is_p(k: u64, heaps: &[u64]) -> bool {
    (0..64).all(|bit| column_ones(heaps, bit) % (u128::from(k) + 1) == 0)
}

/// How many heaps have bit `bit` set.
fn column_ones(heaps: &[u64], bit: u32) -> u128 {
    heaps.iter().filter(|&&h| h >> bit & 1 == 1).count() as u128
}

/// A winning move by the constructive proof of Moore's theorem, from an N-position (`None`
/// from a P-position). Bits are settled from the highest down. A heap already made smaller
/// at a higher bit is *free*: its lower bits may be anything. At each bit, let `r` be the
/// ones among the other heaps modulo `k + 1` and `f` the free heaps: if `f + r ≤ k`, `r` more
/// heaps with a 1 there drop it (and become free) and every free heap gets 0; otherwise
/// `k + 1 − r ≤ f` free heaps get a 1 there. Either way the column holds a multiple of
/// `k + 1` ones, and at most `k` heaps change. `O(64 · n)`.
pub fn moore_winning_move(k: u64, heaps: &[u64]) -> Option<Vec<u64>> {
    if moore_is_p(k, heaps) {
        return None;
    }
    let modulus = u128::from(k) + 1;
    let mut next = heaps.to_vec();
    let mut free = vec![false; heaps.len()];
    let mut free_count: u128 = 0;
    for bit in (0..64).rev() {
        let mask = 1u64 << bit;
        let fixed_ones = heaps
            .iter()
            .zip(&free)
            .filter(|&(&h, &f)| !f && h & mask != 0)
            .count() as u128;
        let r = fixed_ones % modulus;
        // Free heaps start this bit at 0.
        for (h, &f) in next.iter_mut().zip(&free) {
            if f {
                *h &= !mask;
            }
        }
        if free_count + r <= u128::from(k) {
            let mut left = r;
            for i in 0..heaps.len() {
                if left == 0 {
                    break;
                }
                if !free[i] && heaps[i] & mask != 0 {
                    next[i] &= !mask;
                    free[i] = true;
                    left -= 1;
                }
            }
            free_count += r;
        } else {
            let mut set = modulus - r;
            for (h, &f) in next.iter_mut().zip(&free) {
                if set == 0 {
                    break;
                }
                if f {
                    *h |= mask;
                    set -= 1;
                }
            }
        }
    }
    Some(next)
}

/// `e_j`, the elementary symmetric sums of `xs` of degree `0..=k` (`e_j` is the sum over
/// `j`-subsets of the products), in floating point (an estimate; saturates to infinity).
fn elementary_sums(xs: &[f64], k: usize) -> Vec<f64> {
    let mut e = vec![0.0; k + 1];
    e[0] = 1.0;
    for &x in xs {
        for j in (1..=k).rev() {
            e[j] += e[j - 1] * x;
        }
    }
    e
}

/// Calls `visit` with every position one move reaches: some non-empty set of at most `k`
/// heaps, each made strictly smaller. Iterative over subsets and values.
fn for_each_option(k: u64, heaps: &[u64], mut visit: impl FnMut(&[u64])) {
    let n = heaps.len();
    let k = k.min(n as u64) as usize;
    // Subsets as increasing index lists, enumerated size by size.
    for size in 1..=k {
        let mut chosen: Vec<usize> = (0..size).collect();
        loop {
            if chosen.iter().all(|&i| heaps[i] > 0) {
                // Odometer over the new values of the chosen heaps, each below its old value.
                let mut next = heaps.to_vec();
                for &i in &chosen {
                    next[i] = 0;
                }
                'values: loop {
                    visit(&next);
                    for &i in &chosen {
                        next[i] += 1;
                        if next[i] < heaps[i] {
                            continue 'values;
                        }
                        next[i] = 0;
                    }
                    break;
                }
            }
            // The next subset of this size.
            let Some(pos) = (0..size).rev().find(|&j| chosen[j] < n - size + j) else {
                break;
            };
            chosen[pos] += 1;
            for j in pos + 1..size {
                chosen[j] = chosen[j - 1] + 1;
            }
        }
    }
}

/// The generic engine's view: heaps sorted, since their order does not matter.
#[derive(Debug)]
struct MooreGame {
    k: u64,
}

impl ImpartialGame for MooreGame {
    type Position = Vec<u64>;
    /// `e_1 + ... + e_k` of the heaps: each set of at most `k` heaps, with each new value.
    fn option_bound(&self, heaps: &Vec<u64>) -> Option<u64> {
        Some(option_count(self.k, heaps))
    }
    fn position_words(&self, heaps: &Vec<u64>) -> u64 {
        heaps.len() as u64
    }
    fn options(&self, heaps: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for_each_option(self.k, heaps, |next| {
            let mut sorted = next.to_vec();
            sorted.sort_unstable();
            out.push(sorted);
        });
        out
    }
}

/// The number of options of a position: the sum over non-empty sets of at most `k` heaps
/// of the product of their sizes (saturating at `u64::MAX`).
fn option_count(k: u64, heaps: &[u64]) -> u64 {
    let k = k.min(heaps.len() as u64) as usize;
    let xs: Vec<f64> = heaps.iter().map(|&h| h as f64).collect();
    let total: f64 = elementary_sums(&xs, k)[1..].iter().sum();
    // Exact below 2^53; `as` saturates above u64::MAX.
    total as u64
}

impl MooreNim {
    /// An estimate of the generic engine's work on this position: over every position below
    /// (each heap `i` from 0 to `h_i`, `∏(h_i + 1)` of them), the options listed, each
    /// copying the heaps. The mean of `e_j` over that box is `e_j(h / 2)`, as the heaps
    /// vary independently, so the total is `∏(h_i + 1) · Σ_j e_j(h / 2) · (n + 1)`.
    /// (Sorting the heaps shares positions, so this is an upper estimate.)
    pub fn generic_work_estimate(&self) -> u64 {
        let n = self.heaps.len();
        let k = self.k.min(n as u64) as usize;
        let boxes: f64 = self.heaps.iter().map(|&h| h as f64 + 1.0).product();
        let halves: Vec<f64> = self.heaps.iter().map(|&h| h as f64 / 2.0).collect();
        let per: f64 = elementary_sums(&halves, k)[1..].iter().sum::<f64>() + 1.0;
        (boxes * per * (n as f64 + 1.0)) as u64
    }

    /// Positions below this one, an upper bound on what the generic engine stores.
    fn positions_below(&self) -> Option<u64> {
        self.heaps
            .iter()
            .try_fold(1u64, |acc, &h| acc.checked_mul(h.checked_add(1)?))
    }

    /// Refuses, before any search, a position whose generic search would pass the budget.
    fn check_size(&self, ctx: &Context) -> Result<(), AnalysisError> {
        let limit = ctx.limits().max_positions;
        let refuse = |why: String| {
            Err(AnalysisError::unsupported(
                self,
                format!(
                    "no closed form is known for the values of Moore's Nim, and {why}; its \
                     outcome is known at once by Moore's theorem"
                ),
            ))
        };
        if self.positions_below().is_none_or(|p| p > limit as u64) {
            return refuse(format!(
                "this position has more than {limit} positions below it (the position limit)"
            ));
        }
        let work = self.generic_work_estimate();
        if ctx.budget.afford(work).is_err() {
            return refuse(format!(
                "the search for its value would take about {work} steps of work, more than the \
                 work limit of {}",
                ctx.limits().max_work
            ));
        }
        Ok(())
    }

    /// Every option, counted first (`e_1 + ... + e_k` of the heaps) and refused before
    /// listing past the listing limit or the budget.
    fn listed_options(&self, ctx: &Context) -> Result<Vec<Vec<u64>>, AnalysisError> {
        let count = option_count(self.k, &self.heaps);
        if count > MAX_LISTED_MOVES {
            return Err(AnalysisError::unsupported(
                self,
                format!("{count} moves are too many to list (limit {MAX_LISTED_MOVES})"),
            ));
        }
        crate::sum::charge_moves(self, ctx, count)?;
        let mut out = Vec::new();
        for_each_option(self.k, &self.heaps, |next| out.push(next.to_vec()));
        Ok(out)
    }

    fn describe(&self, next: &[u64]) -> Move {
        let show = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        Move {
            description: format!("{} -> {}", show(&self.heaps), show(next)),
            result: vec![Box::new(MooreNim {
                k: self.k,
                heaps: next.to_vec(),
            })],
        }
    }
}

impl Component for MooreNim {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Moore
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        format!("moore({})", self.k)
    }
    fn args(&self) -> Vec<String> {
        self.heaps.iter().map(u64::to_string).collect()
    }
    /// Moore's Nim_1 is Nim (the nim-sum); a P-position by Moore's theorem has value 0;
    /// otherwise the generic engine, if its estimated work is affordable.
    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        if self.k == 1 {
            return Ok(Nimber(self.heaps.iter().fold(0, |a, b| a ^ b)));
        }
        if moore_is_p(self.k, &self.heaps) {
            return Ok(Nimber::ZERO);
        }
        self.value_generic(ctx)
    }
    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        self.check_size(ctx)?;
        let mut sorted = self.heaps.clone();
        sorted.sort_unstable();
        Solver::with_budget(MooreGame { k: self.k }, &ctx.budget)
            .value(&sorted)
            .map_err(|e| AnalysisError::solve(self, e))
    }
    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        Ok(self
            .listed_options(ctx)?
            .iter()
            .map(|next| self.describe(next))
            .collect())
    }
    fn outcome(&self, _ctx: &Context) -> Result<Outcome, AnalysisError> {
        Ok(if moore_is_p(self.k, &self.heaps) {
            Outcome::P
        } else {
            Outcome::N
        })
    }
    /// Moves to value `target`: for Nim_1 heap by heap (a heap `h` goes to `h ⊕ s ⊕ target`);
    /// to value 0 by Moore's theorem; otherwise every move's value from one generic search
    /// whose memo all the moves share, if its estimated work is affordable.
    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let fast = ctx.engine == Engine::Fast;
        if fast && self.k == 1 {
            let change = self.heaps.iter().fold(target.0, |a, b| a ^ b);
            let mut out = Vec::new();
            if change != 0 {
                for (i, &h) in self.heaps.iter().enumerate() {
                    if h ^ change < h {
                        let mut next = self.heaps.clone();
                        next[i] = h ^ change;
                        out.push(self.describe(&next));
                    }
                }
            }
            return Ok(out);
        }
        let options = self.listed_options(ctx)?;
        if fast && target.is_zero() {
            return Ok(options
                .iter()
                .filter(|next| moore_is_p(self.k, next))
                .map(|next| self.describe(next))
                .collect());
        }
        self.check_size(ctx)?;
        let mut solver = Solver::with_budget(MooreGame { k: self.k }, &ctx.budget);
        let mut found = Vec::new();
        for next in &options {
            let mut sorted = next.clone();
            sorted.sort_unstable();
            let v = solver
                .value(&sorted)
                .map_err(|e| AnalysisError::solve(self, e))?;
            if v == target {
                found.push(self.describe(next));
            }
        }
        Ok(found)
    }

    /// The moves to P-positions by Moore's theorem: every one where the moves can be listed,
    /// else the one its constructive proof gives ([`moore_winning_move`]).
    fn winning_moves_alone(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let count = option_count(self.k, &self.heaps);
        let units = count.saturating_mul(self.heaps.len() as u64 + 1);
        if count <= MAX_LISTED_MOVES && ctx.budget.afford(units).is_ok() {
            ctx.budget
                .charge(units)
                .map_err(|e| AnalysisError::budget(self, e))?;
            let mut out = Vec::new();
            for_each_option(self.k, &self.heaps, |next| {
                if moore_is_p(self.k, next) {
                    out.push(self.describe(next));
                }
            });
            return Ok(out);
        }
        Ok(moore_winning_move(self.k, &self.heaps)
            .map(|next| {
                let mut m = self.describe(&next);
                m.description
                    .push_str(" (one winning move of many, by Moore's construction)");
                m
            })
            .into_iter()
            .collect())
    }
    fn notes(&self) -> Vec<String> {
        if self.k > 1 && moore_is_p(self.k, &self.heaps) {
            vec![format!(
                "{}: a P-position by Moore's theorem (in binary, every bit column holds a \
                 multiple of {} ones), so its value is 0.",
                self as &dyn Component,
                u128::from(self.k) + 1
            )]
        } else {
            Vec::new()
        }
    }
    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::MisereSolver;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn moores_theorem_matches_the_generic_engine(k in 1u64..4, heaps in proptest::collection::vec(0u64..6, 1..5)) {
            let mut sorted = heaps.clone();
            sorted.sort_unstable();
            let v = Solver::new(MooreGame { k }).value(&sorted).unwrap();
            prop_assert_eq!(v.is_zero(), moore_is_p(k, &heaps));
        }
    }

    /// Checks a move by its definition: at most `k` heaps change, each gets smaller, at
    /// least one changes, and the result is P by the theorem.
    fn assert_winning(k: u64, heaps: &[u64], next: &[u64]) {
        let changed = heaps.iter().zip(next).filter(|(h, n)| h != n).count() as u64;
        assert!(changed >= 1 && changed <= k, "{heaps:?} -> {next:?}");
        assert!(
            heaps.iter().zip(next).all(|(h, n)| n <= h),
            "{heaps:?} -> {next:?}"
        );
        assert!(moore_is_p(k, next), "{heaps:?} -> {next:?}");
    }

    proptest! {
        #[test]
        fn the_constructive_move_wins(k in 1u64..5, heaps in proptest::collection::vec(0u64..64, 1..7)) {
            match moore_winning_move(k, &heaps) {
                Some(next) => assert_winning(k, &heaps, &next),
                None => prop_assert!(moore_is_p(k, &heaps)),
            }
        }

        #[test]
        fn the_constructive_move_wins_near_the_top(
            k in prop_oneof![1u64..6, Just(u64::MAX)],
            heaps in proptest::collection::vec(prop_oneof![0u64..4, u64::MAX - 4..=u64::MAX, any::<u64>()], 1..8),
        ) {
            match moore_winning_move(k, &heaps) {
                Some(next) => assert_winning(k, &heaps, &next),
                None => prop_assert!(moore_is_p(k, &heaps)),
            }
        }

        /// The theorem's answer agrees with the generic engine's search, moves included.
        #[test]
        fn winning_moves_by_the_theorem_are_those_of_the_search(k in 2u64..4, heaps in proptest::collection::vec(0u64..5, 1..4)) {
            let m = MooreNim { k, heaps };
            let fast = Context::default();
            let generic = Context::new(crate::sum::Engine::Generic, crate::control::Limits::DEFAULT);
            let by_theorem: Vec<String> = m.moves_to_value(Nimber::ZERO, &fast).unwrap().into_iter().map(|m| m.description).collect();
            let by_search: Vec<String> = m.moves_to_value(Nimber::ZERO, &generic).unwrap().into_iter().map(|m| m.description).collect();
            prop_assert_eq!(by_theorem, by_search);
        }
    }

    #[test]
    fn option_enumeration_counts() {
        // Nim_2 on (1, 1): (0,1), (1,0), (0,0).
        let mut seen = Vec::new();
        for_each_option(2, &[1, 1], |n| seen.push(n.to_vec()));
        seen.sort();
        assert_eq!(seen, vec![vec![0, 0], vec![0, 1], vec![1, 0]]);
        // Misère is not affected by this module, but the option lists feed it: a smoke check.
        let mut m = MisereSolver::with_limits(MooreGame { k: 2 }, crate::solve::Limits::DEFAULT);
        assert_eq!(m.outcome(&vec![0, 0]).unwrap(), Outcome::N);
    }
}
