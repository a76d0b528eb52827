//! End-to-end: the board and graph games (Cram, Node Kayles, Arc Kayles, Chomp) through the
//! real `grundy` binary.

use crate::common;

use common::{grundy, json, stderr, stdout};

/// Every winning move's result is a P-position when analysed again.
fn winning_moves_lead_to_p(v: &serde_json::Value) {
    let moves = v["winning_moves"].as_array().expect("winning moves");
    assert!(!moves.is_empty(), "{v}");
    for m in moves {
        let r = json(&grundy(&[
            "analyze",
            m["result"].as_str().expect("a result"),
            "--json",
        ]));
        assert_eq!(r["outcome"], "P", "{m} leads to {r}");
    }
}

#[test]
fn cram_4x5_has_its_published_value_and_winning_moves() {
    // Cram 4 x 5 is *2 (Lemoine and Viennot's table, also in tests/data).
    let v = json(&grundy(&["analyze", "cram 4x5", "--json"]));
    assert_eq!(v["value"], 2);
    assert_eq!(v["outcome"], "N");
    let first = v["winning_moves"][0]["move"].as_str().unwrap();
    assert!(first.starts_with("domino ("), "{first}");
    winning_moves_lead_to_p(&v);
}

#[test]
fn the_value_alone_or_one_winning_move_when_asked() {
    let all = json(&grundy(&["analyze", "cram 3x5 + nim 2", "--json"]));
    let all_moves: Vec<&str> = all["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["result"].as_str().unwrap())
        .collect();
    assert!(all_moves.len() > 1, "{all}");
    assert_eq!(all["winning_moves_complete"], true);
    // The value alone: the same value and outcome, no moves, and a note saying so.
    let none = json(&grundy(&[
        "analyze",
        "cram 3x5 + nim 2",
        "--no-moves",
        "--json",
    ]));
    assert_eq!(
        (&none["value"], &none["outcome"]),
        (&all["value"], &all["outcome"])
    );
    assert_eq!(none["winning_moves"].as_array().unwrap().len(), 0);
    assert_eq!(none["winning_moves_complete"], false);
    assert!(
        none["winning_moves_note"]
            .as_str()
            .unwrap()
            .contains("not looked for"),
        "{none}"
    );
    // One winning move: one of all of them.
    let one = json(&grundy(&[
        "analyze",
        "cram 3x5 + nim 2",
        "--one-move",
        "--json",
    ]));
    let moves = one["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 1, "{one}");
    assert!(all_moves.contains(&moves[0]["result"].as_str().unwrap()));
    winning_moves_lead_to_p(&one);
    // Text says it too; a P-position has nothing left out; the two flags conflict.
    let text = stdout(&grundy(&["analyze", "cram 4x9", "--no-moves"]));
    assert!(text.contains("Value     1"), "{text}");
    assert!(text.contains("Winning moves were not looked for"), "{text}");
    // Two threads: the same answer, byte for byte; no thread at all is refused.
    let two = grundy(&["analyze", "cram 4x9", "--no-moves", "--threads", "2"]);
    assert_eq!(stdout(&two), text);
    let none = grundy(&["analyze", "cram 4x9", "--threads", "0"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("threads 0"), "{}", stderr(&none));
    let p = json(&grundy(&["analyze", "cram 4x4", "--no-moves", "--json"]));
    assert_eq!(p["winning_moves_complete"], true);
    let both = grundy(&["analyze", "nim 1", "--no-moves", "--one-move"]);
    assert_eq!(both.status.code(), Some(2));
    let both = stderr(&both);
    assert!(both.contains("cannot be used with"), "{both}");
}

#[test]
fn node_kayles_graph_and_arc_kayles() {
    // A 4-cycle with a pendant vertex: take vertex 2 and its neighbours 1, 3, 4 leave,
    // leaving vertex 0 alone; the value is worked out by the search.
    let v = json(&grundy(&[
        "analyze",
        "node-kayles 0-1 1-2 2-3 3-0 2-4",
        "--json",
    ]));
    assert_eq!(v["outcome"], "N");
    let generic = json(&grundy(&[
        "analyze",
        "node-kayles 0-1 1-2 2-3 3-0 2-4",
        "--json",
        "--engine",
        "generic",
    ]));
    assert_eq!(v["value"], generic["value"]);
    assert!(
        v["winning_moves"][0]["move"]
            .as_str()
            .unwrap()
            .starts_with("take vertex")
    );
    winning_moves_lead_to_p(&v);
    // A triangle in Arc Kayles: every edge taken leaves one vertex: *1.
    let v = json(&grundy(&["analyze", "arc-kayles 0-1 1-2 2-0", "--json"]));
    assert_eq!(v["value"], 1);
}

#[test]
fn chomp_rectangles_are_first_player_wins() {
    let v = json(&grundy(&["analyze", "chomp 4x5", "--json"]));
    assert_eq!(v["outcome"], "N");
    let generic = json(&grundy(&[
        "analyze",
        "chomp 4x5",
        "--json",
        "--engine",
        "generic",
    ]));
    assert_eq!(v["value"], generic["value"]);
    assert!(
        v["winning_moves"][0]["move"]
            .as_str()
            .unwrap()
            .starts_with("bite (")
    );
    winning_moves_lead_to_p(&v);
}

#[test]
fn boards_sum_with_other_games() {
    let v = json(&grundy(&[
        "analyze",
        "cram 3x3 + nim 3 + kayles 7",
        "--json",
    ]));
    // Cram 3 x 3 is *0 (tests/data), Kayles 7 is *2: 0 ^ 3 ^ 2 = 1.
    assert_eq!(v["value"], 1);
}

#[test]
fn malformed_boards_and_graphs_are_located_errors() {
    for (expr, what) in [
        ("cram ..#/.x.", "`x` is not a cell"),
        ("cram ../...", "every row must be as long"),
        ("chomp 3,4", "row lengths never increase"),
        ("cram 0x5", "at least 1"),
    ] {
        let o = grundy(&["analyze", expr]);
        assert_eq!(o.status.code(), Some(2), "{expr}");
        let err = stderr(&o);
        assert!(err.contains(what), "{expr}: {err}");
        assert!(err.contains('^'), "{expr}: no location in {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn too_big_boards_are_refused_but_symmetry_answers_at_any_size() {
    // Odd x odd, 143 cells: beyond the search and no closed form.
    let o = grundy(&["analyze", "cram 11x13"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("at most 128 cells"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // Even x even: 0 by the central symmetry, at once, at any size.
    let v = json(&grundy(&["analyze", "cram 20000x30000", "--json"]));
    assert_eq!(v["value"], 0);
    assert_eq!(v["outcome"], "P");
    // A single row is Dawson's Kayles, at any length.
    let v = json(&grundy(&["analyze", "cram 1x1000000", "--json"]));
    assert!(v["value"].is_number(), "{v}");
}

#[test]
fn a_board_cut_short_by_the_work_limit_gets_its_outcome_and_a_hint() {
    // Cram 6 x 7 needs minutes: under a small work limit the analysis still answers what
    // theory gives (even x odd: the first player wins) and says which flag gets the rest.
    let o = grundy(&["analyze", "cram 6x7", "--max-work", "2000000"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = common::stdout(&o);
    assert!(out.contains("N: the player to move wins"), "{out}");
    assert!(out.contains("No value") && out.contains("2000000"), "{out}");
    let err = stderr(&o);
    assert!(
        err.contains("hint:") && err.contains("--max-work") && err.contains("2000000"),
        "{err}"
    );
    // A full answer gets no hint.
    let o = grundy(&["analyze", "cram 3x4 + nim 1"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!stderr(&o).contains("hint:"), "{}", stderr(&o));
}

#[test]
fn paths_and_cycles_of_any_size_go_through_dawsons_chess_and_say_so() {
    // A path of 1000 vertices and a cycle of 500 (too big for the search's 128 vertices):
    // the path is Dawson's chess on 1000, and every move on the cycle leaves a path of 497.
    let path: Vec<String> = (0..999).map(|i| format!("{i}-{}", i + 1)).collect();
    let cycle: Vec<String> = (0..500)
        .map(|i| format!("{}-{}", 2000 + i, 2000 + (i + 1) % 500))
        .collect();
    let expr = format!("node-kayles {} {}", path.join(" "), cycle.join(" "));
    let v = json(&grundy(&["analyze", &expr, "--json"]));
    let heap = |n: &str| {
        json(&grundy(&["analyze", &format!("dawson {n}"), "--json"]))["value"]
            .as_u64()
            .expect("a value")
    };
    let expected = heap("1000") ^ u64::from(heap("497") == 0);
    assert_eq!(v["value"].as_u64(), Some(expected), "{v}");
    let why = v["explanation"].to_string();
    assert!(
        why.contains("every connected part is a path or a cycle (1 path, 1 cycle)")
            && why.contains("Dawson's chess (0.137)"),
        "{why}"
    );
}

/// `--checkpoint`: a search stopped by its work limit, or by SIGTERM, keeps its table in the
/// file; the same command run again starts from it and, run enough times, answers with the
/// value one long run finds.
#[cfg(unix)]
#[test]
fn a_checkpoint_keeps_a_stopped_search_for_the_next_run() {
    let dir = common::scratch("checkpoint");
    let file = dir.join("cram-5x8.tbl");
    let file = file.to_str().unwrap();
    let args = [
        "analyze",
        "cram 5x8",
        "--no-moves",
        "--max-work",
        "3000000",
        "--checkpoint",
        file,
    ];
    let mut runs = 0;
    let value = loop {
        let out = grundy(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        runs += 1;
        assert!(
            stderr(&out).contains(&format!("entries in {file}")),
            "{}",
            stderr(&out)
        );
        if runs > 1 {
            assert!(stderr(&out).contains("started from "), "{}", stderr(&out));
        }
        if let Some(line) = stdout(&out).lines().find(|l| l.starts_with("Value")) {
            break line.to_owned();
        }
        assert!(runs < 60, "no value after {runs} runs");
    };
    assert!(runs > 2, "{runs}");
    assert_eq!(value, "Value     1");

    // SIGTERM: the table is kept, status 130, and the next run starts from it.
    let big = dir.join("cram-5x9.tbl");
    let big = big.to_str().unwrap();
    let long = [
        "analyze",
        "cram 5x9",
        "--no-moves",
        "--max-work",
        "100000000000",
        "--checkpoint",
        big,
    ];
    let (code, err, _) = common::interrupt(&long, "-TERM");
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains(&format!("entries in {big}")), "{err}");
    let again = grundy(&[&long[..4], &["1000", "--checkpoint", big]].concat());
    assert!(
        stderr(&again).contains("started from "),
        "{}",
        stderr(&again)
    );

    // A file that is no checkpoint is refused, and left as it was.
    std::fs::write(big, "not a table\n").unwrap();
    let refused = grundy(&long);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("not a search table"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(std::fs::read_to_string(big).unwrap(), "not a table\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--end-table FILE`: computed and written the first time, read the next; the answers
/// (value and winning moves) are those of the search without it; a damaged file and a box
/// too tall are refused, naming the file or the figure.
#[test]
fn an_end_table_is_made_once_and_changes_no_answer() {
    let dir = common::scratch("end-table");
    let file = dir.join("end-4.tbl");
    let file = file.to_str().unwrap();
    let plain = json(&grundy(&["analyze", "cram 5x5", "--json"]));
    let args = [
        "analyze",
        "cram 5x5",
        "--json",
        "--end-table",
        file,
        "--end-rows",
        "4",
    ];
    let first = grundy(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        stderr(&first).contains(&format!(
            "computed and wrote the end table of 4 rows of 4 cells (32 KiB) in {file}"
        )),
        "{}",
        stderr(&first)
    );
    assert_eq!(json(&first), plain);
    let second = grundy(&args);
    assert!(
        stderr(&second).contains("read the end table of 4 rows"),
        "{}",
        stderr(&second)
    );
    assert_eq!(json(&second), plain);
    // A board whose regions need the narrow frame (4 x 9) and a sum.
    for expr in ["cram 4x9 + nim 1", "cram 3x7"] {
        let with = json(&grundy(&["analyze", expr, "--json", "--end-table", file]));
        assert_eq!(with, json(&grundy(&["analyze", expr, "--json"])), "{expr}");
    }

    let mut bytes = std::fs::read(file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(file, &bytes).unwrap();
    let refused = grundy(&args);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("damaged"), "{}", stderr(&refused));
    assert!(stderr(&refused).contains(file), "{}", stderr(&refused));
    assert_eq!(
        std::fs::read(file).unwrap(),
        bytes,
        "the file is left as it was"
    );

    let other = dir.join("end-9.tbl");
    let tall = grundy(&[
        "analyze",
        "cram 5x5",
        "--end-table",
        other.to_str().unwrap(),
        "--end-rows",
        "9",
    ]);
    assert_eq!(tall.status.code(), Some(2), "{}", stderr(&tall));
    assert!(stderr(&tall).contains("--end-rows"), "{}", stderr(&tall));
    assert!(!other.exists());
    // A table that cannot be written (no such directory) is status 1, naming the file.
    let nowhere = dir.join("missing").join("end.tbl");
    let blocked = grundy(&[
        "analyze",
        "cram 5x5",
        "--end-table",
        nowhere.to_str().unwrap(),
        "--end-rows",
        "2",
    ]);
    assert_eq!(blocked.status.code(), Some(1), "{}", stderr(&blocked));
    assert!(stderr(&blocked).contains("missing"), "{}", stderr(&blocked));
}
