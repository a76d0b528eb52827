//! `grundy census` and `grundy atlas` end to end: the database file, the card, the listings,
//! twins, raw SQL, the exit statuses of bad patterns, damaged and future files, and a
//! census interrupted by Ctrl-C that resumes without recomputing.

use crate::common::{grundy, json, ok_stdout, scratch, stderr};
use std::path::Path;

fn db(dir: &Path) -> String {
    dir.join("atlas.sqlite").display().to_string()
}

#[test]
fn census_then_cards_listings_twins_and_sql() {
    let dir = scratch("atlas-cli");
    let db = db(&dir);
    let out = ok_stdout(&grundy(&[
        "census", "0.??", "kayles", "--to", "500", "--db", &db,
    ]));
    assert!(out.starts_with("0.?? kayles to g(500): 63 games"), "{out}");
    assert!(out.contains("computed 63 in"), "{out}");
    // Again: every game is skipped.
    let again = json(&grundy(&[
        "census", "0.?", "--to", "500", "--db", &db, "--json",
    ]));
    assert_eq!(
        (again["computed"].as_u64(), again["skipped"].as_u64()),
        (Some(0), Some(7))
    );

    let card = ok_stdout(&grundy(&["atlas", "kayles", "--db", &db]));
    assert!(card.starts_with("0.77\n"), "{card}");
    assert!(card.contains("proven: period 12 from n = 71"), "{card}");
    assert!(card.contains("last exceptional heap 70"), "{card}");
    let card = json(&grundy(&["atlas", "0.07", "--db", &db, "--json"]));
    assert_eq!(card["game"]["period"], 34);
    assert_eq!(card["game"]["preperiod"], 53);
    assert_eq!(card["game"]["status"], "proven");
    assert!(card["same_as"].is_array());

    let open = json(&grundy(&["atlas", "0.??", "--open", "--db", &db, "--json"]));
    let solved = json(&grundy(&[
        "atlas", "0.??", "--solved", "--db", &db, "--json",
    ]));
    let (o, s) = (
        open["rows"].as_array().unwrap(),
        solved["rows"].as_array().unwrap(),
    );
    assert_eq!(o.len() + s.len(), 63);
    assert!(o.iter().all(|r| r["status"] != "proven"));
    assert!(s.iter().any(|r| r["code"] == "0.77"));
    let csv = ok_stdout(&grundy(&["atlas", "0.?", "--db", &db, "--csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("code,status,target,computed_to"),
        "{csv}"
    );
    assert_eq!(lines.len(), 8, "{csv}");
    let text = ok_stdout(&grundy(&["atlas", "0.?", "--db", &db]));
    assert!(text.ends_with("7 of the 7 games of 0.?\n"), "{text}");

    // The games with 0.3's sequence have its first values.
    let twins = json(&grundy(&[
        "atlas",
        "--same-as",
        "0.3",
        "--db",
        &db,
        "--json",
    ]));
    for t in twins.as_array().unwrap() {
        let code = t["code"].as_str().unwrap();
        let other = json(&grundy(&["atlas", code, "--db", &db, "--json"]));
        let mine = json(&grundy(&["atlas", "0.3", "--db", &db, "--json"]));
        assert_eq!(other["game"]["first_values"], mine["game"]["first_values"]);
    }

    let sql = json(&grundy(&[
        "atlas",
        "--sql",
        "SELECT code, period FROM games WHERE code IN ('0.77', '0.137') ORDER BY code",
        "--db",
        &db,
        "--json",
    ]));
    assert_eq!(sql["columns"], serde_json::json!(["code", "period"]));
    assert_eq!(sql["rows"], serde_json::json!([["0.77", 12]]));
    let csv = ok_stdout(&grundy(&[
        "atlas",
        "--sql",
        "SELECT count(*) AS n FROM games",
        "--db",
        &db,
        "--csv",
    ]));
    assert_eq!(csv, "n\n63\n", "kayles is 0.77, one of 0.??");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn refusals_name_what_and_where() {
    let dir = scratch("atlas-refusals");
    let db = db(&dir);
    let bad = grundy(&["census", "0.?y", "--to", "10", "--db", &db]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("`y`"), "{}", stderr(&bad));
    assert!(!Path::new(&db).exists(), "a bad pattern touches no file");
    let big = grundy(&["census", "0.??????", "--to", "10", "--db", &db]);
    assert_eq!(big.status.code(), Some(2));
    assert!(stderr(&big).contains("262144"), "{}", stderr(&big));
    let none = grundy(&["atlas", "0.1", "--db", &db]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("no such file"), "{}", stderr(&none));

    ok_stdout(&grundy(&["census", "0.?", "--to", "50", "--db", &db]));
    for write in [
        "DELETE FROM games",
        "DROP TABLE runs",
        "PRAGMA user_version = 7",
    ] {
        let out = grundy(&["atlas", "--sql", write, "--db", &db]);
        assert_eq!(out.status.code(), Some(2), "{write}");
        assert!(
            stderr(&out).contains("read-only"),
            "{write}: {}",
            stderr(&out)
        );
    }
    let missing = grundy(&["atlas", "0.137", "--db", &db]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stderr(&missing).contains("grundy census 0.137"),
        "{}",
        stderr(&missing)
    );

    let damaged = dir.join("damaged.sqlite");
    std::fs::write(
        &damaged,
        b"this is not a database, not even a little bit of one",
    )
    .unwrap();
    let damaged = damaged.display().to_string();
    for args in [
        vec!["atlas", "0.1", "--db", &damaged],
        vec!["census", "0.1", "--to", "10", "--db", &damaged],
    ] {
        let out = grundy(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains("damaged.sqlite is not an atlas database"),
            "{err}"
        );
    }

    let future = dir.join("future.sqlite");
    let conn = rusqlite::Connection::open(&future).unwrap();
    conn.pragma_update(None, "user_version", 3).unwrap();
    conn.execute_batch("CREATE TABLE games (code TEXT)")
        .unwrap();
    drop(conn);
    let future = future.display().to_string();
    let out = grundy(&["atlas", "0.1", "--db", &future]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("schema version 3, newer"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn an_interrupted_census_keeps_its_games_and_resumes() {
    let dir = scratch("atlas-interrupt");
    let db = db(&dir);
    let args = ["census", "0.???", "--to", "300000", "--db", &db];
    let (code, err, took) = crate::common::interrupt(&args, "-INT");
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("interrupted after"), "{err}");
    assert!(took.as_secs() < 10, "stopped in {took:?}");
    let count = |db: &str| {
        json(&grundy(&[
            "atlas",
            "--sql",
            "SELECT count(*) FROM games",
            "--db",
            db,
            "--json",
        ]))["rows"][0][0]
            .as_u64()
            .unwrap()
    };
    let kept = count(&db);
    assert!(kept > 0, "some games finished before the interrupt");
    let runs = json(&grundy(&[
        "atlas",
        "--sql",
        "SELECT status FROM runs",
        "--db",
        &db,
        "--json",
    ]));
    assert_eq!(runs["rows"], serde_json::json!([["interrupted"]]));
    // The games kept are skipped by the next census of the same family (interrupted again:
    // the whole family to 300000 is a benchmark, not a test).
    let (code, err, _) = crate::common::interrupt(&args, "-INT");
    assert_eq!(code, Some(130), "{err}");
    let skipped = json(&grundy(&[
        "atlas",
        "--sql",
        "SELECT skipped FROM runs WHERE id = 2",
        "--db",
        &db,
        "--json",
    ]));
    assert_eq!(skipped["rows"][0][0].as_u64(), Some(kept));
    assert!(count(&db) >= kept);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `census --misere MAXHEAP` keeps each game's bounded misère quotient; the card shows it
/// (0.75's is Plambeck and Siegel's R8: order 8, P-portion of 2); a MAXHEAP out of range is
/// bad input.
#[test]
fn census_with_misere_quotients_and_the_card() {
    let dir = scratch("atlas-misere");
    let db = db(&dir);
    let out = ok_stdout(&grundy(&[
        "census", "0.75", "0.07", "--to", "200", "--misere", "16", "--db", &db,
    ]));
    assert!(
        out.contains("misère quotients of heaps 1 to 16: 2 computed, 0 refused"),
        "{out}"
    );
    let card = ok_stdout(&grundy(&["atlas", "0.75", "--db", &db]));
    assert!(
        card.contains("misère quotient       order 8, P-portion 2 (heaps 1 to"),
        "{card}"
    );
    let card = json(&grundy(&["atlas", "0.75", "--db", &db, "--json"]));
    assert_eq!(card["misere"]["order"], 8);
    assert_eq!(card["misere"]["max_heap"], 16);
    let bad = grundy(&["census", "0.75", "--to", "20", "--misere", "0", "--db", &db]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(
        stderr(&bad).contains("--misere 0 is out of range"),
        "{}",
        stderr(&bad)
    );
}

/// A code's digits and constraints read from its name (`0.4!4`, `4!.0`, `0.f`): for each
/// digit, its value and its marker (`!`, `=` or none).
fn code_places(name: &str) -> Vec<(u32, Option<char>)> {
    let mut places: Vec<(u32, Option<char>)> = Vec::new();
    for c in name.chars() {
        match c {
            '.' => {}
            '!' | '=' => places.last_mut().unwrap().1 = Some(c),
            c => places.push((c.to_digit(16).unwrap(), None)),
        }
    }
    places
}

/// g(0) to g(to) of a code by the definition, slowly: removing j tokens (digit j) from a
/// heap may leave k heaps, all nonempty, when bit k of the digit is set; `!` wants the heaps
/// a split leaves pairwise unequal, `=` all equal.
fn brute_force_values(name: &str, to: usize) -> Vec<u64> {
    let places = code_places(name);
    let mut g: Vec<u64> = Vec::with_capacity(to + 1);
    for n in 0..=to {
        let mut options = std::collections::HashSet::new();
        for (j, &(digit, marker)) in places.iter().enumerate().take(n + 1) {
            let r = n - j;
            let fits = |parts: &[usize]| match marker {
                Some('!') => parts.windows(2).all(|w| w[0] != w[1]),
                Some('=') => parts.windows(2).all(|w| w[0] == w[1]),
                _ => true,
            };
            if digit & 1 != 0 && r == 0 {
                options.insert(0);
            }
            if digit & 2 != 0 && r >= 1 {
                options.insert(g[r]);
            }
            if digit & 4 != 0 {
                for a in 1..=r / 2 {
                    if r - a >= 1 && fits(&[a, r - a]) {
                        options.insert(g[a] ^ g[r - a]);
                    }
                }
            }
            if digit & 8 != 0 {
                for a in 1..=r / 3 {
                    for b in a..=(r - a) / 2 {
                        let c = r - a - b;
                        if c >= b && fits(&[a, b, c]) {
                            options.insert(g[a] ^ g[b] ^ g[c]);
                        }
                    }
                }
            }
        }
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    g
}

#[test]
fn the_brute_force_knows_grundys_game_and_kayles() {
    // Grundy's game (4!.0), OEIS A002188, and Kayles (0.77), OEIS A002186.
    assert_eq!(
        brute_force_values("4!.0", 20),
        [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0
        ]
    );
    assert_eq!(
        brute_force_values("0.77", 15),
        [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]
    );
}

#[test]
fn hexadecimal_and_constrained_families_agree_with_the_definition() {
    let dir = scratch("atlas-hex");
    let db = db(&dir);
    let out = json(&grundy(&[
        "census", "0.x", "4!.?", "0.?=", "8.x", "c=.?", "--to", "200", "--db", &db, "--json",
    ]));
    // 0.x: 15 games (0.0 is none); 4!.?: 8; 0.?=: 0.4= to 0.7=; 8.x: 16; c=.?: 8.
    assert_eq!(out["games"], 15 + 8 + 4 + 16 + 8, "{out}");
    // Left out: 0.0, and 0.0= to 0.3= (no move, or `=` on a digit that does not split).
    assert_eq!(out["left_out"], 1 + 4, "{out}");
    let mut names = Vec::new();
    for pattern in ["0.x", "4!.?", "0.?=", "8.x", "c=.?"] {
        let rows = json(&grundy(&["atlas", pattern, "--db", &db, "--json"]));
        assert_eq!(rows["missing"], 0, "{pattern}: {rows}");
        for row in rows["rows"].as_array().unwrap() {
            names.push(row["code"].as_str().unwrap().to_string());
            let first: Vec<u64> = row["first_values"]
                .as_str()
                .unwrap()
                .split(' ')
                .map(|v| v.parse().unwrap())
                .collect();
            assert_eq!(first.len(), 64, "{row}");
            let code = row["code"].as_str().unwrap();
            assert_eq!(first, brute_force_values(code, 63), "{code}");
        }
    }
    for name in ["0.f", "0.8", "4!.0", "4!.7", "0.4=", "0.7=", "8.f", "c=.3"] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    // Grundy's game is in 4!.?, and is 4!.0's card.
    let card = json(&grundy(&["atlas", "grundys-game", "--db", &db, "--json"]));
    assert_eq!(card["game"]["code"], "4!.0");
}

#[test]
fn patterns_the_heap_rules_cannot_write_are_refused() {
    let dir = scratch("atlas-hex-bad");
    let db = db(&dir);
    for (pattern, says) in [
        ("0.!?", "must follow"),
        ("0.?g", "`g` is not a digit"),
        ("0.xxxxx", "1048576"),
    ] {
        let out = grundy(&["census", pattern, "--to", "10", "--db", &db]);
        assert_eq!(out.status.code(), Some(2), "{pattern}");
        assert!(stderr(&out).contains(says), "{pattern}: {}", stderr(&out));
    }
}
