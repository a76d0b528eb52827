//! One reading of heap-rule codes for every command: `sequence`, `analyze`, `quotient`,
//! `play` and the web API take the same codes (octal and hexadecimal digits, before and after
//! the point, with `!` `?` `=` constraints) and refuse the same ones with the same message;
//! an accepted code's `analyze "CODE n"` value is `sequence CODE --to n`'s last value.

use crate::common;
use crate::common::server;

use common::{grundy, grundy_with_input, stderr};
use serde_json::{Value, json};
use server::Server;

/// Codes every command takes: digits 0-7 and 8-f on both sides of the point, upper case,
/// the leading-point form and constraints after digits before and after the point.
const ACCEPTED: &[&str] = &[
    "0.7", "0.77", "0.137", "4.07", "0.f", "0.3f", "0.8", "0.F", "c.c", "c.0", "C.C", "8.f", "8.0",
    "4!.0", "c!.4", ".07", "0.8?", "4=.0", "0.77!", "0.f=", "c?.7", "0.4=4",
];

/// Words that look like codes but are not valid ones, and names that are no code: each
/// refused by every command.
const REFUSED: &[&str] = &[
    "f.f", "a.1", "3.0", "1.0", "0.1g", "0.", "0.!7", "12.3", "0.000", "c!!.4", "0..7", "c.",
    "0.7x", "g.0", "c", "١.٣",
];

/// The message under the caret of a rendered expression error (`   ^^ message`).
fn caret_message(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let t = l.trim_start();
        t.starts_with('^')
            .then(|| t.trim_start_matches('^').trim().to_owned())
    })
}

fn json_of(o: &std::process::Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The heap the values are compared at.
const N: u64 = 9;

#[test]
fn every_command_reads_codes_alike() {
    let server = Server::start(&[]);
    for &code in ACCEPTED {
        let expr = format!("{code} {N}");
        let seq = json_of(&grundy(&[
            "sequence",
            code,
            "--to",
            &N.to_string(),
            "--json",
        ]));
        let last = seq["values"].as_array().unwrap().last().unwrap().clone();
        let a = json_of(&grundy(&["analyze", &expr, "--json"]));
        assert_eq!(a["value"], last, "{code}: analyze against sequence");
        let q = grundy(&["quotient", code, "--max-heap", "5"]);
        assert!(
            !stderr(&q).contains("invalid rule"),
            "{code}: quotient {}",
            stderr(&q)
        );
        let p = grundy_with_input(&["play", &expr], "quit\n");
        assert!(p.status.success(), "{code}: play {}", stderr(&p));
        let (status, web) = server.post("/api/analyze", &json!({ "expression": expr }));
        assert_eq!(status, 200, "{code}: {web}");
        assert_eq!(web["value"], last, "{code}: the web analysis");
        let (status, web) = server.post("/api/sequence", &json!({ "rule": code, "to": N }));
        assert_eq!(status, 200, "{code}: {web}");
        assert_eq!(
            web["values"].as_array().unwrap().last(),
            Some(&last),
            "{code}"
        );
        let (status, web) = server.post("/api/play", &json!({ "expression": expr }));
        assert_eq!(status, 200, "{code}: {web}");
    }
    for &code in REFUSED {
        let expr = format!("{code} {N}");
        let seq = grundy(&["sequence", code, "--to", &N.to_string()]);
        assert_eq!(seq.status.code(), Some(2), "{code}: sequence");
        let a = grundy(&["analyze", &expr]);
        assert_eq!(a.status.code(), Some(2), "{code}: analyze");
        let q = grundy(&["quotient", code, "--max-heap", "5"]);
        assert_eq!(q.status.code(), Some(2), "{code}: quotient");
        let p = grundy_with_input(&["play", &expr], "quit\n");
        assert_eq!(p.status.code(), Some(2), "{code}: play");
        let (status, web) = server.post("/api/analyze", &json!({ "expression": expr }));
        assert_eq!(status, 422, "{code}: {web}");
        let (status, seq_web) = server.post("/api/sequence", &json!({ "rule": code, "to": N }));
        assert_eq!(status, 422, "{code}: {seq_web}");
        let (status, _) = server.post("/api/play", &json!({ "expression": expr }));
        assert_eq!(status, 422, "{code}");
        // A word read as a code is refused with the code reader's own message, the same
        // in every command (names that are no code get each command's word for that).
        if grundy::heap::rules::looks_like_code(code) {
            let message = caret_message(&stderr(&seq)).unwrap_or_else(|| panic!("{code}"));
            for (what, text) in [
                ("analyze", stderr(&a)),
                ("quotient", stderr(&q)),
                ("play", stderr(&p)),
                ("web analyze", web["error"].as_str().unwrap().to_owned()),
                (
                    "web sequence",
                    seq_web["error"].as_str().unwrap().to_owned(),
                ),
            ] {
                assert_eq!(
                    caret_message(&text).as_deref(),
                    Some(message.as_str()),
                    "{code}: {what}: {text}"
                );
            }
        }
    }
}

/// The example: `c.c 5` answers, equal to the sequence's last value.
#[test]
fn a_hexadecimal_digit_before_the_point_is_a_code_in_analyze() {
    let seq = json_of(&grundy(&["sequence", "c.c", "--to", "5", "--json"]));
    let a = json_of(&grundy(&["analyze", "c.c 5", "--json"]));
    assert_eq!(Some(&a["value"]), seq["values"].as_array().unwrap().last());
    assert_eq!(a["value"], 4);
    // In a sum with other rules, and in misère play.
    let a = json_of(&grundy(&["analyze", "c.c 5 + nim 4", "--json"]));
    assert_eq!(a["value"], 0);
    let m = grundy(&["analyze", "c.0 4 5", "--misere"]);
    assert!(m.status.success(), "{}", stderr(&m));
}
