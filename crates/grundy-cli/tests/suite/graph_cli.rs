//! End-to-end tests of `grundy graph`, running the real binary.

use crate::common;

use common::{grundy_with_input as grundy, ok_stdout, stderr, stdout};

use std::path::PathBuf;

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("grundy-graph-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn judge_format_prints_exactly_win_lose_or_draw() {
    // 1 -> 2 -> 3, 4 -> 3: tokens at 1 (value 0) and 4 (value 1): nim-sum 1, a win.
    let o = grundy(
        &["graph", "--format", "seed"],
        "4 3 2\n1 2\n2 3\n4 3\n1\n4\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "win\n");
    let o = grundy(
        &["graph", "--format", "seed", "-"],
        "4 3 2\n1 2\n2 3\n4 3\n1\n3\n",
    );
    assert_eq!(stdout(&o), "lose\n");
    // A cycle is never an error: a token that can run round it for ever is a draw.
    let o = grundy(&["graph", "--format", "seed"], "2 2 1\n1 2\n2 1\n1\n");
    assert_eq!(stdout(&o), "draw\n");
    // A cycle with an exit to a loss is a win, and its exit a loss.
    let o = grundy(&["graph", "--format", "judge"], "3 3 1\n1 2\n2 1\n2 3\n2\n");
    assert_eq!(stdout(&o), "win\n");
    let o = grundy(&["graph", "--format", "judge"], "3 3 1\n1 2\n2 1\n2 3\n3\n");
    assert_eq!(stdout(&o), "lose\n");
}

#[test]
fn bad_input_names_the_line_and_fails() {
    let o = grundy(&["graph", "--format", "seed"], "3 2 1\n1 2\n2 9\n1\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("<stdin>: line 3, column 3: vertex 9 is out of range"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
    let o = grundy(&["graph"], "a b\nb c d\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line 2:"), "{}", stderr(&o));
    let o = grundy(&["graph", "--tokens", "zz"], "a b\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no vertex named `zz`"),
        "{}",
        stderr(&o)
    );
    let o = grundy(
        &["graph", "--format", "seed", "--max-memory", "64"],
        "10000000 50000000 1\n",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("too large") && stderr(&o).contains("MiB"),
        "{}",
        stderr(&o)
    );
    let o = grundy(
        &["graph", "--kernel", "--max-kernel-draws", "2"],
        "a b\nb c\nc a\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("3 draw vertices, more than the limit of 2"),
        "{}",
        stderr(&o)
    );
    let o = grundy(&["graph", "/nonexistent/graph.txt"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = grundy(
        &["graph", "--expr", "nim 40 40 40", "--max-positions", "50"],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("more than 50 positions"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn json_has_vertices_sum_and_kernel() {
    // A two-cycle a <-> b; a can also move to c, which moves to the loss d; e is isolated.
    let path = temp_file("loopy.txt", "# a loopy game\na b\nb a\na c\nc d\ne\n");
    let o = grundy(
        &[
            "graph",
            path.to_str().unwrap(),
            "--tokens",
            "b,e",
            "--kernel",
            "--json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let vertices = json["vertices"].as_array().unwrap();
    let find = |name: &str| vertices.iter().find(|v| v["name"] == name).unwrap().clone();
    assert_eq!(json["acyclic"], false);
    assert_eq!(find("a")["outcome"], "D");
    assert_eq!(find("a")["value"], serde_json::json!({"inf": [1]}));
    assert_eq!(find("a")["remoteness"], serde_json::Value::Null);
    assert_eq!(find("b")["outcome"], "D");
    assert_eq!(find("b")["value"], serde_json::json!({"inf": []}));
    assert_eq!(find("c")["value"], 1);
    assert_eq!(find("c")["remoteness"], 1);
    assert_eq!(find("d")["value"], 0);
    assert_eq!(find("d")["outcome"], "P");
    // ∞(∅) + 0 is a draw; moving b to a keeps it one.
    assert_eq!(json["sum"]["value"], serde_json::json!({"inf": []}));
    assert_eq!(json["sum"]["outcome"], "D");
    assert_eq!(json["sum"]["winning_moves"], serde_json::json!([]));
    assert_eq!(
        json["sum"]["drawing_moves"],
        serde_json::json!([{"token": 0, "from": "b", "to": "a"}])
    );
    // The kernels: {a, d, e} and {b, d, e}.
    let kernel = json["kernel"]["vertices"].clone();
    assert!(
        kernel == serde_json::json!(["a", "d", "e"])
            || kernel == serde_json::json!(["b", "d", "e"]),
        "{kernel}"
    );
    assert_eq!(json["kernel"]["unique"], false);
    std::fs::remove_file(path).unwrap();
}

#[test]
fn tokens_give_every_winning_move() {
    let o = grundy(
        &["graph", "--tokens", "h3 h1", "--json"],
        "h1 h0\nh2 h1\nh2 h0\nh3 h2\nh3 h1\nh3 h0\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["sum"]["value"], 2);
    assert_eq!(json["sum"]["outcome"], "N");
    assert_eq!(
        json["sum"]["winning_moves"],
        serde_json::json!([{"token": 0, "from": "h3", "to": "h1"}])
    );
}

#[test]
fn text_table_kernel_and_pictures() {
    let dot = std::env::temp_dir().join(format!("grundy-graph-{}.dot", std::process::id()));
    let svg = dot.with_extension("svg");
    let o = grundy(
        &[
            "graph",
            "--expr",
            "nim 1 2",
            "--kernel",
            "--dot",
            dot.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ],
        "",
    );
    let text = ok_stdout(&o);
    assert!(text.contains("nim 1 2  3           N        3"), "{text}");
    assert!(text.contains("Winning moves (1)"), "{text}");
    assert!(
        text.contains("Kernel (2 vertices, the only one): nim 1 1, nim 0 0"),
        "{text}"
    );
    let dot_text = std::fs::read_to_string(&dot).unwrap();
    assert!(dot_text.starts_with("digraph game {"), "{dot_text}");
    assert!(dot_text.contains("label=\"nim 1 2\\n3\""), "{dot_text}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    std::fs::remove_file(dot).unwrap();
    std::fs::remove_file(svg).unwrap();
    // Tokens name positions in any order of their components.
    let o = grundy(
        &[
            "graph", "--expr", "nim 1 2", "--tokens", "nim 1 0", "--tokens", "nim 2 0",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Sum of tokens at nim 1 0, nim 0 2"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("Value     3"), "{}", stdout(&o));
    // An odd cycle has no kernel.
    let o = grundy(&["graph", "--kernel"], "a b\nb c\nc a\n");
    assert!(stdout(&o).contains("No kernel"), "{}", stdout(&o));
}

#[test]
fn judge_numbers_may_break_lines_anywhere() {
    // The example: one line, no final newline.
    let o = grundy(&["graph", "--format", "judge"], "2 1 1 1 2 1");
    assert_eq!(ok_stdout(&o), "win\n");
    // One number a line, blank lines, Windows line ends, tabs: the same problem.
    let o = grundy(
        &["graph", "--format", "judge"],
        "4\r\n3\r\n2\r\n\r\n1\t2 2\n3 4\n\n3 1\n4",
    );
    assert_eq!(ok_stdout(&o), "win\n");
    // `seed` is the same format under its old name.
    let o = grundy(&["graph", "--format", "seed"], "2 1 1 1 2 1");
    assert_eq!(ok_stdout(&o), "win\n");
    // A bad number anywhere is named by line and column.
    let o = grundy(&["graph", "--format", "judge"], "3 2 1 1 2\n  2 x 1");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "<stdin>: line 2, column 5: expected a vertex number (1 to 3) for edge 2 of 2, found `x`"
        ),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty());
}

/// Random judge problems (seeded): `--cases` on all of them answers each line as the problem
/// answers alone, and a file re-wrapped at random token boundaries answers the same.
#[test]
fn cases_answer_each_case_as_it_answers_alone() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |below: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % below
    };
    let mut cases = Vec::new();
    for _ in 0..12 {
        let n = 1 + next(7);
        let m = next(12);
        let k = next(4);
        let mut numbers = vec![n, m, k];
        for _ in 0..2 * m + k {
            numbers.push(1 + next(n));
        }
        cases.push(numbers);
    }
    let join = |numbers: &[u64], next: &mut dyn FnMut(u64) -> u64| {
        let mut text = String::new();
        for x in numbers {
            text.push_str(&x.to_string());
            text.push_str([" ", "\n", "\t", "\r\n", " \n\n"][next(5) as usize]);
        }
        text
    };
    let mut alone = String::new();
    for case in &cases {
        let o = grundy(&["graph", "--format", "judge"], &join(case, &mut next));
        alone.push_str(&ok_stdout(&o));
    }
    assert_eq!(alone.lines().count(), cases.len());
    let mut all = vec![cases.len() as u64];
    all.extend(cases.iter().flatten());
    let path = temp_file("cases.txt", &join(&all, &mut next));
    let o = grundy(
        &[
            "graph",
            "--format",
            "judge",
            "--cases",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(ok_stdout(&o), alone);
    // --cases implies the judge format.
    let o = grundy(&["graph", "--cases", "-"], &join(&all, &mut next));
    assert_eq!(ok_stdout(&o), alone);
    std::fs::remove_file(path).unwrap();
    // No cases, no lines.
    let o = grundy(&["graph", "--cases"], "0\n");
    assert_eq!(ok_stdout(&o), "");
}

#[test]
fn cases_refuse_a_huge_count_and_a_cut_case_with_its_place() {
    let o = grundy(&["graph", "--cases"], "99999999999999999999999\n1 0 0\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "line 1, column 1: T = 99999999999999999999999 test cases is more than the 4294967295"
        ),
        "{}",
        stderr(&o)
    );
    // A count far beyond the input: refused when the input ends, naming the case.
    let o = grundy(&["graph", "--cases"], "1000000\n1 0 0\n2 1 1 1 2 1\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("case 3 of 1000000: line 4, column 1: expected `N M K`"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty(), "answers only when every case is read");
    let o = grundy(
        &["graph", "--cases"],
        "2\n2 1 1\n1 2\n1\n3 2 1\n1 2\n2 9\n1\n",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("case 2 of 2: line 7, column 3: vertex 9 is out of range"),
        "{}",
        stderr(&o)
    );
    let o = grundy(&["graph", "--cases"], "1\n1 0 0\n1\n");
    assert!(
        stderr(&o).contains("line 3, column 1: unexpected `1` after the 1 test case"),
        "{}",
        stderr(&o)
    );
    // A case too large for the memory limit: refused with its figure, like a single case.
    let o = grundy(
        &["graph", "--cases", "--max-memory", "64"],
        "2\n1 0 0\n10000000 50000000 1\n",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "case 2 of 2: too large: a graph of 10000000 vertices and 50000000 edges needs about"
        ),
        "{}",
        stderr(&o)
    );
    // --cases is the judge format only, and answers win / lose / draw only.
    let o = grundy(&["graph", "--cases", "--format", "edges"], "1\n1 0 0\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--cases reads the judge format"),
        "{}",
        stderr(&o)
    );
    let o = grundy(&["graph", "--cases", "--json"], "1\n1 0 0\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}

#[test]
fn one_name_for_the_judge_format_and_a_note_on_infinite_values() {
    let o = grundy(&["graph", "--help"], "");
    let help = ok_stdout(&o);
    assert!(help.contains("--format judge"), "{help}");
    assert!(help.contains("`seed` is another name"), "{help}");
    assert!(help.contains("--cases"), "{help}");
    assert!(
        help.contains("∞(K), C. A. B. Smith's generalised Sprague-Grundy value"),
        "{help}"
    );
    assert!(
        help.contains("exactly\n  when b is in K") || help.contains("when b is in K"),
        "{help}"
    );
    // The option list and its errors say `judge`.
    assert!(help.contains("judge:"), "{help}");
    assert!(!help.contains("seed:"), "{help}");
    let o = grundy(&["graph", "--format", "nope"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("judge"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("seed"), "{}", stderr(&o));
    // A table with ∞ values ends with a one-line footnote; one without has none.
    let o = grundy(&["graph"], "a b\nb a\na c\nc d\n");
    let text = ok_stdout(&o);
    assert!(text.contains("∞(1)"), "{text}");
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("∞(K): Smith's value of a loopy position"),
        "{text}"
    );
    assert!(last.contains("grundy graph --help"), "{text}");
    let o = grundy(&["graph"], "a b\nb c\n");
    assert!(!ok_stdout(&o).contains("∞"), "{}", stdout(&o));
}
