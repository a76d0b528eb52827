//! Staircase Nim: coins on the steps of a staircase; a move takes any positive number of
//! coins from one step down to the next (coins moved from step 1 reach the ground, step 0,
//! and leave play).
//!
//! The value is the nim-sum of the coins on the odd steps (Ferguson, *Game Theory I*,
//! exercise 2.6; Sprague 1936): a move from an odd step is a Nim move on the odd steps, and a
//! move from an even step adds coins to an odd step, which can only change the nim-sum.

use super::MAX_LISTED_MOVES;
use crate::expr::{ExprError, TermSpec, no_params, parse_u64, some_args};
use crate::game::ImpartialGame;
use crate::nimber::Nimber;
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Engine, Move, moves_to_value_by_search};

/// A staircase: `coins[i]` coins on step `i + 1`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Staircase {
    /// Coins on steps 1, 2, 3, ...
    pub coins: Vec<u64>,
}

pub(super) fn build(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    no_params(term)?;
    let coins = some_args(term, "staircase COINS-ON-STEP-1 COINS-ON-STEP-2 ...")?
        .iter()
        .map(|a| parse_u64(a, "a number of coins"))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(vec![Box::new(Staircase { coins })])
}

impl ImpartialGame for Staircase {
    type Position = Vec<u64>;
    fn options(&self, coins: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for (i, &c) in coins.iter().enumerate() {
            for k in 1..=c {
                let mut next = coins.clone();
                next[i] -= k;
                if i > 0 {
                    next[i - 1] = next[i - 1].saturating_add(k);
                }
                out.push(next);
            }
        }
        out
    }
    /// One option per coin on each step.
    fn option_bound(&self, coins: &Vec<u64>) -> Option<u64> {
        Some(coins.iter().fold(0u64, |a, &c| a.saturating_add(c)))
    }
    fn position_words(&self, coins: &Vec<u64>) -> u64 {
        coins.len() as u64
    }
}

impl Staircase {
    /// The move of `k` coins from step `step` (1-based) down one step.
    fn step_move(&self, step: usize, k: u64) -> Move {
        let mut coins = self.coins.clone();
        coins[step - 1] -= k;
        let description = if step == 1 {
            format!("take {k} off step 1")
        } else {
            // Checked: the step below may already hold nearly 2^64 coins.
            coins[step - 2] = coins[step - 2].saturating_add(k);
            format!("move {k} from step {step} to step {}", step - 1)
        };
        Move {
            description,
            result: vec![Box::new(Staircase { coins })],
        }
    }

    /// Checks that `count` moves, each a copy of the staircase, fit the memory limit (and
    /// charges the copying): the winning moves of 100,000 steps are tens of thousands of
    /// copies of every step, tens of gigabytes before this check.
    fn check_copies(&self, ctx: &Context, count: u64) -> Result<(), AnalysisError> {
        let steps = self.coins.len() as u64;
        let units = count.saturating_mul(1 + steps / 32);
        ctx.budget
            .check_bytes(count.saturating_mul(steps), 8)
            .map(|_| ())
            .and_then(|()| ctx.budget.afford(units))
            .and_then(|()| ctx.budget.charge(units))
            .map_err(|e| AnalysisError::budget(self, e))
    }

    fn odd_nim_sum(&self) -> u64 {
        self.coins.iter().step_by(2).fold(0, |a, b| a ^ b)
    }
}

impl Component for Staircase {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Staircase
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        "staircase".into()
    }
    fn args(&self) -> Vec<String> {
        self.coins.iter().map(u64::to_string).collect()
    }
    fn value(&self, _ctx: &Context) -> Result<Nimber, AnalysisError> {
        Ok(Nimber(self.odd_nim_sum()))
    }
    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        Solver::with_budget(self, &ctx.budget)
            .value(&self.coins)
            .map_err(|e| AnalysisError::solve(self, e))
    }
    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let total = self.coins.iter().try_fold(0u64, |a, &c| a.checked_add(c));
        if total.is_none_or(|t| t > MAX_LISTED_MOVES) {
            return Err(AnalysisError::unsupported(
                self,
                format!("too many moves to list (limit {MAX_LISTED_MOVES})"),
            ));
        }
        let total = total.unwrap_or(u64::MAX);
        crate::sum::charge_moves(self, ctx, total)?;
        self.check_copies(ctx, total)?;
        let mut out = Vec::new();
        for step in 1..=self.coins.len() {
            for k in 1..=self.coins[step - 1] {
                out.push(self.step_move(step, k));
            }
        }
        Ok(out)
    }
    /// From an odd step, `c -> c ⊕ d` (fewer coins); from an even step, the odd step below
    /// grows from `c` to `c ⊕ d` (more coins), where `d = value ⊕ target`.
    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        if ctx.engine == Engine::Generic {
            return moves_to_value_by_search(self, target, ctx);
        }
        let d = self.odd_nim_sum() ^ target.0;
        if d == 0 {
            return Ok(Vec::new());
        }
        // The coins each winning move takes: counted first, so that the copies are checked
        // against the budget before any is made.
        let take = |step: usize| -> Option<u64> {
            let c = self.coins[step - 1];
            if step % 2 == 1 {
                (c ^ d < c).then(|| c - (c ^ d))
            } else {
                let below = self.coins[step - 2];
                let grown = below ^ d;
                (grown > below && grown - below <= c).then(|| grown - below)
            }
        };
        let count = (1..=self.coins.len())
            .filter(|&s| take(s).is_some())
            .count();
        self.check_copies(ctx, count as u64)?;
        Ok((1..=self.coins.len())
            .filter_map(|step| take(step).map(|k| self.step_move(step, k)))
            .collect())
    }
    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(self.clone())
    }
}
