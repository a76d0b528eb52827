//! Every fast path against the generic engine, through whole analyses: value, outcome and the
//! exact list of winning moves must agree.

use grundy::analysis::{Analysis, analyze};
use grundy::sum::{Context, Engine};
use grundy::{Options, Outcome};
use proptest::prelude::*;

fn run(expr: &str, engine: Engine, misere: bool) -> Analysis {
    let options = Options {
        moves: Default::default(),
        misere,
        context: Context {
            engine,
            ..Context::default()
        },
    };
    analyze(expr, &options).unwrap_or_else(|e| panic!("{expr}: {e}"))
}

fn agree(expr: &str, misere: bool) -> Result<(), TestCaseError> {
    let fast = run(expr, Engine::Fast, misere);
    let generic = run(expr, Engine::Generic, misere);
    prop_assert_eq!(fast.value, generic.value, "value of {}", expr);
    prop_assert_eq!(fast.outcome, generic.outcome, "outcome of {}", expr);
    prop_assert_eq!(
        &fast.winning_moves,
        &generic.winning_moves,
        "winning moves of {}",
        expr
    );
    // Each winning move leads to a P-position, and a P-position has none.
    for m in &fast.winning_moves {
        prop_assert_eq!(
            run(&m.result, Engine::Fast, misere).outcome,
            Outcome::P,
            "after {}",
            m.description
        );
    }
    // A P-position has no winning move; an N-position has one, except a misère position
    // with no move at all (the opponent made the last move and lost).
    let finished = misere && fast.components.iter().all(|c| c.expression.ends_with(" 0"));
    prop_assert_eq!(
        fast.outcome == Outcome::N,
        !fast.winning_moves.is_empty() || finished
    );
    Ok(())
}

fn heaps(max: u64, len: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    proptest::collection::vec(0..max, len)
        .prop_map(|v| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" "))
}

/// A random term of this issue's games, small enough for the generic engine.
fn term() -> impl Strategy<Value = String> {
    prop_oneof![
        heaps(12, 1..4).prop_map(|h| format!("nim {h}")),
        heaps(4, 1..5).prop_map(|h| format!("staircase {h}")),
        (1u64..4, heaps(5, 1..4)).prop_map(|(k, h)| format!("moore({k}) {h}")),
        (0u64..9, 0u64..9).prop_map(|(x, y)| format!("wythoff {x} {y}")),
    ]
}

fn sum() -> impl Strategy<Value = String> {
    proptest::collection::vec(term(), 1..4).prop_map(|t| t.join(" + "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn normal_play_fast_paths_match_the_generic_engine(expr in sum()) {
        agree(&expr, false)?;
    }

    #[test]
    fn misere_nim_rule_matches_the_misere_search(h in heaps(7, 1..5)) {
        agree(&format!("nim {h}"), true)?;
    }

    #[test]
    fn expressions_print_back_to_themselves(expr in sum()) {
        let once = grundy::catalog::parse(&expr).unwrap().to_string();
        let twice = grundy::catalog::parse(&once).unwrap().to_string();
        prop_assert_eq!(&once, &twice);
        prop_assert_eq!(run(&expr, Engine::Fast, false), run(&once, Engine::Fast, false));
    }
}

#[test]
fn the_issue_example() {
    let a = run("nim 13 12 8", Engine::Fast, false);
    assert_eq!(a.value.map(|v| v.0), Some(9));
    assert_eq!(a.outcome, Outcome::N);
    let moves: Vec<(&str, &str)> = a
        .winning_moves
        .iter()
        .map(|m| (m.description.as_str(), m.result.as_str()))
        .collect();
    assert_eq!(
        moves,
        [
            ("13 -> 4", "nim 4 12 8"),
            ("12 -> 5", "nim 13 5 8"),
            ("8 -> 1", "nim 13 12 1")
        ]
    );
}

#[test]
fn misere_nim_endgames() {
    // Three single tokens: the player to move takes one and leaves two, then loses? No: with
    // an odd number of 1-heaps the player to move loses in misère play.
    assert_eq!(run("nim 1 1 1", Engine::Fast, true).outcome, Outcome::P);
    let a = run("nim 1 1", Engine::Fast, true);
    assert_eq!(a.outcome, Outcome::N);
    assert_eq!(a.winning_moves.len(), 2);
    // One big heap: leave an odd number of 1-heaps.
    let a = run("nim 5 1", Engine::Fast, true);
    let results: Vec<&str> = a.winning_moves.iter().map(|m| m.result.as_str()).collect();
    assert_eq!(results, ["nim 0 1"]);
    assert_eq!(run("nim 0", Engine::Fast, true).outcome, Outcome::N);
}

#[test]
fn misere_of_other_games_is_searched() {
    // Staircase 1 1: moves lead to (0 1)... searched whole.
    let a = run("staircase 1 1 + wythoff 1 2", Engine::Fast, true);
    assert_eq!(a.value, None);
    let again = run("staircase 1 1 + wythoff 1 2", Engine::Generic, true);
    assert_eq!(a.outcome, again.outcome);
}

#[test]
fn closed_form_outcomes_for_positions_too_big_for_values() {
    // (⌊kφ⌋, ⌊kφ²⌋) for k = 10^12 is a P-position, so its value is 0, though the values
    // of the positions around it are out of reach.
    let a = run("wythoff 1618033988749 2618033988749", Engine::Fast, false);
    assert_eq!(a.value, Some(grundy::Nimber(0)));
    assert_eq!(a.outcome, Outcome::P);
    let a = run("wythoff 1618033988749 2618033988750", Engine::Fast, false);
    assert_eq!(a.outcome, Outcome::N);
    assert!(
        a.winning_moves
            .iter()
            .all(|m| run(&m.result, Engine::Fast, false).outcome == Outcome::P)
    );
    // Moore's theorem: 1 2 3 in Nim_2 has bit columns (2 ones, 2 ones): not multiples of 3.
    assert_eq!(
        run("moore(2) 1 2 3", Engine::Fast, false).outcome,
        Outcome::N
    );
    let big = run("moore(2) 1000000 1000000 1000000", Engine::Fast, false);
    assert_eq!(big.outcome, Outcome::P);
    assert_eq!(big.value, Some(grundy::Nimber(0)));
    let big = run("moore(2) 1000000 1000000 1000001", Engine::Fast, false);
    assert_eq!(big.outcome, Outcome::N);
    assert_eq!(big.value, None);
}

#[test]
fn positions_too_big_are_refused_with_the_limit() {
    let opts = Options::default();
    let e = analyze("wythoff 1000000 5 + nim 1", &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("8000"), "{e}");
    let e = analyze("moore(2) 100000 100000 100001 + nim 1", &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("limit"), "{e}");
    let e = analyze(
        "nim 3 5 + staircase 4",
        &Options {
            moves: Default::default(),
            misere: true,
            context: Context::new(
                Engine::Fast,
                grundy::control::Limits {
                    max_positions: 5,
                    ..Default::default()
                },
            ),
        },
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("5 stored positions"), "{e}");
}

/// The positions the winning moves lead to, each once, in order.
fn winning_results(a: &Analysis) -> Vec<String> {
    let mut r: Vec<String> = a.winning_moves.iter().map(|m| m.result.clone()).collect();
    r.sort();
    r.dedup();
    r
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Misère Kayles with a row beyond the quotient's heaps goes through the proven
    /// Sibert–Conway decomposition (`misere::kayles`); the misère search of the generic
    /// engine agrees on the outcome and on the positions the winning moves reach.
    #[test]
    fn misere_kayles_decomposition_matches_the_misere_search(
        big in 33u64..37,
        small in proptest::collection::vec(0u64..6, 0..3),
    ) {
        let rows: Vec<String> = std::iter::once(big).chain(small).map(|r| r.to_string()).collect();
        let expr = format!("kayles {}", rows.join(" "));
        let fast = run(&expr, Engine::Fast, true);
        prop_assert!(
            fast.explanation[0].contains("Sibert–Conway"),
            "{}: {:?}", expr, fast.explanation
        );
        let generic = run(&expr, Engine::Generic, true);
        prop_assert_eq!(fast.outcome, generic.outcome, "outcome of {}", expr);
        prop_assert_eq!(winning_results(&fast), winning_results(&generic), "winning moves of {}", expr);
    }
}
