//! The library's typed API for Python: a request as JSON in, the response as JSON out, the
//! same shapes the command line's `--json` and the web server print ([`grundy::api`]).
//! The work runs on a worker thread with the GIL released, cancelled by Ctrl-C.

use crate::errors::{self, AnalysisError, LimitError, ScriptError};
use crate::run::detached;
use grundy::api::{
    AnalyzeRequest, ApiError, ErrorKind, GraphRequest, LimitRequest, Preset, QuotientRequest,
    SequenceReport, SequenceRequest, Session, Task,
};
use grundy::boards::cram::{EndTable, EndTableError, MAX_END_ROWS};
use grundy::catalog::Catalog;
use grundy::heap::period::{PeriodSummary, apparent_period};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The limits of one call given as keyword arguments: `max_memory` in MiB, as the CLI's
/// `--max-memory`; each `None` takes the standard preset's figure for `task`.
pub fn limits(
    max_positions: Option<usize>,
    max_work: Option<u64>,
    max_memory: Option<u64>,
    task: Task,
) -> PyResult<grundy::control::Limits> {
    LimitRequest {
        max_positions,
        max_work,
        max_memory,
        threads: None,
    }
    .resolve(Preset::Standard, task)
    .map_err(api_error)
}

/// The built-in rules and these scripts, each given as (source, name).
pub fn catalog(scripts: Vec<(String, String)>) -> PyResult<Catalog> {
    let mut catalog = Catalog::new();
    for (source, origin) in scripts {
        catalog
            .load_script(&source, &origin)
            .map_err(|e| ScriptError::new_err(e.to_string()))?;
    }
    Ok(catalog)
}

/// The API's error as a Python exception: `ExpressionError` (with `span`), `ValueError`
/// for a request out of range, `LimitError`, `ScriptError`, `AnalysisError`, and
/// `KeyboardInterrupt` for an interruption.
pub fn api_error(e: ApiError) -> PyErr {
    match e.kind {
        ErrorKind::Expression => {
            let message = e
                .message
                .strip_prefix("invalid expression\n")
                .unwrap_or(&e.message);
            let err = errors::ExpressionError::new_err(message.to_string());
            Python::with_gil(|py| {
                if let Some([start, end]) = e.span {
                    let _ = err.value(py).setattr("span", (start, end));
                }
            });
            err
        }
        ErrorKind::Input => PyValueError::new_err(e.message),
        ErrorKind::Limit => LimitError::new_err(e.message),
        ErrorKind::Interrupted => PyKeyboardInterrupt::new_err("interrupted"),
        ErrorKind::Rule => ScriptError::new_err(e.message),
        ErrorKind::Unsupported => AnalysisError::new_err(e.message),
    }
}

pub fn parse<T: DeserializeOwned>(request: &str) -> PyResult<T> {
    serde_json::from_str(request).map_err(|e| PyValueError::new_err(format!("bad request: {e}")))
}

fn json(value: &impl Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| AnalysisError::new_err(e.to_string()))
}

/// The end table at `path`, read, or computed for `rows` rows and written (its work apart
/// from the analysis's, its memory within the same limit).
fn open_end_table(
    py: Python<'_>,
    path: &std::path::Path,
    rows: u32,
    budget: &grundy::control::Budget,
) -> PyResult<std::sync::Arc<EndTable>> {
    let own = budget.share(grundy::control::Limits {
        max_work: u64::MAX,
        ..budget.limits()
    });
    match detached(py, &own, || EndTable::open_or_compute(path, rows, &own))? {
        Ok((table, _)) => Ok(table.into()),
        Err(EndTableError::Budget(b)) => Err(api_error(ApiError::budget(b, "the end table"))),
        Err(e @ (EndTableError::Io { .. } | EndTableError::Write(_))) => Err(
            pyo3::exceptions::PyOSError::new_err(format!("end table {e}")),
        ),
        Err(e) => Err(PyValueError::new_err(format!("end table {e}"))),
    }
}

/// Answers one request of the typed API: `kind` is `analyze`, `sequence`, `quotient` or
/// `graph`, `request` the request as JSON (the schema's `AnalyzeRequest`, ...), `scripts`
/// the rule scripts as (source, name); `checkpoint`, for `analyze`, a file that keeps the
/// search table of the expression's Cram board (a warning if it cannot be written);
/// `end_table`, for `analyze`, the file of an end table of small Cram regions (read, or
/// computed for `end_rows` rows and written). The response is JSON, as `grundy ... --json`
/// prints it.
#[pyfunction]
#[pyo3(signature = (kind, request, scripts=Vec::new(), checkpoint=None, end_table=None, end_rows=MAX_END_ROWS))]
pub fn call(
    py: Python<'_>,
    kind: &str,
    request: &str,
    scripts: Vec<(String, String)>,
    checkpoint: Option<std::path::PathBuf>,
    end_table: Option<std::path::PathBuf>,
    end_rows: u32,
) -> PyResult<String> {
    let session = Session::new(Preset::Standard).with_catalog(catalog(scripts)?);
    if (checkpoint.is_some() || end_table.is_some()) && kind != "analyze" {
        return Err(PyValueError::new_err(format!(
            "a checkpoint or an end table serves the search of an analysis, not {kind}"
        )));
    }
    match kind {
        "analyze" => {
            let req: AnalyzeRequest = parse(request)?;
            let budget = session.budget(&req.limits, req.task()).map_err(api_error)?;
            let session = match end_table {
                None => session,
                Some(path) => session.with_end_table(open_end_table(py, &path, end_rows, &budget)?),
            };
            let Some(path) = checkpoint else {
                let answer = detached(py, &budget, || session.analyze(&req, &budget))?;
                return json(&answer.map_err(api_error)?);
            };
            let resumed = detached(py, &budget, || {
                session.analyze_with_checkpoint(&req, &budget, &path)
            })?
            .map_err(api_error)?;
            if let Err(e) = &resumed.saved {
                let message = format!("the search table could not be kept: {e}");
                let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
                PyErr::warn(py, &category, &std::ffi::CString::new(message)?, 1)?;
            }
            json(&resumed.analysis.map_err(api_error)?)
        }
        "sequence" => {
            let req: SequenceRequest = parse(request)?;
            let budget = session
                .budget(&req.limits, Task::Sequence)
                .map_err(api_error)?;
            json(&detached(py, &budget, || session.sequence(&req, &budget))?.map_err(api_error)?)
        }
        "quotient" => {
            let req: QuotientRequest = parse(request)?;
            let budget = session
                .budget(&req.limits, Task::Quotient)
                .map_err(api_error)?;
            json(&detached(py, &budget, || session.quotient(&req, &budget))?.map_err(api_error)?)
        }
        "graph" => {
            let req: GraphRequest = parse(request)?;
            let budget = session
                .budget(&req.limits, Task::Graph)
                .map_err(api_error)?;
            json(&detached(py, &budget, || session.graph(&req, &budget))?.map_err(api_error)?)
        }
        other => Err(PyValueError::new_err(format!(
            "no request kind {other:?}: analyze, sequence, quotient or graph"
        ))),
    }
}

/// Every rule's usage and summary (built in, then the scripts').
#[pyfunction]
#[pyo3(signature = (scripts=Vec::new()))]
pub fn rules(scripts: Vec<(String, String)>) -> PyResult<Vec<(String, String)>> {
    Ok(catalog(scripts)?.help())
}

/// The JSON Schema of every request and response of the typed API.
#[pyfunction]
pub fn schema() -> PyResult<String> {
    json(&grundy::api::schema())
}

/// The report of a sequence computed here (a heap game defined in Python): its values and
/// apparent period, as the API reports a rule script's.
pub fn sequence_report(rule: &str, values: Vec<u16>) -> SequenceReport {
    let period = apparent_period(&values, true);
    SequenceReport {
        rule: rule.to_string(),
        computed: values.len() as u64,
        values: Some(values),
        period: period.map(PeriodSummary::from),
        proof: grundy::heap::run::ProofStatus::NotAsked,
        stats: None,
        plot: None,
    }
}
