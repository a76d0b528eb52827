//! Figures for heap games: nim-sequence throughput and time to a proven period.
//!
//! `cargo bench -p grundy --bench heap` prints, for the engine [`engine_for`] chooses (the
//! sparse-space engine for plain codes) and for the plain engine:
//! - values per second computing `g(0..N)` for Kayles, 0.137, 0.16 and 0.167;
//! - the time to prove the periods of 0.137, Kayles, 0.127, 0.16 and 0.56, through the whole
//!   proof loop (computing, detecting, checking the Guy–Smith bound).
//!
//! - the sequence run ([`SequenceRun`]): 0.167 to 2^20 values through the library's run loop
//!   (chunks, a checkpoint saved at the end) against the bare engine, the time to save and load
//!   the checkpoint, and the time to check the saved values on resume ([`verify_prefix`]).
//!
//! `cargo bench -p grundy --bench heap -- full` adds the proofs of 0.376 and 0.354;
//! `-- run` prints only the sequence-run figures.

use grundy::control::Control;
use grundy::heap::period::{Period, ProofStep, next_proof_step};
use grundy::heap::plain::PlainSequence;
use grundy::heap::rules::HeapRule;
use grundy::heap::run::{CheckpointMode, Goal, RunOptions, SequenceRun, verify_prefix};
use grundy::heap::sequence::{SequenceEngine, engine_for};
use std::time::Instant;

/// The run loop against the bare engine, and the checkpoint's costs.
fn sequence_run() {
    let rule = HeapRule::parse("0.167").unwrap();
    let n = 1u64 << 20;
    let dir = std::env::temp_dir().join(format!("grundy-bench-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.ckpt");
    throughput(
        "0.167 (bare engine)",
        engine_for(&rule, Vec::new()).unwrap(),
        n,
    );
    let options = RunOptions::new(Goal::Values(n)).with_checkpoint(&path, CheckpointMode::Replace);
    let start = Instant::now();
    let mut run = SequenceRun::new(rule.clone(), options).unwrap();
    run.run(&mut Control::none()).unwrap();
    let s = start.elapsed().as_secs_f64();
    println!(
        "{:<28} {n:>9} values in {s:>8.3} s: {:>12.0} values/s",
        "0.167 (SequenceRun, saved)",
        n as f64 / s
    );
    let start = Instant::now();
    run.save().unwrap();
    let save = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let (_, values) = grundy::heap::checkpoint::load(&path).unwrap();
    let load = start.elapsed().as_secs_f64();
    let start = Instant::now();
    verify_prefix(&rule, &values).unwrap();
    let verify = start.elapsed().as_secs_f64();
    println!("checkpoint of {n} values: save {save:.3} s, load {load:.3} s, verify {verify:.3} s");
    std::fs::remove_dir_all(dir).unwrap();
}

fn throughput(label: &str, mut engine: Box<dyn SequenceEngine>, n: u64) {
    let start = Instant::now();
    engine.extend_to_len(n, &mut Control::none()).unwrap();
    let s = start.elapsed().as_secs_f64();
    println!(
        "{label:<28} {n:>9} values in {s:>8.3} s: {:>12.0} values/s",
        n as f64 / s
    );
}

fn time_to_proof(rule: &str) -> (Period, u64, f64) {
    let rule = HeapRule::parse(rule).unwrap();
    let mut engine = engine_for(&rule, Vec::new()).unwrap();
    let start = Instant::now();
    loop {
        match next_proof_step(&rule, engine.values(), 1 << 26) {
            ProofStep::Proven(p) => {
                return (
                    p,
                    engine.values().len() as u64,
                    start.elapsed().as_secs_f64(),
                );
            }
            ProofStep::Extend(n) => {
                engine.extend_to_len(n, &mut Control::none()).unwrap();
            }
            other => panic!("{rule}: {other:?}"),
        }
    }
}

fn main() {
    let full = std::env::args().any(|a| a == "full");
    println!("== the sequence run");
    sequence_run();
    if std::env::args().any(|a| a == "run") {
        return;
    }
    println!("== nim-sequence throughput");
    for (rule, n) in [
        ("kayles", 1u64 << 15),
        ("0.137", 1 << 15),
        ("0.16", 1 << 15),
        ("0.167", 1 << 15),
    ] {
        let r = HeapRule::parse(rule).unwrap();
        let chosen = engine_for(&r, Vec::new()).unwrap();
        throughput(&format!("{rule} ({})", chosen.name()), chosen, n);
        throughput(
            &format!("{rule} (plain)"),
            Box::new(PlainSequence::new(&r)),
            n,
        );
    }
    println!("== time to a proven period");
    let mut rules = vec!["0.137", "kayles", "0.127", "0.16", "0.56"];
    if full {
        rules.extend(["0.376", "0.354"]);
    }
    for rule in rules {
        let (p, n, s) = time_to_proof(rule);
        println!("{rule:<8} {p}; {n} values, {s:.3} s");
    }
}
