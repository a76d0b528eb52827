//! `--rules FILE`: rule scripts loaded into the catalogue, and the nim-sequences of their heap
//! rules (`grundy sequence --rules mygame.rhai mygame`).

use crate::Failure;
use crate::front::{self, Watch};
use grundy::catalog::Catalog;
use grundy::control::{Budget, BudgetError, Limits};
use grundy::heap::period::Period;
use grundy::heap::period::apparent_period;
use grundy::heap::report::{svg_scatter, value_rows};
use grundy::scripted::{ScriptFailure, ScriptRule};
use grundy::solve::SolveError;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The built-in rules and the scripts in `paths`.
pub fn catalog(paths: &[PathBuf]) -> Result<Catalog, Failure> {
    let mut catalog = Catalog::new();
    for path in paths {
        let name = format!("--rules {}", path.display());
        let file = std::fs::File::open(path).map_err(|e| Failure::input(format!("{name}: {e}")))?;
        let source = crate::front::text_of(
            crate::front::read_bounded(file, crate::front::MAX_SCRIPT_BYTES, &name)?,
            &name,
        )?;
        catalog
            .load_script(&source, &path.display().to_string())
            .map_err(|e| Failure::input(format!("invalid rule script\n{e}")))?;
    }
    Ok(catalog)
}

/// The script rule named `name` among the scripts in `paths`, if there is one.
pub fn find(paths: &[PathBuf], name: &str) -> Result<Option<Arc<ScriptRule>>, Failure> {
    if paths.is_empty() {
        return Ok(None);
    }
    Ok(catalog(paths)?.script(name).cloned())
}

/// `grundy sequence` for a script's heap rule: g(0) to g(to), with the apparent period.
pub fn sequence(
    rule: &ScriptRule,
    to: Option<u64>,
    json: bool,
    csv: bool,
    plot: Option<&Path>,
) -> Result<(), Failure> {
    let to = to.unwrap_or(100);
    if let Some(path) = plot
        && path.extension().and_then(|e| e.to_str()) != Some("svg")
    {
        return Err(Failure::input(format!(
            "--plot {}: plots are written as SVG; give a file name ending in .svg",
            path.display()
        )));
    }
    let budget = Budget::with_cancel_flag(Limits::DEFAULT, front::interrupt_flag()?);
    let watch = Watch::new(format!("{}: g(0) to g({to})", rule.name()), &budget);
    let values = rule.nim_sequence(to, &budget);
    drop(watch);
    let values = values.map_err(|e| match e {
        ScriptFailure::Solve(SolveError::Budget(BudgetError::Cancelled)) => front::interrupted(),
        ScriptFailure::Solve(SolveError::Budget(b)) => Failure::compute(format!(
            "{}: {b}\nhint: ask for fewer values with --to",
            rule.name()
        )),
        // A script's own error: its file, line and column.
        other => Failure::compute(format!("{}: {other}", rule.name())),
    })?;
    let period = apparent_period(&values, true);
    if let Some(path) = plot {
        let title = format!("{}: g(n) for n = 0 to {to}", rule.name());
        std::fs::write(path, svg_scatter(&values, &title))
            .map_err(|e| Failure::compute(format!("{}: {e}", path.display())))?;
    }
    if json {
        let out = JsonOutput {
            computed: values.len(),
            period: period.as_ref(),
            rules: rule.name(),
            values: &values,
        };
        let text =
            serde_json::to_string_pretty(&out).map_err(|e| Failure::compute(e.to_string()))?;
        return crate::emit(&(text + "\n"));
    }
    let mut out = String::new();
    if csv {
        out.push_str("n,value\n");
        for (n, v) in values.iter().enumerate() {
            out.push_str(&format!("{n},{v}\n"));
        }
        return crate::emit(&out);
    }
    out.push_str(&format!("{}: g(0) to g({to})\n", rule.name()));
    out.push_str(&value_rows(&values));
    match period {
        Some(p) => out.push_str(&format!("{p}\n")),
        None => out.push_str("no period found in the values computed\n"),
    }
    crate::emit(&out)
}

/// `--json`: `computed`, `period` (apparent: a script's period is never proven), `rules` and
/// `values`, the keys in the order `grundy sequence` writes them.
#[derive(Serialize)]
struct JsonOutput<'a> {
    computed: usize,
    period: Option<&'a Period>,
    rules: &'a str,
    values: &'a [u16],
}
