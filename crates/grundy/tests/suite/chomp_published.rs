//! Chomp against published P-positions (tests/data/boards/chomp-p-positions.txt, sources in
//! the file): three-rowed Chomp with a third row of up to 5 squares (Brouwer), and the first
//! P-positions of four-rowed Chomp (OEIS A395126). Every position in the range a line covers
//! is checked both ways: a listed position has value 0, an unlisted one a value above 0.

use grundy::catalog::parse;
use grundy::sum::Context;

const DATA: &str = include_str!("../data/boards/chomp-p-positions.txt");

/// The value of Chomp on rows of the given lengths (top row first; zero rows dropped).
fn chomp(rows: &[u64]) -> u64 {
    let rows: Vec<String> = rows
        .iter()
        .filter(|&&r| r > 0)
        .map(u64::to_string)
        .collect();
    let expr = format!("chomp {}", rows.join(","));
    let sum = parse(&expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
    assert_eq!(sum.components.len(), 1, "{expr}");
    sum.components[0]
        .value(&Context::default())
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .0
}

fn numbers(text: &str) -> Vec<u64> {
    text.split(',')
        .map(|n| {
            n.trim()
                .parse()
                .unwrap_or_else(|_| panic!("bad number in {text:?}"))
        })
        .collect()
}

/// Whether `(p, q)` is listed for third row `r` by the line's entries.
fn listed(entries: &[&str], p: u64, q: u64) -> bool {
    entries.iter().any(|e| {
        if let Some(k) = e.strip_prefix("p=q+") {
            p == q + k.parse::<u64>().unwrap()
        } else if let Some((x, y)) = e.split_once(',').filter(|_| e.starts_with("a+")) {
            let x: u64 = x.trim_start_matches("a+").parse().unwrap();
            let y: u64 = y.trim_start_matches("a+").parse().unwrap();
            p >= x && q >= y && p - x == q - y
        } else {
            numbers(e) == [p, q]
        }
    })
}

#[test]
fn three_rowed_chomp_p_positions_are_brouwers() {
    let mut lines = 0;
    for line in DATA.lines().filter(|l| l.starts_with("r3 ")) {
        let (r, entries) = line["r3 ".len()..].split_once(':').expect("r3 R: ...");
        let r: u64 = r.trim().parse().unwrap();
        let entries: Vec<&str> = entries.split_whitespace().collect();
        let mut p_positions = 0;
        for p in r.max(1)..=22 {
            for q in r..=p {
                let v = chomp(&[p, q, r]);
                assert_eq!(
                    v == 0,
                    listed(&entries, p, q),
                    "chomp {p},{q},{r} has value {v}"
                );
                p_positions += usize::from(v == 0);
            }
        }
        assert!(p_positions >= 2, "r = {r}: the check saw P-positions");
        lines += 1;
    }
    assert_eq!(lines, 6, "third rows 0..=5 are in the file");
}

#[test]
fn four_rowed_chomp_first_p_positions_are_oeis_a395126() {
    let line = DATA
        .lines()
        .find_map(|l| l.strip_prefix("r4 first:"))
        .expect("the r4 line");
    let listed: Vec<Vec<u64>> = line.split_whitespace().map(numbers).collect();
    assert_eq!(listed.len(), 10);
    let last = listed.last().unwrap()[..3].to_vec();
    // Every (a, b, c, d) with a >= b >= c >= d, a >= 1, and (a, b, c) up to the last listed.
    let mut found = Vec::new();
    for a in 1..=last[0] {
        for b in 0..=a {
            for c in 0..=b {
                if [a, b, c] > [last[0], last[1], last[2]] {
                    continue;
                }
                for d in 0..=c {
                    if chomp(&[a, b, c, d]) == 0 {
                        found.push(vec![a, b, c, d]);
                    }
                }
            }
        }
    }
    assert_eq!(found, listed);
}
