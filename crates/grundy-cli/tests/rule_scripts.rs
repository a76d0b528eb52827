//! `--rules FILE`: rule scripts in analyze, sequence and graph, end to end.

mod common;
use common::{grundy, json, scratch, stderr};

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
    assert_eq!(j["rules"], "square");
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
