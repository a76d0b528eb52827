//! The analysis of a position: value, outcome, every winning move, and why.
//!
//! Normal play: the value of a sum is the nim-sum of its components' values (Sprague–Grundy);
//! the position is P exactly when that is 0, and a winning move changes one component of value
//! `v` into a position of value `v ⊕ s`, `s` the nim-sum (Bouton's argument, Ferguson ch. 2).
//! Misère play: Nim by Bouton's misère rule; otherwise a sum of heaps of one rule through its
//! misère quotient, a sum of tame games by Conway's rule, and anything else by searching the
//! whole position, since misère values do not add over sums ([`crate::misere`]).

use crate::nimber::Nimber;
mod misere_quotient;
mod misere_theory;
pub(crate) mod picture;
mod route;
mod search;
pub mod teach;

use crate::catalog;
use crate::classic::misere_nim_is_p;
use crate::expr::ExprError;
use crate::misere::genus::Genus;
use crate::sum::{AnalysisError, Component, ComponentId, Context, Family, Move, Sum};
use crate::value::Outcome;

/// What to analyse and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Misère play: the player who makes the last move loses.
    pub misere: bool,
    /// The engine and its limits.
    pub context: Context,
    /// Which winning moves to look for.
    pub moves: MoveSearch,
}

/// Which winning moves an analysis looks for. In a board game each candidate move costs a
/// proof that it leaves a position of the right value, so the value alone, or one winning
/// move, can be much cheaper than all of them.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum MoveSearch {
    /// Every winning move.
    #[default]
    All,
    /// One winning move (the search stops at the first).
    One,
    /// None: the value and the outcome alone.
    None,
}

/// The note of an analysis whose winning moves were not all looked for.
fn not_searched(wanted: MoveSearch) -> Option<&'static str> {
    match wanted {
        MoveSearch::All => None,
        MoveSearch::One => Some("Only one winning move was looked for."),
        MoveSearch::None => Some("Winning moves were not looked for: the value alone was asked."),
    }
}

/// One component of the analysed sum: the same fields whatever route answered.
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct ComponentReport {
    /// The component as an expression.
    pub expression: String,
    /// Its family (its typed identity, with `rule`).
    pub family: Family,
    /// Its rule as written in expressions, with parameters (`nim`, `moore(2)`, `0.137`).
    pub rule: String,
    /// Its Sprague–Grundy value, where one was computed (normal play).
    pub value: Option<Nimber>,
    /// Its genus (misère play), where one was computed within the budget; `null` in normal
    /// play and where the component's game tree is too large to expand.
    pub genus: Option<Genus>,
    /// Whether it is tame (misère play: it and every position it reaches have the genus of a
    /// Nim position, in its game tree or its misère canonical form), where known.
    pub tame: Option<bool>,
}

impl ComponentReport {
    /// The report of `c` with this value, and no genus yet.
    pub(crate) fn new(c: &dyn Component, value: Option<Nimber>) -> Self {
        ComponentReport {
            expression: c.to_string(),
            family: c.family(),
            rule: c.rule(),
            value,
            genus: None,
            tame: None,
        }
    }
}

/// A winning move in the whole position.
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct WinningMove {
    /// Which component moves (0-based, in the order written).
    pub component: usize,
    /// What the move does, such as `13 -> 4`.
    #[serde(rename = "move")]
    pub description: String,
    /// The whole position after the move, as an expression.
    pub result: String,
    /// What the moving component becomes, as typed identities: none when it vanishes, one,
    /// or several (a heap split in two); the other components stay as they were.
    pub becomes: Vec<ComponentId>,
}

/// The result of an analysis.
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
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
    /// Every winning move (none in a P-position), unless `winning_moves_complete` is false.
    pub winning_moves: Vec<WinningMove>,
    /// Whether `winning_moves` lists every winning move: `false` when some were left out (a
    /// limit, or too much text), and `winning_moves_note` says why. An empty complete list
    /// means there is no winning move.
    pub winning_moves_complete: bool,
    /// Why winning moves were left out, when they were.
    pub winning_moves_note: Option<String>,
    /// Why, in sentences a teacher would write.
    pub explanation: Vec<String>,
    /// Notes that teach, in normal play ([`teach::notes`]): the mex table of a single
    /// component, staircase Nim as Nim on the odd steps, where a heap falls in its proven
    /// period. Empty in misère play, where values are another theory.
    pub notes: Vec<teach::Note>,
}

impl Analysis {
    /// The notes as lines of text.
    pub fn note_lines(&self) -> Vec<String> {
        self.notes.iter().flat_map(teach::Note::lines).collect()
    }
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
        let mut analysis = misere(sum, &options.context)?;
        // Misère routes find the moves with the outcome: the list is only trimmed.
        if let Some(note) = not_searched(options.moves) {
            let keep = usize::from(options.moves == MoveSearch::One);
            if analysis.winning_moves.len() > keep {
                analysis.winning_moves.truncate(keep);
                analysis.winning_moves_complete = false;
                analysis.winning_moves_note = Some(note.to_string());
            }
        }
        Ok(analysis)
    } else {
        let mut analysis = normal(sum, &options.context, options.moves)?;
        // After the analysis, under what is left of its budget: notes never cost the answer.
        analysis.notes = teach::notes(sum, &options.context);
        Ok(analysis)
    }
}

fn binary(v: u64, width: usize) -> String {
    format!("{v:0width$b}")
}

/// `name  value = binary`, padded by hand: a format width is limited to 65,535, and a name
/// (an expression) can be longer.
fn table_row(name: &str, name_width: usize, v: u64, value_width: usize, bits: usize) -> String {
    let value = v.to_string();
    let pad_name = name_width.saturating_sub(name.chars().count());
    let pad_value = value_width.saturating_sub(value.len());
    format!(
        "{name}{}  {}{value} = {}",
        " ".repeat(pad_name),
        " ".repeat(pad_value),
        binary(v, bits.min(64))
    )
}

/// The most text, in bytes, of the positions that the winning moves listed leave: each
/// winning move carries the whole position after it, so a sum of many components with a
/// winning move in each (`nim 7 7 7 ...`) would otherwise grow as the square of its length.
pub const MAX_LISTED_TEXT: usize = 1 << 24;

/// Winning moves listed while their positions' text stays under [`MAX_LISTED_TEXT`]; the
/// others are counted and named in a note.
#[derive(Debug)]
pub(crate) struct Listing {
    size: usize,
    text: usize,
    unlisted: usize,
}

impl Listing {
    /// A listing for a position whose text is `size` bytes long.
    pub(crate) fn new(size: usize) -> Self {
        Listing {
            size: size.max(1),
            text: 0,
            unlisted: 0,
        }
    }

    /// Whether `count` more winning moves fit the listing (counted as unlisted otherwise).
    pub(crate) fn take(&mut self, count: usize) -> bool {
        let text = self.text.saturating_add(count.saturating_mul(self.size));
        if self.unlisted == 0 && text <= MAX_LISTED_TEXT {
            self.text = text;
            true
        } else {
            self.unlisted = self.unlisted.saturating_add(count);
            false
        }
    }

    /// The note for the moves left out, if any.
    pub(crate) fn note(&self) -> Option<String> {
        (self.unlisted > 0).then(|| {
            format!(
                "{} more winning {} not listed: the positions they leave would take more than \
                 {} MiB of text.",
                self.unlisted,
                if self.unlisted == 1 {
                    "move is"
                } else {
                    "moves are"
                },
                MAX_LISTED_TEXT >> 20
            )
        })
    }
}

pub(crate) fn winning(
    sum: &Sum,
    index: usize,
    moves: Vec<Move>,
) -> impl Iterator<Item = WinningMove> + '_ {
    moves.into_iter().map(move |m| WinningMove {
        component: index,
        result: sum.replaced(index, &m.result).to_string(),
        becomes: ComponentId::all(&m.result),
        description: m.description,
    })
}

fn normal(sum: &Sum, ctx: &Context, wanted: MoveSearch) -> Result<Analysis, AnalysisError> {
    let expression = sum.to_string();
    let mut values = Vec::with_capacity(sum.components.len());
    let mut missing = None;
    for (i, c) in sum.components.iter().enumerate() {
        match c.value_in(ctx) {
            Ok(v) => values.push(v),
            Err(e) if missing.is_none() && !is_cancelled(&e) => {
                missing = Some((i, e));
                values.push(Nimber::ZERO);
            }
            Err(e) => return Err(e),
        }
    }
    if let Some((index, error)) = missing {
        // One value is out of reach: the outcome is still that component's own outcome
        // when the others nim-add to 0.
        let rest: Nimber = values.iter().sum();
        if !rest.is_zero() {
            return Err(error);
        }
        return outcome_only(sum, index, error, &values, ctx);
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
    // Names longer than this are not padded to (a 12k-edge picture would pad every line).
    const MAX_ALIGN: usize = 60;
    let name_width = names
        .iter()
        .map(|n| n.chars().count())
        .filter(|&w| w <= MAX_ALIGN)
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
            explanation.push(table_row(n, name_width, v.0, value_width, width));
        }
        explanation.push(table_row(
            "nim-sum",
            name_width,
            total.0,
            value_width,
            width,
        ));
    }
    explanation.extend(sum.components.iter().flat_map(|c| c.notes()));
    let mut winning_moves = Vec::new();
    let mut omitted = Vec::new();
    if !total.is_zero() {
        explanation.push(format!(
            "The nim-sum is {total}, not 0: the player to move wins by moving one component of value v to value v ⊕ {total}."
        ));
        let mut listing = Listing::new(expression.len());
        for (i, c) in sum.components.iter().enumerate() {
            if wanted == MoveSearch::None
                || (wanted == MoveSearch::One && !winning_moves.is_empty())
            {
                break;
            }
            let target = values[i] ^ total;
            let found = if wanted == MoveSearch::One {
                c.a_move_to_value(target, ctx)
                    .map(|m| m.into_iter().collect())
            } else {
                c.moves_to_value(target, ctx)
            };
            let moves = match found {
                Ok(moves) => moves,
                Err(e) if !is_cancelled(&e) => {
                    let note = format!("The moves of {} are not listed: {e}.", names[i]);
                    explanation.push(note.clone());
                    omitted.push(note);
                    continue;
                }
                Err(e) => return Err(e),
            };
            if !moves.is_empty() {
                explanation.push(format!(
                    "{}: {} ⊕ {} = {}, so {}",
                    names[i],
                    values[i],
                    total,
                    target,
                    teach::moves_in_words(&moves)
                ));
            }
            if listing.take(moves.len()) {
                winning_moves.extend(winning(sum, i, moves));
            }
        }
        explanation.extend(listing.note());
        omitted.extend(listing.note());
        if let Some(note) = not_searched(wanted) {
            explanation.push(note.to_string());
            omitted.push(note.to_string());
        }
    } else if !sum.components.is_empty() {
        explanation.push("The nim-sum is 0: every move changes one component's value and so makes the nim-sum non-zero; the player to move loses.".into());
    }
    Ok(Analysis {
        expression,
        misere: false,
        value: Some(total),
        outcome,
        components: sum
            .components
            .iter()
            .zip(values)
            .map(|(c, v)| ComponentReport::new(c.as_ref(), Some(v)))
            .collect(),
        winning_moves,
        winning_moves_complete: omitted.is_empty(),
        winning_moves_note: (!omitted.is_empty()).then(|| omitted.join(" ")),
        explanation,
        notes: Vec::new(),
    })
}

/// Whether an error is a cancellation (which stops the analysis) rather than a limit on one
/// part of it (which the analysis reports and goes on).
fn is_cancelled(e: &AnalysisError) -> bool {
    e.budget_error() == Some(crate::control::BudgetError::Cancelled)
}

/// A component (`index`) whose value is out of reach but whose outcome has a closed form,
/// in a sum whose other components (`values`, with a placeholder at `index`) nim-add to 0:
/// the sum has that component's outcome, and its winning moves alone win the sum.
fn outcome_only(
    sum: &Sum,
    index: usize,
    value_error: AnalysisError,
    values: &[Nimber],
    ctx: &Context,
) -> Result<Analysis, AnalysisError> {
    let c = sum.components[index].as_ref();
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
    if sum.components.len() > 1 {
        explanation.push(format!(
            "The other components nim-add to 0, so the whole position has the outcome of {c} \
             alone; the winning moves listed are those in {c} (a move elsewhere may win too, \
             but that would need its value)."
        ));
    }
    explanation.extend(sum.components.iter().flat_map(|c| c.notes()));
    let mut winning_moves = Vec::new();
    let mut omitted = None;
    if outcome == Outcome::N {
        match c.winning_moves_alone(ctx) {
            Ok(moves) => {
                let mut listing = Listing::new(sum.to_string().len());
                if listing.take(moves.len()) {
                    winning_moves.extend(winning(sum, index, moves));
                }
                explanation.extend(listing.note());
                omitted = listing.note();
            }
            Err(e) if !is_cancelled(&e) => {
                let note = format!("The winning moves are not listed: {e}.");
                explanation.push(note.clone());
                omitted = Some(note);
            }
            Err(e) => return Err(e),
        }
        if omitted.is_none() && sum.components.len() > 1 {
            omitted = Some(format!(
                "Only the winning moves in {c} are listed: a move in another component may win \
                 too, but that would need {c}'s value."
            ));
        }
    }
    Ok(Analysis {
        expression: sum.to_string(),
        misere: false,
        value: None,
        outcome,
        components: sum
            .components
            .iter()
            .zip(values)
            .enumerate()
            .map(|(i, (c, v))| ComponentReport::new(c.as_ref(), (i != index).then_some(*v)))
            .collect(),
        winning_moves,
        winning_moves_complete: omitted.is_none(),
        winning_moves_note: omitted,
        explanation,
        notes: Vec::new(),
    })
}

fn misere(sum: &Sum, ctx: &Context) -> Result<Analysis, AnalysisError> {
    let heaps: Option<Vec<u64>> = sum.components.iter().map(|c| c.as_nim_heap()).collect();
    let mut analysis = match heaps {
        Some(heaps) if ctx.engine == crate::sum::Engine::Fast => misere_nim(sum, &heaps),
        _ => misere_theory::misere_by_theory(sum, ctx)?,
    };
    // Whatever route answered, every component reports its genus where it is computable.
    misere_theory::fill_genera(sum, &mut analysis, ctx)?;
    Ok(analysis)
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
    let expression = sum.to_string();
    let mut listing = Listing::new(expression.len());
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
                .collect::<Vec<_>>();
            if listing.take(moves.len()) {
                winning_moves.extend(winning(sum, i, moves));
            }
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
    let mut explanation = vec![rule];
    explanation.extend(listing.note());
    let omitted = listing.note();
    Analysis {
        expression,
        misere: true,
        value: None,
        outcome: if is_p { Outcome::P } else { Outcome::N },
        components: sum
            .components
            .iter()
            .map(|c| ComponentReport::new(c.as_ref(), None))
            .collect(),
        winning_moves,
        winning_moves_complete: omitted.is_none(),
        winning_moves_note: omitted,
        explanation,
        notes: Vec::new(),
    }
}
