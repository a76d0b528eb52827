//! `grundy._grundy`: the native half of the Python package `grundy`.
//!
//! The Python package (`python/grundy/__init__.py`) wraps these functions in classes with
//! attributes, docstrings and `to_dict()`; this module does the work through the `grundy`
//! library and nothing else:
//! - `expr`: the library's typed API (`grundy::api`): analyses, nim-sequences, misère
//!   quotients and game graphs as JSON requests and responses, the same shapes as the CLI's
//!   `--json`, computed on a worker thread with the GIL released and cancelled through the
//!   work budget when Python has a pending signal (Ctrl-C);
//! - `pygame`: games whose moves come from Python callables, solved by the library's
//!   engines (memoised search, misère search, the loopy-graph solver);
//! - `atlas`: the atlas of `grundy census`, a database asked through the typed API;
//! - `nimber`: the `Nimber` class (nim-sum `^`, nim-product `*`);
//! - `pictures`: the library's SVG pictures (sequence plots, game graphs, Hackenbush cuts)
//!   for the notebook display.

use pyo3::prelude::*;

mod atlas;
mod errors;
mod expr;
mod nimber;
mod pictures;
mod pygame;
mod run;

/// Counts each thread's memory, so that a rule script's ceiling holds (see
/// `grundy::scripted::CountingAllocator`).
#[global_allocator]
static ALLOCATOR: grundy::scripted::CountingAllocator = grundy::scripted::CountingAllocator;

/// The native module.
#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("GrundyError", py.get_type::<errors::GrundyError>())?;
    m.add("ExpressionError", py.get_type::<errors::ExpressionError>())?;
    m.add("ScriptError", py.get_type::<errors::ScriptError>())?;
    m.add("LimitError", py.get_type::<errors::LimitError>())?;
    m.add("AnalysisError", py.get_type::<errors::AnalysisError>())?;
    m.add_class::<nimber::Nimber>()?;
    m.add_function(wrap_pyfunction!(expr::call, m)?)?;
    m.add_function(wrap_pyfunction!(atlas::atlas, m)?)?;
    m.add_function(wrap_pyfunction!(atlas::atlas_query, m)?)?;
    m.add_function(wrap_pyfunction!(expr::rules, m)?)?;
    m.add_function(wrap_pyfunction!(expr::schema, m)?)?;
    m.add_function(wrap_pyfunction!(pictures::sequence_svg, m)?)?;
    m.add_function(wrap_pyfunction!(pictures::position_pictures, m)?)?;
    m.add_function(wrap_pyfunction!(pictures::graph_svg, m)?)?;
    m.add_function(wrap_pyfunction!(pygame::analyze_game, m)?)?;
    m.add_function(wrap_pyfunction!(pygame::heap_sequence, m)?)?;
    Ok(())
}
