//! Grundy's game (`4!.0`: split a heap into two unequal heaps) on the sparse-space engine,
//! against Flammenkamp's published rare values and against the plain engine.
//!
//! A value is *rare* when `popcount(G(n) & !1)` is even (Flammenkamp's mask `...11110`):
//! 1287 rare positions are known in all, 1274 of them below `2^17`.

use grundy::control::Control;
use grundy::heap::plain::PlainSequence;
use grundy::heap::rules::HeapRule;
use grundy::heap::sequence::engine_for;

fn is_rare(v: u16) -> bool {
    (v & !1).count_ones() % 2 == 0
}

fn grundy() -> HeapRule {
    HeapRule::parse("grundys-game").unwrap()
}

fn engine_values(len: u64) -> Vec<u16> {
    let mut engine = engine_for(&grundy(), Vec::new()).unwrap();
    assert_eq!(engine.name(), "sparse");
    assert!(engine.extend_to_len(len, &mut Control::none()).unwrap());
    engine.into_values()
}

fn plain_values(len: u64) -> Vec<u16> {
    let mut plain = PlainSequence::new(&grundy());
    assert!(plain.extend_to_len(len, &mut Control::none()).unwrap());
    plain.into_values()
}

/// `(n, G(n))` of the published file.
fn published() -> Vec<(usize, u16)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/grundys-game-rare-values.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("source: http://wwwhomes.uni-bielefeld.de/achim/grundy.html"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (n, v) = l.split_once(' ').unwrap();
            (n.parse().unwrap(), v.trim().parse().unwrap())
        })
        .collect()
}

#[test]
fn the_published_rare_values_to_231() {
    let expected = published();
    assert_eq!(expected.len(), 48);
    // Far enough that the engine works by sparse space, not in full.
    let values = engine_values(1 << 14);
    let rare: Vec<(usize, u16)> = values[..=231]
        .iter()
        .enumerate()
        .filter(|&(_, &v)| is_rare(v))
        .map(|(n, &v)| (n, v))
        .collect();
    assert_eq!(rare, expected);
}

#[test]
fn the_sparse_engine_matches_the_plain_one() {
    let n = 1 << 13;
    assert_eq!(engine_values(n), plain_values(n));
}

/// The deep tier: `2^17` values both ways (some seconds on the plain engine), and the 1274
/// rare positions below `2^17` that Flammenkamp's page counts.
#[test]
#[ignore]
fn the_sparse_engine_matches_the_plain_one_to_2_17() {
    let n = 1 << 17;
    let values = engine_values(n);
    assert_eq!(values, plain_values(n));
    assert_eq!(values.iter().filter(|&&v| is_rare(v)).count(), 1274);
}

/// The deepest tier (minutes of CPU): every rare value to 48,400,000 on the sparse engine
/// against tests/data/grundys-game-far-rare-values.txt (13 values past `2^17`, found by our
/// own deep run; with the 1274 below `2^17` they make the 1287 Flammenkamp's page counts).
#[test]
#[ignore]
fn the_far_rare_values_to_48_4_million() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/grundys-game-far-rare-values.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let expected: Vec<(usize, u16)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (n, v) = l.split_once(' ').unwrap();
            (n.parse().unwrap(), v.trim().parse().unwrap())
        })
        .collect();
    assert_eq!(expected.len(), 13);
    let values = engine_values(48_400_000);
    let rare: Vec<(usize, u16)> = values
        .iter()
        .enumerate()
        .filter(|&(_, &v)| is_rare(v))
        .map(|(n, &v)| (n, v))
        .collect();
    assert_eq!(rare.len(), 1287);
    let far: Vec<(usize, u16)> = rare.into_iter().filter(|&(n, _)| n >= 1 << 17).collect();
    assert_eq!(far, expected);
}

/// The engine's statistics: its count of rare positions leaves out heap 0 (so Flammenkamp's
/// 1,287 is its 1,286 plus one), and its list of the last rare heaps is the last ones by the
/// definition, with their values.
#[test]
fn the_engine_counts_and_lists_the_rare_heaps() {
    let len = 1 << 14;
    let mut engine = engine_for(&grundy(), Vec::new()).unwrap();
    assert!(engine.extend_to_len(len, &mut Control::none()).unwrap());
    let stats = engine.sparse_stats().unwrap();
    // The engine's own mask: 0b1111110 at this length, which classes the values past 127
    // otherwise than Flammenkamp's `...11110` does (his count is reached at `2^17`).
    let mask = stats.mask.expect("sparse space");
    let rare: Vec<(u64, u16)> = (engine.values().iter().enumerate())
        .filter(|&(_, &v)| (v & mask).count_ones() % 2 == 0)
        .map(|(n, &v)| (n as u64, v))
        .collect();
    assert_eq!(rare[0], (0, 0));
    assert_eq!(stats.rare_positions + 1, rare.len() as u64);
    let last = &rare[rare.len() - grundy::heap::sparse::LAST_RARE..];
    assert_eq!(stats.last_rare, last);
}
