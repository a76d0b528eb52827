//! Green Hackenbush: the fast value (fusion + colon principles) against the generic engine
//! (which only cuts edges and drops what falls), on thousands of small random pictures, and
//! the winning moves and printed expressions through whole analyses.

use crate::common;

use grundy::analysis::{Analysis, analyze};
use grundy::hackenbush::{HackenbushGame, Picture, value};
use grundy::solve::Solver;
use grundy::sum::{Context, Engine};
use grundy::{Nimber, Options, Outcome};
use proptest::prelude::*;

fn generic(p: &Picture) -> Nimber {
    Solver::new(HackenbushGame)
        .value(&HackenbushGame::position(p))
        .unwrap()
}

/// Any small multigraph on vertices 0..=5: loops, parallel edges, cycles, floating parts.
fn any_picture() -> impl Strategy<Value = Picture> {
    proptest::collection::vec((0u64..6, 0u64..6), 0..9).prop_map(Picture::new)
}

/// A random tree rooted at the ground: vertex i + 1 hangs from an earlier vertex.
fn tree() -> impl Strategy<Value = Picture> {
    proptest::collection::vec(any::<prop::sample::Index>(), 1..11).prop_map(|parents| {
        Picture::new(
            parents
                .iter()
                .enumerate()
                .map(|(i, p)| (p.index(i + 1) as u64, i as u64 + 1))
                .collect(),
        )
    })
}

/// Cycles of random lengths hung from the ground or from each other, with a few stalks,
/// loops and chords; vertex labels shuffled by an offset so they are not consecutive.
fn cycles() -> impl Strategy<Value = Picture> {
    (
        proptest::collection::vec((1u64..5, any::<prop::sample::Index>()), 1..4),
        proptest::collection::vec(
            (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
            0..3,
        ),
        0u64..3,
    )
        .prop_map(|(rings, chords, offset)| {
            let mut edges = Vec::new();
            let mut vertices = vec![0u64];
            let mut next = 1 + offset * 10;
            for (len, at) in rings {
                let base = *at.get(&vertices);
                let mut prev = base;
                for _ in 0..len {
                    edges.push((prev, next));
                    vertices.push(next);
                    prev = next;
                    next += 1;
                }
                edges.push((prev, base)); // close the ring (a loop when len is 0)
            }
            for (a, b) in chords {
                edges.push((*a.get(&vertices), *b.get(&vertices)));
            }
            Picture::new(edges)
        })
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fast_value_matches_the_generic_engine_on_any_small_multigraph(p in any_picture()) {
        prop_assert_eq!(value(&p), generic(&p), "picture {}", p);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn fast_value_matches_the_generic_engine_on_trees(p in tree()) {
        prop_assert_eq!(value(&p), generic(&p), "tree {}", p);
    }

    #[test]
    fn fast_value_matches_the_generic_engine_on_cycles(p in cycles()) {
        prop_assert_eq!(value(&p), generic(&p), "picture {}", p);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whole analyses in a sum with Nim: the same value and exactly the same winning moves
    /// (edge cut and resulting expression) by both engines; each leads to a P-position; the
    /// expression prints back to itself.
    #[test]
    fn analyses_agree_and_print_back(p in any_picture().prop_filter("has edges", |p| !p.is_empty()), heap in 0u64..6) {
        let expr = format!("hackenbush {p} + nim {heap}");
        let fast = analysis(&expr, Engine::Fast);
        let slow = analysis(&expr, Engine::Generic);
        prop_assert_eq!(&fast.expression, &expr);
        prop_assert_eq!(fast.value, slow.value);
        prop_assert_eq!(&fast.winning_moves, &slow.winning_moves);
        prop_assert_eq!(fast.outcome == Outcome::N, !fast.winning_moves.is_empty());
        for m in &fast.winning_moves {
            let after = analysis(&m.result, Engine::Fast);
            prop_assert_eq!(after.outcome, Outcome::P, "after {}", m.description);
            prop_assert_eq!(&after.expression, &m.result);
        }
    }
}

#[test]
fn the_examples_of_the_issue() {
    let a = analysis("hackenbush 0-1 1-2 1-3", Engine::Fast);
    assert_eq!(a.value, Some(Nimber(1)));
    let cuts: Vec<_> = a
        .winning_moves
        .iter()
        .map(|m| m.description.as_str())
        .collect();
    assert_eq!(cuts, ["cut 0-1"]);
    assert_eq!(a.winning_moves[0].result, "0");

    // The triangle (1) and the stalk with a loop on top (1 + 1): 3; with nim 4: 7.
    let a = analysis("hackenbush 0-1 1-2 2-0 2-3 3-3 + nim 4", Engine::Fast);
    assert_eq!(a.value, Some(Nimber(7)));
    let results: Vec<_> = a.winning_moves.iter().map(|m| m.result.as_str()).collect();
    assert_eq!(
        results,
        [
            "hackenbush 1-2 2-0 2-3 3-3 + nim 4",
            "hackenbush 0-1 1-2 2-3 3-3 + nim 4",
            "hackenbush 0-1 1-2 2-0 2-3 3-3 + nim 3",
        ]
    );
}

#[test]
fn a_picture_off_the_ground_is_worth_zero_not_an_error() {
    let a = analysis("hackenbush 1-2 2-3 3-1", Engine::Fast);
    assert_eq!(a.value, Some(Nimber(0)));
    assert_eq!(a.outcome, Outcome::P);
    assert_eq!(a.expression, "hackenbush 1-2 2-3 3-1");
}

#[test]
fn malformed_edges_are_clear_errors_at_their_place() {
    common::assert_expression_errors(&[
        ("hackenbush 0-1 1-x", 17..18, "vertex number"),
        ("hackenbush 0-1 -1-2", 15..19, "negative"),
        ("hackenbush 0-1 1--2", 17..19, "negative"),
        ("hackenbush 0-1 12", 15..17, "edge `u-v`"),
        ("hackenbush 0-18446744073709551616", 13..33, "too large"),
        ("hackenbush", 10..10, "needs arguments"),
        ("hackenbush(2) 0-1", 11..12, "no parameters"),
    ]);
}

#[test]
fn a_ten_million_edge_stalk_is_fine() {
    // No recursion anywhere: a bamboo stalk of 10^7 edges is a Nim heap of 10^7.
    let n = 10_000_000u64;
    let p = Picture::new((0..n).map(|i| (i, i + 1)).collect());
    assert_eq!(value(&p), Nimber(n));
}
