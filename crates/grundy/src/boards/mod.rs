//! Board and graph games: Cram, Node Kayles, Arc Kayles and Chomp, each the value of one
//! big position, found by the position search ([`crate::search`]).
//!
//! ```text
//! cram 5x7                      Cram on a 5 x 7 board: place a domino on two free neighbours
//! cram ##..#/....#/#....        any board shape: rows separated by `/`, `#` blocked, `.` free
//! cram 3x3 4x5                  two boards (a sum)
//! node-kayles 0-1 1-2 2-3 3-0 2-4    a graph: take a vertex, it and its neighbours leave
//! node-kayles 0-1 5             an edge and an isolated vertex 5
//! node-kayles 3x14              Node Kayles on a grid graph (also any board shape)
//! arc-kayles 0-1 1-2 2-0        take an edge: its two ends leave
//! chomp 6x7                     Chomp on 6 rows of 7 (the top-left square is poisoned)
//! chomp 6,6,4,1                 Chomp from row lengths, top row first
//! ```
//!
//! Theory first: an even × even board is 0 for Cram and for Node Kayles (the second player
//! mirrors every move through the centre; a cell is never next to its own image); an
//! even × odd Cram board and an odd × odd Node Kayles board are first-player wins (take the
//! centre, then mirror), though their values need the search; a 1 × n board is Dawson's
//! Kayles (0.07) for Cram and Dawson's chess (0.137) for Node Kayles, and a graph that is a
//! union of paths and cycles is answered through those octal games at any size. A Chomp
//! rectangle is a first-player win by strategy stealing.
//!
//! Every position prints back to an expression that parses to the same game; moves are
//! described in the game's words: `domino (1,2)-(1,3)` (row, column from the top left),
//! `take (2,2)`, `take vertex 3`, `take edge 0-1`, `bite (2,3)`.
//!
//! References: Berlekamp, Conway and Guy, *Winning Ways*, ch. 2 and 5 (Cram, Dawson's
//! chess, Node and Arc Kayles), D. Gale, "A curious Nim-type game" (Chomp, 1974); values of
//! large boards: J. Lemoine and S. Viennot, *Nimbers are inevitable* (2012), J. W. H. M.
//! Uiterwijk, *Solving Cram using combinatorial game theory* (2019), P. Beling and M.
//! Rogalski, *On pruning search trees of impartial games* (2020).
//!
//! ```
//! let a = grundy::analyze("cram 4x5 + node-kayles 3x4", &Default::default()).unwrap();
//! assert_eq!(a.components[0].value, Some(grundy::Nimber(2)));
//! assert_eq!(a.components[1].value, Some(grundy::Nimber(0)));
//! ```

pub(crate) mod board;
pub(crate) mod chomp;
pub mod cram;
pub(crate) mod graph;
pub(crate) mod grid;
pub(crate) mod plain;
pub mod staircase;

pub use board::{Board, BoardGame};
pub use chomp::{Chomp, ChompBoard, ChompGame};
pub use cram::CramGame;
pub use graph::{GraphGame, GraphGameComponent, GraphRule};
pub use grid::{GridGame, GridRule, Region};

use crate::expr::{ExprError, Rule, TermSpec, no_params, some_args};
use crate::heap::component::HeapComponent;
use crate::heap::rules::HeapRule;
use crate::search::SearchError;
use crate::sum::{AnalysisError, Component, Context};
use std::sync::Arc;

/// The rules of the expression language.
pub const RULES: &[Rule] = &[
    Rule {
        name: "cram",
        usage: "cram BOARD...   (RxC, or rows of `.` free and `#` blocked separated by `/`)",
        summary: "Cram: place a domino on two free neighbouring cells",
        literal: false,
        build: build_cram,
    },
    Rule {
        name: "node-kayles",
        usage: "node-kayles EDGE|VERTEX...  or  node-kayles BOARD   (edges u-v, lone vertices v)",
        summary: "Node Kayles: take a vertex, it and its neighbours leave",
        literal: false,
        build: build_node_kayles,
    },
    Rule {
        name: "arc-kayles",
        usage: "arc-kayles EDGE|VERTEX...   (edges u-v, lone vertices v)",
        summary: "Arc Kayles: take an edge, its two ends leave",
        literal: false,
        build: build_arc_kayles,
    },
    Rule {
        name: "chomp",
        usage: "chomp RxC|ROWS...   (ROWS: row lengths a,b,c from the top, never increasing)",
        summary: "Chomp: bite a square and all below and right of it; the top-left is poisoned",
        literal: false,
        build: build_chomp,
    },
];

fn build_cram(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    no_params(term)?;
    some_args(term, RULES[0].usage)?
        .iter()
        .map(|a| {
            Ok(Box::new(BoardGame::new(GridRule::Cram, Board::parse(a)?)) as Box<dyn Component>)
        })
        .collect()
}

fn build_node_kayles(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    no_params(term)?;
    let args = some_args(term, RULES[1].usage)?;
    if let [one] = args {
        if board::looks_like_board(&one.value) {
            return Ok(vec![Box::new(BoardGame::new(
                GridRule::NodeKayles,
                Board::parse(one)?,
            ))]);
        }
    }
    if let Some(a) = args.iter().find(|a| board::looks_like_board(&a.value)) {
        return Err(ExprError::new(
            a.span.clone(),
            "a board must be the only argument of `node-kayles` (a graph is written as edges u-v and vertices)",
        ));
    }
    Ok(vec![Box::new(GraphGameComponent::parse(
        GraphRule::NodeKayles,
        args,
    )?)])
}

fn build_arc_kayles(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    no_params(term)?;
    let args = some_args(term, RULES[2].usage)?;
    Ok(vec![Box::new(GraphGameComponent::parse(
        GraphRule::ArcKayles,
        args,
    )?)])
}

fn build_chomp(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    no_params(term)?;
    some_args(term, RULES[3].usage)?
        .iter()
        .map(|a| {
            Ok(Box::new(Chomp {
                board: ChompBoard::parse(a)?,
            }) as Box<dyn Component>)
        })
        .collect()
}

/// The value of heap `n` of the octal game `code`, from the heap engine (any size, through
/// its proven period).
pub(crate) fn heap_value(
    component: &dyn Component,
    code: &str,
    n: u64,
    ctx: &Context,
) -> Result<u64, AnalysisError> {
    let rule =
        HeapRule::parse(code).map_err(|e| AnalysisError::unsupported(component, e.message))?;
    Ok(HeapComponent::new(Arc::new(rule), n).value(ctx)?.0)
}

/// A search error as an analysis error of `component`.
pub(crate) fn search_error(component: &dyn Component, e: SearchError) -> AnalysisError {
    match e {
        SearchError::Budget(b) => AnalysisError::budget(component, b),
        SearchError::TooDeep { .. } | SearchError::Superseded => {
            AnalysisError::unsupported(component, e.to_string())
        }
    }
}

/// Charges the listing of `moves` moves of a component of `size` cells, squares, vertices
/// or edges: each move copies the position and its result is printed and looked up, work
/// proportional to the size. One unit per move and one more per 32 of size keeps a long
/// misère or generic search over big boards in step with its real cost, so that it is
/// refused promptly under a small budget.
pub(crate) fn charge_listing(
    component: &dyn Component,
    moves: usize,
    size: usize,
    ctx: &Context,
) -> Result<(), AnalysisError> {
    let units = (moves as u64).saturating_mul(1 + size as u64 / 32);
    ctx.budget
        .charge(units)
        .map_err(|e| AnalysisError::budget(component, e))
}
