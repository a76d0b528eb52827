//! Rule scripts: games of the user's own, written in the Rhai scripting language, that work
//! everywhere a built-in rule works (sums, analysis, misère play, nim-sequences, graphs).
//!
//! A script names its rule and lists a position's moves; the engines do the rest:
//!
//! ```rhai
//! // Euclid's game: from (a, b), take a positive multiple of the smaller number from the
//! // larger, leaving it non-negative; the player who makes a number 0 wins.
//! const NAME = "euclid";
//! const USAGE = "euclid A B";
//! const SUMMARY = "Euclid's game: take a multiple of the smaller number from the larger";
//!
//! fn moves(p) {
//!     let a = p[0]; let b = p[1];
//!     if a == 0 || b == 0 { return []; }
//!     let out = [];
//!     if a >= b { let k = 1; while k * b <= a { out.push([a - k * b, b]); k += 1; } }
//!     else      { let k = 1; while k * a <= b { out.push([a, b - k * a]); k += 1; } }
//!     out
//! }
//! ```
//!
//! What a script defines:
//! - `const NAME` (required): the rule's name in expressions, letters, digits, `-` and `_`,
//!   starting with a letter; it may not be a built-in rule's name. `USAGE`, `SUMMARY` and
//!   `EXAMPLE` (optional; a term such as `"euclid 21 13"`) are shown by `grundy rules`.
//! - `fn moves(p)` (required): the positions one move leads to, as an array.
//! - `const HEAP = true` (optional): a heap rule. Each argument is one heap (a whole
//!   number) and its own component, as in `kayles 3 5`; a move gives the heap left, or an
//!   array of heaps when it splits the heap. Heap rules have nim-sequences
//!   (`grundy sequence`).
//! - Otherwise the arguments of a term are one position: a single whole number, or an array
//!   of them (`euclid 21 13` is `[21, 13]`); `fn position(args)` reads other arguments
//!   (`args` holds whole numbers and strings), and `fn args(p)` prints a position back as an
//!   array of arguments. `fn components(p)` (optional) splits a position into independent
//!   parts whose values nim-add.
//!
//! A position may be a whole number, a string, a boolean, a character or an array of these
//! ([`Pos`]). Values come from the generic engine ([`crate::solve::Solver`]): memoised per
//! rule, splitting positions into components, under the analysis's work budget. Its cost is
//! one script call per distinct component plus one unit of work per move listed; the script's
//! own speed is what limits it. Measured (`cargo bench -p grundy --bench scripted`, Kayles to
//! heap 2000, 2,001,000 moves, one core): 16 µs a move for examples/games/kayles.rhai, which
//! pushes each move onto its list, 2.3 µs with the sizes unchecked (Rhai walks a list after
//! each push to check its size, so a list of m moves costs m²/2), 6.9 µs building the same
//! list with `pad` and `map`, against 0.5 µs for the built-in moves through the same engine.
//!
//! Scripts run sandboxed (`script`): no file, network or clock access, and limits on the
//! operations of each call, the depth of recursion, the sizes of data and the memory a call
//! takes ([`ScriptLimits`]). The memory ceiling is counted by [`CountingAllocator`], which a
//! program that runs scripts installs as its global allocator (`meter`). Errors carry the
//! script's name, line and column ([`ScriptError`]).

mod meter;
mod position;
pub(crate) mod script;

pub use meter::{CountingAllocator, counting};
pub use position::{MAX_DEPTH, Pos};
pub use script::{Script, ScriptError, ScriptLimits};

use crate::control::Budget;
use crate::expr::{ExprError, TermSpec, no_params, some_args};
use crate::game::ImpartialGame;
use crate::nimber::Nimber;
use crate::solve::{SolveError, Solver};
use crate::sum::{AnalysisError, Component, Context, Move};
use rhai::{Array, Dynamic};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Why a scripted game could not be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScriptFailure {
    /// The script failed or returned something that is not a position.
    #[error(transparent)]
    Script(#[from] ScriptError),
    /// The engine stopped (a limit of the budget, or a cycle).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A request that needs a heap rule (`const HEAP = true`).
    #[error("`{0}` is not a heap rule (the script does not say `const HEAP = true;`)")]
    NotHeap(String),
    /// A value too large for a nim-sequence table.
    #[error("g({heap}) = {value} is larger than a nim-sequence stores (65535)")]
    ValueTooLarge {
        /// The heap.
        heap: u64,
        /// Its value.
        value: u64,
    },
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The moves of a scripted game, for the generic engine.
///
/// The engine's `options` cannot fail, so a script error travels on its own channel: the
/// first one is kept in `failure`, and from then on every position has no options and no
/// script runs. The engine then finishes quickly (it only closes the positions already on its
/// stack, whose options it has listed and paid for), [`ScriptRule::value`] throws its
/// meaningless answer away and returns the script's error. The budget is never cancelled for
/// a script error: its cancellation flag belongs to the caller (in the command-line tool it is
/// the Ctrl-C flag), so a failing script is never taken for an interruption.
#[derive(Debug)]
struct ScriptGame {
    script: Script,
    heap: bool,
    has_components: bool,
    failure: Mutex<Option<ScriptError>>,
    /// Nanoseconds spent in calls of `moves` not yet charged to a budget.
    unpaid_nanos: AtomicU64,
}

impl ScriptGame {
    fn moves(&self, p: &Pos) -> Result<Vec<Pos>, ScriptError> {
        let started = std::time::Instant::now();
        let out = self.script.call("moves", p.to_dynamic());
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.unpaid_nanos.fetch_add(nanos, Ordering::Relaxed);
        let out = out?;
        let array = out.try_cast::<Array>().ok_or_else(|| {
            ScriptError::new(
                self.script.origin(),
                format!("moves({p}) must return an array of positions"),
            )
        })?;
        array
            .iter()
            .map(|d| {
                let q = Pos::from_dynamic(d).map_err(|what| {
                    ScriptError::new(self.script.origin(), format!("moves({p}) returned {what}"))
                })?;
                if self.heap && !is_heaps(&q) {
                    return Err(ScriptError::new(
                        self.script.origin(),
                        format!(
                            "moves({p}) returned {q}: a heap rule's move gives the heap left (a \
                             whole number, 0 or more) or an array of heaps"
                        ),
                    ));
                }
                Ok(q)
            })
            .collect()
    }

    fn parts(&self, p: &Pos) -> Result<Vec<Pos>, ScriptError> {
        if self.heap {
            return Ok(match p {
                Pos::List(heaps) => heaps.clone(),
                other => vec![other.clone()],
            });
        }
        if !self.has_components {
            return Ok(vec![p.clone()]);
        }
        let out = self.script.call("components", p.to_dynamic())?;
        let array = out.try_cast::<Array>().ok_or_else(|| {
            ScriptError::new(
                self.script.origin(),
                format!("components({p}) must return an array of positions"),
            )
        })?;
        array
            .iter()
            .map(|d| {
                Pos::from_dynamic(d).map_err(|what| {
                    ScriptError::new(
                        self.script.origin(),
                        format!("components({p}) returned {what}"),
                    )
                })
            })
            .collect()
    }

    fn fail(&self, e: ScriptError) {
        let mut failure = lock(&self.failure);
        if failure.is_none() {
            *failure = Some(e);
        }
    }

    fn failed(&self) -> bool {
        lock(&self.failure).is_some()
    }
}

fn is_heaps(p: &Pos) -> bool {
    match p {
        Pos::Int(n) => *n >= 0,
        Pos::List(items) => items.iter().all(|q| matches!(q, Pos::Int(n) if *n >= 0)),
        _ => false,
    }
}

/// The work charged for one call of a script's `moves`, in units of 10 to 100 ns: a call
/// costs a few microseconds (`cargo bench -p grundy --bench scripted`).
pub const CALL_UNITS: u64 = 64;

/// The work charged for each move a script returns: a move made, checked and converted
/// costs about a microsecond.
pub const MOVE_UNITS: u64 = 16;

/// A script call is charged at least its time at this many nanoseconds a unit: a list built
/// by `push` costs the square of its length (Rhai checks the list's size after each push),
/// which no count of moves foresees, and the work limit is to hold in time as it does for
/// built-in games (2.5·10^8 units is then 16 s of script time).
pub const NANOS_PER_UNIT: u64 = 64;

/// The game as the generic engine sees it.
#[derive(Debug, Clone)]
struct Shared(Arc<ScriptGame>);

impl ImpartialGame for Shared {
    type Position = Pos;
    fn listing_units(&self, options: u64) -> u64 {
        let counted = CALL_UNITS.saturating_add(options.saturating_mul(MOVE_UNITS));
        let timed = self.0.unpaid_nanos.swap(0, Ordering::Relaxed) / NANOS_PER_UNIT;
        counted.max(timed)
    }
    fn position_words(&self, p: &Pos) -> u64 {
        p.words()
    }
    fn options(&self, p: &Pos) -> Vec<Pos> {
        if self.0.failed() {
            return Vec::new();
        }
        self.0.moves(p).unwrap_or_else(|e| {
            self.0.fail(e);
            Vec::new()
        })
    }
    fn components(&self, p: &Pos) -> Vec<Pos> {
        if self.0.failed() {
            return vec![p.clone()];
        }
        self.0.parts(p).unwrap_or_else(|e| {
            self.0.fail(e);
            vec![p.clone()]
        })
    }
}

/// A rule defined by a script: its name, how its terms read, and its moves.
#[derive(Debug)]
pub struct ScriptRule {
    name: String,
    usage: String,
    summary: String,
    example: String,
    heap: bool,
    has_position: bool,
    has_args: bool,
    game: Arc<ScriptGame>,
    /// Values found so far, kept between analyses (a script's moves never change).
    solver: Mutex<Option<Solver<Shared>>>,
}

impl ScriptRule {
    /// Compiles a rule script; `origin` (usually the file name) names it in messages.
    ///
    /// ```
    /// use grundy::scripted::{ScriptLimits, ScriptRule};
    /// let source = "const NAME = \"take13\"; const HEAP = true;
    ///               fn moves(n) { [1, 3].filter(|k| k <= n).map(|k| n - k) }";
    /// let rule = ScriptRule::compile(source, "take13.rhai", ScriptLimits::DEFAULT).unwrap();
    /// assert_eq!(rule.name(), "take13");
    /// let err = ScriptRule::compile("fn moves(p) { [p +] }", "bad.rhai", ScriptLimits::DEFAULT)
    ///     .unwrap_err();
    /// assert_eq!((err.line, err.column), (Some(1), Some(19)));
    /// ```
    pub fn compile(source: &str, origin: &str, limits: ScriptLimits) -> Result<Self, ScriptError> {
        let script = Script::compile(source, origin, limits)?;
        let globals = script.globals()?;
        let text = |key: &str| -> Result<Option<String>, ScriptError> {
            match globals.iter().rev().find(|(k, _)| k == key) {
                None => Ok(None),
                Some((_, v)) if v.is_string() => Ok(Some(v.to_string())),
                Some((_, v)) => Err(ScriptError::new(
                    origin,
                    format!("`{key}` must be a string, not a {}", v.type_name()),
                )),
            }
        };
        let name = text("NAME")?.ok_or_else(|| {
            ScriptError::new(
                origin,
                "the script must name its rule: `const NAME = \"mygame\";`",
            )
        })?;
        let valid = name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !valid {
            return Err(ScriptError::new(
                origin,
                format!(
                    "NAME `{}` is not a rule name: use letters, digits, `-` and `_`, \
                     starting with a letter",
                    crate::expr::shorten(&name)
                ),
            ));
        }
        let heap = match globals.iter().rev().find(|(k, _)| k == "HEAP") {
            None => false,
            Some((_, v)) => v.as_bool().map_err(|t| {
                ScriptError::new(origin, format!("`HEAP` must be true or false, not a {t}"))
            })?,
        };
        if !script.defines("moves", 1) {
            return Err(ScriptError::new(
                origin,
                "the script must define `fn moves(p)`: the positions one move leads to",
            ));
        }
        let usage = text("USAGE")?.unwrap_or_else(|| {
            if heap {
                format!("{name} HEAP...")
            } else {
                format!("{name} ARG...")
            }
        });
        let summary = text("SUMMARY")?.unwrap_or_else(|| format!("a rule from {origin}"));
        let example = text("EXAMPLE")?.unwrap_or_else(|| {
            if heap {
                format!("{name} 10")
            } else {
                usage.clone()
            }
        });
        let has_position = script.defines("position", 1);
        let has_args = script.defines("args", 1);
        let has_components = script.defines("components", 1);
        Ok(ScriptRule {
            name,
            usage,
            summary,
            example,
            heap,
            has_position,
            has_args,
            game: Arc::new(ScriptGame {
                script,
                heap,
                has_components,
                failure: Mutex::new(None),
                unpaid_nanos: AtomicU64::new(0),
            }),
            solver: Mutex::new(None),
        })
    }

    /// The rule's name in expressions.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How a term is written, for help texts.
    pub fn usage(&self) -> &str {
        &self.usage
    }

    /// One line on what the game is.
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// A term of this rule to try (`EXAMPLE`; for a heap rule without one, `NAME 10`; else
    /// the usage).
    pub fn example(&self) -> &str {
        &self.example
    }

    /// Whether this is a heap rule (each argument one heap; it has a nim-sequence).
    pub fn is_heap(&self) -> bool {
        self.heap
    }

    /// The script's name in messages.
    pub fn origin(&self) -> &str {
        self.game.script.origin()
    }

    /// The positions one move leads to from `p`, as the script lists them.
    pub fn moves(&self, p: &Pos) -> Result<Vec<Pos>, ScriptError> {
        self.game.moves(p)
    }

    /// The independent parts of `p` (itself alone unless the script splits it).
    pub fn parts(&self, p: &Pos) -> Result<Vec<Pos>, ScriptError> {
        self.game.parts(p)
    }

    /// The Sprague–Grundy value of `p`, by the generic engine under `budget`. Values are
    /// remembered for later calls.
    pub fn value(&self, p: &Pos, budget: &Budget) -> Result<Nimber, ScriptFailure> {
        let mut guard = lock(&self.solver);
        let solver = guard
            .get_or_insert_with(|| Solver::with_budget(Shared(Arc::clone(&self.game)), budget));
        solver.set_budget(budget);
        let result = solver.value(p);
        let failure = lock(&self.game.failure).take();
        match (result, failure) {
            (_, Some(e)) => {
                // The search stopped half-way: start afresh next time.
                *guard = None;
                Err(e.into())
            }
            (Err(e), None) => {
                *guard = None;
                Err(e.into())
            }
            (Ok(v), None) => Ok(v),
        }
    }

    /// The nim-sequence g(0), ..., g(to) of a heap rule.
    pub fn nim_sequence(&self, to: u64, budget: &Budget) -> Result<Vec<u16>, ScriptFailure> {
        if !self.heap {
            return Err(ScriptFailure::NotHeap(self.name.clone()));
        }
        let count = usize::try_from(to)
            .ok()
            .and_then(|t| t.checked_add(1))
            .ok_or(SolveError::Budget(crate::control::BudgetError::Memory {
                needed: None,
                limit: budget.limits().max_bytes,
            }))?;
        let mut values = budget
            .vec_with_capacity::<u16>(count)
            .map_err(SolveError::Budget)?;
        for n in 0..=to {
            let heap = i64::try_from(n).map_err(|_| {
                ScriptError::new(self.origin(), format!("heap {n} is too large for a script"))
            })?;
            let v = self.value(&Pos::Int(heap), budget)?;
            let v = u16::try_from(v.0).map_err(|_| ScriptFailure::ValueTooLarge {
                heap: n,
                value: v.0,
            })?;
            values.push(v);
        }
        Ok(values)
    }

    /// Checks a term of this rule into its components.
    pub fn build(self: &Arc<Self>, term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
        no_params(term)?;
        let args = some_args(term, &self.usage)?;
        let component = |pos: Pos| -> Box<dyn Component> {
            Box::new(ScriptComponent {
                rule: Arc::clone(self),
                pos,
            })
        };
        if self.heap {
            return args
                .iter()
                .map(|a| {
                    let n = crate::expr::parse_u64(a, "a heap size")?;
                    let n = i64::try_from(n).map_err(|_| {
                        ExprError::new(a.span.clone(), format!("heap {n} is too large"))
                    })?;
                    Ok(component(Pos::Int(n)))
                })
                .collect();
        }
        let script_error = |e: ScriptError| ExprError::new(term.span.clone(), e.to_string());
        let position = if self.has_position {
            let values: Array = args
                .iter()
                .map(|a| match a.value.parse::<i64>() {
                    Ok(i) => Dynamic::from_int(i),
                    Err(_) => Dynamic::from(a.value.clone()),
                })
                .collect();
            let out = self
                .game
                .script
                .call("position", Dynamic::from_array(values))
                .map_err(script_error)?;
            Pos::from_dynamic(&out).map_err(|what| {
                ExprError::new(term.span.clone(), format!("position(...) returned {what}"))
            })?
        } else {
            let mut numbers = Vec::with_capacity(args.len());
            for a in args {
                let n = a.value.parse::<i64>().map_err(|_| {
                    ExprError::new(
                        a.span.clone(),
                        format!(
                            "expected a whole number, found `{}`",
                            crate::expr::shorten(&a.value)
                        ),
                    )
                    .with_help(format!(
                        "usage: {}; a script reads other arguments with `fn position(args)`",
                        self.usage
                    ))
                })?;
                numbers.push(Pos::Int(n));
            }
            if numbers.len() == 1 {
                numbers.remove(0)
            } else {
                Pos::List(numbers)
            }
        };
        let parts = self.game.parts(&position).map_err(script_error)?;
        Ok(parts.into_iter().map(component).collect())
    }

    fn print_args(&self, p: &Pos) -> Vec<String> {
        if self.has_args {
            let printed = self
                .game
                .script
                .call("args", p.to_dynamic())
                .ok()
                .and_then(|d| d.try_cast::<Array>())
                .map(|a| a.iter().map(|d| d.to_string()).collect());
            if let Some(args) = printed {
                return args;
            }
        }
        p.plain_args().unwrap_or_else(|| vec![p.to_string()])
    }
}

/// One component of a scripted rule: the rule and a position.
#[derive(Clone, Debug)]
pub struct ScriptComponent {
    rule: Arc<ScriptRule>,
    pos: Pos,
}

impl ScriptComponent {
    /// The position.
    pub fn position(&self) -> &Pos {
        &self.pos
    }

    fn failure(&self, e: ScriptFailure) -> AnalysisError {
        match e {
            ScriptFailure::Solve(s) => AnalysisError::solve(self, s),
            ScriptFailure::Script(e) => AnalysisError::rule(self, e.to_string()),
            other => AnalysisError::unsupported(self, other.to_string()),
        }
    }
}

impl Component for ScriptComponent {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Script
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        self.rule.name.clone()
    }
    fn args(&self) -> Vec<String> {
        self.rule.print_args(&self.pos)
    }
    fn joins(&self) -> bool {
        self.rule.heap
    }
    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        self.rule
            .value(&self.pos, &ctx.budget)
            .map_err(|e| self.failure(e))
    }
    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        self.value(ctx)
    }
    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        let fail = |e: ScriptError| self.failure(e.into());
        let results = self.rule.moves(&self.pos).map_err(fail)?;
        ctx.budget
            .charge(results.len() as u64 + 1)
            .map_err(|e| AnalysisError::budget(self, e))?;
        let from = self.args().join(" ");
        results
            .into_iter()
            .map(|q| {
                let parts = self.rule.parts(&q).map_err(fail)?;
                let to: Vec<String> = parts
                    .iter()
                    .map(|p| self.rule.print_args(p).join(" "))
                    .collect();
                let to = if to.is_empty() {
                    "0".to_string()
                } else {
                    to.join(" + ")
                };
                Ok(Move {
                    description: format!("{from} -> {to}"),
                    result: parts
                        .into_iter()
                        .map(|pos| {
                            Box::new(ScriptComponent {
                                rule: Arc::clone(&self.rule),
                                pos,
                            }) as Box<dyn Component>
                        })
                        .collect(),
                })
            })
            .collect()
    }
    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(self.clone())
    }
}
