//! End-to-end: `grundy play` driven through its standard input, as a script or a person would.

use crate::common;

use common::{grundy, grundy_with_input, ok_stdout, stderr, stdout};
use std::process::Command;
use std::time::{Duration, Instant};

/// The heaps of a Nim position written as `nim a b c`.
fn heaps(position: &str) -> Vec<u64> {
    position
        .trim()
        .strip_prefix("nim")
        .unwrap_or_else(|| panic!("not a Nim position: {position}"))
        .split_whitespace()
        .map(|h| h.parse().unwrap())
        .collect()
}

fn nim_sum(position: &str) -> u64 {
    heaps(position).iter().fold(0, |a, b| a ^ b)
}

/// The positions the computer left, in order.
fn computer_results(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("Computer: "))
        .map(|l| l.rsplit("->").next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn a_whole_game_of_nim_the_computer_never_misses_a_win() {
    // The human always takes the first listed move (one token from the first non-empty heap's
    // smallest option); from nim 3 4 5 (value 2) that loses the win at once.
    let input = "1\n".repeat(30);
    let o = grundy_with_input(&["play", "nim", "3", "4", "5"], &input);
    let text = ok_stdout(&o);
    let results = computer_results(&text);
    assert!(results.len() >= 2, "{text}");
    for r in &results {
        assert_eq!(
            nim_sum(r),
            0,
            "the computer left {r}, not a P-position:\n{text}"
        );
    }
    assert!(text.contains("Game over: the computer won."), "{text}");
    assert!(text.trim_end().ends_with("Bye."), "{text}");
}

#[test]
fn the_computer_first_wins_from_an_n_position_and_delays_from_a_p_position() {
    let o = grundy_with_input(&["play", "nim 2 3", "--computer-first"], "");
    let text = stdout(&o);
    assert_eq!(computer_results(&text), ["nim 2 2"], "{text}");
    // From a P-position the computer makes the game last: it takes one token.
    let o = grundy_with_input(&["play", "nim 3 3", "--computer-first"], "");
    let text = stdout(&o);
    assert_eq!(computer_results(&text), ["nim 2 3"], "{text}");
    assert!(text.contains("makes the game last longest"), "{text}");
}

#[test]
fn hint_undo_and_bad_moves_keep_the_game_going() {
    let input = "hint\nnim 9 9\n42\nbanana 3\n1\nundo\nundo\nnim 1 2 3 + nim 0\nquit\n";
    let o = grundy_with_input(&["play", "nim 1 2 3"], input);
    let text = ok_stdout(&o);
    // nim 1 2 3 is a P-position: the hint says so and lists no winning move.
    assert!(text.contains("Hint: P: the player to move loses"), "{text}");
    assert!(text.contains("No winning move"), "{text}");
    assert!(
        text.contains("Not a move: nim 9 9 is not one move away from nim 1 2 3."),
        "{text}"
    );
    assert!(
        text.contains("there is no move 42: choose a number from 1 to 6"),
        "{text}"
    );
    assert!(text.contains("unknown rule `banana`"), "{text}");
    assert!(text.contains("Took back 2 moves."), "{text}");
    assert!(text.contains("Nothing to undo."), "{text}");
    // The position typed after the undo is the start again, not a move.
    assert!(
        text.contains("Not a move: nim 1 2 3 0 is not one move away"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("Bye."));
}

#[test]
fn misere_new_game_and_end_of_input() {
    let input = "new kayles 3\n1\n";
    let o = grundy_with_input(&["play", "nim 1", "--misere"], input);
    let text = ok_stdout(&o);
    assert!(
        text.contains("misère play: whoever makes the last move loses"),
        "{text}"
    );
    assert!(text.contains("New game: kayles 3"), "{text}");
    // Misère Kayles 3: the hint-free game still ends cleanly at the end of input.
    assert!(text.trim_end().ends_with("Bye."), "{text}");
    // A bad starting expression is an input error (exit 2) with the span.
    let o = grundy(&["play", "nim 3 x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid expression"), "{}", stderr(&o));
}

/// Once through a real terminal: tmux runs `grundy play`, keys are typed and the screen read.
#[test]
fn in_a_real_terminal_through_tmux() {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("SKIPPED: tmux is not installed (apt-get install tmux to run this test)");
        return;
    }
    let session = format!("grundy-play-{}", std::process::id());
    let socket = format!("grundy-test-{}", std::process::id());
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .args(["-L", &socket])
            .args(args)
            .output()
            .expect("tmux runs")
    };
    let binary = env!("CARGO_BIN_EXE_grundy");
    let started = tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "120",
        "-y",
        "50",
        binary,
        "play",
        "nim",
        "1",
        "2",
    ]);
    assert!(
        started.status.success(),
        "{}",
        String::from_utf8_lossy(&started.stderr)
    );
    let screen = |want: &str| -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let o = tmux(&["capture-pane", "-p", "-t", &session]);
            let text = String::from_utf8_lossy(&o.stdout).to_string();
            if text.contains(want) || Instant::now() > deadline {
                return text;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    let first = screen("Your move>");
    assert!(first.contains("Position: nim 1 2"), "{first}");
    // nim 1 2: the winning move is 2 -> 1 (leaves nim 1 1), typed as the position.
    tmux(&["send-keys", "-t", &session, "nim 1 1", "Enter"]);
    let after = screen("Computer:");
    tmux(&["send-keys", "-t", &session, "1", "Enter"]);
    let end = screen("Game over: you won!");
    tmux(&["kill-session", "-t", &session]);
    tmux(&["kill-server"]);
    assert!(after.contains("Computer: 1 -> 0"), "{after}");
    assert!(end.contains("Game over: you won!"), "{end}");
}

#[test]
fn tokens_on_a_graph_with_cycles() {
    let dir = common::scratch("play-graph");
    let file = dir.join("game.txt");
    // x and y chase each other forever; p steps once to q.
    std::fs::write(&file, "x y\ny x\np q\n").unwrap();
    let path = file.to_str().unwrap();
    let o = grundy_with_input(&["play", "--graph", path, "x", "p"], "hint\np -> q\nquit\n");
    let text = ok_stdout(&o);
    assert!(text.contains("Playing token x p"), "{text}");
    assert!(text.contains("Hint: D: a draw"), "{text}");
    assert!(text.contains("You: p -> q"), "{text}");
    assert!(text.contains("Neither side can force a win"), "{text}");
    let o = grundy(&["play", "--graph", path, "nowhere"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no vertex named `nowhere`"),
        "{}",
        stderr(&o)
    );
}

/// The best moves a hint lists, as the positions they leave.
fn hinted_results(text: &str) -> Vec<String> {
    text.split("Best moves:")
        .nth(1)
        .unwrap_or_else(|| panic!("no best moves in\n{text}"))
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("   "))
        .map(|l| l.rsplit("  ->  ").next().unwrap().trim().to_string())
        .collect()
}

/// `hint` shows the winning moves and the reason: the nim-sum table, the period, the mex
/// table of one component and its Hackenbush cut, staircase Nim as Nim on the odd steps.
#[test]
fn a_hint_shows_the_winning_moves_and_the_reason() {
    let o = grundy_with_input(&["play", "nim", "3", "4", "5"], "hint\nquit\n");
    let text = stdout(&o);
    assert!(text.contains("nim-sum  2 = 010"), "{text}");
    assert!(text.contains("nim 3: 3 ⊕ 2 = 1, so 3 -> 1"), "{text}");
    assert_eq!(hinted_results(&text), ["nim 1 4 5"]);

    let o = grundy_with_input(&["play", "kayles 1000"], "hint\nquit\n");
    let text = stdout(&o);
    assert!(
        text.contains("heap 1000 falls at 76 in the period")
            && text.contains("g(1000) = g(76) = 1"),
        "{text}"
    );

    // A tree worth 1 (two leaves on a stalk: 1 + (1 ⊕ 1)) beside a stalk of 2, in one
    // picture worth 1 ⊕ 2 = 3. Cutting 1-2 or 1-3 makes the tree a stalk of 2 (2 ⊕ 2 = 0);
    // cutting 4-5 leaves a stalk of 1 (1 ⊕ 1 = 0).
    let o = grundy_with_input(&["play", "hackenbush 0-1 1-2 1-3 0-4 4-5"], "hint\nquit\n");
    let text = stdout(&o);
    assert!(text.contains("so cut 1-2, cut 1-3, cut 4-5"), "{text}");
    assert!(
        text.contains("Why hackenbush 0-1 1-2 1-3 0-4 4-5 has value 3"),
        "{text}"
    );
    let mut results = hinted_results(&text);
    results.sort();
    assert_eq!(
        results,
        [
            "hackenbush 0-1 1-2 0-4 4-5",
            "hackenbush 0-1 1-2 1-3 0-4",
            "hackenbush 0-1 1-3 0-4 4-5"
        ]
    );
    // Each leaves a P-position, by the analysis.
    for r in &results {
        let v: serde_json::Value =
            serde_json::from_slice(&grundy(&["analyze", r, "--json"]).stdout).unwrap();
        assert_eq!(v["outcome"], "P", "{r}");
    }

    let o = grundy_with_input(&["play", "staircase 3 2 1"], "hint\nquit\n");
    assert!(stdout(&o).contains("Nim on the odd steps (step 1: 3, step 3: 1)"));
}

/// The second example: misère Kayles with the computer first. Kayles 12 is a misère
/// P-position, so the computer can only delay; every best move the hint then lists leaves a
/// misère P-position, by the analysis.
#[test]
fn misere_kayles_with_the_computer_first() {
    let o = grundy_with_input(
        &["play", "kayles 12", "--misere", "--computer-first"],
        "hint\nquit\n",
    );
    let text = ok_stdout(&o);
    assert!(text.contains("Computer: "), "{text}");
    assert!(
        text.contains("Every move loses against best play"),
        "{text}"
    );
    assert!(text.contains("Hint: N: the player to move wins"), "{text}");
    assert!(text.contains("misère quotient of kayles"), "{text}");
    let results = hinted_results(&text);
    assert!(!results.is_empty(), "{text}");
    for r in &results {
        let v: serde_json::Value =
            serde_json::from_slice(&grundy(&["analyze", r, "--misere", "--json"]).stdout).unwrap();
        assert_eq!(v["outcome"], "P", "{r}");
    }
}

#[test]
fn heaps_of_a_billion_are_played_by_typing_the_position() {
    // The moves are too many to list (a Nim heap of 10^9 has 10^9 of them): the game said
    // "Game over: the computer won" at the start. Now the player types positions, the
    // computer answers with Bouton's move, and a hint names the winning move.
    let input = "hint\n7\nnim 4 999999999 123456789\nnim 4 1 1\nquit\n";
    let o = grundy_with_input(&["play", "nim 1000000000 999999999 123456789"], input);
    let text = ok_stdout(&o);
    assert!(!text.contains("Game over"), "{text}");
    assert!(text.contains("The moves are too many to list"), "{text}");
    assert!(
        text.contains("123456789 -> 1023 in nim 123456789  ->  nim 1000000000 999999999 1023"),
        "{text}"
    );
    assert!(text.contains("the moves are too many to number"), "{text}");
    assert!(
        text.contains("You: 1000000000 -> 4 in nim 1000000000"),
        "{text}"
    );
    let results = computer_results(&text);
    assert_eq!(results.len(), 1, "{text}");
    assert_eq!(nim_sum(&results[0]), 0, "{text}");
    assert!(
        text.contains("Not a move: nim 4 1 1 is not one move away"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("Bye."), "{text}");

    // Misère 0.75 with heaps of a million, through its quotient: the hint's first winning
    // move leaves a P-position, so the computer, lost, takes as little as it can.
    let input = "0.75 1 999997 999999 123456789\nquit\n";
    let o = grundy_with_input(
        &["play", "0.75 1000000 999999 123456789", "--misere"],
        input,
    );
    let text = ok_stdout(&o);
    assert!(text.contains("Type the position after your move"), "{text}");
    assert!(
        text.contains("this move takes as little as the rules allow"),
        "{text}"
    );
    assert!(!text.contains("resigns"), "{text}");
}
