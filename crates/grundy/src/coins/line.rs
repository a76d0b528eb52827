//! A row of coins under a one-dimensional rule: the position, its value and its moves.

use super::rule::LineRule;
use super::values::{CoinError, CoinValues};
use crate::control::Budget;
use crate::game::ImpartialGame;
use crate::nimber::Nimber;
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Engine, Move, moves_to_value_by_search};
use std::ops::ControlFlow;

/// A position of a one-dimensional coin-turning game: the rule and the coins showing heads
/// (ascending, distinct). Written `mock-turtles 0 3 5`: heads at coins 0, 3 and 5, every
/// other coin tails.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CoinRow {
    rule: LineRule,
    heads: Vec<u64>,
}

/// A coin outside the coins a rule numbers.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoinRangeError {
    /// Left of the first coin.
    #[error("{rule} numbers its coins from {first}, so there is no coin {coin}")]
    BeforeFirst {
        /// The rule, as written.
        rule: String,
        /// The coin.
        coin: u64,
        /// The first coin.
        first: u64,
    },
    /// Too far right for the values to be represented.
    #[error(
        "coin {coin} is too large for {rule}: its values would not fit in 64 bits (the last coin is {last})"
    )]
    AfterLast {
        /// The rule, as written.
        rule: String,
        /// The coin.
        coin: u64,
        /// The last coin.
        last: u64,
    },
}

/// Checks that `coin` is a coin of `rule`.
pub fn check_coin(rule: &LineRule, coin: u64) -> Result<(), CoinRangeError> {
    if coin < rule.first_coin() {
        return Err(CoinRangeError::BeforeFirst {
            rule: rule.to_string(),
            coin,
            first: rule.first_coin(),
        });
    }
    if coin > rule.last_coin() {
        return Err(CoinRangeError::AfterLast {
            rule: rule.to_string(),
            coin,
            last: rule.last_coin(),
        });
    }
    Ok(())
}

/// The symmetric difference of two ascending lists (turning over the coins `turned`).
pub(crate) fn toggle<T: Ord + Copy>(heads: &[T], turned: &[T]) -> Vec<T> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(heads.len() + turned.len());
    while i < heads.len() || j < turned.len() {
        match (heads.get(i), turned.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                out.push(*a);
                i += 1;
            }
            (Some(a), None) => {
                out.push(*a);
                i += 1;
            }
            (_, Some(b)) => {
                out.push(*b);
                j += 1;
            }
            (None, None) => unreachable!("the loop runs while one list has items"),
        }
    }
    out
}

impl CoinRow {
    /// A position with heads at these coins (in any order; a coin listed twice is one head).
    pub fn new(rule: LineRule, mut heads: Vec<u64>) -> Result<CoinRow, CoinRangeError> {
        heads.sort_unstable();
        heads.dedup();
        for &c in &heads {
            check_coin(&rule, c)?;
        }
        Ok(CoinRow { rule, heads })
    }

    /// The rule.
    pub fn rule(&self) -> &LineRule {
        &self.rule
    }

    /// The coins showing heads, ascending.
    pub fn heads(&self) -> &[u64] {
        &self.heads
    }

    /// The single-coin values for this position's coins, computed under `budget`.
    pub fn coin_values(&self, budget: &Budget) -> Result<CoinValues, CoinError> {
        let last = self.heads.last().copied().unwrap_or(self.rule.first_coin());
        CoinValues::new(&self.rule, last, budget)
    }

    /// The value: the nim-sum of the single-coin values of the heads.
    pub fn value(&self, budget: &Budget) -> Result<Nimber, CoinError> {
        let values = self.coin_values(budget)?;
        Ok(self.heads.iter().map(|&c| values.get(c)).sum())
    }

    fn after(&self, head: u64, others: &[u64]) -> Move {
        let mut turned = others.to_vec();
        turned.push(head);
        let heads = toggle(&self.heads, &turned);
        let list: Vec<String> = turned.iter().map(u64::to_string).collect();
        let result: Vec<Box<dyn Component>> = if heads.is_empty() {
            Vec::new()
        } else {
            vec![Box::new(CoinRow {
                rule: self.rule.clone(),
                heads,
            })]
        };
        Move {
            description: format!("turn {}", list.join(" ")),
            result,
        }
    }
}

/// A one-dimensional coin game for the generic engine: positions are the ascending lists of
/// heads, and a move is listed from the rule's definition (every head, every flip set).
#[derive(Clone, Debug)]
pub struct LineGame(pub LineRule);

impl ImpartialGame for LineGame {
    type Position = Vec<u64>;

    fn options(&self, heads: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for &n in heads {
            let _ = self.0.for_each_flip_set(n, &mut |set| {
                let mut turned = set.to_vec();
                turned.push(n);
                out.push(toggle(heads, &turned));
                ControlFlow::Continue(())
            });
        }
        out
    }

    fn option_bound(&self, heads: &Vec<u64>) -> Option<u64> {
        Some(
            heads
                .iter()
                .fold(0u64, |a, &n| a.saturating_add(self.0.flip_set_count(n))),
        )
    }

    fn position_words(&self, heads: &Vec<u64>) -> u64 {
        heads.len() as u64
    }
}

/// A coin error as an analysis error: a budget error stays one (so the analysis can tell a
/// limit from a cancellation).
pub(crate) fn coin_error(c: &dyn Component, e: CoinError) -> AnalysisError {
    match e {
        CoinError::Budget(b) => AnalysisError::budget(c, b),
        e => AnalysisError::unsupported(c, e.to_string()),
    }
}

/// Checks that `count` listed moves, each holding a copy of a position of `heads` heads (about
/// 16 bytes a head with its text), fit the memory limit: a row of 20,000 coins has tens of
/// thousands of winning moves, each a copy of every coin (5.8 GB, and an abort under a 6 GB
/// address-space cap, before this check).
pub(crate) fn check_copies(
    budget: &Budget,
    count: usize,
    heads: usize,
) -> Result<(), crate::control::BudgetError> {
    budget
        .check_bytes((count as u64).saturating_mul(heads as u64 + 1), 16)
        .map(|_| ())
}

/// Every move of a coin position: the `count` moves are refused before listing when the
/// budget cannot afford them, then `for_each(head, visit)` visits the coins each head may
/// turn, `after(head, coins)` builds the move, and each move is charged for the heads and
/// coins it copies.
pub(crate) fn list_moves<H: Copy, C>(
    component: &dyn Component,
    ctx: &Context,
    heads: &[H],
    count: u64,
    for_each: impl Fn(H, &mut dyn FnMut(&[C]) -> ControlFlow<()>) -> ControlFlow<()>,
    after: impl Fn(H, &[C]) -> Move,
) -> Result<Vec<Move>, AnalysisError> {
    crate::sum::charge_moves(component, ctx, count)?;
    let mut moves = Vec::new();
    let mut failure = None;
    for &head in heads {
        let _ = for_each(head, &mut |coins| {
            // Each move copies the heads and the coins it turns.
            if let Err(e) = ctx
                .budget
                .charge((coins.len() + heads.len()) as u64)
                .and_then(|()| check_copies(&ctx.budget, moves.len() + 1, heads.len()))
            {
                failure = Some(e);
                return ControlFlow::Break(());
            }
            moves.push(after(head, coins));
            ControlFlow::Continue(())
        });
        if let Some(e) = failure.take() {
            return Err(AnalysisError::budget(component, e));
        }
    }
    Ok(moves)
}

impl Component for CoinRow {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Coins
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        self.rule.to_string()
    }

    fn args(&self) -> Vec<String> {
        self.heads.iter().map(u64::to_string).collect()
    }

    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        CoinRow::value(self, &ctx.budget).map_err(|e| coin_error(self, e))
    }

    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        Solver::with_budget(LineGame(self.rule.clone()), &ctx.budget)
            .value(&self.heads)
            .map_err(|e| AnalysisError::solve(self, e))
    }

    /// Every move: each head with each set of coins the rule lets it turn, refused before
    /// listing when the budget cannot afford them all.
    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let count = LineGame(self.rule.clone())
            .option_bound(&self.heads)
            .unwrap_or(u64::MAX);
        list_moves(
            self,
            ctx,
            &self.heads,
            count,
            |n, visit| self.rule.for_each_flip_set(n, visit),
            |n, set| self.after(n, set),
        )
    }

    /// The moves to a position of value `target`, by value lookups rather than by listing
    /// every move: a move from head `n` turning the set `S` changes the value by
    /// `g(n) ⊕ g(S)`.
    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        if ctx.engine == Engine::Generic {
            return moves_to_value_by_search(self, target, ctx);
        }
        let values = self
            .coin_values(&ctx.budget)
            .map_err(|e| coin_error(self, e))?;
        let total: Nimber = self.heads.iter().map(|&c| values.get(c)).sum();
        let mut moves = Vec::new();
        let mut failure = None;
        for &n in &self.heads {
            let want = target ^ total ^ values.get(n);
            values
                .flip_sets_with_value(n, want, &ctx.budget, &mut |set| {
                    if failure.is_none() {
                        match check_copies(&ctx.budget, moves.len() + 1, self.heads.len()) {
                            Ok(()) => moves.push(self.after(n, set)),
                            Err(e) => failure = Some(e),
                        }
                    }
                })
                .map_err(|e| coin_error(self, e))?;
            if let Some(e) = failure {
                return Err(AnalysisError::budget(self, e));
            }
        }
        Ok(moves)
    }

    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(self.clone())
    }
}
