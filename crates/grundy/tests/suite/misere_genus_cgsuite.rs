//! The genus sequence against CGSuite (tests/data/misere/genus_cgsuite.txt, source there):
//! Kayles, Dawson's chess, Treblecross, Officers to heap 25 and Grundy's game to heap 19, the
//! normal value and eight exponents of every heap, its tameness (read off the misère
//! canonical form, as CGSuite's IsTame) and where each game stops being tame; by all routes
//! in turn and read off the canonical forms alone.

use grundy::control::Budget;
use grundy::heap::rules::HeapRule;
use grundy::misere::sequence::{GenusSequence, TameBasis, genus_sequence, genus_sequence_by_forms};
use std::collections::BTreeMap;

/// One heap of the reference: its normal value, exponents g0..g7 and CGSuite's tameness.
struct Row {
    heap: u64,
    value: u64,
    exponents: Vec<u64>,
    tame: bool,
}

fn reference() -> BTreeMap<String, Vec<Row>> {
    let text = include_str!("../data/misere/genus_cgsuite.txt");
    let mut rules: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 5, "{line}");
        let row = Row {
            heap: f[1].parse().unwrap(),
            value: f[2].parse().unwrap(),
            exponents: f[3].bytes().map(|b| u64::from(b - b'0')).collect(),
            tame: match f[4] {
                "tame" => true,
                "wild" => false,
                other => panic!("{other}"),
            },
        };
        rules.entry(f[0].to_string()).or_default().push(row);
    }
    rules
}

type Route = fn(&HeapRule, u64, &Budget) -> GenusSequence;

/// Checks every rule of the reference on the heaps up to `max_heap`, by `route`.
fn agree_with_cgsuite(max_heap: u64, route: Route) {
    let reference = reference();
    assert_eq!(reference.len(), 5);
    for (rule, rows) in &reference {
        let rows: Vec<&Row> = rows.iter().filter(|r| r.heap <= max_heap).collect();
        let to = rows.last().unwrap().heap;
        let seq = route(&HeapRule::parse(rule).unwrap(), to, &Budget::default());
        assert!(seq.stopped.is_none(), "{rule}: {:?}", seq.stopped);
        for row in &rows {
            let entry = &seq.entries[row.heap as usize];
            assert_eq!(entry.heap, row.heap);
            let g = &entry.genus;
            assert_eq!(g.value, row.value, "{rule} heap {}: {g}", row.heap);
            let ours: Vec<u64> = (0..row.exponents.len()).map(|k| g.exponent(k)).collect();
            assert_eq!(ours, row.exponents, "{rule} heap {}: {g}", row.heap);
            // Read off the misère canonical form, as CGSuite does: the same verdict, both
            // ways, on every row (the forms of these heaps are well within the budget).
            assert_eq!(
                entry.tame_basis,
                TameBasis::CanonicalForm,
                "{rule} heap {}",
                row.heap
            );
            assert_eq!(entry.tame, row.tame, "{rule} heap {}: {g}", row.heap);
        }
        // Both stop being tame at the same heap.
        let first_wild = rows.iter().find(|r| !r.tame).map(|r| r.heap);
        assert_eq!(seq.first_wild, first_wild, "{rule}");
    }
}

#[test]
fn genus_sequences_agree_with_cgsuite_to_heap_18() {
    agree_with_cgsuite(18, genus_sequence);
}

/// Every heap of the reference, read off the canonical forms alone.
#[test]
fn genus_read_off_the_forms_agrees_with_cgsuite() {
    agree_with_cgsuite(u64::MAX, genus_sequence_by_forms);
}

/// Every heap of the reference (about 10 s in a release build).
#[test]
#[ignore = "deep tier"]
fn genus_sequences_agree_with_cgsuite() {
    agree_with_cgsuite(u64::MAX, genus_sequence);
}
