//! `grundy sequence`: nim-sequences of heap rules, their periods and proofs.

//!
//! The computation itself — chunks, checkpoints, the proof driver, statistics — is the
//! library's [`SequenceRun`]; this module parses the arguments, shows progress, turns Ctrl-C
//! and SIGTERM into cancellation, and prints the typed results as text, CSV or JSON.

use crate::Failure;
use grundy::api::{Preset, SequenceReport, SequenceRequest, Task};
use grundy::control::Budget;
use grundy::control::Control;
use grundy::heap::period::Period;
use grundy::heap::report::{value_rows, value_rows_from};
use grundy::heap::rules::HeapRule;
use grundy::heap::run::{
    CheckpointMode, Goal, Occupant, RunError, RunOptions, RunStats, RunStatus, SequenceRun,
};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The nim-sequence g(0), g(1), ... of a heap rule, its period, and a proof of it.
///
/// Examples:
///   grundy sequence 0.137 --to 200
///   grundy sequence kayles --prove
///   grundy sequence 0.16 --prove --max 1000000 --checkpoint run.ckpt
///   grundy sequence 0.167 --to 16777216 --checkpoint run.ckpt --resume
///   grundy sequence 0.167 --to 1000 --checkpoint run.ckpt --force   (replace run.ckpt)
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The rule: an octal/hex code (0.137, 4.07, 4!.0) or a named heap game (kayles, dawson,
    /// grundys-game, lasker, sub(1,3,4), ...).
    pub rule: String,
    /// Compute g(0) to g(N).
    #[arg(long, value_name = "N", conflicts_with = "prove")]
    pub to: Option<u64>,
    /// Compute until the period is proven (or --max values are computed).
    #[arg(long)]
    prove: bool,
    /// With --prove: the most values to compute.
    #[arg(long, value_name = "N", default_value_t = 1 << 26, requires = "prove")]
    max: u64,
    /// Print one JSON object.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the values as CSV (n,value; with --misere: n,value,exponents,tame,tame_basis).
    #[arg(long)]
    pub csv: bool,
    /// Write an SVG scatter plot of the sequence to FILE.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Print statistics: engine, value histogram, rare values.
    #[arg(long)]
    stats: bool,
    /// Save the values computed to FILE, atomically: every 30 s, at the end and on Ctrl-C
    /// or SIGTERM. An existing FILE is not replaced by a run that would lose its data
    /// (another rule, more values, not a checkpoint) unless --force is given.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Continue from the --checkpoint FILE (its values are checked first).
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Replace the --checkpoint FILE whatever it holds.
    #[arg(long, requires = "checkpoint", conflicts_with = "resume")]
    force: bool,
    /// Misère play: the genus of each heap size and where the game stops being tame.
    #[arg(long, conflicts_with_all = ["prove", "plot", "stats", "checkpoint"])]
    misere: bool,
    /// The most units of work (a unit is a value computed or a few options listed; the
    /// default is seconds to about twenty of one core): a longer run is refused with the
    /// figure, or stopped keeping (and saving) its values [default: 250000000].
    #[arg(long, value_name = "N")]
    max_work: Option<u64>,
    /// With --misere: the most positions or quotient states stored [default: 20000000].
    #[arg(long, value_name = "N", requires = "misere")]
    max_positions: Option<usize>,
    /// With --misere: the most memory one table may take, in MiB [default: 4096, or half the memory available if less].
    #[arg(long, value_name = "MIB", requires = "misere")]
    max_memory: Option<u64>,
    /// Load a rule script (Rhai); RULE may then name its heap rule (--to, --json, --csv and
    /// --plot apply; its period is reported as apparent).
    #[arg(long, value_name = "FILE")]
    pub rules: Vec<PathBuf>,
}

impl Args {
    /// The library's request these arguments make (the checkpoint and the output format
    /// are this front end's).
    pub fn request(&self) -> SequenceRequest {
        SequenceRequest {
            rule: self.rule.clone(),
            to: self.to,
            prove: self.prove,
            max: self.prove.then_some(self.max),
            stats: self.stats,
            plot: self.plot.is_some(),
            limits: grundy::api::LimitRequest {
                max_work: self.max_work,
                ..Default::default()
            },
        }
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    if let Some(rule) = crate::script_rules::find(&args.rules, &args.rule)? {
        let unsupported = [
            (args.prove, "--prove"),
            (args.stats, "--stats"),
            (args.misere, "--misere"),
            (args.checkpoint.is_some(), "--checkpoint"),
        ];
        if let Some((_, flag)) = unsupported.iter().find(|(given, _)| *given) {
            return Err(Failure::input(format!(
                "{flag} applies to built-in rules only; for the script rule `{}` give --to N \
                 (with --json, --csv or --plot): its period is reported as apparent",
                rule.name()
            )));
        }
        return crate::script_rules::sequence(&args, &rule);
    }
    let rule = HeapRule::parse(&args.rule)
        .map_err(|e| Failure::input(format!("invalid rule\n{}", e.render(&args.rule))))?;
    if args.misere {
        let max_bytes =
            crate::front::mib_limit(args.max_memory, grundy::control::Limits::DEFAULT.max_bytes)?;
        let limits = grundy::control::Limits {
            max_positions: args
                .max_positions
                .unwrap_or(grundy::control::Limits::DEFAULT.max_positions),
            max_work: args
                .max_work
                .unwrap_or(grundy::control::Limits::DEFAULT.max_work),
            max_bytes,
            ..grundy::control::Limits::DEFAULT
        };
        let format = if args.json {
            MisereFormat::Json
        } else if args.csv {
            MisereFormat::Csv
        } else {
            MisereFormat::Text
        };
        return misere_sequence(
            &rule,
            args.to.unwrap_or(grundy::api::DEFAULT_TO),
            format,
            limits,
        );
    }
    check_plot(args.plot.as_deref())?;
    let goal = args
        .request()
        .goal()
        .map_err(|e| Failure::input(format!("--to: {e}")))?;
    let mut options = RunOptions::new(goal);
    options.memory_available = grundy::control::memory::available_memory();
    if let Some(path) = &args.checkpoint {
        let mode = if args.resume {
            CheckpointMode::Resume
        } else if args.force {
            CheckpointMode::Replace
        } else {
            CheckpointMode::Fresh
        };
        options = options.with_checkpoint(path, mode);
    }
    let mut seq = SequenceRun::new(rule, options).map_err(|e| start_failure(&e))?;
    // The first interrupt stops the run, which saves its checkpoint; see `front::interrupt_flag`.
    let cancel = crate::front::interrupt_flag()?;
    let bar = crate::front::bar(
        0,
        format!("{} ({})", seq.rule(), seq.engine_name()),
        "values",
    );
    let mut progress = |done: u64, total: u64| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let mut control = Control::none()
        .with_progress(&mut progress)
        .with_cancel(&cancel);
    let limits = args
        .request()
        .limits
        .resolve(Preset::Standard, Task::Sequence)
        .map_err(|e| Failure::input(e.message))?;
    let budget = Budget::with_cancel_flag(limits, std::sync::Arc::clone(&cancel));
    let result = seq.run_within(&mut control, &budget);
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            bar.abandon();
            return Err(run_failure(&e, goal, args.checkpoint.as_deref()));
        }
    };
    if report.status == RunStatus::Interrupted {
        bar.abandon();
        return Err(Failure {
            message: format!(
                "interrupted after {}{}",
                grundy::words::count(report.computed, "value"),
                report
                    .saved
                    .as_ref()
                    .map(|p| format!("; saved to {} (continue with --resume)", p.display()))
                    .unwrap_or_default()
            ),
            code: 130,
        });
    }
    bar.finish_and_clear();

    let values = seq.shown(report.shown);
    let answer = SequenceReport::from_run(&seq, &report, &args.request());
    if let (Some(path), Some(svg)) = (&args.plot, &answer.plot) {
        write_plot(path, svg)?;
    }
    if args.json {
        crate::emit_json(&SequenceReport {
            plot: None,
            ..answer
        })
    } else if args.csv {
        crate::emit_with(|w| {
            writeln!(w, "n,value")?;
            for (n, v) in values.iter().enumerate() {
                writeln!(w, "{n},{v}")?;
            }
            Ok(())
        })
    } else {
        let mut text = render_text(
            seq.rule().name(),
            values,
            report.period.as_ref(),
            !args.prove,
        );
        if let Some(s) = &answer.stats {
            text.push_str(&render_stats(s));
        }
        crate::emit(&text)
    }
}

/// A run that could not start: what the library says, and the flag that helps.
fn start_failure(e: &RunError) -> Failure {
    match e {
        RunError::Occupied { found, .. } => Failure::input(match found {
            Occupant::MoreValues { .. } => {
                format!("{e}; continue from them with --resume, or give --force to replace them")
            }
            _ => format!("{e}; give --force to replace it"),
        }),
        RunError::Sequence(_) => Failure::compute(e.to_string()),
        _ => Failure::input(e.to_string()),
    }
}

/// A run that stopped with an error: what the library says, and the flag that helps.
fn run_failure(e: &RunError, goal: Goal, saved_to: Option<&Path>) -> Failure {
    match e {
        RunError::Memory {
            values,
            needed,
            available,
        } => {
            let what = match goal {
                Goal::Values(_) => format!("--to {}", values.saturating_sub(1)),
                Goal::Prove { .. } => {
                    format!("--prove: computing g(0) to g({})", values.saturating_sub(1))
                }
            };
            Failure::input(format!(
                "{what} needs about {} of memory, but this machine has {} available",
                grundy::heap::run::bytes(*needed),
                grundy::heap::run::bytes(*available)
            ))
        }
        RunError::TooLong { limit, .. } => Failure::input(format!(
            "{e}; ask for at most --to {}",
            limit.saturating_sub(1)
        )),
        RunError::Unprovable { .. } => Failure::input(format!(
            "{e}; use --to N to see the values and an apparent period"
        )),
        RunError::Budget {
            computed,
            error: grundy::control::BudgetError::Work { limit },
            ..
        } => Failure::compute(format!(
            "{e}; give --max-work with more than {limit} to go on ({} computed{})",
            grundy::words::count(*computed, "value"),
            if saved_to.is_some() {
                ", saved: continue with --resume"
            } else {
                ""
            }
        )),
        _ => Failure::compute(e.to_string()),
    }
}

fn render_stats(s: &RunStats) -> String {
    let mut out = format!(
        "\nStatistics\n  engine           {}\n  time             {:.3} s\n  largest value    {}\n  distinct values  {}\n",
        s.engine,
        s.seconds,
        s.max_value.map_or("null".to_string(), |v| v.to_string()),
        s.distinct_values
    );
    if let Some(note) = &s.engine_note {
        out.push_str(&format!("  engine choice    {note}\n"));
    }
    if let Some(e) = &s.engine_stats {
        let rare: Vec<String> = e.rare_values.iter().map(u16::to_string).collect();
        let rows = [
            ("dense values", e.dense_values.to_string()),
            (
                "mask",
                e.mask
                    .map_or("none (all values in full)".into(), |m| format!("{m:#b}")),
            ),
            ("mask changes", e.mask_changes.to_string()),
            (
                "rare positions",
                // Heap 0 (value 0, rare under every mask) is left out, as it is never a
                // part of a split: published counts that include it are one more.
                format!("{} (heaps n >= 1)", e.rare_positions),
            ),
            ("rare values", rare.join(" ")),
            (
                "last rare heaps",
                e.last_rare
                    .iter()
                    .map(|(n, v)| format!("g({n}) = {v}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            ("rare-xor steps", e.rare_xor_steps.to_string()),
            ("scan steps", e.scan_steps.to_string()),
        ];
        for (k, v) in rows {
            out.push_str(&format!("  {k:<16} {v}\n"));
        }
    }
    out.push_str("  value histogram (value: heaps)\n");
    for (v, c) in s.histogram.iter().enumerate().filter(|(_, c)| **c != 0) {
        out.push_str(&format!("    {v:>5}: {c}\n"));
    }
    out
}

/// Up to this many values, the text output prints them all.
const TEXT_ALL: usize = 10_000;
/// Past [`TEXT_ALL`], the text output prints the first this many values...
const TEXT_HEAD: usize = 1_000;
/// ...and the last rows holding at least this many.
const TEXT_TAIL: usize = 100;

/// The text output: the values ten to a row (past [`TEXT_ALL`] values, the first and the
/// last rows only: `--to 16777216` would print 69 MB), and the period.
pub fn render_text(
    rule: &str,
    values: &[u16],
    period: Option<&Period>,
    with_values: bool,
) -> String {
    let mut out = format!("{rule}: g(0) to g({})\n", values.len().saturating_sub(1));
    if with_values && values.len() <= TEXT_ALL {
        out.push_str(&value_rows(values));
    } else if with_values {
        // A readable summary: the first and the last rows, the largest value; every value
        // with --csv or --json.
        let width = values.iter().max().map_or(1, |m| m.to_string().len());
        let index_width = values.len().to_string().len();
        out.push_str(&value_rows_from(
            &values[..TEXT_HEAD],
            0,
            width,
            index_width,
        ));
        let tail_from = (values.len() - TEXT_TAIL) / 10 * 10;
        out.push_str(&format!(
            "  ... g({TEXT_HEAD}) to g({}) not shown ({} in all; every value with --csv or \
             --json)\n",
            tail_from - 1,
            grundy::words::count(values.len(), "value")
        ));
        out.push_str(&value_rows_from(
            &values[tail_from..],
            tail_from,
            width,
            index_width,
        ));
        if let Some(max) = values.iter().max() {
            out.push_str(&format!("largest value {max}\n"));
        }
    } else {
        out.push_str(&format!(
            "{} computed\n",
            grundy::words::count(values.len(), "value")
        ));
    }
    match period {
        Some(p) => out.push_str(&format!("{p}\n")),
        None => out.push_str("no period found in the values computed\n"),
    }
    out
}

/// Refuses a `--plot` file that is not `.svg`, before any work.
pub fn check_plot(path: Option<&Path>) -> Result<(), Failure> {
    match path {
        Some(path) if path.extension().and_then(|e| e.to_str()) != Some("svg") => {
            Err(Failure::input(format!(
                "--plot {}: plots are written as SVG; give a file name ending in .svg",
                path.display()
            )))
        }
        _ => Ok(()),
    }
}

/// Writes the plot.
pub fn write_plot(path: &Path, svg: &str) -> Result<(), Failure> {
    crate::front::write_file(path, svg.as_bytes())
}

/// `--misere`: the genus sequence, read through the misère quotient (or, where that stops
/// early, from the definition) until the budget ends.
/// How `--misere` prints the genera.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MisereFormat {
    Text,
    Json,
    Csv,
}

/// `--misere --json`: the genus sequence and where it stopped.
#[derive(Serialize)]
struct MisereJson<'a> {
    rules: &'a str,
    misere: bool,
    computed: usize,
    genera: &'a [grundy::misere::sequence::GenusEntry],
    first_wild: Option<u64>,
    quotient_order: Option<usize>,
    stopped: Option<String>,
}

fn misere_sequence(
    rule: &HeapRule,
    to: u64,
    format: MisereFormat,
    limits: grundy::control::Limits,
) -> Result<(), Failure> {
    use grundy::misere::sequence::{GenusEntry, TameBasis, genus_sequence};
    // Ctrl-C, SIGTERM and SIGHUP stop the run: the heaps finished are printed first.
    let cancel = crate::front::interrupt_flag()?;
    let budget = grundy::control::Budget::with_cancel_flag(limits, cancel);
    let watch = crate::front::Watch::new("computing genera".to_owned(), &budget);
    let seq = genus_sequence(rule, to, &budget);
    drop(watch);
    if format == MisereFormat::Json {
        let out = MisereJson {
            rules: rule.name(),
            misere: true,
            computed: seq.entries.len(),
            genera: &seq.entries,
            first_wild: seq.first_wild,
            quotient_order: seq.quotient_order,
            stopped: seq.stopped.as_ref().map(|e| e.to_string()),
        };
        let text =
            serde_json::to_string_pretty(&out).map_err(|e| Failure::compute(e.to_string()))?;
        crate::emit(&(text + "\n"))?;
    } else if format == MisereFormat::Csv {
        // One row a heap: the exponents g0 g1 ... separated by spaces, as one field.
        crate::emit_with(|w| {
            writeln!(w, "n,value,exponents,tame,tame_basis")?;
            for e in &seq.entries {
                let exponents: Vec<String> = e.genus.exponents.iter().map(u64::to_string).collect();
                let basis = match e.tame_basis {
                    TameBasis::CanonicalForm => "canonical_form",
                    TameBasis::RawTree => "raw_tree",
                };
                writeln!(
                    w,
                    "{},{},{},{},{basis}",
                    e.heap,
                    e.genus.value,
                    exponents.join(" "),
                    e.tame
                )?;
            }
            Ok(())
        })?;
    } else {
        // Streamed, and past TEXT_ALL heaps only the first and the last rows (a tame game
        // reaches millions of heaps within the default work limit); every heap with --csv
        // or --json.
        crate::emit_with(|w| {
            writeln!(w, "Genus of {} heaps (misère play)", rule.name())?;
            writeln!(w, "{}", seq.route.explain(seq.quotient_order))?;
            let row = |w: &mut dyn std::io::Write, e: &GenusEntry| {
                writeln!(
                    w,
                    "{:>5}  {:<14} {}",
                    e.heap,
                    e.genus.to_string(),
                    match (e.tame, e.tame_basis) {
                        (true, TameBasis::CanonicalForm) => "tame",
                        (false, TameBasis::CanonicalForm) => "wild",
                        (true, TameBasis::RawTree) => "tame (raw tree)",
                        (false, TameBasis::RawTree) =>
                            "wild (raw tree; the canonical form was not affordable)",
                    }
                )
            };
            let n = seq.entries.len();
            if n <= TEXT_ALL {
                for e in &seq.entries {
                    row(w, e)?;
                }
            } else {
                for e in &seq.entries[..TEXT_HEAD] {
                    row(w, e)?;
                }
                let tail_from = n - TEXT_TAIL;
                writeln!(
                    w,
                    "  ... heaps {TEXT_HEAD} to {} not shown ({} in all; every heap with --csv \
                     or --json)",
                    tail_from - 1,
                    grundy::words::count(n, "heap")
                )?;
                for e in &seq.entries[tail_from..] {
                    row(w, e)?;
                }
            }
            match seq.first_wild {
                Some(wild) => writeln!(
                    w,
                    "Tame up to heap {}; heap {wild} is the first wild one.",
                    wild.saturating_sub(1)
                ),
                None => writeln!(
                    w,
                    "Tame at every heap computed (0 to {}).",
                    n.saturating_sub(1)
                ),
            }
        })?;
    }
    match seq.stopped {
        Some(grundy::misere::MisereError::Budget(grundy::control::BudgetError::Cancelled)) => {
            Err(crate::front::interrupted())
        }
        Some(e) => {
            let hint = match &e {
                grundy::misere::MisereError::Budget(grundy::control::BudgetError::Work {
                    ..
                }) => " (raise it with --max-work)",
                grundy::misere::MisereError::Budget(grundy::control::BudgetError::Positions {
                    ..
                }) => " (raise it with --max-positions)",
                grundy::misere::MisereError::Budget(grundy::control::BudgetError::Memory {
                    ..
                }) => " (raise it with --max-memory)",
                _ => "",
            };
            Err(Failure::compute(format!(
                "stopped after heap {}: {e}{hint}",
                seq.entries.len() as i64 - 1
            )))
        }
        None => Ok(()),
    }
}
