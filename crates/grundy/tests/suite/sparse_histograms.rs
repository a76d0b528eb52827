//! The sparse-space engine against published value histograms of five unsolved octal games
//! (Marek Rogalski's computations; see tests/data/octal-histograms/README.md for the source
//! and licence). File `<game>/<N>` is the histogram of `g(1..=N)`; a match at `N` is a strong
//! checksum of the whole sequence up to `N`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use grundy::control::Control;
use grundy::heap::code::Code;
use grundy::heap::sparse::SparseSequence;

const GAMES: [&str; 5] = ["0.014", "0.034", "0.161", "0.167", "0.172"];

fn data_dir(game: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/octal-histograms")
        .join(game)
}

/// The published histograms of `game` for `N <= up_to`, by `N`.
fn published(game: &str, up_to: u64) -> BTreeMap<u64, BTreeMap<u16, u64>> {
    let mut all = BTreeMap::new();
    for entry in std::fs::read_dir(data_dir(game)).expect("histogram directory") {
        let path = entry.unwrap().path();
        let n: u64 = path.file_name().unwrap().to_str().unwrap().parse().unwrap();
        if n > up_to {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let hist = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let (v, c) = line.split_once(' ').expect("`nimber count` lines");
                (v.trim().parse().unwrap(), c.trim().parse().unwrap())
            })
            .filter(|&(_, c): &(u16, u64)| c > 0)
            .collect();
        all.insert(n, hist);
    }
    all
}

/// Computes `game` to `up_to` and checks every published histogram on the way.
fn check(game: &str, up_to: u64) {
    let expected = published(game, up_to);
    assert!(
        expected.keys().next_back() == Some(&up_to),
        "no published file {game}/{up_to}"
    );
    let code: Code = game.parse().unwrap();
    let mut seq = SparseSequence::new(&code).unwrap();
    let start = std::time::Instant::now();
    assert!(seq.extend_to(up_to, &mut Control::none()).unwrap());
    eprintln!(
        "{game} to {up_to}: {:?}, {:?}",
        start.elapsed(),
        seq.stats().mask
    );
    let values = seq.values();
    let mut counts: BTreeMap<u16, u64> = BTreeMap::new();
    let mut done = 0u64;
    for (&n, hist) in &expected {
        for &v in &values[done as usize + 1..=n as usize] {
            *counts.entry(v).or_default() += 1;
        }
        done = n;
        assert_eq!(&counts, hist, "{game}: histogram of g(1..={n})");
    }
    // The engine's own histogram agrees with the counts.
    let stats = seq.stats();
    for (v, &c) in stats.histogram.iter().enumerate() {
        assert_eq!(
            counts.get(&(v as u16)).copied().unwrap_or(0),
            c,
            "{game}: value {v}"
        );
    }
}

/// Every published histogram up to 2^20, the five games side by side (one thread each).
#[test]
fn histograms_to_2_pow_20() {
    std::thread::scope(|scope| {
        for game in GAMES {
            scope.spawn(move || check(game, 1 << 20));
        }
    });
}

#[test]
#[ignore = "deep: minutes; run with --release"]
fn histograms_to_2_pow_24() {
    for game in GAMES {
        check(game, 1 << 24);
    }
}

#[test]
#[ignore = "deep: minutes and 512 MB; run with --release"]
fn histograms_of_0_167_to_2_pow_28() {
    check("0.167", 1 << 28);
}
