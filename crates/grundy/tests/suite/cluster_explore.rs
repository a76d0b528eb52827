//! A game explored in parts by the workers (`grundy::cluster::explore_with_workers`) against
//! the one-process exploration and solver (`graph::explore::explore`, `graph::solve`, which
//! `graph_properties` checks against the definitions): the start's value, outcome and
//! remoteness, the numbers of positions and moves and whether a cycle is reachable, for
//! random sums of built-in games and of random (often loopy) rule scripts, on 1, 2, 3 and 5
//! workers in steps of any size; the limits and a rule's error give the one-process errors.
//! Several processes on loopback: the CLI suite (`cluster_graph.rs`).

use grundy::catalog::Catalog;
use grundy::cluster::{ClusterError, Exploration, StartAnswer, explore_with_workers};
use grundy::control::{Budget, BudgetError, Control, Limits};
use grundy::graph::explore::{ExploreError, explore};
use grundy::graph::solve;
use grundy::sum::{Context, Engine};
use proptest::prelude::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A heap rule whose heap `n` moves to the heaps listed at `table[n]` (up or down: cycles).
fn script(table: &[Vec<u32>]) -> String {
    let rows: Vec<String> = table
        .iter()
        .map(|row| {
            let row: Vec<String> = row.iter().map(u32::to_string).collect();
            format!("[{}]", row.join(", "))
        })
        .collect();
    format!(
        "const NAME = \"walk\";\nconst SUMMARY = \"a random walk\";\nconst EXAMPLE = \"walk \
         1\";\nconst HEAP = true;\nfn moves(n) {{ let t = [{}]; if n < t.len() {{ t[n] }} \
         else {{ [] }} }}\n",
        rows.join(", ")
    )
}

fn catalog(table: &[Vec<u32>]) -> Catalog {
    let mut catalog = Catalog::new();
    catalog.load_script(&script(table), "walk.rhai").unwrap();
    catalog
}

/// The start's answer the one-process way (no `stats`).
fn one_process(
    catalog: &Catalog,
    expr: &str,
    max_positions: usize,
    max_work: u64,
) -> Result<StartAnswer, ExploreError> {
    let sum = catalog.parse(expr).unwrap();
    let ctx = Context {
        engine: Engine::Fast,
        budget: Budget::new(Limits {
            max_work,
            ..Limits::DEFAULT
        }),
        ..Context::default()
    };
    let graph = explore(&sum, &ctx, max_positions)?;
    let s = solve(&graph.csr, &mut Control::none()).unwrap();
    Ok(StartAnswer {
        name: graph.name(0).into_owned(),
        vertices: graph.vertex_count() as u64,
        edges: graph.csr.edge_count() as u64,
        acyclic: s.acyclic,
        value: s.value(&graph.csr, 0),
        outcome: s.outcome(0),
        remoteness: s.remoteness(0),
        stats: Default::default(),
    })
}

fn in_parts(
    catalog: &Catalog,
    expr: &str,
    workers: usize,
    per_step: u64,
    max_positions: usize,
    max_work: u64,
) -> Result<StartAnswer, ClusterError> {
    let sum = catalog.parse(expr).unwrap();
    let game =
        Exploration::new(&sum, catalog.clone(), max_positions, max_work)?.with_per_step(per_step);
    explore_with_workers(
        &game,
        workers,
        Arc::new(AtomicBool::new(false)),
        Box::new(|_: &str, _: u64, _: u64| {}),
    )
}

fn check(table: &[Vec<u32>], expr: &str) -> Result<(), TestCaseError> {
    let catalog = catalog(table);
    let one = one_process(&catalog, expr, 100_000, u64::MAX).unwrap();
    for (workers, per_step) in [
        (1, 1 << 20),
        (2, 1 << 20),
        (3, 1 << 20),
        (2, 1),
        (3, 2),
        (5, 3),
    ] {
        let got = in_parts(&catalog, expr, workers, per_step, 100_000, u64::MAX).unwrap();
        let at = format!("{expr} on {workers} workers, {per_step} a step");
        prop_assert_eq!(got.stats.workers, workers);
        prop_assert_eq!(got.stats.acyclic, one.acyclic);
        prop_assert_eq!(
            StartAnswer {
                stats: Default::default(),
                ..got
            },
            one.clone(),
            "{}",
            at
        );
    }
    Ok(())
}

/// A table of `n` heaps, each with up to 3 options anywhere in `0..n`.
fn tables() -> impl Strategy<Value = Vec<Vec<u32>>> {
    (2u32..9)
        .prop_flat_map(|n| prop::collection::vec(prop::collection::vec(0..n, 0..=3), n as usize))
}

/// A sum of one or two walks, with maybe a built-in game beside them.
fn expressions(n: u32) -> impl Strategy<Value = String> {
    let other = prop_oneof![
        Just(String::new()),
        (0u32..4).prop_map(|h| format!(" + nim {h}")),
        (0u32..7).prop_map(|h| format!(" + 0.137 {h}")),
        (0u32..3, 0u32..3).prop_map(|(a, b)| format!(" + wythoff {a} {b}")),
    ];
    (0..n, prop::option::of(0..n), other).prop_map(|(a, b, other)| match b {
        Some(b) => format!("walk {a} {b}{other}"),
        None => format!("walk {a}{other}"),
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn explored_in_parts_gives_the_one_process_answer(
        (table, expr) in tables().prop_flat_map(|t| {
            let n = t.len() as u32;
            (Just(t), expressions(n))
        })
    ) {
        check(&table, &expr)?;
    }
}

#[test]
fn built_in_games_give_the_one_process_answer() {
    let table = vec![vec![]];
    for expr in [
        "nim 3 5 6",
        "0.137 14 + 0.07 9",
        "kayles 9 + wythoff 4 6",
        "nim 0",
        "4.07 12",
    ] {
        check(&table, expr).unwrap();
    }
}

#[test]
fn the_limits_and_a_rule_error_give_the_one_process_errors() {
    let table = vec![vec![1, 2], vec![2, 0], vec![0, 1, 3], vec![]];
    let catalog = catalog(&table);
    let expr = "walk 0 1 + nim 6";
    let all = one_process(&catalog, expr, 100_000, u64::MAX)
        .unwrap()
        .vertices as usize;
    // One position short of the positions reachable: refused; exactly as many: answered.
    let short = one_process(&catalog, expr, all - 1, u64::MAX).unwrap_err();
    assert_eq!(short, ExploreError::TooManyPositions { limit: all - 1 });
    for workers in [1, 2, 3] {
        match in_parts(&catalog, expr, workers, 2, all - 1, u64::MAX) {
            Err(ClusterError::Explore(e)) => assert_eq!(e, short),
            other => panic!("{other:?}"),
        }
        assert!(in_parts(&catalog, expr, workers, 2, all, u64::MAX).is_ok());
    }
    // The work limit: 100 units a move and what the components charge for listing their
    // moves, all workers together, as one process counts it (one process may stop inside a
    // component's listing: the same limit).
    let full = {
        let ctx = Context {
            engine: Engine::Fast,
            budget: Budget::new(Limits::DEFAULT),
            ..Context::default()
        };
        explore(&catalog.parse(expr).unwrap(), &ctx, 100_000).unwrap();
        ctx.budget.work_done()
    };
    let edges = one_process(&catalog, expr, 100_000, full).unwrap().edges;
    assert!(full > edges * 100, "nim charges its moves too");
    let limit = full - 1;
    let over = one_process(&catalog, expr, 100_000, limit).unwrap_err();
    assert_eq!(over.budget_error(), Some(BudgetError::Work { limit }));
    for workers in [1, 2, 3] {
        match in_parts(&catalog, expr, workers, 3, 100_000, limit) {
            Err(ClusterError::Explore(e)) => {
                assert_eq!(e, ExploreError::Budget(BudgetError::Work { limit }));
            }
            other => panic!("{other:?}"),
        }
        assert!(in_parts(&catalog, expr, workers, 3, 100_000, full).is_ok());
    }
    // A rule that fails at one position: its error, as one process gives it.
    let mut failing = Catalog::new();
    failing
        .load_script(
            "const NAME = \"bad\"; const HEAP = true;\nfn moves(n) { if n == 3 { throw \"no \
             moves at 3\" } if n > 0 { [n - 1] } else { [] } }\n",
            "bad.rhai",
        )
        .unwrap();
    let expr = "bad 6";
    let one = one_process(&failing, expr, 100_000, u64::MAX).unwrap_err();
    assert!(one.to_string().contains("no moves at 3"), "{one}");
    for workers in [1, 2, 3] {
        match in_parts(&failing, expr, workers, 1, 100_000, u64::MAX) {
            Err(ClusterError::Explore(e)) => assert_eq!(e, one),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn a_stop_ends_every_worker() {
    let catalog = catalog(&[vec![]]);
    let sum = catalog.parse("nim 40 40 40").unwrap();
    let game = Exploration::new(&sum, catalog, 1_000_000, u64::MAX)
        .unwrap()
        .with_per_step(5);
    let cancel = Arc::new(AtomicBool::new(true));
    let got = explore_with_workers(&game, 2, cancel, Box::new(|_: &str, _: u64, _: u64| {}));
    assert!(matches!(got, Err(ClusterError::Interrupted)), "{got:?}");
}
