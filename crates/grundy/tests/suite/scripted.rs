//! Rule scripts: the example games' known values, scripted versions of built-in games against
//! the built-in fast paths, and the sandbox (limits, errors with line and column, no files).

use grundy::analysis::{Options, analyze_sum};
use grundy::catalog::Catalog;
use grundy::control::{Budget, Limits};
use grundy::scripted::{ScriptLimits, ScriptRule};
use grundy::sum::Context;
use grundy::{Nimber, Outcome};
use proptest::prelude::*;
use std::path::PathBuf;

fn example(name: &str) -> (String, String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/games")
        .join(name);
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    (source, name.to_string())
}

fn catalog(names: &[&str]) -> Catalog {
    let mut c = Catalog::new();
    for n in names {
        let (source, origin) = example(n);
        c.load_script(&source, &origin).unwrap();
    }
    c
}

fn value(c: &Catalog, expr: &str) -> u64 {
    let sum = c
        .parse(expr)
        .unwrap_or_else(|e| panic!("{expr}: {}", e.render(expr)));
    analyze_sum(&sum, &Options::default())
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .value
        .unwrap()
        .0
}

fn sequence(c: &Catalog, rule: &str, to: u64) -> Vec<u16> {
    c.script(rule)
        .unwrap()
        .nim_sequence(to, &Budget::default())
        .unwrap()
}

/// Golden ratio test in integers: b < a < phi*b  <=>  a^2 - a*b - b^2 < 0 with a > b.
fn euclid_is_p(a: u64, b: u64) -> bool {
    let (a, b) = (a.max(b) as i128, a.min(b) as i128);
    b > 0 && a > b && a * a - a * b - b * b < 0
}

#[test]
fn euclid_loses_exactly_below_the_golden_ratio() {
    let c = catalog(&["euclid.rhai"]);
    for a in 1..=30 {
        for b in 1..=30 {
            let v = value(&c, &format!("euclid {a} {b}"));
            assert_eq!(v == 0, euclid_is_p(a, b), "euclid {a} {b}: value {v}");
        }
    }
}

#[test]
fn subtract_a_square_has_the_published_p_positions() {
    let text = include_str!("../data/subtract_square_p_positions.txt");
    let published: Vec<usize> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| l.split_whitespace().map(|w| w.parse().unwrap()))
        .collect();
    let values = sequence(&catalog(&["subtract-square.rhai"]), "square", 267);
    let p: Vec<usize> = (0..=267).filter(|&n| values[n] == 0).collect();
    assert_eq!(p, published);
}

#[test]
fn powers_of_two_is_n_mod_3_and_dim_plus_is_one_plus_the_two_adic_order() {
    let c = catalog(&["powers-of-two.rhai", "dim-plus.rhai"]);
    let powers = sequence(&c, "powers", 300);
    for (n, &v) in powers.iter().enumerate() {
        assert_eq!(u64::from(v), n as u64 % 3, "powers {n}");
    }
    let dim = sequence(&c, "dim-plus", 300);
    assert_eq!(dim[0], 0);
    for (n, &v) in dim.iter().enumerate().skip(1) {
        assert_eq!(u32::from(v), 1 + n.trailing_zeros(), "dim-plus {n}");
    }
}

#[test]
fn scripted_kayles_matches_the_built_in_sequence() {
    let c = catalog(&["kayles.rhai"]);
    let scripted = sequence(&c, "my-kayles", 200);
    let builtin: Vec<u16> = (0..=200)
        .map(|n| value(&Catalog::new(), &format!("kayles {n}")) as u16)
        .collect();
    assert_eq!(scripted, builtin);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn scripted_games_agree_with_the_built_in_fast_paths(
        k in proptest::collection::vec(0u64..60, 1..4),
        x in 0u64..25, y in 0u64..25,
        s in proptest::collection::vec(0u64..80, 1..4),
    ) {
        let c = catalog(&["kayles.rhai", "wythoff.rhai"]);
        let mut c = c;
        c.load_script(
            "const NAME = \"my-sub\"; const HEAP = true;
             fn moves(n) { [1, 3, 4].filter(|k| k <= n).map(|k| n - k) }",
            "sub.rhai",
        ).unwrap();
        let heaps = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        let scripted = format!("my-kayles {} + my-wythoff {x} {y} + my-sub {}", heaps(&k), heaps(&s));
        let builtin = format!("kayles {} + wythoff {x} {y} + sub(1,3,4) {}", heaps(&k), heaps(&s));
        let a = analyze_sum(&c.parse(&scripted).unwrap(), &Options::default()).unwrap();
        let b = analyze_sum(&Catalog::new().parse(&builtin).unwrap(), &Options::default()).unwrap();
        prop_assert_eq!(a.value, b.value);
        prop_assert_eq!(a.outcome, b.outcome);
        prop_assert_eq!(a.winning_moves.len(), b.winning_moves.len());
    }
}

#[test]
fn sums_with_scripts_print_back_and_play_misere() {
    let c = catalog(&["euclid.rhai", "subtract-square.rhai"]);
    let sum = c.parse("euclid 21 13 + nim 4 + square 5 7").unwrap();
    assert_eq!(sum.to_string(), "euclid 21 13 + nim 4 + square 5 7");
    let a = analyze_sum(&sum, &Options::default()).unwrap();
    assert_eq!(a.outcome, Outcome::N);
    for m in &a.winning_moves {
        let after = c.parse(&m.result).unwrap();
        let v = analyze_sum(&after, &Options::default()).unwrap().value;
        assert_eq!(v, Some(Nimber(0)), "{}", m.result);
    }
    // Misère: a script Nim against the built-in misère Nim (Bouton's rule).
    let mut c = Catalog::new();
    c.load_script(
        "const NAME = \"heap\"; const HEAP = true; fn moves(n) { let o = []; for t in 0..n { o.push(t); } o }",
        "heap.rhai",
    )
    .unwrap();
    for heaps in [[1, 1, 1], [2, 2, 0], [3, 2, 1], [1, 1, 0], [4, 1, 5]] {
        let h = format!("{} {} {}", heaps[0], heaps[1], heaps[2]);
        let opts = Options {
            misere: true,
            ..Options::default()
        };
        let a = analyze_sum(&c.parse(&format!("heap {h}")).unwrap(), &opts).unwrap();
        let b = analyze_sum(&Catalog::new().parse(&format!("nim {h}")).unwrap(), &opts).unwrap();
        assert_eq!(a.outcome, b.outcome, "{h}");
    }
}

#[test]
fn the_graph_of_a_scripted_game_is_explored() {
    let c = catalog(&["euclid.rhai"]);
    let sum = c.parse("euclid 5 3").unwrap();
    let g = grundy::graph::explore::explore(&sum, &Context::default(), 1000).unwrap();
    let solution = grundy::graph::solve(&g.csr, &mut grundy::control::Control::none()).unwrap();
    let expected = value(&c, "euclid 5 3");
    assert_eq!(solution.finite_value(0), Some(expected as u32));
}

fn compile_error(source: &str) -> grundy::scripted::ScriptError {
    ScriptRule::compile(source, "test.rhai", ScriptLimits::DEFAULT).unwrap_err()
}

fn run_error(source: &str, expr: &str) -> String {
    let mut c = Catalog::new();
    c.load_script(source, "test.rhai").unwrap();
    let sum = match c.parse(expr) {
        Ok(s) => s,
        Err(e) => return e.message,
    };
    let ctx = Context::new(grundy::sum::Engine::Fast, Limits::DEFAULT);
    analyze_sum(
        &sum,
        &Options {
            moves: Default::default(),
            misere: false,
            context: ctx,
        },
    )
    .unwrap_err()
    .to_string()
}

#[test]
fn script_errors_name_the_line_and_column() {
    let e = compile_error("const NAME = \"x\";\nfn moves(p) {\n  [p + ]\n}");
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.column.is_some());
    assert!(e.to_string().starts_with("test.rhai:3:"), "{e}");
    let e = run_error(
        "const NAME = \"x\";\nfn moves(p) {\n  let q = p.nothing_here();\n  [q]\n}",
        "x 3",
    );
    assert!(e.contains("test.rhai:3:"), "{e}");
    assert!(e.contains("nothing_here"), "{e}");
    assert!(compile_error("fn moves(p) { [] }").message.contains("NAME"));
    assert!(
        compile_error("const NAME = \"x\";")
            .message
            .contains("fn moves")
    );
    assert!(
        compile_error("const NAME = \"1x\"; fn moves(p) { [] }")
            .message
            .contains("not a rule name")
    );
    let mut c = Catalog::new();
    let e = c
        .load_script("const NAME = \"nim\"; fn moves(p) { [] }", "t.rhai")
        .unwrap_err();
    assert!(e.message.contains("built-in"), "{e}");
}

#[test]
fn runaway_scripts_are_stopped_with_a_clear_error() {
    let e = run_error("const NAME = \"x\"; fn moves(p) { loop { } }", "x 3");
    assert!(e.contains("limit of 1000000 operations"), "{e}");
    let e = run_error(
        "const NAME = \"x\"; fn f(n) { f(n + 1) } fn moves(p) { f(0) }",
        "x 3",
    );
    assert!(e.contains("nest deeper"), "{e}");
    let e = compile_error("const NAME = \"x\"; while true { } fn moves(p) { [] }");
    assert!(e.message.contains("operations"), "{e}");
    // A loopy game is refused by the engine for finite games.
    let e = run_error("const NAME = \"x\"; fn moves(p) { [1 - p] }", "x 0");
    assert!(e.contains("cycle"), "{e}");
}

#[test]
fn bad_moves_are_named() {
    let e = run_error("const NAME = \"x\"; fn moves(p) { [1.5] }", "x 3");
    assert!(e.contains("f64"), "{e}");
    let e = run_error(
        "const NAME = \"x\"; const HEAP = true; fn moves(p) { [\"a\"] }",
        "x 3",
    );
    assert!(e.contains("heap rule"), "{e}");
    let e = run_error("const NAME = \"x\"; fn moves(p) { 5 }", "x 3");
    assert!(e.contains("must return an array"), "{e}");
    let e = run_error("const NAME = \"x\"; fn moves(p) { [] }", "x y");
    assert!(e.contains("expected a whole number"), "{e}");
}

#[test]
fn scripts_cannot_touch_files() {
    // No `import` (the engine is built without modules) and no file functions at all.
    let e = compile_error("import \"/etc/passwd\" as p; const NAME = \"x\"; fn moves(p) { [] }");
    assert!(e.line.is_some(), "{e}");
    for call in [
        "open_file(\"/etc/passwd\")",
        "read_file(\"/etc/passwd\")",
        "File.open(\"/etc/passwd\")",
        "eval(\"1\")",
    ] {
        let source = format!("const NAME = \"x\"; fn moves(p) {{ {call}; [] }}");
        match ScriptRule::compile(&source, "t.rhai", ScriptLimits::DEFAULT) {
            Err(e) => assert!(e.line.is_some(), "{call}: {e}"),
            Ok(_) => {
                let e = run_error(&source, "x 1");
                assert!(e.contains("not found") || e.contains("eval"), "{call}: {e}");
            }
        }
    }
}

#[test]
fn scripts_whose_data_grows_forever_stop_with_an_error() {
    // Each of these would take all the machine's memory (or abort the process on a failed
    // allocation) without the size limits; each stops with the limit's figure instead.
    for (body, what) in [
        ("let s = \"ab\"; loop { s += s; }", "string"),
        ("let a = [1, 2]; loop { a.append(a); }", "array"),
        ("let a = [[1]]; loop { a = [a, a]; }", "array"),
        ("let m = #{a: 1}; loop { m = #{x: m, y: m}; }", "map"),
        ("let a = []; a.pad(1000000000000, 0);", "array"),
        ("let s = \"\"; s.pad(1000000000000, 'x');", "string"),
    ] {
        let source = format!("const NAME = \"x\";\nfn moves(p) {{\n  {body}\n  []\n}}");
        let e = run_error(&source, "x 3");
        assert!(e.contains("too large"), "{body}: {e}");
        assert!(e.contains(what), "{body}: {e}");
        // Rhai gives no place for a limit: the message names the function instead.
        assert!(
            e.contains("test.rhai: ") && e.contains("in `moves`"),
            "{body}: {e}"
        );
    }
    // Containers grown by index assignment, which Rhai's size checks do not see, stop at
    // the memory ceiling (counted by the allocator this test binary installs, as the
    // command-line tool and the Python module do).
    assert!(grundy::scripted::counting());
    let big = "let s = \"x\"; for i in 0..19 { s += s; }";
    for body in [
        format!("{big} let m = #{{}}; for i in 0..100000 {{ m[s + i] = 1; }}"),
        format!("{big} let a = []; a.pad(30000, 0); for i in 0..30000 {{ a[i] = s + i; }}"),
        "let b = []; b.pad(30000, 0); let a = []; a.pad(30000, 0); for i in 0..30000 { a[i] = b; }"
            .to_string(),
    ] {
        let source = format!("const NAME = \"x\";\nfn moves(p) {{\n  {body}\n  []\n}}");
        let e = run_error(&source, "x 3");
        assert!(
            e.contains("more than 64 MiB of memory in one call (in `moves`)"),
            "{body}: {e}"
        );
    }
    // A map grown key by key to 100,000 small entries stays under the ceiling (some 10 MB)
    // and is allowed: the entry count is Rhai's, checked only when it checks.
    let many = "const NAME = \"x\";\nfn moves(p) {\n  let m = #{}; for i in 0..100000 { m[`k${i}`] = i; }\n  []\n}";
    let mut c = Catalog::new();
    c.load_script(many, "many.rhai").unwrap();
    assert_eq!(value(&c, "x 3"), 0);
    // The limits are the caller's to choose.
    let small = ScriptLimits {
        max_array_size: 10,
        ..ScriptLimits::DEFAULT
    };
    let rule = ScriptRule::compile(
        "const NAME = \"x\"; const HEAP = true; fn moves(n) { let o = []; for t in 0..n { o.push(t); } o }",
        "t.rhai",
        small,
    )
    .unwrap();
    assert!(rule.nim_sequence(10, &Budget::default()).is_ok());
    let e = rule.nim_sequence(12, &Budget::default()).unwrap_err();
    assert!(e.to_string().contains("10 elements"), "{e}");
}

/// A game that never ends (each move grows the heap) is charged for every script call and
/// every move it returns, so the work limit refuses it, naming the limit, long before the
/// process's memory runs out; a script that fills one array move by move stops at the array
/// limit.
#[test]
fn scripts_that_grow_are_charged_and_refused_within_the_budget() {
    let rule = ScriptRule::compile(
        "const NAME = \"grow\"; const HEAP = true; fn moves(n) { [n + 1] }",
        "grow.rhai",
        ScriptLimits::DEFAULT,
    )
    .unwrap();
    let limits = Limits {
        max_work: 200_000,
        ..Limits::DEFAULT
    };
    let budget = Budget::new(limits);
    let e = rule.nim_sequence(5, &budget).unwrap_err();
    assert!(e.to_string().contains("200000 steps of work"), "{e}");
    // Charged per call (64 units) and per move (16): at most 200,000 / 80 calls were made.
    assert!(budget.work_done() >= 200_000, "{}", budget.work_done());

    let e = run_error(
        "const NAME = \"x\";\nfn moves(p) {\n  let a = []; for i in 0..200000 { a.push(i); }\n  []\n}",
        "x 1",
    );
    assert!(e.contains("32768 elements for an array"), "{e}");
}

/// A script error travels back as the script's own error: the budget's cancellation flag (in
/// the command-line tool, the Ctrl-C flag) is never touched, and the same budget and rule go
/// on working afterwards.
#[test]
fn a_failing_script_never_cancels_the_budget() {
    let mut c = Catalog::new();
    c.load_script(
        "const NAME = \"x\"; const HEAP = true;\nfn moves(n) {\n  if n == 7 { throw \"no moves from 7\"; }\n  let o = []; for t in 0..n { o.push(t); } o\n}",
        "fails.rhai",
    )
    .unwrap();
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let budget = Budget::with_cancel_flag(Limits::DEFAULT, flag.clone());
    let options = |misere| Options {
        moves: Default::default(),
        misere,
        context: Context {
            engine: grundy::sum::Engine::Fast,
            budget: budget.clone(),
            ..grundy::sum::Context::default()
        },
    };
    // Deep inside the generic engine (heap 12 reaches heap 7), in a sum, in misère play.
    for (expr, misere) in [("x 12", false), ("nim 3 + x 9", false), ("x 8", true)] {
        let e = analyze_sum(&c.parse(expr).unwrap(), &options(misere)).unwrap_err();
        assert_eq!(e.budget_error(), None, "{expr}: {e}");
        assert!(e.to_string().contains("fails.rhai:3:"), "{expr}: {e}");
        assert!(e.to_string().contains("no moves from 7"), "{expr}: {e}");
        assert!(!budget.is_cancelled(), "{expr}");
        assert!(!flag.load(std::sync::atomic::Ordering::SeqCst), "{expr}");
    }
    let e = c
        .script("x")
        .unwrap()
        .nim_sequence(20, &budget)
        .unwrap_err();
    assert!(e.to_string().contains("no moves from 7"), "{e}");
    assert!(!budget.is_cancelled());
    // Below the failing heap everything works, under the same budget: it is heap n for n < 7.
    let a = analyze_sum(&c.parse("x 6 + nim 6").unwrap(), &options(false)).unwrap();
    assert_eq!(a.value, Some(Nimber(0)));
    assert_eq!(
        c.script("x").unwrap().nim_sequence(6, &budget).unwrap(),
        vec![0, 1, 2, 3, 4, 5, 6]
    );
    // A real cancellation is still reported as one.
    c.load_script(
        "const NAME = \"y\"; const HEAP = true; fn moves(n) { let o = []; for t in 0..n { o.push(t); } o }",
        "y.rhai",
    )
    .unwrap();
    budget.cancel();
    let e = analyze_sum(&c.parse("y 5").unwrap(), &options(false)).unwrap_err();
    assert_eq!(
        e.budget_error(),
        Some(grundy::control::BudgetError::Cancelled),
        "{e}"
    );
}
