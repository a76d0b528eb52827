//! The graph of positions reachable in a game, for any game expression.
//!
//! Breadth-first search from the starting [`Sum`], through each component's
//! [`Component::moves`](crate::sum::Component::moves): a move replaces one component by what
//! it becomes. Positions are identified by their sorted component texts ([`Sum::key`]), so
//! `nim 1 2` and `nim 2 1` are one vertex. Each vertex is named by the position as an
//! expression. The search counts its work against the context's [`Budget`](crate::control::Budget)
//! ([`MOVE_COST`] units a move, since each builds and hashes a position's text) and stops with
//! an error past a given number of positions, past the work limit, or when cancelled. Time and
//! memory are `O(E)` in the edges of the graph, times the length of a position's text.

use super::csr::Csr;
use super::{GameGraph, Names};
use crate::control::BudgetError;
use crate::sum::{AnalysisError, Context, Sum};
use rustc_hash::FxHashMap;

/// Why a game could not be explored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExploreError {
    /// More positions are reachable than allowed.
    #[error(
        "more than {limit} positions are reachable (the position limit); the game is too \
         large to explore as a graph"
    )]
    TooManyPositions {
        /// The limit.
        limit: usize,
    },
    /// More moves are reachable than a graph can hold.
    #[error(
        "more than {limit} moves are reachable (the most edges a graph can have); the game is \
         too large to explore as a graph"
    )]
    TooManyMoves {
        /// The limit.
        limit: u64,
    },
    /// The work limit was reached, or the exploration was cancelled.
    #[error("exploring the positions: {0}")]
    Budget(#[from] BudgetError),
    /// A component could not list its moves.
    #[error(transparent)]
    Moves(#[from] AnalysisError),
}

/// Units of work charged for each move explored: building the position it leaves, its text
/// and its hash costs about this many of the budget's units (a unit is 10 to 100 ns): under
/// the default work limit, ten million moves.
pub const MOVE_COST: u64 = 100;

impl ExploreError {
    /// The budget error behind this error, if a limit of the budget or a cancellation
    /// stopped the exploration.
    pub fn budget_error(&self) -> Option<BudgetError> {
        match self {
            ExploreError::Budget(b) => Some(*b),
            ExploreError::Moves(e) => e.budget_error(),
            ExploreError::TooManyPositions { .. } | ExploreError::TooManyMoves { .. } => None,
        }
    }
}

/// The graph of positions reachable from `start`; vertex 0 is `start`. At most
/// `max_positions` vertices, and the moves explored are charged to `ctx.budget`.
pub fn explore(
    start: &Sum,
    ctx: &Context,
    max_positions: usize,
) -> Result<GameGraph, ExploreError> {
    let mut sources = Vec::new();
    let mut targets = Vec::new();
    let max_positions = max_positions.min(super::csr::MAX_VERTICES as usize);
    if max_positions == 0 {
        return Err(ExploreError::TooManyPositions { limit: 0 });
    }
    let mut found = Discovered::new(start);
    let mut next = 0;
    while next < found.count() {
        let position = found.position(next).clone();
        let from = next as u32;
        next += 1;
        ctx.budget.check()?;
        for (i, component) in position.components.iter().enumerate() {
            let moves = component.moves(ctx)?;
            ctx.budget
                .charge((moves.len() as u64).saturating_mul(MOVE_COST))?;
            for m in moves {
                if sources.len() as u64 >= super::csr::MAX_EDGES {
                    return Err(ExploreError::TooManyMoves {
                        limit: super::csr::MAX_EDGES,
                    });
                }
                let to = found
                    .vertex(position.replaced(i, &m.result), max_positions)
                    .ok_or(ExploreError::TooManyPositions {
                        limit: max_positions,
                    })?;
                sources.push(from);
                targets.push(to);
            }
        }
    }
    let positions = found.into_positions();
    let csr = Csr::from_edges(positions.len() as u32, &sources, &targets);
    Ok(GameGraph {
        csr,
        names: Names::Listed(positions.iter().map(Sum::to_string).collect()),
    })
}

/// The positions an exploration has met, numbered in the order met (the start is 0), each
/// found again by its key ([`Sum::key`]: sums that differ only in order are one position).
#[derive(Debug)]
pub(crate) struct Discovered {
    ids: FxHashMap<Vec<String>, u32>,
    positions: Vec<Sum>,
}

impl Discovered {
    /// The start alone, numbered 0.
    pub(crate) fn new(start: &Sum) -> Self {
        let mut ids = FxHashMap::default();
        ids.insert(start.key(), 0);
        Discovered {
            ids,
            positions: vec![start.clone()],
        }
    }

    /// How many positions are known.
    pub(crate) fn count(&self) -> usize {
        self.positions.len()
    }

    /// Position number `v`.
    pub(crate) fn position(&self, v: usize) -> &Sum {
        &self.positions[v]
    }

    /// The number of `sum`: the one it got when first met, or the next one; `None` when it is
    /// new and `limit` positions are known already.
    pub(crate) fn vertex(&mut self, sum: Sum, limit: usize) -> Option<u32> {
        let key = sum.key();
        if let Some(&v) = self.ids.get(&key) {
            return Some(v);
        }
        if self.positions.len() >= limit {
            return None;
        }
        let v = self.positions.len() as u32;
        self.ids.insert(key, v);
        self.positions.push(sum);
        Some(v)
    }

    /// The number of a position met before.
    pub(crate) fn find(&self, sum: &Sum) -> Option<u32> {
        self.ids.get(&sum.key()).copied()
    }

    /// The positions, in the order met.
    pub(crate) fn into_positions(self) -> Vec<Sum> {
        self.positions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::graph::solve;
    use crate::nimber::Nimber;
    use crate::value::Value;

    #[test]
    fn explored_values_match_the_components() {
        let ctx = Context::default();
        for text in [
            "nim 3",
            "nim 2 3",
            "nim 1 2 3",
            "wythoff 2 3",
            "staircase 3 1 2",
            "nim 2 + wythoff 1 2",
        ] {
            let sum = crate::catalog::parse(text).unwrap();
            let graph = explore(&sum, &ctx, 10_000).unwrap();
            assert_eq!(graph.name(0), sum.to_string());
            let solution = solve(&graph.csr, &mut Control::none()).unwrap();
            assert!(solution.acyclic);
            // Every vertex's value is the nim-sum of its components' values.
            for v in 0..graph.vertex_count() as u32 {
                let position = crate::catalog::parse(&graph.name(v)).unwrap();
                let mut expected = Nimber::ZERO;
                for c in &position.components {
                    expected ^= c.value(&ctx).unwrap();
                }
                assert_eq!(
                    solution.value(&graph.csr, v),
                    Value::Finite(expected),
                    "{text}: {}",
                    graph.name(v)
                );
            }
        }
    }

    #[test]
    fn sums_are_identified_up_to_order() {
        let sum = crate::catalog::parse("nim 1 2").unwrap();
        let graph = explore(&sum, &Context::default(), 100).unwrap();
        // {1,2}, {0,2}, {1,1}, {1,0}, {0,1} = {1,0}, {0,0}: five positions.
        assert_eq!(graph.vertex_count(), 5);
    }

    #[test]
    fn the_limit_is_an_error() {
        let sum = crate::catalog::parse("nim 30 30 30").unwrap();
        let e = explore(&sum, &Context::default(), 100).unwrap_err();
        assert_eq!(e, ExploreError::TooManyPositions { limit: 100 });
        assert!(e.to_string().contains("more than 100 positions"));
        assert!(
            !e.to_string().contains("--"),
            "no flag in a library message: {e}"
        );
    }

    #[test]
    fn exploration_counts_its_work_and_stops_when_cancelled() {
        use crate::control::Limits;
        // nim 3000 + nim 1: 6,002 positions but 9 million moves.
        let sum = crate::catalog::parse("nim 3000 + nim 1").unwrap();
        let limits = Limits {
            max_work: 1_000_000,
            ..Limits::DEFAULT
        };
        let ctx = Context::new(crate::sum::Engine::Fast, limits);
        let e = explore(&sum, &ctx, 100_000).unwrap_err();
        assert_eq!(
            e.budget_error(),
            Some(BudgetError::Work { limit: 1_000_000 })
        );
        let ctx = Context::default();
        ctx.budget.cancel();
        let e = explore(&sum, &ctx, 100_000).unwrap_err();
        assert_eq!(e.budget_error(), Some(BudgetError::Cancelled));
        assert_eq!(e.to_string(), "exploring the positions: interrupted");
    }
}
