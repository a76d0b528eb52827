//! End-to-end: the real `grundy` binary, as a user runs it.

use crate::common;

use common::{grundy, json, ok_stdout, stderr, stdout};

#[test]
fn analyze_nim_as_text() {
    let o = grundy(&["analyze", "nim 13 12 8"]);
    let text = ok_stdout(&o);
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

/// The teaching notes are part of every analysis: the text shows them under "Why", `--json`
/// carries them as typed data.
#[test]
fn analyze_shows_the_teaching_notes() {
    // One component: the mex table. Kayles 4's options are kayles 3 (value 3), kayles 1 2
    // (1 ⊕ 2 = 3), kayles 2 (2) and kayles 1 1 (0): mex{0, 2, 3} = 1 = g(4) (Guy and Smith).
    let o = grundy(&["analyze", "kayles", "4"]);
    let text = ok_stdout(&o);
    let why = text.split("\nWhy\n").nth(1).expect("a Why section");
    assert!(
        why.contains("Why kayles 4 has value 1: its options and their values"),
        "{text}"
    );
    assert!(why.contains("mex{0, 2, 3} = 1"), "{text}");
    let v = json(&grundy(&["analyze", "kayles 4", "--json"]));
    let table = &v["notes"][0];
    assert_eq!(table["kind"], "mex_table");
    assert_eq!(table["mex"], 1);
    let mut rows: Vec<(String, u64)> = table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["result"].as_str().unwrap().to_string(),
                r["value"].as_u64().unwrap(),
            )
        })
        .collect();
    rows.sort();
    rows.dedup();
    let want = [
        ("kayles 1 1", 0),
        ("kayles 1 2", 3),
        ("kayles 2", 2),
        ("kayles 3", 3),
    ];
    assert_eq!(
        rows,
        want.map(|(r, v)| (r.to_string(), v)).to_vec(),
        "{table}"
    );

    // Staircase Nim: Nim on the odd steps (3 on step 1, 5 on step 3: 3 ⊕ 5 = 6).
    let v = json(&grundy(&["analyze", "staircase 3 9 5 + nim 1", "--json"]));
    let notes = v["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{v}");
    assert_eq!(notes[0]["kind"], "staircase");
    assert_eq!(
        notes[0]["odd_steps"],
        serde_json::json!([{"step": 1, "coins": 3}, {"step": 3, "coins": 5}])
    );
    assert_eq!(notes[0]["value"], 6);
    let text = stdout(&grundy(&["analyze", "staircase 3 9 5 + nim 1"]));
    assert!(text.contains("Value 3 ⊕ 5 = 6."), "{text}");

    // A heap with a proven period: Kayles has period 12 from 71 (Guy and Smith), and
    // 10^6 = 71 + 83327 · 12 + 5, so g(10^6) = g(76) = 1.
    let v = json(&grundy(&["analyze", "kayles 1000000", "--json"]));
    let p = &v["notes"][0];
    assert_eq!(p["kind"], "period");
    assert_eq!(
        (p["preperiod"].as_u64(), p["period"].as_u64()),
        (Some(71), Some(12))
    );
    assert_eq!(p["same_as"], 76);
    assert_eq!(p["value"], v["value"]);
    let text = stdout(&grundy(&["analyze", "kayles 1000000"]));
    assert!(text.contains("so g(1000000) = g(76) = 1."), "{text}");

    // Misère play has no notes: they explain normal-play values.
    let v = json(&grundy(&["analyze", "kayles 4", "--misere", "--json"]));
    assert_eq!(v["notes"], serde_json::json!([]));
}
