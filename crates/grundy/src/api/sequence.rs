//! Nim-sequences: one request, one report, whichever rule (built in or a rule script's) and
//! whichever front end.

use super::{ApiError, ErrorKind, LimitRequest, Preset, Session};
use crate::control::{Budget, Control};
use crate::heap::period::PeriodSummary;
#[cfg(feature = "scripts")]
use crate::heap::period::apparent_period;
use crate::heap::rules::HeapRule;
use crate::heap::run::{Goal, ProofStatus, RunError, RunOptions, RunReport, RunStats, SequenceRun};
#[cfg(feature = "scripts")]
use crate::scripted::ScriptFailure;
#[cfg(feature = "scripts")]
use crate::solve::SolveError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The values computed when a request names neither `to` nor `prove`: g(0) to g(100).
pub const DEFAULT_TO: u64 = 100;

/// The longest sequence a shared server computes.
pub const SHARED_MAX_TO: u64 = 2000;

/// The nim-sequence g(0), g(1), … of a heap rule and its period ([`SequenceReport`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SequenceRequest {
    /// The heap rule: an octal or hexadecimal code (`0.137`), a named heap game (`kayles`,
    /// `sub(1,3,4)`), or a rule script's heap rule.
    pub rule: String,
    /// Compute g(0) to g(to) (100 when neither this nor `prove` is given).
    #[serde(default)]
    pub to: Option<u64>,
    /// Compute until the period is proven, at most `max` values.
    #[serde(default)]
    pub prove: bool,
    /// With `prove`: the most values to compute (2^26 by default).
    #[serde(default)]
    pub max: Option<u64>,
    /// Add statistics: the engine, the value histogram, the sparse space.
    #[serde(default)]
    pub stats: bool,
    /// Add the SVG scatter plot of the values.
    #[serde(default)]
    pub plot: bool,
    /// Limits other than the preset's.
    #[serde(default)]
    pub limits: LimitRequest,
}

impl SequenceRequest {
    /// g(0) to g(to) of `rule`.
    pub fn to(rule: impl Into<String>, to: u64) -> Self {
        SequenceRequest {
            rule: rule.into(),
            to: Some(to),
            prove: false,
            max: None,
            stats: false,
            plot: false,
            limits: LimitRequest::default(),
        }
    }

    /// The goal: values, or a proof.
    pub fn goal(&self) -> Result<Goal, ApiError> {
        if self.prove {
            if self.to.is_some() {
                return Err(ApiError::input("give `to` or `prove`, not both"));
            }
            return Ok(Goal::Prove {
                max: self.max.unwrap_or(1 << 26),
            });
        }
        if self.max.is_some() {
            return Err(ApiError::input("`max` applies with `prove` only"));
        }
        let to = self.to.unwrap_or(DEFAULT_TO);
        let count = to
            .checked_add(1)
            .ok_or_else(|| ApiError::input(format!("`to` {to} is too large")))?;
        Ok(Goal::Values(count))
    }
}

/// A nim-sequence, its period and how it is proven.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SequenceReport {
    /// The rule, as written.
    pub rule: String,
    /// How many values the answer covers: g(0) to g(computed − 1).
    pub computed: u64,
    /// The values, `values[n] = g(n)` (not with `prove`, which may compute millions).
    pub values: Option<Vec<u16>>,
    /// The period of the values: proven (and how), apparent, or `null` when none shows.
    pub period: Option<PeriodSummary>,
    /// Where the proof stands (`not_asked` unless `prove` was given).
    pub proof: ProofStatus,
    /// Statistics, when asked for.
    pub stats: Option<RunStats>,
    /// The SVG scatter plot of the values, when asked for.
    pub plot: Option<String>,
}

impl SequenceReport {
    /// The report of a finished run: `values` when the goal was values, `stats` and `plot`
    /// when asked for.
    pub fn from_run(run: &SequenceRun, report: &RunReport, req: &SequenceRequest) -> Self {
        let values = run.shown(report.shown);
        SequenceReport {
            rule: run.rule().name().to_string(),
            computed: values.len() as u64,
            values: (!req.prove).then(|| values.to_vec()),
            period: report.period.clone().map(PeriodSummary::from),
            proof: report.proof,
            stats: req.stats.then(|| run.stats(report)),
            plot: req
                .plot
                .then(|| sequence_plot(run.rule().name(), values, report.period.as_ref())),
        }
    }
}

/// Up to this many values, a plot draws each heap and marks the period; past it, heaps are
/// grouped into columns (a plot of millions of values).
pub const PLOT_EACH: usize = 4096;

/// The plot of `values`: each heap with the period marked, or, past [`PLOT_EACH`] values,
/// the values of each column of heaps.
pub fn sequence_plot(
    rule: &str,
    values: &[u16],
    period: Option<&crate::heap::period::Period>,
) -> String {
    let title = format!(
        "{rule}: g(n) for n = 0 to {}",
        values.len().saturating_sub(1)
    );
    if values.len() <= PLOT_EACH {
        crate::analysis::picture::sequence_svg(values, period, &title)
    } else {
        crate::heap::report::svg_scatter(values, &title)
    }
}

impl Session {
    /// The nim-sequence a request asks for, computed under `budget` (its cancellation stops
    /// the run). Rule scripts' heap rules give their values and an apparent period; `prove`,
    /// `stats` apply to built-in rules only. Under the shared preset at most
    /// [`SHARED_MAX_TO`] values, and an eighth of what a rule computes directly.
    pub fn sequence(
        &self,
        req: &SequenceRequest,
        budget: &Budget,
    ) -> Result<SequenceReport, ApiError> {
        let goal = req.goal()?;
        #[cfg(feature = "scripts")]
        if let Some(script) = self.catalog.script(&req.rule) {
            return script_sequence(script, req, goal, budget);
        }
        let rule = HeapRule::parse(&req.rule).map_err(|e| ApiError::expression(&e, &req.rule))?;
        if self.preset == Preset::Shared {
            let Goal::Values(count) = goal else {
                return Err(ApiError::input(
                    "`prove` is not computed here (use `grundy sequence RULE --prove`)",
                ));
            };
            let limit = (crate::heap::sequence::direct_limit(&rule) / 8).min(SHARED_MAX_TO);
            if count > limit + 1 {
                return Err(ApiError::input(format!(
                    "{count} values of {} are more than this server computes ({}); use `grundy sequence {} --to {}`",
                    rule.name(),
                    limit + 1,
                    rule.name(),
                    count - 1
                )));
            }
        }
        let mut options = RunOptions::new(goal);
        options.memory_available = crate::control::memory::available_memory();
        let mut run = SequenceRun::new(rule, options).map_err(run_error)?;
        let mut control = Control::none().with_cancel(budget.cancel_flag());
        let report = run.run_within(&mut control, budget).map_err(run_error)?;
        if report.status == crate::heap::run::RunStatus::Interrupted {
            return Err(ApiError::interrupted());
        }
        Ok(SequenceReport::from_run(&run, &report, req))
    }
}

#[cfg(feature = "scripts")]
/// A script rule's sequence: its values and apparent period.
fn script_sequence(
    script: &crate::scripted::ScriptRule,
    req: &SequenceRequest,
    goal: Goal,
    budget: &Budget,
) -> Result<SequenceReport, ApiError> {
    let Goal::Values(count) = goal else {
        return Err(ApiError::input(format!(
            "`prove` applies to built-in rules only; for the script rule `{}` ask for values \
             (`to`): its period is reported as apparent",
            script.name()
        )));
    };
    if req.stats {
        return Err(ApiError::input(format!(
            "`stats` applies to built-in rules only, not to the script rule `{}`",
            script.name()
        )));
    }
    let values = script
        .nim_sequence(count - 1, budget)
        .map_err(|e| match e {
            ScriptFailure::Solve(SolveError::Budget(b)) => ApiError::budget(b, script.name()),
            ScriptFailure::Script(s) => ApiError::new(ErrorKind::Rule, s.to_string()),
            other => ApiError::new(ErrorKind::Rule, format!("{}: {other}", script.name())),
        })?;
    let period = apparent_period(&values, true);
    Ok(SequenceReport {
        rule: script.name().to_string(),
        computed: values.len() as u64,
        plot: req
            .plot
            .then(|| sequence_plot(script.name(), &values, period.as_ref())),
        values: Some(values),
        period: period.map(PeriodSummary::from),
        proof: ProofStatus::NotAsked,
        stats: None,
    })
}

/// A run that could not start or stopped with an error.
fn run_error(e: RunError) -> ApiError {
    match e {
        RunError::Budget { values, error, .. } => ApiError::budget(
            error,
            format_args!("computing g(0) to g({})", values.saturating_sub(1)),
        ),
        RunError::Memory { .. } | RunError::TooLong { .. } | RunError::Unprovable { .. } => {
            ApiError::input(e.to_string())
        }
        RunError::Sequence(_) => ApiError::new(ErrorKind::Unsupported, e.to_string()),
        e => ApiError::input(e.to_string()),
    }
}
