//! The perfect opponent: which move the computer makes.
//!
//! 1. **Exact, for small positions.** The positions reachable from the current one are
//!    explored breadth-first (a position is its sorted component texts, so sums that differ
//!    only in order are one vertex), at most [`EXACT_POSITIONS`] of them and at most
//!    [`EXACT_WORK`] units of work. Retrograde analysis on that graph
//!    ([`crate::graph::loopy::win_lose_draw`], `O(V + E)`) gives every position's outcome
//!    and remoteness: a lost position's remoteness is `1 + max` over its options, a won
//!    position's `1 + min` over its losing options, positions never decided are draws (only
//!    possible in games with cycles). Misère play is normal play on the same graph with one
//!    extra move out of every terminal position (to a new terminal vertex), which makes the
//!    terminal positions wins for the player to move; remoteness then drops by one.
//!    The computer takes the winning move of least remoteness, or, when it is lost, the move
//!    of greatest remoteness, or, in a draw, a move that keeps the draw.
//! 2. **Fallback, for large positions.** The analysis of the position (closed forms, periods,
//!    Hackenbush values, the misère search within its budget) gives the winning moves; the
//!    computer takes the first. In a lost position (or when even the analysis is out of
//!    reach) it takes the move that leaves the opponent the most moves, a proxy for a long
//!    game (in Nim: the move that takes the least). Every step charges the context's budget,
//!    so nothing runs unbounded.
//! 3. **Too many moves to list** (a Nim heap of 10^9): the analysis's first winning move, or
//!    in a lost position the move that takes least, each found without a list.

use super::{Choice, Game, PlayError};
use crate::graph::csr::Csr;
use crate::graph::explore::Discovered;
use crate::graph::loopy::{NO_REMOTENESS, win_lose_draw};
use crate::sum::{AnalysisError, Context, Sum};
use crate::value::Outcome;
use rustc_hash::FxHashMap;

/// The most positions the exact search explores before falling back.
pub const EXACT_POSITIONS: usize = 20_000;

/// The most units of work (moves listed) the exact search spends before falling back.
pub const EXACT_WORK: u64 = 2_000_000;

/// Why the computer chose its move.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Reason {
    /// A winning move: it leaves a position lost for the opponent; with `remoteness` the
    /// game ends in that many more moves at most.
    Winning {
        /// Moves left after this one with best play, when known exactly.
        remoteness: Option<u32>,
    },
    /// The position is lost: this move makes the game last longest.
    Delaying {
        /// Moves left after this one with best play.
        remoteness: u32,
    },
    /// Neither side can force a win: this move keeps the draw.
    Drawing,
    /// The position is lost, or too large to know, and too large to search whole: this move
    /// leaves the opponent the most moves.
    MostMoves {
        /// How many moves the opponent has after it.
        moves_left: u64,
    },
    /// The position is lost, or too large to know, and its moves are too many to list: this
    /// move takes as little as the rules allow.
    Least,
}

/// The computer's move and why.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Reply {
    /// The move.
    pub choice: Choice,
    /// Why this move.
    pub reason: Reason,
    /// The reason in a sentence.
    pub explanation: String,
}

/// The exact solution of a small position: its outcome and remoteness, and each legal move's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Who wins from the position, for the player to move.
    pub outcome: Outcome,
    /// Moves left with best play (`None` in a draw).
    pub remoteness: Option<u32>,
    /// For each legal move (in the order of [`Game::moves`]): the outcome of the position it
    /// leads to, for the player then to move, and that position's remoteness.
    pub options: Vec<(Outcome, Option<u32>)>,
    /// How many positions are reachable.
    pub positions: usize,
}

impl Solved {
    /// The numbers (from 1) of the best moves: those that win, or in a draw those that keep
    /// the draw. Empty in a lost position.
    pub fn best_numbers(&self) -> Vec<usize> {
        let good = match self.outcome {
            Outcome::N => Outcome::P,
            Outcome::Draw => Outcome::Draw,
            Outcome::P => return Vec::new(),
        };
        (1..=self.options.len())
            .filter(|&i| self.options[i - 1].0 == good)
            .collect()
    }
}

/// Explores and solves the whole position when it is small; `None` when it is too large
/// (more than [`EXACT_POSITIONS`] positions, `EXACT_WORK` work, or a component whose moves
/// cannot be listed). `moves` are the game's legal moves. Errors are the budget's (a limit or
/// a cancellation).
pub fn solve_exact(
    game: &Game,
    moves: &[Choice],
    ctx: &Context,
) -> Result<Option<Solved>, PlayError> {
    let Some((positions, adjacency, found)) = explore(game.position(), ctx)? else {
        return Ok(None);
    };
    let mut adjacency = adjacency;
    let n = adjacency.len() as u32;
    if game.misere() {
        let sink = n;
        for succ in &mut adjacency {
            if succ.is_empty() {
                succ.push(sink);
            }
        }
        adjacency.push(Vec::new());
    }
    let graph = Csr::from_adjacency(&adjacency);
    let reverse = graph.transpose();
    let (outcomes, remoteness) =
        win_lose_draw(&graph, &reverse, &mut crate::control::Control::none()).map_err(|_| {
            AnalysisError::budget(
                game.position().components[0].as_ref(),
                crate::control::BudgetError::Cancelled,
            )
        })?;
    let shift = u32::from(game.misere());
    let at = |v: u32| {
        let r = remoteness[v as usize];
        (
            outcomes[v as usize],
            (r != NO_REMOTENESS).then(|| r - shift),
        )
    };
    let mut options = Vec::with_capacity(moves.len());
    for m in moves {
        let v = found
            .find(&m.position)
            .ok_or_else(|| AnalysisError::Unsupported {
                component: m.result.clone(),
                reason: "a move's result was not met by the exploration".into(),
            })?;
        options.push(at(v));
    }
    let (outcome, remoteness) = at(0);
    Ok(Some(Solved {
        outcome,
        remoteness,
        options,
        positions,
    }))
}

type Explored = (usize, Vec<Vec<u32>>, Discovered);

/// Breadth-first exploration from `start` (vertex 0): the successor lists and the positions
/// met. `None` past the exact-search limits.
fn explore(start: &Sum, ctx: &Context) -> Result<Option<Explored>, PlayError> {
    let mut found = Discovered::new(start);
    let mut adjacency: Vec<Vec<u32>> = Vec::new();
    let mut work: u64 = 0;
    let mut next = 0;
    while next < found.count() {
        let position = found.position(next).clone();
        next += 1;
        let mut succ = Vec::new();
        for (i, c) in position.components.iter().enumerate() {
            let moves = match c.moves(ctx) {
                Ok(m) => m,
                Err(AnalysisError::Unsupported { .. }) => return Ok(None),
                Err(e) => return Err(e.into()),
            };
            let units = moves.len() as u64 + 1;
            work += units;
            ctx.budget
                .charge(units)
                .map_err(|e| AnalysisError::budget(c.as_ref(), e))?;
            if work > EXACT_WORK {
                return Ok(None);
            }
            for m in moves {
                let Some(to) = found.vertex(position.replaced(i, &m.result), EXACT_POSITIONS)
                else {
                    return Ok(None);
                };
                succ.push(to);
            }
        }
        adjacency.push(succ);
    }
    Ok(Some((found.count(), adjacency, found)))
}

/// The computer's move for the player to move in `game`.
pub fn reply(game: &Game, ctx: &Context) -> Result<Reply, PlayError> {
    let moves = match game.moves(ctx) {
        Ok(moves) => moves,
        Err(e) if super::unlisted(&e) => return unlisted_reply(game, ctx).map_err(|_| e),
        Err(e) => return Err(e),
    };
    if moves.is_empty() {
        return Err(PlayError::GameOver(game.winner_at_end()));
    }
    if let Some(solved) = solve_exact(game, &moves, ctx)? {
        return Ok(exact_reply(&solved, moves));
    }
    fallback_reply(game, moves, ctx)
}

fn exact_reply(solved: &Solved, moves: Vec<Choice>) -> Reply {
    let pick = |good: Outcome, longest: bool| {
        let mut best: Option<(usize, u32)> = None;
        for (i, &(o, r)) in solved.options.iter().enumerate() {
            if o != good {
                continue;
            }
            let r = r.unwrap_or(0);
            let better = match best {
                None => true,
                Some((_, b)) => (longest && r > b) || (!longest && r < b),
            };
            if better {
                best = Some((i, r));
            }
        }
        best
    };
    let (index, reason, explanation) = match solved.outcome {
        Outcome::N => {
            let (i, r) = pick(Outcome::P, false).unwrap_or((0, 0));
            let explanation = if r == 0 {
                "A winning move: it leaves the opponent no move.".to_string()
            } else {
                format!(
                    "A winning move: it leaves a lost position, and the game ends within {r} more {}.",
                    crate::words::plural(r, "move")
                )
            };
            (
                i,
                Reason::Winning {
                    remoteness: Some(r),
                },
                explanation,
            )
        }
        Outcome::P => {
            let (i, r) = pick(Outcome::N, true).unwrap_or((0, 0));
            (
                i,
                Reason::Delaying { remoteness: r },
                format!(
                    "Every move loses against best play; this one makes the game last longest ({r} more {}).",
                    crate::words::plural(r, "move")
                ),
            )
        }
        Outcome::Draw => {
            let i = solved
                .options
                .iter()
                .position(|&(o, _)| o == Outcome::Draw)
                .unwrap_or(0);
            (
                i,
                Reason::Drawing,
                "Neither side can force a win; this move keeps the game going.".to_string(),
            )
        }
    };
    Reply {
        choice: moves.into_iter().nth(index).expect("a legal move"),
        reason,
        explanation,
    }
}

/// The reply in a position whose moves are too many to list: the analysis's first winning
/// move, or else the move that takes least ([`Game::least_move`]).
fn unlisted_reply(game: &Game, ctx: &Context) -> Result<Reply, PlayError> {
    let analysis = match game.analysis(ctx) {
        Ok(a) => Some(a),
        Err(e) if e.budget_error() == Some(crate::control::BudgetError::Cancelled) => {
            return Err(e.into());
        }
        Err(_) => None,
    };
    if let Some(choice) = analysis
        .as_ref()
        .and_then(|a| game.winning_choices(a).into_iter().next())
    {
        return Ok(Reply {
            choice,
            reason: Reason::Winning { remoteness: None },
            explanation: "A winning move: it leaves a lost position for the opponent (the position is too large to count the moves left).".into(),
        });
    }
    let choice = game
        .least_move(ctx)?
        .ok_or(PlayError::GameOver(game.winner_at_end()))?;
    let why = match &analysis {
        Some(_) => "Every move loses against best play",
        None => "The position is too large to analyse",
    };
    Ok(Reply {
        choice,
        reason: Reason::Least,
        explanation: format!(
            "{why}; this move takes as little as the rules allow, to make the game last (the moves are too many to list)."
        ),
    })
}

fn fallback_reply(game: &Game, moves: Vec<Choice>, ctx: &Context) -> Result<Reply, PlayError> {
    let analysis = match game.analysis(ctx) {
        Ok(a) => Some(a),
        Err(e) if e.budget_error() == Some(crate::control::BudgetError::Cancelled) => {
            return Err(e.into());
        }
        Err(_) => None,
    };
    if let Some(a) = &analysis {
        if let Some(w) = a.winning_moves.first() {
            if let Some(i) = moves.iter().position(|m| m.result == w.result) {
                return Ok(Reply {
                    choice: moves.into_iter().nth(i).expect("a legal move"),
                    reason: Reason::Winning { remoteness: None },
                    explanation: "A winning move: it leaves a position of value 0 for the opponent (the position is too large to count the moves left).".into(),
                });
            }
        }
    }
    let mut counts: FxHashMap<String, u64> = FxHashMap::default();
    let mut best: Option<(usize, u64)> = None;
    for (i, m) in moves.iter().enumerate() {
        let mut left: u64 = 0;
        for c in &m.position.components {
            let key = c.to_string();
            let n = match counts.get(&key) {
                Some(&n) => n,
                None => {
                    let n = match c.moves(ctx) {
                        Ok(list) => list.len() as u64,
                        Err(AnalysisError::Unsupported { .. }) => u64::MAX / 4,
                        Err(e) => return Err(e.into()),
                    };
                    ctx.budget
                        .charge(n.min(1 << 20) + 1)
                        .map_err(|e| AnalysisError::budget(c.as_ref(), e))?;
                    counts.insert(key, n);
                    n
                }
            };
            left = left.saturating_add(n);
        }
        if best.is_none_or(|(_, b)| left > b) {
            best = Some((i, left));
        }
    }
    let (i, left) = best.unwrap_or((0, 0));
    let why = match &analysis {
        Some(_) => "Every move loses against best play",
        None => "The position is too large to analyse",
    };
    Ok(Reply {
        choice: moves.into_iter().nth(i).expect("a legal move"),
        reason: Reason::MostMoves { moves_left: left },
        explanation: format!(
            "{why}; this move leaves the opponent the most moves ({left}), to make the game last."
        ),
    })
}
