//! The analysis of a position: value, outcome, every winning move, and why.
//!
//! Normal play: the value of a sum is the nim-sum of its components' values (Sprague–Grundy);
//! the position is P exactly when that is 0, and a winning move changes one component of value
//! `v` into a position of value `v ⊕ s`, `s` the nim-sum (Bouton's argument, Ferguson ch. 2).
//! Misère play: Nim by Bouton's misère rule; otherwise a sum of heaps of one rule through its
//! misère quotient, a sum of tame games by Conway's rule, and anything else by searching the
//! whole position, since misère values do not add over sums ([`crate::misere`]).

use crate::Nimber;
mod misere_theory;
pub mod picture;
mod search;
pub mod teach;

use crate::catalog;
use crate::classic::misere_nim_is_p;
use crate::expr::ExprError;
use crate::sum::{AnalysisError, Component, Context, Move, Sum};
use crate::value::Outcome;

/// What to analyse and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Misère play: the player who makes the last move loses.
    pub misere: bool,
    /// The engine and its limits.
    pub context: Context,
}

/// One component of the analysed sum.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ComponentReport {
    /// The component as an expression.
    pub expression: String,
    /// Its value, where one was computed.
    pub value: Option<Nimber>,
    /// Its genus (misère play), where one was computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub genus: Option<crate::misere::genus::Genus>,
}

/// A winning move in the whole position.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct WinningMove {
    /// Which component moves (0-based, in the order written).
    pub component: usize,
    /// What the move does, such as `13 -> 4`.
    #[serde(rename = "move")]
    pub description: String,
    /// The whole position after the move, as an expression.
    pub result: String,
}

/// The result of an analysis.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Analysis {
    /// The position, as a canonical expression.
    pub expression: String,
    /// Whether the analysis is for misère play.
    pub misere: bool,
    /// The Sprague–Grundy value (normal play), if it could be computed.
    pub value: Option<Nimber>,
    /// Who wins.
    pub outcome: Outcome,
    /// The components and their values.
    pub components: Vec<ComponentReport>,
    /// Every winning move (none in a P-position).
    pub winning_moves: Vec<WinningMove>,
    /// Why, in sentences a teacher would write.
    pub explanation: Vec<String>,
}

/// Why an expression could not be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalyzeError {
    /// The expression is malformed or invalid.
    #[error("{0}")]
    Expr(#[from] ExprError),
    /// A component could not be analysed.
    #[error("{0}")]
    Analysis(#[from] AnalysisError),
}

/// Parses and analyses an expression.
pub fn analyze(text: &str, options: &Options) -> Result<Analysis, AnalyzeError> {
    let sum = catalog::parse(text)?;
    Ok(analyze_sum(&sum, options)?)
}

/// Analyses a checked position.
pub fn analyze_sum(sum: &Sum, options: &Options) -> Result<Analysis, AnalysisError> {
    if options.misere {
        misere(sum, &options.context)
    } else {
        normal(sum, &options.context)
    }
}

fn binary(v: u64, width: usize) -> String {
    format!("{v:0width$b}")
}

pub(crate) fn winning(
    sum: &Sum,
    index: usize,
    moves: Vec<Move>,
) -> impl Iterator<Item = WinningMove> + '_ {
    moves.into_iter().map(move |m| WinningMove {
        component: index,
        result: sum.replaced(index, &m.result).to_string(),
        description: m.description,
    })
}

fn normal(sum: &Sum, ctx: &Context) -> Result<Analysis, AnalysisError> {
    let expression = sum.to_string();
    if let [only] = sum.components.as_slice() {
        if let Err(e) = only.value_in(ctx) {
            return outcome_only(sum, only.as_ref(), e, ctx);
        }
    }
    let mut values = Vec::with_capacity(sum.components.len());
    for c in &sum.components {
        values.push(c.value_in(ctx)?);
    }
    let total: Nimber = values.iter().sum();
    let outcome = if total.is_zero() {
        Outcome::P
    } else {
        Outcome::N
    };
    let width = values
        .iter()
        .chain([&total])
        .map(|v| 64 - v.0.leading_zeros() as usize)
        .max()
        .unwrap_or(1)
        .max(1);
    let names: Vec<String> = sum.components.iter().map(|c| c.to_string()).collect();
    let name_width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max("nim-sum".len());
    let value_width = values
        .iter()
        .chain([&total])
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1);

    let mut explanation = Vec::new();
    if sum.components.is_empty() {
        explanation.push("The zero game: the player to move has no move and loses.".into());
    } else {
        for (n, v) in names.iter().zip(&values) {
            explanation.push(format!(
                "{n:<name_width$}  {:>value_width$} = {}",
                v.0,
                binary(v.0, width)
            ));
        }
        explanation.push(format!(
            "{:<name_width$}  {:>value_width$} = {}",
            "nim-sum",
            total.0,
            binary(total.0, width)
        ));
    }
    explanation.extend(sum.components.iter().flat_map(|c| c.notes()));
    let mut winning_moves = Vec::new();
    if !total.is_zero() {
        explanation.push(format!(
            "The nim-sum is {total}, not 0: the player to move wins by moving one component of value v to value v ⊕ {total}."
        ));
        for (i, c) in sum.components.iter().enumerate() {
            let target = values[i] ^ total;
            let moves = match c.moves_to_value(target, ctx) {
                Ok(moves) => moves,
                Err(e @ AnalysisError::Unsupported { .. }) => {
                    explanation.push(format!("The moves of {} are not listed: {e}.", names[i]));
                    continue;
                }
                Err(e) => return Err(e),
            };
            if !moves.is_empty() {
                let how: Vec<&str> = moves.iter().map(|m| m.description.as_str()).collect();
                explanation.push(format!(
                    "{}: {} ⊕ {} = {}, so {}",
                    names[i],
                    values[i],
                    total,
                    target,
                    how.join(", ")
                ));
            }
            winning_moves.extend(winning(sum, i, moves));
        }
    } else if !sum.components.is_empty() {
        explanation.push("The nim-sum is 0: every move changes one component's value and so makes the nim-sum non-zero; the player to move loses.".into());
    }
    Ok(Analysis {
        expression,
        misere: false,
        value: Some(total),
        outcome,
        components: names
            .into_iter()
            .zip(values)
            .map(|(expression, v)| ComponentReport {
                expression,
                value: Some(v),
                genus: None,
            })
            .collect(),
        winning_moves,
        explanation,
    })
}

/// A single component whose value is out of reach but whose outcome has a closed form.
fn outcome_only(
    sum: &Sum,
    c: &dyn Component,
    value_error: AnalysisError,
    ctx: &Context,
) -> Result<Analysis, AnalysisError> {
    let outcome = match c.outcome(ctx) {
        Ok(o) => o,
        Err(_) => return Err(value_error),
    };
    let mut explanation = vec![
        format!("No value: {value_error}."),
        format!(
            "The outcome comes from the closed form for its P-positions: {}.",
            outcome.describe()
        ),
    ];
    let mut winning_moves = Vec::new();
    if outcome == Outcome::N {
        match c.winning_moves_alone(ctx) {
            Ok(moves) => winning_moves.extend(winning(sum, 0, moves)),
            Err(e) => explanation.push(format!("The winning moves are not listed: {e}.")),
        }
    }
    Ok(Analysis {
        expression: sum.to_string(),
        misere: false,
        value: None,
        outcome,
        components: vec![ComponentReport {
            expression: c.to_string(),
            value: None,
            genus: None,
        }],
        winning_moves,
        explanation,
    })
}

fn misere(sum: &Sum, ctx: &Context) -> Result<Analysis, AnalysisError> {
    let heaps: Option<Vec<u64>> = sum.components.iter().map(|c| c.as_nim_heap()).collect();
    match heaps {
        Some(heaps) if ctx.engine == crate::sum::Engine::Fast => Ok(misere_nim(sum, &heaps)),
        _ => misere_theory::misere_by_theory(sum, ctx),
    }
}

/// Bouton's misère rule, and its winning moves heap by heap: a heap `h` moves to `t < h`;
/// the result is P when it keeps a heap of two or more with nim-sum 0 (so `t = h ⊕ s`), or
/// leaves only heaps of 0 and 1 with an odd number of 1s.
fn misere_nim(sum: &Sum, heaps: &[u64]) -> Analysis {
    let s = heaps.iter().fold(0, |a, b| a ^ b);
    let big = heaps.iter().filter(|&&h| h >= 2).count();
    let ones = heaps.iter().filter(|&&h| h == 1).count();
    let is_p = misere_nim_is_p(heaps);
    let mut winning_moves = Vec::new();
    if !is_p {
        for (i, &h) in heaps.iter().enumerate() {
            let others_big = big - usize::from(h >= 2);
            let others_ones = ones - usize::from(h == 1);
            let mut targets = Vec::new();
            let t = h ^ s;
            if t < h && (t >= 2 || others_big > 0) {
                targets.push(t);
            }
            if others_big == 0 {
                for t in [0u64, 1] {
                    if t < h && (others_ones + t as usize) % 2 == 1 && !targets.contains(&t) {
                        targets.push(t);
                    }
                }
            }
            targets.sort_unstable();
            let moves = targets
                .into_iter()
                .map(|t| Move {
                    description: format!("{h} -> {t}"),
                    result: vec![Box::new(crate::classic::NimHeap(t))],
                })
                .collect();
            winning_moves.extend(winning(sum, i, moves));
        }
    }
    let rule = if heaps.iter().all(|&h| h == 0) {
        "No move is left: the opponent made the last move and so lost; the player to move has won."
            .to_string()
    } else if big == 0 {
        format!(
            "Every heap has at most one token: in misère Nim the player to move loses exactly when the number of 1-heaps is odd; here it is {ones}."
        )
    } else {
        format!(
            "Some heap has two or more tokens: misère Nim is then won exactly like normal Nim (Bouton), and the nim-sum is {s}."
        )
    };
    Analysis {
        expression: sum.to_string(),
        misere: true,
        value: None,
        outcome: if is_p { Outcome::P } else { Outcome::N },
        components: sum
            .components
            .iter()
            .map(|c| ComponentReport {
                expression: c.to_string(),
                value: None,
                genus: None,
            })
            .collect(),
        winning_moves,
        explanation: vec![rule],
    }
}
