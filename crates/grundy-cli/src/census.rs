//! `grundy census`: every game of some families computed into the atlas database.
//!
//! The census itself — families, engines, proofs, the database, resuming — is the library's
//! `grundy::atlas::census`; this module parses the arguments, draws the progress bar,
//! turns Ctrl-C into cancellation and prints the summary.

use crate::Failure;
use grundy::atlas::{
    Atlas, AtlasError, CensusEvent, CensusOptions, CensusSummary, GameRow, GameStatus, MisereRow,
};
use grundy::control::Control;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Compute every game of some families into the atlas database: the nim-sequence to g(N)
/// or until its period is proven, and the facts a researcher asks of it.
///
/// A family is an octal code with `?` wildcards (each an octal digit 0-7), a range of
/// subtraction or all-but sets (every nonempty subset), or one heap rule:
///
///   grundy census "0.???" --to 1048576        every code 0.d1d2d3
///   grundy census "4.??" "0.?" "sub(1..8)" --to 65536
///   grundy census kayles 0.137 --to 100000 --db classics.sqlite
///
/// Games already in the database computed to N or further, or with a proven period, are
/// skipped, and so are games refused after at least --max-seconds (raise it to try them
/// again): a census stopped by Ctrl-C (or killed) continues where it stopped when run again.
/// Each game is written in its own transaction.
///
/// Spread over processes (on this machine or several), each started with the same hosts
/// file (one host:port a line, process 0 first) and its own index:
///
///   grundy census "0.???" --to 65536 --cluster hosts.txt --process 0
///   grundy census "0.???" --to 65536 --cluster hosts.txt --process 1
///
/// Process 0 plans the census from its database, writes every result and prints the
/// summary; the others need no database and print nothing. Ctrl-C on any process stops it
/// at once, and the others stop when they see it leave; what process 0 wrote is kept.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The families: code patterns (0.???, 4.?7), set ranges (sub(1..8), allbut(1..4)) or
    /// single heap rules (0.137, kayles, sub(1,3,4)).
    #[arg(required = true, value_name = "PATTERN")]
    patterns: Vec<String>,
    /// Compute g(0) to g(N) (or fewer, when the period is proven first).
    #[arg(long, value_name = "N")]
    to: u64,
    /// The database file.
    #[arg(long, value_name = "FILE", default_value = "atlas.sqlite")]
    db: PathBuf,
    /// The most seconds one game may take; a game past it is recorded as refused (with the
    /// values it reached) and the census goes on.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    max_seconds: f64,
    /// Also each game's bounded misère quotient of heaps 1 to MAXHEAP (at most 1000; order,
    /// P-portion, the heap map's period), under the standard work limit per game.
    #[arg(long, value_name = "MAXHEAP")]
    misere: Option<u64>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// Spread the census over the processes this hosts file names (host:port lines).
    #[arg(long, value_name = "HOSTS", requires = "process")]
    cluster: Option<PathBuf>,
    /// This process's index in the hosts file (0 writes the database).
    #[arg(long, value_name = "I", requires = "cluster")]
    process: Option<usize>,
    /// Worker threads in this process (with --cluster).
    #[arg(long, value_name = "N", default_value_t = 1, requires = "cluster")]
    workers: usize,
    /// The most seconds to wait for every process to connect (with --cluster).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 30.0,
        requires = "cluster"
    )]
    connect_timeout: f64,
}

/// The most refused games named in the text summary.
const REFUSED_SHOWN: usize = 10;

pub fn run(args: Args) -> Result<(), Failure> {
    if !(args.max_seconds.is_finite() && args.max_seconds > 0.0 && args.max_seconds < 1e9) {
        return Err(Failure::input(format!(
            "--max-seconds {}: expected a positive number of seconds",
            args.max_seconds
        )));
    }
    // Bad patterns are reported before the database is touched.
    grundy::atlas::family::expand_all(&args.patterns).map_err(|e| Failure::input(e.to_string()))?;
    if let Some(hosts) = &args.cluster {
        return run_cluster(&args, hosts);
    }
    let mut atlas = Atlas::create_or_open(&args.db).map_err(failure)?;
    let options = census_options(&args, 1);
    let cancel = crate::front::interrupt_flag()?;
    let bar = crate::front::bar(0, "census".into(), "games");
    let mut refused: Vec<(String, String)> = Vec::new();
    let mut progress = |event: CensusEvent<'_>| match event {
        CensusEvent::Planned { to_compute, .. } => bar.set_length(to_compute),
        CensusEvent::Game {
            code,
            row,
            misere,
            done,
            ..
        } => {
            note_refusals(&mut refused, row, misere);
            bar.set_message(code.to_string());
            bar.set_position(done);
        }
    };
    let control = Control::none().with_cancel(&cancel);
    let result = grundy::atlas::census(
        &mut atlas,
        &args.patterns,
        &options,
        &mut progress,
        &control,
    );
    bar.finish_and_clear();
    let summary = result.map_err(failure)?;
    report(&summary, &refused, cancel.load(Ordering::SeqCst), &args)
}

/// This process's part of a census spread over a cluster.
fn run_cluster(args: &Args, hosts: &std::path::Path) -> Result<(), Failure> {
    use grundy::cluster::ClusterError;
    let process = args.process.unwrap_or(0);
    let cluster = crate::front::cluster(hosts, args.process, args.workers, args.connect_timeout)?;
    let options = census_options(args, args.workers as u64);
    // Ctrl-C on process 0: no more games go out, the games in flight come back and are
    // written, and the run ends as interrupted (forced after a game's time and a margin).
    // On another process: it stops at once, and process 0 ends the run as failed when it
    // sees the connection close.
    let cancel = crate::front::interrupt_flag()?;
    let watched = std::sync::Arc::clone(&cancel);
    let grace = if process == 0 {
        Duration::from_secs_f64(args.max_seconds.min(3600.0)) + Duration::from_secs(10)
    } else {
        Duration::ZERO
    };
    std::thread::spawn(move || {
        while !watched.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(50));
        }
        if grace.is_zero() {
            eprintln!(
                "error: interrupted: process {process} stops; the others stop when they see it \
                 leave"
            );
        } else {
            eprintln!(
                "interrupted: no more games go out; the games in flight are written first \
                 (at most {} s)",
                grace.as_secs()
            );
            std::thread::sleep(grace);
            eprintln!("error: interrupted: the games in flight did not come back in time");
        }
        std::process::exit(i32::from(crate::front::INTERRUPTED));
    });
    // Timely's threads panic when a peer leaves: that is reported as an error, not a panic.
    std::panic::set_hook(Box::new(|_| {}));
    let refused = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(String, String)>::new()));
    let seen = std::sync::Arc::clone(&refused);
    let progress = Box::new(move |event: CensusEvent<'_>| {
        if let CensusEvent::Game { row, misere, .. } = event {
            let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
            note_refusals(&mut seen, row, misere);
        }
    });
    let cancel_seen = std::sync::Arc::clone(&cancel);
    let outcome = grundy::cluster::distributed_census(
        &cluster,
        args.db.clone(),
        args.patterns.clone(),
        options,
        cancel,
        progress,
    );
    let _ = std::panic::take_hook();
    let summary = match outcome {
        Ok(Some(summary)) => summary,
        Ok(None) => return Ok(()),
        Err(ClusterError::Atlas(e)) => return Err(failure(e)),
        Err(e @ (ClusterError::Hosts { .. } | ClusterError::Process { .. })) => {
            return Err(Failure::input(e.to_string()));
        }
        Err(e) => return Err(Failure::compute(e.to_string())),
    };
    let refused = refused.lock().unwrap_or_else(|e| e.into_inner()).clone();
    report(&summary, &refused, cancel_seen.load(Ordering::SeqCst), args)
}

/// Prints the summary (text or JSON), then fails with the interrupted exit code if Ctrl-C
/// stopped the census short.
fn report(
    summary: &CensusSummary,
    refused: &[(String, String)],
    cancelled: bool,
    args: &Args,
) -> Result<(), Failure> {
    if args.json {
        crate::emit_json(summary)?;
    } else {
        crate::emit(&render(summary, refused, args))?;
    }
    if summary.interrupted && cancelled {
        return Err(Failure {
            message: format!(
                "interrupted after {} of {}; every game finished is in {} (run the same census \
                 again to continue)",
                summary.computed,
                grundy::words::count(summary.computed + remaining(summary), "game"),
                args.db.display()
            ),
            code: crate::front::INTERRUPTED,
        });
    }
    Ok(())
}

/// Adds the refusals a finished game reports (the game's, its misère quotient's) to `refused`.
fn note_refusals(
    refused: &mut Vec<(String, String)>,
    row: Option<&GameRow>,
    misere: Option<&MisereRow>,
) {
    if let Some(row) = row.filter(|r| r.status == GameStatus::Refused) {
        refused.push((row.code.clone(), row.reason.clone().unwrap_or_default()));
    }
    if let Some(m) = misere.filter(|m| !m.computed) {
        let why = m.reason.clone().unwrap_or_default();
        refused.push((format!("{} (misère quotient)", m.code), why));
    }
}

/// The census's options from the command line (`workers` threads share the memory).
fn census_options(args: &Args, workers: u64) -> CensusOptions {
    let mut options = CensusOptions::new(args.to);
    options.game_time = Duration::from_secs_f64(args.max_seconds);
    options.memory_available =
        grundy::control::memory::available_memory().map(|m| m / workers.max(1));
    options.misere = args.misere;
    options
}

fn remaining(s: &CensusSummary) -> u64 {
    s.games - s.skipped - s.computed
}

fn render(s: &CensusSummary, refused: &[(String, String)], args: &Args) -> String {
    use grundy::words::count;
    let mut out = format!(
        "{} to g({}): {}",
        args.patterns.join(" "),
        s.to,
        count(s.games, "game")
    );
    if s.left_out > 0 {
        out += &format!(
            " ({} left out as no game, such as {})",
            count(s.left_out, "code"),
            s.left_out_first.as_deref().unwrap_or("?")
        );
    }
    out += &format!(
        "\ncomputed {} in {:.1} s: {} proven, {} apparent, {} with no period seen, {} refused\n",
        s.computed, s.seconds, s.proven, s.apparent, s.no_period, s.refused
    );
    if let Some(m) = args.misere {
        out += &format!(
            "misère quotients of heaps 1 to {m}: {} computed, {} refused\n",
            s.quotients - s.quotients_refused,
            s.quotients_refused
        );
    }
    out += &format!(
        "skipped {} already in {} (computed to g({}), proven, or refused in as long a time)\n",
        s.skipped,
        args.db.display(),
        s.to
    );
    for (code, why) in refused.iter().take(REFUSED_SHOWN) {
        out += &format!("refused {code}: {why}\n");
    }
    if refused.len() > REFUSED_SHOWN {
        out += &format!(
            "... and {} more refused (grundy atlas --sql \"SELECT code, reason FROM games WHERE status = 'refused'\")\n",
            refused.len() - REFUSED_SHOWN
        );
    }
    out
}

/// A library error as a failure: a bad pattern, figure, file or query is bad input (2), a
/// database that fails is status 1, an interruption 130.
pub fn failure(e: AtlasError) -> Failure {
    match e {
        AtlasError::Interrupted => crate::front::interrupted(),
        AtlasError::Database { .. } => Failure::compute(e.to_string()),
        _ => Failure::input(e.to_string()),
    }
}
