//! Coin-turning games: closed forms and the Tartan theorem against brute force over whole
//! positions (a position is the set of heads, its moves come from the rule's definition, its
//! value is the mex over them), and whole analyses by both engines.

use crate::common;

use grundy::analysis::{Analysis, analyze};
use grundy::coins::{CoinGrid, CoinRow, GridGame, GridRule, LineGame, LineRule};
use grundy::solve::Solver;
use grundy::sum::{Context, Engine};
use grundy::{Nimber, Options, Outcome};
use proptest::prelude::*;

/// Every position of a board of `width` coins from the rule's first coin.
fn all_rows(rule: &LineRule, width: u64) -> impl Iterator<Item = Vec<u64>> + '_ {
    let first = rule.first_coin();
    (0u64..1 << width).map(move |mask| {
        (0..width)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| first + i)
            .collect()
    })
}

#[test]
fn one_dimensional_values_match_brute_force_on_whole_boards() {
    let mut rules = LineRule::NAMED.to_vec();
    rules.extend([1, 2, 3, 4, 6].map(LineRule::TurnUpTo));
    rules.extend([vec![1, 2], vec![1, 3, 4], vec![2, 3], vec![4]].map(LineRule::Subtraction));
    for rule in rules {
        let width = if matches!(rule, LineRule::Moebius | LineRule::Mogul) {
            9
        } else {
            10
        };
        let mut solver = Solver::new(LineGame(rule.clone()));
        for heads in all_rows(&rule, width) {
            let row = CoinRow::new(rule.clone(), heads.clone()).unwrap();
            assert_eq!(
                row.value(&grundy::control::Budget::default()).unwrap(),
                solver.value(&heads).unwrap(),
                "{rule} {heads:?}"
            );
        }
    }
}

/// Small one-dimensional rules with small values (for 2-D products on small boards).
fn small_rules() -> Vec<LineRule> {
    vec![
        LineRule::TurningTurtles,
        LineRule::Twins,
        LineRule::MockTurtles,
        LineRule::Ruler,
        LineRule::Moebius,
        LineRule::TurnUpTo(1),
        LineRule::Subtraction(vec![1, 2]),
    ]
}

#[test]
fn tartan_products_match_brute_force_on_whole_boards() {
    let mut rules: Vec<GridRule> = vec![GridRule::CORNERS, GridRule::RUGS, GridRule::AcrosticTwins];
    for x in small_rules() {
        for y in small_rules() {
            rules.push(GridRule::Product {
                alias: None,
                x: x.clone(),
                y,
            });
        }
    }
    for rule in rules {
        // A 3 × 3 board (4 × 3 for the named games): every one of its 2^9 (2^12) positions.
        let (w, h) = if matches!(rule, GridRule::Product { alias: None, .. }) {
            (3, 3)
        } else {
            (4, 3)
        };
        let (rx, ry) = rule.axes();
        let coins: Vec<(u64, u64)> = (0..w)
            .flat_map(|i| (0..h).map(move |j| (i, j)))
            .map(|(i, j)| (rx.first_coin() + i, ry.first_coin() + j))
            .collect();
        let mut solver = Solver::new(GridGame(rule.clone()));
        for mask in 0u64..1 << coins.len() {
            let heads: Vec<(u64, u64)> = (0..coins.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| coins[i])
                .collect();
            let mut sorted = heads.clone();
            sorted.sort_unstable();
            let grid = CoinGrid::new(rule.clone(), heads).unwrap();
            assert_eq!(
                grid.value(&grundy::control::Budget::default()).unwrap(),
                solver.value(&sorted).unwrap(),
                "{rule} {sorted:?}"
            );
        }
    }
}

#[test]
fn turning_corners_on_a_larger_board() {
    // 4 × 4, all 2^16 positions: x ⊗ y summed is the value of the definition.
    let coins: Vec<(u64, u64)> = (0..4).flat_map(|i| (0..4).map(move |j| (i, j))).collect();
    let mut solver = Solver::new(GridGame(GridRule::CORNERS));
    for mask in 0u64..1 << 16 {
        let heads: Vec<(u64, u64)> = (0..16)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| coins[i])
            .collect();
        let expected: Nimber = heads.iter().map(|&(x, y)| Nimber(x) * Nimber(y)).sum();
        assert_eq!(solver.value(&heads).unwrap(), expected, "{heads:?}");
    }
}

fn line_rule() -> impl Strategy<Value = LineRule> {
    prop_oneof![
        proptest::sample::select(LineRule::NAMED.to_vec()),
        (1u64..7).prop_map(LineRule::TurnUpTo),
        proptest::collection::btree_set(1u64..6, 1..4)
            .prop_map(|s| LineRule::Subtraction(s.into_iter().collect())),
    ]
}

fn analysis(expr: &str, engine: Engine) -> Analysis {
    let options = Options {
        moves: Default::default(),
        misere: false,
        context: Context {
            engine,
            ..Context::default()
        },
    };
    analyze(expr, &options).unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// Both engines give the same value and exactly the same winning moves; each winning move
/// leads to a P-position; the expression prints back to itself.
fn agree(expr: &str) -> Result<(), TestCaseError> {
    let fast = analysis(expr, Engine::Fast);
    let slow = analysis(expr, Engine::Generic);
    prop_assert_eq!(&fast.expression, expr);
    prop_assert_eq!(fast.value, slow.value, "value of {}", expr);
    prop_assert_eq!(
        &fast.winning_moves,
        &slow.winning_moves,
        "winning moves of {}",
        expr
    );
    prop_assert_eq!(fast.outcome == Outcome::N, !fast.winning_moves.is_empty());
    for m in &fast.winning_moves {
        let after = analysis(&m.result, Engine::Fast);
        prop_assert_eq!(after.outcome, Outcome::P, "after {}", m.description);
        prop_assert_eq!(&after.expression, &m.result);
    }
    Ok(())
}

fn heads_text(heads: &std::collections::BTreeSet<u64>, first: u64) -> String {
    heads
        .iter()
        .map(|h| (h + first).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(80))]

    #[test]
    fn one_dimensional_analyses_agree(
        rule in line_rule(),
        heads in proptest::collection::btree_set(0u64..8, 1..5),
        heap in 0u64..8,
    ) {
        let expr = format!("{rule} {} + nim {heap}", heads_text(&heads, rule.first_coin()));
        agree(&expr)?;
    }

    #[test]
    fn two_dimensional_analyses_agree(
        x in proptest::sample::select(small_rules()),
        y in proptest::sample::select(small_rules()),
        heads in proptest::collection::btree_set((0u64..3, 0u64..3), 1..4),
        heap in 0u64..4,
    ) {
        let (fx, fy) = (x.first_coin(), y.first_coin());
        let coins: Vec<String> = heads.iter().map(|(a, b)| format!("{},{}", a + fx, b + fy)).collect();
        let rule = GridRule::Product { alias: None, x, y };
        let expr = format!("{rule} {} + nim {heap}", coins.join(" "));
        agree(&expr)?;
    }

    #[test]
    fn named_grids_agree(
        which in 0usize..3,
        heads in proptest::collection::btree_set((0u64..4, 0u64..3), 1..4),
    ) {
        let (name, first) = [("corners", 0), ("rugs", 1), ("acrostic-twins", 0)][which];
        let coins: Vec<String> = heads.iter().map(|(a, b)| format!("{},{}", a + first, b + first)).collect();
        agree(&format!("{name} {}", coins.join(" ")))?;
    }

    /// Closed forms far beyond brute force are still exact: a single Mock Turtles head is
    /// worth an odious number (`2n` or `2n + 1`, so the odious numbers in order), a Ruler head
    /// the largest power of 2 dividing its coin.
    #[test]
    fn closed_forms_hold_for_large_coins(n in 1u64..(1 << 62)) {
        let v = CoinRow::new(LineRule::MockTurtles, vec![n]).unwrap().value(&grundy::control::Budget::default()).unwrap().0;
        prop_assert!(v.count_ones() % 2 == 1 && v / 2 == n, "mock turtles {} -> {}", n, v);
        let r = CoinRow::new(LineRule::Ruler, vec![n]).unwrap().value(&grundy::control::Budget::default()).unwrap().0;
        prop_assert!(r.is_power_of_two() && n % r == 0 && (n / r) % 2 == 1, "ruler {} -> {}", n, r);
    }

    /// Winning moves by value lookup for coins too far right for the generic engine: every
    /// one leads to a P-position.
    #[test]
    fn winning_moves_by_lookup_lead_to_p_positions(
        rule in line_rule(),
        heads in proptest::collection::btree_set(0u64..3000, 1..4),
    ) {
        // Listing moves costs about n^(m-1) lookups for "at most m other coins": keep
        // Moebius, Mogul and turn(k > 3) to coins where that is quick.
        let heads: std::collections::BTreeSet<u64> = match rule.shape() {
            grundy::coins::Shape::AtMost(m) if m > 2 => heads.iter().map(|h| h % 40).collect(),
            _ => heads,
        };
        let expr = format!("{rule} {}", heads_text(&heads, rule.first_coin()));
        let a = analysis(&expr, Engine::Fast);
        prop_assert_eq!(a.outcome == Outcome::N, !a.winning_moves.is_empty());
        for m in &a.winning_moves {
            prop_assert_eq!(analysis(&m.result, Engine::Fast).value, Some(Nimber(0)), "{} then {}", expr, m.description);
        }
    }
}

#[test]
fn the_examples_of_the_issue() {
    let a = analysis("mock-turtles 0 3 5", Engine::Fast);
    assert_eq!(a.value, Some(Nimber(1 ^ 7 ^ 11)));
    let a = analysis("corners 2,3 4,5", Engine::Fast);
    assert_eq!(
        a.value,
        Some((Nimber(2) * Nimber(3)) ^ (Nimber(4) * Nimber(5)))
    );
    // Ruler at 3 is 1, Mock Turtles at 4 is 8: 1 ⊗ 8 = 8.
    let a = analysis("product(ruler,mock-turtles) 3,4", Engine::Fast);
    assert_eq!(a.value, Some(Nimber(8)));
    let a = analysis("product(turn:5,coin-sub:1:2) 3,4 + moebius 3", Engine::Fast);
    assert_eq!(a.expression, "product(turn:5,coin-sub:1:2) 3,4 + moebius 3");
    assert_eq!(a.value, Some((Nimber(4) * Nimber(1)) ^ Nimber(4)));
}

#[test]
fn bad_coins_are_clear_errors_at_their_place() {
    common::assert_expression_errors(&[
        ("turning-turtles 0", 16..17, "from 1"),
        ("mock-turtles 3 x", 15..16, "coin number"),
        ("mock-turtles 3 -1", 15..17, "coin number"),
        ("mock-turtles 9223372036854775808", 13..32, "too large"),
        ("ruler 99999999999999999999", 6..26, "too large"),
        ("twins 3 5 3", 10..11, "listed twice"),
        ("corners 2", 8..9, "x,y"),
        ("corners 2,99999999999999999999", 10..30, "too large"),
        ("rugs 0,1", 5..6, "from 1"),
        (
            "product(ruler,nim) 1,1",
            14..17,
            "not a one-dimensional coin rule",
        ),
        ("product(ruler) 1,1", 8..13, "two coin rules"),
        ("product(turn:0,ruler) 1,1", 13..14, "at least one"),
        ("turn 3", 0..4, "needs parameters"),
        ("turn(2,3) 3", 5..8, "one parameter"),
        ("coin-sub(0) 3", 9..10, "1 or more"),
        ("moebius(2) 3", 8..9, "no parameters"),
        ("mogul", 5..5, "needs arguments"),
    ]);
}

#[test]
fn big_work_is_refused_with_a_clear_message() {
    let options = Options::default();
    let err = analyze("mogul 100000000000", &options)
        .unwrap_err()
        .to_string();
    assert!(err.contains("limit"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Sums mixing both families of this module with the classic games: both engines agree
    /// on the value and on every winning move, which leads to a P-position.
    #[test]
    fn sums_with_other_families_agree(
        edges in proptest::collection::vec((0u64..4, 0u64..4), 1..6),
        coins in proptest::collection::btree_set(0u64..6, 1..3),
        corner in (0u64..3, 0u64..3),
        queen in (0u64..4, 0u64..4),
        heap in 0u64..5,
    ) {
        let picture: Vec<String> = edges.iter().map(|(a, b)| format!("{a}-{b}")).collect();
        let expr = format!(
            "hackenbush {} + mock-turtles {} + corners {},{} + wythoff {} {} + nim {heap}",
            picture.join(" "),
            heads_text(&coins, 0),
            corner.0,
            corner.1,
            queen.0,
            queen.1,
        );
        agree(&expr)?;
    }
}
