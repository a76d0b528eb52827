//! Judge-format files read in parts by the workers (`grundy::cluster::graph::judge`) against
//! the one-process reader and solver: on random graphs with and without cycles, written with
//! random white space (numbers cut anywhere by the byte ranges), 1 to 5 workers and rounds of
//! a few numbers, the outcome and value of the tokens' sum are the one-process ones; on
//! broken files, the error is the one-process reader's, word for word. Several processes on
//! loopback: the CLI suite (`cluster_graph.rs`).

use grundy::cluster::{ClusterError, JudgeAnswer, JudgeFile, judge_with_workers};
use grundy::control::Control;
use grundy::graph::read::{ReadOptions, read_judge};
use grundy::graph::sum_of_tokens;
use grundy::graph::{GraphSolution, solve};
use grundy::value::{Outcome, Value};
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::graph_properties::{Adj, graphs};

/// A file of its own for each call, in the temporary directory.
fn write(text: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("grundy-judge-{}-{n}.txt", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// The judge text of `adj` with `tokens`, its white space chosen by `seed`: spaces, tabs,
/// line breaks (also `\r\n`), runs of them, and now and then a leading zero.
fn judge_text(adj: &Adj, tokens: &[u32], seed: u64) -> String {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let edges: Vec<(usize, u32)> = adj
        .iter()
        .enumerate()
        .flat_map(|(v, out)| out.iter().map(move |&w| (v, w)))
        .collect();
    let mut text = format!("{} {} {}\n", adj.len(), edges.len(), tokens.len());
    let numbers = edges
        .iter()
        .flat_map(|&(v, w)| [v as u64 + 1, u64::from(w) + 1])
        .chain(tokens.iter().map(|&t| u64::from(t) + 1));
    for (i, number) in numbers.enumerate() {
        if i > 0 {
            let gap = [" ", "\n", "\t", "  ", "\r\n", " \n ", "\n\n"];
            text.push_str(gap[(next() % gap.len() as u64) as usize]);
        }
        if next() % 16 == 0 {
            text.push('0');
        }
        text.push_str(&number.to_string());
    }
    if next() % 2 == 0 {
        text.push('\n');
    }
    text
}

/// The one-process answer: the outcome and value of the tokens' sum, and whether the graph
/// has no cycle.
fn one(text: &str) -> (Outcome, Option<Value>, bool) {
    let input = read_judge(text.as_bytes(), &ReadOptions::default()).unwrap();
    let solution: GraphSolution = solve(&input.graph, &mut Control::none()).unwrap();
    let (value, outcome) = sum_of_tokens(&input.graph, &solution, &input.tokens);
    (outcome, value, solution.acyclic)
}

fn many(path: &PathBuf, workers: usize, per_round: u64) -> Result<JudgeAnswer, ClusterError> {
    let file = JudgeFile::open(path, &ReadOptions::default(), 1)?.with_per_round(per_round);
    judge_with_workers(
        &file,
        workers,
        Arc::new(AtomicBool::new(false)),
        Box::new(|_: &str, _: u64, _: u64| {}),
    )
}

fn check(adj: &Adj, tokens: &[u32], seed: u64) -> Result<(), TestCaseError> {
    let tokens: Vec<u32> = tokens.iter().map(|&t| t % adj.len() as u32).collect();
    let text = judge_text(adj, &tokens, seed);
    let path = write(&text);
    let (outcome, value, acyclic) = one(&text);
    for (workers, per_round) in [(1, 1 << 20), (2, 3), (3, 1 << 20), (5, 2)] {
        let answer = many(&path, workers, per_round).unwrap();
        prop_assert_eq!(answer.outcome, outcome, "{} workers", workers);
        prop_assert_eq!(&answer.value, &value, "{} workers", workers);
        prop_assert_eq!(answer.stats.workers, workers);
        prop_assert_eq!(answer.stats.acyclic, acyclic);
    }
    std::fs::remove_file(path).unwrap();
    Ok(())
}

/// A broken input: the one-process reader's error, the same from the workers.
fn check_broken(text: &str) -> Result<(), TestCaseError> {
    let expected = read_judge(text.as_bytes(), &ReadOptions::default())
        .err()
        .map(|e| e.to_string());
    let path = write(text);
    for workers in [1, 2, 4] {
        let got = match many(&path, workers, 3) {
            Ok(_) => None,
            Err(ClusterError::Read(e)) => Some(e.to_string()),
            Err(e) => panic!("not a read error: {e}"),
        };
        prop_assert_eq!(&got, &expected, "{} workers on {:?}", workers, text);
    }
    std::fs::remove_file(path).unwrap();
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(80))]

    #[test]
    fn acyclic_judge_files_give_the_one_process_answer(
        adj in graphs(30, 80, true),
        tokens in prop::collection::vec(any::<u32>(), 0..4),
        seed in any::<u64>(),
    ) {
        check(&adj, &tokens, seed)?;
    }

    #[test]
    fn loopy_judge_files_give_the_one_process_answer(
        adj in graphs(30, 70, false),
        tokens in prop::collection::vec(any::<u32>(), 0..4),
        seed in any::<u64>(),
    ) {
        check(&adj, &tokens, seed)?;
    }

    /// One number of a good file replaced by a bad token, dropped, or one added at the end.
    #[test]
    fn broken_judge_files_give_the_one_process_error(
        adj in graphs(12, 30, false),
        seed in any::<u64>(),
        at in any::<prop::sample::Index>(),
        how in 0..6usize,
    ) {
        let text = judge_text(&adj, &[0], seed);
        let header_end = text.find('\n').unwrap();
        let (header, body) = text.split_at(header_end);
        let mut numbers: Vec<String> =
            body.split_ascii_whitespace().map(str::to_owned).collect();
        let i = at.index(numbers.len());
        let n = adj.len();
        match how {
            0 => numbers[i] = "0".into(),
            1 => numbers[i] = (n + 1).to_string(),
            2 => numbers[i] = "7x".into(),
            3 => numbers[i] = "99999999999999999999999".into(),
            4 => {
                numbers.remove(i);
            }
            _ => numbers.push("1".into()),
        }
        check_broken(&format!("{header}\n{}\n", numbers.join(" ")))?;
    }
}

#[test]
fn a_larger_file_over_many_workers_and_rounds() {
    // 3000 vertices, about 9000 edges, cycles, 5 tokens.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let n = 3000u32;
    let adj: Adj = (0..n)
        .map(|v| {
            (0..next() % 6)
                .map(|_| {
                    let r = next();
                    if r % 40 == 0 || v == 0 {
                        (r >> 8) as u32 % n
                    } else {
                        (r >> 8) as u32 % v
                    }
                })
                .collect()
        })
        .collect();
    let tokens = [5, 17, 2999, 1000, 0];
    let text = judge_text(&adj, &tokens, 7);
    let path = write(&text);
    let (outcome, value, _) = one(&text);
    for (workers, per_round) in [(4, 1000), (7, 1 << 20), (8, 13)] {
        let answer = many(&path, workers, per_round).unwrap();
        assert_eq!((answer.outcome, &answer.value), (outcome, &value));
    }
    std::fs::remove_file(path).unwrap();
}

#[test]
fn tokens_alone_and_more_workers_than_bytes() {
    for (text, expected) in [
        ("1 0 0", Outcome::P),
        ("1 0 1 1", Outcome::P),
        ("2 1 1 1 2 1", Outcome::N),
        ("2 2 1\n1 2\n2 1\n1\n", Outcome::Draw),
        // 1 and 2 are ∞({0}) (a cycle, both can move to 3 of value 0), 4 is 1.
        ("4 5 2  1 2  2 1  1 3  2 3  4 3  1 3", Outcome::N),
        ("4 5 2  1 2  2 1  1 3  2 3  4 3  1 4", Outcome::Draw),
        ("4 5 2  1 2  2 1  1 3  2 3  4 3  1 2", Outcome::Draw),
    ] {
        let path = write(text);
        assert_eq!(one(text).0, expected, "{text}");
        for workers in [1, 3, 16] {
            let answer = many(&path, workers, 1).unwrap();
            assert_eq!(answer.outcome, expected, "{text} with {workers} workers");
        }
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn a_share_too_large_is_refused_before_reading() {
    let path = write("4000000000 4000000000 0\n");
    let small = ReadOptions { max_bytes: 1 << 30 };
    let refused = JudgeFile::open(&path, &small, 4).unwrap_err().to_string();
    assert!(refused.contains("a share of a graph of"), "{refused}");
    assert!(JudgeFile::open(&path, &ReadOptions::default(), 1).is_err());
    std::fs::remove_file(path).unwrap();
}
