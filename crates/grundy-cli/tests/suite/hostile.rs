//! End-to-end: the newer commands under hostile input (`quotient`, `play`, `serve`, `--rules`,
//! `draw`, `sequence --misere`, `graph --kernel`, heap sequences inside `analyze`). Every
//! case gets a clear message naming what and where, a non-zero status, no panic, and bounded
//! time and memory under the default limits. Each test is a finding of the sweep, fixed.

use crate::common;
use crate::common::server;

use common::{grundy, grundy_with_bytes, grundy_with_input, scratch, stderr, stdout};
use serde_json::json;
use server::Server;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `grundy args`, sends SIGINT after `after`, and returns its output.
fn interrupted_after(args: &[&str], after: Duration) -> std::process::Output {
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(after);
    common::send_signal(child.id(), "-INT");
    child.wait_with_output().unwrap()
}

fn assert_refused(o: &std::process::Output, code: i32, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{err}");
    for n in needles {
        assert!(err.contains(n), "no {n:?} in: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

// ---- quotient ----

#[test]
fn quotient_refuses_bad_rules_and_bounds_with_their_place() {
    assert_refused(&grundy(&["quotient", "0.7x"]), 2, &["`x`", "position 3"]);
    assert_refused(&grundy(&["quotient", "nim"]), 2, &["not a heap rule"]);
    assert_refused(&grundy(&["quotient", ""]), 2, &["empty"]);
    assert_refused(
        &grundy(&["quotient", "0.75", "--max-heap", "18446744073709551615"]),
        2,
        &["4096", "--max-heap"],
    );
    assert_refused(
        &grundy(&["quotient", "0.75", "--max-heap", "-3"]),
        2,
        &["'-3'"],
    );
}

#[test]
fn a_huge_quotient_stops_at_the_work_limit() {
    // Grundy's game and a 5000-digit code: before the fix the misère searches were charged
    // a unit per option, some 1–2 µs each, and ran for minutes under the default limit.
    // (Heaps to 24 of Grundy's game now fit: heaps of an already verified type cost no new
    // verification; heaps to 40 do not.)
    let o = grundy(&[
        "quotient",
        "grundys-game",
        "--max-heap",
        "40",
        "--max-work",
        "2000000",
    ]);
    assert_refused(&o, 1, &["2000000", "work limit", "--max-work"]);
    // The quotient's candidates built from its structure now answer the 5000-digit code
    // within the limit; whichever way it ends, nothing quotes the 5000 digits back.
    let long_code = format!("0.{}", "7".repeat(5000));
    let o = grundy(&["quotient", &long_code, "--max-work", "2000000"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    assert!(stderr(&o).len() < 1000, "{}", stderr(&o).len());
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn a_quotient_stopped_by_the_position_limit_names_that_flag() {
    // Before the fix every budget refusal of `quotient` said "raise it with --max-work",
    // the position limit's too (and `quotient` had no flag to raise that limit).
    let o = grundy(&[
        "quotient",
        "0.137",
        "--max-heap",
        "40",
        "--max-positions",
        "50",
    ]);
    assert_refused(&o, 1, &["50", "position limit", "--max-positions"]);
    assert!(!stderr(&o).contains("--max-work"), "{}", stderr(&o));
}

#[test]
fn quotient_stops_on_ctrl_c() {
    // Before the fix SIGINT killed it silently (no handler, no message).
    let o = interrupted_after(
        // A work limit far above what 1.5 s can spend: the refusal would come first otherwise.
        &[
            "quotient",
            "0.137",
            "--max-heap",
            "4096",
            "--max-work",
            "100000000000",
        ],
        Duration::from_millis(1500),
    );
    assert_refused(&o, 130, &["interrupted"]);
}

// ---- sequence --misere ----

#[test]
fn misere_sequence_on_a_huge_to_stops_on_ctrl_c_with_what_it_finished() {
    let o = interrupted_after(
        &[
            "sequence",
            "kayles",
            "--misere",
            "--to",
            "18446744073709551615",
            // A work limit far out of reach: the run must be stopped by the signal, not by
            // the default limit (reached in about 2 s on an idle machine).
            "--max-work",
            "1000000000000",
        ],
        Duration::from_millis(4000),
    );
    assert_refused(&o, 130, &["interrupted"]);
    let out = stdout(&o);
    assert!(out.starts_with("Genus of kayles heaps"), "{out}");
    // Heap 5 is Kayles' first wild heap (Winning Ways): it was finished before the signal.
    assert!(out.contains("heap 5 is the first wild one"), "{out}");
}

// ---- analyze --misere: the search of a whole sum ----

#[test]
fn a_misere_search_whose_positions_grow_meets_the_limits() {
    // A heap of 0.4= splits in two equal heaps, each of those in two, and so on: the search's
    // positions gain a component with every move. Before the fix their size was not counted,
    // and this took 24 GB in 60 s until the kernel killed it.
    let sum = "0.4= 4294967295 + node-kayles 1-2 2-3";
    assert_refused(
        &grundy(&["analyze", sum, "--misere"]),
        1,
        &["the work limit"],
    );
    assert_refused(
        &grundy(&[
            "analyze",
            sum,
            "--misere",
            "--max-work",
            "100000000000",
            "--max-memory",
            "256",
        ]),
        1,
        &["memory limit of 256 MiB", "--max-memory"],
    );
}

#[test]
fn a_misere_search_over_big_components_meets_the_memory_limit() {
    // The search interns every component it meets by its text: 100×100 Cram boards (10 KB
    // of text, 19,800 moves each) passed 6 GB in 6 s before the interner was counted.
    assert_refused(
        &grundy(&[
            "analyze",
            "cram 100x100 + nim 1",
            "--misere",
            "--max-memory",
            "256",
        ]),
        1,
        &["memory limit of 256 MiB", "--max-memory"],
    );
}

#[test]
fn a_misere_sum_with_a_component_whose_moves_cannot_be_listed_is_refused() {
    // wythoff 10^6 10^6 has 3·10^6 moves, more than a move list may hold. The tame-rule
    // route used to read it as a position without moves once its listing failed, and
    // answered "P" with the genus 0^120 (its normal value is not 0); it is refused, naming
    // the component, as the search after that route refuses it.
    let o = grundy(&["analyze", "wythoff 1000000 1000000 + nim 1", "--misere"]);
    assert_refused(&o, 1, &["wythoff 1000000 1000000: too many moves to list"]);
    assert!(!stdout(&o).contains("0^120"), "{}", stdout(&o));
}

// ---- under a process memory limit ----

/// The binary run with `args` under an address-space limit of `kib` KiB (`ulimit -v`).
fn grundy_under_address_limit(kib: u64, args: &[&str]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_sequence_past_the_address_space_limit_is_refused_not_aborted() {
    // Under `ulimit -v` the machine's free memory is not what the process may take: the run
    // was sized by the first and aborted on a failed allocation of 8 GiB (found by the
    // sweep, `sequence half --to 4294967296` under a 6 GB cap). It is refused up front.
    let o = grundy_under_address_limit(3_000_000, &["sequence", "half", "--to", "4294967294"]);
    assert_refused(&o, 2, &["needs about 8.0 GiB of memory", "available"]);
}

#[test]
fn an_analysis_past_the_address_space_limit_is_refused_not_aborted() {
    // The memory limit defaulted to 4 GiB whatever the process could map: under a 1.5 GB
    // cap this analysis aborted on a failed allocation (exit 134). Without --max-memory the
    // limit is now at most half the memory available, and the table is refused by it.
    let o = grundy_under_address_limit(1_500_000, &["analyze", "cram 100x100 + nim 1", "--misere"]);
    assert_refused(&o, 1, &["cram 100x100", "more than the memory limit of"]);
}

#[test]
fn the_notes_of_a_huge_chomp_l_answer_under_the_address_space_limit() {
    // Issue 41: the mex table listed all 2^64 moves of this L (the sum of its squares wrapped
    // to 0, so nothing was charged) and aborted at 4.6 GB. An L is two Nim heaps: value
    // (2^64 − 2) ⊕ 1, and no table.
    for (expr, value) in [
        ("chomp 18446744073709551615,1", "18446744073709551615"),
        ("chomp 18446744073709551615,1,1", "18446744073709551612"),
    ] {
        let started = std::time::Instant::now();
        let o = grundy_under_address_limit(6_000_000, &["analyze", expr]);
        assert!(o.status.success(), "{expr}: {:?} {}", o.status, stderr(&o));
        let out = stdout(&o);
        assert!(out.contains(&format!("Value     {value}")), "{expr}: {out}");
        assert!(!out.contains("Why chomp"), "{expr}: {out}");
        assert!(
            started.elapsed().as_secs() < 60,
            "{expr}: {:?}",
            started.elapsed()
        );
    }
    // And in the JSON form, with its notes.
    let o = grundy_under_address_limit(
        6_000_000,
        &["analyze", "chomp 18446744073709551615,1", "--json"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

// ---- play ----

#[test]
fn play_survives_garbage_non_utf8_and_overlong_lines() {
    let mut input = Vec::new();
    input.extend_from_slice(b"garbage\n99\n0\n-1\nnim 1 2\n18446744073709551616\n");
    input.extend_from_slice(b"\xff\xfe\x00 not text\n");
    input.extend(std::iter::repeat_n(b'1', 2 << 20));
    input.extend_from_slice(b"\nhint\n2\n");
    let o = grundy_with_bytes(&["play", "nim 3 4 5"], &input);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("unknown rule `garbage`"), "{out}");
    assert!(out.contains("there is no move 99"), "{out}");
    assert!(out.contains("there is no move 0"), "{out}");
    assert!(
        out.contains("nim 1 2 is not one move away from nim 3 4 5"),
        "{out}"
    );
    assert!(out.contains("Line ignored: it is not UTF-8 text."), "{out}");
    assert!(
        out.contains("Line ignored: it is longer than 1048576 bytes"),
        "{out}"
    );
    // The game went on after all that: the hint, then the winning move 3 -> 1 played.
    assert!(out.contains("Hint: N"), "{out}");
    assert!(out.contains("You: 3 -> 1 in nim 3"), "{out}");
    assert!(out.trim_end().ends_with("Bye."), "{out}");
}

#[test]
fn play_reads_a_line_without_end_in_bounded_memory() {
    // 50 MB with no newline: skipped as too long, then the end of input ends the game.
    let o = grundy_with_bytes(&["play", "nim 3"], &vec![0u8; 50 << 20]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Line ignored: it is longer than"), "{out}");
    assert!(out.trim_end().ends_with("Bye."), "{out}");
}

#[test]
fn play_on_a_position_whose_move_list_is_too_large_goes_without_the_list() {
    // 100,000 heaps of 7: every move builds a position of 100,000 heaps. Before the fix the
    // listing was charged a unit a move and grew past 400 MB without answering; then it was
    // refused by the work limit; now the 700,000 moves are not listed and the game goes on
    // by typed positions (matched in one pass: a move typed here is checked at once).
    let heaps = "7 ".repeat(100_000);
    let input = format!("new nim {heaps}\nnim 6 {}\nquit\n", "7 ".repeat(99_999));
    let o = grundy_with_input(&["play", "nim 3"], &input);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("The moves are too many to list"),
        "{out:.2000}"
    );
    assert!(
        out.contains("You: 7 -> 6 in nim 7"),
        "{:.2000}",
        &out[out.len().saturating_sub(2000)..]
    );
    assert!(
        out.contains("Computer: "),
        "{:.2000}",
        &out[out.len().saturating_sub(2000)..]
    );
    assert!(out.trim_end().ends_with("Bye."));
}

// ---- analyze: heap sequences under the budget; winning moves; input size ----

#[test]
fn a_heap_sequence_inside_analyze_is_refused_by_the_work_limit() {
    let o = grundy(&[
        "analyze",
        "allbut(1) 32000 + nim 2",
        "--max-work",
        "10000000",
    ]);
    assert_refused(
        &o,
        1,
        &["allbut(1) 32000", "10000000", "work limit", "--max-work"],
    );
}

#[test]
fn many_winning_moves_are_listed_up_to_a_bound() {
    // 20,001 heaps of 7: a winning move in each, each leaving a 40 kB position (800 MB in
    // all before the fix).
    let dir = scratch("many-wins");
    let path = dir.join("nim.txt");
    std::fs::write(&path, format!("nim {}", "7 ".repeat(20_001))).unwrap();
    let o = grundy(&["analyze", "--json", "--file", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], 7);
    let listed = v["winning_moves"].as_array().unwrap().len();
    assert!(listed > 100 && listed < 20_001, "{listed}");
    let note = format!("{} more winning moves are not listed", 20_001 - listed);
    let explanation = v["explanation"].to_string();
    assert!(explanation.contains(&note), "{note}");
    assert!(o.stdout.len() < 40 << 20, "{} bytes", o.stdout.len());
}

#[test]
fn endless_inputs_are_refused_at_their_size() {
    assert_refused(
        &grundy(&["analyze", "--file", "/dev/zero"]),
        2,
        &["/dev/zero", "larger than 64 MiB"],
    );
    // Before the fix `--rules /dev/zero` read until it had taken 3 GB.
    assert_refused(
        &grundy(&["analyze", "--rules", "/dev/zero", "nim 3"]),
        2,
        &["--rules /dev/zero", "larger than 16 MiB"],
    );
}

// ---- rule scripts ----

#[test]
fn malformed_binary_and_huge_scripts_are_refused_with_their_place() {
    let dir = scratch("hostile-scripts");
    let binary = dir.join("binary.rhai");
    std::fs::write(&binary, [0x80u8, 0xff, 0x00, 0x41]).unwrap();
    assert_refused(
        &grundy(&["analyze", "--rules", binary.to_str().unwrap(), "nim 3"]),
        2,
        &["binary.rhai", "not UTF-8 text", "offset 0"],
    );
    let bad = dir.join("bad.rhai");
    std::fs::write(&bad, "const NAME = \"x\";\nfn moves(n) { [1, 2 }\n").unwrap();
    assert_refused(
        &grundy(&["analyze", "--rules", bad.to_str().unwrap(), "nim 3"]),
        2,
        &["bad.rhai:2:"],
    );
    let deep = dir.join("deep.rhai");
    std::fs::write(
        &deep,
        format!(
            "const NAME = \"x\";\nfn moves(n) {{ {} }}\n",
            "[".repeat(100_000)
        ),
    )
    .unwrap();
    assert_refused(
        &grundy(&["analyze", "--rules", deep.to_str().unwrap(), "nim 3"]),
        2,
        &["deep.rhai:2:"],
    );
    let huge = dir.join("huge.rhai");
    std::fs::write(&huge, vec![b' '; (16 << 20) + 1]).unwrap();
    assert_refused(
        &grundy(&["analyze", "--rules", huge.to_str().unwrap(), "nim 3"]),
        2,
        &["huge.rhai", "larger than 16 MiB"],
    );
    assert_refused(
        &grundy(&["analyze", "--rules", dir.to_str().unwrap(), "nim 3"]),
        2,
        &["--rules"],
    );
}

// ---- draw ----

#[test]
fn a_long_hackenbush_path_draws_in_linear_size() {
    // 9000 edges in a path: 162 MB of indentation before the fix, now one line an edge.
    let edges: Vec<String> = (0..9000).map(|i| format!("{i}-{}", i + 1)).collect();
    let expression = format!("hackenbush {}", edges.join(" "));
    let o = grundy(&["draw", &expression]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.len() < 4 << 20, "{} bytes", out.len());
    assert!(out.contains("(depth 9000) 9000"), "{:.300}", out);
    assert!(out.contains("Value 9000"), "{:.300}", out);
}

// ---- graph --kernel ----

#[test]
fn the_kernel_search_stops_at_the_work_limit() {
    let dir = scratch("kernel-limit");
    let path = dir.join("cycles.txt");
    let mut edges = String::new();
    for c in 0..200 {
        for i in 0..7 {
            edges.push_str(&format!("v{} v{}\n", c * 7 + i, c * 7 + (i + 1) % 7));
        }
    }
    std::fs::write(&path, edges).unwrap();
    let file = path.to_str().unwrap();
    // The clauses take 2800 units (a unit a draw and an edge): room for them, not for the
    // solver's first step.
    let o = grundy(&["graph", file, "--kernel", "--max-work", "2801"]);
    assert_refused(
        &o,
        1,
        &["kernel search stopped", "2801", "work limit", "--max-work"],
    );
    // Within the default budget the answer is the search's: odd cycles have no kernel.
    let o = grundy(&["graph", file, "--kernel", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["kernel"]["vertices"], serde_json::Value::Null, "{v}");
}

// ---- serve ----

#[test]
fn serve_answers_malformed_requests_with_json_errors() {
    let s = Server::start(&[]);
    let cases: [(&str, &str, &str, u16, &str); 7] = [
        ("POST", "/api/analyze", "{\"expression\":", 400, "EOF"),
        ("POST", "/api/analyze", "garbage", 400, "expected value"),
        // A misspelt field used to be ignored silently (a misère question answered as normal).
        (
            "POST",
            "/api/analyze",
            "{\"expression\":\"nim 3\",\"misre\":true}",
            400,
            "unknown field `misre`",
        ),
        (
            "POST",
            "/api/sequence",
            "{\"rule\":\"kayles\",\"to\":10,\"svg\":true}",
            400,
            "unknown field `svg`",
        ),
        (
            "POST",
            "/api/play",
            "{\"expression\":\"nim 3\",\"move\":[1]}",
            400,
            "expected a move number",
        ),
        // Used to be a 405 with an empty body.
        ("GET", "/api/analyze", "", 405, "method not allowed"),
        ("PUT", "/api/play", "{}", 405, "method not allowed"),
    ];
    for (method, path, body, status, needle) in cases {
        let (code, text) = s.request(method, path, body);
        assert_eq!(code, status, "{method} {path} {body}: {text}");
        let v: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        let message = v["error"].as_str().unwrap_or_default();
        assert!(message.contains(needle), "{needle:?} not in {message}");
    }
    // Deep nesting within the body limit: refused before it is read (an unknown field, and the
    // JSON reader's depth limit behind it), no stack overflow.
    let deep = format!(
        "{{\"x\":{}{},\"expression\":\"nim 3\"}}",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let (code, text) = s.request("POST", "/api/analyze", &deep);
    assert_eq!(code, 400, "{text}");
    assert!(text.contains("unknown field `x`"), "{text}");
    // A body past 16 KiB: 413, JSON.
    let (code, text) = s.request("POST", "/api/analyze", &"x".repeat(100_000));
    assert_eq!(code, 413, "{text}");
    assert!(text.contains("\"error\""), "{text}");
}

#[test]
fn serve_takes_a_move_as_a_json_number() {
    // The README says `"move"` is a number or a position; a number used to be refused.
    let s = Server::start(&[]);
    let (code, v) = s.post("/api/play", &json!({"expression": "nim 3 4 5", "move": 2}));
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["human_move"]["move"], "3 -> 1", "{v}");
}

#[test]
fn silent_clients_are_closed_and_others_served_meanwhile() {
    // --timeout 1 --idle-timeout 1: a silent connection closes after 6 s (1 + 5).
    let s = Server::start(&["--timeout", "1", "--idle-timeout", "1"]);
    let mut silent = Vec::new();
    for i in 0..40 {
        let mut c = TcpStream::connect(&s.address).unwrap();
        let partial: &[u8] = if i % 2 == 0 {
            b"POST /api/analyze HTTP/1.1\r\nHost: x\r\n"
        } else {
            b"POST /api/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"expr"
        };
        c.write_all(partial).unwrap();
        silent.push(c);
    }
    // Others are served at once meanwhile.
    let (code, v) = s.post("/api/analyze", &json!({"expression": "nim 3 4"}));
    assert_eq!((code, v["value"].as_u64()), (200, Some(7)), "{v}");
    // Then every silent connection is closed by the server (an answer or none, then EOF).
    let start = Instant::now();
    for mut c in silent {
        c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut rest = Vec::new();
        c.read_to_end(&mut rest)
            .expect("closed by the server, not by the read timeout");
    }
    assert!(start.elapsed() < Duration::from_secs(30));
}
