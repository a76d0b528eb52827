//! `--rules FILE`: rule scripts loaded into the catalogue, and the nim-sequences of their heap
//! rules (`grundy sequence --rules mygame.rhai mygame`).

use crate::Failure;
use crate::front::{self, Watch};
use grundy::api::{Preset, SequenceReport, Session, Task};
use grundy::catalog::Catalog;
use grundy::heap::report::value_rows;
use grundy::scripted::ScriptRule;
use std::path::PathBuf;
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

/// `grundy sequence` for a script's heap rule: g(0) to g(to), with the apparent period,
/// through the library's API as every front end computes it.
pub fn sequence(args: &crate::sequence::Args, rule: &ScriptRule) -> Result<(), Failure> {
    crate::sequence::check_plot(args.plot.as_deref())?;
    let session = Session::new(Preset::Standard)
        .with_catalog(catalog(&args.rules)?)
        .with_cancel_flag(front::interrupt_flag()?);
    let request = args.request();
    let budget = session
        .budget(&request.limits, Task::Sequence)
        .map_err(front::api_failure)?;
    let to = request.to.unwrap_or(grundy::api::DEFAULT_TO);
    let watch = Watch::new(format!("{}: g(0) to g({to})", rule.name()), &budget);
    let answer = session.sequence(&request, &budget);
    drop(watch);
    let answer = answer.map_err(|e| {
        let limit = e.limit.is_some();
        let mut f = front::api_failure(e);
        if limit {
            f.message = format!(
                "{}\nhint: ask for fewer values with --to",
                f.message.lines().next().unwrap_or_default()
            );
        }
        f
    })?;
    if let (Some(path), Some(svg)) = (&args.plot, &answer.plot) {
        crate::sequence::write_plot(path, svg)?;
    }
    let values = answer.values.clone().unwrap_or_default();
    if args.json {
        return crate::emit_json(&SequenceReport {
            plot: None,
            ..answer
        });
    }
    let mut out = String::new();
    if args.csv {
        out.push_str("n,value\n");
        for (n, v) in values.iter().enumerate() {
            out.push_str(&format!("{n},{v}\n"));
        }
        return crate::emit(&out);
    }
    out.push_str(&format!("{}: g(0) to g({to})\n", rule.name()));
    out.push_str(&value_rows(&values));
    match &answer.period {
        Some(p) => out.push_str(&format!("{}\n", p.text)),
        None => out.push_str("no period found in the values computed\n"),
    }
    crate::emit(&out)
}
