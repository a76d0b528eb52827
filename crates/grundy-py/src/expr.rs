//! Expressions, nim-sequences and game graphs for Python, through the library.

use crate::errors::{self, AnalysisError, ScriptError};
use crate::run::detached;
use grundy::analysis::{Options, analyze_sum};
use grundy::catalog::Catalog;
use grundy::control::{Budget, Control, Limits};
use grundy::graph::csr::Csr;
use grundy::heap::period::{Period, Proof, apparent_period, find_period};
use grundy::heap::report::svg_scatter;
use grundy::heap::rules::HeapRule;
use grundy::heap::sequence::engine_for;
use grundy::misere::MisereError;
use grundy::misere::periodicity::{MAX_NIM_HEAPS, heap_quotient_as_asked};
use grundy::scripted::ScriptFailure;
use grundy::sum::{Context, Engine};
use grundy::value::Value;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Value as Json, json};

/// The limits of one call: the library's defaults for this machine unless given
/// ([`Limits::for_this_machine`]: a table the process could not map is refused with a
/// `LimitError` instead of aborting the interpreter). `max_memory` is in MiB, as the CLI's
/// `--max-memory`.
pub fn limits(
    max_positions: Option<usize>,
    max_work: Option<u64>,
    max_memory: Option<u64>,
) -> PyResult<Limits> {
    let machine = Limits::for_this_machine();
    let max_bytes = match max_memory {
        None => machine.max_bytes,
        Some(mib) => mib.checked_mul(1 << 20).ok_or_else(|| {
            PyValueError::new_err(format!(
                "max_memory={mib}: too large (the figure is in MiB)"
            ))
        })?,
    };
    Ok(Limits {
        max_positions: max_positions.unwrap_or(machine.max_positions),
        max_work: max_work.unwrap_or(machine.max_work),
        max_bytes,
    })
}

/// The built-in rules and these scripts, each given as (source, name).
fn catalog(scripts: Vec<(String, String)>) -> PyResult<Catalog> {
    let mut catalog = Catalog::new();
    for (source, origin) in scripts {
        catalog
            .load_script(&source, &origin)
            .map_err(|e| ScriptError::new_err(e.to_string()))?;
    }
    Ok(catalog)
}

/// Analyses an expression; the result is the CLI's `--json` object, as text.
#[pyfunction]
/// `limits` is `(max_positions, max_work, max_memory)`, each `None` for the default.
#[pyo3(signature = (expression, misere=false, engine="fast", limits=(None, None, None), scripts=Vec::new()))]
pub fn analyze_json(
    py: Python<'_>,
    expression: &str,
    misere: bool,
    engine: &str,
    limits: (Option<usize>, Option<u64>, Option<u64>),
    scripts: Vec<(String, String)>,
) -> PyResult<String> {
    let (max_positions, max_work, max_memory) = limits;
    let engine = match engine {
        "fast" => Engine::Fast,
        "generic" => Engine::Generic,
        other => {
            return Err(PyValueError::new_err(format!(
                "engine must be \"fast\" or \"generic\", not {other:?}"
            )));
        }
    };
    let catalog = catalog(scripts)?;
    let sum = catalog
        .parse(expression)
        .map_err(|e| errors::expression(&e, expression))?;
    let options = Options {
        misere,
        context: Context::new(engine, self::limits(max_positions, max_work, max_memory)?),
    };
    let budget = options.context.budget.clone();
    let analysis = detached(py, &budget, || analyze_sum(&sum, &options))?.map_err(|e| {
        match (&e, e.budget_error()) {
            (grundy::sum::AnalysisError::Rule { .. }, _) => ScriptError::new_err(e.to_string()),
            (_, Some(b)) => errors::budget(b, &e.to_string()),
            (_, None) => AnalysisError::new_err(e.to_string()),
        }
    })?;
    serde_json::to_string(&analysis).map_err(|e| AnalysisError::new_err(e.to_string()))
}

/// The CLI's JSON for a period.
fn period_json(p: &Period) -> Json {
    let proof = match &p.proof {
        Proof::Apparent => json!("apparent"),
        Proof::GuySmith {
            heaps: 1, needed, ..
        } => json!(format!("subtraction-game window, {needed} values")),
        Proof::GuySmith { needed, .. } => json!(format!("Guy-Smith theorem, {needed} values")),
        Proof::Theorem(t) => json!(t),
        Proof::Arithmetic { needed } => {
            json!(format!("arithmetic-periodicity test, {needed} values"))
        }
    };
    json!({
        "period": p.period,
        "preperiod": p.preperiod,
        "saltus": p.saltus,
        "proven": p.proven(),
        "proof": proof,
    })
}

/// The JSON of a sequence: `rules`, `computed`, `values`, `period`.
pub fn sequence_object(rule: &str, values: &[u16], period: Option<&Period>) -> Json {
    json!({
        "rules": rule,
        "computed": values.len(),
        "values": values,
        "period": period.map(period_json),
    })
}

/// The nim-sequence g(0), ..., g(to) of a heap rule (built in or from a script), as the CLI's
/// `sequence --json` text.
#[pyfunction]
#[pyo3(signature = (rule, to, scripts=Vec::new()))]
pub fn sequence_json(
    py: Python<'_>,
    rule: &str,
    to: u64,
    scripts: Vec<(String, String)>,
) -> PyResult<String> {
    let catalog = catalog(scripts)?;
    let count = to
        .checked_add(1)
        .ok_or_else(|| PyValueError::new_err("`to` is too large"))?;
    let budget = Budget::new(Limits::for_this_machine());
    let object = if let Some(script) = catalog.script(rule) {
        let script = script.clone();
        let values =
            detached(py, &budget, || script.nim_sequence(to, &budget))?.map_err(|e| match e {
                ScriptFailure::Script(s) => ScriptError::new_err(s.to_string()),
                ScriptFailure::Solve(grundy::solve::SolveError::Budget(b)) => {
                    errors::budget(b, script.name())
                }
                other => AnalysisError::new_err(format!("{}: {other}", script.name())),
            })?;
        let period = apparent_period(&values, true);
        sequence_object(script.name(), &values, period.as_ref())
    } else {
        let heap_rule = HeapRule::parse(rule).map_err(|e| errors::expression(&e, rule))?;
        let mut engine = engine_for(&heap_rule, Vec::new())
            .map_err(|e| AnalysisError::new_err(e.to_string()))?;
        let memory = engine.memory_needed(to);
        budget
            .check_bytes(memory, 1)
            .map_err(|e| errors::budget(e, heap_rule.name()))?;
        let finished = detached(py, &budget, || {
            let mut control = Control::none().with_cancel(budget.cancel_flag());
            engine.extend_to_len(count, &mut control)
        })?
        .map_err(|e| AnalysisError::new_err(e.to_string()))?;
        if !finished {
            return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                "interrupted",
            ));
        }
        let values = engine.values();
        let values = &values[..values.len().min(count as usize)];
        let period = find_period(&heap_rule, values);
        sequence_object(heap_rule.name(), values, period.as_ref())
    };
    Ok(object.to_string())
}

/// Every rule's usage and summary (built in, then the scripts').
#[pyfunction]
#[pyo3(signature = (scripts=Vec::new()))]
pub fn rules(scripts: Vec<(String, String)>) -> PyResult<Vec<(String, String)>> {
    Ok(catalog(scripts)?.help())
}

/// Solves a game graph of `vertices` vertices with edges `sources[i] -> targets[i]`: for each
/// vertex its finite value (or None), the K of ∞(K) (or None), outcome and remoteness.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn solve_graph(
    py: Python<'_>,
    vertices: u32,
    sources: Vec<u32>,
    targets: Vec<u32>,
) -> PyResult<Vec<(Option<u32>, Option<Vec<u64>>, String, Option<u32>)>> {
    if sources.len() != targets.len() {
        return Err(PyValueError::new_err(
            "sources and targets differ in length",
        ));
    }
    if let Some(&bad) = sources.iter().chain(&targets).find(|&&v| v >= vertices) {
        return Err(PyValueError::new_err(format!(
            "vertex {bad} is out of range"
        )));
    }
    let budget = Budget::default();
    detached(py, &budget, || {
        let csr = Csr::from_edges(vertices, &sources, &targets);
        let mut control = Control::none().with_cancel(budget.cancel_flag());
        let solution = grundy::graph::solve(&csr, &mut control)?;
        Ok((0..vertices)
            .map(|v| {
                let (finite, infinite) = match solution.value(&csr, v) {
                    Value::Finite(n) => (Some(n.0 as u32), None),
                    Value::Infinite(k) => (None, Some(k.iter().map(|n| n.0).collect())),
                };
                (
                    finite,
                    infinite,
                    solution.outcome(v).to_string(),
                    solution.remoteness(v),
                )
            })
            .collect())
    })?
    .map_err(|e: grundy::graph::GraphError| {
        pyo3::exceptions::PyKeyboardInterrupt::new_err(e.to_string())
    })
}

/// An SVG scatter plot of a nim-sequence.
#[pyfunction]
pub fn svg_plot(values: Vec<u16>, title: &str) -> String {
    svg_scatter(&values, title)
}

/// The misère quotient of a heap rule's heaps `1..=max_heap` (with the Nim heaps `*1..=*nim`),
/// as the CLI's `quotient --json` text; a period that shows is proven where the periodicity
/// theorem applies, computing further heaps as the CLI does.
#[pyfunction]
#[pyo3(signature = (rule, max_heap, nim, max_elements))]
pub fn quotient_json(
    py: Python<'_>,
    rule: &str,
    max_heap: u64,
    nim: u32,
    max_elements: usize,
) -> PyResult<String> {
    let heap_rule = HeapRule::parse(rule).map_err(|e| errors::expression(&e, rule))?;
    if nim > MAX_NIM_HEAPS {
        return Err(PyValueError::new_err(format!(
            "nim={nim}: at most {MAX_NIM_HEAPS} Nim heaps beside the heaps (each is a generator)"
        )));
    }
    let budget = Budget::new(Limits::for_this_machine());
    let q = detached(py, &budget, || {
        heap_quotient_as_asked(&heap_rule, nim, max_heap, &budget, max_elements)
    })?
    .map_err(|stop| match stop.error {
        MisereError::Budget(b) => errors::budget(b, heap_rule.name()),
        MisereError::TooManyElements { .. } => {
            errors::LimitError::new_err(format!("{}: {}", heap_rule.name(), stop.error))
        }
        MisereError::HeapBound { .. } => PyValueError::new_err(stop.error.to_string()),
        other => AnalysisError::new_err(format!("{}: {other}", heap_rule.name())),
    })?;
    serde_json::to_string(&q.report()).map_err(|e| AnalysisError::new_err(e.to_string()))
}
