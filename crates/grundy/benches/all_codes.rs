//! Every octal code of up to three digits, `0.d1`, `0.d1d2`, `0.d1d2d3` (last digit not 0:
//! 7 + 56 + 448 = 511 games), to `N` values, each under a time limit (issue 14 part 2).
//!
//! `cargo bench -p grundy --bench all_codes -- [N] [seconds] [codes...]` computes
//! `g(0..N)` (default `N = 2^24`) of each code on the engine
//! [`engine_for`] chooses, stopping a code at the time limit (default 5 s) through the
//! cancellation flag, and prints one line per code (time, engine at the end, values reached)
//! and then the codes that did not finish or took more than a second, slowest first. Codes
//! given after the numbers restrict the run to them. `N` may be written `2^k`. The word
//! `small` runs every code on [`SmallSequence`] alone, `sparse` on [`SparseSequence`] alone,
//! `domain` on [`DomainSequence`] alone (to compare engines), `domain2` on it with the far
//! marks on a second core ([`Pipeline::On`]); `why` prints the
//! library's note on its engine choice under each code.

use grundy::control::Control;
use grundy::heap::domain::{DomainSequence, Pipeline};
use grundy::heap::rules::HeapRule;
use grundy::heap::sequence::{SequenceEngine, SequenceError, engine_for};
use grundy::heap::small::SmallSequence;
use grundy::heap::sparse::SparseSequence;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The codes `0.d1`, `0.d1d2`, `0.d1d2d3` with a last digit not 0.
fn all_codes() -> Vec<String> {
    let mut codes = Vec::new();
    for len in 1..=3u32 {
        for i in 0..8u32.pow(len) {
            let digits: String = (0..len)
                .rev()
                .map(|k| char::from(b'0' + ((i >> (3 * k)) & 7) as u8))
                .collect();
            if !digits.ends_with('0') {
                codes.push(format!("0.{digits}"));
            }
        }
    }
    codes
}

fn parse_count(s: &str) -> Option<u64> {
    match s.split_once('^') {
        Some((b, e)) => b.parse::<u64>().ok()?.checked_pow(e.parse().ok()?),
        None => s.parse().ok(),
    }
}

/// One code's outcome.
struct Outcome {
    code: String,
    seconds: f64,
    reached: usize,
    engine: &'static str,
    note: String,
    /// Why the engine (the library's note).
    why: String,
}

/// Which engine a run uses.
#[derive(Clone, Copy, PartialEq)]
enum Which {
    /// The library's choice, [`engine_for`].
    Chosen,
    /// [`SmallSequence`] alone.
    Small,
    /// [`SparseSequence`] alone (computing in full where it finds no sparse space).
    Sparse,
    /// [`DomainSequence`] alone (its mask chosen from the first values only).
    Domain,
    /// [`DomainSequence`] alone, with [`Pipeline::On`].
    DomainTwo,
}

/// [`SparseSequence`] as a [`SequenceEngine`], to time it alone.
#[derive(Debug)]
struct SparseOnly(SparseSequence);

impl SequenceEngine for SparseOnly {
    fn name(&self) -> &'static str {
        "sparse"
    }
    fn extend_to_len(&mut self, len: u64, control: &mut Control) -> Result<bool, SequenceError> {
        match len.checked_sub(1) {
            None => Ok(true),
            Some(n) => self.0.extend_to(n, control).map_err(SequenceError::engine),
        }
    }
    fn values(&self) -> &[u16] {
        self.0.values()
    }
    fn into_values(self: Box<Self>) -> Vec<u16> {
        self.0.into_values()
    }
    fn memory_needed(&self, _n: u64) -> u64 {
        0
    }
}

/// Runs `code` to `n` values on `which`, cancelling after `limit`.
fn run(code: &str, n: u64, limit: Duration, which: Which) -> Outcome {
    let rule = HeapRule::parse(code).expect("a valid code");
    let flag = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let timer = {
        let (flag, done) = (Arc::clone(&flag), Arc::clone(&done));
        std::thread::spawn(move || {
            let start = Instant::now();
            while !done.load(Ordering::Relaxed) {
                if start.elapsed() >= limit {
                    flag.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let start = Instant::now();
    let small = SmallSequence::new(&rule, Vec::new()).filter(|_| which == Which::Small);
    let sparse = rule
        .plain_code()
        .filter(|_| which == Which::Sparse)
        .and_then(|code| SparseSequence::new(&code).ok());
    let domain = || {
        // The mask from the first values (the small-values engine's), as the adaptive
        // engine would choose it.
        let mut first = SmallSequence::new(&rule, Vec::new())?;
        first.extend_to_len(1 << 12, &mut Control::none()).ok()?;
        let mut d = DomainSequence::new(&rule, first.into_values())?;
        if which == Which::DomainTwo {
            d.set_pipeline(Pipeline::On);
        }
        Some(d)
    };
    let domain = if which == Which::Domain || which == Which::DomainTwo {
        domain()
    } else {
        None
    };
    let mut engine: Box<dyn SequenceEngine> = match (small, sparse, domain) {
        (Some(s), _, _) => Box::new(s),
        (_, Some(s), _) => Box::new(SparseOnly(s)),
        (_, _, Some(d)) => Box::new(d),
        _ => engine_for(&rule, Vec::new()).expect("an engine"),
    };
    let result = engine.extend_to_len(n, &mut Control::none().with_cancel(&flag));
    let seconds = start.elapsed().as_secs_f64();
    done.store(true, Ordering::Relaxed);
    timer.join().expect("the timer thread");
    let note = match result {
        Ok(true) => String::new(),
        Ok(false) => "time limit".to_string(),
        Err(e) => format!("error: {e}"),
    };
    let mut why = engine.note().unwrap_or_default();
    if let Some(st) = engine.sparse_stats() {
        why.push_str(&format!(
            "; {} rare-xor steps, {} scan steps, {} values in full",
            st.rare_xor_steps, st.scan_steps, st.dense_values
        ));
    }
    Outcome {
        code: code.to_string(),
        seconds,
        reached: engine.values().len(),
        engine: engine.name(),
        note,
        why,
    }
}

fn main() {
    let which = if std::env::args().any(|a| a == "small") {
        Which::Small
    } else if std::env::args().any(|a| a == "sparse") {
        Which::Sparse
    } else if std::env::args().any(|a| a == "domain") {
        Which::Domain
    } else if std::env::args().any(|a| a == "domain2") {
        Which::DomainTwo
    } else {
        Which::Chosen
    };
    let verbose = std::env::args().any(|a| a == "why");
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| {
            !a.starts_with("--")
                && !["small", "sparse", "domain", "domain2", "why"].contains(&a.as_str())
        })
        .collect();
    let n = args.first().and_then(|a| parse_count(a)).unwrap_or(1 << 24);
    let limit = args
        .get(1)
        .and_then(|a| a.parse::<f64>().ok())
        .unwrap_or(5.0);
    let chosen: Vec<String> = args.iter().skip(2).cloned().collect();
    let codes = if chosen.is_empty() {
        all_codes()
    } else {
        chosen
    };
    println!(
        "== {} codes to {n} values, at most {limit} s each",
        codes.len()
    );
    let total = Instant::now();
    let mut outcomes = Vec::new();
    for code in &codes {
        let o = run(code, n, Duration::from_secs_f64(limit), which);
        println!(
            "{:<8} {:>8.3} s {:>10} values  {:<9} {}",
            o.code, o.seconds, o.reached, o.engine, o.note
        );
        if verbose {
            println!("         {}", o.why);
        }
        outcomes.push(o);
    }
    let met = outcomes.iter().filter(|o| o.note.is_empty()).count();
    println!(
        "== {met} of {} codes reached {n} values within {limit} s ({:.1} s in all)",
        outcomes.len(),
        total.elapsed().as_secs_f64()
    );
    let mut slow: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| !o.note.is_empty() || o.seconds > 1.0)
        .collect();
    slow.sort_by(|a, b| {
        (a.reached as f64 / a.seconds.max(1e-9)).total_cmp(&(b.reached as f64 / b.seconds))
    });
    println!("== slow ({}), slowest first:", slow.len());
    for o in slow {
        println!(
            "{:<8} {:>8.3} s {:>10} values  {:<9} {}",
            o.code, o.seconds, o.reached, o.engine, o.note
        );
    }
}
