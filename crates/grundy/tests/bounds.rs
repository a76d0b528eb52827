//! The u64 edge and the budget: every rule of the catalogue, with arguments at and near
//! 2^64 − 1, in normal and misère play and with both engines, under a small budget, answers
//! or refuses cleanly (never a panic, an abort or a wrapped value); on small arguments the
//! fast engine (closed forms, tables) agrees with the generic engine (the definition). And
//! each command of issue 10 answers or refuses under a modest budget.

use grundy::analysis::{Analysis, AnalyzeError, Options, analyze};
use grundy::catalog;
use grundy::control::Limits;
use grundy::sum::{Context, Engine};
use grundy::value::Outcome;
use proptest::prelude::*;

/// A budget small enough that every analysis here ends in milliseconds.
const SMALL: Limits = Limits {
    max_positions: 20_000,
    max_work: 400_000,
    max_bytes: 64 << 20,
};

/// The numbers at the edges: 0, 1, small, 2^32 ± 1, 2^63, 2^64 − 2, 2^64 − 1.
const EDGES: [u64; 8] = [
    0,
    1,
    7,
    (1 << 32) - 1,
    (1 << 32) + 1,
    1 << 63,
    u64::MAX - 1,
    u64::MAX,
];

/// An expression of `rule` with these arguments (three numbers, used as the rule needs).
/// Every rule of the catalogue must have one: a new rule fails
/// [`every_rule_of_the_catalogue_is_covered`] until it is added here.
fn term(rule: &str, a: u64, b: u64, c: u64) -> Option<String> {
    Some(match rule {
        "nim" | "staircase" | "kayles" | "dawson-kayles" | "dawson" | "grundys-game" | "lasker"
        | "half" | "even-if-not-all" | "turning-turtles" | "twins" | "mock-turtles" | "ruler"
        | "moebius" | "mogul" => format!("{rule} {a} {b}"),
        "moore" => format!("moore({a}) {b} {c}"),
        "wythoff" => format!("wythoff {a} {b}"),
        "0.137" => format!("0.137 {a}"),
        "sub" => format!("sub({a},{b}) {c}"),
        "bash" => format!("bash({a}) {b}"),
        "allbut" => format!("allbut({a}) {b}"),
        "hackenbush" => format!("hackenbush 0-{a} {a}-{b} {b}-{c}"),
        "turn" => format!("turn({a}) {b} {c}"),
        "coin-sub" => format!("coin-sub({a}) {b}"),
        "corners" | "rugs" | "acrostic-twins" => format!("{rule} {a},{b} {c},{a}"),
        "product" => format!("product(ruler,mock-turtles) {a},{b}"),
        "cram" | "chomp" => format!("{rule} {a}x{b}"),
        "node-kayles" | "arc-kayles" => format!("{rule} {a}-{b} {b}-{c}"),
        _ => return None,
    })
}

fn rule_names() -> Vec<&'static str> {
    catalog::rules().map(|r| r.name).collect()
}

fn run(text: &str, misere: bool, engine: Engine, limits: Limits) -> Result<Analysis, AnalyzeError> {
    analyze(
        text,
        &Options {
            misere,
            context: Context::new(engine, limits),
        },
    )
}

#[test]
fn every_rule_of_the_catalogue_is_covered() {
    for name in rule_names() {
        assert!(
            term(name, 1, 2, 3).is_some(),
            "no test term for rule `{name}`"
        );
    }
}

/// Every rule with all its numbers at 2^64 − 1, then at 2^64 − 2: an answer or an error,
/// in both plays and with both engines.
#[test]
fn every_rule_at_the_top_of_u64() {
    for name in rule_names() {
        for top in [u64::MAX, u64::MAX - 1] {
            let text = term(name, top, top, top).expect("covered");
            for misere in [false, true] {
                for engine in [Engine::Fast, Engine::Generic] {
                    let t = std::time::Instant::now();
                    let _ = run(&text, misere, engine, SMALL);
                    if std::env::var("BOUNDS_TIMES").is_ok() {
                        eprintln!("{:?} {text} {misere} {engine:?}", t.elapsed());
                    }
                }
            }
        }
    }
}

fn edge_value() -> impl Strategy<Value = u64> {
    prop_oneof![
        prop::sample::select(EDGES.to_vec()),
        0u64..12,
        (1u64 << 32) - 3..(1u64 << 32) + 3,
        u64::MAX - 3..=u64::MAX,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Random rules, random edge arguments, both plays, both engines: never a panic.
    #[test]
    fn edge_arguments_answer_or_refuse(
        rule in 0usize..64,
        a in edge_value(),
        b in edge_value(),
        c in edge_value(),
        misere in any::<bool>(),
        generic in any::<bool>(),
    ) {
        let names = rule_names();
        let text = term(names[rule % names.len()], a, b, c).expect("covered");
        let engine = if generic { Engine::Generic } else { Engine::Fast };
        if std::env::var("BOUNDS_TIMES").is_ok() {
            eprintln!("{text} {misere} {engine:?}");
        }
        let _ = run(&text, misere, engine, SMALL);
    }

    /// Small arguments: where both engines answer, the fast one (closed forms, periods,
    /// tables) agrees with the generic one (the definition), in value and outcome, normal
    /// and misère.
    #[test]
    fn closed_forms_match_the_definition_on_small_arguments(
        rule in 0usize..64,
        a in 0u64..9,
        b in 0u64..9,
        c in 0u64..9,
        misere in any::<bool>(),
    ) {
        let names = rule_names();
        let text = term(names[rule % names.len()], a, b, c).expect("covered");
        let limits = Limits { max_work: 1_000_000, ..SMALL };
        let fast = run(&text, misere, Engine::Fast, limits);
        let generic = run(&text, misere, Engine::Generic, limits);
        if let (Ok(f), Ok(g)) = (&fast, &generic) {
            prop_assert_eq!(f.outcome, g.outcome, "{}", text);
            if let (Some(fv), Some(gv)) = (f.value, g.value) {
                prop_assert_eq!(fv, gv, "{}", text);
            }
        }
    }
}

/// The commands of issue 10 (panics, aborts, unbounded silence): each answers or refuses
/// under a modest budget, quickly, and the closed forms answer what they can.
#[test]
fn the_commands_of_issue_10_answer_or_refuse() {
    let modest = Limits {
        max_positions: 200_000,
        max_work: 5_000_000,
        max_bytes: 256 << 20,
    };
    let cases: &[(&str, bool, Engine)] = &[
        ("lasker 18446744073709551615", false, Engine::Fast),
        (
            "moore(18446744073709551615) 100000 100000 100000",
            false,
            Engine::Fast,
        ),
        ("nim 18446744073709551615", false, Engine::Generic),
        ("rugs 32768,9", false, Engine::Fast),
        ("kayles 18446744073709551615", false, Engine::Generic),
        ("nim 10000000000", false, Engine::Generic),
        ("turn(8) 6 9 36", false, Engine::Generic),
        (
            "rugs 18446744073709551615,18446744073709551615",
            false,
            Engine::Fast,
        ),
        ("moore(3) 15 4 7 15 4", false, Engine::Fast),
        ("moore(2) 30 50 70", false, Engine::Fast),
        ("moore(10) 1023 6", false, Engine::Fast),
        ("wythoff 3000 3000", true, Engine::Fast),
        ("wythoff 4000 4000", false, Engine::Generic),
        ("mock-turtles 100000 200000", false, Engine::Generic),
        ("corners 3000,3000 1,1", false, Engine::Generic),
        (
            "corners 18446744073709551615,18446744073709551615",
            false,
            Engine::Fast,
        ),
    ];
    for &(text, misere, engine) in cases {
        let _ = run(text, misere, engine, modest);
    }
}

#[test]
fn lasker_at_the_top_is_n_and_its_value_is_not_wrapped() {
    let a = run("lasker 18446744073709551615", false, Engine::Fast, SMALL).unwrap();
    assert_eq!(a.outcome, Outcome::N);
    assert_eq!(a.value, None);
    assert!(
        a.explanation.iter().any(|l| l.contains("2^64")),
        "{:?}",
        a.explanation
    );
    let moves: Vec<&str> = a.winning_moves.iter().map(|m| m.result.as_str()).collect();
    assert_eq!(moves, ["0"]);
    // Beside a Nim heap the value is still missing, and nothing is made up.
    assert!(
        run(
            "lasker 18446744073709551615 + nim 3",
            false,
            Engine::Fast,
            SMALL
        )
        .is_err()
    );
    // The heap below has value 2^64 − 2 (4k + 2 is its own value).
    let b = run("lasker 18446744073709551614", false, Engine::Fast, SMALL).unwrap();
    assert_eq!(b.value.map(|v| v.0), Some(u64::MAX - 1));
}

#[test]
fn moores_theorem_answers_first() {
    // k + 1 does not fit in 64 bits: three heaps of equal size, fewer than k + 1 ones in a
    // column, is an N-position; the whole lot can be taken at once.
    let a = run(
        "moore(18446744073709551615) 100000 100000 100000",
        false,
        Engine::Fast,
        SMALL,
    )
    .unwrap();
    assert_eq!(a.outcome, Outcome::N);
    assert_eq!(a.winning_moves.len(), 1);
    // A P-position by the theorem has value 0 without a search, however large, and so
    // answers inside a sum.
    let p = run(
        "moore(2) 1000000 1000000 1000000 + nim 5",
        false,
        Engine::Fast,
        SMALL,
    )
    .unwrap();
    assert_eq!(p.value.map(|v| v.0), Some(5));
    assert!(p.explanation.iter().any(|l| l.contains("Moore's theorem")));
    // A large N-position: the outcome and a winning move, with no value.
    let n = run("moore(3) 15 4 7 15 4", false, Engine::Fast, SMALL).unwrap();
    assert_eq!(n.outcome, Outcome::N);
    assert_eq!(n.value, None);
    assert!(!n.winning_moves.is_empty());
    // Beside components worth 0 in all, it still answers.
    let s = run("moore(3) 15 4 7 15 4 + nim 6 6", false, Engine::Fast, SMALL).unwrap();
    assert_eq!(s.outcome, Outcome::N);
    assert_eq!(s.winning_moves.len(), n.winning_moves.len());
}

#[test]
fn huge_coins_keep_their_values_and_refuse_long_move_lists() {
    // Ruler of 2^64 − 1 is 1, and 1 ⊗ 1 = 1.
    let a = run(
        "rugs 18446744073709551615,18446744073709551615",
        false,
        Engine::Fast,
        SMALL,
    )
    .unwrap();
    assert_eq!(a.value.map(|v| v.0), Some(1));
    assert!(a.explanation.iter().any(|l| l.contains("not listed")));
    let c = run(
        "corners 18446744073709551615,18446744073709551615",
        false,
        Engine::Fast,
        SMALL,
    )
    .unwrap();
    assert_eq!(c.outcome, Outcome::N);
}

#[test]
fn generic_refusals_come_before_listing_and_name_the_limit() {
    for text in [
        "nim 18446744073709551615",
        "nim 10000000000",
        "kayles 18446744073709551615",
        "mock-turtles 100000 200000",
    ] {
        let e = run(text, false, Engine::Generic, Limits::DEFAULT).unwrap_err();
        assert!(e.to_string().contains("work limit"), "{text}: {e}");
    }
}

/// A term longer than 65,535 characters is no format width.
#[test]
fn long_terms_do_not_break_the_explanation() {
    let set: Vec<String> = (1..=20_000).map(|s| s.to_string()).collect();
    let text = format!("sub({}) 1000", set.join(","));
    let a = run(&text, false, Engine::Fast, Limits::DEFAULT).unwrap();
    assert!(a.explanation[0].len() > 65_535);
    // One edge on the ground and 7,000 fallen ones: a 90,000-character term.
    let edges: Vec<String> = (0..7_000)
        .map(|i| format!("{}-{}", 2 * i + 10, 2 * i + 11))
        .collect();
    let picture = format!("hackenbush 0-1 {}", edges.join(" "));
    let a = run(&picture, false, Engine::Fast, Limits::DEFAULT).unwrap();
    assert_eq!(a.value.map(|v| v.0), Some(1));
    assert_eq!(a.winning_moves.len(), 1);
}
