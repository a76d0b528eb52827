//! `--rules FILE`: rule scripts in analyze, sequence and graph, end to end.

use crate::common;
use common::{grundy, json, ok_stdout, scratch, stderr, stdout};

fn example(name: &str) -> String {
    format!("{}/../../examples/games/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_script_rule_works_in_sums_and_misere_play() {
    let euclid = example("euclid.rhai");
    let j = json(&grundy(&[
        "analyze",
        "--json",
        "--rules",
        &euclid,
        "euclid 21 13 + nim 4",
    ]));
    assert_eq!(j["value"], 4);
    assert_eq!(
        j["components"][0]["value"], 0,
        "21/13 is below the golden ratio: P"
    );
    assert_eq!(j["winning_moves"][0]["result"], "euclid 21 13 + nim 0");
    let j = json(&grundy(&[
        "analyze",
        "--json",
        "--rules",
        &euclid,
        "euclid 5 2",
    ]));
    assert_eq!(j["outcome"], "N");
    let j = json(&grundy(&[
        "analyze",
        "--misere",
        "--json",
        "--rules",
        &euclid,
        "euclid 5 3 + nim 1",
    ]));
    assert_eq!(j["misere"], true);
    assert!(j["outcome"] == "P" || j["outcome"] == "N");
}

#[test]
fn a_script_heap_rule_has_a_sequence_and_a_plot() {
    let square = example("subtract-square.rhai");
    let dir = scratch("script-plot");
    let plot = dir.join("square.svg");
    let j = json(&grundy(&[
        "sequence",
        "--rules",
        &square,
        "square",
        "--to",
        "30",
        "--json",
        "--plot",
        plot.to_str().unwrap(),
    ]));
    assert_eq!(j["rule"], "square");
    assert_eq!(j["computed"], 31);
    assert_eq!(j["values"][5], 0);
    assert_eq!(j["values"][25], 3);
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
    let powers = example("powers-of-two.rhai");
    let j = json(&grundy(&[
        "sequence", "--rules", &powers, "powers", "--to", "60", "--json",
    ]));
    assert_eq!(j["period"]["period"], 3);
    assert_eq!(j["period"]["proven"], false);
}

#[test]
fn graph_explores_a_script_rule() {
    let euclid = example("euclid.rhai");
    let j = json(&grundy(&[
        "graph",
        "--json",
        "--rules",
        &euclid,
        "--expr",
        "euclid 5 3",
    ]));
    assert!(j.to_string().contains("euclid 2 3"), "{j}");
}

#[test]
fn script_errors_and_runaway_scripts_are_reported() {
    let dir = scratch("script-errors");
    let bad = dir.join("bad.rhai");
    std::fs::write(&bad, "const NAME = \"x\";\nfn moves(p) {\n  [p +]\n}\n").unwrap();
    let o = grundy(&["analyze", "--rules", bad.to_str().unwrap(), "x 3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.rhai:3:"), "{}", stderr(&o));
    let looping = dir.join("loop.rhai");
    std::fs::write(&looping, "const NAME = \"x\";\nfn moves(p) { loop { } }\n").unwrap();
    let o = grundy(&["analyze", "--rules", looping.to_str().unwrap(), "x 3"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("operations"), "{}", stderr(&o));
    let o = grundy(&["analyze", "--rules", "/nonexistent/x.rhai", "nim 3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/x.rhai"), "{}", stderr(&o));
}

/// A script that fails (`throw`, an unknown function, data that grows forever) is reported as
/// its own error with its line, status 1: never as an interruption (status 130), in analyze,
/// sequence and graph --expr alike.
#[test]
fn a_failing_script_is_its_own_error_never_an_interruption() {
    let dir = scratch("script-fails");
    let cases = [
        (
            "throw.rhai",
            "  if n == 7 { throw \"no moves from 7\"; }",
            "no moves from 7",
        ),
        ("unknown.rhai", "  if n == 7 { fail(); }", "fail"),
        (
            "grows.rhai",
            "  if n == 7 { let s = \"ab\"; loop { s += s; } }",
            "too large",
        ),
    ];
    for (file, line, says) in cases {
        let path = dir.join(file);
        std::fs::write(
            &path,
            format!("const NAME = \"x\"; const HEAP = true;\nfn moves(n) {{\n{line}\n  let o = []; for t in 0..n {{ o.push(t); }} o\n}}\n"),
        )
        .unwrap();
        let rules = path.to_str().unwrap();
        for args in [
            vec!["analyze", "--rules", rules, "x 12 + nim 3"],
            vec!["analyze", "--misere", "--rules", rules, "x 9"],
            vec!["sequence", "--rules", rules, "x", "--to", "20"],
            vec!["graph", "--rules", rules, "--expr", "x 9"],
        ] {
            let o = grundy(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
            // A limit (data too large) has no place in Rhai's report: the file and function.
            let place = if says == "too large" {
                format!("{file}: ")
            } else {
                format!("{file}:3:")
            };
            assert!(err.contains(&place), "{args:?}: {err}");
            assert!(err.contains(says), "{args:?}: {err}");
            assert!(!err.contains("interrupted"), "{args:?}: {err}");
        }
    }
}

#[test]
fn rules_lists_the_scripts_rules_with_an_example() {
    let euclid = example("euclid.rhai");
    let square = example("subtract-square.rhai");
    let o = grundy(&["rules", "--rules", &euclid, "--rules", &square]);
    let text = ok_stdout(&o);
    assert!(text.starts_with("nim "), "{text}");
    assert!(text.contains("euclid A B (from "), "{text}");
    assert!(text.contains("Euclid's game"), "{text}");
    assert!(text.contains("\"euclid 21 13\""), "{text}");
    assert!(text.contains("square HEAP... (from "), "{text}");
    assert!(text.contains("a heap rule"), "{text}");
    // Every example printed is a position `analyze` accepts with the same script.
    for script in [&euclid, &square] {
        let line = text
            .lines()
            .find(|l| l.contains("example:") && l.contains(script.as_str()))
            .unwrap();
        let expr = line.rsplit('"').nth(1).unwrap();
        let o = grundy(&["analyze", "--rules", script, expr]);
        assert!(o.status.success(), "{expr}: {}", stderr(&o));
    }
    let o = grundy(&["rules", "--rules", "/nonexistent/x.rhai"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The README's example: a script's heap rule to 5000 with a plot.
#[test]
fn a_script_sequence_to_5000_with_a_plot() {
    let square = example("subtract-square.rhai");
    let dir = scratch("script-5000");
    let plot = dir.join("square.svg");
    let o = grundy(&[
        "sequence",
        "--rules",
        &square,
        "square",
        "--to",
        "5000",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("square: g(0) to g(5000)"),
        "{}",
        stdout(&o)
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("5000"),
        "{svg:.200}"
    );
    // Flags that need a built-in rule are refused, naming the flag.
    for flag in ["--prove", "--stats", "--misere"] {
        let o = grundy(&["sequence", "--rules", &square, "square", flag]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(stderr(&o).contains(flag), "{flag}: {}", stderr(&o));
    }
}

/// The guide's tutorial (docs/src/scripts.md), as a new user runs it: the script saved as mygame.rhai, then the
/// commands shown beside it.
#[test]
fn the_readme_tutorial_runs() {
    let readme = std::fs::read_to_string(format!(
        "{}/../../docs/src/scripts.md",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let start = readme
        .find("```rhai\n// mygame.rhai")
        .expect("the tutorial script")
        + 8;
    let script = &readme[start..start + readme[start..].find("```").unwrap()];
    let dir = scratch("readme-tutorial");
    std::fs::write(dir.join("mygame.rhai"), script).unwrap();
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    let rules = run(&["rules", "--rules", "mygame.rhai"]);
    assert!(rules.contains("\"mygame 10 7\""), "{rules}");
    let a = run(&["analyze", "--rules", "mygame.rhai", "mygame 10 7 + nim 3"]);
    assert!(a.contains("Outcome"), "{a}");
    let s = run(&[
        "sequence",
        "--rules",
        "mygame.rhai",
        "mygame",
        "--to",
        "5000",
        "--plot",
        "mygame.svg",
    ]);
    assert!(s.contains("mygame: g(0) to g(5000)"), "{s}");
    assert!(
        std::fs::read_to_string(dir.join("mygame.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    // The values follow the definition: mex over n - 1, n - 3, n - 4, and 0 for a split.
    let j: serde_json::Value = serde_json::from_str(&run(&[
        "sequence",
        "--rules",
        "mygame.rhai",
        "mygame",
        "--to",
        "300",
        "--json",
    ]))
    .unwrap();
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=300usize {
        let mut seen: Vec<u64> = [1, 3, 4]
            .iter()
            .filter(|&&k| k <= n)
            .map(|&k| g[n - k])
            .collect();
        if n >= 2 && n % 2 == 0 {
            seen.push(0);
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    assert_eq!(j["values"], serde_json::json!(g));
}

/// Ctrl-C stops a script's long sequence like any other run: "interrupted", status 130.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_script_sequence_with_130() {
    let kayles = example("kayles.rhai");
    let (code, err, took) = common::interrupt(
        &[
            "sequence",
            "--rules",
            &kayles,
            "my-kayles",
            "--to",
            "100000",
        ],
        "-INT",
    );
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(err.trim(), "error: interrupted");
    assert!(took < std::time::Duration::from_secs(10), "{took:?}");
}

/// A game whose moves grow the position never ends: `analyze` and `sequence` refuse it at the
/// work limit (each script call is charged), naming the limit and the flag, exit status 1.
#[test]
fn a_script_whose_moves_grow_the_position_is_refused_at_the_work_limit() {
    let dir = scratch("script-grow");
    let path = dir.join("grow.rhai");
    std::fs::write(
        &path,
        "const NAME = \"grow\"; const HEAP = true;\nfn moves(n) { [n + 1] }\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec![
            "analyze",
            "--rules",
            p,
            "grow 5 + nim 1",
            "--max-work",
            "20000000",
        ],
        vec![
            "sequence",
            "--rules",
            p,
            "grow",
            "--to",
            "50",
            "--max-work",
            "20000000",
        ],
    ] {
        let o = grundy(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("more than 20000000 steps of work"),
            "{args:?}: {e}"
        );
    }
}

/// Scripts that grow a container by index assignment, which Rhai's size limits do not see:
/// strings of 512 KiB as map keys or array elements, an array copied into every element of
/// another. Without the memory ceiling each took more than 2 GiB within seconds and aborted
/// the process on a failed allocation; here each is refused at 64 MiB, exit status 1, under
/// an address-space limit of 2 GiB that an unbounded run would hit.
#[test]
fn scripts_that_grow_by_index_assignment_stop_at_the_memory_ceiling() {
    let dir = scratch("script-memory");
    let big = "let s = \"x\"; for i in 0..19 { s += s; }";
    for (name, body) in [
        (
            "keys",
            format!("{big} let m = #{{}}; for i in 0..100000 {{ m[s + i] = 1; }}"),
        ),
        (
            "elements",
            format!("{big} let a = []; a.pad(30000, 0); for i in 0..30000 {{ a[i] = s + i; }}"),
        ),
        (
            "nested",
            "let b = []; b.pad(30000, 0); let a = []; a.pad(30000, 0); \
             for i in 0..30000 { a[i] = b; }"
                .to_string(),
        ),
    ] {
        let path = dir.join(format!("{name}.rhai"));
        std::fs::write(
            &path,
            format!("const NAME = \"bomb\";\nfn moves(n) {{\n  {body}\n  []\n}}\n"),
        )
        .unwrap();
        let o = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 2097152 && exec \"$0\" analyze --rules \"$1\" 'bomb 3'")
            .arg(env!("CARGO_BIN_EXE_grundy"))
            .arg(&path)
            .output()
            .unwrap();
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {e}");
        assert!(
            e.contains("more than 64 MiB of memory in one call") && e.contains("in `moves`"),
            "{name}: {e}"
        );
    }
}
