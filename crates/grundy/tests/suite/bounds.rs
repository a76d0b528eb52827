//! The u64 edge and the budget: every rule of the catalogue, with arguments at and near
//! 2^64 − 1, in normal and misère play and with both engines, under a small budget, answers
//! or refuses cleanly (never a panic, an abort or a wrapped value); on small arguments the
//! fast engine (closed forms, tables) agrees with the generic engine (the definition). And
//! each command of issue 10 answers or refuses under a modest budget.

use grundy::analysis::teach::{self, Note};
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
    max_threads: 1,
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

/// The other shapes of the board rules with these numbers: Chomp by row lengths (an L, a
/// staircase) and turned, Cram turned and on pictures, Node Kayles on a board (and turned) and
/// on lone vertices, Arc Kayles on a lone vertex.
fn more_shapes(rule: &str, a: u64, b: u64, c: u64) -> Vec<String> {
    let (hi, lo) = (a.max(b), a.min(b));
    match rule {
        "chomp" => vec![
            format!("chomp {hi},{lo}"),
            format!("chomp {hi},1"),
            format!("chomp {hi},{lo},1"),
            format!("chomp {b}x{a}"),
            format!("chomp 1x{c}"),
        ],
        "cram" => vec![
            format!("cram {b}x{a}"),
            format!("cram 1x{c}"),
            "cram ..#./..../#...".to_owned(),
            // A long picture with three free cells: two moves, each leaving 20,000 cells.
            format!("cram ...{}", "#".repeat(20_000)),
        ],
        "node-kayles" => vec![
            format!("node-kayles {a}x{b}"),
            format!("node-kayles {b}x{a}"),
            format!("node-kayles {a} {b}"),
            "node-kayles ..#./..../#...".to_owned(),
        ],
        "arc-kayles" => vec![format!("arc-kayles {a}"), format!("arc-kayles {a}-{b}")],
        _ => Vec::new(),
    }
}

/// Every way this test writes `rule` with these numbers.
fn shapes(rule: &str, a: u64, b: u64, c: u64) -> Vec<String> {
    let mut all = vec![term(rule, a, b, c).expect("covered")];
    all.extend(more_shapes(rule, a, b, c));
    all
}

/// Bytes of text in lines.
fn size(lines: &[String]) -> usize {
    lines.iter().map(String::len).sum()
}

/// The most text the teaching notes of any position may take: a mex table of
/// [`teach::MAX_TABLE_ROWS`] rows, each with two texts of [`teach::MAX_NOTE_TEXT`] bytes.
const MAX_NOTES_SIZE: usize = 1 << 20;

/// An analysis with everything it lists after the answer (explanation, winning moves, notes),
/// then the notes alone (whether or not the analysis answered): an answer or an error, never
/// a panic or an abort, and text of a bounded size.
fn run_and_list(text: &str, misere: bool, engine: Engine, limits: Limits) {
    if let Ok(a) = run(text, misere, engine, limits) {
        let notes = a.note_lines();
        assert!(
            size(&notes) <= MAX_NOTES_SIZE,
            "{text}: {} bytes of notes",
            size(&notes)
        );
        // The explanation names each component and the moves of each: the size of the input,
        // times the few lines each component has, plus the capped lists.
        let limit = 16 * text.len() + MAX_NOTES_SIZE;
        assert!(
            size(&a.explanation) <= limit,
            "{text}: {} bytes",
            size(&a.explanation)
        );
    }
    if let Ok(sum) = catalog::parse(text) {
        let ctx = Context::new(engine, limits);
        let notes = teach::notes(&sum, &ctx);
        let lines: Vec<String> = notes.iter().flat_map(Note::lines).collect();
        assert!(
            size(&lines) <= MAX_NOTES_SIZE,
            "{text}: {} bytes of notes",
            size(&lines)
        );
        // JSON (the web page's and `analyze --json`'s form) as well.
        let json = serde_json::to_string(&notes).unwrap();
        assert!(
            json.len() <= 2 * MAX_NOTES_SIZE,
            "{text}: {} bytes of JSON",
            json.len()
        );
    }
}

fn rule_names() -> Vec<&'static str> {
    catalog::rules().map(|r| r.name).collect()
}

fn run(text: &str, misere: bool, engine: Engine, limits: Limits) -> Result<Analysis, AnalyzeError> {
    analyze(
        text,
        &Options {
            moves: Default::default(),
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

/// Every rule (every shape of the board rules) with its numbers at and near 2^64 − 1: an
/// answer or an error, in both plays and with both engines, with the notes and explanations
/// listed and bounded.
#[test]
fn every_rule_at_the_top_of_u64() {
    let near = [
        (u64::MAX, u64::MAX, u64::MAX),
        (u64::MAX - 1, u64::MAX - 1, u64::MAX - 1),
        (u64::MAX, 1, u64::MAX - 1),
        (u64::MAX - 1, 2, 1),
        (1, u64::MAX, 2),
    ];
    for name in rule_names() {
        for &(a, b, c) in &near {
            for text in shapes(name, a, b, c) {
                for misere in [false, true] {
                    for engine in [Engine::Fast, Engine::Generic] {
                        let t = std::time::Instant::now();
                        run_and_list(&text, misere, engine, SMALL);
                        if std::env::var("BOUNDS_TIMES").is_ok() {
                            eprintln!(
                                "{:?} {} {misere} {engine:?}",
                                t.elapsed(),
                                &text[..text.len().min(80)]
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Issue 41: the mex table of `chomp 18446744073709551615,1` listed every one of its 2^64
/// moves and aborted at 4.6 GB. An L is two Nim heaps; its moves are refused before listing.
#[test]
fn a_chomp_l_at_the_top_answers_and_lists_nothing_whole() {
    for (text, value) in [
        ("chomp 18446744073709551615,1", (u64::MAX - 1) ^ 1),
        ("chomp 18446744073709551615,1,1", (u64::MAX - 1) ^ 2),
        ("chomp 100000,1", 99_999 ^ 1),
    ] {
        let t = std::time::Instant::now();
        let a = run(text, false, Engine::Fast, Limits::DEFAULT).unwrap();
        assert_eq!(a.value.map(|v| v.0), Some(value), "{text}");
        assert!(
            a.notes.iter().all(|n| !matches!(n, Note::MexTable(_))),
            "{text}"
        );
        assert!(t.elapsed().as_secs() < 30, "{text}: {:?}", t.elapsed());
        run_and_list(text, false, Engine::Fast, Limits::DEFAULT);
    }
}

/// A note that would be long is cut, and says so: a staircase of 100,000 steps lists 64 odd
/// steps and counts the rest, a mex table of positions of 20,000 cells cuts them.
#[test]
fn long_notes_are_shortened_with_a_word() {
    let steps: Vec<String> = (1..=100_000).map(|i| (i % 7).to_string()).collect();
    let text = format!("staircase {}", steps.join(" "));
    let a = run(&text, false, Engine::Fast, Limits::DEFAULT).unwrap();
    let Some(Note::Staircase(s)) = a.notes.iter().find(|n| matches!(n, Note::Staircase(_))) else {
        panic!("{:?}", a.notes)
    };
    assert_eq!(s.odd_steps.len(), teach::MAX_NOTE_STEPS);
    assert_eq!(s.more_steps, 50_000 - teach::MAX_NOTE_STEPS);
    // The value still counts every odd step.
    let all = (1..=100_000u64).step_by(2).fold(0, |x, i| x ^ (i % 7));
    assert_eq!(s.value.0, all);
    assert_eq!(a.value.map(|v| v.0), Some(all));
    let line = a.note_lines().join("\n");
    assert!(
        line.contains("and 49936 more odd steps, not listed"),
        "{}",
        &line[..300]
    );
    assert!(line.len() < 4096, "{}", line.len());
    // Two moves, each leaving a staircase of 10,001 steps (20,000 characters).
    let text = format!("staircase{} 2", " 0".repeat(10_000));
    let a = run(&text, false, Engine::Fast, Limits::DEFAULT).unwrap();
    let Some(Note::MexTable(t)) = a.notes.first() else {
        panic!("{:?}", a.notes)
    };
    assert!(t.shortened);
    assert_eq!(t.rows.len(), 2);
    assert!(t.component.ends_with('…') && t.component.len() <= teach::MAX_NOTE_TEXT + 3);
    assert!(
        t.rows
            .iter()
            .all(|r| r.result.ends_with('…') && r.result.len() <= teach::MAX_NOTE_TEXT + 3)
    );
    let lines = a.note_lines();
    assert!(
        lines.iter().any(|l| l.contains("are cut, ending in …")),
        "{lines:?}"
    );
    assert!(
        size(&lines) < 4 * teach::MAX_NOTE_TEXT + 1000,
        "{}",
        size(&lines)
    );
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
        let name = names[rule % names.len()];
        let engine = if generic { Engine::Generic } else { Engine::Fast };
        for text in shapes(name, a, b, c) {
            if std::env::var("BOUNDS_TIMES").is_ok() {
                eprintln!("{} {misere} {engine:?}", &text[..text.len().min(80)]);
            }
            run_and_list(&text, misere, engine, SMALL);
        }
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
        max_threads: 1,
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
        run_and_list(text, misere, engine, modest);
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

/// Positions of thousands of coins, steps or edges list their winning moves (each a copy of
/// the whole position) within the memory limit, or say that they are not listed; the value is
/// still the answer. `mock-turtles` on 20,000 coins took 5.8 GB this way and aborted under a
/// 6 GB address-space cap; `staircase` on 100,000 steps needed tens of gigabytes.
#[test]
fn long_positions_list_their_moves_within_the_memory_limit() {
    let limits = Limits {
        max_bytes: 256 << 20,
        ..Limits::DEFAULT
    };
    let numbers = |n: u64| (1..n).map(|i| i.to_string()).collect::<Vec<_>>().join(" ");
    let chain: Vec<String> = (0..9_000).map(|i| format!("{i}-{}", i + 1)).collect();
    for text in [
        format!("mock-turtles {}", numbers(20_000)),
        format!("ruler {}", numbers(20_000)),
        // 50,000 odd steps of 7 coins and one of 1: nim-sum 1, and a winning move (take one
        // coin) on every odd step.
        format!("staircase {}1", "7 ".repeat(100_000)),
        format!("hackenbush {}", chain.join(" ")),
    ] {
        let short = &text[..30];
        let t = std::time::Instant::now();
        let a = run(&text, false, Engine::Fast, limits).unwrap();
        assert!(a.value.is_some(), "{short}");
        assert!(
            a.explanation.iter().any(|l| l.contains("are not listed")),
            "{short}: {:?}",
            a.explanation
                .iter()
                .map(|l| &l[..l.len().min(100)])
                .collect::<Vec<_>>()
        );
        assert!(t.elapsed().as_secs() < 60, "{short}: {:?}", t.elapsed());
        run_and_list(&text, false, Engine::Fast, limits);
    }
}
