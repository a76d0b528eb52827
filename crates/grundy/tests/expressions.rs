//! Bad input: every malformed expression names the offending token and what was expected.

use grundy::catalog::parse;

fn error(text: &str) -> (std::ops::Range<usize>, String) {
    let e = parse(text).expect_err(text);
    let rendered = e.render(text);
    (e.span, rendered)
}

#[test]
fn unknown_rules_list_the_known_ones() {
    let (span, msg) = error("nim 3 + nmi 4");
    assert_eq!(span, 8..11);
    assert!(
        msg.contains("unknown rule `nmi`") && msg.contains("known rules: nim, staircase"),
        "{msg}"
    );
}

#[test]
fn numbers_that_overflow_are_errors() {
    let (span, msg) = error("nim 18446744073709551616");
    assert_eq!(span, 4..24);
    assert!(
        msg.contains("too large") && msg.contains("18446744073709551615"),
        "{msg}"
    );
    assert!(parse("nim 18446744073709551615").is_ok());
}

#[test]
fn bad_arguments_point_at_themselves() {
    assert_eq!(error("nim 3 -4").0, 6..8);
    assert_eq!(error("wythoff 3").0, 8..9);
    assert_eq!(error("wythoff 3 4 5").0, 8..13);
    assert!(error("moore 3 4").1.contains("needs parameters"));
    assert!(error("moore(0) 3 4").1.contains("at least 1"));
    assert!(error("nim(2) 3").1.contains("no parameters"));
    assert!(error("nim").1.contains("needs arguments"));
    assert!(error("staircase 1 x").1.contains("number of coins"));
}

#[test]
fn the_caret_sits_under_the_token() {
    let (_, msg) = error("nim 3 x");
    assert_eq!(
        msg.lines().nth(1).unwrap(),
        "      ^ expected a heap size (a whole number), found `x`"
    );
}

#[test]
fn the_zero_game() {
    assert_eq!(parse("0").unwrap().to_string(), "0");
    assert_eq!(parse("0 + nim 3").unwrap().to_string(), "nim 3");
    let a = grundy::analyze("0", &grundy::Options::default()).unwrap();
    assert_eq!(a.outcome, grundy::Outcome::P);
}
