//! Mixed misère sums: a heap rule's heaps with Nim heaps beside them, and the heaps of
//! several rules together, through the quotient of their closure
//! ([`grundy::misere::quotient::heap_quotient_with_nim`],
//! [`grundy::misere::generators::Generators::nim_then_rules`]).
//!
//! - Outcomes and winning moves read from the quotient with Nim heaps agree with a misère
//!   search written here from the definition (a position with no move is won by the player
//!   to move; one is lost when every move leads to a position won by the player to move), on
//!   random codes.
//! - `analyze --misere` on such sums, small ones, agrees with the whole-sum search of the
//!   generic engine, winning move for winning move, for one rule with Nim heaps and for two
//!   rules (random codes) with Nim heaps; huge heaps placed through the proven period agree
//!   with the definition on a heap of the same class.

use grundy::Options;
use grundy::analysis::analyze;
use grundy::control::{Budget, Limits};
use grundy::heap::options::for_each_option;
use grundy::heap::rules::HeapRule;
use grundy::misere::MisereError;
use grundy::misere::outcome::{Part, sum_verdict_of_parts, winning_moves_of_parts};
use grundy::misere::quotient::heap_quotient_with_nim;
use grundy::sum::{Context, Engine};
use grundy::value::Outcome;
use proptest::prelude::*;
use std::collections::HashMap;

/// Misère outcomes from the definition, over positions (rule heaps, Nim heaps), each sorted.
struct Definition {
    rule: HeapRule,
    memo: HashMap<(Vec<u64>, Vec<u64>), bool>,
}

impl Definition {
    fn new(rule: &HeapRule) -> Self {
        Definition {
            rule: rule.clone(),
            memo: HashMap::new(),
        }
    }

    /// Whether the player to move loses (a misère P-position).
    fn is_p(&mut self, heaps: &[u64], nims: &[u64]) -> bool {
        let mut h: Vec<u64> = heaps.iter().copied().filter(|&x| x > 0).collect();
        let mut n: Vec<u64> = nims.iter().copied().filter(|&x| x > 0).collect();
        h.sort_unstable();
        n.sort_unstable();
        if let Some(&p) = self.memo.get(&(h.clone(), n.clone())) {
            return p;
        }
        let mut options: Vec<(Vec<u64>, Vec<u64>)> = Vec::new();
        for i in 0..h.len() {
            let mut parts = Vec::new();
            for_each_option(&self.rule, h[i], |o| parts.push(o.parts));
            for p in parts {
                let mut after = h.clone();
                after.remove(i);
                after.extend(p);
                options.push((after, n.clone()));
            }
        }
        for i in 0..n.len() {
            for j in 0..n[i] {
                let mut after = n.clone();
                after[i] = j;
                options.push((h.clone(), after));
            }
        }
        // No move: the player to move has won (the other made the last move).
        let p = !options.is_empty() && options.iter().all(|(a, b)| !self.is_p(a, b));
        self.memo.insert((h, n), p);
        p
    }
}

fn split(parts: &[Part]) -> (Vec<u64>, Vec<u64>) {
    let mut heaps = Vec::new();
    let mut nims = Vec::new();
    for p in parts {
        match *p {
            Part::Heap(h) => heaps.push(h),
            Part::Nim(m) => nims.push(m),
            Part::Element(_) => unreachable!("the test builds heaps and Nim heaps only"),
        }
    }
    (heaps, nims)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn quotients_with_nim_heaps_match_the_definition(
        digits in proptest::collection::vec(0u8..8, 1..4),
        heaps in proptest::collection::vec(0u64..8, 0..3),
        nims in proptest::collection::vec(0u64..4, 1..3),
    ) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        let rule = HeapRule::parse(&code).unwrap();
        let nim = *nims.iter().max().unwrap() as u32;
        let q = match heap_quotient_with_nim(&rule, nim, 7, &Budget::default(), 2000) {
            Ok(q) => q,
            Err(stop) if matches!(stop.error, MisereError::Budget(_)) => return Ok(()),
            Err(stop) => panic!("{code}: {}", stop.error),
        };
        prop_assert_eq!(q.quotient.order() % 2, 0, "{}", code);
        let mut parts: Vec<Part> = heaps.iter().map(|&h| Part::Heap(h)).collect();
        parts.extend(nims.iter().map(|&m| Part::Nim(m)));
        let mut def = Definition::new(&rule);
        let v = sum_verdict_of_parts(&q, &parts, None).unwrap();
        prop_assert_eq!(v.is_p, def.is_p(&heaps, &nims), "{} {:?}", code, parts);
        let moves = winning_moves_of_parts(&q, &parts, None).unwrap();
        for m in &moves {
            let mut after = parts.clone();
            after[m.heap] = match parts[m.heap] {
                Part::Heap(_) => Part::Heap(0),
                Part::Nim(_) => Part::Nim(m.option.parts.first().copied().unwrap_or(0)),
                Part::Element(_) => unreachable!(),
            };
            if let Part::Heap(_) = parts[m.heap] {
                after.extend(m.option.parts.iter().map(|&x| Part::Heap(x)));
            }
            let (h, n) = split(&after);
            prop_assert!(def.is_p(&h, &n), "{} {:?} -> {:?}", code, parts, after);
        }
        // Every winning move is found: as many as the definition counts (moves to the same
        // position counted once each way).
        if !v.is_p {
            let mut count = 0;
            for (i, &p) in parts.iter().enumerate() {
                match p {
                    Part::Heap(x) => {
                        let mut options = Vec::new();
                        for_each_option(&rule, x, |o| options.push(o));
                        options.sort_by(|a, b| (a.removed, &a.parts).cmp(&(b.removed, &b.parts)));
                        options.dedup();
                        for o in options {
                            let mut after = parts.clone();
                            after[i] = Part::Heap(0);
                            after.extend(o.parts.iter().map(|&y| Part::Heap(y)));
                            let (h, n) = split(&after);
                            count += usize::from(def.is_p(&h, &n));
                        }
                    }
                    Part::Nim(m) => {
                        for j in 0..m {
                            let mut after = parts.clone();
                            after[i] = Part::Nim(j);
                            let (h, n) = split(&after);
                            count += usize::from(def.is_p(&h, &n));
                        }
                    }
                    Part::Element(_) => unreachable!(),
                }
            }
            prop_assert_eq!(moves.len(), count, "{} {:?}", code, parts);
        }
    }
}

fn misere(engine: Engine) -> Options {
    Options {
        moves: Default::default(),
        misere: true,
        context: Context::new(engine, Limits::DEFAULT),
    }
}

/// The outcome and the sorted winning moves (component, move, result) of an analysis.
fn answer(text: &str, engine: Engine) -> (Outcome, Vec<(usize, String, String)>) {
    let a = analyze(text, &misere(engine)).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut moves: Vec<_> = a
        .winning_moves
        .iter()
        .map(|m| (m.component, m.description.clone(), m.result.clone()))
        .collect();
    moves.sort();
    (a.outcome, moves)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The analysis reads the sum through the quotient with the Nim heaps (its explanation
    /// says so) and agrees with the generic engine's whole-sum search, move for move.
    #[test]
    fn analysis_of_heaps_and_nim_heaps_matches_the_search(
        rule in prop::sample::select(&["0.75", "kayles", "0.07", "0.137", "dawson-kayles"][..]),
        heaps in proptest::collection::vec(1u64..9, 1..3),
        nims in proptest::collection::vec(0u64..4, 1..3),
    ) {
        let text = format!(
            "{rule} {} + nim {}",
            heaps.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" "),
            nims.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" ")
        );
        let fast = analyze(&text, &misere(Engine::Fast)).unwrap();
        prop_assert!(
            fast.explanation.iter().any(|e| e.contains("misère quotient")),
            "{}: {:?}", text, fast.explanation
        );
        prop_assert_eq!(answer(&text, Engine::Fast), answer(&text, Engine::Generic), "{}", text);
    }
}

fn code(digits: &[u8]) -> String {
    format!(
        "0.{}",
        digits.iter().map(|d| d.to_string()).collect::<String>()
    )
}

fn list(v: &[u64]) -> String {
    v.iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Two rules' heaps (random codes) and Nim heaps: the quotient of the three together
    /// answers, and agrees with the whole-sum search move for move.
    #[test]
    fn analysis_of_two_rules_matches_the_search(
        a in proptest::collection::vec(0u8..8, 1..4),
        b in proptest::collection::vec(0u8..8, 1..4),
        heaps_a in proptest::collection::vec(1u64..8, 1..3),
        heaps_b in proptest::collection::vec(1u64..8, 1..3),
        nims in proptest::collection::vec(0u64..3, 0..2),
    ) {
        prop_assume!(a.iter().any(|&d| d != 0) && b.iter().any(|&d| d != 0));
        let (ca, cb) = (code(&a), code(&b));
        prop_assume!(ca != cb);
        let mut text = format!("{ca} {} + {cb} {}", list(&heaps_a), list(&heaps_b));
        if !nims.is_empty() {
            text.push_str(&format!(" + nim {}", list(&nims)));
        }
        let fast = analyze(&text, &misere(Engine::Fast)).unwrap();
        // A quotient past the route's limits is refused and the search answers: the same
        // answer either way, but the quotient is what is tested here.
        prop_assume!(fast.explanation.iter().any(|e| e.contains("together")));
        prop_assert_eq!(answer(&text, Engine::Fast), answer(&text, Engine::Generic), "{}", text);
    }
}

#[test]
fn two_rules_at_any_size_follow_their_classes() {
    // 0.75 (period 2 from 8) and 0.07 = Dawson's Kayles below its quotient's blow-up: heaps
    // of 0.75 of 10^12 and 10^12 + 1 act as heaps 10 and 9 beside 0.07 heaps and Nim heaps.
    let mut cases = 0;
    for (big, small) in [(1_000_000_000_000u64, 10u64), (1_000_000_000_001, 9)] {
        for rest in [
            "0.07 3 5",
            "0.07 4 + nim 2",
            "0.07 2 2 6 + nim 1 3",
            "kayles 4 7",
        ] {
            let huge = format!("0.75 {big} + {rest}");
            let small_text = format!("0.75 {small} + {rest}");
            let (outcome, _) = answer(&huge, Engine::Fast);
            let (expected, _) = answer(&small_text, Engine::Generic);
            assert_eq!(outcome, expected, "{huge}");
            cases += 1;
        }
    }
    assert_eq!(cases, 8);
    let a = analyze("kayles 1000000 + 0.75 1000000", &misere(Engine::Fast)).unwrap();
    let why = a.explanation.join(" ");
    assert!(why.contains("kayles and 0.75 together"), "{why}");
    assert!(why.contains("Heaps of kayles beyond 256"), "{why}");
    assert!(why.contains("Heaps of 0.75 beyond 32"), "{why}");
    assert!(!why.contains("not proven"), "{why}");
}

#[test]
fn huge_heaps_beside_nim_heaps_follow_their_class() {
    // 0.75's heap map has period 2 from heap 8, proven: a heap of 10^12 + 1 acts as heap 9.
    let rule = HeapRule::parse("0.75").unwrap();
    let mut def = Definition::new(&rule);
    for (big, small) in [(1_000_000_000_001u64, 9u64), (1_000_000_000_000, 10)] {
        for nims in [vec![1], vec![2], vec![3], vec![2, 3], vec![1, 1, 2]] {
            let list = nims
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ");
            let (outcome, moves) = answer(&format!("0.75 {big} + nim {list}"), Engine::Fast);
            let expected = if def.is_p(&[small], &nims) {
                Outcome::P
            } else {
                Outcome::N
            };
            assert_eq!(outcome, expected, "0.75 {big} + nim {list}");
            // Each winning move in a Nim heap is one the definition confirms on the small heap.
            for (component, _, result) in moves.iter().filter(|m| m.0 > 0) {
                let left: Vec<u64> = result
                    .split("nim ")
                    .nth(1)
                    .unwrap()
                    .split(' ')
                    .map(|x| x.parse().unwrap())
                    .collect();
                assert!(def.is_p(&[small], &left), "{component}: {result}");
            }
            assert_eq!(moves.is_empty(), outcome == Outcome::P, "{list}");
        }
    }
    // Kayles with *3: the quotient to heap 256, its period 12 from heap 71 proven (the
    // theorem needs heaps to 168).
    let a = analyze("kayles 1000000 + nim 3", &misere(Engine::Fast)).unwrap();
    assert!(
        a.explanation
            .iter()
            .any(|e| e.contains("period 12 (from heap 71)") && e.contains("proven")),
        "{:?}",
        a.explanation
    );
}

#[test]
fn nim_heaps_past_the_limit_are_refused_with_the_figure() {
    let a = analyze(
        "0.75 9 + nim 9",
        &Options {
            moves: Default::default(),
            misere: true,
            context: Context::new(Engine::Fast, Limits::DEFAULT),
        },
    )
    .unwrap();
    // Answered by the search, and the explanation says why the quotient did not apply.
    assert!(
        a.explanation
            .iter()
            .any(|e| e.contains("a Nim heap of 9") && e.contains("up to 8")),
        "{:?}",
        a.explanation
    );
}
