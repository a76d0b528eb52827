//! End-to-end: the real `grundy` binary on Hackenbush pictures and coin-turning games.

use crate::common;

use common::{grundy, ok_stdout, stderr, stdout};

#[test]
fn analyze_hackenbush_in_a_sum_with_nim() {
    let o = grundy(&["analyze", "hackenbush 0-1 1-2 2-0 2-3 3-3 + nim 4"]);
    let text = ok_stdout(&o);
    assert!(text.contains("Value     7"), "{text}");
    for line in [
        "cut 0-1  leaves  hackenbush 1-2 2-0 2-3 3-3 + nim 4",
        "cut 2-0  leaves  hackenbush 0-1 1-2 2-3 3-3 + nim 4",
    ] {
        assert!(text.contains(line), "{line} missing from\n{text}");
    }
}

#[test]
fn analyze_coin_games_as_json() {
    for (expr, value) in [
        ("mock-turtles 0 3 5", 13),
        ("corners 2,3 4,5", 3),
        ("product(ruler,mock-turtles) 3,4", 8),
        ("ruler 2 3 + twins 4 + acrostic-twins 1,2", 2 ^ 1 ^ 4 ^ 3),
    ] {
        let o = grundy(&["analyze", expr, "--json"]);
        assert!(o.status.success(), "{expr}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["expression"], expr);
        assert_eq!(v["value"], value, "{expr}");
    }
}

#[test]
fn the_generic_engine_agrees_from_the_command_line() {
    for expr in [
        "hackenbush 0-1 1-2 1-3 0-4 4-4",
        "moebius 2 5 7",
        "rugs 1,2 2,2",
    ] {
        let fast = grundy(&["analyze", expr, "--json"]);
        let slow = grundy(&["analyze", expr, "--json", "--engine", "generic"]);
        assert!(fast.status.success() && slow.status.success(), "{expr}");
        assert_eq!(stdout(&fast), stdout(&slow), "{expr}");
    }
}

#[test]
fn bad_input_exits_2_with_a_caret_under_the_offending_text() {
    let o = grundy(&["analyze", "hackenbush 0-1 1-x"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("                 ^ expected a vertex number"),
        "{err}"
    );
    let o = grundy(&["analyze", "turning-turtles 0 2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("numbers its coins from 1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn draw_a_picture_as_text_and_dot() {
    let o = grundy(&["draw", "hackenbush 0-1 1-2 2-0 2-3 3-3"]);
    let text = ok_stdout(&o);
    assert!(text.starts_with("ground\n└── 1\n"), "{text}");
    assert!(text.contains("loop 3-3"), "{text}");
    assert!(text.ends_with("Value 3\n"), "{text}");
    let o = grundy(&["draw", "--dot", "hackenbush 0-1 1-1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("0 -- 1;"), "{}", stdout(&o));
    let o = grundy(&["draw", "hackenbush 1-2"]);
    assert!(
        stdout(&o).contains("No edge touches the ground"),
        "{}",
        stdout(&o)
    );
    let o = grundy(&["draw", "nim 3"]);
    assert_eq!(o.status.code(), Some(2));
}
