//! Wythoff's game (W. A. Wythoff, 1907): a queen on a quarter-infinite board moves any
//! distance left, down, or diagonally down-left; the player who cannot move loses. The queen
//! at `(x, y)` is two heaps from which a move takes from one heap or the same amount from both.
//!
//! The P-positions are `(⌊kφ⌋, ⌊kφ²⌋)` and their mirror images, `φ` the golden ratio, found
//! exactly in integers here as `⌊kφ⌋ = ⌊(k + ⌊√(5k²)⌋) / 2⌋`. No closed form is known for
//! the values; they come from a table computed row by row with bit sets for the values seen in
//! each row, column and diagonal, in `O(xy · (x + y) / 64)` time, up to `x + y ≤ 8000`.

use super::MAX_LISTED_MOVES;
use crate::control::{Budget, BudgetError};
use crate::expr::{ExprError, TermSpec, no_params, parse_u64, some_args};
use crate::game::{ImpartialGame, SplitOptions};
use crate::nimber::Nimber;
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Engine, MisereAlone, Move};
use crate::value::Outcome;

/// The largest coordinate accepted, so that `5k²` fits in 128 bits.
pub const MAX_COORDINATE: u64 = 1 << 62;
/// The largest `x + y` whose values are computed by table.
pub const MAX_TABLE_SUM: u64 = 8000;

/// A Wythoff queen at `(x, y)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wythoff {
    /// Column.
    pub x: u64,
    /// Row.
    pub y: u64,
}

pub(super) fn build(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    no_params(term)?;
    let args = some_args(term, "wythoff X Y")?;
    if args.len() != 2 {
        let span = args[0].span.start..args[args.len() - 1].span.end;
        return Err(ExprError::new(
            span,
            format!(
                "`wythoff` takes two coordinates X Y, found {}",
                crate::words::count(args.len(), "argument")
            ),
        )
        .with_help("write several queens as a sum: wythoff 3 5 + wythoff 2 1"));
    }
    let mut xy = [0u64; 2];
    for (slot, a) in xy.iter_mut().zip(args) {
        *slot = parse_u64(a, "a coordinate")?;
        if *slot > MAX_COORDINATE {
            return Err(ExprError::new(
                a.span.clone(),
                format!("Wythoff coordinates go up to {MAX_COORDINATE}"),
            ));
        }
    }
    Ok(vec![Box::new(Wythoff { x: xy[0], y: xy[1] })])
}

/// `⌊kφ⌋` for `k ≤ 2^62`.
fn lower_wythoff(k: u64) -> u64 {
    let k = k as u128;
    ((k + (5 * k * k).isqrt()) / 2) as u64
}

/// The other coordinate of the P-position that has `v` as one coordinate.
fn partner(v: u64) -> u64 {
    // a_k = ⌊kφ⌋ is increasing; the largest k with a_k <= v.
    let (mut lo, mut hi) = (0u64, v);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if lower_wythoff(mid) <= v {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    if lower_wythoff(lo) == v {
        return v + lo;
    }
    // Otherwise v = b_k = a_k + k for exactly one k (Beatty's theorem); b_k is increasing.
    let (mut lo, mut hi) = (0u64, v);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if lower_wythoff(mid) + mid <= v {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    lower_wythoff(lo)
}

/// Whether `(x, y)` is a P-position of Wythoff's game.
pub fn wythoff_is_p(x: u64, y: u64) -> bool {
    let (a, b) = (x.min(y), x.max(y));
    lower_wythoff(b - a) == a
}

/// Values `g(i, j)` for `i <= x`, `j <= y`, row-major, under `budget`: one unit of work per
/// word of bit set scanned, the tables checked against the memory limit and reserved
/// fallibly, cancellation checked once a row.
fn value_table(x: u64, y: u64, budget: &Budget) -> Result<Vec<u64>, BudgetError> {
    let too_big = |_| BudgetError::Memory {
        needed: None,
        limit: budget.limits().max_bytes,
    };
    let w = usize::try_from(x).map_err(too_big)?.saturating_add(1);
    let h = usize::try_from(y).map_err(too_big)?.saturating_add(1);
    let words = w.saturating_add(h) / 64 + 1;
    // Work: every cell scans at most `words` words of three bit sets.
    let work = (w as u64)
        .saturating_mul(h as u64)
        .saturating_mul(words as u64);
    budget.afford(work)?;
    let zeros = |count: usize| -> Result<Vec<u64>, BudgetError> {
        let mut v = budget.vec_with_capacity::<u64>(count)?;
        v.resize(count, 0);
        Ok(v)
    };
    let mut cols = zeros(w.saturating_mul(words))?;
    let mut diags = zeros(w.saturating_add(h).saturating_mul(words))?;
    let mut table = zeros(w.saturating_mul(h))?;
    for j in 0..h {
        budget.charge((w as u64).saturating_mul(words as u64))?;
        let mut row = vec![0u64; words];
        for i in 0..w {
            let col = &cols[i * words..(i + 1) * words];
            let d = (i + h - j) * words; // diagonal i - j, shifted to be non-negative
            let diag = &diags[d..d + words];
            let mut g = 0;
            for word in 0..words {
                let seen = row[word] | col[word] | diag[word];
                if seen != u64::MAX {
                    g = word * 64 + seen.trailing_ones() as usize;
                    break;
                }
            }
            table[j * w + i] = g as u64;
            let (word, bit) = (g / 64, 1u64 << (g % 64));
            row[word] |= bit;
            cols[i * words + word] |= bit;
            diags[d + word] |= bit;
        }
    }
    Ok(table)
}

/// The dense index of the queen at `(x, y)` for the generic engine, square by square: the
/// queens with `max(x, y) = m` take `m² + x` (on the top row, `y = m`) and `m² + m + 1 + y`
/// (on the right column, `x = m > y`), the indices from `m²` to `(m + 1)² - 1`. The queens a
/// queen at `(x, y)` reaches fill the first `(max(x, y) + 1)²` slots, and its moves along its
/// longer side read neighbouring slots. `None` past 64 bits.
fn square_index(x: u64, y: u64) -> Option<u64> {
    let m = x.max(y);
    let base = m.checked_mul(m)?;
    if y == m {
        base.checked_add(x)
    } else {
        base.checked_add(m)?.checked_add(1)?.checked_add(y)
    }
}

/// The generic engine's view of one queen.
#[derive(Debug)]
struct WythoffGame;

impl ImpartialGame for WythoffGame {
    type Position = (u64, u64);
    fn options(&self, &(x, y): &(u64, u64)) -> Vec<(u64, u64)> {
        let mut out: Vec<(u64, u64)> = (0..x).map(|a| (a, y)).collect();
        out.extend((0..y).map(|b| (x, b)));
        out.extend((1..=x.min(y)).map(|d| (x - d, y - d)));
        out
    }
    fn option_bound(&self, &(x, y): &(u64, u64)) -> Option<u64> {
        Some(x.saturating_add(y).saturating_add(x.min(y)))
    }
    fn dense_index(&self, &(x, y): &(u64, u64)) -> Option<u64> {
        square_index(x, y)
    }
    fn split_options(&self, &(x, y): &(u64, u64), out: &mut SplitOptions<(u64, u64)>) {
        // One queen is one component: each option is one part.
        out.single_part_options((0..x).map(|a| (a, y)));
        out.single_part_options((0..y).map(|b| (x, b)));
        out.single_part_options((1..=x.min(y)).map(|d| (x - d, y - d)));
    }
}

impl Wythoff {
    fn to(&self, x: u64, y: u64) -> Move {
        Move {
            description: format!("({},{}) -> ({x},{y})", self.x, self.y),
            result: vec![Box::new(Wythoff { x, y })],
        }
    }

    fn check_table(&self) -> Result<(), AnalysisError> {
        if self.x.saturating_add(self.y) > MAX_TABLE_SUM {
            return Err(AnalysisError::unsupported(
                self,
                format!(
                    "no closed form is known for Wythoff values; the table goes to x + y = \
                     {MAX_TABLE_SUM}. Its outcome is known for any size: analyse it on its own"
                ),
            ));
        }
        Ok(())
    }

    /// Refuses a move list past [`MAX_LISTED_MOVES`] and charges the budget for listing it.
    fn check_move_list(&self, ctx: &Context) -> Result<(), AnalysisError> {
        let count = self
            .x
            .saturating_add(self.y)
            .saturating_add(self.x.min(self.y));
        if count > MAX_LISTED_MOVES {
            return Err(AnalysisError::unsupported(
                self,
                format!("too many moves to list (limit {MAX_LISTED_MOVES})"),
            ));
        }
        crate::sum::charge_moves(self, ctx, count)
    }

    fn options(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let (x, y) = (self.x, self.y);
        (0..x)
            .map(move |a| (a, y))
            .chain((0..y).map(move |b| (x, b)))
            .chain((1..=x.min(y)).map(move |d| (x - d, y - d)))
    }
}

impl Component for Wythoff {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Wythoff
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        "wythoff".into()
    }
    fn args(&self) -> Vec<String> {
        vec![self.x.to_string(), self.y.to_string()]
    }
    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        if wythoff_is_p(self.x, self.y) {
            return Ok(Nimber::ZERO);
        }
        self.check_table()?;
        let table =
            value_table(self.x, self.y, &ctx.budget).map_err(|e| AnalysisError::budget(self, e))?;
        Ok(Nimber(table.last().copied().unwrap_or(0)))
    }
    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        // Over the positions below, about (x + 1)(y + 1)(x + y + min(x, y)) / 2 options in
        // all: refused at once when the budget cannot afford them.
        let (x, y) = (self.x as f64, self.y as f64);
        let work = (x + 1.0) * (y + 1.0) * (x + y + x.min(y)) / 2.0;
        ctx.budget
            .afford(work as u64)
            .map_err(|e| AnalysisError::budget(self, e))?;
        Solver::with_budget(WythoffGame, &ctx.budget)
            .value(&(self.x, self.y))
            .map_err(|e| AnalysisError::solve(self, e))
    }
    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        self.check_move_list(ctx)?;
        Ok(self.options().map(|(x, y)| self.to(x, y)).collect())
    }
    /// A queen moves left, down or diagonally towards the corner: checked at any size.
    fn move_leaving(
        &self,
        result: &[Box<dyn Component>],
        _ctx: &Context,
    ) -> Result<Option<Move>, AnalysisError> {
        let [c] = result else {
            return Ok(None);
        };
        let args = c.args();
        let (Some(x), Some(y)) = (
            args.first().and_then(|a| a.parse::<u64>().ok()),
            args.get(1).and_then(|a| a.parse::<u64>().ok()),
        ) else {
            return Ok(None);
        };
        let legal = c.rule() == self.rule()
            && args.len() == 2
            && ((x < self.x && y == self.y)
                || (x == self.x && y < self.y)
                || (x < self.x && y < self.y && self.x - x == self.y - y));
        Ok(legal.then(|| self.to(x, y)))
    }
    /// One step along the longer side.
    fn least_move(&self, _ctx: &Context) -> Result<Option<Move>, AnalysisError> {
        Ok(if self.x >= self.y && self.x > 0 {
            Some(self.to(self.x - 1, self.y))
        } else if self.y > 0 {
            Some(self.to(self.x, self.y - 1))
        } else {
            None
        })
    }
    /// One table serves every option; with the generic engine, one solver (its values of
    /// the queens below kept from option to option, not searched again for each).
    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        if ctx.engine == Engine::Generic {
            // The moves are listed as `moves` lists them: same limit, same charge.
            self.check_move_list(ctx)?;
            let found = Solver::with_budget(WythoffGame, &ctx.budget)
                .moves_to_value(&(self.x, self.y), target)
                .map_err(|e| AnalysisError::solve(self, e))?;
            return Ok(found.into_iter().map(|(_, (x, y))| self.to(x, y)).collect());
        }
        self.check_table()?;
        let table =
            value_table(self.x, self.y, &ctx.budget).map_err(|e| AnalysisError::budget(self, e))?;
        let w = self.x as usize + 1;
        Ok(self
            .options()
            .filter(|&(x, y)| table[y as usize * w + x as usize] == target.0)
            .map(|(x, y)| self.to(x, y))
            .collect())
    }
    fn outcome(&self, _ctx: &Context) -> Result<Outcome, AnalysisError> {
        Ok(if wythoff_is_p(self.x, self.y) {
            Outcome::P
        } else {
            Outcome::N
        })
    }
    /// The P-positions one move away, from the golden-ratio pairs: along the row, along the
    /// column, and along the diagonal (the pair with the same difference).
    fn winning_moves_alone(&self, _ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        Ok(normal_targets(self.x, self.y)
            .into_iter()
            .map(|(x, y)| self.to(x, y))
            .collect())
    }
    /// Misère Wythoff by its theorem: the misère P-positions are the normal ones with
    /// (0,0), (1,2), (2,1) replaced by (0,1), (1,0), (2,2). The winning moves are the
    /// normal ones minus the three dropped positions, plus any of the three new ones in reach.
    fn misere_alone(&self, _ctx: &Context) -> Option<Result<MisereAlone, AnalysisError>> {
        let (x, y) = (self.x, self.y);
        let is_p = misere_wythoff_is_p(x, y);
        let mut targets = Vec::new();
        if !is_p {
            targets = normal_targets(x, y);
            targets.retain(|t| !MISERE_DROPPED.contains(t));
            targets.extend(MISERE_ADDED.iter().copied().filter(|&t| reaches((x, y), t)));
            targets.sort_unstable();
            targets.dedup();
        }
        Some(Ok(MisereAlone {
            outcome: if is_p { Outcome::P } else { Outcome::N },
            winning_moves: targets.into_iter().map(|(x, y)| self.to(x, y)).collect(),
            reason: format!(
                "Misère Wythoff by its theorem (Wythoff 1907, checked here against the definition): the misère P-positions are the normal ones (the golden-ratio pairs) with (0,0), (1,2), (2,1) replaced by (0,1), (1,0), (2,2); ({x},{y}) is {}.",
                if is_p {
                    "one of them, so the player to move loses"
                } else {
                    "not, so the player to move wins by moving to one"
                }
            ),
        }))
    }
    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(*self)
    }
}

/// Normal P-positions that are misère N-positions (misère Wythoff).
const MISERE_DROPPED: [(u64, u64); 3] = [(0, 0), (1, 2), (2, 1)];
/// Misère P-positions that are normal N-positions (misère Wythoff).
const MISERE_ADDED: [(u64, u64); 3] = [(0, 1), (1, 0), (2, 2)];

/// Whether `(x, y)` is a misère P-position of Wythoff's game.
pub fn misere_wythoff_is_p(x: u64, y: u64) -> bool {
    if MISERE_ADDED.contains(&(x, y)) {
        true
    } else if MISERE_DROPPED.contains(&(x, y)) {
        false
    } else {
        wythoff_is_p(x, y)
    }
}

/// Whether a queen at `from` can move to `to` in one move.
fn reaches((x, y): (u64, u64), (a, b): (u64, u64)) -> bool {
    (a == x && b < y) || (b == y && a < x) || (a < x && b < y && x - a == y - b)
}

/// The normal P-positions one move away from `(x, y)`.
fn normal_targets(x: u64, y: u64) -> Vec<(u64, u64)> {
    let mut targets = Vec::new();
    let py = partner(y);
    if py < x {
        targets.push((py, y));
    }
    let px = partner(x);
    if px < y {
        targets.push((x, px));
    }
    let k = x.abs_diff(y);
    let a = lower_wythoff(k);
    let (dx, dy) = if x <= y { (a, a + k) } else { (a + k, a) };
    if dx < x && x - dx == y - dy {
        targets.push((dx, dy));
    }
    targets.sort_unstable();
    targets.dedup();
    targets
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Misère outcomes from the definition: the player who cannot move wins.
    fn misere_wins_by_definition(n: usize) -> Vec<Vec<bool>> {
        let mut wins = vec![vec![false; n]; n];
        for x in 0..n {
            for y in 0..n {
                wins[x][y] = (x == 0 && y == 0)
                    || Wythoff {
                        x: x as u64,
                        y: y as u64,
                    }
                    .options()
                    .any(|(a, b)| !wins[a as usize][b as usize]);
            }
        }
        wins
    }

    #[test]
    fn misere_theorem_matches_the_definition() {
        let n = 40;
        let wins = misere_wins_by_definition(n);
        let ctx = Context::new(Engine::Fast, crate::control::Limits::DEFAULT);
        for x in 0..n {
            for y in 0..n {
                let q = Wythoff {
                    x: x as u64,
                    y: y as u64,
                };
                assert_eq!(misere_wythoff_is_p(q.x, q.y), !wins[x][y], "({x},{y})");
                let alone = q.misere_alone(&ctx).unwrap().unwrap();
                let mut got: Vec<(u64, u64)> = alone
                    .winning_moves
                    .iter()
                    .map(|m| {
                        let v: Vec<u64> = m.result[0]
                            .args()
                            .iter()
                            .map(|t| t.parse().unwrap())
                            .collect();
                        (v[0], v[1])
                    })
                    .collect();
                got.sort_unstable();
                let mut want: Vec<(u64, u64)> = q
                    .options()
                    .filter(|&(a, b)| !wins[a as usize][b as usize])
                    .collect();
                want.sort_unstable();
                want.dedup();
                assert_eq!(got, want, "({x},{y})");
            }
        }
    }

    #[test]
    fn first_p_positions() {
        let p: Vec<(u64, u64)> = (0..8)
            .map(|k| (lower_wythoff(k), lower_wythoff(k) + k))
            .collect();
        assert_eq!(
            p,
            vec![
                (0, 0),
                (1, 2),
                (3, 5),
                (4, 7),
                (6, 10),
                (8, 13),
                (9, 15),
                (11, 18)
            ]
        );
        assert_eq!(partner(5), 3);
        assert_eq!(partner(4), 7);
        assert_eq!(partner(0), 0);
        assert!(wythoff_is_p(1 << 40, partner(1 << 40)));
    }

    #[test]
    fn the_square_index_numbers_every_queen_once() {
        let n = 40u64;
        let mut seen = vec![false; (n * n) as usize];
        for x in 0..n {
            for y in 0..n {
                let i = square_index(x, y).unwrap();
                assert!(i < n * n, "({x},{y}) -> {i}");
                assert!(!seen[i as usize], "({x},{y}) -> {i} twice");
                seen[i as usize] = true;
            }
        }
        let m = 1u64 << 31;
        assert_eq!(square_index(m, 5), Some(m * m + m + 1 + 5));
        assert_eq!(square_index(5, m), Some(m * m + 5));
        assert_eq!(square_index(u64::MAX, 0), None);
        assert_eq!(square_index(0, 1 << 32), None);
    }

    #[test]
    fn table_matches_the_generic_engine() {
        let table = value_table(30, 25, &Budget::default()).unwrap();
        let mut solver = Solver::new(WythoffGame);
        for y in 0..=25u64 {
            for x in 0..=30u64 {
                assert_eq!(
                    table[y as usize * 31 + x as usize],
                    solver.value(&(x, y)).unwrap().0,
                    "({x},{y})"
                );
            }
        }
    }

    /// The queen without its dense index: every value in the engine's hash table.
    struct Hashed;
    impl ImpartialGame for Hashed {
        type Position = (u64, u64);
        fn options(&self, p: &(u64, u64)) -> Vec<(u64, u64)> {
            WythoffGame.options(p)
        }
        fn split_options(&self, p: &(u64, u64), out: &mut SplitOptions<(u64, u64)>) {
            WythoffGame.split_options(p, out)
        }
    }

    #[test]
    fn the_indexed_engine_finds_the_golden_ratio_p_positions() {
        // Every queen of the square 0..200, by the dense array, against the closed form;
        // and the first 60 by 60 against the engine's hash table.
        let mut indexed = Solver::new(WythoffGame);
        let mut hashed = Solver::new(Hashed);
        for x in 0..200u64 {
            for y in 0..200u64 {
                let v = indexed.value(&(x, y)).unwrap();
                assert_eq!(v.is_zero(), wythoff_is_p(x, y), "({x},{y})");
                if x < 60 && y < 60 {
                    assert_eq!(v, hashed.value(&(x, y)).unwrap(), "({x},{y})");
                }
            }
        }
        assert_eq!(indexed.solved(), 200 * 200);
    }

    proptest! {
        #[test]
        fn golden_ratio_p_positions_match_the_table(x in 0u64..60, y in 0u64..60) {
            let table = value_table(x, y, &Budget::default()).unwrap();
            prop_assert_eq!(table[table.len() - 1] == 0, wythoff_is_p(x, y));
        }

        #[test]
        fn the_generic_engine_finds_the_moves_the_table_does(x in 0u64..30, y in 0u64..30, target in 0u64..6) {
            let w = Wythoff { x, y };
            let fast = Context::new(Engine::Fast, crate::control::Limits::DEFAULT);
            let generic = Context::new(Engine::Generic, crate::control::Limits::DEFAULT);
            let by = |ctx: &Context| -> Vec<String> {
                w.moves_to_value(Nimber(target), ctx).unwrap().into_iter().map(|m| m.description).collect()
            };
            prop_assert_eq!(by(&generic), by(&fast));
        }

        #[test]
        fn winning_moves_alone_are_the_moves_to_zero(x in 0u64..40, y in 0u64..40) {
            let w = Wythoff { x, y };
            let ctx = Context::new(Engine::Fast, crate::control::Limits::DEFAULT);
            let mut closed: Vec<String> = w.winning_moves_alone(&ctx).unwrap().into_iter().map(|m| m.description).collect();
            let mut searched: Vec<String> = w.moves_to_value(Nimber::ZERO, &ctx).unwrap().into_iter().map(|m| m.description).collect();
            closed.sort();
            searched.sort();
            prop_assert_eq!(closed, searched);
        }
    }
}
