//! Genus and the tame rule against the definitions.
//!
//! - The genus solver's exponents agree with misère Grundy values computed by a separate,
//!   plain recursion over heaps plus Nim heaps (`misere_grundy`, tests/common), written from
//!   the definition.
//! - Conway's rule for sums of tame games agrees with the exhaustive misère search on every
//!   sum of tame heaps tried.

use grundy::control::{Budget, Limits};
use grundy::game::ImpartialGame;
use grundy::heap::component::HeapGame;
use grundy::heap::rules::HeapRule;
use grundy::misere::MisereError;
use grundy::misere::genus::{GenusSolver, tame_sum_is_p};
use grundy::misere::sequence::{
    QUOTIENT_HEAPS, genus_sequence, genus_sequence_by_definition, genus_sequence_by_forms,
    genus_sequence_by_labels, genus_sequence_by_quotient,
};
use grundy::solve::MisereSolver;
use grundy::value::Outcome;
use proptest::prelude::*;
use std::collections::HashMap;

use crate::common::misere_grundy;
use misere_grundy::misere_grundy;

/// Misère Grundy value of a sum of rule heaps and Nim heaps: 1 with no move, otherwise the
/// mex of the options' values. Plain recursion with a memo (the positions here are tiny).
#[test]
fn genus_exponents_match_the_definition() {
    for rule in ["kayles", "0.75", "0.137", "0.07", "4.07", "0.6"] {
        let r = HeapRule::parse(rule).unwrap();
        let game = HeapGame::new(&r);
        let budget = Budget::default();
        let mut solver = GenusSolver::new(&game, &budget);
        let mut memo = HashMap::new();
        for n in 0..9u64 {
            let pos = if n == 0 { vec![] } else { vec![n] };
            let g = solver.genus(&pos).unwrap();
            for k in 0..6 {
                let expected = misere_grundy(&game, pos.clone(), vec![2; k], &mut memo);
                assert_eq!(g.exponent(k), expected, "{rule} heap {n}: {g}, k = {k}");
            }
        }
    }
}

#[test]
fn genus_sequence_marks_the_first_wild_heap() {
    let seq = genus_sequence(&HeapRule::parse("kayles").unwrap(), 12, &Budget::default());
    assert!(seq.stopped.is_none());
    assert_eq!(seq.entries.len(), 13);
    let first = seq.first_wild.expect("Kayles is wild");
    assert!(seq.entries[..first as usize].iter().all(|e| e.tame));
    assert!(!seq.entries[first as usize].tame);
    assert_eq!(seq.entries[0].genus.to_string(), "0^120");
    assert_eq!(seq.entries[1].genus.to_string(), "1^031");
    // Stopping under the budget keeps what was computed.
    let tight = Budget::new(Limits {
        max_work: 5000,
        ..Limits::DEFAULT
    });
    let seq = genus_sequence(&HeapRule::parse("kayles").unwrap(), 40, &tight);
    assert!(seq.stopped.is_some());
    assert!(seq.entries.len() < 41);
}

/// The genus read through the misère quotient equals the genus from the definition, on every
/// heap both reached under a small budget (a quotient whose elements split falls back to a
/// slow search and may stop early); returns how many heaps were compared.
fn same_genera(rule: &str, to: u64) -> usize {
    let r = HeapRule::parse(rule).unwrap();
    // Both methods are charged by their real work (the quotient's candidate checks and the
    // definition's searches), a few units a position.
    let budget = |max_work| {
        Budget::new(Limits {
            max_work,
            ..Limits::DEFAULT
        })
    };
    let fast = genus_sequence_by_quotient(&r, to, &budget(200_000_000));
    assert!(fast.quotient_order.is_some_and(|o| o == 1 || o % 2 == 0));
    let slow = genus_sequence_by_definition(&r, to, &budget(60_000_000));
    let n = fast.entries.len().min(slow.entries.len());
    assert_eq!(fast.entries[..n], slow.entries[..n], "{rule}");
    n
}

#[test]
fn genus_through_the_quotient_matches_the_definition() {
    for (rule, to, at_least) in [("kayles", 14, 8), ("0.75", 16, 6), ("0.07", 12, 4)] {
        let n = same_genera(rule, to);
        assert!(n >= at_least, "{rule}: only {n} heaps compared");
    }
}

/// The genus read through the labelled monoid (misère Grundy values as labels) equals the
/// genus from the definition on every heap both reached; returns how many were compared.
fn same_labelled_genera(rule: &str, to: u64) -> usize {
    let r = HeapRule::parse(rule).unwrap();
    let budget = |max_work| {
        Budget::new(Limits {
            max_work,
            ..Limits::DEFAULT
        })
    };
    let fast = genus_sequence_by_labels(&r, to, &budget(100_000_000));
    let slow = genus_sequence_by_definition(&r, to, &budget(60_000_000));
    let n = fast.entries.len().min(slow.entries.len());
    assert_eq!(fast.entries[..n], slow.entries[..n], "{rule}");
    n
}

#[test]
fn genus_through_labels_matches_the_definition() {
    // Kayles: the labelled monoid is proven to heap 19 (24 elements) and refuted at 20.
    for (rule, to, at_least) in [("kayles", 22, 20), ("0.75", 20, 21), ("0.07", 14, 6)] {
        let n = same_labelled_genera(rule, to);
        assert!(n >= at_least, "{rule}: only {n} heaps compared");
    }
}

#[test]
fn quotient_routes_stop_at_the_last_heap_they_built() {
    // Asked past the heaps they build (QUOTIENT_HEAPS), the labelled monoid and the quotient
    // with Nim heaps once read a heap beyond them as a heap without moves: heap 513 of 0.4=
    // came out 1^120 (its genus is 1^031, as every odd heap's), caught only by the
    // cross-check of the routes.
    let rule = HeapRule::parse("0.4=").unwrap();
    let to = QUOTIENT_HEAPS + 88;
    let forms = genus_sequence_by_forms(&rule, to, &Budget::default());
    assert_eq!(forms.entries.len() as u64, to + 1);
    for seq in [
        genus_sequence_by_labels(&rule, to, &Budget::default()),
        genus_sequence_by_quotient(&rule, to, &Budget::default()),
    ] {
        assert_eq!(
            seq.entries.len() as u64,
            QUOTIENT_HEAPS + 1,
            "{:?}",
            seq.route
        );
        assert!(
            matches!(seq.stopped, Some(MisereError::HeapBound { .. })),
            "{:?}",
            seq.stopped
        );
        assert_eq!(seq.entries[..], forms.entries[..seq.entries.len()]);
    }
}

/// All routes in turn (the definition answering from the labelled monoid the sums it
/// covers) against the definition alone, on every heap both reached.
fn same_genera_all_routes(rule: &str, to: u64, max_work: u64) -> usize {
    let r = HeapRule::parse(rule).unwrap();
    let budget = || {
        Budget::new(Limits {
            max_work,
            ..Limits::DEFAULT
        })
    };
    let all = genus_sequence(&r, to, &budget());
    let slow = genus_sequence_by_definition(&r, to, &budget());
    let n = all.entries.len().min(slow.entries.len());
    assert_eq!(all.entries[..n], slow.entries[..n], "{rule}");
    n
}

#[test]
fn seeded_definition_matches_the_definition() {
    // Kayles: the labelled monoid covers heaps to 19; the definition goes on past 20 with
    // every sum of those heaps answered from it.
    let n = same_genera_all_routes("kayles", 30, 250_000_000);
    assert_eq!(n, 31);
    let n = same_genera_all_routes("0.137", 30, 250_000_000);
    assert_eq!(n, 31);
}

#[test]
fn genus_sequence_of_kayles_through_the_quotient() {
    let seq = genus_sequence(&HeapRule::parse("kayles").unwrap(), 19, &Budget::default());
    assert!(seq.stopped.is_none());
    let text: Vec<String> = seq.entries.iter().map(|e| e.genus.to_string()).collect();
    // Heaps 0 to 4 are tame, heap 5 (4^146) is the first wild one; checked against the
    // definition by the test above for heaps up to 14.
    assert_eq!(text[5], "4^146");
    assert_eq!(seq.first_wild, Some(5));
}

#[test]
fn genus_of_a_loopy_game_is_refused() {
    struct Loop;
    impl ImpartialGame for Loop {
        type Position = u8;
        fn options(&self, p: &u8) -> Vec<u8> {
            vec![1 - p]
        }
    }
    let budget = Budget::default();
    let mut s = GenusSolver::new(&Loop, &budget);
    let e = s.genus(&0).unwrap_err().to_string();
    assert!(e.contains("loopy"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// Random octal codes: the genus through the quotient equals the definition.
    #[test]
    fn genus_through_the_quotient_matches_on_random_codes(
        digits in proptest::collection::vec(0u8..8, 1..4),
    ) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        same_genera(&code, 8);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Random octal codes: the genus through the labelled monoid equals the definition.
    #[test]
    fn genus_through_labels_matches_on_random_codes(
        digits in proptest::collection::vec(0u8..8, 1..4),
    ) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        same_labelled_genera(&code, 10);
    }

    /// Random octal codes: all routes in turn equal the definition alone.
    #[test]
    fn all_routes_match_on_random_codes(
        digits in proptest::collection::vec(0u8..8, 1..4),
    ) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        same_genera_all_routes(&code, 14, 40_000_000);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Conway's rule on sums of tame heaps agrees with the exhaustive search.
    #[test]
    fn tame_rule_matches_brute_force(
        digits in proptest::collection::vec(0u8..8, 1..4),
        heaps in proptest::collection::vec(1u64..8, 1..4),
    ) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        let rule = HeapRule::parse(&code).unwrap();
        let game = HeapGame::new(&rule);
        let budget = Budget::default();
        let mut solver = GenusSolver::new(&game, &budget);
        let mut genera = Vec::new();
        for &h in &heaps {
            let (g, tame) = solver.hereditarily_tame(&vec![h]).unwrap();
            prop_assume!(tame);
            genera.push(g);
        }
        let (is_p, _) = tame_sum_is_p(&genera).unwrap();
        let mut position = heaps.clone();
        position.sort_unstable();
        let expected = MisereSolver::with_limits(&game, Limits::DEFAULT).outcome(&position).unwrap() == Outcome::P;
        prop_assert_eq!(is_p, expected, "{} {:?} {:?}", code, heaps, genera.iter().map(|g| g.to_string()).collect::<Vec<_>>());
    }
}

/// Published single-heap genus sequences (tests/data/misere/genus.txt, sources there), read
/// through the quotient and from the definition.
#[test]
fn published_genus_sequences() {
    let text = include_str!("../data/misere/genus.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut f = line.split_whitespace();
        let rule = HeapRule::parse(f.next().unwrap()).unwrap();
        let expected: Vec<&str> = f.collect();
        let to = expected.len() as u64;
        for seq in [
            genus_sequence(&rule, to, &Budget::default()),
            genus_sequence_by_definition(&rule, to, &Budget::default()),
        ] {
            assert!(seq.stopped.is_none(), "{line}");
            let got: Vec<String> = seq.entries[1..]
                .iter()
                .map(|e| e.genus.to_string())
                .collect();
            assert_eq!(got, expected, "{line}");
        }
        checked += 1;
    }
    assert!(checked > 0);
}
