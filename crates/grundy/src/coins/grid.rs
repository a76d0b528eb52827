//! Two-dimensional coin games: Tartan products of two one-dimensional rules, and Acrostic
//! Twins.
//!
//! **The Tartan theorem** (Winning Ways, ch. 14; Ferguson, *Game Theory, Part I*, §5.4). The
//! product `G1 × G2` of two one-dimensional coin games is played on a grid: a move takes a
//! move `A` of `G1` (a set of columns, rightmost `x`) and a move `B` of `G2` (a set of rows,
//! largest `y`) and turns over every coin of `A × B`; the coin `(x, y)` must go from heads
//! to tails. Then the value of a head at `(x, y)` is the nim-product `g1(x) ⊗ g2(y)`, and a
//! position is worth the nim-sum over its heads.
//!
//! - `corners` = Twins × Twins (Turning Corners): turn the four corners of a rectangle; the
//!   value of `(x, y)` is `x ⊗ y`, the nim-multiplication table.
//! - `rugs` = Ruler × Ruler: turn any rectangular block.
//! - `product(R1,R2)`: any two one-dimensional rules.
//!
//! **Acrostic Twins** is not a Tartan product: a move turns two coins in one row or in one
//! column, `(x', y)` and `(x, y)` with `x' < x`, or `(x, y')` and `(x, y)` with `y' < y`.
//! Its moves are the *union* of Twins × (turn one coin) and (turn one coin) × Twins, not
//! one product, and its value is `x ⊕ y` (a head is a two-heap Nim position). No product
//! `g1(x) ⊗ g2(y)` can equal `x ⊕ y`: `(1,0)` and `(0,1)` are worth 1, so `g1(1)`, `g2(0)`,
//! `g1(0)` and `g2(1)` are all non-zero, yet `(1,1)` is worth `0 = g1(1) ⊗ g2(1)`, and a field
//! has no zero divisors.

use super::line::{check_coin, check_copies, coin_error, list_moves, toggle};
use super::rule::{LineRule, Shape};
use super::values::{CoinError, CoinValues};
use crate::control::Budget;
use crate::game::ImpartialGame;
use crate::nimber::Nimber;
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Engine, Move, moves_to_value_by_search};
use std::fmt;
use std::ops::ControlFlow;

/// A callback over the coin sets of moves; it may stop the walk early.
pub type GridVisitor<'a> = dyn FnMut(&[(u64, u64)]) -> ControlFlow<()> + 'a;

/// A two-dimensional coin rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GridRule {
    /// The Tartan product of a rule on the first coordinate (`x`) and one on the second
    /// (`y`), with the name it was written with if it has a short one (`corners`, `rugs`).
    Product {
        /// The short name, if any.
        alias: Option<&'static str>,
        /// The rule on the first coordinate.
        x: LineRule,
        /// The rule on the second coordinate.
        y: LineRule,
    },
    /// Acrostic Twins: two coins in a row or in a column; coordinates from 0.
    AcrosticTwins,
}

impl GridRule {
    /// Turning Corners: Twins × Twins.
    pub const CORNERS: GridRule = GridRule::Product {
        alias: Some("corners"),
        x: LineRule::Twins,
        y: LineRule::Twins,
    };
    /// Rugs: Ruler × Ruler.
    pub const RUGS: GridRule = GridRule::Product {
        alias: Some("rugs"),
        x: LineRule::Ruler,
        y: LineRule::Ruler,
    };

    /// The one-dimensional rules on the two coordinates (Twins for Acrostic Twins, whose
    /// coins number from 0 both ways).
    pub fn axes(&self) -> (&LineRule, &LineRule) {
        match self {
            GridRule::Product { x, y, .. } => (x, y),
            GridRule::AcrosticTwins => (&LineRule::Twins, &LineRule::Twins),
        }
    }

    /// How many moves a head at `(x, y)` has (saturating at `u64::MAX`).
    pub fn move_count(&self, x: u64, y: u64) -> u64 {
        match self {
            GridRule::Product { x: rx, y: ry, .. } => {
                rx.flip_set_count(x).saturating_mul(ry.flip_set_count(y))
            }
            GridRule::AcrosticTwins => x.saturating_add(y),
        }
    }

    /// A lower bound on the work of the generic engine (the moves it lists) on the position
    /// with these heads, worked out only as far as needed to pass `cap`; 0 where none is
    /// worked out (Acrostic Twins).
    ///
    /// For a product rule, the moves of a head `(x, y)` turn the coins `(A + x) × (B + y)`
    /// over every flip set `A` of `x` and `B` of `y`; every such coin that is not a head now
    /// is a head in some option, and the engine solves every option, so it lists that coin's
    /// moves at least once. The coins are all of `X × Y`, `X` the union of the sets `A + x`
    /// and `Y` of the `B + y`, and a coin `(a, b)` has `f(a) · g(b)` moves: the work is at
    /// least `(Σ_X f) (Σ_Y g)` less the moves of the heads.
    pub fn generic_work_floor(&self, heads: &[(u64, u64)], cap: u64) -> u64 {
        let GridRule::Product { x: rx, y: ry, .. } = self else {
            return 0;
        };
        // The root alone lists its heads' moves.
        let own: u64 = heads
            .iter()
            .fold(0, |a, &(x, y)| a.saturating_add(self.move_count(x, y)));
        let enough = cap.saturating_add(own);
        if own > cap || enough == u64::MAX {
            return own;
        }
        let widest = heads
            .iter()
            .map(|&(x, y)| {
                let sx = flip_union_moves(rx, x, enough);
                let sy = flip_union_moves(ry, y, enough);
                sx.saturating_mul(sy)
            })
            .max()
            .unwrap_or(0);
        widest.saturating_sub(own).max(own)
    }

    /// Calls `visit` with every set of coins (ascending, the head `(x, y)` last) that a move
    /// with its head at `(x, y)` turns, from the rule's definition.
    pub fn for_each_move(&self, x: u64, y: u64, visit: &mut GridVisitor<'_>) -> ControlFlow<()> {
        match self {
            // No flip set on one axis: no move (and no walk over the other axis's sets).
            GridRule::Product { x: rx, y: ry, .. }
                if rx.flip_set_count(x) == 0 || ry.flip_set_count(y) == 0 =>
            {
                ControlFlow::Continue(())
            }
            GridRule::Product { x: rx, y: ry, .. } => rx.for_each_flip_set(x, &mut |a| {
                ry.for_each_flip_set(y, &mut |b| {
                    let mut coins = Vec::with_capacity((a.len() + 1) * (b.len() + 1));
                    for &i in a.iter().chain([x].iter()) {
                        for &j in b.iter().chain([y].iter()) {
                            coins.push((i, j));
                        }
                    }
                    visit(&coins)
                })
            }),
            GridRule::AcrosticTwins => {
                for i in 0..x {
                    visit(&[(i, y), (x, y)])?;
                }
                for j in 0..y {
                    visit(&[(x, j), (x, y)])?;
                }
                ControlFlow::Continue(())
            }
        }
    }
}

/// As written in expressions: `corners`, `rugs`, `product(ruler,turn:5)`, `acrostic-twins`.
impl fmt::Display for GridRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridRule::Product { alias: Some(a), .. } => f.write_str(a),
            GridRule::Product { x, y, .. } => {
                write!(f, "product({},{})", x.product_param(), y.product_param())
            }
            GridRule::AcrosticTwins => f.write_str("acrostic-twins"),
        }
    }
}

/// A position of a two-dimensional coin game: the rule and the heads `(x, y)`, ascending.
/// Written `corners 2,3 4,5`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CoinGrid {
    rule: GridRule,
    heads: Vec<(u64, u64)>,
}

/// The single-coin values of both coordinates.
struct GridValues {
    x: CoinValues,
    y: CoinValues,
    acrostic: bool,
}

impl GridValues {
    fn get(&self, (a, b): (u64, u64)) -> Nimber {
        if self.acrostic {
            Nimber(a ^ b)
        } else {
            self.x.get(a) * self.y.get(b)
        }
    }
}

impl CoinGrid {
    /// A position with heads at these coins (any order; repeats are one head). Each
    /// coordinate must be a coin of its axis's rule.
    pub fn new(
        rule: GridRule,
        mut heads: Vec<(u64, u64)>,
    ) -> Result<CoinGrid, super::CoinRangeError> {
        heads.sort_unstable();
        heads.dedup();
        let (rx, ry) = rule.axes();
        for &(a, b) in &heads {
            check_coin(rx, a)?;
            check_coin(ry, b)?;
        }
        Ok(CoinGrid { rule, heads })
    }

    /// The rule.
    pub fn rule(&self) -> &GridRule {
        &self.rule
    }

    /// The heads, ascending.
    pub fn heads(&self) -> &[(u64, u64)] {
        &self.heads
    }

    fn values(&self, budget: &Budget) -> Result<GridValues, CoinError> {
        let (rx, ry) = self.rule.axes();
        let last_x = self
            .heads
            .iter()
            .map(|h| h.0)
            .max()
            .unwrap_or(rx.first_coin());
        let last_y = self
            .heads
            .iter()
            .map(|h| h.1)
            .max()
            .unwrap_or(ry.first_coin());
        let acrostic = self.rule == GridRule::AcrosticTwins;
        // Acrostic Twins needs no tables (its value is x ⊕ y); Twins has a closed form anyway.
        Ok(GridValues {
            x: CoinValues::new(rx, last_x, budget)?,
            y: CoinValues::new(ry, last_y, budget)?,
            acrostic,
        })
    }

    /// The value: by the Tartan theorem, the nim-sum over the heads of `g1(x) ⊗ g2(y)`;
    /// for Acrostic Twins, of `x ⊕ y`.
    pub fn value(&self, budget: &Budget) -> Result<Nimber, CoinError> {
        let v = self.values(budget)?;
        Ok(self.heads.iter().map(|&h| v.get(h)).sum())
    }

    fn after(&self, coins: &[(u64, u64)]) -> Move {
        let mut turned = coins.to_vec();
        turned.sort_unstable();
        let heads = toggle(&self.heads, &turned);
        let list: Vec<String> = turned.iter().map(|(a, b)| format!("{a},{b}")).collect();
        let result: Vec<Box<dyn Component>> = if heads.is_empty() {
            Vec::new()
        } else {
            vec![Box::new(CoinGrid {
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

/// `Σ f(a)` over the coins `a` that the moves of a head at `n` turn (the head included),
/// `f(a)` the number of flip sets of `a`; the sum stops once it passes `cap` (every term but
/// the first coin's is at least 1 and grows with `a`, so about `√(2 cap)` terms at most).
fn flip_union_moves(rule: &LineRule, n: u64, cap: u64) -> u64 {
    let first = rule.first_coin();
    let mut total = rule.flip_set_count(n);
    let mut add = |a: u64| {
        total = total.saturating_add(rule.flip_set_count(a));
        total > cap
    };
    match rule.shape() {
        Shape::AtMost(0) => {}
        Shape::AtMost(_) | Shape::ExactlyOne | Shape::Run => {
            // Every coin from the first below the head; the largest (most moves) first, so
            // that a large sum stops soon.
            for a in (first..n).rev() {
                if add(a) {
                    break;
                }
            }
        }
        Shape::Offsets(set) => {
            for &s in set {
                if s >= 1 && s <= n.saturating_sub(first) && add(n - s) {
                    break;
                }
            }
        }
    }
    total
}

/// A two-dimensional coin game for the generic engine: moves listed from the definition.
#[derive(Clone, Debug)]
pub struct GridGame(pub GridRule);

impl ImpartialGame for GridGame {
    type Position = Vec<(u64, u64)>;

    fn options(&self, heads: &Vec<(u64, u64)>) -> Vec<Vec<(u64, u64)>> {
        let mut out = Vec::new();
        for &(x, y) in heads {
            let _ = self.0.for_each_move(x, y, &mut |coins| {
                let mut turned = coins.to_vec();
                turned.sort_unstable();
                out.push(toggle(heads, &turned));
                ControlFlow::Continue(())
            });
        }
        out
    }

    fn option_bound(&self, heads: &Vec<(u64, u64)>) -> Option<u64> {
        Some(
            heads
                .iter()
                .fold(0u64, |a, &(x, y)| a.saturating_add(self.0.move_count(x, y))),
        )
    }

    fn position_words(&self, heads: &Vec<(u64, u64)>) -> u64 {
        2 * heads.len() as u64
    }
}

impl Component for CoinGrid {
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
        self.heads.iter().map(|(a, b)| format!("{a},{b}")).collect()
    }

    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        CoinGrid::value(self, &ctx.budget).map_err(|e| coin_error(self, e))
    }

    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        // Refused at once when even a lower bound on the work is more than the budget has.
        let floor = self
            .rule
            .generic_work_floor(&self.heads, ctx.limits().max_work);
        ctx.budget
            .afford(floor)
            .map_err(|e| AnalysisError::budget(self, e))?;
        Solver::with_budget(GridGame(self.rule.clone()), &ctx.budget)
            .value(&self.heads)
            .map_err(|e| AnalysisError::solve(self, e))
    }

    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let count = GridGame(self.rule.clone())
            .option_bound(&self.heads)
            .unwrap_or(u64::MAX);
        list_moves(
            self,
            ctx,
            &self.heads,
            count,
            |(x, y), visit| self.rule.for_each_move(x, y, visit),
            |_, coins| self.after(coins),
        )
    }

    /// The moves to value `target`. A product move `A' × B'` changes the value by
    /// `g1(A') ⊗ g2(B')` (nim-multiplication distributes over nim-addition), so for each
    /// column set `A'` with `u = g1(A') ≠ 0` the row sets needed have `g2(B') = d ⊗ u⁻¹`,
    /// found by value lookup; `d` is the change wanted.
    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        if ctx.engine == Engine::Generic {
            return moves_to_value_by_search(self, target, ctx);
        }
        let budget = &ctx.budget;
        let v = self.values(budget).map_err(|e| coin_error(self, e))?;
        let total: Nimber = self.heads.iter().map(|&h| v.get(h)).sum();
        let d = total ^ target;
        let mut moves = Vec::new();
        for &(x, y) in &self.heads {
            match &self.rule {
                GridRule::AcrosticTwins => {
                    let (x2, y2) = (x ^ d.0, y ^ d.0);
                    if x2 < x {
                        moves.push(self.after(&[(x2, y), (x, y)]));
                    }
                    if y2 < y {
                        moves.push(self.after(&[(x, y2), (x, y)]));
                    }
                    check_copies(budget, moves.len(), self.heads.len())
                        .map_err(|e| AnalysisError::budget(self, e))?;
                }
                GridRule::Product { x: rx, y: ry, .. } => {
                    let mut failure = None;
                    // Runs (Ruler) come longest-last, each one coin longer at the left: their
                    // values are kept as a running nim-sum, O(1) per run.
                    let runs = rx.shape() == Shape::Run;
                    let mut run_sum = Nimber::ZERO;
                    let mut inverses: rustc_hash::FxHashMap<u64, Option<Nimber>> =
                        Default::default();
                    // Every column set is visited: refused at once if they pass the budget.
                    budget
                        .afford(rx.flip_set_count(x))
                        .map_err(|e| AnalysisError::budget(self, e))?;
                    let _ = rx.for_each_flip_set(x, &mut |a| {
                        // A run grows in place (O(1) amortised, charged one unit, or its
                        // length for other sets); its buffer is checked against the memory
                        // limit (the count afforded above already bounds it).
                        let cost = if runs { 1 } else { a.len() as u64 + 1 };
                        if let Err(e) = budget
                            .charge(cost)
                            .and_then(|()| budget.check_bytes(a.len() as u64, 8).map(|_| ()))
                        {
                            failure = Some(CoinError::from(e));
                            return ControlFlow::Break(());
                        }
                        let sum_a = if runs {
                            if let Some(&left) = a.first() {
                                run_sum ^= v.x.get(left);
                            }
                            run_sum
                        } else {
                            a.iter().map(|&c| v.x.get(c)).sum::<Nimber>()
                        };
                        let u: Nimber = v.x.get(x) ^ sum_a;
                        let mut columns = a.to_vec();
                        columns.push(x);
                        let mut emit = |b: &[u64]| -> Result<(), CoinError> {
                            // The move turns |A'| · |B'| coins, each stored twice (the coins
                            // turned, the heads left) and written in its text: tens of bytes
                            // and a hundred nanoseconds or so a coin, so 16 units each.
                            let size = (columns.len() as u64)
                                .saturating_mul(b.len() as u64 + 1)
                                .saturating_mul(16);
                            budget.afford(size)?;
                            budget.charge(size)?;
                            check_copies(budget, moves.len() + 1, self.heads.len())?;
                            let mut coins = Vec::new();
                            for &i in &columns {
                                for &j in b.iter().chain([y].iter()) {
                                    coins.push((i, j));
                                }
                            }
                            moves.push(self.after(&coins));
                            Ok(())
                        };
                        // Few distinct u occur (sums of a rule's values): keep their inverses.
                        let inverse = *inverses.entry(u.0).or_insert_with(|| u.inverse());
                        let found = match inverse {
                            None if d.is_zero() => {
                                // u = 0 and no change wanted: every row set will do.
                                let mut r =
                                    budget.afford(ry.flip_set_count(y)).map_err(CoinError::from);
                                if r.is_ok() {
                                    let _ = ry.for_each_flip_set(y, &mut |b| {
                                        r = budget
                                            .charge(b.len() as u64 + 1)
                                            .map_err(CoinError::from)
                                            .and_then(|()| emit(b));
                                        if r.is_err() {
                                            ControlFlow::Break(())
                                        } else {
                                            ControlFlow::Continue(())
                                        }
                                    });
                                }
                                r
                            }
                            None => Ok(()),
                            Some(inv) => {
                                let want = (d * inv) ^ v.y.get(y);
                                let mut emitted = Ok(());
                                v.y.flip_sets_with_value(y, want, budget, &mut |b| {
                                    if emitted.is_ok() {
                                        emitted = emit(b);
                                    }
                                })
                                .and(emitted)
                            }
                        };
                        match found {
                            Ok(()) => ControlFlow::Continue(()),
                            Err(e) => {
                                failure = Some(e);
                                ControlFlow::Break(())
                            }
                        }
                    });
                    if let Some(e) = failure {
                        return Err(coin_error(self, e));
                    }
                }
            }
        }
        Ok(moves)
    }

    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Limits;

    /// The floor is a lower bound: the generic engine's real work on small positions is at
    /// least the floor (with the budget's own charges, one unit per option and more).
    #[test]
    fn the_work_floor_is_below_the_real_work() {
        let rules = [
            GridRule::CORNERS,
            GridRule::RUGS,
            GridRule::Product {
                alias: None,
                x: LineRule::MockTurtles,
                y: LineRule::Twins,
            },
        ];
        for rule in rules {
            for heads in [
                vec![(2, 2)],
                vec![(1, 1), (2, 3)],
                vec![(3, 1)],
                vec![(0, 4)],
            ] {
                let budget = Budget::new(Limits::DEFAULT);
                Solver::with_budget(GridGame(rule.clone()), &budget)
                    .value(&heads)
                    .unwrap();
                let floor = rule.generic_work_floor(&heads, u64::MAX >> 8);
                assert!(
                    floor <= budget.work_done(),
                    "{rule} {heads:?}: floor {floor}, work {}",
                    budget.work_done()
                );
            }
        }
        // Turning Corners at (3000, 3000) is refused at once: the floor passes the default
        // work limit.
        let floor = GridRule::CORNERS.generic_work_floor(&[(3000, 3000)], Limits::DEFAULT.max_work);
        assert!(floor > Limits::DEFAULT.max_work);
        // Huge heads do not make the floor loop.
        let floor = GridRule::CORNERS.generic_work_floor(&[(u64::MAX, 5), (7, 7)], u64::MAX);
        assert!(floor > 0);
    }
}
