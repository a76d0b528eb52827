//! Misère canonical forms of heaps (grundy::misere::canonical): for each rule, the size of
//! each heap's canonical form (distinct forms it reaches), its birthday, the arena's size and
//! the time so far, heap by heap until the work limit. Prints figures; run with
//! `cargo bench -p grundy --bench canonical [-- RULE MAX_HEAP MAX_WORK]`.

use grundy::control::{Budget, Limits};
use grundy::heap::rules::HeapRule;
use grundy::misere::canonical::HeapForms;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let rules: Vec<String> = match args.first() {
        Some(r) => vec![r.clone()],
        None => ["kayles", "0.07", "0.137", "0.6", "grundys-game"]
            .map(String::from)
            .to_vec(),
    };
    let to: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(60);
    let work: u64 = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(Limits::DEFAULT.max_work / 8);
    for rule in rules {
        let parsed = HeapRule::parse(&rule).expect("a heap rule");
        let budget = Budget::new(Limits {
            max_work: work,
            ..Limits::DEFAULT
        });
        let start = Instant::now();
        let hf = HeapForms::compute(&parsed, to, &budget);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{rule}: heaps 0..={} in {secs:.3} s, {} forms in the arena, work {}",
            hf.heaps.len().saturating_sub(1),
            hf.forms.len(),
            budget.work_done()
        );
        println!("  heap  followers  birthday  tame");
        for (n, &id) in hf.heaps.iter().enumerate() {
            println!(
                "  {n:>4}  {:>9}  {:>8}  {}",
                hf.forms.follower_count(id),
                hf.forms.birthday(id),
                if hf.forms.is_tame(id) { "tame" } else { "wild" }
            );
        }
        if let Some(e) = hf.stopped {
            println!("  stopped: {e}");
        }
    }
}
