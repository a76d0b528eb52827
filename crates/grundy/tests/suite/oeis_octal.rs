//! Octal games against the OEIS: `../data/heap/oeis/octal.txt` holds the first values of
//! 130 entries (every octal game of A071426-A071518 and A125912-A125944, and a few more),
//! copied from the entries with their A-numbers, offsets and the codes their comments say
//! play the same values (at once, or shifted: `X=a(n-k)`). Each is compared with the engine.

use grundy::control::Control;
use grundy::heap::rules::HeapRule;
use grundy::heap::sequence::engine_for;
use std::collections::BTreeSet;
use std::path::Path;

/// One entry: its code and A-number, the offset (the first term is g(offset)), the terms,
/// and the codes said to have g(n) = a(n - k), as (code, k, confirmed).
pub(crate) struct Entry {
    pub(crate) code: String,
    a_number: String,
    offset: u64,
    terms: Vec<u16>,
    pub(crate) equiv: Vec<(String, u64, bool)>,
}

pub(crate) fn entries() -> Vec<Entry> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/heap/oeis/octal.txt");
    let text = std::fs::read_to_string(file).unwrap();
    let mut out: Vec<Entry> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# ") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            if words.len() >= 5 && words[1].starts_with('A') && words[3] == "offset" {
                out.push(Entry {
                    code: words[0].to_string(),
                    a_number: words[1].to_string(),
                    offset: words[4].parse().unwrap(),
                    terms: Vec::new(),
                    equiv: Vec::new(),
                });
            } else if let Some(same) = rest.strip_prefix("same values (named in the OEIS title):") {
                let e = out.last_mut().unwrap();
                for code in same.split_whitespace() {
                    e.equiv.push((code.to_string(), 0, true));
                }
            } else if let Some(claims) = rest.strip_prefix("equiv (") {
                let e = out.last_mut().unwrap();
                let (_, claims) = claims.split_once("):").unwrap();
                for claim in claims.split_whitespace() {
                    let (code, shift) = claim.split_once('=').unwrap();
                    let confirmed = !shift.ends_with("[NOT-CONFIRMED]");
                    let shift = shift.trim_end_matches("[NOT-CONFIRMED]");
                    let k = match shift {
                        "a(n)" => 0,
                        s => s
                            .strip_prefix("a(n-")
                            .and_then(|s| s.strip_suffix(')'))
                            .unwrap_or_else(|| panic!("{claim}"))
                            .parse()
                            .unwrap(),
                    };
                    e.equiv.push((code.to_string(), k, confirmed));
                }
            }
        } else if !line.trim().is_empty() && !line.starts_with('#') {
            let e = out.last_mut().unwrap();
            assert!(e.terms.is_empty(), "{}: two data lines", e.a_number);
            e.terms = line
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
        }
    }
    out
}

/// g(0..count) of `code` by the engine.
pub(crate) fn computed(code: &str, count: u64) -> Vec<u16> {
    let rule = HeapRule::parse(code).unwrap_or_else(|e| panic!("{code}: {e:?}"));
    let mut engine = engine_for(&rule, Vec::new()).unwrap();
    assert!(engine.extend_to_len(count, &mut Control::none()).unwrap());
    engine.values()[..count as usize].to_vec()
}

#[test]
fn octal_games_match_their_oeis_entries() {
    let all = entries();
    assert_eq!(all.len(), 130);
    let mut codes = BTreeSet::new();
    let mut disagreements = Vec::new();
    for e in &all {
        assert!(
            e.terms.len() >= 40,
            "{}: {} terms",
            e.a_number,
            e.terms.len()
        );
        let end = e.offset + e.terms.len() as u64;
        let g = computed(&e.code, end);
        assert_eq!(
            &g[e.offset as usize..],
            &e.terms[..],
            "{} {}",
            e.code,
            e.a_number
        );
        codes.insert(e.code.clone());
        // A code said to have g(n) = a(n - k): from n = offset + k (below, the entry says
        // nothing) to the end of the terms.
        for (code, k, confirmed) in &e.equiv {
            let g = computed(code, end + k);
            let ours = &g[(e.offset + k) as usize..];
            if *confirmed {
                assert_eq!(ours, &e.terms[..], "{code} = {} a(n-{k})", e.a_number);
                codes.insert(code.clone());
            } else {
                disagreements.push((code.clone(), ours != &e.terms[..]));
            }
        }
    }
    // A125941 says 4.367 and 4.377 play as 4.327; they differ from n = 27 (the engine, and
    // the mex computation the data was checked with).
    assert_eq!(
        disagreements,
        [("4.367".to_string(), true), ("4.377".to_string(), true)]
    );
    let three_digit = codes
        .iter()
        .filter(|c| c.starts_with("0.") && c.trim_end_matches('0').len() == 5)
        .count();
    assert_eq!(three_digit, 280, "three-digit codes");
}
