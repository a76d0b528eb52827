//! Misère quotients against the definitions and the literature.
//!
//! - Outcomes read from the quotient agree with an independent exhaustive misère search
//!   ([`grundy::solve::MisereSolver`] over whole positions) on small sums of random octal games.
//! - Every quotient computed is a commutative monoid of even order (Plambeck–Siegel).
//! - Published quotients (tests/data/misere/quotients.txt, sources there), and the
//!   presentation of R8, the quotient of 0.75.

use grundy::control::{Budget, Limits};
use grundy::game::ImpartialGame;
use grundy::heap::component::HeapGame;
use grundy::heap::rules::HeapRule;
use grundy::misere::MisereError;
use grundy::misere::outcome::{sum_verdict, winning_moves};
use grundy::misere::quotient::{HeapQuotient, heap_quotient};
use grundy::solve::MisereSolver;
use grundy::value::Outcome;
use proptest::prelude::*;

fn quotient(rule: &str, max_heap: u64) -> HeapQuotient {
    heap_quotient(
        &HeapRule::parse(rule).unwrap(),
        max_heap,
        &Budget::default(),
        2000,
    )
    .unwrap()
}

fn check_monoid(q: &HeapQuotient) {
    let t = q.quotient.table();
    let n = t.len();
    assert!(n == 1 || n % 2 == 0, "{}: odd order {n}", q.rule);
    for a in 0..n {
        assert_eq!(t[0][a] as usize, a, "identity");
        for b in 0..n {
            assert_eq!(t[a][b], t[b][a], "commutative");
            for c in 0..n {
                assert_eq!(
                    t[t[a][b] as usize][c], t[a][t[b][c] as usize],
                    "associative"
                );
            }
        }
    }
    // Every quotient but the trivial one (of the zero game alone, before any heap with a
    // move) has even order.
    assert!(
        q.orders.iter().all(|&o| o == 1 || o % 2 == 0),
        "{:?}",
        q.orders
    );
}

/// The reference: misère outcome by exhaustive search over whole positions.
fn brute_force_is_p(rule: &HeapRule, heaps: &[u64]) -> bool {
    let game = HeapGame::new(rule);
    let mut position: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    position.sort_unstable();
    MisereSolver::with_limits(&game, Limits::DEFAULT)
        .outcome(&position)
        .unwrap()
        == Outcome::P
}

#[test]
fn quotient_of_0_75_is_r8() {
    let q = quotient("0.75", 16);
    check_monoid(&q);
    let names = q.quotient.names();
    let el = |name: &str| names.iter().position(|n| n == name).unwrap() as u32;
    let m = |x: u32, y: u32| q.quotient.mul(x, y);
    let (one, a, b, c) = (el("1"), el("a"), el("b"), el("c"));
    // R8 = <a, b, c | a² = 1, b³ = b, bc = ab, c² = b²>, P = {a, b²}.
    assert_eq!(m(a, a), one);
    assert_eq!(m(m(b, b), b), b);
    assert_eq!(m(b, c), m(a, b));
    assert_eq!(m(c, c), m(b, b));
    let mut p = vec![a, m(b, b)];
    p.sort_unstable();
    assert_eq!(q.quotient.p_portion(), p);
}

#[test]
fn published_quotients() {
    let text = include_str!("data/misere/quotients.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let max_heap: u64 = f[1].parse().unwrap();
        let order: usize = f[2].parse().unwrap();
        let q = quotient(f[0], max_heap);
        check_monoid(&q);
        assert_eq!(q.quotient.order(), order, "{line}");
        if let Ok(p) = f[3].parse::<usize>() {
            assert_eq!(q.quotient.p_portion().len(), p, "{line}");
        }
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn misere_nim_quotients_match_boutons_rule() {
    // Nim heaps as the subtraction-free game allbut(): remove any number.
    // Heaps up to 5 of 0.33333 (take 1 to 5 tokens) are Nim heaps.
    let rule = HeapRule::parse("0.33333").unwrap();
    let q = heap_quotient(&rule, 5, &Budget::default(), 1000).unwrap();
    check_monoid(&q);
    for heaps in [
        [1u64, 1, 1],
        [2, 2, 0],
        [3, 2, 1],
        [1, 1, 0],
        [5, 4, 1],
        [4, 4, 1],
    ] {
        let v = sum_verdict(&q, &heaps, None).unwrap();
        assert_eq!(
            v.is_p,
            grundy::classic::misere_nim_is_p(&heaps),
            "{heaps:?}"
        );
    }
}

#[test]
fn element_limit_is_refused_with_the_figure() {
    let e = heap_quotient(
        &HeapRule::parse("0.07").unwrap(),
        20,
        &Budget::default(),
        10,
    )
    .unwrap_err();
    assert_eq!(e, MisereError::TooManyElements { limit: 10 });
    assert!(e.to_string().contains("10 elements"));
    let tight = Budget::new(Limits {
        max_work: 1000,
        ..Limits::DEFAULT
    });
    let e = heap_quotient(&HeapRule::parse("kayles").unwrap(), 20, &tight, 1000).unwrap_err();
    assert!(matches!(e, MisereError::Budget(_)), "{e:?}");
}

#[test]
fn huge_heaps_through_the_period_agree_with_the_map() {
    let q = quotient("0.75", 40);
    let short = quotient("0.75", 20);
    let period = short.period().expect("0.75's heap map is periodic");
    for n in 0..=40 {
        assert_eq!(
            short.element_of_heap(n, Some(period)),
            Some(q.heap_map[n as usize]),
            "heap {n}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Outcomes and winning moves through the quotient agree with the exhaustive search.
    #[test]
    fn quotient_outcomes_match_brute_force(
        digits in proptest::collection::vec(0u8..8, 1..4),
        heaps in proptest::collection::vec(0u64..8, 1..4),
    ) {
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        // A code of zeros allows no move and is refused by the parser.
        prop_assume!(digits.iter().any(|&d| d != 0));
        let rule = HeapRule::parse(&code).unwrap();
        let q = heap_quotient(&rule, 7, &Budget::default(), 2000).unwrap();
        check_monoid(&q);
        let v = sum_verdict(&q, &heaps, None).unwrap();
        prop_assert_eq!(v.is_p, brute_force_is_p(&rule, &heaps), "{} {:?}", code, heaps);
        for m in winning_moves(&q, &heaps, None).unwrap() {
            let mut after: Vec<u64> = heaps.clone();
            after.remove(m.heap);
            after.extend(&m.option.parts);
            prop_assert!(brute_force_is_p(&rule, &after), "{} {:?} -> {:?}", code, heaps, after);
        }
        let mut position: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        position.sort_unstable();
        if !v.is_p && !HeapGame::new(&rule).options(&position).is_empty() {
            prop_assert!(!winning_moves(&q, &heaps, None).unwrap().is_empty());
        }
    }
}
