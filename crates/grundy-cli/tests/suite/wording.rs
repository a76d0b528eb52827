//! End-to-end: messages as a user reads them. Counts agree in number ("1 vertex", not
//! "1 vertices"), and a huge bad argument gives a message of a few lines, not the argument.

use crate::common;

use common::{grundy, grundy_with_input, stderr, stdout};

#[test]
fn counts_agree_in_number() {
    // One vertex, one edge, one token.
    let o = grundy_with_input(&["graph", "-"], "a\n");
    assert!(
        stdout(&o).starts_with("1 vertex, 0 edges"),
        "{}",
        stdout(&o)
    );
    let o = grundy_with_input(&["graph", "-"], "a b\n");
    assert!(
        stdout(&o).starts_with("2 vertices, 1 edge,"),
        "{}",
        stdout(&o)
    );
    let o = grundy_with_input(&["graph", "--format", "seed", "-"], "2 1 1\n1 2\n1\n2\n");
    assert!(
        stderr(&o).contains("after the 1 edge and 1 token the first line announced"),
        "{}",
        stderr(&o)
    );
    // One argument, one cell, one fallen edge.
    let o = grundy(&["analyze", "wythoff", "3"]);
    assert!(stderr(&o).contains("found 1 argument\n"), "{}", stderr(&o));
    let o = grundy(&["analyze", "cram ../."]);
    assert!(
        stderr(&o).contains("this row has 1 cell but the first has 2 cells"),
        "{}",
        stderr(&o)
    );
    let o = grundy(&["analyze", "hackenbush 0-1 2-3"]);
    assert!(
        stdout(&o).contains("1 of its 2 edges is not connected to the ground; it has fallen"),
        "{}",
        stdout(&o)
    );
    // One move in play.
    let o = grundy_with_input(&["play", "nim 1"], "quit\n");
    assert!(stdout(&o).contains("1 legal move:"), "{}", stdout(&o));
    // The P-portion of 0.75's misère quotient has two elements, of kayles up to heap 1 one.
    let o = grundy(&["quotient", "0.75", "--max-heap", "3"]);
    assert!(stdout(&o).contains("(2 elements)"), "{}", stdout(&o));
    let o = grundy(&["quotient", "0.77", "--max-heap", "1"]);
    assert!(stdout(&o).contains("(1 element)"), "{}", stdout(&o));
    // No "1 <plural>" anywhere in these outputs.
    for o in [
        grundy(&["analyze", "nim 1"]),
        grundy(&["quotient", "0.77", "--max-heap", "1"]),
        grundy_with_input(&["graph", "-"], "a\n"),
    ] {
        let text = stdout(&o) + stderr(&o).as_str();
        for plural in [
            "vertices",
            "edges",
            "values",
            "moves",
            "elements",
            "positions",
        ] {
            assert!(!text.contains(&format!(" 1 {plural}")), "{text}");
        }
    }
}

#[test]
fn a_huge_bad_argument_gives_a_short_message() {
    let long = "x".repeat(100_000);
    for (head, argument) in [
        ("hackenbush", format!("0-1 {long}")),
        ("corners", long.clone()),
        ("product(turn:2,ruler)", long.clone()),
        ("cram", format!("..{long}")),
        ("node-kayles", format!("0-{long}")),
        ("nim", long.clone()),
    ] {
        let o = grundy_with_input(&["analyze", "-"], &format!("{head} {argument}"));
        assert_eq!(o.status.code(), Some(2), "{head}");
        let err = stderr(&o);
        assert!(
            err.len() < 800,
            "{head}: {} bytes: {}",
            err.len(),
            &err[..300]
        );
        assert!(err.contains("invalid expression"), "{err}");
    }
}
