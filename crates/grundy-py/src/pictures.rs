//! The library's pictures for notebooks: the same SVG the web page shows, drawn by
//! `grundy` itself (the Python package draws nothing of its own).
//!
//! - [`sequence_svg`]: a nim-sequence plot with its reported period marked
//!   ([`grundy::api::sequence_plot`]);
//! - [`position_pictures`]: a position's game graph coloured P/N with the winning moves, and
//!   its Hackenbush components with the winning cuts ([`grundy::api::Session::picture`]);
//! - [`graph_svg`]: a solved game graph coloured P/N/D ([`grundy::graph::draw::to_svg`]), or
//!   why it is too large to draw.

use crate::expr::{api_error, catalog};
use crate::run::detached;
use grundy::api::{GraphRequest, LimitRequest, PositionRequest, Preset, Session, Task};
use grundy::heap::period::{Period, Proof};
use pyo3::prelude::*;

/// The plot of a nim-sequence as the library draws it: `period` is the reported one as
/// (period, preperiod, saltus, proven), marked on the plot (one period shaded, the
/// preperiod dashed, "proven" or "apparent" written beside it).
#[pyfunction]
#[pyo3(signature = (rule, values, period=None))]
pub fn sequence_svg(rule: &str, values: Vec<u16>, period: Option<(u64, u64, u64, bool)>) -> String {
    // The plot reads the period, preperiod and whether it is proven; the report's proof is
    // text, so a proven period is drawn as proven without its argument.
    let period = period.map(|(period, preperiod, saltus, proven)| Period {
        period,
        preperiod,
        saltus,
        proof: if proven {
            Proof::Theorem("as reported")
        } else {
            Proof::Apparent
        },
    });
    grundy::api::sequence_plot(rule, &values, period.as_ref())
}

/// The pictures of a position (the web page's `/api/picture`): (game graph SVG or None, why
/// there is none, Hackenbush SVGs with the winning cuts marked).
#[pyfunction]
#[pyo3(signature = (expression, misere=false, scripts=Vec::new()))]
pub fn position_pictures(
    py: Python<'_>,
    expression: &str,
    misere: bool,
    scripts: Vec<(String, String)>,
) -> PyResult<(Option<String>, Option<String>, Vec<String>)> {
    let session = Session::new(Preset::Standard).with_catalog(catalog(scripts)?);
    let req = PositionRequest {
        expression: expression.to_string(),
        misere,
        limits: LimitRequest::default(),
    };
    let budget = session.budget(&req.limits, Task::Play).map_err(api_error)?;
    let report = detached(py, &budget, || session.picture(&req, &budget))?.map_err(api_error)?;
    Ok((report.graph_svg, report.graph_error, report.hackenbush_svgs))
}

/// A game graph (a `GraphRequest` as JSON) solved and drawn coloured by outcome: (SVG or
/// None, why it is not drawn).
#[pyfunction]
pub fn graph_svg(py: Python<'_>, request: &str) -> PyResult<(Option<String>, Option<String>)> {
    let req: GraphRequest = crate::expr::parse(request)?;
    let session = Session::new(Preset::Standard);
    let budget = session
        .budget(&req.limits, Task::Graph)
        .map_err(api_error)?;
    let drawn = detached(py, &budget, || {
        let solved = session.solve_graph(&req, &budget)?;
        Ok::<_, grundy::api::ApiError>(grundy::graph::draw::to_svg(&solved.graph, &solved.solution))
    })?
    .map_err(api_error)?;
    Ok(match drawn {
        Ok(svg) => (Some(svg), None),
        Err(e) => (None, Some(e.to_string())),
    })
}
