use super::*;
use std::collections::HashMap;

/// Outcome and remoteness from the definitions, by memoised recursion over small Nim
/// positions (sorted heaps): a slow reference independent of the graph code.
fn reference(
    heaps: &[u64],
    misere: bool,
    memo: &mut HashMap<Vec<u64>, (bool, u32)>,
) -> (bool, u32) {
    let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if let Some(&r) = memo.get(&key) {
        return r;
    }
    let mut options = Vec::new();
    for i in 0..key.len() {
        for t in 0..key[i] {
            let mut o = key.clone();
            o[i] = t;
            options.push(o);
        }
    }
    let result = if options.is_empty() {
        (misere, 0)
    } else {
        let rs: Vec<(bool, u32)> = options.iter().map(|o| reference(o, misere, memo)).collect();
        let losing: Vec<u32> = rs.iter().filter(|r| !r.0).map(|r| r.1).collect();
        if losing.is_empty() {
            (false, 1 + rs.iter().map(|r| r.1).max().unwrap())
        } else {
            (true, 1 + losing.iter().min().unwrap())
        }
    };
    memo.insert(key, result);
    result
}

fn heaps(sum: &Sum) -> Vec<u64> {
    sum.components
        .iter()
        .map(|c| c.as_nim_heap().unwrap())
        .collect()
}

#[test]
fn exact_solution_matches_the_definition_on_small_nim() {
    let ctx = Context::default();
    for misere in [false, true] {
        let mut memo = HashMap::new();
        for text in [
            "nim 1",
            "nim 1 1",
            "nim 2 3",
            "nim 1 2 3",
            "nim 3 4 5",
            "nim 2 2 2 1",
            "0",
        ] {
            let game = Game::new(text, misere, Player::Human).unwrap();
            let moves = game.moves(&ctx).unwrap();
            let solved = solve_exact(&game, &moves, &ctx).unwrap().unwrap();
            let (win, r) = reference(&heaps(game.position()), misere, &mut memo);
            assert_eq!(solved.outcome == Outcome::N, win, "{text} misère {misere}");
            assert_eq!(solved.remoteness, Some(r), "{text} misère {misere}");
            for (m, &(o, rem)) in moves.iter().zip(&solved.options) {
                let (w, r) = reference(&heaps(&m.position), misere, &mut memo);
                assert_eq!(
                    (o == Outcome::N, rem),
                    (w, Some(r)),
                    "{text} -> {}",
                    m.result
                );
            }
        }
    }
}

/// Plays whole games of Nim with the computer on both sides: the side that starts in an
/// N-position always wins, and every move the winner makes leaves a P-position.
#[test]
fn computer_never_misses_a_win() {
    let ctx = Context::default();
    for misere in [false, true] {
        let mut memo = HashMap::new();
        for text in ["nim 3 4 5", "nim 1 2 3", "nim 5 5 1", "nim 7", "nim 1 1 1"] {
            let mut game = Game::new(text, misere, Player::Human).unwrap();
            let (starts_winning, _) = reference(&heaps(game.position()), misere, &mut memo);
            let mut plies = 0;
            while let Status::ToMove(p) = game.status() {
                let (winning_now, _) = reference(&heaps(game.position()), misere, &mut memo);
                let reply = game.reply(&ctx).unwrap();
                let (after, _) = reference(&heaps(&reply.choice.position), misere, &mut memo);
                if winning_now {
                    assert!(!after, "{text}: {p:?} missed a win at {}", game.position());
                }
                game.apply(&reply.choice);
                plies += 1;
                assert!(plies < 100);
            }
            let winner = if starts_winning {
                Player::Human
            } else {
                Player::Computer
            };
            assert_eq!(game.status(), Status::Won(winner), "{text} misère {misere}");
        }
    }
}

#[test]
fn loser_delays_and_winner_hurries() {
    let ctx = Context::default();
    // nim 1 1 is lost; both moves take one token: remoteness 1 either way.
    let game = Game::new("nim 3 3", false, Player::Computer).unwrap();
    let reply = game.reply(&ctx).unwrap();
    // From 3 3 (lost) the longest defence takes one token (remoteness of 2 3 is 5).
    assert_eq!(reply.choice.result, "nim 2 3");
    assert_eq!(reply.reason, Reason::Delaying { remoteness: 5 });
    let game = Game::new("nim 5 1 1", false, Player::Computer).unwrap();
    let reply = game.reply(&ctx).unwrap();
    // The winning moves: 5 -> 0 leaves 1 1 (remoteness 2).
    assert_eq!(reply.choice.result, "nim 0 1 1");
    assert_eq!(
        reply.reason,
        Reason::Winning {
            remoteness: Some(2)
        }
    );
}

#[test]
fn choose_by_number_or_position_and_undo() {
    let ctx = Context::default();
    let mut game = Game::new("nim 2 3", false, Player::Human).unwrap();
    assert_eq!(game.moves(&ctx).unwrap().len(), 5);
    // The same position written in another order is the same move.
    let by_text = game.choose("nim 2 + nim 2", &ctx).unwrap();
    assert_eq!(by_text.result, "nim 2 2");
    let by_number = game.choose(&by_text.number.to_string(), &ctx).unwrap();
    assert_eq!(by_number.result, by_text.result);
    assert_eq!(
        game.choose("9", &ctx).unwrap_err(),
        PlayError::NoSuchNumber {
            number: 9,
            count: 5
        }
    );
    assert_eq!(
        game.choose("nim 3 3", &ctx).unwrap_err().to_string(),
        "nim 3 3 is not one move away from nim 2 3"
    );
    assert!(matches!(
        game.choose("nim x", &ctx),
        Err(PlayError::Expr(_))
    ));
    assert!(matches!(
        game.choose("0", &ctx),
        Err(PlayError::NoSuchNumber { .. })
    ));
    game.apply(&by_text);
    let reply = game.reply(&ctx).unwrap();
    game.apply(&reply.choice);
    assert_eq!(game.history().len(), 2);
    assert_eq!(game.undo_for(Player::Human), 2);
    assert_eq!(game.position().to_string(), "nim 2 3");
    assert_eq!(game.to_move(), Player::Human);
    assert_eq!(game.undo_for(Player::Human), 0);
}

#[test]
fn hints_name_the_winning_moves_and_the_reason() {
    let ctx = Context::default();
    let game = Game::new("nim 3 4 5", false, Player::Human).unwrap();
    let hint = game.hint(&ctx).unwrap();
    assert_eq!(hint.outcome, Outcome::N);
    assert_eq!(hint.value, Some(Nimber(2)));
    let results: Vec<&str> = hint.moves.iter().map(|m| m.result.as_str()).collect();
    assert_eq!(results, ["nim 1 4 5"]);
    assert!(hint.explanation.iter().any(|l| l.contains("nim-sum")));
    let hint = Game::new("kayles 4", false, Player::Human)
        .unwrap()
        .hint(&ctx)
        .unwrap();
    assert!(
        hint.explanation.iter().any(|l| l.contains("mex")),
        "{:?}",
        hint.explanation
    );
}

#[test]
fn misere_and_large_positions() {
    let ctx = Context::default();
    // Misère kayles: the computer plays a whole game against itself without error.
    let mut game = Game::new("kayles 7", true, Player::Computer).unwrap();
    while let Status::ToMove(_) = game.status() {
        let r = game.reply(&ctx).unwrap();
        game.apply(&r.choice);
    }
    // Too large to search: the fallback still answers, with the winning move by the nim-sum.
    let game = Game::new("nim 400 300 200 100", false, Player::Computer).unwrap();
    let r = game.reply(&ctx).unwrap();
    assert_eq!(r.reason, Reason::Winning { remoteness: None });
    let after: u64 = heaps(&r.choice.position).iter().fold(0, |a, b| a ^ b);
    assert_eq!(after, 0);
    // A lost large position: the move that leaves the most moves (takes one token).
    let game = Game::new("nim 300 300 7 7", false, Player::Computer).unwrap();
    let r = game.reply(&ctx).unwrap();
    assert!(
        matches!(r.reason, Reason::MostMoves { moves_left: 613 }),
        "{r:?}"
    );
    // Game over.
    let game = Game::new("0", false, Player::Human).unwrap();
    assert_eq!(game.status(), Status::Won(Player::Computer));
    assert_eq!(
        game.reply(&ctx).unwrap_err(),
        PlayError::GameOver(Player::Computer)
    );
    let game = Game::new("0", true, Player::Human).unwrap();
    assert_eq!(game.status(), Status::Won(Player::Human));
}

#[test]
fn tokens_on_graphs_with_cycles_win_and_draw() {
    use crate::graph::read::{ReadOptions, read_edge_list};
    let ctx = Context::default();
    let read = |text: &str| read_edge_list(text.as_bytes(), &ReadOptions::default()).unwrap();
    // b moves to the dead end c and wins.
    let g = Game::from_sum(
        board::tokens(read("a b\nb a\nb c\n"), &["b"]).unwrap(),
        false,
        Player::Computer,
    );
    let r = g.reply(&ctx).unwrap();
    assert_eq!(r.choice.result, "token c");
    assert_eq!(
        r.reason,
        Reason::Winning {
            remoteness: Some(0)
        }
    );
    // Misère: reaching c loses, so b keeps the game going forever through a.
    let g = Game::from_sum(
        board::tokens(read("a b\nb a\nb c\n"), &["b"]).unwrap(),
        true,
        Player::Computer,
    );
    let r = g.reply(&ctx).unwrap();
    assert_eq!(
        (r.choice.result.as_str(), r.reason),
        ("token a", Reason::Drawing)
    );
    let hint = g.hint(&ctx).unwrap();
    assert_eq!(hint.outcome, Outcome::Draw);
    assert_eq!(hint.moves.len(), 1);
    // Two tokens on a two-cycle and a stalk: moves are typed as listed.
    let mut g = Game::from_sum(
        board::tokens(read("x y\ny x\np q\n"), &["x", "p"]).unwrap(),
        false,
        Player::Human,
    );
    let c = g.choose("p -> q", &ctx).unwrap();
    assert_eq!(c.result, "token x q");
    g.apply(&c);
    assert_eq!(g.reply(&ctx).unwrap().reason, Reason::Drawing);
    assert_eq!(
        board::tokens(read("x y\n"), &["z"]).unwrap_err(),
        board::BoardError::NoVertex("z".into())
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The exact search against the definition on random small Nim positions.
        #[test]
        fn exact_matches_the_reference(heaps in proptest::collection::vec(0u64..6, 0..4), misere: bool) {
            let ctx = Context::default();
            let text = if heaps.is_empty() { "0".to_string() } else {
                format!("nim {}", heaps.iter().map(u64::to_string).collect::<Vec<_>>().join(" "))
            };
            let game = Game::new(&text, misere, Player::Human).unwrap();
            let moves = game.moves(&ctx).unwrap();
            let solved = solve_exact(&game, &moves, &ctx).unwrap().unwrap();
            let mut memo = HashMap::new();
            let (win, r) = reference(&heaps, misere, &mut memo);
            prop_assert_eq!(solved.outcome == Outcome::N, win);
            prop_assert_eq!(solved.remoteness, Some(r));
        }

        /// The exact search's outcome agrees with the analysis (nim-sums of the families' fast
        /// values in normal play, the misère search in misère play) on mixed sums.
        #[test]
        fn exact_agrees_with_the_analysis(k in 0u64..7, d in 0u64..8, s in 0u64..7, misere: bool) {
            let ctx = Context::default();
            let text = format!("kayles {k} + 0.137 {d} + sub(1,3,4) {s} + hackenbush 0-1 1-2 1-1");
            let game = Game::new(&text, misere, Player::Human).unwrap();
            let moves = game.moves(&ctx).unwrap();
            let solved = solve_exact(&game, &moves, &ctx).unwrap().unwrap();
            let analysis = game.analysis(&ctx).unwrap();
            prop_assert_eq!(solved.outcome, analysis.outcome, "{}", text);
            let key = |t: &str| crate::catalog::parse(t).unwrap().key();
            let best: std::collections::BTreeSet<Vec<String>> =
                solved.best_numbers().iter().map(|&n| key(&moves[n - 1].result)).collect();
            let wins: std::collections::BTreeSet<Vec<String>> =
                analysis.winning_moves.iter().map(|m| key(&m.result)).collect();
            prop_assert_eq!(best, wins, "{}", text);
        }
    }
}

// ---- positions whose moves are too many to list ----

/// Every move the list has is found again from its position by the rules alone (the route
/// for positions too large to list), with the same result; positions one move away from no
/// listed move are refused. The list is the reference.
#[test]
fn moves_typed_as_positions_are_checked_by_the_rules_as_the_list_has_them() {
    let ctx = Context::default();
    let positions = [
        "nim 3 5 6",
        "kayles 7 + nim 2",
        "0.137 9 4",
        "grundys-game 10 7",
        "0.4= 12 + 4.07 6",
        "lasker 5 2",
        "sub(1,3,4) 9 + half 7",
        "even-if-not-all 7 4",
        "nim 0 4",
        "wythoff 4 6 + wythoff 3 0",
    ];
    for text in positions {
        let game = Game::new(text, false, Player::Human).unwrap();
        let moves = game.moves(&ctx).unwrap();
        assert!(!moves.is_empty(), "{text}");
        for m in &moves {
            let typed = game.choose_unlisted(&m.result, &ctx).unwrap();
            assert_eq!(
                typed.position.key(),
                m.position.key(),
                "{text}: {}",
                m.result
            );
            assert_eq!(typed.component, m.component, "{text}: {}", m.result);
            assert_eq!(typed.number, 0);
        }
        let least = game.least_move(&ctx).unwrap().expect("a move");
        assert!(
            moves
                .iter()
                .any(|m| m.position.key() == least.position.key()),
            "{text}: {}",
            least.result
        );
        // Positions two moves away, or not related, are refused.
        let listed: Vec<Vec<String>> = moves.iter().map(|m| m.position.key()).collect();
        for m in moves.iter().take(6) {
            let after = Game::from_sum(m.position.clone(), false, Player::Human);
            for m2 in after.moves(&ctx).unwrap().iter().take(6) {
                if listed.contains(&m2.position.key()) || m2.position.key() == game.position.key() {
                    continue;
                }
                assert!(
                    matches!(
                        game.choose_unlisted(&m2.result, &ctx),
                        Err(PlayError::NotAMove { .. })
                    ),
                    "{text} -> {}",
                    m2.result
                );
            }
        }
        assert!(matches!(
            game.choose_unlisted("1", &ctx),
            Err(PlayError::Unnumbered)
        ));
        assert!(matches!(
            game.choose_unlisted(text, &ctx),
            Err(PlayError::NotAMove { .. })
        ));
    }
    // The parts left must be heaps of the moving heap's rule: Kayles 7 leaves 5 and 1 (take
    // 1), not 5 and a Nim heap of 1.
    let game = Game::new("kayles 7 + nim 2", false, Player::Human).unwrap();
    assert!(game.choose_unlisted("kayles 5 1 + nim 2", &ctx).is_ok());
    assert!(matches!(
        game.choose_unlisted("kayles 5 + nim 1 2", &ctx),
        Err(PlayError::NotAMove { .. })
    ));
}

#[test]
fn nim_with_huge_heaps_is_played_without_a_list() {
    let ctx = Context::default();
    let mut game = Game::new("nim 1000000000 999999999 123456789", false, Player::Human).unwrap();
    assert!(matches!(game.moves(&ctx), Err(PlayError::Analysis(_))));
    assert_eq!(game.status_in(&ctx).unwrap(), Status::ToMove(Player::Human));
    let hint = game.hint(&ctx).unwrap();
    assert_eq!(hint.outcome, Outcome::N);
    assert_eq!(hint.moves.len(), 1);
    assert_eq!(hint.moves[0].result, "nim 1000000000 999999999 1023");
    assert!(matches!(game.choose("3", &ctx), Err(PlayError::Unnumbered)));
    assert!(matches!(
        game.choose("nim 1000000001 999999999 123456789", &ctx),
        Err(PlayError::NotAMove { .. })
    ));
    // A losing move by the human: 10^9 -> 4; the computer answers with a winning move.
    let choice = game.choose("nim 123456789 4 999999999", &ctx).unwrap();
    assert_eq!(choice.description, "1000000000 -> 4");
    game.apply(&choice);
    let reply = game.reply(&ctx).unwrap();
    assert_eq!(reply.reason, opponent::Reason::Winning { remoteness: None });
    assert_eq!(
        heaps(&reply.choice.position).iter().fold(0, |a, b| a ^ b),
        0
    );
    game.apply(&reply.choice);
    // Now the human is lost; asked to move for them, the computer takes one token.
    let delay = game.reply(&ctx).unwrap();
    assert_eq!(delay.reason, opponent::Reason::Least);
    let before: u64 = heaps(game.position()).iter().sum();
    assert_eq!(
        heaps(&delay.choice.position).iter().sum::<u64>(),
        before - 1
    );
}

#[test]
fn wythoff_queens_far_from_the_corner_are_played_without_a_list() {
    let ctx = Context::default();
    let mut game = Game::new("wythoff 1000000 999999", false, Player::Human).unwrap();
    assert_eq!(game.status_in(&ctx).unwrap(), Status::ToMove(Player::Human));
    for not_a_move in ["wythoff 1000000 1000000", "wythoff 999999 999997", "nim 3"] {
        assert!(
            matches!(
                game.choose(not_a_move, &ctx),
                Err(PlayError::NotAMove { .. })
            ),
            "{not_a_move}"
        );
    }
    // Diagonally by 3: a legal move; the computer answers with a move to a P-position.
    game.apply(&game.choose("wythoff 999997 999996", &ctx).unwrap());
    let reply = game.reply(&ctx).unwrap();
    assert_eq!(reply.reason, opponent::Reason::Winning { remoteness: None });
    assert_eq!(
        Game::from_sum(reply.choice.position.clone(), false, Player::Human)
            .analysis(&ctx)
            .unwrap()
            .outcome,
        Outcome::P
    );
}

#[test]
fn misere_heaps_of_a_million_are_answered_through_the_quotient() {
    let ctx = Context::default();
    let mut game = Game::new("0.75 1000000 999999 123456789", true, Player::Human).unwrap();
    assert!(matches!(
        game.moves(&ctx),
        Err(PlayError::TooManyMoves { .. })
    ));
    assert_eq!(game.status_in(&ctx).unwrap(), Status::ToMove(Player::Human));
    // A winning move from the hint leaves a misère P-position: the computer delays.
    let hint = game.hint(&ctx).unwrap();
    assert_eq!(hint.outcome, Outcome::N);
    let win = hint.moves.first().expect("a winning move").clone();
    game.apply(&game.choose(&win.result, &ctx).unwrap());
    let reply = game.reply(&ctx).unwrap();
    assert_eq!(reply.reason, opponent::Reason::Least);
    game.apply(&reply.choice);
    // The human's turn again, in an N-position (every move from a P-position wins).
    assert_eq!(game.hint(&ctx).unwrap().outcome, Outcome::N);
}
