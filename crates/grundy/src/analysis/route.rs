//! What the misère routes of an analysis share: the budget of one route and its answer's
//! shape (an analysis, or the reason the route does not apply, or an error that ends the
//! analysis).

use super::{Analysis, ComponentReport};
use crate::control::{Budget, Limits};
use crate::misere::genus::Genus;
use crate::sum::{AnalysisError, Context, Sum};

/// The work one theory route may spend before the next is tried.
const ROUTE_LIMITS: Limits = Limits {
    max_positions: 1_000_000,
    max_work: 30_000_000,
    max_bytes: Limits::DEFAULT.max_bytes,
    max_threads: Limits::DEFAULT.max_threads,
};

/// A route's answer: the analysis, or why the route does not apply (the next one is
/// tried), or an error that ends the analysis (a cancellation, a rule's own error).
pub(super) type Route = Result<Result<Analysis, String>, AnalysisError>;

/// A budget for one route: the route's own limits, within the analysis's limits, as a part
/// of the request's one budget (its work counts there, and cancelling it stops the route).
pub(super) fn route_budget(ctx: &Context) -> Budget {
    let l = ctx.limits();
    // A child shares the context's cancellation flag (Ctrl-C or a closed connection stops a
    // route too) and charges its work to the request's budget.
    ctx.budget.child(Limits {
        max_positions: l.max_positions.min(ROUTE_LIMITS.max_positions),
        max_work: l.max_work.min(ROUTE_LIMITS.max_work),
        max_bytes: l.max_bytes.min(ROUTE_LIMITS.max_bytes),
        max_threads: l.max_threads,
    })
}

/// An error if the analysis was cancelled (Ctrl-C, a closed connection) while a route ran:
/// a route that stopped on a limit gives way to the next, a cancelled one ends the analysis.
pub(super) fn cancelled(ctx: &Context, sum: &Sum) -> Result<(), AnalysisError> {
    ctx.budget.check().map_err(|e| AnalysisError::Solve {
        component: sum.to_string(),
        source: e.into(),
    })
}

/// The components as an analysis reports them, with their genera when a route read them.
pub(super) fn reports(sum: &Sum, genera: Option<&[Genus]>) -> Vec<ComponentReport> {
    sum.components
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut report = ComponentReport::new(c.as_ref(), None);
            if let Some(g) = genera {
                // The tame rule's route reads the genera of components it found tame.
                report.genus = Some(g[i].clone());
                report.tame = Some(true);
            }
            report
        })
        .collect()
}
