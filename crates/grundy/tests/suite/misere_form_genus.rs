//! The genus read off the heaps' misère canonical forms (grundy::misere::form_genus) against
//! independent computations of the same numbers:
//! - misère Grundy values of heaps plus Nim heaps by a plain recursion written from the
//!   definition (tests/common/misere_grundy.rs, independent of the library's misère code);
//! - the genus from the definition over the heaps (`genus_sequence_by_definition`), on the
//!   classic octal games and on random octal codes;
//! - the pruned search over the heaps (`genus_sequence_by_search`) deeper;
//! - CGSuite's genus columns (tests/misere_genus_cgsuite.rs runs the forms route too).

use grundy::control::{Budget, BudgetError, Limits};
use grundy::heap::component::HeapGame;
use grundy::heap::rules::HeapRule;
use grundy::misere::MisereError;
use grundy::misere::sequence::{
    GenusRoute, GenusSequence, TameBasis, genus_sequence, genus_sequence_by_definition,
    genus_sequence_by_forms, genus_sequence_by_search,
};
use proptest::prelude::*;
use std::collections::HashMap;

use crate::common::misere_grundy;
use misere_grundy::misere_grundy;

fn budget(max_work: u64) -> Budget {
    Budget::new(Limits {
        max_work,
        ..Limits::DEFAULT
    })
}

/// The genera of two sequences agree on every heap both reached; returns how many.
fn same_genera(a: &GenusSequence, b: &GenusSequence, what: &str) -> usize {
    let n = a.entries.len().min(b.entries.len());
    for (x, y) in a.entries[..n].iter().zip(&b.entries[..n]) {
        assert_eq!(x.heap, y.heap, "{what}");
        assert_eq!(x.genus, y.genus, "{what} heap {}", x.heap);
    }
    n
}

/// The forms route against the definition on `0..=to`; returns how many heaps were compared.
fn forms_against_definition(rule: &str, to: u64, max_work: u64) -> usize {
    let r = HeapRule::parse(rule).unwrap();
    let forms = genus_sequence_by_forms(&r, to, &budget(max_work));
    assert!(forms.stopped.is_none(), "{rule}: {:?}", forms.stopped);
    assert_eq!(forms.entries.len() as u64, to + 1, "{rule}");
    assert!(
        forms
            .entries
            .iter()
            .all(|e| e.tame_basis == TameBasis::CanonicalForm)
    );
    let slow = genus_sequence_by_definition(&r, to, &budget(max_work));
    same_genera(&forms, &slow, rule)
}

#[test]
fn exponents_match_the_plain_recursion() {
    for rule in ["kayles", "0.07", "0.137", "0.75", "4.07", "0.6"] {
        let r = HeapRule::parse(rule).unwrap();
        let game = HeapGame::new(&r);
        let seq = genus_sequence_by_forms(&r, 9, &Budget::default());
        assert!(seq.stopped.is_none(), "{rule}");
        let mut memo = HashMap::new();
        for e in &seq.entries {
            let pos = if e.heap == 0 { vec![] } else { vec![e.heap] };
            for k in 0..6 {
                let expected = misere_grundy(&game, pos.clone(), vec![2; k], &mut memo);
                assert_eq!(
                    e.genus.exponent(k),
                    expected,
                    "{rule} heap {}: {}, k = {k}",
                    e.heap,
                    e.genus
                );
            }
        }
    }
}

#[test]
fn forms_match_the_definition_on_the_classic_games() {
    for (rule, to) in [
        ("kayles", 26),
        ("0.07", 26),
        ("0.137", 26),
        ("0.75", 22),
        ("0.6", 18),
        ("grundys-game", 16),
    ] {
        let n = forms_against_definition(rule, to, 250_000_000);
        assert_eq!(n as u64, to + 1, "{rule}: only {n} heaps compared");
    }
}

/// Kayles, Dawson's Kayles and Dawson's chess against the pruned search, to `to`, the
/// search with `max_work`.
fn forms_against_search(to: u64, max_work: u64) {
    for rule in ["kayles", "0.07", "0.137"] {
        let r = HeapRule::parse(rule).unwrap();
        let forms = genus_sequence_by_forms(&r, to, &Budget::default());
        let search = genus_sequence_by_search(&r, to, &budget(max_work));
        assert!(forms.stopped.is_none(), "{rule}: {:?}", forms.stopped);
        assert!(search.stopped.is_none(), "{rule}: {:?}", search.stopped);
        assert_eq!(same_genera(&forms, &search, rule) as u64, to + 1);
        // The search's tameness (read off the same forms) and first wild heap too.
        assert_eq!(forms.entries, search.entries, "{rule}");
        assert_eq!(forms.first_wild, search.first_wild, "{rule}");
    }
}

#[test]
fn forms_match_the_search_to_heap_36() {
    forms_against_search(36, 250_000_000);
}

/// Deeper, the search with four times the default work limit.
#[test]
#[ignore = "deep tier"]
fn forms_match_the_search_to_heap_56() {
    forms_against_search(56, 1_000_000_000);
}

#[test]
fn genus_sequence_reads_kayles_off_the_forms() {
    let kayles = HeapRule::parse("kayles").unwrap();
    let seq = genus_sequence(&kayles, 40, &Budget::default());
    assert!(seq.stopped.is_none(), "{:?}", seq.stopped);
    assert!(
        matches!(seq.route, GenusRoute::CanonicalForms { forms } if forms > 1000),
        "{:?}",
        seq.route
    );
    assert_eq!(seq.entries.len(), 41);
    assert!(
        seq.entries
            .iter()
            .all(|e| e.tame_basis == TameBasis::CanonicalForm)
    );
    assert_eq!(seq.first_wild, Some(5));
    // Heap 40 of Kayles: CGSuite-style genus from the forms, cross-checked by the search.
    let search = genus_sequence_by_search(&kayles, 40, &Budget::default());
    assert_eq!(seq.entries, search.entries);
}

#[test]
fn a_run_stopped_by_the_budget_keeps_the_heaps_done() {
    let kayles = HeapRule::parse("kayles").unwrap();
    let full = genus_sequence_by_forms(&kayles, 50, &Budget::default());
    assert!(full.stopped.is_none());
    let part = genus_sequence_by_forms(&kayles, 200, &budget(300_000));
    assert!(
        matches!(
            part.stopped,
            Some(MisereError::Budget(BudgetError::Work { limit: 300_000 }))
        ),
        "{:?}",
        part.stopped
    );
    let n = part.entries.len();
    assert!(n > 10 && n < 51, "{n}");
    assert_eq!(part.entries[..], full.entries[..n]);
    // The whole sequence under the same small limit: whichever route reached further, the
    // limit named is the whole one.
    let seq = genus_sequence(&kayles, 200, &budget(600_000));
    assert!(
        matches!(
            seq.stopped,
            Some(MisereError::Budget(BudgetError::Work { limit: 600_000 }))
        ),
        "{:?}",
        seq.stopped
    );
    assert_eq!(seq.entries[..], full.entries[..seq.entries.len()]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random octal codes: the genus read off the forms equals the definition.
    #[test]
    fn forms_match_the_definition_on_random_codes(
        digits in proptest::collection::vec(0u8..8, 0..3),
        last in 1u8..8,
    ) {
        let digits: Vec<u8> = digits.into_iter().chain([last]).collect();
        let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        let n = forms_against_definition(&code, 14, 40_000_000);
        prop_assert!(n >= 10, "{}: only {} heaps compared", code, n);
    }
}

#[test]
fn the_search_goes_on_where_the_forms_stop_with_their_tameness() {
    // A memory limit the canonical forms pass near heap 10, the search does not.
    let kayles = HeapRule::parse("kayles").unwrap();
    let limits = Limits {
        max_bytes: 20_000,
        ..Limits::DEFAULT
    };
    let forms = genus_sequence_by_forms(&kayles, 30, &Budget::new(limits));
    assert!(
        matches!(
            forms.stopped,
            Some(MisereError::Budget(BudgetError::Memory { .. }))
        ),
        "{:?}",
        forms.stopped
    );
    let n = forms.entries.len();
    let seq = genus_sequence(&kayles, 30, &Budget::new(limits));
    assert!(seq.entries.len() > n, "{n} {}", seq.entries.len());
    assert!(
        matches!(seq.route, GenusRoute::Search { .. }),
        "{:?}",
        seq.route
    );
    // The forms' heaps keep the forms' tameness, the rest the raw tree's.
    for (i, e) in seq.entries.iter().enumerate() {
        let basis = if i < n {
            TameBasis::CanonicalForm
        } else {
            TameBasis::RawTree
        };
        assert_eq!(e.tame_basis, basis, "heap {i}");
    }
    assert_eq!(seq.entries[..n], forms.entries[..]);
    let full = genus_sequence_by_search(&kayles, 30, &Budget::default());
    assert!(full.stopped.is_none());
    same_genera(&seq, &full, "kayles");
    assert_eq!(seq.first_wild, Some(5));
}
