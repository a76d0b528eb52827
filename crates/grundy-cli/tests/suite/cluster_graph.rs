//! `grundy graph --workers / --cluster`: the distributed solver through the real binary, in
//! real processes on loopback. The answers (text, JSON, the judge's word, an explored game)
//! are byte for byte those of one process; a peer that never comes up, a peer killed
//! mid-run and Ctrl-C on a peer stop every process with a clear message and a non-zero
//! status within a bounded time.

use crate::cluster::{finish, hosts, spawn};
use crate::common::{grundy, scratch, stderr};
use std::path::Path;
use std::time::{Duration, Instant};

/// A random edge list on `n` vertices: mostly edges down (so long paths), a few up (cycles
/// when `loopy`), some vertices without moves declared alone.
fn edge_list(n: u64, loopy: bool, mut seed: u64) -> String {
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut text = String::new();
    for v in 0..n {
        for _ in 0..next() % 5 {
            let r = next();
            let w = if loopy && r % 4 == 0 {
                (r >> 8) % n
            } else if v > 0 {
                (r >> 8) % v
            } else {
                continue;
            };
            text.push_str(&format!("p{v} p{w}\n"));
        }
        if v % 37 == 0 {
            text.push_str(&format!("p{v}\n"));
        }
    }
    text
}

/// The judge format of the same kind of graph, with three tokens.
fn judge(n: u64, seed: u64) -> String {
    let edges: Vec<(u64, u64)> = edge_list(n, true, seed)
        .lines()
        .filter_map(|l| {
            let (a, b) = l.split_once(' ')?;
            Some((a[1..].parse().ok()?, b[1..].parse().ok()?))
        })
        .collect();
    let mut text = format!("{n} {} 3\n", edges.len());
    for (a, b) in edges {
        text.push_str(&format!("{} {}\n", a + 1, b + 1));
    }
    text.push_str(&format!("1 {} {}\n", n / 2, n));
    text
}

/// Runs `args` over `processes` processes of `workers` workers each; process 0's output,
/// after checking that the others succeeded and printed nothing.
fn on_cluster(dir: &Path, args: &[&str], processes: usize, workers: usize) -> String {
    let (hosts_file, _) = hosts(dir, processes);
    let w = workers.to_string();
    let run = |i: usize| {
        let i = i.to_string();
        let extra = ["--cluster", &hosts_file, "--process", &i, "--workers", &w];
        spawn(&[args, &extra[..]].concat())
    };
    let peers: Vec<_> = (1..processes).map(run).collect();
    let (zero, _) = finish(run(0), Duration::from_secs(120), "process 0");
    assert!(zero.status.success(), "{args:?}: {}", stderr(&zero));
    assert!(
        stderr(&zero).contains(&format!(
            "solved by {} workers in {processes} processes in ",
            processes * workers
        )),
        "{}",
        stderr(&zero)
    );
    for peer in peers {
        let (out, _) = finish(peer, Duration::from_secs(30), "a peer");
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "a peer printed an answer");
    }
    String::from_utf8(zero.stdout).unwrap()
}

#[test]
fn processes_and_workers_answer_as_one_process() {
    let dir = scratch("cluster-graph");
    let loopy = dir.join("loopy.txt");
    let acyclic = dir.join("acyclic.txt");
    let judged = dir.join("judge.txt");
    std::fs::write(&loopy, edge_list(3000, true, 5)).unwrap();
    std::fs::write(&acyclic, edge_list(3000, false, 6)).unwrap();
    std::fs::write(&judged, judge(2000, 7)).unwrap();
    let walk = dir.join("walk.rhai");
    std::fs::write(&walk, WALK).unwrap();
    let (loopy, acyclic, judged, walk) = (
        loopy.to_str().unwrap(),
        acyclic.to_str().unwrap(),
        judged.to_str().unwrap(),
        walk.to_str().unwrap(),
    );
    let cases: [&[&str]; 9] = [
        // Edge lists in files, plain or --json: read in parts.
        &["graph", loopy],
        &["graph", acyclic, "--json"],
        &["graph", loopy, "--json", "--tokens", "p10,p2999"],
        &["graph", acyclic, "--tokens", "p2999 p1000 p5"],
        &["graph", judged, "--format", "judge"],
        &["graph", "--expr", "0.137 9 + wythoff 2 3", "--json"],
        // Explored in parts: the start's answer.
        &["graph", "--expr", "0.137 9 + wythoff 2 3", "--start"],
        &[
            "graph",
            "--rules",
            walk,
            "--expr",
            "walk 4 + nim 2",
            "--start",
        ],
        &[
            "graph",
            "--rules",
            walk,
            "--expr",
            "walk 1 2 + nim 1",
            "--start",
        ],
    ];
    for args in cases {
        let one = grundy(args);
        assert!(one.status.success(), "{args:?}: {}", stderr(&one));
        let expected = String::from_utf8(one.stdout).unwrap();
        assert!(expected.len() > 3, "{args:?}: {expected}");
        let two = grundy(&[args, &["--workers", "2"][..]].concat());
        assert!(two.status.success(), "{args:?}: {}", stderr(&two));
        assert_eq!(String::from_utf8(two.stdout).unwrap(), expected, "{args:?}");
        for (processes, workers) in [(2, 1), (2, 2), (3, 1), (3, 2)] {
            let spread = on_cluster(&dir, args, processes, workers);
            assert_eq!(spread, expected, "{args:?} on {processes} x {workers}");
        }
    }
    // The loopy graph has draws and ∞ values, the acyclic one none: both kinds were met.
    let text = String::from_utf8(grundy(&["graph", loopy]).stdout).unwrap();
    assert!(
        text.contains("with cycles") && text.contains("∞("),
        "{text}"
    );
    // So were a loopy start with `∞(K)` and one with a finite value.
    let start = |expr: &str| {
        let out = grundy(&["graph", "--rules", walk, "--expr", expr, "--start"]);
        String::from_utf8(out.stdout).unwrap()
    };
    let (infinite, finite) = (start("walk 4 + nim 2"), start("walk 1 2 + nim 1"));
    assert!(
        infinite.contains("with cycles") && infinite.contains("∞(3)"),
        "{infinite}"
    );
    assert!(
        finite.contains("with cycles") && !finite.contains("∞("),
        "{finite}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A loopy heap rule: heap `n` moves to `n - 1`, and `n + 2` when `n mod 3 = 1` below 20.
const WALK: &str = "const NAME = \"walk\";\nconst SUMMARY = \"a loopy walk\";\nconst EXAMPLE = \
                    \"walk 5\";\nconst HEAP = true;\nfn moves(n) {\n    let out = [];\n    if n > 0 \
                    { out.push(n - 1); }\n    if n % 3 == 1 && n < 20 { out.push(n + 2); }\n    \
                    out\n}\n";

/// A chain of `n` vertices: as many steps as vertices when they alternate between workers,
/// so a run of several seconds.
fn chain(dir: &Path, n: u64) -> String {
    let path = dir.join("chain.txt");
    let mut text = format!("{n} {} 1\n", n - 1);
    for v in 2..=n {
        text.push_str(&format!("{v} {}\n", v - 1));
    }
    text.push_str(&format!("{n}\n"));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn a_peer_that_fails_stops_every_process() {
    let dir = scratch("cluster-graph-faults");
    let file = chain(&dir, 400_000);
    let base = ["graph", &file, "--format", "judge"];

    // A peer that never comes up: process 0 names it when the deadline passes.
    let (hosts_file, addresses) = hosts(&dir, 2);
    let lonely = spawn(
        &[
            &base[..],
            &[
                "--cluster",
                &hosts_file,
                "--process",
                "0",
                "--connect-timeout",
                "2",
            ],
        ]
        .concat(),
    );
    let (out, took) = finish(lonely, Duration::from_secs(30), "a process alone");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(took < Duration::from_secs(15), "{took:?}");
    assert!(
        stderr(&out).contains(&format!("no connection with process 1 ({})", addresses[1])),
        "{}",
        stderr(&out)
    );

    // Processes that loaded different graphs: every one refuses, naming the difference.
    let other = dir.join("other.txt");
    std::fs::write(&other, "3 2 1\n1 2\n2 3\n1\n").unwrap();
    let other = other.display().to_string();
    let mismatched = [
        spawn(&[
            "graph",
            &other,
            "--format",
            "judge",
            "--cluster",
            &hosts_file,
            "--process",
            "1",
        ]),
        spawn(&[
            "graph",
            &file,
            "--format",
            "judge",
            "--cluster",
            &hosts_file,
            "--process",
            "0",
        ]),
    ];
    for child in mismatched {
        let (out, _) = finish(child, Duration::from_secs(60), "a process of another graph");
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
        assert!(
            stderr(&out).contains(
                "process 1 loaded another graph (3 vertices, 2 edges) than process 0 (400000 \
                 vertices, 399999 edges): every process needs the same input"
            ),
            "{}",
            stderr(&out)
        );
    }
    // Test cases are answered one by one in one thread.
    let out = grundy(&[
        "graph",
        "--format",
        "judge",
        "--cases",
        &file,
        "--workers",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));

    // A peer killed mid-run: process 0 stops within seconds, printing no answer.
    let cluster =
        |i: &str| spawn(&[&base[..], &["--cluster", &hosts_file, "--process", i]].concat());
    let mut one = cluster("1");
    let zero = cluster("0");
    std::thread::sleep(Duration::from_secs(2));
    one.kill().unwrap();
    let _ = one.wait();
    let killed = Instant::now();
    let (out, _) = finish(
        zero,
        Duration::from_secs(60),
        "process 0 after its peer died",
    );
    assert!(
        killed.elapsed() < Duration::from_secs(20),
        "{:?}",
        killed.elapsed()
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "an answer was printed");
    assert!(
        stderr(&out).contains("the cluster stopped"),
        "{}",
        stderr(&out)
    );

    // Ctrl-C on a peer: every process stops at its next step, status 130.
    let one = cluster("1");
    let zero = cluster("0");
    std::thread::sleep(Duration::from_secs(2));
    let sent = std::process::Command::new("kill")
        .args(["-INT", &one.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let sigint = Instant::now();
    for (child, which) in [(zero, "process 0"), (one, "process 1")] {
        let (out, _) = finish(child, Duration::from_secs(60), which);
        assert_eq!(out.status.code(), Some(130), "{which}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{which} printed an answer");
        assert!(stderr(&out).contains("interrupted"), "{}", stderr(&out));
    }
    assert!(
        sigint.elapsed() < Duration::from_secs(20),
        "{:?}",
        sigint.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A judge file read in parts: a bad number is refused by every process with the message of
/// one process (line and column), status 2; a share too large for --max-memory is refused
/// before any connection, naming the figure.
#[test]
fn a_broken_judge_file_is_refused_alike_by_every_process() {
    let dir = scratch("cluster-graph-broken");
    let path = dir.join("broken.txt");
    let mut text = judge(2000, 9);
    text.push_str("  2001\n");
    std::fs::write(&path, &text).unwrap();
    let file = path.display().to_string();
    let args = ["graph", file.as_str(), "--format", "judge"];
    let one = grundy(&args);
    assert_eq!(one.status.code(), Some(2), "{}", stderr(&one));
    let message = stderr(&one);
    assert!(message.contains("unexpected `2001` after the"), "{message}");
    let two = grundy(&[&args[..], &["--workers", "2"]].concat());
    assert_eq!(two.status.code(), Some(2), "{}", stderr(&two));
    assert_eq!(stderr(&two), message);
    let (hosts_file, _) = hosts(&dir, 2);
    let run = |i: &str| spawn(&[&args[..], &["--cluster", &hosts_file, "--process", i]].concat());
    let children = [run("1"), run("0")];
    for child in children {
        let (out, _) = finish(child, Duration::from_secs(60), "a process of a broken file");
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
        assert_eq!(stderr(&out), message);
    }
    // An edge list with a bad line near its end: the same message from every reader.
    let edges = dir.join("broken-edges.txt");
    let mut text = edge_list(2000, true, 4);
    text.push_str("p1 p2 p3\n");
    std::fs::write(&edges, &text).unwrap();
    let edges = edges.display().to_string();
    let one = grundy(&["graph", &edges]);
    assert_eq!(one.status.code(), Some(2), "{}", stderr(&one));
    let message = stderr(&one);
    assert!(message.contains("found a third field `p3`"), "{message}");
    let two = grundy(&["graph", &edges, "--workers", "3"]);
    assert_eq!(stderr(&two), message);
    let run = |i: &str| spawn(&["graph", &edges, "--cluster", &hosts_file, "--process", i]);
    for child in [run("1"), run("0")] {
        let (out, _) = finish(child, Duration::from_secs(60), "a process of a broken list");
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
        assert_eq!(stderr(&out), message);
    }
    std::fs::write(&path, "4000000000 4000000000 0\n").unwrap();
    let out = grundy(&[&args[..], &["--workers", "2", "--max-memory", "1024"]].concat());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("a share of a graph of 4000000000 vertices"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_too_large_is_refused_alike_by_every_process() {
    let dir = scratch("cluster-graph-explore");
    let args = [
        "graph",
        "--expr",
        "nim 9 9 9",
        "--start",
        "--max-positions",
        "100",
    ];
    let one = grundy(&args);
    assert_eq!(one.status.code(), Some(1), "{}", stderr(&one));
    let message = stderr(&one);
    assert!(
        message.contains("more than 100 positions are reachable"),
        "{message}"
    );
    let two = grundy(&[&args[..], &["--workers", "2"]].concat());
    assert_eq!(two.status.code(), Some(1), "{}", stderr(&two));
    assert_eq!(stderr(&two), message);
    let (hosts_file, _) = hosts(&dir, 2);
    let run = |i: &str| spawn(&[&args[..], &["--cluster", &hosts_file, "--process", i]].concat());
    let children = [run("1"), run("0")];
    for child in children {
        let (out, _) = finish(child, Duration::from_secs(60), "a process of a large game");
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
        assert_eq!(stderr(&out), message);
    }
    // Processes that explore different games stop, saying so.
    let (hosts_file, _) = hosts(&dir, 2);
    let with = |i: &str, expr: &str| {
        let extra = ["--cluster", &hosts_file, "--process", i];
        spawn(&[&["graph", "--start", "--expr", expr][..], &extra[..]].concat())
    };
    let children = [with("1", "nim 3 4"), with("0", "nim 3 5")];
    for child in children {
        let (out, _) = finish(child, Duration::from_secs(60), "a process of another game");
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
        assert!(
            stderr(&out).contains("process 1 explores another game than process 0"),
            "{}",
            stderr(&out)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A judge input through a FIFO (or a pipe) is read whole, as one stream, even with
/// several workers: it cannot be read in parts.
#[cfg(unix)]
#[test]
fn a_judge_file_through_a_fifo_is_read_whole() {
    let dir = scratch("cluster-graph-fifo");
    let fifo = dir.join("judge.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let text = judge(500, 11);
    let plain = dir.join("judge.txt");
    std::fs::write(&plain, &text).unwrap();
    let expected = grundy(&["graph", plain.to_str().unwrap(), "--format", "judge"]);
    assert!(expected.status.success(), "{}", stderr(&expected));
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, text).unwrap())
    };
    let out = grundy(&[
        "graph",
        fifo.to_str().unwrap(),
        "--format",
        "judge",
        "--workers",
        "2",
    ]);
    writer.join().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(out.stdout, expected.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}
