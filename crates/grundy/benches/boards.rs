//! The position search on big single positions: Cram 5x7, 5x8, 6x7 (the 8 x 8 frame),
//! 4x9, 4x11, 5x9 (the tall frame), Node Kayles on the 3x14
//! grid, Chomp 10x12 and 12x14 (by the staircase table; `chomp-search:10x12` by the
//! search). Prints the value, the time, the nodes searched and the peak table.
//!
//! `cargo bench -p grundy --bench boards` (all), or name some: `-- cram:5x8 chomp:10x12`.
//! On a loaded machine run each case under `/usr/bin/time -f "%U s user, %M KB peak"` (the
//! binary in target/release/deps) for its CPU time and peak memory; the wall time printed
//! here counts the waiting too.

use grundy::boards::cram::Cells;
use grundy::boards::staircase::StaircaseTable;
use grundy::boards::{Board, ChompBoard, ChompGame, CramGame, GridGame, GridRule};
use grundy::control::{Budget, Limits};
use grundy::search::{SearchStats, Searcher};
use std::time::Instant;

fn board_regions(game: &GridGame, rows: u64, cols: u64) -> Vec<grundy::boards::Region> {
    let (bits, w) = Board::Rect { rows, cols }
        .mask()
        .expect("a board of at most 128 cells");
    let mut out = Vec::new();
    game.split(bits, w, |r| out.push(r));
    out
}

fn report(name: &str, value: u32, start: Instant, stats: SearchStats, budget: &Budget) {
    println!(
        "{name:<22} value {value:>2}   {:>8.3} s   {:>10} nodes   {:>12} work   peak table {:>9} entries ({:.1} MiB)",
        start.elapsed().as_secs_f64(),
        stats.nodes,
        budget.work_done(),
        stats.peak_entries,
        stats.table_bytes as f64 / (1 << 20) as f64
    );
}

fn grid(name: &str, rule: GridRule, rows: u64, cols: u64) {
    let game = GridGame::new(rule);
    let start = Instant::now();
    let budget = Budget::default();
    let mut s = Searcher::new(&game, &budget).expect("table");
    let v = s
        .value_of_sum(&board_regions(&game, rows, cols))
        .expect("search");
    report(name, v, start, s.stats(), &budget);
}

/// Cram by the frame search: `C = u64` for boards of at most 8 x 8 cells, `u128` for
/// boards of at most 16 x 8.
fn cram<C: Cells>(name: &str, rows: u64, cols: u64) {
    let game = CramGame::<C>::new();
    let start = Instant::now();
    let keys = game
        .keys(&board_regions(&GridGame::new(GridRule::Cram), rows, cols))
        .expect("a board that fits the frame");
    // Cram 6 x 7 takes more work than the default budget allows.
    let budget = Budget::new(Limits {
        max_work: 1 << 40,
        ..Limits::DEFAULT
    });
    let mut s = Searcher::new(&game, &budget).expect("table");
    let v = s.value_of_sum(&keys).expect("search");
    report(name, v, start, s.stats(), &budget);
}

/// Chomp by the staircase table (what `grundy analyze "chomp RxC"` uses).
fn chomp_table(name: &str, rows: u64, cols: u64) {
    let board = vec![cols; rows as usize];
    let start = Instant::now();
    let table = StaircaseTable::build(&board, &Budget::default()).expect("table");
    let v = table.value(&board).expect("in the table");
    println!(
        "{name:<22} value {v:>2}   {:>8.3} s   {:>10} staircases",
        start.elapsed().as_secs_f64(),
        StaircaseTable::positions(&board).unwrap_or(0),
    );
}

/// Chomp by the generic position search.
fn chomp(name: &str, rows: u64, cols: u64) {
    let key = ChompBoard::Rect { rows, cols }.key().expect("fits");
    let start = Instant::now();
    let budget = Budget::default();
    let mut s = Searcher::new(&ChompGame, &budget).expect("table");
    let v = s.value(&key).expect("search");
    report(name, v, start, s.stats(), &budget);
}

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let run = |name: &str| wanted.is_empty() || wanted.iter().any(|w| w == name);
    if run("node-kayles:3x14") {
        grid("node-kayles:3x14", GridRule::NodeKayles, 3, 14);
    }
    if run("chomp:10x12") {
        chomp_table("chomp:10x12", 10, 12);
    }
    if run("chomp-search:10x12") {
        chomp("chomp-search:10x12", 10, 12);
    }
    if run("chomp:12x14") {
        chomp_table("chomp:12x14", 12, 14);
    }
    // The general region search (u128 keys, no Cram simplifications), for comparison: only
    // when named.
    if wanted.iter().any(|w| w == "cram-grid:5x7") {
        grid("cram-grid:5x7", GridRule::Cram, 5, 7);
    }
    for (name, r, c) in [("cram:5x7", 5, 7), ("cram:5x8", 5, 8), ("cram:6x7", 6, 7)] {
        if run(name) {
            cram::<u64>(name, r, c);
        }
    }
    // The narrow frame (16 rows of 4), then the tall one (16 rows of 8).
    for (name, r, c) in [("cram:4x9", 4, 9), ("cram:4x11", 4, 11)] {
        if run(name) {
            cram::<usize>(name, r, c);
        }
    }
    if run("cram:5x9") {
        cram::<u128>("cram:5x9", 5, 9);
    }
}
