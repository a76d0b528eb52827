//! The atlas: a census against the definition, the published periods of solved codes
//! (`../data/heap/*.txt`, each naming its source), resuming without recomputing, damaged
//! and future files, read-only SQL.

use grundy::atlas::{
    Atlas, AtlasError, CensusEvent, CensusOptions, CensusSummary, Filter, GameStatus, census,
};
use grundy::control::Control;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-atlas-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("atlas.sqlite")
}

fn run(path: &Path, patterns: &[&str], to: u64) -> CensusSummary {
    let mut atlas = Atlas::create_or_open(path).unwrap();
    run_in(&mut atlas, patterns, &CensusOptions::new(to))
}

fn run_in(atlas: &mut Atlas, patterns: &[&str], options: &CensusOptions) -> CensusSummary {
    let patterns: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
    census(atlas, &patterns, options, &mut |_| {}, &Control::none()).unwrap()
}

/// g(0..=to) of the octal code `digits` (`digits[j]` for removing j tokens, `digits[0]`
/// 4 for a split without removal), from the definition: the mex of the options' values.
fn slow_octal(digits: &[u8], to: usize) -> Vec<u16> {
    let mut g: Vec<u16> = Vec::with_capacity(to + 1);
    for n in 0..=to {
        let mut seen = vec![false; 2 * n + 2];
        for (j, &d) in digits.iter().enumerate() {
            if j > n || (j == 0 && d & 4 == 0) {
                continue;
            }
            let rest = n - j;
            if j == 0 {
                // A split without removal (digit 0 = 4).
                for a in 1..n {
                    seen[(g[a] ^ g[n - a]) as usize] = true;
                }
                continue;
            }
            if d & 1 != 0 && rest == 0 {
                seen[0] = true;
            }
            if d & 2 != 0 && rest >= 1 {
                seen[g[rest] as usize] = true;
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    let v = (g[a] ^ g[rest - a]) as usize;
                    if v < seen.len() {
                        seen[v] = true;
                    }
                }
            }
        }
        g.push(seen.iter().position(|&s| !s).unwrap() as u16);
    }
    g
}

/// Every checksum the atlas keeps of `code`: (length, checksum).
fn checksums(atlas: &Atlas, code: &str) -> Vec<(u64, String)> {
    let q = format!("SELECT length, checksum FROM checksums WHERE code = '{code}' ORDER BY length");
    let answer = atlas.sql(&q, 1000, None).unwrap();
    answer
        .rows
        .iter()
        .map(|r| (r[0].as_u64().unwrap(), r[1].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn census_of_two_digit_codes_agrees_with_the_definition() {
    const TO: usize = 300;
    let path = scratch("two-digit");
    let summary = run(&path, &["0.??"], TO as u64);
    assert_eq!((summary.games, summary.left_out), (63, 1));
    assert_eq!(summary.computed, 63);
    assert_eq!(summary.refused, 0);
    let atlas = Atlas::open(&path).unwrap();
    let mut by_sequence: BTreeMap<Vec<u16>, BTreeSet<String>> = BTreeMap::new();
    for d1 in 0..8u8 {
        for d2 in 0..8u8 {
            if (d1, d2) == (0, 0) {
                continue;
            }
            let code = if d2 == 0 {
                format!("0.{d1}")
            } else {
                format!("0.{d1}{d2}")
            };
            let slow = slow_octal(&[0, d1, d2], TO);
            let row = atlas.game(&code).unwrap().unwrap();
            let first: Vec<String> = slow.iter().take(64).map(u16::to_string).collect();
            assert_eq!(row.first_values, first.join(" "), "{code}");
            let to = row.computed_to.unwrap() as usize;
            assert!(
                to == TO || row.status == GameStatus::Proven,
                "{code}: {row:?}"
            );
            let computed = &slow[..=to];
            assert_eq!(
                row.checksum.as_deref(),
                Some(&*grundy::atlas::checksum(computed))
            );
            let zeros = computed.iter().filter(|&&v| v == 0).count() as u64;
            assert_eq!(row.p_positions, Some(zeros), "{code}");
            let max = *computed.iter().max().unwrap();
            assert_eq!(row.max_value, Some(u64::from(max)), "{code}");
            let heap = computed.iter().position(|&v| v == max).unwrap() as u64;
            assert_eq!(row.max_value_heap, Some(heap), "{code}");
            // The checksums cover g(0) to g(TO), continued by the proven period: they check
            // the period against the definition too.
            let sums = checksums(&atlas, &code);
            assert_eq!(sums.last().unwrap().0, TO as u64 + 1, "{code}");
            for (length, sum) in &sums {
                let prefix = &slow[..*length as usize];
                assert_eq!(*sum, grundy::atlas::checksum(prefix), "{code} to {length}");
            }
            if let (Some(p), Some(e)) = (row.period, row.preperiod) {
                if row.status == GameStatus::Proven {
                    for n in e as usize..=TO - p as usize {
                        assert_eq!(slow[n], slow[n + p as usize], "{code}: period {p} from {e}");
                    }
                }
            }
            by_sequence.entry(slow).or_default().insert(code);
        }
    }
    // Codes that play the same sequence to N are each other's twins, and only those.
    for codes in by_sequence.values() {
        for code in codes {
            let twins: BTreeSet<String> = atlas
                .same_as(code)
                .unwrap()
                .unwrap()
                .into_iter()
                .map(|t| {
                    assert_eq!(t.length, TO as u64 + 1);
                    t.code
                })
                .collect();
            let mut expected = codes.clone();
            expected.remove(code);
            assert_eq!(twins, expected, "twins of {code}");
        }
    }
    assert!(by_sequence.values().any(|c| c.len() > 1), "0.?? has twins");
    // The shift rule's twins, checked on the definition's sequences: g(n) of a code is
    // g(n + offset) of its twin (in the atlas or not).
    let mut proven = 0;
    for codes in by_sequence.values() {
        for code in codes {
            let card = atlas.card(code).unwrap().unwrap();
            assert_eq!(card.proven_same, atlas.proven_same(code).unwrap());
            let mine = slow_octal(&code_digits(code), TO);
            for t in card.proven_same {
                assert_eq!(t.in_atlas, atlas.game(&t.code).unwrap().is_some(), "{t:?}");
                let theirs = slow_octal(&code_digits(&t.code), TO + 1);
                for (n, &g) in mine.iter().enumerate().take(TO).skip(1) {
                    let m = (n as i64 + i64::from(t.offset)) as usize;
                    assert_eq!(g, theirs[m], "{code} at {n} against {t:?}");
                }
                if t.offset == 0 {
                    assert!(!t.in_atlas || codes.contains(&t.code), "{code}: {t:?}");
                }
                proven += 1;
            }
        }
    }
    assert!(proven > 63, "{proven} proven twins");
    let dawson = atlas.proven_same("0.07").unwrap();
    assert_eq!((dawson[0].code.as_str(), dawson[0].offset), ("0.137", -1));
}

/// The digits of an octal code `0.d1d2...` (`[0, d1, d2, ...]`).
fn code_digits(code: &str) -> Vec<u8> {
    let (whole, frac) = code.split_once('.').unwrap();
    whole
        .chars()
        .chain(frac.chars())
        .map(|c| c.to_digit(16).unwrap() as u8)
        .collect()
}

/// The rules and published periods of `../data/heap/*.txt` with a preperiod below `bound`.
fn published_periods(bound: u64) -> Vec<(String, u64, u64, Vec<u16>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/heap");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut rule, mut period, mut values) = (None, None, Vec::new());
        for line in text.lines() {
            if let Some(r) = line.strip_prefix("rule:") {
                rule = Some(r.trim().to_string());
            } else if let Some(p) = line.strip_prefix("period:") {
                let (p, e) = p.trim().split_once(" from ").unwrap();
                period = Some((p.parse::<u64>().unwrap(), e.parse::<u64>().unwrap()));
            } else if let Some((n, v)) = line.split_once(' ').filter(|_| !line.starts_with('#')) {
                if n.parse::<usize>() == Ok(values.len()) {
                    values.push(v.trim().parse::<u16>().unwrap());
                }
            }
        }
        if let (Some(rule), Some((p, e))) = (rule, period) {
            if e < bound {
                found.push((rule, p, e, values));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn solved_codes_of_the_literature_have_their_published_periods_proven() {
    let published = published_periods(1000);
    assert!(published.len() >= 8, "{published:?}");
    let names: Vec<&str> = published.iter().map(|p| p.0.as_str()).collect();
    for name in ["kayles", "dawson", "dawson-kayles", "0.115", "0.7777"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let path = scratch("published");
    let summary = run(&path, &names, 100_000);
    assert_eq!(summary.proven, published.len() as u64);
    let atlas = Atlas::open(&path).unwrap();
    for (rule, p, e, values) in &published {
        let row = atlas.game(rule).unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Proven, "{rule}");
        assert_eq!((row.period, row.preperiod), (Some(*p), Some(*e)), "{rule}");
        assert_eq!(row.last_exceptional, e.checked_sub(1), "{rule}");
        let first: Vec<String> = values.iter().take(64).map(u16::to_string).collect();
        assert_eq!(row.first_values, first.join(" "), "{rule}");
        let code = row.code.clone();
        for (length, sum) in checksums(&atlas, &code) {
            if let Some(prefix) = values.get(..length as usize) {
                assert_eq!(sum, grundy::atlas::checksum(prefix), "{rule} to {length}");
            }
        }
    }
}

/// (code, finished_at, run_id) of every game.
fn stamps(path: &Path) -> BTreeMap<String, (String, i64)> {
    let atlas = Atlas::open(path).unwrap();
    let rows = atlas
        .sql("SELECT code, finished_at, run_id FROM games", 100_000, None)
        .unwrap()
        .rows;
    rows.into_iter()
        .map(|r| {
            let code = r[0].as_str().unwrap().to_string();
            (
                code,
                (r[1].as_str().unwrap().to_string(), r[2].as_i64().unwrap()),
            )
        })
        .collect()
}

#[test]
fn a_census_resumes_without_recomputing_finished_games() {
    let path = scratch("resume");
    // A smaller family first, then the larger one: the 7 games of 0.? are kept as they are.
    assert_eq!(run(&path, &["0.?"], 400).computed, 7);
    let before = stamps(&path);
    std::thread::sleep(Duration::from_millis(20));
    let second = run(&path, &["0.??"], 400);
    assert_eq!((second.skipped, second.computed), (7, 56));
    let after = stamps(&path);
    for (code, stamp) in &before {
        assert_eq!(after.get(code), Some(stamp), "{code} was recomputed");
    }
    // Cancelled after three games: every game written is kept, and the next census computes
    // only the rest.
    let cancel = AtomicBool::new(false);
    let mut atlas = Atlas::create_or_open(&path).unwrap();
    let mut seen = 0;
    let mut stop_after_three = |event: CensusEvent<'_>| {
        if let CensusEvent::Game { done, .. } = event {
            seen = done;
            if done == 3 {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    };
    let control = Control::none().with_cancel(&cancel);
    let patterns = vec!["0.???".to_string()];
    let options = CensusOptions::new(1000);
    let cut = census(
        &mut atlas,
        &patterns,
        &options,
        &mut stop_after_three,
        &control,
    )
    .unwrap();
    assert!(cut.interrupted);
    assert!(cut.computed >= 3 && cut.computed < cut.games, "{cut:?}");
    assert_eq!(seen, cut.computed);
    drop(atlas);
    let kept = stamps(&path);
    let rest = run(&path, &["0.???"], 1000);
    // The 63 games of 0.?? are known to 400 only, unless proven.
    assert_eq!(rest.games, cut.games);
    assert_eq!(rest.skipped + rest.computed, cut.games);
    assert_eq!(rest.skipped, cut.skipped + cut.computed);
    let last = stamps(&path);
    let by_cut: Vec<_> = kept.iter().filter(|(_, s)| s.1 == cut.run_id).collect();
    assert_eq!(by_cut.len() as u64, cut.computed);
    for (code, stamp) in by_cut {
        assert_eq!(last.get(code), Some(stamp), "{code} was recomputed");
    }
    let runs = Atlas::open(&path).unwrap().runs().unwrap();
    let statuses: Vec<&str> = runs.iter().map(|r| r.status.as_str()).collect();
    assert_eq!(
        statuses,
        ["finished", "finished", "interrupted", "finished"]
    );
    // A larger N recomputes the games not proven, and only those.
    let atlas = Atlas::open(&path).unwrap();
    let open = atlas.family("0.??", Filter::Open).unwrap();
    let solved = atlas.family("0.??", Filter::Solved).unwrap();
    assert_eq!(open.rows.len() + solved.rows.len(), 63);
    drop(atlas);
    let deeper = run(&path, &["0.??"], 2000);
    assert_eq!(deeper.computed, open.rows.len() as u64);
}

#[test]
fn a_game_past_its_time_limit_is_refused_and_the_census_goes_on() {
    let path = scratch("refused");
    let mut atlas = Atlas::create_or_open(&path).unwrap();
    let mut options = CensusOptions::new(300_000);
    options.game_time = Duration::from_millis(1);
    let patterns = ["0.16", "0.1"];
    let summary = run_in(&mut atlas, &patterns, &options);
    assert_eq!(summary.computed, 2, "{summary:?}");
    assert!(summary.refused >= 1, "{summary:?}");
    let row = atlas.game("0.16").unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Refused);
    assert!(row.reason.as_deref().unwrap().contains("time limit"));
    assert!(row.computed_to.unwrap() < 300_000);
    assert!(atlas.game("0.1").unwrap().is_some(), "the census went on");
    // Run again with the same time limit: the refused game is not tried again (it would be
    // refused again, after as long); with a longer limit it is.
    let again = run_in(&mut atlas, &patterns, &options);
    assert_eq!((again.computed, again.skipped), (0, 2), "{again:?}");
    assert_eq!(atlas.game("0.16").unwrap().unwrap(), row);
    options.game_time = Duration::from_secs(600);
    let longer = run_in(&mut atlas, &patterns, &options);
    // 0.16 again, and 0.1 if it too was refused (1 ms can pass before its first value).
    let refused = summary.refused;
    assert_eq!(
        (longer.computed, longer.skipped),
        (refused, 2 - refused),
        "{longer:?}"
    );
    let row = atlas.game("0.16").unwrap().unwrap();
    assert_ne!(row.status, GameStatus::Refused, "{row:?}");
    assert_eq!(row.computed_to, Some(300_000));
}

#[test]
fn damaged_files_and_future_versions_are_refused_by_name() {
    let path = scratch("damaged");
    std::fs::write(&path, vec![0x5au8; 5000]).unwrap();
    for e in [
        Atlas::open(&path).unwrap_err(),
        Atlas::create_or_open(&path).unwrap_err(),
    ] {
        assert!(matches!(e, AtlasError::NotAtlas { .. }), "{e:?}");
        assert!(e.to_string().contains("atlas.sqlite"), "{e}");
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        vec![0x5au8; 5000],
        "left as it was"
    );
    let path = scratch("future");
    run(&path, &["0.?"], 50);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let e = Atlas::open(&path).unwrap_err();
    assert!(e.to_string().contains("version 99"), "{e}");
    assert!(Atlas::create_or_open(&path).is_err());
    let e = Atlas::open(&scratch("missing").with_file_name("none.sqlite")).unwrap_err();
    assert!(e.to_string().contains("no such file"), "{e}");
    let path = scratch("foreign");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("CREATE TABLE t (x)").unwrap();
    drop(conn);
    let e = Atlas::create_or_open(&path).unwrap_err();
    assert!(e.to_string().contains("another program"), "{e}");
}

#[test]
fn raw_sql_is_read_only() {
    let path = scratch("sql");
    run(&path, &["0.?"], 100);
    let atlas = Atlas::open(&path).unwrap();
    let answer = atlas
        .sql(
            "SELECT code, period FROM games WHERE code = '0.3'",
            10,
            None,
        )
        .unwrap();
    assert_eq!(answer.columns, ["code", "period"]);
    assert_eq!(
        answer.rows,
        [[serde_json::json!("0.3"), serde_json::json!(2)]]
    );
    for write in [
        "DELETE FROM games",
        "UPDATE games SET period = 1",
        "DROP TABLE games",
        "PRAGMA user_version = 5",
        "ATTACH 'x.sqlite' AS x",
        "CREATE TABLE t (x)",
    ] {
        let e = atlas.sql(write, 10, None).unwrap_err();
        assert!(matches!(e, AtlasError::Query(_)), "{write}: {e:?}");
    }
    assert_eq!(
        atlas
            .sql("SELECT count(*) FROM games", 10, None)
            .unwrap()
            .rows[0][0],
        7
    );
    let e = atlas.sql("SELECT * FROM games", 3, None).unwrap_err();
    assert!(e.to_string().contains("LIMIT"), "{e}");
    assert!(atlas.sql("SELEC 1", 3, None).is_err());
}

/// `--misere MAXHEAP`: each game's bounded misère quotient is kept beside its sequence. 0.75's
/// is Plambeck and Siegel's R8 (order 8, P-portion of 2: `../data/misere/quotients.txt`);
/// every other row is the quotient the library computes for the game directly; a resumed
/// census computes no quotient again unless asked for more heaps; a version 1 file (no
/// table `misere`) is read as it is and gains the table when opened to write.
#[test]
fn misere_quotients_are_kept_and_resumed() {
    use grundy::heap::rules::HeapRule;
    use grundy::misere::periodicity::heap_quotient_as_asked;
    let path = scratch("misere");
    let with_misere = |m: u64| {
        let mut atlas = Atlas::create_or_open(&path).unwrap();
        let mut options = CensusOptions::new(300);
        options.misere = Some(m);
        run_in(&mut atlas, &["0.7?"], &options)
    };
    let first = with_misere(12);
    assert_eq!(first.quotients, 8, "{first:?}");
    let atlas = Atlas::open(&path).unwrap();
    let published = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/misere/quotients.txt"),
    )
    .unwrap();
    let line = published
        .lines()
        .find(|l| l.starts_with("0.75 "))
        .expect("0.75 is in the published quotients");
    let f: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    let card = atlas.card("0.75").unwrap().unwrap();
    let m = card.misere.expect("0.75 has its quotient");
    assert!(m.computed, "{m:?}");
    assert_eq!((m.order, m.p_portion), (Some(f[1]), Some(f[2])), "{m:?}");
    for d in 1..8 {
        let code = format!("0.7{d}");
        let Some(card) = atlas.card(&code).unwrap() else {
            continue;
        };
        let m = card.misere.unwrap_or_else(|| panic!("{code}: no quotient"));
        let rule = HeapRule::parse(&card.game.code).unwrap();
        let budget = grundy::control::Budget::default();
        match heap_quotient_as_asked(&rule, 0, 12, &budget, 1024) {
            Ok(q) => {
                let r = q.report();
                assert!(m.computed, "{code}: {m:?}");
                assert_eq!(m.order, Some(r.order as u64), "{code}");
                assert_eq!(m.p_portion, Some(r.p_portion.len() as u64), "{code}");
                assert_eq!(m.computed_to, Some(r.max_heap), "{code}");
                assert_eq!(m.period, r.period.map(|p| p.period), "{code}");
            }
            Err(_) => assert!(!m.computed && m.reason.is_some(), "{code}: {m:?}"),
        }
    }
    drop(atlas);
    // Resumed: nothing again; asked for more heaps: every quotient again, no sequence.
    let again = with_misere(12);
    assert_eq!((again.computed, again.quotients), (0, 0), "{again:?}");
    let more = with_misere(16);
    assert_eq!((more.computed, more.quotients), (0, 8), "{more:?}");
    assert_eq!(
        Atlas::open(&path)
            .unwrap()
            .card("0.75")
            .unwrap()
            .unwrap()
            .misere
            .unwrap()
            .max_heap,
        16
    );

    // A version 1 file: no table `misere`.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("DROP TABLE misere; PRAGMA user_version = 1;")
        .unwrap();
    drop(conn);
    let old = Atlas::open(&path).unwrap();
    let card = old.card("0.75").unwrap().unwrap();
    assert_eq!((card.game.period, card.misere), (Some(2), None));
    drop(old);
    let again = with_misere(12);
    assert_eq!(again.quotients, 8, "{again:?}");
    let conn = rusqlite::Connection::open(&path).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, grundy::atlas::SCHEMA_VERSION);
}
