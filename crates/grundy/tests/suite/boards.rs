//! Board and graph games (Cram, Node Kayles, Arc Kayles, Chomp): the position search
//! against brute force written here from the definitions, against the generic engine, and
//! against published values (tests/data/boards, sources in the files).

use grundy::catalog::parse;
use grundy::control::{BudgetError, Limits};
use grundy::sum::{AnalysisError, Context, Engine};
use grundy::{Nimber, Options, Outcome, analyze};
use proptest::prelude::*;
use std::collections::HashMap;

fn fast() -> Context {
    Context::default()
}

fn generic() -> Context {
    Context {
        engine: Engine::Generic,
        ..Context::default()
    }
}

/// The value of a one-component expression by the fast path.
fn value(expr: &str) -> u64 {
    let sum = parse(expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
    assert_eq!(sum.components.len(), 1, "{expr}");
    sum.components[0]
        .value(&fast())
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .0
}

// -- Brute force from the definitions (bit masks, memo) -----------------------------------

fn mex(seen: impl IntoIterator<Item = u32>) -> u32 {
    let mut bits = 0u128;
    for v in seen {
        bits |= 1 << v.min(127);
    }
    (!bits).trailing_zeros()
}

/// Cram (or Node Kayles) on the free cells `free` of a board `cols` wide.
fn brute_board(free: u64, cols: u32, rows: u32, node: bool, memo: &mut HashMap<u64, u32>) -> u32 {
    if let Some(&v) = memo.get(&free) {
        return v;
    }
    let n = cols * rows;
    let mut seen = Vec::new();
    for i in 0..n {
        if free >> i & 1 == 0 {
            continue;
        }
        let (r, c) = (i / cols, i % cols);
        let mut neighbours = Vec::new();
        if c + 1 < cols {
            neighbours.push(i + 1);
        }
        if r + 1 < rows {
            neighbours.push(i + cols);
        }
        if node {
            if c > 0 {
                neighbours.push(i - 1);
            }
            if r > 0 {
                neighbours.push(i - cols);
            }
            let mut next = free & !(1 << i);
            for j in neighbours {
                next &= !(1 << j);
            }
            seen.push(brute_board(next, cols, rows, node, memo));
        } else {
            for j in neighbours {
                if free >> j & 1 == 1 {
                    let next = free & !(1 << i) & !(1 << j);
                    seen.push(brute_board(next, cols, rows, node, memo));
                }
            }
        }
    }
    let v = mex(seen);
    memo.insert(free, v);
    v
}

fn board_text(free: u64, rows: u32, cols: u32) -> String {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    if free >> (r * cols + c) & 1 == 1 {
                        '.'
                    } else {
                        '#'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Node Kayles (or Arc Kayles) on a graph of at most 32 vertices: `alive` the vertices left.
fn brute_graph(
    alive: u32,
    adj: &[u32],
    edges: &[(usize, usize)],
    arc: bool,
    memo: &mut HashMap<u32, u32>,
) -> u32 {
    if let Some(&v) = memo.get(&alive) {
        return v;
    }
    let mut seen = Vec::new();
    if arc {
        for &(a, b) in edges {
            if alive >> a & 1 == 1 && alive >> b & 1 == 1 {
                seen.push(brute_graph(
                    alive & !(1 << a) & !(1 << b),
                    adj,
                    edges,
                    arc,
                    memo,
                ));
            }
        }
    } else {
        for v in 0..adj.len() {
            if alive >> v & 1 == 1 {
                seen.push(brute_graph(
                    alive & !(1 << v) & !adj[v],
                    adj,
                    edges,
                    arc,
                    memo,
                ));
            }
        }
    }
    let v = mex(seen);
    memo.insert(alive, v);
    v
}

fn brute_chomp(rows: &[u64], memo: &mut HashMap<Vec<u64>, u32>) -> u32 {
    if let Some(&v) = memo.get(rows) {
        return v;
    }
    let mut seen = Vec::new();
    for r in 0..rows.len() {
        for c in 0..rows[r] {
            if r == 0 && c == 0 {
                continue;
            }
            let next: Vec<u64> = rows
                .iter()
                .enumerate()
                .map(|(i, &l)| if i >= r { l.min(c) } else { l })
                .filter(|&l| l > 0)
                .collect();
            seen.push(brute_chomp(&next, memo));
        }
    }
    let v = mex(seen);
    memo.insert(rows.to_vec(), v);
    v
}

// -- Against brute force ------------------------------------------------------------------

#[test]
fn every_board_shape_up_to_three_by_three_and_two_by_five() {
    for (rows, cols) in [(3, 3), (2, 5), (5, 2), (1, 7)] {
        for node in [false, true] {
            let mut memo = HashMap::new();
            let game = if node { "node-kayles" } else { "cram" };
            for free in 1u64..1 << (rows * cols) {
                let expected = brute_board(free, cols, rows, node, &mut memo);
                let expr = format!("{game} {}", board_text(free, rows, cols));
                assert_eq!(value(&expr), u64::from(expected), "{expr}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_boards_match_brute_force(
        rows in 2u32..=5,
        cols in 2u32..=5,
        seed in any::<u64>(),
        node in any::<bool>(),
    ) {
        let n = rows * cols;
        // About one cell in five blocked.
        let mut free = 0u64;
        let mut x = seed | 1;
        for i in 0..n {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            if x % 5 != 0 { free |= 1 << i; }
        }
        prop_assume!(free != 0);
        let mut memo = HashMap::new();
        let expected = brute_board(free, cols, rows, node, &mut memo);
        let game = if node { "node-kayles" } else { "cram" };
        let expr = format!("{game} {}", board_text(free, rows, cols));
        prop_assert_eq!(value(&expr), u64::from(expected), "{}", expr);
    }

    #[test]
    fn random_graphs_match_brute_force(
        n in 1usize..=18,
        edge_bits in proptest::collection::vec(any::<u8>(), 18 * 18),
        density in 1u8..6,
        arc in any::<bool>(),
    ) {
        let mut adj = vec![0u32; n];
        let mut edges = Vec::new();
        let mut args = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if edge_bits[a * 18 + b] % 16 < density * 2 {
                    adj[a] |= 1 << b;
                    adj[b] |= 1 << a;
                    edges.push((a, b));
                    args.push(format!("{a}-{b}"));
                }
            }
            if adj[a] == 0 {
                args.push(a.to_string());
            }
        }
        // Vertices named in edges later are written again alone: harmless.
        let mut memo = HashMap::new();
        let alive = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let expected = brute_graph(alive, &adj, &edges, arc, &mut memo);
        let rule = if arc { "arc-kayles" } else { "node-kayles" };
        let expr = format!("{rule} {}", args.join(" "));
        prop_assert_eq!(value(&expr), u64::from(expected), "{}", expr);
    }
}

#[test]
fn every_chomp_position_within_five_by_six() {
    let mut memo = HashMap::new();
    // Every staircase: row lengths never increasing, at most 5 rows of at most 6.
    let mut stack: Vec<Vec<u64>> = (1..=6).map(|l| vec![l]).collect();
    let mut checked = 0;
    while let Some(rows) = stack.pop() {
        if rows.len() < 5 {
            for l in 1..=*rows.last().unwrap() {
                let mut next = rows.clone();
                next.push(l);
                stack.push(next);
            }
        }
        let text: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        let expr = format!("chomp {}", text.join(","));
        assert_eq!(
            value(&expr),
            u64::from(brute_chomp(&rows, &mut memo)),
            "{expr}"
        );
        checked += 1;
    }
    assert_eq!(checked, 461); // C(11, 5) - 1 staircases with at least one square
}

#[test]
fn the_generic_engine_agrees() {
    for expr in [
        "cram 3x4",
        "cram .../.#./...",
        "node-kayles 3x3",
        "node-kayles 0-1 1-2 2-3 3-0 2-4",
        "arc-kayles 0-1 1-2 2-0 2-3 3-4",
        "chomp 3x4",
        "chomp 4,3,1",
    ] {
        let sum = parse(expr).unwrap();
        let c = &sum.components[0];
        assert_eq!(
            c.value(&fast()).unwrap(),
            c.value_generic(&generic()).unwrap(),
            "{expr}"
        );
    }
}

// -- Theory: closed forms checked against the search ---------------------------------------

#[test]
fn even_by_even_boards_are_zero_by_symmetry() {
    for (rows, cols) in [(2, 2), (2, 4), (4, 4), (2, 6), (4, 2)] {
        for node in [false, true] {
            let mut memo = HashMap::new();
            let full = (1u64 << (rows * cols)) - 1;
            assert_eq!(brute_board(full, cols, rows, node, &mut memo), 0);
        }
        assert_eq!(value(&format!("cram {rows}x{cols}")), 0);
    }
    // At any size, at once.
    assert_eq!(value("cram 20x30"), 0);
    assert_eq!(value("cram 1000000x1000000"), 0);
    assert_eq!(value("node-kayles 1000x2000"), 0);
}

#[test]
fn single_rows_are_octal_games() {
    for n in 1..=20u64 {
        assert_eq!(
            value(&format!("cram 1x{n}")),
            value(&format!("dawson-kayles {n}"))
        );
        assert_eq!(value(&format!("cram {n}x1")), value(&format!("0.07 {n}")));
        assert_eq!(
            value(&format!("node-kayles 1x{n}")),
            value(&format!("0.137 {n}"))
        );
        // And the search agrees on the written-out row (a board of cells, not a rectangle).
        let mut memo = HashMap::new();
        let row = (1u64 << n) - 1;
        assert_eq!(
            value(&format!("cram {}.", ".".repeat(n as usize - 1))),
            u64::from(brute_board(row, n as u32, 1, false, &mut memo))
        );
    }
    // Huge rows through the proven period.
    assert_eq!(value("cram 1x1000000000000"), value("0.07 1000000000000"));
}

#[test]
fn paths_and_cycles_go_through_the_octal_games_at_any_size() {
    let path: Vec<String> = (0..300).map(|i| format!("{i}-{}", i + 1)).collect();
    let path = path.join(" ");
    assert_eq!(value(&format!("node-kayles {path}")), value("0.137 301"));
    assert_eq!(value(&format!("arc-kayles {path}")), value("0.07 301"));
    let cycle = format!("{path} 300-0");
    let after = value("0.137 297");
    assert_eq!(
        value(&format!("node-kayles {cycle}")),
        u64::from(after == 0)
    );
    // A small cycle by brute force.
    for n in 3..12usize {
        let edges: Vec<(usize, usize)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        let mut adj = vec![0u32; n];
        for &(a, b) in &edges {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        let text: Vec<String> = edges.iter().map(|(a, b)| format!("{a}-{b}")).collect();
        for arc in [false, true] {
            let mut memo = HashMap::new();
            let expected = brute_graph((1 << n) - 1, &adj, &edges, arc, &mut memo);
            let rule = if arc { "arc-kayles" } else { "node-kayles" };
            assert_eq!(
                value(&format!("{rule} {}", text.join(" "))),
                u64::from(expected)
            );
        }
    }
}

#[test]
fn first_player_wins_by_symmetry_where_the_value_is_out_of_reach() {
    let o = Options::default();
    for expr in ["cram 101x200", "node-kayles 101x201", "chomp 100x100"] {
        let a = analyze(expr, &o).unwrap();
        assert_eq!(a.outcome, Outcome::N, "{expr}");
        assert_eq!(a.value, None, "{expr}");
    }
}

#[test]
fn chomp_theorems() {
    // Two rows: (a, a - 1) is a P-position (Gale); a 2 x n bar is won by biting (2, n).
    for a in 2..=12u64 {
        assert_eq!(value(&format!("chomp {a},{}", a - 1)), 0);
        let moves = analyze(&format!("chomp 2x{a}"), &Options::default())
            .unwrap()
            .winning_moves;
        let d: Vec<&str> = moves.iter().map(|m| m.description.as_str()).collect();
        assert_eq!(d, [format!("bite (2,{a})")]);
    }
    // A square is won by biting (2,2): the L left is two equal Nim heaps.
    for n in 2..=7 {
        let a = analyze(&format!("chomp {n}x{n}"), &Options::default()).unwrap();
        assert!(
            a.winning_moves
                .iter()
                .any(|m| m.description == "bite (2,2)")
        );
    }
}

// -- Published values ---------------------------------------------------------------------

fn reference(name: &str) -> Vec<(u64, u64, u64)> {
    let path = format!("{}/tests/data/boards/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let v: Vec<u64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (v[0], v[1], v[2])
        })
        .collect()
}

#[test]
fn cram_published_values_small() {
    // Every board of the table up to 40 cells, under the default limits (both ways round
    // up to 36 cells: 4 x 9 as 9 x 4 goes through the tall frame both times, turned).
    for (r, c, v) in reference("cram.txt") {
        if r * c <= 40 || (r % 2 == 0 && c % 2 == 0) {
            assert_eq!(value(&format!("cram {r}x{c}")), v, "cram {r}x{c}");
        }
        if r * c <= 36 || (r % 2 == 0 && c % 2 == 0) {
            assert_eq!(value(&format!("cram {c}x{r}")), v, "cram {c}x{r}");
        }
    }
}

#[test]
#[ignore = "minutes: the larger published Cram boards"]
fn cram_published_values_large() {
    for (r, c, v) in reference("cram.txt") {
        if r * c <= 45 && (r, c) != (6, 7) {
            let ctx = Context::new(
                Engine::Fast,
                Limits {
                    max_work: 1 << 42,
                    ..Limits::DEFAULT
                },
            );
            let sum = parse(&format!("cram {r}x{c}")).unwrap();
            assert_eq!(sum.components[0].value(&ctx).unwrap().0, v, "cram {r}x{c}");
        }
    }
}

#[test]
#[ignore = "many minutes of CPU and about 1.5 GB: Cram 6 x 7"]
fn cram_6x7_published_value() {
    let (.., v) = reference("cram.txt")
        .into_iter()
        .find(|&(r, c, _)| (r, c) == (6, 7))
        .expect("6 x 7 in the reference file");
    let ctx = Context::new(
        Engine::Fast,
        Limits {
            max_work: 1 << 42,
            max_positions: 40_000_000,
            ..Limits::DEFAULT
        },
    );
    let sum = parse("cram 6x7").unwrap();
    assert_eq!(sum.components[0].value(&ctx).unwrap().0, v);
}

#[test]
fn node_kayles_published_grid_values() {
    for (r, c, v) in reference("node-kayles-grids.txt") {
        assert_eq!(
            value(&format!("node-kayles {r}x{c}")),
            v,
            "node-kayles {r}x{c}"
        );
    }
}

// -- Printing, moves, errors, limits --------------------------------------------------------

#[test]
fn positions_and_moves_print_back() {
    for expr in [
        "cram 5x7",
        "cram ##..#/....#/#....",
        "cram 3x3 2x5",
        "node-kayles 0-1 1-2 2-3 0-3 2-4",
        "node-kayles 0-1 5",
        "node-kayles 3x14",
        "arc-kayles 0-1 1-2 0-2",
        "chomp 6x7",
        "chomp 6,6,4,1",
    ] {
        let sum = parse(expr).unwrap();
        assert_eq!(sum.to_string(), expr);
    }
    let a = analyze("cram 3x3 + nim 1", &Options::default()).unwrap();
    assert!(!a.winning_moves.is_empty());
    for m in &a.winning_moves {
        // The position left parses and is a P-position.
        let left = analyze(&m.result, &Options::default()).unwrap();
        assert_eq!(left.value, Some(Nimber(0)), "{}", m.result);
    }
    // Every move's description is in the game's words.
    let sum = parse("node-kayles 0-1 1-2").unwrap();
    let moves = sum.components[0].moves(&fast()).unwrap();
    let d: Vec<&str> = moves.iter().map(|m| m.description.as_str()).collect();
    assert_eq!(d, ["take vertex 0", "take vertex 1", "take vertex 2"]);
    assert_eq!(moves[1].result.len(), 0);
    assert_eq!(moves[0].result[0].to_string(), "node-kayles 2");
}

#[test]
fn winning_moves_agree_with_the_generic_engine() {
    for expr in [
        "cram 3x4",
        "cram ..../.#../....",
        "node-kayles 3x4",
        "chomp 3,3,2",
        "chomp 4x5",
        "chomp 2,2,2,2,1",
    ] {
        for target in 0..3 {
            let sum = parse(expr).unwrap();
            let c = &sum.components[0];
            let describe = |ctx: &Context| -> Vec<String> {
                let mut v: Vec<String> = c
                    .moves_to_value(Nimber(target), ctx)
                    .unwrap()
                    .into_iter()
                    .map(|m| m.description)
                    .collect();
                v.sort();
                v
            };
            assert_eq!(
                describe(&fast()),
                describe(&generic()),
                "{expr} to {target}"
            );
        }
    }
}

#[test]
fn malformed_boards_and_graphs_are_located() {
    let cases = [
        ("cram 3y4", 5..6, "not a cell"),
        ("cram ../.#/..x", 13..14, "not a cell"),
        ("cram .../..", 9..11, "every row must be as long"),
        ("cram 0x4", 5..6, "at least 1"),
        ("cram 3x", 7..8, "the number of columns"),
        ("node-kayles 0-1 1-x", 18..19, "a vertex"),
        ("node-kayles 2-2", 12..15, "itself"),
        ("node-kayles 0-1 3x3", 16..19, "only argument"),
        ("chomp 3,4", 8..9, "never increase"),
        ("chomp 0x3", 6..7, "at least 1"),
        ("cram", 4..4, "needs arguments"),
    ];
    for (expr, span, words) in cases {
        let e = parse(expr).err().unwrap_or_else(|| panic!("{expr} parsed"));
        assert_eq!(e.span, span, "{expr}: {}", e.message);
        assert!(e.message.contains(words), "{expr}: {}", e.message);
    }
}

#[test]
fn too_big_is_refused_with_the_limit() {
    let sum = parse("cram 11x13").unwrap();
    let e = sum.components[0].value(&fast()).unwrap_err();
    assert!(matches!(e, AnalysisError::Unsupported { .. }));
    assert!(e.to_string().contains("at most 128 cells"), "{e}");
    let sum = parse("chomp 30x40").unwrap();
    let e = sum.components[0].value(&fast()).unwrap_err();
    assert!(e.to_string().contains("at most 256 squares"), "{e}");
    // The work budget stops a search that is too long, naming the figure.
    let ctx = Context::new(
        Engine::Fast,
        Limits {
            max_work: 1000,
            ..Limits::DEFAULT
        },
    );
    let sum = parse("cram 5x7").unwrap();
    let e = sum.components[0].value(&ctx).unwrap_err();
    assert_eq!(e.budget_error(), Some(BudgetError::Work { limit: 1000 }));
    // Cancelled.
    let ctx = Context::default();
    ctx.budget.cancel();
    let e = sum.components[0].value(&ctx).unwrap_err();
    assert_eq!(e.budget_error(), Some(BudgetError::Cancelled));
}

// -- Regressions: positions a faster search once got wrong (values from the brute force) ---

/// The rows of a board written `..#/...`: its free cells as a mask, its rows and columns.
fn board_from_text(text: &str) -> (u64, u32, u32) {
    let rows: Vec<&str> = text.split('/').collect();
    let cols = rows[0].len() as u32;
    let mut free = 0u64;
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.len() as u32, cols, "{text}");
        for (c, ch) in row.chars().enumerate() {
            if ch == '.' {
                free |= 1 << (r as u32 * cols + c as u32);
            }
        }
    }
    (free, rows.len() as u32, cols)
}

/// Node Kayles on the edges `edges` (vertices `0..n`), by brute force.
fn brute_edges(n: usize, edges: &[(usize, usize)], arc: bool) -> u32 {
    let mut adj = vec![0u32; n];
    for &(a, b) in edges {
        adj[a] |= 1 << b;
        adj[b] |= 1 << a;
    }
    brute_graph((1u32 << n) - 1, &adj, edges, arc, &mut HashMap::new())
}

#[test]
fn regression_node_kayles_grid_with_holes() {
    // The value-set search once answered 6 here (the right value is 10).
    // (Cram on the same board too.)
    for (text, node) in [
        ("..#../...../..#.#/...../...#.", true),
        ("..#../...../..#.#/...../...#.", false),
    ] {
        let (free, rows, cols) = board_from_text(text);
        let expected = brute_board(free, cols, rows, node, &mut HashMap::new());
        let game = if node { "node-kayles" } else { "cram" };
        let expr = format!("{game} {text}");
        assert_eq!(value(&expr), u64::from(expected), "{expr}");
    }
}

#[test]
fn regression_random_graph_of_seventeen_vertices() {
    // The value-set search once answered 5 here (the right value is 6).
    let text = "0-1 0-4 0-6 0-14 0-16 1-3 1-4 1-6 1-8 1-10 2-6 3-6 3-9 3-10 3-11 3-13 \
                3-14 4-7 4-9 4-11 5-8 6-8 6-9 6-10 7-10 7-16 8-10 8-14 9-10 9-12 9-13 \
                9-16 10-14 10-16 13-16 14-15";
    let edges: Vec<(usize, usize)> = text
        .split_whitespace()
        .map(|e| {
            let (a, b) = e.split_once('-').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    let n = edges.iter().map(|&(a, b)| a.max(b) + 1).max().unwrap();
    for arc in [false, true] {
        let expected = brute_edges(n, &edges, arc);
        let rule = if arc { "arc-kayles" } else { "node-kayles" };
        let expr = format!("{rule} {text}");
        assert_eq!(value(&expr), u64::from(expected), "{expr}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// One searcher asked many questions about one random graph (values and "is the sum
    /// n?" of random vertex sets), with a tiny table so that entries are replaced, against
    /// the brute force.
    #[test]
    fn one_searcher_many_questions_on_a_random_graph(
        n in 2usize..=16,
        edge_bits in proptest::collection::vec(any::<u8>(), 16 * 16),
        density in 1u8..6,
        arc in any::<bool>(),
        table in prop_oneof![Just(8usize), Just(64), Just(1 << 20)],
        questions in proptest::collection::vec((any::<u32>(), 0u32..12), 1..24),
    ) {
        use grundy::boards::{GraphGame, GraphRule};
        use grundy::control::Budget;
        use grundy::search::Searcher;
        let mut adj = vec![0u32; n];
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if edge_bits[a * 16 + b] % 16 < density * 2 {
                    adj[a] |= 1 << b;
                    adj[b] |= 1 << a;
                    edges.push((a, b));
                }
            }
        }
        let rule = if arc { GraphRule::ArcKayles } else { GraphRule::NodeKayles };
        let game = GraphGame::new(rule, n, &edges).unwrap();
        let budget = Budget::new(Limits { max_positions: table, ..Limits::DEFAULT });
        let mut s = Searcher::new(&game, &budget).unwrap();
        let mut memo = HashMap::new();
        for (set, k) in questions {
            let alive = set & ((1u32 << n) - 1);
            let expected = brute_graph(alive, &adj, &edges, arc, &mut memo);
            let mut parts = Vec::new();
            game.split(u128::from(alive), |c| parts.push(c));
            let k = if k < 4 { expected } else { k - 4 };
            prop_assert_eq!(s.sum_is(&parts, k).unwrap(), expected == k, "{:?} {}", parts, k);
            prop_assert_eq!(s.value_of_sum(&parts).unwrap(), expected);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The staircase table (what `chomp` uses) against the position search over packed
    /// rows (an independent route), on random staircases up to 9 x 11, and every option of
    /// the position against the brute force where it is small.
    #[test]
    fn chomp_table_matches_the_search(
        lengths in proptest::collection::vec(1u64..=11, 1..=9),
    ) {
        use grundy::boards::staircase::StaircaseTable;
        use grundy::boards::{ChompBoard, ChompGame};
        use grundy::control::Budget;
        use grundy::search::Searcher;
        let mut rows = lengths;
        rows.sort_unstable_by(|a, b| b.cmp(a));
        let table = StaircaseTable::build(&rows, &Budget::default()).unwrap();
        let key = ChompBoard::Rows(rows.clone()).key().unwrap();
        let mut s = Searcher::new(&ChompGame, &Budget::default()).unwrap();
        let searched = s.value(&key).unwrap();
        prop_assert_eq!(table.value(&rows), Some(searched), "{:?}", rows);
        prop_assert_eq!(
            value(&format!("chomp {}", rows.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(","))),
            u64::from(searched)
        );
        if rows.iter().sum::<u64>() <= 30 {
            let mut memo = HashMap::new();
            prop_assert_eq!(searched, brute_chomp(&rows, &mut memo));
        }
    }
}
