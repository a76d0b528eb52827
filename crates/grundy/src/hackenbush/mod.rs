//! Green Hackenbush: cut an edge, and whatever no longer touches the ground falls away.
//!
//! ```text
//! hackenbush 0-1 1-2 1-3                  a tree on the ground (vertex 0 is the ground)
//! hackenbush 0-1 1-2 2-0 2-3 3-3          a triangle, a stalk on it and a loop at the top
//! hackenbush 0-1 1-2 2-0 2-3 3-3 + nim 4  in a sum with any other game
//! ```
//!
//! A picture ([`Picture`]) is a multigraph on whole-numbered vertices; vertex 0 is the ground
//! (everything on the floor is that one vertex). Loops (`3-3`) and parallel edges are
//! allowed. A move cuts one edge connected to the ground; the edges no longer connected to
//! the ground fall and are gone. The player who cannot move loses.
//!
//! - [`value`]: the value in O(V + E) by the fusion principle (through the 2-edge-connected
//!   components) and the colon principle (on the tree that is left). Bamboo stalks are Nim
//!   heaps.
//! - [`HackenbushGame`]: the game for the generic engine ([`crate::solve::Solver`]), the
//!   reference the fast value is tested against.
//! - [`draw_text`], [`draw_dot`]: the picture drawn as a text tree, or as Graphviz DOT.
//!
//! A picture with no edge touching the ground is a legal position worth 0 (every edge has
//! already fallen: there is no move). Its edges are kept as written, so it prints back the
//! same, and the moves list is empty.
//!
//! References: E. R. Berlekamp, J. H. Conway, R. K. Guy, *Winning Ways*, ch. 7; T. S.
//! Ferguson, *Game Theory, Part I*, §6 (bamboo stalks, the colon principle on trees, the
//! fusion principle on general rooted graphs).

mod draw;
mod game;
mod picture;
mod value;

pub use draw::{draw_dot, draw_text};
pub use game::{HackenbushGame, Position};
pub use picture::{Edge, GROUND, Picture};
pub use value::value;

use crate::expr::{ExprError, Rule, TermSpec, no_params, some_args};
use crate::nimber::Nimber;
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Move};

/// The rule of the expression language: `hackenbush EDGE...`.
pub const RULES: &[Rule] = &[Rule {
    name: "hackenbush",
    usage: "hackenbush EDGE...   (edges u-v between vertex numbers; 0 is the ground)",
    summary: "Green Hackenbush: cut an edge, whatever is cut off from the ground falls",
    literal: false,
    build,
}];

/// Reads one picture written as an expression, `hackenbush 0-1 1-2 1-3` (for drawing).
///
/// ```
/// let p = grundy::hackenbush::parse_picture("hackenbush 0-1 1-1").unwrap();
/// assert_eq!(p.edges(), &[(0, 1), (1, 1)]);
/// assert!(grundy::hackenbush::parse_picture("nim 3").is_err());
/// ```
pub fn parse_picture(text: &str) -> Result<Picture, ExprError> {
    let spec = crate::expr::parse_spec(text)?;
    match spec.terms.as_slice() {
        [term] if term.rule.value == "hackenbush" => {
            no_params(term)?;
            Picture::from_args(some_args(term, RULES[0].usage)?)
        }
        [term] => Err(ExprError::new(
            term.rule.span.clone(),
            format!(
                "expected a Hackenbush picture such as `hackenbush 0-1 1-2`, found `{}`",
                crate::expr::shorten(&term.rule.value)
            ),
        )),
        _ => Err(ExprError::new(
            0..text.len(),
            "expected one Hackenbush picture such as `hackenbush 0-1 1-2`, not a sum",
        )),
    }
}

fn build(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    no_params(term)?;
    let args = some_args(term, RULES[0].usage)?;
    Ok(vec![Box::new(Picture::from_args(args)?)])
}

impl Component for Picture {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Hackenbush
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        "hackenbush".to_string()
    }
    fn notes(&self) -> Vec<String> {
        let total = self.edges().len();
        let grounded = self.grounded_edges().len();
        match total - grounded {
            0 => Vec::new(),
            floating if floating == total => vec![format!(
                "hackenbush {self}: no edge touches the ground, so the picture has already fallen: it is worth 0 and offers no move."
            )],
            1 => vec![format!(
                "hackenbush {self}: 1 of its {total} edges is not connected to the ground; it has fallen and counts for nothing."
            )],
            floating => vec![format!(
                "hackenbush {self}: {floating} of its {total} edges are not connected to the ground; they have fallen and count for nothing."
            )],
        }
    }

    fn args(&self) -> Vec<String> {
        self.edges()
            .iter()
            .map(|(a, b)| format!("{a}-{b}"))
            .collect()
    }

    fn value(&self, _ctx: &Context) -> Result<Nimber, AnalysisError> {
        Ok(value(self))
    }

    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        let mut solver = Solver::with_budget(HackenbushGame, &ctx.budget);
        solver
            .value(&HackenbushGame::position(self))
            .map_err(|e| AnalysisError::solve(self, e))
    }

    /// One move per edge connected to the ground (parallel copies of an edge are one move),
    /// to the picture that is left; cutting the last edge leaves nothing.
    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let edges = self.edges();
        // Each move copies the picture and finds what still hangs from the ground: O(E)
        // each, O(E²) in all. Refused before any is listed if the budget cannot afford it.
        let e = edges.len() as u64;
        let units = e
            .saturating_mul(e.saturating_add(1))
            .saturating_add(e.saturating_mul(crate::sum::MOVE_COST));
        // And the pictures left, each a copy of up to E edges (16 bytes each), all held at
        // once: checked against the memory limit too.
        ctx.budget
            .check_bytes(e.saturating_mul(e), 16)
            .map(|_| ())
            .and_then(|()| ctx.budget.afford(units))
            .and_then(|()| ctx.budget.charge(units))
            .map_err(|err| AnalysisError::budget(self, err))?;
        let mut moves = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        for i in self.grounded_edges() {
            let (a, b) = edges[i];
            if !seen.insert((a.min(b), a.max(b))) {
                continue;
            }
            let rest = self.cut(i);
            let result: Vec<Box<dyn Component>> = if rest.is_empty() {
                Vec::new()
            } else {
                vec![Box::new(rest)]
            };
            moves.push(Move {
                description: format!("cut {a}-{b}"),
                result,
            });
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
    use crate::sum::Engine;

    fn picture(text: &str) -> Picture {
        let spec = crate::expr::parse_spec(&format!("hackenbush {text}")).unwrap();
        Picture::from_args(&spec.terms[0].args).unwrap()
    }

    #[test]
    fn prints_back_as_written() {
        let p = picture("0-1 1-2 2-0 2-3 3-3");
        let c: &dyn Component = &p;
        assert_eq!(c.to_string(), "hackenbush 0-1 1-2 2-0 2-3 3-3");
    }

    #[test]
    fn winning_moves_cut_the_right_edge() {
        // 0-1 1-2 1-3: value 1; cutting the trunk leaves nothing (value 0).
        let p = picture("0-1 1-2 1-3");
        let ctx = Context::default();
        let wins = p.winning_moves_alone(&ctx).unwrap();
        let described: Vec<_> = wins.iter().map(|m| m.description.as_str()).collect();
        assert_eq!(described, ["cut 0-1"]);
        assert!(wins[0].result.is_empty());
        // Both engines agree on every move's value.
        for m in p.moves(&ctx).unwrap() {
            for r in &m.result {
                let generic = Context {
                    engine: Engine::Generic,
                    ..Context::default()
                };
                assert_eq!(r.value_in(&ctx).unwrap(), r.value_in(&generic).unwrap());
            }
        }
    }

    #[test]
    fn a_floating_picture_has_no_moves_and_value_zero() {
        let p = picture("1-2 2-3");
        let ctx = Context::default();
        assert_eq!(p.value(&ctx).unwrap(), Nimber::ZERO);
        assert_eq!(p.value_generic(&ctx).unwrap(), Nimber::ZERO);
        assert!(p.moves(&ctx).unwrap().is_empty());
    }
}
