//! The distributed graph solver (`grundy::cluster::graph`) against the one-thread solver,
//! which `graph_properties` checks against the definitions: values, outcomes, remoteness
//! and generalised values equal on random graphs with and without cycles, for 1, 2 and 3
//! workers, in steps of any size. Several processes on loopback: the CLI suite (`cluster.rs`).

use grundy::cluster::{ClusterError, solve_with_workers, solve_with_workers_in_steps};
use grundy::control::Control;
use grundy::graph::csr::Csr;
use grundy::graph::{GraphSolution, solve};
use proptest::prelude::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::graph_properties::{Adj, graphs};

fn distributed(graph: &Csr, workers: usize) -> (GraphSolution, grundy::cluster::SolveStats) {
    in_steps(graph, workers, 1 << 20)
}

/// With at most `per_step` messages a worker in a step: small steps make every cascade pause.
fn in_steps(
    graph: &Csr,
    workers: usize,
    per_step: u64,
) -> (GraphSolution, grundy::cluster::SolveStats) {
    let run = solve_with_workers_in_steps(
        Arc::new(graph.clone()),
        workers,
        per_step,
        Arc::new(AtomicBool::new(false)),
        Box::new(|_: &str, _: u64, _: u64| {}),
    )
    .unwrap();
    (run.solution, run.stats)
}

fn check(adj: &Adj) -> Result<(), TestCaseError> {
    let g = Csr::from_adjacency(adj);
    let one = solve(&g, &mut Control::none()).unwrap();
    for (workers, per_step) in [(1, 1 << 20), (2, 1 << 20), (3, 1 << 20), (2, 1), (3, 2)] {
        let (many, stats) = in_steps(&g, workers, per_step);
        prop_assert_eq!(stats.acyclic, one.acyclic);
        prop_assert_eq!(stats.workers, workers);
        for v in 0..g.vertex_count() as u32 {
            prop_assert_eq!(many.value(&g, v), one.value(&g, v), "value of {}", v);
            prop_assert_eq!(many.outcome(v), one.outcome(v), "outcome of {}", v);
            prop_assert_eq!(many.remoteness(v), one.remoteness(v), "remoteness of {}", v);
        }
        prop_assert_eq!(&many, &one);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn acyclic_graphs_give_the_one_thread_answer(adj in graphs(40, 120, true)) {
        check(&adj)?;
    }

    #[test]
    fn loopy_graphs_give_the_one_thread_answer(adj in graphs(40, 100, false)) {
        check(&adj)?;
    }
}

/// A pseudo-random graph of `n` vertices and about `3n` edges, with cycles when `loopy`.
fn big(n: u32, loopy: bool, seed: u64) -> Adj {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|v| {
            let degree = next() % 6;
            (0..degree)
                .filter_map(|_| {
                    let r = next();
                    if loopy && r % 50 == 0 {
                        Some((r >> 8) as u32 % n)
                    } else if v > 0 {
                        Some((r >> 8) as u32 % v)
                    } else {
                        None
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn larger_graphs_take_many_steps_and_agree() {
    for (loopy, seed) in [(false, 7), (true, 11), (true, 12)] {
        let adj = big(20_000, loopy, seed);
        check(&adj).unwrap();
        let g = Csr::from_adjacency(&adj);
        let (_, stats) = distributed(&g, 3);
        assert!(stats.steps > 3, "{stats:?}");
        assert_eq!(stats.acyclic, !loopy);
        // One process: nothing crosses a process boundary.
        assert_eq!(stats.bytes_between_processes, 0);
    }
}

#[test]
fn a_chain_within_one_worker_takes_one_step_and_across_workers_one_a_vertex() {
    // 0 <- 1 <- ... <- 999: one worker decides it all in its first step; with two, every
    // edge crosses and the values alternate just the same.
    let adj: Adj = (0..1000u32)
        .map(|v| if v == 0 { vec![] } else { vec![v - 1] })
        .collect();
    let g = Csr::from_adjacency(&adj);
    let (one, stats) = distributed(&g, 1);
    assert!(stats.steps <= 3, "{stats:?}");
    let (two, stats2) = distributed(&g, 2);
    assert!(stats2.steps >= 1000, "{stats2:?}");
    assert_eq!(one, two);
    assert_eq!(one.finite_value(999), Some(1));
    assert_eq!(one.remoteness(999), Some(999));
}

#[test]
fn a_stop_asked_before_the_start_stops_every_worker() {
    let adj = big(2000, true, 3);
    let g = Arc::new(Csr::from_adjacency(&adj));
    let stopped = solve_with_workers(
        g,
        2,
        Arc::new(AtomicBool::new(true)),
        Box::new(|_: &str, _: u64, _: u64| {}),
    );
    assert!(
        matches!(stopped, Err(ClusterError::Interrupted)),
        "{stopped:?}"
    );
}

#[test]
fn the_empty_graph_and_more_workers_than_vertices() {
    check(&Vec::new()).unwrap();
    check(&vec![vec![0], vec![]]).unwrap();
    let (s, _) = distributed(&Csr::from_adjacency(&[vec![1], vec![]]), 5);
    assert_eq!(s.finite_value(0), Some(1));
}

#[test]
fn values_past_64_take_the_side_array() {
    // Nim heaps 0 to 150: heap h moves to every smaller heap, so its value is h, and heaps
    // past 63 need more than the 64-bit mask of followers' values.
    let adj: Adj = (0..=150u32).map(|h| (0..h).rev().collect()).collect();
    check(&adj).unwrap();
    let (s, _) = distributed(&Csr::from_adjacency(&adj), 2);
    for h in 0..=150 {
        assert_eq!(s.finite_value(h), Some(h));
    }
}
