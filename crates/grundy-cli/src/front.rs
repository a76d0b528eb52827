//! Front-end plumbing shared by every subcommand: signals, progress, the memory probe,
//! reading input, and the hints that name this tool's flags.
//!
//! The API is small on purpose:
//! - [`interrupt_flag`]: Ctrl-C, SIGTERM and SIGHUP set one shared flag (hand it to a
//!   `Budget` or a `Control`); a second signal, half a second or more after the first, exits
//!   at once with status 130.
//! - [`bar`] and [`spinner`]: the one progress style, drawn on standard error only when it is
//!   a terminal. [`Watch`]: a thread that shows a spinner with a budget's work after two
//!   seconds, and exits with 130 if an interrupted computation does not stop in time.
//! - [`read_text`]: an argument, a file or standard input, without a byte-order mark.
//! - [`budget_failure`]: a library `BudgetError` as a failure, with the hint naming the flag.

use crate::Failure;
use grundy::api::{ApiError, ErrorKind};
use grundy::control::{Budget, BudgetError, memory};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Exit status of an interrupted command (128 + SIGINT, as shells report it).
pub const INTERRUPTED: u8 = 130;

/// The flag every interrupt (Ctrl-C, SIGTERM, SIGHUP) sets; the handler is installed on the
/// first call. The first signal only sets the flag, so that the computation stops cleanly
/// (and saves what it has); signals within half a second of it are the same interrupt
/// delivered twice (to the process and its group, as `timeout` does); a later one exits at
/// once with status 130.
pub fn interrupt_flag() -> Result<Arc<AtomicBool>, Failure> {
    static FLAG: OnceLock<Result<Arc<AtomicBool>, String>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let set = Arc::clone(&flag);
        let first: Mutex<Option<Instant>> = Mutex::new(None);
        ctrlc::set_handler(move || {
            set.store(true, Ordering::SeqCst);
            let mut first = first.lock().unwrap_or_else(|e| e.into_inner());
            match *first {
                None => *first = Some(Instant::now()),
                Some(t) if t.elapsed() >= Duration::from_millis(500) => {
                    std::process::exit(i32::from(INTERRUPTED))
                }
                Some(_) => {}
            }
        })
        .map(|()| flag)
        .map_err(|e| format!("cannot handle interrupts: {e}"))
    })
    .clone()
    .map_err(Failure::compute)
}

/// Whether progress is drawn: standard error is a terminal.
pub fn show_progress() -> bool {
    std::io::stderr().is_terminal()
}

fn target() -> ProgressDrawTarget {
    if show_progress() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// A progress bar of `total` `unit`s (such as "values" or "bytes"), labelled `message`: the
/// one style of every subcommand.
pub fn bar(total: u64, message: String, unit: &'static str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), target());
    let template = format!(
        "{{msg}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit}, \
         {{per_sec}}, ETA {{eta}}"
    );
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.set_message(message);
    bar
}

/// A spinner counting `unit`s of work whose total is not known, in the same style as [`bar`].
pub fn spinner(message: String, unit: &'static str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, target());
    let template = format!("{{msg}} [{{elapsed_precise}}] {{spinner}} {{human_pos}} {unit}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.set_message(message);
    bar
}

/// How long a command runs before its spinner appears.
const QUIET_FOR: Duration = Duration::from_secs(2);
/// How long an interrupted computation may take to stop before the watcher exits.
const GRACE: Duration = Duration::from_secs(5);

/// Watches a computation under a [`Budget`] from another thread: after two seconds it shows
/// a spinner with the budget's work done (on a terminal); if the budget is cancelled and the
/// computation has not stopped five seconds later, it exits with status 130 (unless made by
/// [`Watch::keeping`]). Dropping the watch stops the thread and clears the spinner.
#[derive(Debug)]
pub struct Watch {
    done: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Watch {
    /// Starts watching `budget`, labelling the spinner `message`.
    pub fn new(message: String, budget: &Budget) -> Self {
        Self::start(message, budget, Some(GRACE))
    }

    /// As [`Watch::new`], but never exits on its own after an interrupt: for a computation
    /// that saves its work as it stops (a search table of gigabytes takes longer than five
    /// seconds to write, and was cut short). A second interrupt still exits at once
    /// ([`interrupt_flag`]).
    pub fn keeping(message: String, budget: &Budget) -> Self {
        Self::start(message, budget, None)
    }

    fn start(message: String, budget: &Budget, grace: Option<Duration>) -> Self {
        let done = Arc::new(AtomicBool::new(false));
        let finished = Arc::clone(&done);
        let budget = budget.clone();
        let handle = std::thread::spawn(move || {
            let started = Instant::now();
            let mut spinner: Option<ProgressBar> = None;
            let mut cancelled_at: Option<Instant> = None;
            while !finished.load(Ordering::SeqCst) {
                // Woken at once when the work ends (Drop unparks), so it adds no wait.
                std::thread::park_timeout(Duration::from_millis(50));
                if finished.load(Ordering::SeqCst) {
                    break;
                }
                if spinner.is_none() && started.elapsed() >= QUIET_FOR && show_progress() {
                    spinner = Some(spinner_for(&message, started.elapsed()));
                }
                if let Some(s) = &spinner {
                    s.set_position(budget.work_done());
                    if let Some(status) = budget.status() {
                        s.set_message(format!("{message}: {status}"));
                    }
                    s.tick();
                }
                if let Some(grace) = grace.filter(|_| budget.is_cancelled()) {
                    let at = *cancelled_at.get_or_insert_with(Instant::now);
                    if at.elapsed() >= grace && !finished.load(Ordering::SeqCst) {
                        if let Some(s) = &spinner {
                            s.finish_and_clear();
                        }
                        report_error("interrupted");
                        std::process::exit(i32::from(INTERRUPTED));
                    }
                }
            }
            if let Some(s) = spinner {
                s.finish_and_clear();
            }
        });
        Watch {
            done,
            handle: Some(handle),
        }
    }
}

fn spinner_for(message: &str, elapsed: Duration) -> ProgressBar {
    let s = spinner(message.to_owned(), "units of work").with_elapsed(elapsed);
    s.enable_steady_tick(Duration::from_millis(120));
    s
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            h.thread().unpark();
            let _ = h.join();
        }
    }
}

/// Writes `error: MESSAGE` on standard error; a failed write (a closed or full standard
/// error) is ignored, since there is nowhere left to report it.
pub fn report_error(message: &str) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "error: {message}");
    let _ = err.flush();
}

/// Writes `hint: MESSAGE` on standard error (a failed write is ignored, as for errors).
pub fn report_hint(message: &str) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "hint: {message}");
    let _ = err.flush();
}

/// The bytes of `--max-memory MIB`; without the flag, `default` or half the memory
/// available ([`memory::available_memory`]), whichever is less, so that the computation's own
/// memory limit refuses it before the machine or the process's address-space limit does
/// (`analyze "cram 100x100 + nim 1" --misere` under `ulimit -v 1500000` aborted on a failed
/// allocation with the 4 GiB default). A figure past 64 bits of bytes is bad input.
pub fn mib_limit(mib: Option<u64>, default: u64) -> Result<u64, Failure> {
    match mib {
        Some(mib) => mib.checked_mul(1 << 20).ok_or_else(|| {
            Failure::input(format!(
                "--max-memory {mib}: too large (the figure is in MiB)"
            ))
        }),
        None => Ok(memory::default_table_bytes(default)),
    }
}

/// The UTF-8 byte-order mark some editors put at the start of a file.
const BOM: char = '\u{feff}';

/// The most bytes read as an expression (`--file`, `-`): far above any position the engines
/// answer, and far below the memory of a classroom machine.
pub const MAX_EXPRESSION_BYTES: u64 = 64 << 20;

/// The most bytes read as a rule script (`--rules`).
pub const MAX_SCRIPT_BYTES: u64 = 16 << 20;

/// At most `limit` bytes of `reader`; more is an error naming `source` and the limit (the
/// input is not read further, so `/dev/zero` or an endless pipe is refused at once).
pub fn read_bounded(reader: impl Read, limit: u64, source: &str) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::input(format!("cannot read {source}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(Failure::input(format!(
            "{source} is larger than {} MiB, the most read here",
            limit >> 20
        )));
    }
    Ok(bytes)
}

/// `bytes` as text, without a leading byte-order mark; invalid UTF-8 is an error naming
/// `source` and the offset.
pub fn text_of(bytes: Vec<u8>, source: &str) -> Result<String, Failure> {
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::input(format!(
            "{source} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(match text.strip_prefix(BOM) {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// The text of `path`, or of standard input for `-`, without a leading byte-order mark, of
/// at most [`MAX_EXPRESSION_BYTES`]. Invalid UTF-8 is an error naming the source.
pub fn read_text(path: &str) -> Result<String, Failure> {
    let (bytes, source) = if path == "-" {
        let source = "standard input";
        (
            read_bounded(std::io::stdin().lock(), MAX_EXPRESSION_BYTES, source)?,
            source,
        )
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| Failure::input(format!("cannot read {path}: {e}")))?;
        (read_bounded(file, MAX_EXPRESSION_BYTES, path)?, path)
    };
    text_of(bytes, source)
}

/// The flags that raise each limit of a budget, for the hint after a refusal.
#[derive(Clone, Copy, Debug)]
pub struct LimitFlags {
    /// The flag for the work limit.
    pub work: &'static str,
    /// The flag for the position limit.
    pub positions: &'static str,
    /// The flag for the memory limit.
    pub memory: &'static str,
}

/// The flags of `analyze` and `graph`.
pub const LIMIT_FLAGS: LimitFlags = LimitFlags {
    work: "--max-work",
    positions: "--max-positions",
    memory: "--max-memory",
};

/// A failure for a computation stopped by its budget: `message` (the library's, which states
/// the limit) and a hint naming the flag that raises it; an interruption is status 130.
pub fn budget_failure(message: String, error: BudgetError, flags: LimitFlags) -> Failure {
    let flag = match error {
        BudgetError::Cancelled => return interrupted(),
        BudgetError::Work { .. } => flags.work,
        BudgetError::Positions { .. } => flags.positions,
        BudgetError::Memory { .. } => flags.memory,
    };
    Failure::compute(format!(
        "{message}\nhint: raise the limit with {flag} if time and memory allow"
    ))
}

/// A failure from the library's API: bad input is status 2, a limit reached (with the hint
/// naming the flag that raises it) or a computation that failed 1, an interruption 130.
pub fn api_failure(e: ApiError) -> Failure {
    match (e.kind, e.limit) {
        (ErrorKind::Interrupted, _) => interrupted(),
        (ErrorKind::Limit, Some(b)) => budget_failure(e.message, b, LIMIT_FLAGS),
        (ErrorKind::Expression | ErrorKind::Input, _) => Failure::input(e.message),
        _ => Failure::compute(e.message),
    }
}

/// Writes a file the user named (a plot, a picture), safely: only a regular file (or the
/// file a link names) is replaced, atomically; a device, FIFO or directory is refused. A
/// refusal or a failed write is status 1, as every write error.
pub fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), Failure> {
    grundy::control::files::write_file(path, bytes).map_err(|e| Failure::compute(e.to_string()))
}

/// The failure of an interrupted command.
pub fn interrupted() -> Failure {
    Failure {
        message: "interrupted".to_owned(),
        code: INTERRUPTED,
    }
}

/// `--workers N`: 1 to 256 worker threads, or a failure naming the flag.
pub fn check_workers(workers: usize) -> Result<(), Failure> {
    if (1..=256).contains(&workers) {
        return Ok(());
    }
    Err(Failure::input(format!(
        "--workers {workers}: expected 1 to 256 worker threads"
    )))
}

/// The cluster of `--cluster HOSTS --process I --workers N --connect-timeout S`: the hosts
/// file read and checked, the flags' values checked (bad input, status 2).
pub fn cluster(
    hosts: &std::path::Path,
    process: Option<usize>,
    workers: usize,
    connect_timeout: f64,
) -> Result<grundy::cluster::Cluster, Failure> {
    if !(connect_timeout.is_finite() && connect_timeout > 0.0 && connect_timeout < 1e6) {
        return Err(Failure::input(format!(
            "--connect-timeout {connect_timeout}: expected a positive number of seconds"
        )));
    }
    check_workers(workers)?;
    let origin = hosts.display().to_string();
    let text = read_text(&origin)?;
    Ok(
        grundy::cluster::Cluster::from_hosts(&text, &origin, process.unwrap_or(0))
            .map_err(|e| Failure::input(e.to_string()))?
            .with_workers(workers)
            .with_timeout(std::time::Duration::from_secs_f64(connect_timeout)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_hints_name_the_flag_and_interrupts_exit_130() {
        let f = budget_failure(
            "too much".into(),
            BudgetError::Work { limit: 5 },
            LIMIT_FLAGS,
        );
        assert_eq!(f.code, 1);
        assert!(f.message.contains("--max-work"), "{}", f.message);
        let f = budget_failure("x".into(), BudgetError::Cancelled, LIMIT_FLAGS);
        assert_eq!((f.code, f.message.as_str()), (130, "interrupted"));
    }

    /// A watch made by `keeping` lets a cancelled computation run past the grace period (a
    /// search writing its table); were it to exit, this test's process would end with 130.
    #[test]
    fn a_keeping_watch_never_exits_on_its_own() {
        let budget = Budget::new(grundy::control::Limits::DEFAULT);
        budget.cancel();
        let watch = Watch::keeping("saving".to_owned(), &budget);
        std::thread::sleep(GRACE + Duration::from_millis(600));
        drop(watch);
        assert!(budget.is_cancelled());
    }
}
