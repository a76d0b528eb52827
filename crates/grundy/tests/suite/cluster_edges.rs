//! Edge lists read in parts by the workers (`grundy::cluster::graph::edges`) against the
//! one-process reader and solver (`read_edge_list`, `solve`): on random graphs with and
//! without cycles, written with random names, comments, blank lines, lone vertices, tabs,
//! `\r\n` and a byte-order mark, 1 to 5 workers and rounds of a few lines, every vertex's
//! name, value, outcome and remoteness, in the one-process order; on broken files, the
//! one-process reader's error, word for word. Several processes on loopback: the CLI suite.

use grundy::cluster::{ClusterError, EdgeAnswer, EdgeFile, NamedVertex, edges_with_workers};
use grundy::control::Control;
use grundy::graph::read::{ReadOptions, read_edge_list};
use grundy::graph::solve;
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::graph_properties::{Adj, graphs};

/// A file of its own for each call, in the temporary directory.
fn write(text: &[u8]) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("grundy-edges-{}-{n}.txt", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// The edge list of `adj` in a random order, its layout chosen by `seed`: names of several
/// lengths (not in vertex order), lone vertices declared before or after their edges (and
/// isolated ones), comments, blank lines, tabs, `\r\n`, maybe a byte-order mark.
fn edge_text(adj: &Adj, seed: u64) -> String {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let name = |v: usize| {
        format!(
            "{}v{}",
            ["", "pos", "a-long-vertex-name-"][v % 3],
            v * 7 % 101
        )
    };
    let mut lines: Vec<String> = Vec::new();
    for (v, out) in adj.iter().enumerate() {
        if out.is_empty() || next() % 4 == 0 {
            lines.push(name(v));
        }
        for &w in out {
            lines.push(format!("{} {}", name(v), name(w as usize)));
        }
    }
    // Shuffled: the order of first appearance is not the vertices' order.
    for i in (1..lines.len()).rev() {
        lines.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    let mut text = String::new();
    if next() % 4 == 0 {
        text.push('\u{feff}');
    }
    for line in lines {
        match next() % 8 {
            0 => text.push_str("# a comment\n"),
            1 => text.push('\n'),
            _ => {}
        }
        let line = if next() % 4 == 0 {
            line.replace(' ', "\t ")
        } else {
            line
        };
        text.push_str(&line);
        if next() % 5 == 0 {
            text.push_str("  # why");
        }
        text.push_str(if next() % 6 == 0 { "\r\n" } else { "\n" });
    }
    if next() % 2 == 0 {
        text.pop();
    }
    text
}

fn in_parts(path: &PathBuf, workers: usize, per_round: u64) -> Result<EdgeAnswer, ClusterError> {
    let file = EdgeFile::open(path, &ReadOptions::default(), 1)?.with_per_round(per_round);
    edges_with_workers(
        &file,
        workers,
        Arc::new(AtomicBool::new(false)),
        Box::new(|_: &str, _: u64, _: u64| {}),
    )
}

fn check(adj: &Adj, seed: u64) -> Result<(), TestCaseError> {
    let text = edge_text(adj, seed);
    let path = write(text.as_bytes());
    let graph = read_edge_list(text.as_bytes(), &ReadOptions::default()).unwrap();
    let s = solve(&graph.csr, &mut Control::none()).unwrap();
    let expected: Vec<NamedVertex> = (0..graph.vertex_count() as u32)
        .map(|v| NamedVertex {
            name: graph.name(v).into_owned(),
            value: s.value(&graph.csr, v),
            outcome: s.outcome(v),
            remoteness: s.remoteness(v),
        })
        .collect();
    for (workers, per_round) in [(1, 1 << 20), (2, 1 << 20), (3, 2), (2, 1), (5, 3)] {
        let got = in_parts(&path, workers, per_round).unwrap();
        prop_assert_eq!(got.edges, graph.csr.edge_count() as u64);
        prop_assert_eq!(got.acyclic, s.acyclic);
        prop_assert_eq!(got.stats.workers, workers);
        let vertices: Vec<NamedVertex> = (0..got.len()).map(|i| got.vertex(i)).collect();
        prop_assert_eq!(
            &vertices,
            &expected,
            "{} workers, {} lines a round",
            workers,
            per_round
        );
    }
    let _ = std::fs::remove_file(&path);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn acyclic_edge_lists_give_the_one_process_answer(
        adj in graphs(30, 80, true),
        seed in any::<u64>(),
    ) {
        check(&adj, seed)?;
    }

    #[test]
    fn loopy_edge_lists_give_the_one_process_answer(
        adj in graphs(30, 80, false),
        seed in any::<u64>(),
    ) {
        check(&adj, seed)?;
    }
}

#[test]
fn a_broken_edge_list_gets_the_one_process_error() {
    let good = "a b\nb c\n# fine\nc d\nd\n";
    let cases: [&[u8]; 4] = [
        b"a b\nb c\nc d e\nd a\n",
        b"a b\nb c\nc d\nd a\nx y z",
        b"a b\n\xff\xfe c\nc d\n",
        b"a b\nb c\r\nc d\nd a b\n",
    ];
    for text in cases {
        let path = write(text);
        let one = read_edge_list(text, &ReadOptions::default()).unwrap_err();
        for (workers, per_round) in [(1, 100), (2, 1), (3, 2), (4, 1)] {
            match in_parts(&path, workers, per_round) {
                Err(ClusterError::Read(e)) => assert_eq!(e.to_string(), one.to_string()),
                other => panic!("{:?}: {other:?}", String::from_utf8_lossy(text)),
            }
        }
        let _ = std::fs::remove_file(&path);
    }
    let path = write(good.as_bytes());
    let answer = in_parts(&path, 3, 1).unwrap();
    let names: Vec<&str> = (0..answer.len()).map(|i| answer.name(i)).collect();
    assert_eq!(names, ["a", "b", "c", "d"]);
    let _ = std::fs::remove_file(&path);
}

/// Names long enough that one round's messages to a worker pass a batch (`CHUNK` words): the
/// pieces are joined again on arrival.
#[test]
fn long_names_in_big_rounds() {
    let name = |v: u32| format!("{v:0>100}");
    let mut text = String::new();
    for v in 0..80_000u32 {
        text.push_str(&format!("{} {}\n", name(v), name((v * 7 + 3) % 80_000)));
    }
    let path = write(text.as_bytes());
    let graph = read_edge_list(text.as_bytes(), &ReadOptions::default()).unwrap();
    let s = solve(&graph.csr, &mut Control::none()).unwrap();
    for workers in [1, 2] {
        let got = in_parts(&path, workers, 1 << 20).unwrap();
        assert_eq!(got.len(), graph.vertex_count());
        for v in (0..got.len()).step_by(97) {
            let x = got.vertex(v);
            assert_eq!(x.name, graph.name(v as u32));
            assert_eq!(x.value, s.value(&graph.csr, v as u32));
            assert_eq!(x.remoteness, s.remoteness(v as u32));
        }
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_big_edge_list_over_many_workers() {
    let adj: Adj = (0..3000u32)
        .map(|v| {
            (1..4)
                .map(|d| (v * 7 + d * 13) % 3000)
                .filter(|&w| w != v)
                .collect()
        })
        .collect();
    check(&adj, 11).unwrap();
    let path = write(edge_text(&adj, 3).as_bytes());
    let eight = in_parts(&path, 8, 1000).unwrap();
    let one = in_parts(&path, 1, 1 << 20).unwrap();
    assert_eq!(eight.len(), one.len());
    assert!((0..one.len()).all(|i| eight.vertex(i) == one.vertex(i)));
    assert!(!one.acyclic);
    let _ = std::fs::remove_file(&path);
}
