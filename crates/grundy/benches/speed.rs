//! Figures for issue 14: periodic games at memory speed, Grundy's game by sparse space.
//!
//! `cargo bench -p grundy --bench speed` prints, for the engine [`engine_for`] chooses:
//! - the time to compute `g(0..2^24)` of 0.137 (Dawson's chess), 0.07, 0.4, 0.337 and 4.07,
//!   whose periods are proven early and then extended by copying;
//! - Grundy's game (`4!.0`) to `2^16` on the plain engine and on the sparse-space engine side
//!   by side, and to `2^20` on the sparse-space engine, with its work counters.
//!
//! `cargo bench -p grundy --bench speed -- full` adds Grundy's game to `2^22` (minutes).
//! Each figure is the median of `runs` runs (3; 1 for the long ones).

use grundy::control::Control;
use grundy::heap::plain::PlainSequence;
use grundy::heap::rules::HeapRule;
use grundy::heap::sequence::{SequenceEngine, engine_for};
use std::time::Instant;

/// Seconds to compute `n` values on a fresh engine from `make`, median of `runs`; the last
/// engine is returned for its figures.
fn time(
    runs: usize,
    n: u64,
    make: impl Fn() -> Box<dyn SequenceEngine>,
) -> (f64, Box<dyn SequenceEngine>) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let mut engine = make();
        let start = Instant::now();
        assert!(engine.extend_to_len(n, &mut Control::none()).unwrap());
        times.push(start.elapsed().as_secs_f64());
        last = Some(engine);
    }
    times.sort_by(f64::total_cmp);
    (times[runs / 2], last.expect("at least one run"))
}

fn main() {
    let full = std::env::args().any(|a| a == "full");
    println!("== periodic games to 2^24 (median of 3)");
    for code in ["0.137", "0.07", "0.4", "0.337", "4.07"] {
        let rule = HeapRule::parse(code).unwrap();
        let (s, engine) = time(3, 1 << 24, || engine_for(&rule, Vec::new()).unwrap());
        println!("{code:<8} 2^24 values in {s:>7.3} s ({})", engine.name());
    }

    println!("== Grundy's game");
    let rule = HeapRule::parse("grundys-game").unwrap();
    let n = 1 << 16;
    let (plain, _) = time(3, n, || Box::new(PlainSequence::new(&rule)));
    let (sparse, _) = time(3, n, || engine_for(&rule, Vec::new()).unwrap());
    println!(
        "2^16: plain {plain:.3} s, sparse {sparse:.3} s ({:.1}x)",
        plain / sparse
    );
    let mut sizes = vec![20u32];
    if full {
        sizes.push(22);
    }
    for k in sizes {
        let (s, engine) = time(1, 1 << k, || engine_for(&rule, Vec::new()).unwrap());
        let stats = engine.sparse_stats().expect("the sparse engine");
        println!(
            "2^{k}: {s:.3} s; {} rare positions, {} rare-xor steps, {} scan steps",
            stats.rare_positions, stats.rare_xor_steps, stats.scan_steps
        );
    }
}
