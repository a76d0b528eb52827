//! Nim (Bouton 1901): heaps of tokens; a move takes any positive number from one heap.
//! A heap of `n` has value `n`, so a position's value is the nim-sum of its heaps.

use super::MAX_LISTED_MOVES;
use crate::expr::{ExprError, TermSpec, no_params, parse_u64, some_args};
use crate::game::ImpartialGame;
use crate::nimber::Nimber;
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Engine, Move, moves_to_value_by_search};

/// One Nim heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimHeap(pub u64);

pub(super) fn build(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    no_params(term)?;
    some_args(term, "nim HEAP...")?
        .iter()
        .map(|a| Ok(Box::new(NimHeap(parse_u64(a, "a heap size")?)) as Box<dyn Component>))
        .collect()
}

/// Nim heaps for the generic engine: a heap's options are all smaller heaps.
#[derive(Debug)]
struct NimGame;

impl ImpartialGame for NimGame {
    type Position = u64;
    fn options(&self, n: &u64) -> Vec<u64> {
        (0..*n).collect()
    }
    fn option_bound(&self, n: &u64) -> Option<u64> {
        Some(*n)
    }
    fn dense_index(&self, n: &u64) -> Option<u64> {
        Some(*n)
    }
}

impl NimHeap {
    fn heap_move(&self, to: u64) -> Move {
        Move {
            description: format!("{} -> {}", self.0, to),
            result: vec![Box::new(NimHeap(to))],
        }
    }
}

impl Component for NimHeap {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Nim
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        "nim".into()
    }
    fn args(&self) -> Vec<String> {
        vec![self.0.to_string()]
    }
    fn joins(&self) -> bool {
        true
    }
    fn value(&self, _ctx: &Context) -> Result<Nimber, AnalysisError> {
        Ok(Nimber(self.0))
    }
    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        // The search lists every heap below: n(n + 1)/2 options in all. Refused at once if
        // that passes the budget.
        let work = (u128::from(self.0) * (u128::from(self.0) + 1) / 2).min(u128::from(u64::MAX));
        ctx.budget
            .afford(work as u64)
            .map_err(|e| AnalysisError::budget(self, e))?;
        Solver::with_budget(NimGame, &ctx.budget)
            .value(&self.0)
            .map_err(|e| AnalysisError::solve(self, e))
    }
    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        if self.0 > MAX_LISTED_MOVES {
            return Err(AnalysisError::unsupported(
                self,
                format!(
                    "a heap of {} has too many moves to list (limit {MAX_LISTED_MOVES})",
                    self.0
                ),
            ));
        }
        crate::sum::charge_moves(self, ctx, self.0)?;
        Ok((0..self.0).map(|t| self.heap_move(t)).collect())
    }
    /// A heap moves to any smaller value directly.
    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        if ctx.engine == Engine::Generic {
            return moves_to_value_by_search(self, target, ctx);
        }
        Ok(if target.0 < self.0 {
            vec![self.heap_move(target.0)]
        } else {
            vec![]
        })
    }
    /// A heap moves to any smaller heap (written `nim k`, or left out for 0).
    fn move_leaving(
        &self,
        result: &[Box<dyn Component>],
        _ctx: &Context,
    ) -> Result<Option<Move>, AnalysisError> {
        let to = match result {
            [] => Some(0),
            [c] => c.as_nim_heap(),
            _ => None,
        };
        Ok(to.filter(|&t| t < self.0).map(|t| self.heap_move(t)))
    }
    /// One token taken.
    fn least_move(&self, _ctx: &Context) -> Result<Option<Move>, AnalysisError> {
        Ok(self.0.checked_sub(1).map(|t| self.heap_move(t)))
    }
    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(*self)
    }
    fn as_nim_heap(&self) -> Option<u64> {
        Some(self.0)
    }
}

/// Bouton's rule for misère Nim: a position is a P-position exactly when either some heap has
/// two or more tokens and the nim-sum is 0, or every heap has at most one token and the
/// nim-sum is 1 (an odd number of single tokens).
pub fn misere_nim_is_p(heaps: &[u64]) -> bool {
    let x = heaps.iter().fold(0, |a, b| a ^ b);
    if heaps.iter().all(|&h| h <= 1) {
        x == 1
    } else {
        x == 0
    }
}
