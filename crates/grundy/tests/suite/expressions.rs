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

/// A term head for every rule of the catalogue: its name, with parameters where it takes them.
fn head(rule: &grundy::expr::Rule) -> &'static str {
    match rule.name {
        _ if rule.literal => "0.137",
        "moore" => "moore(2)",
        "sub" => "sub(1,3,4)",
        "bash" => "bash(3)",
        "allbut" => "allbut(1,2)",
        "turn" => "turn(3)",
        "coin-sub" => "coin-sub(1,2)",
        "product" => "product(turn:2,coin-sub:1:2)",
        name => name,
    }
}

/// Whether the message and its help (fixed text, such as the list of known rules) are each
/// under 200 characters.
fn short(e: &grundy::expr::ExprError) -> bool {
    e.message.chars().count() < 200 && e.help.as_ref().is_none_or(|h| h.chars().count() < 200)
}

/// A bad argument of 10^5 characters gives a message of a line, not of 10^5 characters: every
/// rule quotes arguments through `expr::shorten`.
#[test]
fn long_bad_arguments_give_short_messages_for_every_rule() {
    const N: usize = 100_000;
    let x = "x".repeat(N);
    let nines = "9".repeat(N);
    let arguments = [
        x.clone(),
        nines.clone(),
        format!("1-{x}"),
        format!("{nines}-1"),
        format!("1-2-{x}"),
        format!("1,{x}"),
        format!("{nines},1"),
        format!("{nines}x{nines}"),
        format!("3x{x}"),
        format!("../{x}"),
        format!(".{x}"),
        format!("{x}."),
    ];
    let mut checked = 0;
    let mut long = Vec::new();
    for rule in grundy::catalog::rules() {
        let head = head(rule);
        let name = head.split('(').next().unwrap();
        assert!(
            grundy::catalog::find_rule(name).is_some_and(|r| std::ptr::eq(r, rule)),
            "{head}: the test's term head for rule `{}` names another rule",
            rule.name
        );
        for arg in &arguments {
            let text = format!("{head} {arg}");
            if let Err(e) = parse(&text) {
                let message = e.message.clone();
                if !short(&e) {
                    long.push(format!(
                        "`{head} {}…`: {} characters: {}…",
                        &arg[..20],
                        message.chars().count(),
                        message.chars().take(120).collect::<String>()
                    ));
                }
                checked += 1;
            }
        }
    }
    // Parameters are quoted too.
    for text in [
        format!("sub({nines}) 3"),
        format!("sub(1,{x}) 3"),
        format!("moore({nines}) 3"),
        format!("bash({x}) 3"),
        format!("turn({nines}) 3"),
        format!("product(turn:{nines},turn:2) 1,1"),
        format!("product({x},turn:2) 1,1"),
        format!("coin-sub(1,{x}) 3"),
        format!("0.{x} 3"),
        format!("0.1{x} 3"),
    ] {
        let e = parse(&text).expect_err(&text[..30]);
        let message = e.to_string();
        if !short(&e) {
            long.push(format!(
                "`{}…`: {}…",
                &text[..30],
                message.chars().take(120).collect::<String>()
            ));
        }
        checked += 1;
    }
    assert!(long.is_empty(), "long messages:\n{}", long.join("\n"));
    assert!(checked > 300, "{checked}");
}

#[test]
fn errors_name_a_long_component_by_its_start_and_length() {
    // A 30×30 Cram board with a filled cell is written out square by square (934
    // characters); an error quotes its first 60.
    let board = vec![".".repeat(30); 30].join("/");
    let sum = grundy::catalog::parse(&format!("cram #{}", &board[1..])).unwrap();
    let c = sum.components[0].as_ref();
    let e = grundy::sum::AnalysisError::budget(c, grundy::control::BudgetError::Work { limit: 7 });
    let text = e.to_string();
    let total = c.to_string().chars().count();
    assert!(total > 900, "{total}");
    assert!(text.starts_with("cram #....."), "{text}");
    assert!(
        text.contains(&format!("… ({total} characters): ")),
        "{text}"
    );
    assert!(text.contains("7 steps of work"), "{text}");
    assert!(text.chars().count() < 250, "{text}");
    // A short component is named whole.
    let short = grundy::catalog::parse("nim 3").unwrap();
    let e = grundy::sum::AnalysisError::budget(
        short.components[0].as_ref(),
        grundy::control::BudgetError::Work { limit: 7 },
    );
    assert!(e.to_string().starts_with("nim 3: "), "{e}");
}
