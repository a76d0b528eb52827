//! The Python exception classes, and the library's errors turned into them.

use grundy::control::BudgetError;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;

create_exception!(
    _grundy,
    GrundyError,
    PyException,
    "Base class of every error grundy raises."
);
create_exception!(
    _grundy,
    ExpressionError,
    GrundyError,
    "A malformed or invalid game expression; the message points at the offending text, and \
     `span` holds its (start, end) byte offsets."
);
create_exception!(
    _grundy,
    ScriptError,
    GrundyError,
    "An error in a rule script: its file, line and column, and what went wrong."
);
create_exception!(
    _grundy,
    LimitError,
    GrundyError,
    "A computation stopped at a limit (work, stored positions, memory); the message names it."
);
create_exception!(
    _grundy,
    AnalysisError,
    GrundyError,
    "A position that could not be analysed (for example a cycle, or no method applies)."
);

/// A budget error: a limit, or a cancellation (which Ctrl-C causes) as `KeyboardInterrupt`.
pub fn budget(e: BudgetError, context: &str) -> PyErr {
    match e {
        BudgetError::Cancelled => PyKeyboardInterrupt::new_err("interrupted"),
        other => LimitError::new_err(if context.is_empty() {
            other.to_string()
        } else {
            format!("{context}: {other}")
        }),
    }
}
