//! How long the perfect opponent takes to answer, on positions a class would play: the exact
//! search (remoteness over the whole game graph) and the fallback for large positions.
//! Prints one line per position: the median of a few runs.

use grundy::play::{Game, Player};
use grundy::sum::Context;
use std::time::Instant;

fn main() {
    let cases = [
        ("nim 3 4 5", false),
        ("nim 7 7 7 7", false),
        ("kayles 12", false),
        ("kayles 12", true),
        ("dawson-kayles 14 + nim 3", true),
        ("hackenbush 0-1 1-2 2-0 2-3 3-3 0-4 4-5", false),
        ("nim 200 300 400 500", false),
        ("kayles 60 + kayles 41", false),
    ];
    println!(
        "{:<42} {:>10} {:>12}  reason",
        "position (misère)", "positions", "reply"
    );
    for (text, misere) in cases {
        let game = Game::new(text, misere, Player::Computer).expect("a valid position");
        let mut times = Vec::new();
        let mut reason = String::new();
        let mut positions = String::from("-");
        for _ in 0..5 {
            let ctx = Context::default();
            let started = Instant::now();
            let reply = game.reply(&ctx).expect("a reply");
            times.push(started.elapsed());
            reason = format!("{:?}", reply.reason);
            let moves = game.moves(&ctx).expect("moves");
            if let Some(s) = grundy::play::solve_exact(&game, &moves, &ctx).expect("no error") {
                positions = s.positions.to_string();
            }
        }
        times.sort();
        let label = format!("{text}{}", if misere { " (misère)" } else { "" });
        println!(
            "{label:<42} {positions:>10} {:>12.2?}  {reason}",
            times[times.len() / 2]
        );
    }
}
