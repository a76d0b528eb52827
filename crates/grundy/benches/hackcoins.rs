//! Figures for Green Hackenbush and the coin-turning games.
//!
//! `cargo bench -p grundy --bench hackcoins` prints:
//! - the fast Hackenbush value on a bamboo stalk of 10^7 edges and on a random connected
//!   multigraph (a random tree plus chords and loops) of 10^6 vertices and 2·10^6 edges;
//! - the fast value against the generic engine on one picture of 16 edges;
//! - single-coin value tables of Moebius (to coin 500) and Mogul (to coin 150), which have
//!   no closed form;
//! - Turning Corners values of 10^5 random 64-bit heads (nim-products);
//! - the winning moves of a Mock Turtles position with heads near 10^5, found by lookups.

use grundy::Nimber;
use grundy::coins::{CoinGrid, GridRule, LineRule, values_by_rule};
use grundy::hackenbush::{HackenbushGame, Picture, value};
use grundy::solve::Solver;
use grundy::sum::{Component, Context};
use std::hint::black_box;
use std::time::Instant;

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn timed<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = black_box(f());
    println!("{label}: {:.3} ms", start.elapsed().as_secs_f64() * 1e3);
    out
}

fn main() {
    let mut s = 0x2545_f491_4f6c_dd1du64;

    let n = 10_000_000u64;
    let stalk = Picture::new((0..n).map(|i| (i, i + 1)).collect());
    let v = timed("hackenbush: stalk of 10^7 edges", || value(&stalk));
    assert_eq!(v, Nimber(n));

    let vertices = 1_000_000u64;
    let mut edges: Vec<(u64, u64)> = (1..vertices).map(|v| (xorshift(&mut s) % v, v)).collect();
    for _ in 0..vertices {
        let a = xorshift(&mut s) % vertices;
        let b = if xorshift(&mut s) % 8 == 0 {
            a
        } else {
            xorshift(&mut s) % vertices
        };
        edges.push((a, b));
    }
    let graph = Picture::new(edges);
    let v = timed(
        "hackenbush: random multigraph, 10^6 vertices, 2*10^6 edges",
        || value(&graph),
    );
    println!("  value {}", v.0);

    let small = Picture::new(vec![
        (0, 1),
        (1, 2),
        (2, 0),
        (2, 3),
        (3, 3),
        (3, 4),
        (4, 5),
        (5, 3),
        (0, 6),
        (6, 7),
        (7, 8),
        (8, 6),
        (6, 9),
        (9, 10),
        (10, 10),
        (0, 0),
    ]);
    let fast = timed("hackenbush: 16 edges, fast", || value(&small));
    let slow = timed("hackenbush: 16 edges, generic engine", || {
        Solver::new(HackenbushGame)
            .value(&HackenbushGame::position(&small))
            .unwrap()
    });
    assert_eq!(fast, slow);

    for (rule, count) in [(LineRule::Moebius, 500), (LineRule::Mogul, 150)] {
        let t = timed(
            &format!("coins: {rule} values of coins 1..={count}"),
            || values_by_rule(&rule, count, &grundy::control::Budget::default()).unwrap(),
        );
        println!("  g({count}) = {}", t[count as usize - 1].0);
    }

    let heads: Vec<(u64, u64)> = (0..100_000)
        .map(|_| (xorshift(&mut s), xorshift(&mut s)))
        .collect();
    let grid = CoinGrid::new(GridRule::CORNERS, heads).unwrap();
    let v = timed("coins: corners value of 10^5 random 64-bit heads", || {
        grid.value(&grundy::control::Budget::default()).unwrap()
    });
    println!("  value {}", v.0);

    let row =
        grundy::coins::CoinRow::new(LineRule::MockTurtles, vec![99_000, 99_500, 100_000]).unwrap();
    let ctx = Context::default();
    println!("  value {}", Component::value(&row, &ctx).unwrap().0);
    let moves = timed(
        "coins: mock-turtles 99000 99500 100000, winning moves by lookup",
        || row.moves_to_value(Nimber(0), &ctx).map(|m| m.len()),
    );
    println!("  {} moves to value 0", moves.unwrap());
}
