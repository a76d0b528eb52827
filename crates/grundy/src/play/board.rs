//! Tokens on an explicit game graph as components, so that a game on a graph (with cycles and
//! draws) is played like any other sum: a move moves one token along one edge.
//!
//! Values are Smith's generalised ones ([`crate::graph::solve`]): a token on a vertex of
//! finite value is that nimber; on a vertex of value `∞(K)` it has no nimber, and the
//! analysis of sums through nim-sums does not apply, so the game's exact search (which
//! handles cycles and draws, see `super::opponent`) decides who wins.
//!
//! ```
//! use grundy::graph::read::{read_edge_list, ReadOptions};
//! use grundy::play::{board::tokens, Game, Player};
//! use grundy::sum::Context;
//! use grundy::value::Outcome;
//! // a and b chase each other forever unless someone steps out to c.
//! let graph = read_edge_list("a b\nb a\nb c\n".as_bytes(), &ReadOptions::default()).unwrap();
//! let sum = tokens(graph, &["a"]).unwrap();
//! let game = Game::from_sum(sum, false, Player::Human);
//! let hint = game.hint(&Context::default()).unwrap();
//! assert_eq!(hint.outcome, Outcome::P); // from a the only move is to b, which moves to c and wins
//! ```

use crate::control::Control;
use crate::graph::{GameGraph, GraphSolution, solve};
use crate::nimber::Nimber;
use crate::sum::{AnalysisError, Component, Context, Move, Sum};
use crate::value::{Outcome, Value};
use std::sync::Arc;

/// A graph and its solution, shared by its tokens.
#[derive(Debug)]
pub struct Board {
    /// The graph.
    pub graph: GameGraph,
    /// Every vertex's value, outcome and remoteness.
    pub solution: GraphSolution,
}

/// One token on a vertex of a board.
#[derive(Clone, Debug)]
pub struct Token {
    board: Arc<Board>,
    vertex: u32,
}

/// Why tokens could not be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// No vertex has this name.
    #[error("the graph has no vertex named `{0}`")]
    NoVertex(String),
    /// The solver was cancelled.
    #[error("the graph could not be solved: {0}")]
    Solve(String),
}

/// The sum of tokens on `graph` at the vertices named `names`.
pub fn tokens(graph: GameGraph, names: &[&str]) -> Result<Sum, BoardError> {
    let solution =
        solve(&graph.csr, &mut Control::none()).map_err(|e| BoardError::Solve(e.to_string()))?;
    let board = Arc::new(Board { graph, solution });
    let mut components: Vec<Box<dyn Component>> = Vec::with_capacity(names.len());
    for name in names {
        let vertex = board
            .graph
            .find(name)
            .ok_or_else(|| BoardError::NoVertex((*name).to_string()))?;
        components.push(Box::new(Token {
            board: Arc::clone(&board),
            vertex,
        }));
    }
    Ok(Sum::new(components))
}

impl Token {
    /// The token's generalised value.
    pub fn generalized_value(&self) -> Value {
        self.board
            .solution
            .value(&self.board.graph.csr, self.vertex)
    }
}

impl Component for Token {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Token
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        "token".into()
    }
    fn args(&self) -> Vec<String> {
        vec![self.board.graph.name(self.vertex).into_owned()]
    }
    fn joins(&self) -> bool {
        true
    }
    fn value(&self, _ctx: &Context) -> Result<Nimber, AnalysisError> {
        match self.generalized_value() {
            Value::Finite(n) => Ok(n),
            v => Err(AnalysisError::unsupported(
                self,
                format!(
                    "its value is {v}: the game can go on forever from here, so it has no nimber"
                ),
            )),
        }
    }
    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        self.value(ctx)
    }
    fn outcome(&self, _ctx: &Context) -> Result<Outcome, AnalysisError> {
        Ok(self.board.solution.outcome(self.vertex))
    }
    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let mut next = self.board.graph.csr.successors(self.vertex).to_vec();
        ctx.budget
            .afford(next.len() as u64)
            .map_err(|e| AnalysisError::budget(self, e))?;
        next.sort_unstable();
        next.dedup();
        let from = self.board.graph.name(self.vertex);
        Ok(next
            .into_iter()
            .map(|to| Move {
                description: format!("{from} -> {}", self.board.graph.name(to)),
                result: vec![Box::new(Token {
                    board: Arc::clone(&self.board),
                    vertex: to,
                })],
            })
            .collect())
    }
    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(self.clone())
    }
}
