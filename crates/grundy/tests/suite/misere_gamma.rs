//! The misère Grundy values of the proof-pruned search ([`grundy::misere::gamma`]) and the
//! small values read off the quotient ([`grundy::misere::low`]) against the definition.
//!
//! - `misere_grundy` (tests/common): the misère Grundy value of a sum of rule heaps and Nim
//!   heaps by plain recursion (1 with no move, otherwise the mex of the options), written from
//!   the definition.
//! - The genus sequences of the search route against [`genus_sequence_by_definition`] (the
//!   independent reference of the library) on Kayles and random octal codes.

use grundy::control::{Budget, Limits};
use grundy::heap::component::HeapGame;
use grundy::heap::rules::HeapRule;
use grundy::misere::gamma::GammaSearch;
use grundy::misere::low::{Low, LowValues};
use grundy::misere::sequence::{
    genus_sequence, genus_sequence_by_definition, genus_sequence_by_search,
};
use proptest::prelude::*;

use crate::common::misere_grundy;
use misere_grundy::{Memo, misere_grundy};

fn budget(max_work: u64) -> Budget {
    Budget::new(Limits {
        max_work,
        ..Limits::DEFAULT
    })
}

fn code(digits: &[u8]) -> String {
    format!(
        "0.{}",
        digits.iter().map(|d| d.to_string()).collect::<String>()
    )
}

/// `γ(heaps + twos·*2 + ones·*1)` by the search (with and without the quotient) and by the
/// definition, on every sum given.
fn check_sums(rule: &str, sums: &[(Vec<u64>, u32, u32)]) {
    let r = HeapRule::parse(rule).unwrap();
    let game = HeapGame::new(&r);
    let b = Budget::default();
    let top = sums
        .iter()
        .flat_map(|s| s.0.iter())
        .max()
        .copied()
        .unwrap_or(1);
    let low = LowValues::compute(&r, top, &budget(50_000_000), 2000).ok();
    let mut plain = GammaSearch::new(&r, &b);
    let mut with_low = GammaSearch::new(&r, &b);
    if let Some(low) = &low {
        with_low = with_low.with_low(low);
    }
    let mut memo = Memo::new();
    for (heaps, twos, ones) in sums {
        let mut nim = vec![2; *twos as usize];
        nim.extend(std::iter::repeat_n(1, *ones as usize));
        let expected = misere_grundy(&game, heaps.clone(), nim, &mut memo);
        let what = format!("{rule}: {heaps:?} + {twos}·*2 + {ones}·*1");
        assert_eq!(
            plain.gamma(heaps, *twos, *ones).unwrap(),
            expected,
            "{what}"
        );
        assert_eq!(
            with_low.gamma(heaps, *twos, *ones).unwrap(),
            expected,
            "{what}"
        );
        if let Some(low) = &low {
            match low.value(heaps, *twos, *ones) {
                Some(Low::Value(j)) => assert_eq!(j, expected, "{what}"),
                Some(Low::AtLeastThree) => assert!(expected >= 3, "{what}"),
                None => assert!(heaps.iter().any(|&h| h > low.covered()), "{what}"),
            }
        }
    }
}

#[test]
fn kayles_sums_match_the_definition() {
    let mut sums = Vec::new();
    for a in 0..12u64 {
        for b in a..12 {
            for twos in 0..3 {
                for ones in 0..3 {
                    sums.push((vec![a, b], twos, ones));
                }
            }
        }
    }
    sums.push((vec![3, 5, 7, 9], 1, 1));
    sums.push((vec![1, 1, 2, 2, 11], 2, 0));
    check_sums("kayles", &sums);
}

#[test]
fn one_plus_one_is_dropped_soundly() {
    // γ(G + *1 + *1) = γ(G) (the module's proof), checked on small sums of a few codes.
    for rule in ["kayles", "0.07", "0.137", "0.6", "4.07"] {
        let r = HeapRule::parse(rule).unwrap();
        let game = HeapGame::new(&r);
        let mut memo = Memo::new();
        for a in 0..8u64 {
            for b in 0..6u64 {
                for nim in [vec![], vec![2], vec![3], vec![2, 2]] {
                    let mut with = nim.clone();
                    with.extend([1, 1]);
                    let plain = misere_grundy(&game, vec![a, b], nim, &mut memo);
                    let doubled = misere_grundy(&game, vec![a, b], with, &mut memo);
                    assert_eq!(plain, doubled, "{rule} {a} {b}");
                }
            }
        }
    }
}

/// The search route against the definition on every heap both reach; how many compared.
fn same_genera(rule: &str, to: u64, max_work: u64) -> usize {
    let r = HeapRule::parse(rule).unwrap();
    let fast = genus_sequence_by_search(&r, to, &budget(max_work));
    let slow = genus_sequence_by_definition(&r, to, &budget(max_work));
    let n = fast.entries.len().min(slow.entries.len());
    assert_eq!(fast.entries[..n], slow.entries[..n], "{rule}");
    assert_eq!(
        fast.first_wild.filter(|&w| (w as usize) < n),
        slow.first_wild.filter(|&w| (w as usize) < n),
        "{rule}"
    );
    n
}

#[test]
fn kayles_genera_by_search_match_the_definition() {
    assert_eq!(same_genera("kayles", 26, 100_000_000), 27);
}

#[test]
#[ignore = "deep: Kayles to heap 36 by the definition, about a minute in a debug build"]
fn kayles_genera_by_search_match_the_definition_deep() {
    assert_eq!(same_genera("kayles", 36, 2_000_000_000), 37);
    assert_eq!(same_genera("0.137", 36, 2_000_000_000), 37);
    assert_eq!(same_genera("0.07", 36, 2_000_000_000), 37);
}

#[test]
fn all_routes_match_the_definition() {
    // The labelled monoid (to heap 19), the quotient's small values and the search together.
    for rule in ["kayles", "0.137"] {
        let r = HeapRule::parse(rule).unwrap();
        let all = genus_sequence(&r, 28, &budget(250_000_000));
        let slow = genus_sequence_by_definition(&r, 28, &budget(250_000_000));
        assert_eq!(all.entries.len(), 29, "{rule}");
        assert_eq!(all.entries, slow.entries, "{rule}");
    }
}

#[test]
fn published_genus_sequences_by_search() {
    let text = include_str!("../data/misere/genus.txt");
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut f = line.split_whitespace();
        let rule = HeapRule::parse(f.next().unwrap()).unwrap();
        let expected: Vec<&str> = f.collect();
        let seq = genus_sequence_by_search(&rule, expected.len() as u64, &Budget::default());
        assert!(seq.stopped.is_none(), "{line}");
        let got: Vec<String> = seq.entries[1..]
            .iter()
            .map(|e| e.genus.to_string())
            .collect();
        assert_eq!(got, expected, "{line}");
    }
}

#[test]
fn the_search_stops_under_the_budget() {
    let r = HeapRule::parse("kayles").unwrap();
    let seq = genus_sequence_by_search(&r, 200, &budget(2_000_000));
    assert!(seq.stopped.is_some());
    assert!(seq.entries.len() > 10 && seq.entries.len() < 201);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random sums of random two- and three-digit octal codes: the search's values (with and
    /// without the quotient's small values) and the quotient's verdicts equal the definition.
    #[test]
    fn random_sums_match_the_definition(
        digits in proptest::collection::vec(0u8..8, 1..4),
        heaps in proptest::collection::vec(0u64..10, 1..4),
        twos in 0u32..3,
        ones in 0u32..3,
    ) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        check_sums(&code(&digits), &[(heaps, twos, ones)]);
    }

    /// Random codes: the genus sequence by the search equals the definition.
    #[test]
    fn random_codes_genera_match_the_definition(
        digits in proptest::collection::vec(0u8..8, 1..4),
    ) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        same_genera(&code(&digits), 14, 20_000_000);
    }
}
