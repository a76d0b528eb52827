//! `grundy census --cluster`: real processes on loopback. Three processes (two workers each)
//! write the database one process writes; a peer that never comes up, a hosts file that does
//! not parse, an index out of range, different worker counts and a peer killed mid-run each
//! stop every process with a clear message and a non-zero status, within a bounded time.

use crate::common::{grundy, scratch, stderr};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `n` loopback addresses on ports free a moment ago.
pub(crate) fn hosts(dir: &Path, n: usize) -> (String, Vec<String>) {
    let listeners: Vec<_> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let addresses: Vec<String> = listeners
        .iter()
        .map(|l| l.local_addr().unwrap().to_string())
        .collect();
    drop(listeners);
    let path = dir.join("hosts.txt");
    let text = format!("# the test's processes\n{}\n", addresses.join("\n"));
    std::fs::write(&path, text).unwrap();
    (path.display().to_string(), addresses)
}

pub(crate) fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Waits for `child` at most `limit` (reading its output meanwhile, so a long answer
/// cannot block it on a full pipe); kills it and fails past that.
pub(crate) fn finish(child: Child, limit: Duration, what: &str) -> (Output, Duration) {
    let started = Instant::now();
    let pid = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    match receiver.recv_timeout(limit) {
        Ok(out) => (out.unwrap(), started.elapsed()),
        Err(_) => {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            let out = receiver.recv().unwrap().unwrap();
            panic!("{what}: still running after {limit:?}: {}", stderr(&out));
        }
    }
}

/// Every row of the tables, without the columns that record when and how long.
fn content(db: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut out = Vec::new();
    for query in [
        "SELECT code, status, target, computed_to, engine, period, preperiod, saltus, proof, \
         last_exceptional, max_value, max_value_heap, p_positions, first_values, checksum, \
         rare_mask, rare_values, rare_count, last_rare, reason FROM games ORDER BY code",
        "SELECT code, length, checksum FROM checksums ORDER BY code, length",
        "SELECT code, max_heap, status, computed_to, quotient_order, p_portion, period, \
         preperiod, period_proven, reason FROM misere ORDER BY code",
    ] {
        let mut stmt = conn.prepare(query).unwrap();
        let columns = stmt.column_count();
        let rows = stmt
            .query_map([], |r| {
                Ok((0..columns)
                    .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                    .collect::<Vec<_>>()
                    .join("|"))
            })
            .unwrap();
        out.extend(rows.map(Result::unwrap));
    }
    out
}

#[test]
fn three_processes_write_what_one_process_writes() {
    let dir = scratch("cluster-three");
    let (hosts, _) = hosts(&dir, 3);
    let alone = dir.join("alone.sqlite");
    let spread = dir.join("spread.sqlite");
    let _ = std::fs::remove_file(&alone);
    let _ = std::fs::remove_file(&spread);
    let census = ["census", "0.??", "--to", "2000", "--misere", "6"];
    let one = grundy(&[&census[..], &["--db", alone.to_str().unwrap()]].concat());
    assert!(one.status.success(), "{}", stderr(&one));

    let cluster = |i: &'static str| {
        let mut args: Vec<&str> = census.to_vec();
        args.extend(["--cluster", &hosts, "--process", i, "--workers", "2"]);
        if i == "0" {
            args.extend(["--db", spread.to_str().unwrap()]);
        }
        spawn(&args)
    };
    let peers = [cluster("1"), cluster("2")];
    let (zero, _) = finish(cluster("0"), Duration::from_secs(120), "process 0");
    assert!(zero.status.success(), "{}", stderr(&zero));
    let text = String::from_utf8_lossy(&zero.stdout).to_string();
    assert!(text.contains("computed 63 in"), "{text}");
    assert!(
        text.contains("misère quotients of heaps 1 to 6: 63 computed"),
        "{text}"
    );
    for (i, peer) in peers.into_iter().enumerate() {
        let (out, _) = finish(peer, Duration::from_secs(30), "a peer");
        assert!(out.status.success(), "process {}: {}", i + 1, stderr(&out));
        assert!(out.stdout.is_empty(), "process {} printed", i + 1);
    }
    let (a, b) = (content(&alone), content(&spread));
    assert!(a.len() > 63 * 2, "{}", a.len());
    assert_eq!(a, b, "the cluster's database differs from one process's");

    // Run again: every game is known, nothing is computed.
    let peers = [cluster("1"), cluster("2")];
    let (zero, _) = finish(cluster("0"), Duration::from_secs(60), "process 0 again");
    assert!(String::from_utf8_lossy(&zero.stdout).contains("computed 0 in"));
    for peer in peers {
        assert!(
            finish(peer, Duration::from_secs(30), "a peer")
                .0
                .status
                .success()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_configurations_stop_every_process_by_name() {
    let dir = scratch("cluster-bad");
    let (hosts_file, addresses) = hosts(&dir, 2);
    let db = dir.join("atlas.sqlite").display().to_string();
    let base = ["census", "0.?", "--to", "100", "--db", &db];

    // A peer that never comes up: the deadline, naming it.
    let out = spawn(
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
    let (out, took) = finish(out, Duration::from_secs(20), "a lonely process 0");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "process 0: no connection with process 1 ({}) within 2 s",
            addresses[1]
        )),
        "{}",
        stderr(&out)
    );
    assert!(took < Duration::from_secs(15), "{took:?}");

    // Different numbers of workers: both refuse, naming the flag.
    let one = spawn(&[&base[..], &["--cluster", &hosts_file, "--process", "1"]].concat());
    let zero = spawn(
        &[
            &base[..],
            &["--cluster", &hosts_file, "--process", "0", "--workers", "2"],
        ]
        .concat(),
    );
    for (out, what) in [(zero, "process 0"), (one, "process 1")] {
        let (out, _) = finish(out, Duration::from_secs(40), what);
        assert_eq!(out.status.code(), Some(1), "{what}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("the same --workers"),
            "{}",
            stderr(&out)
        );
    }

    // A hosts file that does not parse, an index out of range: bad input, status 2.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "127.0.0.1:7000\nlocalhost\n").unwrap();
    let out = grundy(
        &[
            &base[..],
            &["--cluster", bad.to_str().unwrap(), "--process", "0"],
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("bad.txt:2: `localhost` is not host:port"),
        "{}",
        stderr(&out)
    );
    let out = grundy(&[&base[..], &["--cluster", &hosts_file, "--process", "5"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("process 5 is out of range: the hosts file names 2 processes"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A peer killed mid-run: process 0 stops within seconds with a clear message and status 1,
/// keeping every game it wrote; the same census alone then continues from there.
#[test]
fn a_peer_killed_mid_run_stops_the_census() {
    let dir = scratch("cluster-kill");
    let (hosts_file, _) = hosts(&dir, 2);
    let db = dir.join("atlas.sqlite");
    let _ = std::fs::remove_file(&db);
    let db_text = db.display().to_string();
    let base = ["census", "0.???", "--to", "100000", "--max-seconds", "2"];
    let mut one = spawn(&[&base[..], &["--cluster", &hosts_file, "--process", "1"]].concat());
    let zero = spawn(
        &[
            &base[..],
            &["--cluster", &hosts_file, "--process", "0", "--db", &db_text],
        ]
        .concat(),
    );
    std::thread::sleep(Duration::from_secs(3));
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
    assert!(
        stderr(&out).contains("the cluster stopped: a connection to another process broke"),
        "{}",
        stderr(&out)
    );
    // What process 0 wrote is a valid atlas, its run ended as failed (not left running), and
    // a census alone goes on from it.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let written: i64 = conn
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(run_statuses(&conn), ["failed"]);
    drop(conn);
    let out = grundy(&["census", "0.?", "--to", "50", "--db", &db_text]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(written < 512, "{written}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The status of every run, oldest first.
fn run_statuses(conn: &rusqlite::Connection) -> Vec<String> {
    let mut stmt = conn.prepare("SELECT status FROM runs ORDER BY id").unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Ctrl-C (SIGINT) on process 0 mid-run: no more games go out, the games in flight come back
/// and are written, the run ends as interrupted with status 130, the other process ends
/// cleanly, and the same census run again alone continues without recomputing.
#[test]
fn ctrl_c_on_process_0_ends_the_run_as_interrupted() {
    let dir = scratch("cluster-sigint");
    let (hosts_file, _) = hosts(&dir, 2);
    let db = dir.join("atlas.sqlite");
    let _ = std::fs::remove_file(&db);
    let db_text = db.display().to_string();
    let base = ["census", "0.???", "--to", "100000", "--max-seconds", "2"];
    let one = spawn(&[&base[..], &["--cluster", &hosts_file, "--process", "1"]].concat());
    let zero = spawn(
        &[
            &base[..],
            &["--cluster", &hosts_file, "--process", "0", "--db", &db_text],
        ]
        .concat(),
    );
    std::thread::sleep(Duration::from_secs(3));
    let sent = std::process::Command::new("kill")
        .args(["-INT", &zero.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let (out, _) = finish(zero, Duration::from_secs(60), "process 0 after Ctrl-C");
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("run the same census again to continue"),
        "{}",
        stderr(&out)
    );
    let (out, _) = finish(
        one,
        Duration::from_secs(60),
        "process 1 after process 0 stopped",
    );
    assert!(out.status.code().is_some(), "{}", stderr(&out));
    let conn = rusqlite::Connection::open(&db).unwrap();
    assert_eq!(run_statuses(&conn), ["interrupted"]);
    let written: i64 = conn
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .unwrap();
    drop(conn);
    assert!(written > 0 && written < 511, "{written}");
    // Alone, the same census skips what was written.
    let out = grundy(&[
        "census",
        "0.?",
        "--to",
        "100000",
        "--max-seconds",
        "2",
        "--db",
        &db_text,
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}
