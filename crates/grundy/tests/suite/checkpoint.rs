//! Search tables kept on disk (`grundy::search::checkpoint`, through
//! `Session::analyze_with_checkpoint`): a search refused by its work limit goes on from the
//! file when run again, to the value one run finds; a table read back gives every board the
//! value an empty table gives (a record read wrong would show as a wrong value); damaged
//! files and expressions without a Cram board are refused, the file left as it was.

use grundy::api::{AnalyzeRequest, MoveSearch, Preset, Resumed, Session, Task};
use grundy::boards::BoardGame;
use grundy::nimber::Nimber;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "grundy-checkpoint-{}-{name}.tbl",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

fn request(expression: &str, max_work: Option<u64>) -> AnalyzeRequest {
    let mut r = AnalyzeRequest::new(expression);
    r.moves = MoveSearch::None;
    r.limits.max_work = max_work;
    r
}

fn resumed(expression: &str, max_work: Option<u64>, path: &Path) -> Resumed {
    let session = Session::new(Preset::Standard);
    let req = request(expression, max_work);
    let budget = session.budget(&req.limits, Task::Analyze).unwrap();
    session
        .analyze_with_checkpoint(&req, &budget, path)
        .unwrap()
}

fn value(expression: &str) -> Option<Nimber> {
    let session = Session::new(Preset::Standard);
    let req = request(expression, None);
    let budget = session.budget(&req.limits, Task::Analyze).unwrap();
    session.analyze(&req, &budget).unwrap().value
}

#[test]
fn a_search_refused_by_its_limit_goes_on_from_the_file() {
    let path = scratch("resume");
    let expected = value("cram 5x8");
    assert!(expected.is_some());
    let limit = 3_000_000;
    let first = resumed("cram 5x8", Some(limit), &path);
    assert_eq!(
        first.analysis.unwrap().value,
        None,
        "one run of {limit} units answers: make the limit smaller"
    );
    assert_eq!(first.loaded, 0);
    let mut kept = first.saved.unwrap();
    assert!(kept > 0);
    let mut runs = 1;
    let answer = loop {
        let next = resumed("cram 5x8", Some(limit), &path);
        assert_eq!(next.loaded, kept, "run {runs} read what the last one kept");
        kept = next.saved.unwrap();
        runs += 1;
        if let Some(v) = next.analysis.unwrap().value {
            break v;
        }
        assert!(runs < 200, "no answer after {runs} runs");
    };
    assert_eq!(Some(answer), expected);
    assert!(runs > 2, "{runs}");
    std::fs::remove_file(&path).unwrap();
}

/// Boards of 4 x 6 cells with some cells blocked, by a fixed pseudo-random sequence.
fn boards() -> Vec<String> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..60)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let rows: Vec<String> = (0..4)
                .map(|r| {
                    (0..6)
                        .map(|c| {
                            if (x >> (6 * r + c)) % 5 == 0 {
                                '#'
                            } else {
                                '.'
                            }
                        })
                        .collect()
                })
                .collect();
            format!("cram {}", rows.join("/"))
        })
        .collect()
}

#[test]
fn a_table_read_back_gives_every_board_its_value() {
    let path = scratch("round-trip");
    let whole = resumed("cram 4x6", None, &path);
    assert!(whole.analysis.unwrap().value.is_some());
    let kept = whole.saved.unwrap();
    assert!(kept > 100, "{kept}");
    for board in boards() {
        // Each run reads the file (the 4 x 6 table and what the boards before added).
        let run = resumed(&board, None, &path);
        // A table read back may drop a few entries (two keys too many for a pair of
        // buckets), as a search does: they are only searched again.
        assert!(
            run.loaded * 100 >= kept * 99,
            "{board}: {} of {kept}",
            run.loaded
        );
        assert_eq!(run.analysis.unwrap().value, value(&board), "{board}");
    }
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn damaged_files_and_other_games_are_refused_and_the_file_kept() {
    let path = scratch("damaged");
    assert!(resumed("cram 4x6", None, &path).saved.unwrap() > 1000);
    let good = std::fs::read(&path).unwrap();
    let session = Session::new(Preset::Standard);
    let refused = |expression: &str, path: &Path| {
        let req = request(expression, None);
        let budget = session.budget(&req.limits, Task::Analyze).unwrap();
        session
            .analyze_with_checkpoint(&req, &budget, path)
            .unwrap_err()
            .to_string()
    };
    // A byte of a record changed, the file cut short, another file.
    // The first record starts after two lines.
    let text_end = good
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .unwrap()
        .0;
    let mut bad = good.clone();
    bad[text_end + 5] ^= 0x10;
    for (bytes, message) in [
        (bad, "the file is damaged"),
        (good[..text_end + 100].to_vec(), "ends inside table"),
        (good[..good.len() - 30].to_vec(), "the file is cut short"),
        (vec![b'x'; 1000], "not a search table of this tool"),
        (b"nim 3 4\n".to_vec(), "not a search table of this tool"),
    ] {
        std::fs::write(&path, &bytes).unwrap();
        let e = refused("cram 4x6", &path);
        assert!(e.contains(message), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "the file was changed");
    }
    for expression in [
        "nim 3 4",
        "cram 3x3 + cram 2x2",
        "node-kayles 3x3",
        "cram 20x20",
    ] {
        let e = refused(expression, &path);
        assert!(
            e.contains("a checkpoint keeps the search table of one Cram"),
            "{e}"
        );
    }
    std::fs::remove_file(&path).unwrap();
    let board = BoardGame::new(
        grundy::boards::GridRule::Cram,
        grundy::boards::Board::Rect { rows: 3, cols: 3 },
    );
    assert!(board.keeps_tables());
}
