//! Sums of components: the checked form of a game expression.
//!
//! A [`Sum`] is a list of independent [`Component`]s, one per Nim heap, Kayles heap, Wythoff
//! queen, Hackenbush picture, ... Each game family implements [`Component`]; the analysis
//! works on sums of any mix of families through it. The value of a sum is the nim-sum of its
//! components' values (normal play; Sprague 1935, Grundy 1939): one value per component and
//! `O(c)` nim-sums for `c` components.
//!
//! ```
//! use grundy::sum::Context;
//! let sum = grundy::catalog::parse("nim 3 + kayles 4").unwrap();
//! let ctx = Context::default();
//! let values: Vec<_> = sum.components.iter().map(|c| c.value(&ctx).unwrap()).collect();
//! assert_eq!(values, [grundy::Nimber(3), grundy::Nimber(1)]); // Kayles: g(4) = 1
//! assert_eq!(sum.to_string(), "nim 3 + kayles 4");
//! ```

use crate::boards::cram::EndTable;
use crate::control::{Budget, BudgetError, Limits};
use crate::nimber::Nimber;
use crate::solve::SolveError;
use crate::value::Outcome;
use std::fmt;
use std::sync::Arc;

/// Units of work charged per [`Move`] a component lists: a move is a formatted description
/// and a boxed result (and, in a misère search, its text interned), about half a microsecond
/// where one unit of work is ten to a hundred nanoseconds.
pub const MOVE_COST: u64 = 32;

/// Which engine computes values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The fastest correct method each family has (closed forms, sequences, graph
    /// algorithms).
    #[default]
    Fast,
    /// The generic engine through the game's moves: slow, the reference for cross-checks.
    Generic,
}

/// How an analysis runs: the engine, and the budget every engine counts its work against.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The engine to use.
    pub engine: Engine,
    /// The work budget, shared by everything this analysis runs.
    pub budget: Budget,
    /// The values of every small Cram region, for the position search of big boards
    /// ([`crate::boards::cram::EndTable`]), if one was given.
    pub end_table: Option<Arc<EndTable>>,
}

impl Context {
    /// A context for `engine` under a fresh budget with these limits.
    pub fn new(engine: Engine, limits: Limits) -> Self {
        Context {
            engine,
            budget: Budget::new(limits),
            end_table: None,
        }
    }

    /// The limits of the budget.
    pub fn limits(&self) -> Limits {
        self.budget.limits()
    }
}

/// Why a component could not be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The generic engine gave up.
    #[error("{component}: {source}")]
    Solve {
        /// The component, as an expression.
        component: String,
        /// What went wrong.
        source: SolveError,
    },
    /// The question has no answer by any method this tool has (for example the value of a
    /// position too large for the generic engine where no closed form is known).
    #[error("{component}: {reason}")]
    Unsupported {
        /// The component, as an expression.
        component: String,
        /// Why, and what would work instead.
        reason: String,
    },
    /// The rule itself failed: a rule script raised an error, ran past its own limits or
    /// listed something that is not a position. The reason names the script, line and column.
    /// It is the rule's error, never a limit of the budget or an interruption.
    #[error("{component}: {reason}")]
    Rule {
        /// The component, as an expression.
        component: String,
        /// What the rule did wrong.
        reason: String,
    },
}

impl AnalysisError {
    /// A budget limit reached (or a cancellation) while working on a component.
    pub fn budget(component: &dyn Component, source: BudgetError) -> Self {
        Self::solve(component, SolveError::Budget(source))
    }

    /// The budget error behind this error, if a limit or a cancellation caused it.
    pub fn budget_error(&self) -> Option<BudgetError> {
        match self {
            AnalysisError::Solve {
                source: SolveError::Budget(b),
                ..
            } => Some(*b),
            _ => None,
        }
    }

    /// Wraps an engine error for a component.
    pub fn solve(component: &dyn Component, source: SolveError) -> Self {
        AnalysisError::Solve {
            component: named(component),
            source,
        }
    }

    /// A failure of the rule's own definition (a rule script's error) for a component.
    pub fn rule(component: &dyn Component, reason: impl Into<String>) -> Self {
        AnalysisError::Rule {
            component: named(component),
            reason: reason.into(),
        }
    }

    /// An unsupported request for a component.
    pub fn unsupported(component: &dyn Component, reason: impl Into<String>) -> Self {
        AnalysisError::Unsupported {
            component: named(component),
            reason: reason.into(),
        }
    }
}

/// The most characters of a component's text an error message quotes.
const NAMED_CHARS: usize = 120;

/// A component as an error names it: its text, cut short past [`NAMED_CHARS`] characters
/// (a 100×100 Cram board is 10,000 characters, which would bury the message).
fn named(component: &dyn Component) -> String {
    let text = component.to_string();
    let total = text.chars().count();
    if total <= NAMED_CHARS {
        return text;
    }
    let head: String = text.chars().take(NAMED_CHARS / 2).collect();
    format!("{head}… ({total} characters)")
}

/// Misère play of one component alone, decided by a theorem ([`Component::misere_alone`]).
#[derive(Debug)]
pub struct MisereAlone {
    /// Who wins under the misère convention.
    pub outcome: Outcome,
    /// The moves to misère P-positions (none when the outcome is P).
    pub winning_moves: Vec<Move>,
    /// The theorem that decided it, in words.
    pub reason: String,
}

/// One move in one component.
#[derive(Debug)]
pub struct Move {
    /// A short description for people, such as `13 -> 4` or `take 2 from the middle`.
    pub description: String,
    /// What the component becomes: no components (it vanished), one, or several (a heap
    /// split in two).
    pub result: Vec<Box<dyn Component>>,
}

/// The family of a component: its kind, as data (the rule's parameters and the position are
/// the component's own).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// A Nim heap.
    Nim,
    /// Staircase Nim.
    Staircase,
    /// Moore's Nim_k.
    Moore,
    /// A Wythoff queen.
    Wythoff,
    /// A heap of a take-and-break or subtraction rule (octal and hexadecimal codes, named heap
    /// games).
    Heap,
    /// A Green Hackenbush picture.
    Hackenbush,
    /// A coin-turning position (a row or a grid).
    Coins,
    /// A board or graph game: Cram, Node Kayles, Arc Kayles, Chomp.
    Board,
    /// A token on a game graph.
    Token,
    /// A rule script's position.
    Script,
}

/// A component's typed identity, as a move's result names it: its family, with the rule and
/// the arguments an expression writes (`heap`, `0.137`, `["7"]`). Two components with equal
/// identities are the same position.
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct ComponentId {
    /// Its family.
    pub family: Family,
    /// Its rule as written in expressions, with parameters (`nim`, `moore(2)`, `0.137`).
    pub rule: String,
    /// Its arguments as written in expressions (`["13"]`, `["3", "5"]`).
    pub args: Vec<String>,
}

impl ComponentId {
    /// The identity of `c`.
    pub fn of(c: &dyn Component) -> Self {
        ComponentId {
            family: c.family(),
            rule: c.rule(),
            args: c.args(),
        }
    }

    /// The identities of the components a move leaves in place of the one that moved.
    pub fn all(components: &[Box<dyn Component>]) -> Vec<Self> {
        components
            .iter()
            .map(|c| ComponentId::of(c.as_ref()))
            .collect()
    }
}

/// One independent part of a sum, of any family.
///
/// Implementors provide printing (rule and arguments), the fast value, the generic value and
/// the moves; the provided methods derive the rest. Every component must print back (through
/// [`fmt::Display`]) to an expression that parses to an equal component.
pub trait Component: fmt::Debug + Send + Sync {
    /// The family this component belongs to: its typed identity, with [`Component::rule`]
    /// and [`Component::args`] (code dispatches on this, never on the rule's text).
    fn family(&self) -> Family;

    /// The component as [`Any`](std::any::Any), to reach its family's own type
    /// (`c.as_any().downcast_ref::<Picture>()`).
    fn as_any(&self) -> &dyn std::any::Any;

    /// The rule as written in expressions, with parameters: `nim`, `moore(2)`, `0.137`.
    fn rule(&self) -> String;

    /// The arguments as written in expressions: `["13"]`, `["3", "5"]`.
    fn args(&self) -> Vec<String>;

    /// Whether components of this rule are written together in one term (`nim 3 5 7` is three
    /// heaps), rather than each being a term of its own (`moore(2) 3 5 7` is one position).
    fn joins(&self) -> bool {
        false
    }

    /// The value by the fastest correct method.
    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError>;

    /// The value by the generic engine (the reference).
    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError>;

    /// Every move from this component.
    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError>;

    /// A copy behind a new box.
    fn clone_box(&self) -> Box<dyn Component>;

    /// The value by the engine the context asks for.
    fn value_in(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        match ctx.engine {
            Engine::Fast => self.value(ctx),
            Engine::Generic => self.value_generic(ctx),
        }
    }

    /// The outcome of this component played alone. Families whose outcome is known where
    /// the value is not (Wythoff's and Moore's P-positions) override this.
    fn outcome(&self, ctx: &Context) -> Result<Outcome, AnalysisError> {
        Ok(if self.value_in(ctx)?.is_zero() {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// The moves to a result of value `target`. Families with a closed form override this
    /// (a Nim heap moves straight to `target`) and fall back to [`moves_to_value_by_search`]
    /// when the context asks for the generic engine; the default searches every move.
    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        moves_to_value_by_search(self, target, ctx)
    }

    /// One move to a result of value `target`, if there is one (an analysis asking for one
    /// winning move). The default takes the first of [`Component::moves_to_value`]; a family
    /// whose every candidate move costs a search overrides it to stop at the first found.
    fn a_move_to_value(
        &self,
        target: Nimber,
        ctx: &Context,
    ) -> Result<Option<Move>, AnalysisError> {
        Ok(self.moves_to_value(target, ctx)?.into_iter().next())
    }

    /// The move of this component that leaves exactly `result` (its components in any
    /// order), if there is one. Families whose components can have too many moves to list
    /// (a Nim heap of 10^9, a heap of an octal game) override this with a check from their
    /// rules, so that a game can be played on them by typing the position after a move; the
    /// default lists the moves.
    fn move_leaving(
        &self,
        result: &[Box<dyn Component>],
        ctx: &Context,
    ) -> Result<Option<Move>, AnalysisError> {
        let key = |parts: &[Box<dyn Component>]| {
            let mut k: Vec<String> = parts.iter().map(|c| c.to_string()).collect();
            k.sort_unstable();
            k
        };
        let want = key(result);
        Ok(self
            .moves(ctx)?
            .into_iter()
            .find(|m| key(&m.result) == want))
    }

    /// A move that takes as little as the rules allow (the one a lost player makes to last),
    /// or `None` when this component has no move. Families that override
    /// [`Component::move_leaving`] find it from their rules; the default takes the first
    /// listed move.
    fn least_move(&self, ctx: &Context) -> Result<Option<Move>, AnalysisError> {
        Ok(self.moves(ctx)?.into_iter().next())
    }

    /// Remarks for the explanation of an analysis, such as why a Hackenbush picture with no
    /// edge on the ground is worth 0. None by default.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// The size of the Nim heap this component is, if it is one (misère Nim has a closed
    /// form; other games do not inherit it).
    fn as_nim_heap(&self) -> Option<u64> {
        None
    }

    /// Misère play of this component alone by a theorem of its family (misère Wythoff), so
    /// that no search is needed at any size. None by default: the misère routes of the
    /// analysis (quotient, tame rule, search) decide.
    fn misere_alone(&self, _ctx: &Context) -> Option<Result<MisereAlone, AnalysisError>> {
        None
    }

    /// The winning moves of this component played alone, for families whose outcome is
    /// known where values are not. The default is the moves to value 0.
    fn winning_moves_alone(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        self.moves_to_value(Nimber::ZERO, ctx)
    }
}

/// Charges `ctx`'s budget for listing `count` moves of `component` ([`MOVE_COST`] units each),
/// refused before any is listed when the budget cannot afford them all.
pub fn charge_moves(
    component: &dyn Component,
    ctx: &Context,
    count: u64,
) -> Result<(), AnalysisError> {
    let units = count.saturating_mul(MOVE_COST);
    ctx.budget
        .afford(units)
        .and_then(|()| ctx.budget.charge(units))
        .map_err(|e| AnalysisError::budget(component, e))
}

/// The moves of `component` whose result has value `target`, by evaluating every move with the
/// engine `ctx` asks for.
pub fn moves_to_value_by_search<C: Component + ?Sized>(
    component: &C,
    target: Nimber,
    ctx: &Context,
) -> Result<Vec<Move>, AnalysisError> {
    let mut found = Vec::new();
    for m in component.moves(ctx)? {
        let mut v = Nimber::ZERO;
        for c in &m.result {
            v ^= c.value_in(ctx)?;
        }
        if v == target {
            found.push(m);
        }
    }
    Ok(found)
}

impl Clone for Box<dyn Component> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl fmt::Display for dyn Component + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rule())?;
        for a in self.args() {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

/// A checked game: a sum of independent components. An empty sum is the zero game, written
/// `0`.
#[derive(Clone, Debug, Default)]
pub struct Sum {
    /// The parts, in the order written.
    pub components: Vec<Box<dyn Component>>,
}

impl Sum {
    /// A sum of these components.
    pub fn new(components: Vec<Box<dyn Component>>) -> Self {
        Sum { components }
    }

    /// The sum after replacing component `index` by `result` (what a move makes of it).
    pub fn replaced(&self, index: usize, result: &[Box<dyn Component>]) -> Sum {
        let mut components = Vec::with_capacity(self.components.len() + result.len());
        components.extend(self.components[..index].iter().cloned());
        components.extend(result.iter().cloned());
        components.extend(self.components[index + 1..].iter().cloned());
        Sum { components }
    }

    /// Each component's canonical text, sorted: two sums with equal keys are the same
    /// position (sums are commutative).
    pub fn key(&self) -> Vec<String> {
        let mut k: Vec<String> = self.components.iter().map(|c| c.to_string()).collect();
        k.sort_unstable();
        k
    }
}

/// Prints the sum as an expression that parses back to it: terms joined by ` + `, with
/// neighbouring joinable components of one rule in a single term (`nim 4 12 8`).
impl fmt::Display for Sum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.components.is_empty() {
            return f.write_str("0");
        }
        let mut previous: Option<(String, bool)> = None;
        for c in &self.components {
            let rule = c.rule();
            let joins = c.joins();
            match &previous {
                Some((r, true)) if joins && *r == rule => {
                    for a in c.args() {
                        write!(f, " {a}")?;
                    }
                }
                _ => {
                    if previous.is_some() {
                        f.write_str(" + ")?;
                    }
                    write!(f, "{c}")?;
                }
            }
            previous = Some((rule, joins));
        }
        Ok(())
    }
}
