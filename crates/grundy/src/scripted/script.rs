//! The sandboxed Rhai engine that runs rule scripts, and its errors with line and column.
//!
//! The engine is built with Rhai's `no_module` feature (no `import`, so no file is ever
//! read) and has no file, network, process or clock functions: a script can only compute.
//! `print` and `debug` go nowhere (the library never prints), `eval` is disabled, and every
//! call runs under limits ([`ScriptLimits`]): operations per call, call depth, expression
//! depth, the sizes of strings, arrays and maps, and the memory a call gains (counted by the
//! [`CountingAllocator`](super::CountingAllocator)). A script that loops or recurses forever,
//! or whose data grows without end, is stopped by them with an error, never by the process
//! running out of stack or memory. Rhai reports these limits without a place in the script,
//! so their errors name the function that was called (`in `moves``) instead of a line.

use super::meter::{self, CallMark};
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, ParseError, Scope};
use std::fmt;

/// What the progress hook stops a call with when it passes [`ScriptLimits::max_memory`].
const MEMORY_TOKEN: &str = "grundy: memory ceiling";

/// The limits every call into a script runs under.
///
/// Operations and call depth stop a script that loops or recurses forever; the sizes stop one
/// whose data grows without end (`s += s`, `a.append(a)`, `[].pad(10 ** 12, 0)`) with an
/// error before the process runs out of memory. Rhai checks a size after each change by
/// walking the value changed, so a loop that pushes n moves into one array costs about n²/2
/// element visits: Kayles to heap 2000 takes 7 times as long as with the sizes unchecked
/// (`cargo bench -p grundy --bench scripted`; the figures are in the module docs of
/// [`crate::scripted`]). A list built by `map` or `filter` is made in one change, and costs
/// less. Correct and bounded comes first: the checks stay on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptLimits {
    /// The most Rhai operations in one call (one call lists the moves of one position).
    pub max_operations: u64,
    /// The deepest nesting of function calls (recursion).
    pub max_call_levels: usize,
    /// The deepest nesting of expressions (at compile time, and in functions).
    pub max_expr_depth: usize,
    /// The longest string, in bytes (0: no limit).
    pub max_string_size: usize,
    /// The most elements of one array, counting the elements of the arrays inside it (0: no
    /// limit).
    pub max_array_size: usize,
    /// The most entries of one object map, counting the maps inside it (0: no limit). With
    /// all three sizes 0 no size is checked, and nothing stops data that grows forever.
    pub max_map_size: usize,
    /// The most bytes one call may gain (0: no limit). Rhai checks the sizes above when it
    /// checks, and not when a container grows by index assignment (`m[k] = v`, `a[i] = v`);
    /// this ceiling holds whatever the script does, counted by
    /// [`CountingAllocator`](super::CountingAllocator) when the program installs it.
    pub max_memory: usize,
}

impl ScriptLimits {
    /// One million operations per call (some tens of milliseconds), 64 nested calls and
    /// expressions, strings of 1 MiB, arrays of 2^15 = 32,768 elements (Rhai walks an array after each
    /// push to check its size, so filling one costs n²/2 steps: 2^15 is about half a second)
    /// and maps of 2^14 entries, and 64 MiB of memory gained in one call. A script that
    /// outgrows them stops within about a second.
    pub const DEFAULT: ScriptLimits = ScriptLimits {
        max_operations: 1_000_000,
        max_call_levels: 64,
        max_expr_depth: 64,
        max_string_size: 1 << 20,
        max_array_size: 1 << 15,
        max_map_size: 1 << 14,
        max_memory: 64 << 20,
    };
}

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits::DEFAULT
    }
}

/// An error in a rule script: where (file, line, column where known) and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ScriptError {
    /// The script's name, usually its file name.
    pub origin: String,
    /// The line (from 1), where known.
    pub line: Option<usize>,
    /// The column (from 1), where known.
    pub column: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl ScriptError {
    /// An error without a place in the script.
    pub fn new(origin: &str, message: impl Into<String>) -> Self {
        ScriptError {
            origin: origin.to_string(),
            line: None,
            column: None,
            message: message.into(),
        }
    }

    fn at(origin: &str, pos: rhai::Position, message: impl Into<String>) -> Self {
        ScriptError {
            origin: origin.to_string(),
            line: pos.line(),
            column: pos.position(),
            message: message.into(),
        }
    }
}

/// `euclid.rhai:4:17: message`, or `euclid.rhai: message` without a place.
impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.origin)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

/// A compiled script in its sandbox.
pub struct Script {
    engine: Engine,
    ast: AST,
    origin: String,
    limits: ScriptLimits,
}

impl fmt::Debug for Script {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Script")
            .field("origin", &self.origin)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Script {
    /// Compiles `source`; `origin` names it in messages.
    pub fn compile(source: &str, origin: &str, limits: ScriptLimits) -> Result<Self, ScriptError> {
        let mut engine = Engine::new();
        engine
            .set_max_operations(limits.max_operations)
            .set_max_call_levels(limits.max_call_levels)
            .set_max_expr_depths(limits.max_expr_depth, limits.max_expr_depth)
            .set_max_string_size(limits.max_string_size)
            .set_max_array_size(limits.max_array_size)
            .set_max_map_size(limits.max_map_size)
            .set_max_variables(10_000)
            .set_max_functions(10_000);
        if limits.max_memory > 0 {
            let ceiling = limits.max_memory;
            engine.on_progress(move |_| {
                (meter::gained_in_call() > ceiling).then(|| Dynamic::from(MEMORY_TOKEN))
            });
        }
        engine.on_print(|_| {});
        engine.on_debug(|_, _, _| {});
        engine.disable_symbol("eval");
        let ast = engine.compile(source).map_err(|e: ParseError| {
            ScriptError::at(origin, e.position(), e.err_type().to_string())
        })?;
        Ok(Script {
            engine,
            ast,
            origin: origin.to_string(),
            limits,
        })
    }

    /// The script's name in messages.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Runs the top level of the script once and returns its variables and constants.
    pub fn globals(&self) -> Result<Vec<(String, Dynamic)>, ScriptError> {
        let mut scope = Scope::new();
        let _mark = CallMark::start();
        self.engine
            .run_ast_with_scope(&mut scope, &self.ast)
            .map_err(|e| self.runtime_error(&e, None))?;
        Ok(scope
            .iter()
            .map(|(name, _, value)| (name.to_string(), value))
            .collect())
    }

    /// Whether the script defines `name` with `arity` parameters.
    pub fn defines(&self, name: &str, arity: usize) -> bool {
        self.ast
            .iter_functions()
            .any(|f| f.name == name && f.params.len() == arity)
    }

    /// Calls the script's function `name` with one argument.
    pub fn call(&self, name: &str, argument: Dynamic) -> Result<Dynamic, ScriptError> {
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let _mark = CallMark::start();
        self.engine
            .call_fn_with_options::<Dynamic>(
                options,
                &mut Scope::new(),
                &self.ast,
                name,
                (argument,),
            )
            .map_err(|e| self.runtime_error(&e, Some(name)))
    }

    fn runtime_error(&self, error: &EvalAltResult, function: Option<&str>) -> ScriptError {
        let inner = error.unwrap_inner();
        let pos = inner.position();
        let place = function.map(|f| format!(" (in `{f}`)")).unwrap_or_default();
        let message = match inner {
            EvalAltResult::ErrorTooManyOperations(_) => format!(
                "the script ran past its limit of {} operations in one call{place}: does it \
                 loop forever?",
                self.limits.max_operations
            ),
            EvalAltResult::ErrorStackOverflow(_) => format!(
                "function calls nest deeper than {} levels{place}: does it recurse forever?",
                self.limits.max_call_levels
            ),
            EvalAltResult::ErrorTerminated(token, _) if token.to_string() == MEMORY_TOKEN => {
                let max = self.limits.max_memory;
                let max = if max % (1 << 20) == 0 {
                    format!("{} MiB", max >> 20)
                } else {
                    format!("{max} bytes")
                };
                format!(
                    "the script took more than {max} of memory in one call{place}: does its \
                     data grow forever?"
                )
            }
            EvalAltResult::ErrorDataTooLarge(what, _) => {
                let limit = match what.as_str() {
                    w if w.contains("string") => {
                        format!("{} bytes for a string", self.limits.max_string_size)
                    }
                    w if w.contains("map") => {
                        format!("{} entries for a map", self.limits.max_map_size)
                    }
                    _ => format!("{} elements for an array", self.limits.max_array_size),
                };
                format!(
                    "{what} too large: past the script's limit of {limit}{place}: does its \
                     data grow forever?"
                )
            }
            other => {
                let text = other.to_string();
                let text = if pos.is_none() {
                    text.as_str()
                } else {
                    text.strip_suffix(&format!(" ({pos})")).unwrap_or(&text)
                };
                format!("{text}{place}")
            }
        };
        ScriptError::at(&self.origin, pos, message)
    }
}
