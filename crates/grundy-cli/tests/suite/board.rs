//! The page as a class uses it, in a real headless Chromium: a game of Nim and a game of
//! Kayles played to the end by clicking tokens and pins, at a phone's width (360 px) and a
//! desktop's (1280 px). After every step the value story is checked against values computed
//! here (the nim-sum for Nim, Kayles values by brute force), a shared link must reopen the
//! same position and history, and at no width may the page scroll sideways. Screenshots go
//! to `target/browser-screenshots/`.
//!
//! Skipped, saying so, without `chromium` and `chromedriver` (as `browser.rs`).

use crate::common::chrome::{Chrome, screenshot};
use crate::common::server::Server;

use fantoccini::{Client, Locator};
use serde_json::Value;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Game {
    Nim,
    Kayles,
}

impl Game {
    /// The heaps of a position as the API writes it (`nim 0 4 5`, `kayles 3 3`).
    fn heaps(self, position: &str) -> Vec<u64> {
        let rule = match self {
            Game::Nim => "nim",
            Game::Kayles => "kayles",
        };
        let mut heaps = Vec::new();
        if position == "0" {
            // The empty position (every pin down).
            return heaps;
        }
        for term in position.split(" + ") {
            let mut words = term.split_whitespace();
            assert_eq!(words.next(), Some(rule), "{position}");
            heaps.extend(words.map(|w| w.parse::<u64>().expect("a heap size")));
        }
        heaps
    }

    /// The value of a position, computed here.
    fn value(self, position: &str) -> u64 {
        self.heaps(position)
            .iter()
            .map(|&n| match self {
                Game::Nim => n,
                Game::Kayles => kayles(n as usize),
            })
            .fold(0, |a, b| a ^ b)
    }
}

/// The value of a row of `n` pins in Kayles, by brute force: the mex of the values of the
/// rows left by knocking down one pin or two neighbours anywhere.
fn kayles(n: usize) -> u64 {
    let mut g = vec![0u64; n + 1];
    for m in 1..=n {
        let mut seen = std::collections::HashSet::new();
        for take in 1..=2.min(m) {
            for left in 0..=m - take {
                seen.insert(g[left] ^ g[m - take - left]);
            }
        }
        g[m] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    g[n]
}

#[test]
fn nim_and_kayles_by_clicks_at_phone_and_desktop_widths() {
    let Some(chrome) = Chrome::start() else {
        return;
    };
    let started = Instant::now();
    let server = Server::start(&[]);
    // The page's weight: its HTML, style and script (all built into the binary).
    let mut weight = 0;
    for path in ["/", "/page.css", "/page.js"] {
        let (status, body) = server.request("GET", path, "");
        assert_eq!(status, 200, "{path}");
        println!("{path}: {} bytes", body.len());
        weight += body.len();
    }
    println!("the page weighs {weight} bytes");
    assert!(weight < 64 * 1024, "{weight}");
    let mut timings = Vec::new();
    chrome.run(async {
        // At the phone's width the player plays Nim perfectly and Kayles naively; at the
        // desktop's the other way round: both winners and a slipped win are seen.
        for (width, nim_wins) in [(360, true), (1280, false)] {
            let c = chrome.session(width).await;
            play(&c, &server.url(), width, Game::Nim, nim_wins, &mut timings).await;
            play(
                &c,
                &server.url(),
                width,
                Game::Kayles,
                !nim_wins,
                &mut timings,
            )
            .await;
            if width == 1280 {
                chooser_and_hackenbush(&c, &server.url()).await;
                cram(&c, &server.url()).await;
                staircase(&c, &server.url()).await;
                bad_link(&c, &server.url()).await;
            }
            c.close().await.unwrap();
        }
    });
    drop(chrome);
    timings.sort_by(f64::total_cmp);
    println!(
        "click to reply drawn over {} moves: median {:.1} ms, worst {:.1} ms",
        timings.len(),
        timings[timings.len() / 2],
        timings[timings.len() - 1]
    );
    println!("the board test took {:?}", started.elapsed());
}

/// Everything the test reads of the page, in one call.
const SNAPSHOT: &str = r#"
const status = document.getElementById('status');
return {
  state: status.dataset.state || '',
  position: document.getElementById('play-position').textContent.replace(/^Position: /, ''),
  log: document.querySelectorAll('#log li').length,
  replied: !!document.querySelector('#log li:last-child.computer'),
  story: [...document.querySelectorAll('#story li')].map((li) => ({position: li.dataset.position,
    value: li.dataset.value, outcome: li.dataset.outcome, winner: li.dataset.winner,
    slip: li.dataset.slip || ''})),
  rows: [...document.querySelectorAll('#board .heap')].map((r) => ({component: Number(r.dataset.component),
    pieces: r.querySelectorAll('.piece:not(.ghost)').length,
    ghosts: r.querySelectorAll('.piece.ghost').length, changed: r.classList.contains('changed')})),
  restored: document.body.dataset.restored || '',
  link: document.getElementById('share-link').value,
  scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
  clicked: window.clickedAt || 0, drawn: window.lastReplyDrawn || 0,
};
"#;

async fn snapshot(c: &Client) -> Value {
    c.execute(SNAPSHOT, vec![]).await.unwrap()
}

/// Waits until the game has answered: the log holds more than `log` entries (or the game
/// has just started), and the value story covers the position now.
async fn settled(c: &Client, log: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let s = snapshot(c).await;
        let story = s["story"].as_array().unwrap();
        let ready = ["your-turn", "human-won", "computer-won"]
            .contains(&s["state"].as_str().unwrap())
            && s["log"].as_u64().unwrap() >= log
            && story.len() as u64 == s["log"].as_u64().unwrap() + 1
            && story.last().is_some_and(|e| e["position"] == s["position"]);
        if ready {
            return s;
        }
        assert!(Instant::now() < deadline, "the page never settled: {s}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// The value story against the values computed here: each position's value and outcome,
/// who was winning, and a slip marked exactly where a winning player left a win.
fn check_story(game: Game, s: &Value) {
    let story = s["story"].as_array().unwrap();
    let values: Vec<u64> = story
        .iter()
        .map(|e| game.value(e["position"].as_str().unwrap()))
        .collect();
    for (k, e) in story.iter().enumerate() {
        let v = values[k];
        assert_eq!(e["value"], v.to_string(), "entry {k}: {e}");
        assert_eq!(
            e["outcome"],
            if v == 0 { "P" } else { "N" },
            "entry {k}: {e}"
        );
        // The player moves first; the turns alternate.
        let (to_move, other) = if k % 2 == 0 {
            ("you", "computer")
        } else {
            ("computer", "you")
        };
        assert_eq!(e["winner"], if v == 0 { other } else { to_move }, "{e}");
        let slipped = k > 0 && values[k - 1] != 0 && v != 0;
        let mover = if k % 2 == 1 { "you" } else { "computer" };
        assert_eq!(
            e["slip"],
            if slipped { mover } else { "" },
            "entry {k}: {e}"
        );
    }
}

/// The board shows the position's heaps, one row each, with the computer's reply marked.
fn check_board(game: Game, s: &Value, replied: bool) {
    let rows = s["rows"].as_array().unwrap();
    let drawn: Vec<u64> = rows.iter().map(|r| r["pieces"].as_u64().unwrap()).collect();
    let heaps = game.heaps(s["position"].as_str().unwrap());
    let nonzero = |v: &[u64]| v.iter().copied().filter(|&n| n > 0).collect::<Vec<_>>();
    assert_eq!(nonzero(&drawn), nonzero(&heaps), "{s}");
    if replied && game == Game::Nim {
        let changed: Vec<&Value> = rows.iter().filter(|r| r["changed"] == true).collect();
        assert_eq!(changed.len(), 1, "one heap marked as the computer's: {s}");
        assert!(changed[0]["ghosts"].as_u64().unwrap() > 0, "{s}");
    }
}

/// The clicks for the player's move: (component, pin or token indices). A perfect player
/// moves to value 0 when it can; a naive one takes the last token of the first heap or
/// knocks down the first pin.
fn choose(game: Game, s: &Value, perfect: bool) -> (u64, Vec<u64>) {
    let rows: Vec<(u64, u64)> = s["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["component"].as_u64().unwrap(),
                r["pieces"].as_u64().unwrap(),
            )
        })
        .filter(|&(_, n)| n > 0)
        .collect();
    let total = game.value(s["position"].as_str().unwrap());
    if perfect && total != 0 {
        for &(component, n) in &rows {
            match game {
                Game::Nim => {
                    if n ^ total < n {
                        // Clicking token k leaves k tokens.
                        return (component, vec![n ^ total]);
                    }
                }
                Game::Kayles => {
                    let g = kayles(n as usize);
                    for take in 1..=2.min(n) {
                        for left in 0..=n - take {
                            let right = n - take - left;
                            if kayles(left as usize) ^ kayles(right as usize) ^ g ^ total == 0 {
                                return (component, vec![left, left + take - 1]);
                            }
                        }
                    }
                }
            }
        }
        panic!("no winning move found from {s}");
    }
    let (component, n) = rows[0];
    match game {
        Game::Nim => (component, vec![n - 1]),
        Game::Kayles => (component, vec![0, 0]),
    }
}

async fn click_piece(c: &Client, component: u64, index: u64) {
    c.execute(
        "if (!window.timing) { window.timing = true; \
         document.addEventListener('click', () => { window.clickedAt = performance.now(); }, true); }",
        vec![],
    )
    .await
    .unwrap();
    c.find(Locator::Css(&format!(
        "#board .heap[data-component='{component}'] g.piece[data-index='{index}']"
    )))
    .await
    .unwrap_or_else(|e| panic!("no piece {index} in component {component}: {e}"))
    .click()
    .await
    .unwrap();
}

/// A click that several legal moves match opens a chooser of exactly those moves; a
/// Hackenbush edge is cut by a click.
async fn chooser_and_hackenbush(c: &Client, url: &str) {
    // In 4.07 (take 2 leaving up to two heaps, or split a heap in two) taking the last two of
    // six tokens leaves 4, 1 + 3 or 2 + 2.
    c.goto(&format!("{url}?e=4.07+6&play=1")).await.unwrap();
    let s = settled(c, 0).await;
    assert_eq!(s["position"], "4.07 6");
    click_piece(c, 0, 4).await;
    let chooser = c.find(Locator::Id("chooser")).await.unwrap();
    let mut options = Vec::new();
    for b in chooser.find_all(Locator::Css("button")).await.unwrap() {
        options.push(b.text().await.unwrap());
    }
    options.sort();
    assert_eq!(
        options,
        [
            "Cancel",
            "take 2, leaving 1 and 3",
            "take 2, leaving 2 and 2",
            "take 2, leaving 4"
        ],
        "{s}"
    );
    c.find(Locator::XPath(
        "//div[@id='chooser']//button[text()='take 2, leaving 1 and 3']",
    ))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    settled(c, 1).await;
    let first = c
        .find(Locator::Css("#log li"))
        .await
        .unwrap()
        .attr("data-result")
        .await
        .unwrap();
    assert_eq!(first.as_deref(), Some("4.07 1 3"));

    // Hackenbush: cutting the edge 1-2 of the tree leaves 0-1 and 1-3.
    c.goto(url).await.unwrap();
    c.find(Locator::XPath(
        "//ul[@id='puzzles']//a[text()='hackenbush 0-1 1-2 1-3']",
    ))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    settled(c, 0).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let edge = loop {
        if let Ok(edge) = c
            .find(Locator::Css(
                "#board g.edge[data-edge='1-2'][role='button']",
            ))
            .await
        {
            break edge;
        }
        assert!(Instant::now() < deadline, "no edge to cut");
        tokio::time::sleep(Duration::from_millis(30)).await;
    };
    edge.click().await.unwrap();
    settled(c, 1).await;
    let first = c
        .find(Locator::Css("#log li"))
        .await
        .unwrap()
        .attr("data-result")
        .await
        .unwrap();
    assert_eq!(first.as_deref(), Some("hackenbush 0-1 1-3"));
}

/// Staircase Nim: a click on the first coin of step 2 moves both its coins to step 1.
async fn staircase(c: &Client, url: &str) {
    c.goto(url).await.unwrap();
    c.find(Locator::XPath(
        "//ul[@id='puzzles']//a[text()='staircase 3 2 1']",
    ))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    settled(c, 0).await;
    c.find(Locator::Css(
        "#board .step g[data-step='2'][data-index='0'][role='button']",
    ))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    settled(c, 1).await;
    let first = c
        .find(Locator::Css("#log li"))
        .await
        .unwrap()
        .attr("data-result")
        .await
        .unwrap();
    assert_eq!(first.as_deref(), Some("staircase 5 0 1"));
}

/// A link whose moves the game does not allow replays up to the first such move and says why.
async fn bad_link(c: &Client, url: &str) {
    c.goto(&format!(
        "{url}?e=nim+3+4+5&play=1&m=nim+1+4+5&m=nim+9+9&m=nim+0+0+0"
    ))
    .await
    .unwrap();
    restored(c).await;
    let s = settled(c, 2).await;
    assert_eq!(s["position"], "nim 0 4 5", "{s}");
    let error = c
        .find(Locator::Id("play-error"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(error.contains("nim 9 9"), "{error}");
    assert_eq!(s["link"], format!("{url}?e=nim+3+4+5&play=1&m=nim+1+4+5"));
}

/// Cram: a click on a free cell, then on its neighbour, places that domino.
async fn cram(c: &Client, url: &str) {
    c.goto(&format!("{url}?e=cram+3x4&play=1")).await.unwrap();
    settled(c, 0).await;
    for cell in ["(1,1)", "(2,1)"] {
        c.find(Locator::Css(&format!(
            "#board g.cell[data-cell='{cell}'][role='button']"
        )))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    }
    settled(c, 1).await;
    let first = c
        .find(Locator::Css("#log li"))
        .await
        .unwrap()
        .attr("data-result")
        .await
        .unwrap();
    assert_eq!(first.as_deref(), Some("cram #.../#.../...."));
    // The computer's domino is marked: two cells.
    let marked = c
        .find_all(Locator::Css("#board g.cell.last"))
        .await
        .unwrap();
    assert_eq!(marked.len(), 2);
}

/// Waits until the page has replayed the moves of the link it was opened with.
async fn restored(c: &Client) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let r = snapshot(c).await;
        if r["restored"] == "1" {
            return;
        }
        assert!(Instant::now() < deadline, "the link never reopened: {r}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// Opens the page's link to the game and checks that it shows the same game.
async fn reopen(c: &Client, s: &Value) {
    let link = s["link"].as_str().unwrap().to_string();
    assert!(link.contains("m="), "{link}");
    c.goto(&link).await.unwrap();
    restored(c).await;
    let reopened = settled(c, s["log"].as_u64().unwrap()).await;
    for key in ["position", "story", "log", "link", "state", "rows"] {
        assert_eq!(reopened[key], s[key], "{key} after reopening {link}");
    }
}

async fn play(
    c: &Client,
    url: &str,
    width: u32,
    game: Game,
    perfect: bool,
    timings: &mut Vec<f64>,
) {
    let puzzle = match game {
        Game::Nim => "nim 3 4 5",
        Game::Kayles => "kayles 7",
    };
    c.goto(url).await.unwrap();
    // The puzzle's link starts the game.
    c.find(Locator::XPath(&format!(
        "//ul[@id='puzzles']//a[text()='{puzzle}']"
    )))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    let mut s = settled(c, 0).await;
    assert_eq!(s["position"], puzzle);
    let mut human_moves = 0;
    let mut shot = false;
    loop {
        check_story(game, &s);
        check_board(game, &s, s["replied"] == true);
        assert!(
            s["scroll"].as_u64().unwrap() <= s["inner"].as_u64().unwrap(),
            "the page scrolls sideways at {width} px: {s}"
        );
        assert_eq!(s["inner"].as_u64().unwrap(), u64::from(width), "{s}");
        if s["state"] != "your-turn" {
            break;
        }
        if human_moves == 2 {
            reopen(c, &s).await;
        }
        let (component, clicks) = choose(game, &s, perfect);
        let log = s["log"].as_u64().unwrap();
        for &i in &clicks {
            click_piece(c, component, i).await;
        }
        human_moves += 1;
        s = settled(c, log + 1).await;
        let took = s["drawn"].as_f64().unwrap() - s["clicked"].as_f64().unwrap();
        assert!(took > 0.0, "{s}");
        timings.push(took);
        if !shot && s["log"].as_u64().unwrap() >= 2 {
            let name = format!("{}-{width}.png", puzzle.split(' ').next().unwrap());
            screenshot(c, &name).await;
            shot = true;
        }
    }
    // The link of the finished game reopens it too.
    reopen(c, &s).await;
    let story = s["story"].as_array().unwrap();
    let last = story.last().unwrap();
    let winner = match s["state"].as_str().unwrap() {
        "human-won" => "you",
        "computer-won" => "computer",
        other => panic!("the game did not end: {other}"),
    };
    // At the end the player to move has no move: the story says the other one has won.
    assert_eq!(last["winner"], winner, "{s}");
    assert_eq!(last["value"], "0", "{s}");
    if perfect {
        // Both starts are wins for the first player.
        assert_eq!(winner, "you", "{s}");
    } else {
        assert!(story.iter().any(|e| e["slip"] == "you"), "{s}");
    }
    println!(
        "{puzzle} at {width} px: {} moves by clicks, {winner} won",
        human_moves
    );
}
