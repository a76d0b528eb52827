//! Figures for misère play: quotients, outcomes through them, genus sequences.
//!
//! `cargo bench -p grundy --bench misere` prints
//! - the time to compute and verify the quotient of the heaps 1..N of a few octal games;
//! - the time to prove a heap map's period by the periodicity theorem
//!   ([`grundy::misere::periodicity::heap_quotient_proving`]: the quotient to N, then again to
//!   the bound the theorem needs);
//! - the time of one misère outcome of five heaps of 0.75 near 10^9, through the quotient
//!   and the period of its heap map (averaged over many calls);
//! - the genus sequences to heap 500 of Kayles, 0.75, Dawson's Kayles and Dawson's chess as
//!   far as a fixed work budget reaches, by each route (the labelled monoid, the canonical
//!   forms, the quotients, the pruned search of `grundy::misere::gamma`, the definition) and by `genus_sequence` (all routes in turn); the figure says how far
//!   each gets;
//! - the time to prove the Kayles decomposition ([`grundy::misere::kayles::verify`], once
//!   per process), then of one misère outcome of a sum of seven Kayles rows near 10^9
//!   through it (averaged);
//! - whole `analyze --misere` requests on sums of several rules' heaps and Nim heaps, each
//!   through the quotient of their closure (computed afresh per request).

use grundy::control::{Budget, Limits};
use grundy::heap::rules::HeapRule;
use grundy::misere::kayles;
use grundy::misere::outcome::{sum_verdict, winning_moves};
use grundy::misere::periodicity::heap_quotient_proving;
use grundy::misere::quotient::heap_quotient;
use grundy::misere::sequence::{
    genus_sequence, genus_sequence_by_definition, genus_sequence_by_forms,
    genus_sequence_by_labels, genus_sequence_by_quotient, genus_sequence_by_search,
};
use std::time::Instant;

fn main() {
    println!("== periods proven by the periodicity theorem (quotient to N, then to the bound)");
    for (rule, n) in [
        ("0.75", 16u64),
        ("0.75", 32),
        ("kayles", 100),
        ("kayles", 168),
    ] {
        let r = HeapRule::parse(rule).unwrap();
        let start = Instant::now();
        match heap_quotient_proving(&r, n, &Budget::default(), 5000, 512) {
            Ok(q) => {
                let p = q.reported_period();
                println!(
                    "{rule:<8} from heap {n:<3} computed to {:<3} period {:<12} proven {:<5} needed {:<5} {:>9.3} s",
                    q.generators.max_heap(),
                    p.map(|p| format!("{} from {}", p.period, p.preperiod))
                        .unwrap_or_else(|| "none seen".into()),
                    p.is_some_and(|p| p.proven),
                    p.and_then(|p| p.needed)
                        .map_or("-".to_string(), |m| m.to_string()),
                    start.elapsed().as_secs_f64()
                );
            }
            Err(e) => println!("{rule:<8} from heap {n:<3} not computed: {e}"),
        }
    }

    println!("== quotients (computed heap by heap, verified)");
    for (rule, n) in [
        ("0.75", 24u64),
        ("0.75", 64),
        ("0.137", 20),
        ("0.137", 40),
        ("0.07", 16),
        ("kayles", 20),
        ("kayles", 80),
        ("kayles", 500),
        ("0.16", 12),
        ("0.56", 16),
        ("0.376", 10),
    ] {
        let r = HeapRule::parse(rule).unwrap();
        let start = Instant::now();
        let budget = Budget::new(Limits {
            max_work: 300_000_000,
            ..Limits::DEFAULT
        });
        match heap_quotient(&r, n, &budget, 5000) {
            Ok(q) => println!(
                "{rule:<8} heaps 1..{n:<3} order {:>4}  |P| {:>3}  period {:<22} {:>9.3} s",
                q.quotient.order(),
                q.quotient.p_portion().len(),
                q.period()
                    .map(|p| format!("{} from {}", p.period, p.preperiod))
                    .unwrap_or_else(|| "none seen".into()),
                start.elapsed().as_secs_f64()
            ),
            Err(e) => println!(
                "{rule:<8} heaps 1..{n:<3} not computed: {e} after {:.3} s",
                start.elapsed().as_secs_f64()
            ),
        }
    }

    println!("== outcome of five heaps of 0.75 near 10^9");
    let q = heap_quotient(
        &HeapRule::parse("0.75").unwrap(),
        32,
        &Budget::default(),
        100,
    )
    .unwrap();
    let period = q.period();
    let heaps = [
        999_999_937u64,
        1_000_000_000,
        987_654_321,
        1_000_000_007,
        999_999_999,
    ];
    let calls = 1_000_000;
    let start = Instant::now();
    let mut p = 0;
    for i in 0..calls {
        let mut h = heaps;
        h[0] += i % 7;
        p += usize::from(sum_verdict(&q, &h, period).unwrap().is_p);
    }
    let each = start.elapsed().as_secs_f64() / calls as f64;
    println!(
        "{calls} outcomes ({p} P) in {:.3} s: {:.0} ns each",
        each * calls as f64,
        each * 1e9
    );
    let start = Instant::now();
    let moves = winning_moves(&q, &heaps, period).unwrap();
    println!(
        "winning moves of {heaps:?}: {} in {:.3} ms",
        moves.len(),
        start.elapsed().as_secs_f64() * 1e3
    );

    println!("== genus sequences to heap 500");
    type Run = fn(&HeapRule, u64, &Budget) -> grundy::misere::sequence::GenusSequence;
    let runs: [(&str, Run); 6] = [
        ("labels", genus_sequence_by_labels),
        ("forms", genus_sequence_by_forms),
        ("quotient", genus_sequence_by_quotient),
        ("search", genus_sequence_by_search),
        ("definition", genus_sequence_by_definition),
        ("all", genus_sequence),
    ];
    for (rule, (how, run)) in ["kayles", "0.75", "0.07", "0.137"]
        .into_iter()
        .flat_map(|r| runs.iter().map(move |x| (r, *x)))
    {
        let work = 100_000_000u64;
        let budget = Budget::new(Limits {
            max_work: work,
            ..Limits::DEFAULT
        });
        let start = Instant::now();
        let seq = run(&HeapRule::parse(rule).unwrap(), 500, &budget);
        println!(
            "{rule:<6} {how:<10} work limit {work:>11}: heaps 0..{} in {:.3} s (first wild heap {:?}){}",
            seq.entries.len() as i64 - 1,
            start.elapsed().as_secs_f64(),
            seq.first_wild,
            seq.stopped
                .map(|e| format!("; stopped: {e}"))
                .unwrap_or_default()
        );
    }

    println!("== misère Kayles through the proven decomposition");
    let budget = Budget::default();
    let start = Instant::now();
    kayles::verify(&budget).unwrap();
    println!(
        "proof of the decomposition (5^8 count vectors): {:.3} s",
        start.elapsed().as_secs_f64()
    );
    let rows = [999_999_937u64, 999_999_929, 12, 4, 1, 1_000_000_000, 25];
    let calls = 100_000u32;
    let start = Instant::now();
    let mut p = 0;
    for i in 0..calls {
        let mut r = rows;
        r[0] += u64::from(i % 12);
        p += usize::from(kayles::is_p(&r, &budget).unwrap());
    }
    println!(
        "outcome of seven Kayles rows near 10^9: {:.2} µs each ({p} of {calls} P)",
        start.elapsed().as_secs_f64() / f64::from(calls) * 1e6
    );

    // Each analysis computes its quotient afresh (nothing is cached between calls): the
    // figure is the whole request, quotient, periods, outcome and winning moves.
    println!("== mixed misère sums through one quotient (analyze --misere, whole request)");
    let options = grundy::Options {
        moves: Default::default(),
        misere: true,
        context: grundy::sum::Context::default(),
    };
    for text in [
        "kayles 1000000 + nim 3",
        "0.75 1000000000 999999999 123456789 + nim 1 2 3",
        "kayles 1000000 + 0.75 1000000",
        "kayles 1000000 + 0.75 1000000 + 0.07 9 + nim 2",
    ] {
        let start = Instant::now();
        match grundy::analysis::analyze(text, &options) {
            Ok(a) => println!(
                "{text:<50} {:?} {:>3} winning moves {:>9.3} s",
                a.outcome,
                a.winning_moves.len(),
                start.elapsed().as_secs_f64()
            ),
            Err(e) => println!("{text:<50} refused: {e}"),
        }
    }
}
