//! Speed of the sparse-space nim-sequence engine: values per second on the inputs of issue 4.
//!
//! Run with `cargo bench -p grundy --bench sparse_sequence` (all inputs) or give inputs as
//! `CODE:N` arguments after `--`, e.g. `cargo bench -p grundy --bench sparse_sequence --
//! 0.167:16777216`. Prints one line per input: wall and CPU time (all threads), values per
//! second, and the engine's work counters. On a shared machine the CPU time tells the work
//! done; the wall time depends on the load.
//!
//! Measured on the 2-core development machine while shared (load average 2.4-5, so wall
//! times are inflated; CPU seconds in brackets):
//! - 0.16 to 300 000: 0.10-0.19 s (0.05-0.09 s CPU);
//! - 0.167 to 2^24: 5.8-6.5 s (3.7-4.3 s CPU), about 2.6 million values per second;
//! - 0.354 to 2·10^7: 14-15.5 s (8.8-8.9 s CPU).
//!
//! Whole-process figures of `grundy sequence` (issue 14), the engine before and after the
//! streamed rare partners, lane-wise scan and 256-heap blocks, run in turn on the shared
//! machine (load 6-7, so wall times are inflated; CPU = user + system):
//! - grundys-game to 10^6: 4.1 s CPU (6.6 s wall) against 5.9 s (12.1 s), 4.1 µs of CPU a
//!   heap — `2^28` heaps some 18 CPU-minutes;
//! - 0.354 `--prove` (20,126,195 values): 15.5 s CPU (28 s wall) against 25.5 s (38 s);
//! - 0.167 to 2^24: 11.3 s CPU (19.2 s wall) against 16.3 s (22.4 s).
//!
//! Whole-process figures after the scan's skip loop, the far scan's early marks and marks
//! below 128 from a table, against the engine before, run in turn (load 2-4, medians, user
//! seconds): grundys-game to 10^6 2.29 against 3.00 (2.3 µs a heap; to 2^22 9.8 against
//! 12.2); 0.354 `--prove` 7.7 against 8.7 (8.0 s wall against 9.0); 0.167 to 2^24 5.2
//! against 5.2 (0.74x the wall time of Beling's ogs, method rc).

use std::time::Instant;

use grundy::control::Control;
use grundy::heap::code::Code;
use grundy::heap::rules::{HeapRule, RuleKind};
use grundy::heap::sparse::SparseSequence;

/// Grundy's game (issue 14) last: values past 128 (the far phase scans), past 256 from
/// heap 7,250,049 on.
const DEFAULT_INPUTS: [(&str, u64); 5] = [
    ("0.16", 300_000),
    ("0.167", 1 << 24),
    ("0.354", 20_000_000),
    ("0.014", 1 << 22),
    ("grundys-game", 1 << 22),
];

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let inputs: Vec<(String, u64)> = if args.is_empty() {
        DEFAULT_INPUTS
            .iter()
            .map(|&(c, n)| (c.to_string(), n))
            .collect()
    } else {
        args.iter()
            .map(|a| {
                let (c, n) = a.split_once(':').expect("CODE:N");
                (c.to_string(), n.parse().expect("N"))
            })
            .collect()
    };
    println!("threads: {}", rayon::current_num_threads());
    for (code, n) in inputs {
        let mut seq = match code.parse::<Code>() {
            Ok(parsed) => SparseSequence::new(&parsed).expect("supported code"),
            // A rule with constrained splits, such as grundys-game (4!.0).
            Err(_) => match HeapRule::parse(&code).expect("a heap rule").kind() {
                RuleKind::TakeBreak(tb) => {
                    SparseSequence::from_take_break(tb, vec![0]).expect("supported rule")
                }
                other => panic!("not a take-and-break rule: {other:?}"),
            },
        };
        let start = Instant::now();
        let cpu_start = cpu_seconds();
        seq.extend_to(n, &mut Control::none()).expect("computes");
        let secs = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu_start;
        let s = seq.stats();
        println!(
            "{code} to {n}: {secs:.3} s (cpu {cpu:.3} s, {:.3} µs a value; 2^28 values: {:.1} CPU-minutes), \
             {:.2} M values/s; mask {:?}, max value {}, {} rare positions, \
             {:.3e} rare-xor steps ({:.0} M/s), {:.3e} scan steps, {} dense values, {} mask changes, {} pipelined blocks",
            cpu / n as f64 * 1e6,
            cpu / n as f64 * (1u64 << 28) as f64 / 60.0,
            n as f64 / secs / 1e6,
            s.mask,
            s.max_value,
            s.rare_positions,
            s.rare_xor_steps as f64,
            s.rare_xor_steps as f64 / secs / 1e6,
            s.scan_steps as f64,
            s.dense_values,
            s.mask_changes,
            s.pipelined_blocks,
        );
    }
}

/// CPU time of the whole process (all threads) from /proc, in seconds; 0 where unavailable.
/// On a shared machine it tells how much work was done, whatever the wall-clock time.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which ends with ')'): utime is the 12th, stime the 13th.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
    let ticks: f64 = fields.get(11..13).map_or(0.0, |f| {
        f.iter().filter_map(|x| x.parse::<f64>().ok()).sum()
    });
    ticks / 100.0
}
