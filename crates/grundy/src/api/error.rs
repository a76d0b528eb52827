//! The one error type of the API: what went wrong, as data every front end maps its own way
//! (an exit status, an HTTP status, a Python exception).

use crate::control::BudgetError;
use crate::expr::ExprError;
use crate::sum::AnalysisError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What kind of failure, for front ends to map: bad input is the caller's to fix, a limit
/// can be raised, an interruption was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The expression (or rule) does not parse or check; `span` points at it.
    Expression,
    /// A request field is out of range or inconsistent.
    Input,
    /// A limit was reached; `limit` says which.
    Limit,
    /// The work was cancelled (Ctrl-C, a signal, a time limit, a closed connection).
    Interrupted,
    /// A rule script failed (its error, line and column in the message).
    Rule,
    /// No method here answers the question.
    Unsupported,
}

/// A request that could not be answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// What went wrong, for people (an expression error shows the text with a caret line).
    #[serde(rename = "error")]
    pub message: String,
    /// Where in the expression, for expression errors (byte offsets).
    pub span: Option<[usize; 2]>,
    /// The limit reached, for limit errors.
    pub limit: Option<BudgetError>,
}

impl ApiError {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        ApiError {
            kind,
            message: message.into(),
            span: None,
            limit: None,
        }
    }

    /// A request field out of range.
    pub fn input(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Input, message)
    }

    /// An expression (or rule) that does not parse, shown with a caret under `text`.
    pub fn expression(e: &ExprError, text: &str) -> Self {
        ApiError {
            kind: ErrorKind::Expression,
            message: format!("invalid expression\n{}", e.render(text)),
            span: Some([e.span.start, e.span.end]),
            limit: None,
        }
    }

    /// A budget error about `what`: a limit, or an interruption.
    pub fn budget(error: BudgetError, what: impl std::fmt::Display) -> Self {
        if error == BudgetError::Cancelled {
            return Self::interrupted();
        }
        ApiError {
            kind: ErrorKind::Limit,
            message: format!("{what}: {error}"),
            span: None,
            limit: Some(error),
        }
    }

    /// The work was cancelled.
    pub fn interrupted() -> Self {
        Self::new(ErrorKind::Interrupted, "interrupted")
    }
}

impl From<AnalysisError> for ApiError {
    fn from(e: AnalysisError) -> Self {
        match (&e, e.budget_error()) {
            (_, Some(BudgetError::Cancelled)) => ApiError::interrupted(),
            (_, Some(b)) => ApiError {
                kind: ErrorKind::Limit,
                message: e.to_string(),
                span: None,
                limit: Some(b),
            },
            (AnalysisError::Rule { .. }, None) => ApiError::new(ErrorKind::Rule, e.to_string()),
            _ => ApiError::new(ErrorKind::Unsupported, e.to_string()),
        }
    }
}
