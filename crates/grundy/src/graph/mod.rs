//! Explicit game graphs: every impartial game is a token moving along the edges of a directed
//! graph of positions, and several tokens are a sum.
//!
//! - [`csr`]: compact storage (`u32` indices) for graphs of tens of millions of edges.
//! - [`read`]: a named edge list and the classic judge format, parsed at disk speed.
//! - [`acyclic`]: Sprague–Grundy values and remoteness in `O(V + E)`.
//! - [`loopy`]: win / lose / draw with remoteness by retrograde analysis, and Smith's
//!   generalised Sprague–Grundy function `∞(K)`.
//! - `tokens`: sums of tokens (Smith's rules) and the best moves in them.
//! - [`kernel`]: kernels, by the P-positions where they decide it and a SAT solver elsewhere.
//! - [`draw`]: Graphviz DOT and SVG pictures.
//! - [`explore`]: the graph of positions reachable in any game expression.
//!
//! [`solve`] picks the algorithm: a graph without cycles gets the linear-time acyclic pass,
//! one with cycles the retrograde analysis and the generalised function.
//!
//! ```
//! use grundy::graph::{read::{read_edge_list, ReadOptions}, solve};
//! use grundy::{Outcome, Value, Nimber};
//! let graph = read_edge_list("a b\nb c\nc a\nc d\n".as_bytes(), &ReadOptions::default()).unwrap();
//! let solution = solve(&graph.csr, &mut grundy::control::Control::none()).unwrap();
//! let d = graph.find("d").unwrap();
//! let c = graph.find("c").unwrap();
//! assert_eq!(solution.value(&graph.csr, d), Value::Finite(Nimber(0)));
//! assert_eq!(solution.outcome(c), Outcome::N);
//! assert_eq!(solution.remoteness(c), Some(1));
//! ```

pub mod acyclic;
pub mod csr;
pub mod draw;
pub mod explore;
pub mod kernel;
pub mod loopy;
pub mod read;
pub(crate) mod tokens;

use crate::control::Control;
use crate::nimber::Nimber;
use crate::value::{Outcome, Value};
use std::borrow::Cow;

pub use acyclic::{AcyclicValues, solve_acyclic};
pub use csr::Csr;
pub use draw::{DrawError, to_dot, to_svg};
pub use explore::ExploreError;
pub use kernel::{KernelError, KernelReport, find_kernel, find_kernel_within, is_kernel};
pub use loopy::{generalized_values, win_lose_draw};
pub use read::{JudgeInput, ReadError, ReadOptions, read_edge_list, read_judge};
pub use tokens::{TokenMove, TokenSum, analyze_tokens, sum_of_tokens};

/// Why a graph computation stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// The caller asked it to stop.
    #[error("interrupted")]
    Cancelled,
}

/// How the vertices of a graph are named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Names {
    /// Vertex `i` is named `i + 1` (the judge format).
    Numbered,
    /// Each vertex has its own name.
    Listed(Vec<String>),
}

/// A game graph with vertex names.
#[derive(Clone, Debug)]
pub struct GameGraph {
    /// The edges: from each position to its options.
    pub csr: Csr,
    /// The vertices' names.
    pub names: Names,
}

impl GameGraph {
    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.csr.vertex_count()
    }

    /// The name of vertex `v`.
    pub fn name(&self, v: u32) -> Cow<'_, str> {
        match &self.names {
            Names::Numbered => Cow::Owned((u64::from(v) + 1).to_string()),
            Names::Listed(names) => Cow::Borrowed(&names[v as usize]),
        }
    }

    /// The vertex with this name, if any.
    pub fn find(&self, name: &str) -> Option<u32> {
        match &self.names {
            Names::Numbered => name
                .parse::<u64>()
                .ok()
                .filter(|&i| i >= 1 && i <= self.vertex_count() as u64)
                .map(|i| (i - 1) as u32),
            Names::Listed(names) => names.iter().position(|n| n == name).map(|i| i as u32),
        }
    }
}

/// Everything known about each vertex of a game graph: its (generalised) Sprague–Grundy
/// value, its outcome and its remoteness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphSolution {
    /// Whether the graph has no cycle (then every value is finite and there are no draws).
    pub acyclic: bool,
    /// The value of each vertex, [`loopy::INFINITE`] for `∞(K)`.
    values: Vec<u32>,
    outcomes: Vec<Outcome>,
    /// [`loopy::NO_REMOTENESS`] for draws.
    remoteness: Vec<u32>,
}

impl GraphSolution {
    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the graph has no vertices.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The finite value of `v`, or `None` for `∞(K)`.
    pub fn finite_value(&self, v: u32) -> Option<u32> {
        let x = self.values[v as usize];
        (x != loopy::INFINITE).then_some(x)
    }

    /// The generalised Sprague–Grundy value of `v` (for `∞(K)`, `K` is read off the
    /// followers, so the graph is needed).
    pub fn value(&self, graph: &Csr, v: u32) -> Value {
        match self.finite_value(v) {
            Some(x) => Value::Finite(Nimber(u64::from(x))),
            None => Value::Infinite(self.infinite_set(graph, v)),
        }
    }

    /// The finite values among the followers of `v`, sorted without repeats: the `K` of
    /// `∞(K)`.
    pub fn infinite_set(&self, graph: &Csr, v: u32) -> Vec<Nimber> {
        let mut k: Vec<Nimber> = graph
            .successors(v)
            .iter()
            .filter_map(|&w| self.finite_value(w))
            .map(|x| Nimber(u64::from(x)))
            .collect();
        k.sort_unstable();
        k.dedup();
        k
    }

    /// Who wins from `v` with the token alone.
    pub fn outcome(&self, v: u32) -> Outcome {
        self.outcomes[v as usize]
    }

    /// Moves to the end of the game with best play (the winner hurrying, the loser delaying),
    /// `None` for a draw.
    pub fn remoteness(&self, v: u32) -> Option<u32> {
        let r = self.remoteness[v as usize];
        (r != loopy::NO_REMOTENESS).then_some(r)
    }

    /// A solution from its columns (the distributed solver's, gathered).
    #[cfg(feature = "cluster")]
    pub(crate) fn from_parts(
        acyclic: bool,
        values: Vec<u32>,
        outcomes: Vec<Outcome>,
        remoteness: Vec<u32>,
    ) -> GraphSolution {
        GraphSolution {
            acyclic,
            values,
            outcomes,
            remoteness,
        }
    }

    /// Every outcome, by vertex.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }
}

/// Solves a game graph: values, outcomes and remoteness of every vertex. A graph without
/// cycles takes one linear pass ([`acyclic`]); a graph with cycles takes the retrograde
/// analysis and the generalised function ([`loopy`]), which also need the reversed graph.
pub fn solve(graph: &Csr, control: &mut Control) -> Result<GraphSolution, GraphError> {
    if let Some(a) = acyclic::solve_acyclic(graph, true, control)? {
        let outcomes = a
            .values
            .iter()
            .map(|&x| if x == 0 { Outcome::P } else { Outcome::N })
            .collect();
        return Ok(GraphSolution {
            acyclic: true,
            values: a.values,
            outcomes,
            remoteness: a.remoteness,
        });
    }
    let reverse = graph.transpose();
    let (outcomes, remoteness) = loopy::win_lose_draw(graph, &reverse, control)?;
    let values = loopy::generalized_values(graph, &reverse, control)?;
    Ok(GraphSolution {
        acyclic: false,
        values,
        outcomes,
        remoteness,
    })
}

/// The judge-format answer: who wins the sum of tokens, [`Outcome::N`] when the first player
/// wins, [`Outcome::P`] when the first player loses and [`Outcome::Draw`] when neither can
/// force a win (only possible in a graph with cycles). Acyclic graphs take the linear pass and
/// a nim-sum; graphs with cycles follow Smith's rules.
///
/// ```
/// use grundy::graph::{judge_outcome, read::{read_judge, ReadOptions}};
/// use grundy::{control::Control, Outcome};
/// // 1 -> 2 -> 1: the token runs round the cycle for ever.
/// let input = read_judge("2 2 1\n1 2\n2 1\n1\n".as_bytes(), &ReadOptions::default()).unwrap();
/// let outcome = judge_outcome(&input.graph, &input.tokens, &mut Control::none()).unwrap();
/// assert_eq!(outcome, Outcome::Draw);
/// ```
pub fn judge_outcome(
    graph: &Csr,
    tokens: &[u32],
    control: &mut Control,
) -> Result<Outcome, GraphError> {
    if let Some(a) = acyclic::solve_acyclic(graph, false, control)? {
        let sum = tokens.iter().fold(0u32, |s, &t| s ^ a.values[t as usize]);
        return Ok(if sum != 0 { Outcome::N } else { Outcome::P });
    }
    let solution = solve(graph, control)?;
    Ok(tokens::sum_of_tokens(graph, &solution, tokens).1)
}

/// Whether the first player wins the sum of tokens (a draw is not a win): see
/// [`judge_outcome`], which tells a loss from a draw.
pub fn first_player_wins(
    graph: &Csr,
    tokens: &[u32],
    control: &mut Control,
) -> Result<bool, GraphError> {
    Ok(judge_outcome(graph, tokens, control)? == Outcome::N)
}
