//! The atlas for Python: a census database opened read-only and asked through the typed API
//! (`Session::atlas`, the same requests and answers as `POST /api/atlas` on the web page).

use crate::errors::GrundyError;
use crate::expr::{api_error, parse};
use grundy::api::{AtlasReport, AtlasRequest, Filter, Preset, Session};
use grundy::atlas::{Atlas, AtlasError};
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;

/// An atlas that cannot be opened: `FileNotFoundError` when the file is not there, else
/// `GrundyError`; both messages name the file.
fn open_error(e: AtlasError) -> PyErr {
    match &e {
        AtlasError::Open { path, .. } if !path.exists() => {
            PyFileNotFoundError::new_err(e.to_string())
        }
        _ => GrundyError::new_err(e.to_string()),
    }
}

/// The request `grundy atlas TARGET [--open | --solved]` makes, as JSON: a game's card, or a
/// family's rows (`filter`: "all", "open" or "solved").
#[pyfunction]
pub fn atlas_query(target: &str, filter: &str) -> PyResult<String> {
    let filter = match filter {
        "all" => Filter::All,
        "open" => Filter::Open,
        "solved" => Filter::Solved,
        other => {
            return Err(PyValueError::new_err(format!(
                "filter must be \"all\", \"open\" or \"solved\", not {other:?}"
            )));
        }
    };
    let request = AtlasRequest::query(target, filter).map_err(api_error)?;
    serde_json::to_string(&request).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Answers an atlas request (the schema's `AtlasRequest`, as JSON) from the database `db`:
/// the answers (`AtlasReport`, as JSON) of its pages, from its `offset` until the last
/// matching row when `all` is set and the request sets no `limit`, else the one page asked.
#[pyfunction]
#[pyo3(signature = (db, request, all=true))]
pub fn atlas(py: Python<'_>, db: PathBuf, request: &str, all: bool) -> PyResult<Vec<String>> {
    let mut request: AtlasRequest = parse(request)?;
    let pages = py.allow_threads(|| -> Result<Vec<AtlasReport>, PyErr> {
        let atlas = Atlas::open(&db).map_err(open_error)?;
        let session = Session::new(Preset::Standard);
        let mut pages = Vec::new();
        loop {
            let report = session.atlas(&atlas, &request).map_err(api_error)?;
            let next = match &report.family {
                Some(page) if all && request.limit.is_none() && !page.complete => {
                    Some(page.offset + page.family.rows.len() as u64)
                }
                _ => None,
            };
            pages.push(report);
            match next {
                Some(offset) => request.offset = offset,
                None => return Ok(pages),
            }
        }
    })?;
    pages
        .iter()
        .map(|p| serde_json::to_string(p).map_err(|e| PyValueError::new_err(e.to_string())))
        .collect()
}
