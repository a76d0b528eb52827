//! End-to-end: the real `grundy` binary, as a user runs it.

mod common;

use common::{grundy, stderr, stdout};

#[test]
fn analyze_nim_as_text() {
    let o = grundy(&["analyze", "nim 13 12 8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Value     9"), "{text}");
    assert!(text.contains("N: the player to move wins"), "{text}");
    assert!(text.contains("nim-sum   9 = 1001"), "{text}");
    for result in ["nim 4 12 8", "nim 13 5 8", "nim 13 12 1"] {
        assert!(text.contains(result), "{result} missing from\n{text}");
    }
}

#[test]
fn analyze_as_json_has_the_documented_keys() {
    let o = grundy(&["analyze", "nim 13 12 8", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["expression"], "nim 13 12 8");
    assert_eq!(v["value"], 9);
    assert_eq!(v["outcome"], "N");
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    assert_eq!(moves[0]["move"], "13 -> 4");
    assert_eq!(moves[0]["result"], "nim 4 12 8");
    // Every result is itself an expression that analyze accepts, and a P-position.
    for m in moves {
        let o = grundy(&["analyze", m["result"].as_str().unwrap(), "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["outcome"], "P");
    }
}

#[test]
fn misere_json_has_null_value() {
    let o = grundy(&["analyze", "nim 1 1 1", "--misere", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], serde_json::Value::Null);
    assert_eq!(v["outcome"], "P");
}

#[test]
fn generic_engine_agrees_on_a_mixed_sum() {
    let expr = "nim 3 5 + staircase 1 2 + wythoff 2 1 + moore(2) 1 2 3";
    let fast = stdout(&grundy(&["analyze", expr, "--json"]));
    let generic = stdout(&grundy(&["analyze", expr, "--json", "--engine", "generic"]));
    assert_eq!(fast, generic);
}

#[test]
fn bad_input_is_a_clear_error_with_non_zero_exit() {
    let o = grundy(&["analyze", "nim 3 + nmi 4"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("unknown rule `nmi`") && err.contains("        ^^^"),
        "{err}"
    );
    assert!(!err.contains("panicked"));

    let o = grundy(&["analyze", "nim 99999999999999999999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("too large"));

    let o = grundy(&["analyze", "wythoff 100000 3 + nim 1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("8000"), "{}", stderr(&o));
}

#[test]
fn rules_are_listed() {
    let o = grundy(&["rules"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for name in ["nim HEAP", "staircase", "moore(K)", "wythoff X Y"] {
        assert!(text.contains(name), "{name} in\n{text}");
    }
}

#[test]
fn a_picture_off_the_ground_is_worth_zero_and_says_so() {
    let o = grundy(&["analyze", "hackenbush 1-2 2-3 + nim 3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["components"][0]["value"], 0);
    assert_eq!(v["value"], 3);
    let why = v["explanation"].to_string();
    assert!(
        why.contains("hackenbush 1-2 2-3: no edge touches the ground"),
        "{why}"
    );
}
