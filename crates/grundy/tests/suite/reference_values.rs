//! Published values (tests/data, each file naming its source) against the library.

use grundy::analysis::analyze;
use grundy::coins::{CoinGrid, CoinRow, GridRule, LineRule};
use grundy::hackenbush::{Picture, value};
use grundy::{Nimber, Options};

fn data(name: &str) -> Vec<String> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn single_coin_values_of_the_literature() {
    let lines = data("coin-values.txt");
    assert_eq!(lines.len(), 5);
    for line in lines {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap();
        let rule = LineRule::from_name(name).unwrap();
        for (i, expected) in words.enumerate() {
            let coin = rule.first_coin() + i as u64;
            let expected = Nimber(expected.parse().unwrap());
            let row = CoinRow::new(rule.clone(), vec![coin]).unwrap();
            assert_eq!(
                row.value(&grundy::control::Budget::default()).unwrap(),
                expected,
                "{name} coin {coin}"
            );
            // And through the expression language, as a user writes it.
            let a = analyze(&format!("{name} {coin}"), &Options::default()).unwrap();
            assert_eq!(a.value, Some(expected), "{name} {coin}");
        }
    }
}

#[test]
fn turning_corners_is_the_nim_multiplication_table() {
    let rows = data("nim-multiplication.txt");
    assert_eq!(rows.len(), 16);
    for (a, row) in rows.iter().enumerate() {
        let values: Vec<u64> = row.split_whitespace().map(|v| v.parse().unwrap()).collect();
        assert_eq!(values.len(), 16);
        for (b, &v) in values.iter().enumerate() {
            let head = CoinGrid::new(GridRule::CORNERS, vec![(a as u64, b as u64)]).unwrap();
            assert_eq!(
                head.value(&grundy::control::Budget::default()).unwrap(),
                Nimber(v),
                "corners {a},{b}"
            );
            assert_eq!(Nimber(a as u64) * Nimber(b as u64), Nimber(v), "{a} ⊗ {b}");
        }
    }
}

#[test]
fn hackenbush_pictures_of_the_literature() {
    let lines = data("hackenbush.txt");
    assert!(lines.len() >= 10);
    for line in lines {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let expected = Nimber(fields[0].parse().unwrap());
        let a = analyze(&format!("hackenbush {}", fields[1]), &Options::default()).unwrap();
        assert_eq!(a.value, Some(expected), "{line}");
        let edges = fields[1]
            .split_whitespace()
            .map(|e| {
                let (u, v) = e.split_once('-').unwrap();
                (u.parse().unwrap(), v.parse().unwrap())
            })
            .collect();
        assert_eq!(value(&Picture::new(edges)), expected, "{line}");
    }
}
