//! End-to-end tests of `grundy graph`, running the real binary.

mod common;

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
        stderr(&o).contains("line 3: vertex 9 is out of range"),
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
