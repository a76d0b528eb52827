//! Sums of tokens on a game graph: several tokens, a move moves one of them.
//!
//! The value of the sum follows from the tokens' values (Sprague–Grundy; C. A. B. Smith,
//! *Graphs and composite games*, 1966): all finite, the nim-sum, a P-position iff it is 0;
//! exactly one `∞(K)` with the others nim-summing to `b`, N if `b ∈ K` and a draw otherwise;
//! two or more infinite, a draw. A move is winning iff it leaves a P-position, so each move is
//! judged by the same rules applied to the values after it, in `O(1)` per move from the
//! running nim-sum and the count of infinite tokens.

use super::GraphSolution;
use super::csr::Csr;
use crate::nimber::Nimber;
use crate::value::{Outcome, Value, sum_outcome, sum_value};

/// A move of one token along one edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct TokenMove {
    /// Which token (its index in the list of tokens).
    pub token: usize,
    /// The vertex it leaves.
    pub from: u32,
    /// The vertex it moves to.
    pub to: u32,
}

/// The analysis of a sum of tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenSum {
    /// The value of the sum, when Smith's rules determine it (not with two or more infinite
    /// tokens).
    pub value: Option<Value>,
    /// Who wins.
    pub outcome: Outcome,
    /// Every move to a P-position (non-empty exactly when the outcome is N).
    pub winning_moves: Vec<TokenMove>,
    /// When the sum is a draw: every move that keeps it a draw (the others lose).
    pub drawing_moves: Vec<TokenMove>,
}

/// The value and outcome of the sum of tokens, by Smith's rules.
pub fn sum_of_tokens(
    graph: &Csr,
    solution: &GraphSolution,
    tokens: &[u32],
) -> (Option<Value>, Outcome) {
    let values: Vec<Value> = tokens.iter().map(|&t| solution.value(graph, t)).collect();
    (sum_value(&values), sum_outcome(&values))
}

/// The sum of tokens with its winning moves, or, in a draw, its drawing moves. Repeated
/// edges give one move.
pub fn analyze_tokens(graph: &Csr, solution: &GraphSolution, tokens: &[u32]) -> TokenSum {
    let (value, outcome) = sum_of_tokens(graph, solution, tokens);
    let mut finite_sum = 0u32;
    let mut infinite: Vec<usize> = Vec::new();
    for (i, &t) in tokens.iter().enumerate() {
        match solution.finite_value(t) {
            Some(x) => finite_sum ^= x,
            None => infinite.push(i),
        }
    }
    // The `K` of the infinite tokens, when one may be the only one left after a move.
    let token_sets: Vec<Vec<Nimber>> = if infinite.len() <= 2 {
        infinite
            .iter()
            .map(|&i| solution.infinite_set(graph, tokens[i]))
            .collect()
    } else {
        Vec::new()
    };
    let mut winning_moves = Vec::new();
    let mut drawing_moves = Vec::new();
    if outcome == Outcome::P {
        return TokenSum {
            value,
            outcome,
            winning_moves,
            drawing_moves,
        };
    }
    for (i, &from) in tokens.iter().enumerate() {
        let before = solution.finite_value(from);
        let mut followers = graph.successors(from).to_vec();
        followers.sort_unstable();
        followers.dedup();
        for to in followers {
            let after = solution.finite_value(to);
            let rest = finite_sum ^ before.unwrap_or(0);
            let infinite_after =
                infinite.len() - usize::from(before.is_none()) + usize::from(after.is_none());
            let result = match (infinite_after, after) {
                (0, Some(x)) => {
                    if rest ^ x == 0 {
                        Outcome::P
                    } else {
                        Outcome::N
                    }
                }
                (1, _) => {
                    let b = Nimber(u64::from(rest ^ after.unwrap_or(0)));
                    let holds = match after {
                        None => solution.infinite_set(graph, to).contains(&b),
                        Some(_) => {
                            // The one infinite token left is another token.
                            let j = infinite
                                .iter()
                                .position(|&j| j != i)
                                .expect("one infinite token");
                            token_sets[j].contains(&b)
                        }
                    };
                    if holds { Outcome::N } else { Outcome::Draw }
                }
                _ => Outcome::Draw,
            };
            let m = TokenMove { token: i, from, to };
            match (result, outcome) {
                (Outcome::P, _) => winning_moves.push(m),
                (Outcome::Draw, Outcome::Draw) => drawing_moves.push(m),
                _ => {}
            }
        }
    }
    TokenSum {
        value,
        outcome,
        winning_moves,
        drawing_moves,
    }
}
