//! Rule scripts against the built-in engines: Kayles to heap N (default 2000), three ways.
//!
//! - the rule script examples/games/kayles.rhai, through the generic engine, with the
//!   default limits (sizes of strings, arrays and maps checked after every change) and with
//!   the size checks off (operations and call depth only), to measure what the checks cost;
//! - the built-in rule through the same generic engine (Rust moves: the engine's own cost);
//! - the built-in fast path (the sequence engine for octal codes).
//!
//! Prints the time of each and the cost per move generated. Run with
//! `cargo bench -p grundy --bench scripted [-- N]`.

use grundy::control::{Budget, Control};
use grundy::heap::component::HeapGame;
use grundy::heap::rules::HeapRule;
use grundy::heap::sequence::engine_for;
use grundy::scripted::{ScriptLimits, ScriptRule};
use grundy::solve::Solver;
use std::time::Instant;

/// Kayles as a script that builds its move list with `pad` and `map`.
const KAYLES_BY_MAP: &str = r#"
const NAME = "kayles-map";
const HEAP = true;
fn moves(n) {
    let out = [];
    for take in 1..=2 {
        if take <= n {
            let rest = n - take;
            let lefts = [];
            lefts.pad(rest / 2 + 1, 0);
            out += lefts.map(|v, left| [left, rest - left]);
        }
    }
    out
}
"#;

fn main() {
    let n: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2000);
    // Moves of a Kayles heap h as the script lists them: for each removal r in {1, 2} with
    // r <= h, the splits (left, h - r - left) with left <= (h - r) / 2.
    let moves: u64 = (0..=n)
        .map(|h| {
            (1..=2u64)
                .filter(|&r| r <= h)
                .map(|r| (h - r) / 2 + 1)
                .sum::<u64>()
        })
        .sum();

    let source = include_str!("../../../examples/games/kayles.rhai");
    let script = |limits: ScriptLimits| {
        let started = Instant::now();
        let rule = ScriptRule::compile(source, "kayles.rhai", limits).unwrap();
        let values = rule.nim_sequence(n, &Budget::default()).unwrap();
        (values, started.elapsed())
    };
    let (scripted, script_time) = script(ScriptLimits::DEFAULT);
    let unchecked = ScriptLimits {
        max_string_size: 0,
        max_array_size: 0,
        max_map_size: 0,
        ..ScriptLimits::DEFAULT
    };
    let (unchecked_values, unchecked_time) = script(unchecked);
    assert_eq!(scripted, unchecked_values);
    // The same moves built without a push per move: `pad` and `map` make the list in Rust,
    // and the size check walks it a few times per call instead of once per move.
    let started = Instant::now();
    let mapped = ScriptRule::compile(KAYLES_BY_MAP, "kayles-map.rhai", ScriptLimits::DEFAULT)
        .and_then(|rule| {
            rule.nim_sequence(n, &Budget::default())
                .map_err(|e| grundy::scripted::ScriptError::new("kayles-map.rhai", e.to_string()))
        });
    let mapped_time = started.elapsed();
    match &mapped {
        Ok(values) => assert_eq!(values, &scripted),
        Err(e) => println!("the map version failed: {e}"),
    }

    let kayles = HeapRule::parse("kayles").unwrap();
    let started = Instant::now();
    let mut solver = Solver::new(HeapGame::new(&kayles));
    let generic: Vec<u16> = (0..=n)
        .map(|h| {
            let p = if h == 0 { vec![] } else { vec![h] };
            solver.value(&p).unwrap().0 as u16
        })
        .collect();
    let generic_time = started.elapsed();

    let started = Instant::now();
    let mut engine = engine_for(&kayles, Vec::new()).unwrap();
    engine.extend_to_len(n + 1, &mut Control::none()).unwrap();
    let fast_time = started.elapsed();
    assert_eq!(scripted, generic);
    assert_eq!(scripted, engine.values()[..=n as usize]);

    println!("Kayles g(0)..g({n}): {moves} moves listed by the script");
    for (name, t) in [
        ("rule script, default limits", script_time),
        ("rule script, size checks off", unchecked_time),
        ("rule script by map, default limits", mapped_time),
        ("built-in moves + generic engine", generic_time),
        ("built-in fast path (sequence engine)", fast_time),
    ] {
        println!(
            "  {name:<38} {:>10.1} ms  {:>8.1} ns/move",
            t.as_secs_f64() * 1e3,
            t.as_secs_f64() * 1e9 / moves as f64
        );
    }
}
