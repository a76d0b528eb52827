//! Misère quotients against the definitions and the literature.
//!
//! - Outcomes read from the quotient agree with an independent exhaustive misère search
//!   ([`grundy::solve::MisereSolver`] over whole positions) on small sums of random octal games.
//! - Every quotient computed is a commutative monoid of even order (Plambeck–Siegel).
//! - Published quotients (tests/data/misere/quotients.txt, sources there), the
//!   presentation of R8, the quotient of 0.75, and published relations between heaps
//!   (tests/data/misere/relations.txt: Plambeck's solution of 0.312).

use grundy::control::{Budget, Limits};
use grundy::game::ImpartialGame;
use grundy::heap::component::HeapGame;
use grundy::heap::rules::HeapRule;
use grundy::misere::MisereError;
use grundy::misere::genus::GenusSolver;
use grundy::misere::outcome::{sum_verdict, winning_moves};
use grundy::misere::quotient::{HeapQuotient, heap_quotient};
use proptest::prelude::*;

use crate::common::misere_definition;
use crate::common::misere_search;
use misere_definition::all_outcomes;
use misere_search::brute_force_is_p;

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
    let text = include_str!("../data/misere/quotients.txt");
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

/// Published relations between heaps (tests/data/misere/relations.txt, sources there).
#[test]
fn published_heap_relations() {
    let text = include_str!("../data/misere/relations.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let q = quotient(f[0], f[1].parse().unwrap());
        check_monoid(&q);
        let heap = |w: &&str| -> u64 { w.parse().unwrap() };
        let element = |h: u64| q.heap_map[h as usize];
        match f[2] {
            "same" => {
                let first = element(heap(&f[3]));
                assert!(f[4..].iter().all(|w| element(heap(w)) == first), "{line}");
            }
            "distinct" => {
                let mut xs: Vec<u32> = f[3..].iter().map(|w| element(heap(w))).collect();
                xs.sort_unstable();
                xs.dedup();
                assert_eq!(xs.len(), f.len() - 3, "{line}");
            }
            "zero" => {
                let product = f[3..]
                    .iter()
                    .fold(0, |x, w| q.quotient.mul(x, element(heap(w))));
                assert_eq!(product, 0, "{line}");
            }
            "genus" => {
                let (want, heaps) = f[3..].split_last().unwrap();
                let heaps: Vec<u64> = heaps.iter().map(heap).collect();
                let game = HeapGame::new(&q.rule);
                let budget = Budget::default();
                let mut solver = GenusSolver::new(&game, &budget);
                assert_eq!(solver.genus(&heaps).unwrap().to_string(), *want, "{line}");
            }
            other => panic!("unknown relation {other} in {line}"),
        }
        checked += 1;
    }
    assert!(checked >= 6);
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
        // A quotient too costly for the default budget is refused with the figure, never
        // wrong (0.354 to heap 7 is one).
        let q = match heap_quotient(&rule, 7, &Budget::default(), 2000) {
            Ok(q) => q,
            Err(MisereError::Budget(_)) => return Ok(()),
            Err(e) => panic!("{code}: {e}"),
        };
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

/// Quotients whose heaps split old elements (built by refinement, [`grundy::misere::refine`])
/// predict the outcome of every small sum, checked against the definition.
#[test]
fn split_quotients_match_every_small_sum() {
    for (code, max_heap, total) in [("0.137", 16, 26), ("kayles", 30, 30), ("0.07", 12, 24)] {
        let rule = HeapRule::parse(code).unwrap();
        let q = quotient(code, max_heap);
        check_monoid(&q);
        let mut checked = 0;
        for (pos, is_p) in all_outcomes(&rule, total, max_heap) {
            let v = sum_verdict(&q, &pos, None).unwrap();
            assert_eq!(v.is_p, is_p, "{code} {pos:?}");
            checked += 1;
        }
        assert!(checked > 1000, "{code}: {checked}");
    }
}

/// The refinement on its own: 0.137's heap 10 (its ninth generator) splits old elements. The
/// model with the new heap alone freed predicts some sum wrongly; with the generators of the
/// failing sums freed too (heaps 4 and 6, as the verification names them) it is the quotient.
#[test]
fn refinement_candidate_splits_old_elements() {
    use grundy::misere::generators::Generators;
    use grundy::misere::quotient::{Quotient, compute};
    use grundy::misere::refine::{Freed, candidate};
    let rule = HeapRule::parse("0.137").unwrap();
    let budget = Budget::default();
    let gens = Generators::heaps(&rule, 16, &budget).unwrap();
    let mut olds = Vec::new();
    compute(&gens, &budget, 1000, |_, q| {
        olds.push(q.clone());
        Ok(())
    })
    .unwrap();
    let i = 8;
    let (old, real) = (&olds[7], &olds[8]);
    assert!(
        real.order() > old.order(),
        "{} {}",
        old.order(),
        real.order()
    );
    let freed = |list: &[(u32, u32)]| -> Vec<Freed> {
        list.iter()
            .map(|&(generator, index)| Freed { generator, index })
            .collect()
    };
    // Every sum of at most four generators 0..=i: how many outcomes a candidate gets wrong.
    let wrong = |q: &Quotient| {
        let mut bad = 0;
        let n = i + 1;
        for a in 0..n {
            for b in a..n {
                for c in b..n {
                    for d in c..n {
                        for pos in [vec![a], vec![a, b], vec![a, b, c], vec![a, b, c, d]] {
                            bad +=
                                usize::from(q.is_p(q.image(&pos)) != real.is_p(real.image(&pos)));
                        }
                    }
                }
            }
        }
        bad
    };
    let (coarse, _) = candidate(&gens, old, i, &freed(&[(8, 4)]), false, &budget, 1000)
        .unwrap()
        .unwrap();
    assert!(wrong(&coarse) > 0, "the new heap alone already fits");
    let (fine, _) = candidate(
        &gens,
        old,
        i,
        &freed(&[(8, 4), (2, 3), (4, 5)]),
        false,
        &budget,
        1000,
    )
    .unwrap()
    .unwrap();
    assert_eq!(fine.order(), real.order());
    assert_eq!(wrong(&fine), 0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Random codes, heaps to 12 (where new heaps often split old elements): every sum of at
    /// most 16 tokens agrees with the definition.
    #[test]
    fn quotients_to_heap_12_match_every_small_sum(
        digits in proptest::collection::vec(0u8..8, 1..4),
    ) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        let rule = HeapRule::parse(&code).unwrap();
        let budget = Budget::new(Limits { max_work: 400_000_000, ..Limits::DEFAULT });
        // A quotient too large for the budget is refused, never wrong.
        let q = match heap_quotient(&rule, 12, &budget, 2000) {
            Ok(q) => q,
            Err(MisereError::Budget(_) | MisereError::TooManyElements { .. }) => return Ok(()),
            Err(e) => panic!("{code}: {e}"),
        };
        check_monoid(&q);
        for (pos, is_p) in all_outcomes(&rule, 16, 12) {
            let v = sum_verdict(&q, &pos, None).unwrap();
            prop_assert_eq!(v.is_p, is_p, "{} {:?}", code, pos);
        }
    }
}

/// A heap whose type (image, and the elements its options turn into P-positions) an older
/// heap already has extends the quotient without a search and without a new verification
/// (`Step::same_automaton`). Kayles's heaps repeat their types from heap 71 on (period 12),
/// so its quotient to heap 500 costs little more than to heap 100; before the shortcut every
/// heap was verified again, and heap 500 needed more than the default 2.5·10^8 units of work.
#[test]
fn repeated_heap_types_cost_no_new_verification() {
    let rule = HeapRule::parse("kayles").unwrap();
    let work = |n: u64| {
        let budget = Budget::default();
        let q = heap_quotient(&rule, n, &budget, 2000).unwrap();
        (q, budget.work_done())
    };
    let (q100, w100) = work(100);
    let (q500, w500) = work(500);
    assert_eq!(
        (q500.quotient.order(), q500.quotient.p_portion().len()),
        (40, 9)
    );
    // Built step by step alike: the first 100 heaps map as in the quotient to 100.
    assert_eq!(q100.quotient.table(), q500.quotient.table());
    assert_eq!(q100.heap_map[..], q500.heap_map[..=100]);
    // Listing the options of heaps 101..500 is most of the extra work; no verification.
    assert!(w500 < 20 * w100, "{w100} then {w500}");
    // The period seen to heap 100 predicts every heap to 500.
    let period = q100.period().expect("Kayles's heap map is periodic");
    assert_eq!(period.period, 12);
    for n in 0..=500u64 {
        assert_eq!(
            q100.element_of_heap(n, Some(period)),
            Some(q500.heap_map[n as usize]),
            "heap {n}"
        );
    }
}
