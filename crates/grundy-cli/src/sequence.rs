//! `grundy sequence`: nim-sequences of heap rules, their periods and proofs.

use crate::Failure;
use grundy::control::Control;
use grundy::heap::checkpoint;
use grundy::heap::period::{Period, Proof, ProofStep, find_period, next_proof_step};
use grundy::heap::report::{histogram, svg_scatter};
use grundy::heap::rules::HeapRule;
use grundy::heap::sequence::{SequenceEngine, engine_for};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value as Json, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The nim-sequence g(0), g(1), ... of a heap rule, its period, and a proof of it.
///
/// Examples:
///   grundy sequence 0.137 --to 200
///   grundy sequence kayles --prove
///   grundy sequence 0.16 --prove --max 1000000 --checkpoint run.ckpt
///   grundy sequence 0.167 --to 16777216 --checkpoint run.ckpt --resume
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The rule: an octal/hex code (0.137, 4.07, 4!.0) or a named heap game (kayles, dawson,
    /// grundys-game, lasker, sub(1,3,4), ...).
    rule: String,
    /// Compute g(0) to g(N).
    #[arg(long, value_name = "N", conflicts_with = "prove")]
    to: Option<u64>,
    /// Compute until the period is proven (or --max values are computed).
    #[arg(long)]
    prove: bool,
    /// With --prove: the most values to compute.
    #[arg(long, value_name = "N", default_value_t = 1 << 26, requires = "prove")]
    max: u64,
    /// Print one JSON object.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print the values as CSV (n,value).
    #[arg(long)]
    csv: bool,
    /// Write an SVG scatter plot of the sequence to FILE.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Print statistics: engine, value histogram, rare values.
    #[arg(long)]
    stats: bool,
    /// Save the values computed to FILE, atomically: every 30 s, at the end and on Ctrl-C.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Continue from the --checkpoint FILE.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// Load a rule script (Rhai); RULE may then name its heap rule (--to, --json, --csv and
    /// --plot apply; its period is reported as apparent).
    #[arg(long, value_name = "FILE")]
    rules: Vec<PathBuf>,
}

/// How often a running computation saves its checkpoint.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(30);
/// Values computed between checks of the checkpoint clock.
const CHUNK: u64 = 1 << 14;
/// The values computed without --to or --prove: g(0) to g(DEFAULT_TO).
const DEFAULT_TO: u64 = 100;

pub fn run(args: Args) -> Result<(), Failure> {
    if let Some(rule) = crate::script_rules::find(&args.rules, &args.rule)? {
        let plot = args.plot.as_deref();
        return crate::script_rules::sequence(&rule, args.to, args.json, args.csv, plot);
    }
    let rule = HeapRule::parse(&args.rule)
        .map_err(|e| Failure::input(format!("invalid rule\n{}", e.render(&args.rule))))?;
    let prefix = match (&args.checkpoint, args.resume) {
        (Some(path), true) => {
            let (saved, values) =
                checkpoint::load(path).map_err(|e| Failure::input(e.to_string()))?;
            let saved_rule = HeapRule::parse(&saved)
                .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
            if saved_rule.kind != rule.kind {
                return Err(Failure::input(format!(
                    "{} holds values of {saved}, not of {}",
                    path.display(),
                    rule.name
                )));
            }
            values
        }
        _ => Vec::new(),
    };
    let mut engine = engine_for(&rule, prefix).map_err(|e| Failure::compute(e.to_string()))?;
    let mut runner = Runner::new(&rule, args.checkpoint.as_deref())?;
    let started = Instant::now();
    // How many values to show: all computed with --prove, g(0) to g(N) with --to N (a
    // resumed checkpoint may hold more).
    let mut shown = usize::MAX;
    let (period, cancelled) = if args.prove {
        prove(&rule, engine.as_mut(), &mut runner, args.max)?
    } else {
        let count = args
            .to
            .unwrap_or(DEFAULT_TO)
            .checked_add(1)
            .ok_or_else(|| Failure::input("--to is too large"))?;
        check_memory(engine.as_ref(), count)?;
        let done = runner.compute(engine.as_mut(), count)?;
        shown = usize::try_from(count).unwrap_or(usize::MAX);
        let values = engine.values();
        (
            find_period(&rule, &values[..shown.min(values.len())]),
            !done,
        )
    };
    let elapsed = started.elapsed();
    runner.save(engine.values())?;
    if cancelled {
        return Err(Failure {
            message: format!(
                "interrupted after {} values{}",
                engine.values().len(),
                args.checkpoint
                    .as_ref()
                    .map(|p| format!("; saved to {} (continue with --resume)", p.display()))
                    .unwrap_or_default()
            ),
            code: 130,
        });
    }
    let values = &engine.values()[..shown.min(engine.values().len())];
    if let Some(path) = &args.plot {
        write_plot(path, values, &rule)?;
    }
    let stats = args
        .stats
        .then(|| stats_json(engine.as_ref(), values, elapsed));
    if args.json {
        let mut out = json!({
            "rules": rule.name,
            "computed": values.len(),
            "period": period.as_ref().map(period_json),
        });
        if !args.prove {
            out["values"] = json!(values);
        }
        if let Some(s) = stats {
            out["stats"] = s;
        }
        let text =
            serde_json::to_string_pretty(&out).map_err(|e| Failure::compute(e.to_string()))?;
        crate::emit(&(text + "\n"))
    } else if args.csv {
        crate::emit_with(|w| {
            writeln!(w, "n,value")?;
            for (n, v) in values.iter().enumerate() {
                writeln!(w, "{n},{v}")?;
            }
            Ok(())
        })
    } else {
        let mut text = render_text(&rule, values, period.as_ref(), !args.prove);
        if let Some(s) = stats {
            text.push_str(&render_stats(&s));
        }
        crate::emit(&text)
    }
}

/// Refuses a computation the machine has not the memory for.
fn check_memory(engine: &dyn SequenceEngine, count: u64) -> Result<(), Failure> {
    let needed = engine.memory_needed(count.saturating_sub(1));
    if let Some(available) = available_memory() {
        if needed > available {
            return Err(Failure::input(format!(
                "--to {} needs about {} of memory, but this machine has {} available",
                count - 1,
                bytes(needed),
                bytes(available)
            )));
        }
    }
    Ok(())
}

/// The memory available to a new computation, from /proc/meminfo (Linux); `None` elsewhere.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn bytes(n: u64) -> String {
    const GIB: f64 = (1u64 << 30) as f64;
    if n >= 1 << 30 {
        format!("{:.1} GiB", n as f64 / GIB)
    } else {
        format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64)
    }
}

/// Runs an engine with a progress bar, Ctrl-C handling and periodic checkpoints.
struct Runner {
    rule: String,
    checkpoint: Option<PathBuf>,
    cancel: Arc<AtomicBool>,
    last_save: Instant,
}

impl Runner {
    fn new(rule: &HeapRule, checkpoint: Option<&Path>) -> Result<Self, Failure> {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        // The first Ctrl-C stops the computation, which saves and exits; a second one, pressed
        // later, exits at once. Signals within half a second of the first are the same
        // interrupt delivered twice (to the process and to its group, as `timeout` does), and
        // must not cost the save.
        let mut first: Option<Instant> = None;
        ctrlc::set_handler(move || {
            flag.store(true, Ordering::Relaxed);
            match first {
                None => first = Some(Instant::now()),
                Some(t) if t.elapsed() >= std::time::Duration::from_millis(500) => {
                    std::process::exit(130)
                }
                Some(_) => {}
            }
        })
        .map_err(|e| Failure::compute(format!("cannot handle Ctrl-C: {e}")))?;
        Ok(Runner {
            rule: rule.name.clone(),
            checkpoint: checkpoint.map(Path::to_path_buf),
            cancel,
            last_save: Instant::now(),
        })
    }

    fn save(&mut self, values: &[u16]) -> Result<(), Failure> {
        if let Some(path) = &self.checkpoint {
            checkpoint::save(path, &self.rule, values)
                .map_err(|e| Failure::compute(e.to_string()))?;
        }
        self.last_save = Instant::now();
        Ok(())
    }

    /// Computes `count` values; `Ok(false)` when interrupted.
    fn compute(&mut self, engine: &mut dyn SequenceEngine, count: u64) -> Result<bool, Failure> {
        let bar = ProgressBar::new(count);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} values, {per_sec}, ETA {eta}",
            )
            .expect("a valid template"),
        );
        bar.set_message(format!("{} ({})", self.rule, engine.name()));
        bar.set_position(engine.values().len() as u64);
        let cancel = Arc::clone(&self.cancel);
        while (engine.values().len() as u64) < count {
            let next = (engine.values().len() as u64 + CHUNK).min(count);
            let mut report = |done: u64, _total: u64| bar.set_position(done);
            let mut control = Control::none()
                .with_progress(&mut report)
                .with_cancel(&cancel);
            let finished = engine
                .extend_to_len(next, &mut control)
                .map_err(|e| Failure::compute(e.to_string()))?;
            if !finished || cancel.load(Ordering::Relaxed) {
                bar.abandon();
                return Ok(false);
            }
            if self.checkpoint.is_some() && self.last_save.elapsed() >= CHECKPOINT_EVERY {
                self.save(engine.values())?;
            }
        }
        bar.finish_and_clear();
        Ok(true)
    }
}

/// Computes until the period is proven, or `max` values; the period found (proven or
/// apparent) and whether interrupted.
fn prove(
    rule: &HeapRule,
    engine: &mut dyn SequenceEngine,
    runner: &mut Runner,
    max: u64,
) -> Result<(Option<Period>, bool), Failure> {
    loop {
        match next_proof_step(rule, engine.values(), max) {
            ProofStep::Proven(p) => return Ok((Some(p), false)),
            ProofStep::GiveUp(p) => return Ok((p, false)),
            ProofStep::Unprovable(_) => {
                return Err(Failure::input(format!(
                    "no theorem this tool knows proves a period of {rule}; use --to N to see the \
                     values and an apparent period"
                )));
            }
            ProofStep::Extend(n) => {
                check_memory(engine, n)?;
                if !runner.compute(engine, n)? {
                    return Ok((None, true));
                }
            }
        }
    }
}

fn period_json(p: &Period) -> Json {
    let proof = match &p.proof {
        Proof::Apparent => json!("apparent"),
        Proof::GuySmith {
            heaps: 1, needed, ..
        } => json!(format!("subtraction-game window, {needed} values")),
        Proof::GuySmith { needed, .. } => json!(format!("Guy-Smith theorem, {needed} values")),
        Proof::Theorem(t) => json!(t),
    };
    json!({
        "period": p.period,
        "preperiod": p.preperiod,
        "saltus": p.saltus,
        "proven": p.proven(),
        "proof": proof,
    })
}

fn stats_json(engine: &dyn SequenceEngine, values: &[u16], elapsed: Duration) -> Json {
    let hist = histogram(values);
    let extra: serde_json::Map<String, Json> = engine
        .stats()
        .into_iter()
        .map(|(k, v)| (k, json!(v)))
        .collect();
    json!({
        "engine": engine.name(),
        "seconds": elapsed.as_secs_f64(),
        "max_value": values.iter().max(),
        "distinct_values": hist.iter().filter(|&&c| c > 0).count(),
        "histogram": hist,
        "engine_stats": extra,
    })
}

fn render_stats(s: &Json) -> String {
    let mut out = format!(
        "\nStatistics\n  engine           {}\n  time             {:.3} s\n  largest value    {}\n  distinct values  {}\n",
        s["engine"].as_str().unwrap_or("?"),
        s["seconds"].as_f64().unwrap_or(0.0),
        s["max_value"],
        s["distinct_values"]
    );
    if let Some(extra) = s["engine_stats"].as_object() {
        for (k, v) in extra {
            out.push_str(&format!("  {k:<16} {}\n", v.as_str().unwrap_or_default()));
        }
    }
    out.push_str("  value histogram (value: heaps)\n");
    if let Some(h) = s["histogram"].as_array() {
        for (v, c) in h.iter().enumerate().filter(|(_, c)| c.as_u64() != Some(0)) {
            out.push_str(&format!("    {v:>5}: {c}\n"));
        }
    }
    out
}

fn render_text(
    rule: &HeapRule,
    values: &[u16],
    period: Option<&Period>,
    with_values: bool,
) -> String {
    let mut out = format!(
        "{}: g(0) to g({})\n",
        rule.name,
        values.len().saturating_sub(1)
    );
    if with_values {
        let width = values.iter().max().map_or(1, |m| m.to_string().len());
        let index_width = values.len().to_string().len();
        for (row, chunk) in values.chunks(10).enumerate() {
            let line: Vec<String> = chunk.iter().map(|v| format!("{v:>width$}")).collect();
            out.push_str(&format!(
                "{:>index_width$}:  {}\n",
                row * 10,
                line.join(" ")
            ));
        }
    } else {
        out.push_str(&format!("{} values computed\n", values.len()));
    }
    match period {
        Some(p) => out.push_str(&format!("{p}\n")),
        None => out.push_str("no period found in the values computed\n"),
    }
    out
}

fn write_plot(path: &Path, values: &[u16], rule: &HeapRule) -> Result<(), Failure> {
    if path.extension().and_then(|e| e.to_str()) != Some("svg") {
        return Err(Failure::input(format!(
            "--plot {}: plots are written as SVG; give a file name ending in .svg",
            path.display()
        )));
    }
    let title = format!(
        "{}: g(n) for n = 0 to {}",
        rule.name,
        values.len().saturating_sub(1)
    );
    std::fs::write(path, svg_scatter(values, &title))
        .map_err(|e| Failure::compute(format!("{}: {e}", path.display())))
}
