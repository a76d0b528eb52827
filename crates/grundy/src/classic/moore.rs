//! Moore's Nim_k (E. H. Moore, 1910): a move takes tokens from at least one and at most `k`
//! heaps. Nim is Moore's Nim_1.
//!
//! Moore's theorem: a position is a P-position exactly when, writing the heaps in binary, the
//! number of heaps with a 1 in each bit position is a multiple of `k + 1`. No closed form is
//! known for the values, so values come from the generic engine (with a limit), while the
//! outcome and the winning moves of a position played alone come from the theorem.

use super::MAX_LISTED_MOVES;
use crate::Nimber;
use crate::expr::{ExprError, TermSpec, parse_u64, required_params, some_args};
use crate::game::ImpartialGame;
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Move};
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
pub fn moore_is_p(k: u64, heaps: &[u64]) -> bool {
    (0..64).all(|bit| {
        let ones = heaps.iter().filter(|&&h| h >> bit & 1 == 1).count() as u64;
        ones % (k + 1) == 0
    })
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

impl MooreNim {
    /// Positions below this one, an upper bound on what the generic engine stores.
    fn positions_below(&self) -> Option<u64> {
        self.heaps
            .iter()
            .try_fold(1u64, |acc, &h| acc.checked_mul(h.checked_add(1)?))
    }

    fn check_size(&self, limit: usize) -> Result<(), AnalysisError> {
        if self.positions_below().is_none_or(|p| p > limit as u64) {
            return Err(AnalysisError::unsupported(
                self,
                format!(
                    "no closed form is known for the values of Moore's Nim, and this position has \
                     more than {limit} positions below it (the generic engine's limit); its \
                     outcome is known by Moore's theorem: analyse it on its own"
                ),
            ));
        }
        Ok(())
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
    fn rule(&self) -> String {
        format!("moore({})", self.k)
    }
    fn args(&self) -> Vec<String> {
        self.heaps.iter().map(u64::to_string).collect()
    }
    /// Moore's Nim_1 is Nim (the nim-sum); otherwise the generic engine.
    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        if self.k == 1 {
            return Ok(Nimber(self.heaps.iter().fold(0, |a, b| a ^ b)));
        }
        self.value_generic(ctx)
    }
    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        self.check_size(ctx.limits().max_positions)?;
        let mut sorted = self.heaps.clone();
        sorted.sort_unstable();
        Solver::with_budget(MooreGame { k: self.k }, &ctx.budget)
            .value(&sorted)
            .map_err(|e| AnalysisError::solve(self, e))
    }
    fn moves(&self, _ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        // Count first: sum over subsets is at most prod(h + 1).
        if self.positions_below().is_none_or(|p| p > MAX_LISTED_MOVES) {
            return Err(AnalysisError::unsupported(
                self,
                format!("too many moves to list (limit {MAX_LISTED_MOVES})"),
            ));
        }
        let mut out = Vec::new();
        for_each_option(self.k, &self.heaps, |next| out.push(self.describe(next)));
        Ok(out)
    }
    fn outcome(&self, _ctx: &Context) -> Result<Outcome, AnalysisError> {
        Ok(if moore_is_p(self.k, &self.heaps) {
            Outcome::P
        } else {
            Outcome::N
        })
    }
    /// The moves to P-positions by Moore's theorem.
    fn winning_moves_alone(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        self.moves(ctx)?; // the same limit on how many moves may be listed
        let mut out = Vec::new();
        for_each_option(self.k, &self.heaps, |next| {
            if moore_is_p(self.k, next) {
                out.push(self.describe(next));
            }
        });
        Ok(out)
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
