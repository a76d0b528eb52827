//! The page as a class uses it, in a real headless Chromium: a game of Nim, Kayles, Green
//! Hackenbush and Cram each played to the end by clicking tokens, pins, edges and cells, at a
//! phone's width (360 px) and a desktop's (1280 px). After every step the board and the value
//! story are checked against values computed here by brute force (the nim-sum for Nim, the
//! mex of the options for Kayles rows, Hackenbush pictures and Cram boards), a shared link
//! must reopen the same position and history, and at no width may the page scroll sideways.
//! Screenshots go to `target/browser-screenshots/`; the page's weight and how long it takes
//! from a click to the reply drawn are printed.
//!
//! Skipped, saying so, without `chromium` and `chromedriver` (see `common::chrome`).

use crate::common::chrome::{Chrome, screenshot};
use crate::common::server::Server;

mod brute;

use brute::*;
use fantoccini::{Client, Locator};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Game {
    Nim,
    Kayles,
    Hackenbush,
    Cram,
    NodeKayles,
    Wythoff,
    Turtles,
}

/// One component of a position, as the page draws it.
#[derive(Clone, Debug, PartialEq)]
enum Part {
    /// A heap of tokens (Nim) or a row of pins (Kayles).
    Heap(u64),
    /// A Green Hackenbush picture: its edges as written (vertex 0 is the ground).
    Picture(Vec<(u32, u32)>),
    /// A Cram or Node Kayles board: its rows of cells, `true` where free.
    Board(Vec<Vec<bool>>),
    /// Wythoff's queen at (x, y).
    Queen(u64, u64),
    /// A row of coins: the numbers of its heads.
    Coins(Vec<u64>),
}

/// A click on a component of the board: a token or pin by its index, an edge, a cell or a
/// square by its name (`1-2`, `(2,3)` from 1 at the top left, `(x,y)` from 0 at the bottom
/// left).
#[derive(Clone, Debug)]
enum Click {
    Piece(u64),
    Edge(String),
    Cell(String),
    Square(String),
    /// A coin by its number, and the button that turns the coins chosen.
    Coin(u64),
    Turn,
}

impl Game {
    const ALL: [Game; 7] = [
        Game::Nim,
        Game::Kayles,
        Game::Hackenbush,
        Game::Cram,
        Game::NodeKayles,
        Game::Wythoff,
        Game::Turtles,
    ];

    fn rule(self) -> &'static str {
        match self {
            Game::Nim => "nim",
            Game::Kayles => "kayles",
            Game::Hackenbush => "hackenbush",
            Game::Cram => "cram",
            Game::NodeKayles => "node-kayles",
            Game::Wythoff => "wythoff",
            Game::Turtles => "turning-turtles",
        }
    }

    /// The position a game starts from; each is a win for the player to move.
    fn start(self) -> &'static str {
        match self {
            Game::Nim => "nim 3 4 5",
            Game::Kayles => "kayles 7",
            // A triangle on the ground with a stalk on it, and a small tree.
            Game::Hackenbush => "hackenbush 0-1 1-2 2-0 2-3 0-4 4-5 4-6",
            Game::Cram => "cram 3x4",
            Game::NodeKayles => "node-kayles 3x3",
            Game::Wythoff => "wythoff 4 2",
            Game::Turtles => "turning-turtles 3 5 7",
        }
    }

    /// Whether the page lists the start among its puzzles (else a link opens it).
    fn puzzle(self) -> bool {
        self != Game::Hackenbush
    }

    /// The components of a position as the API writes it (`nim 0 4 5`, `kayles 3 3`,
    /// `hackenbush 0-1 1-3`, `cram #.../#.../....`); `0` is the empty position.
    fn parts(self, position: &str) -> Vec<Part> {
        let mut parts = Vec::new();
        if position == "0" {
            return parts;
        }
        for term in position.split(" + ") {
            let mut words = term.split_whitespace();
            assert_eq!(words.next(), Some(self.rule()), "{position}");
            match self {
                Game::Nim | Game::Kayles => {
                    parts.extend(words.map(|w| Part::Heap(w.parse().expect("a heap size"))));
                }
                Game::Hackenbush => parts.push(Part::Picture(
                    words
                        .map(|w| {
                            let (a, b) = w.split_once('-').expect("an edge u-v");
                            (a.parse().unwrap(), b.parse().unwrap())
                        })
                        .collect(),
                )),
                Game::Cram | Game::NodeKayles => {
                    parts.extend(words.map(|w| Part::Board(board(w))));
                }
                Game::Wythoff => {
                    let xy: Vec<u64> = words.map(|w| w.parse().unwrap()).collect();
                    parts.push(Part::Queen(xy[0], xy[1]));
                }
                Game::Turtles => {
                    parts.push(Part::Coins(words.map(|w| w.parse().unwrap()).collect()))
                }
            }
        }
        parts
    }

    /// The value of one component, computed here.
    fn part_value(self, part: &Part) -> u64 {
        match (self, part) {
            (Game::Nim, Part::Heap(n)) => *n,
            (Game::Kayles, Part::Heap(n)) => kayles(*n as usize),
            (Game::Hackenbush, Part::Picture(edges)) => hackenbush(edges, &mut HashMap::new()),
            (Game::Cram, Part::Board(cells)) => cram(cells, &mut HashMap::new()),
            (Game::NodeKayles, Part::Board(cells)) => node_kayles(cells, &mut HashMap::new()),
            (Game::Wythoff, &Part::Queen(x, y)) => wythoff(x, y),
            (Game::Turtles, Part::Coins(heads)) => turtles(heads, &mut HashMap::new()),
            _ => panic!("{part:?} is not a component of {self:?}"),
        }
    }

    /// The value of a position, computed here.
    fn value(self, position: &str) -> u64 {
        self.parts(position)
            .iter()
            .map(|p| self.part_value(p))
            .fold(0, |a, b| a ^ b)
    }

    /// Every move in one component, in the board's order: the clicks that play it and the
    /// value of the component it leaves.
    fn options(self, part: &Part) -> Vec<(Vec<Click>, u64)> {
        let mut out = Vec::new();
        match (self, part) {
            // Clicking token k leaves k tokens: the fewest taken first.
            (Game::Nim, Part::Heap(n)) => {
                out.extend((0..*n).rev().map(|k| (vec![Click::Piece(k)], k)));
            }
            // A click on a pin, then on it again or on another pin, knocks down the pins
            // from one to the other.
            (Game::Kayles, Part::Heap(n)) => {
                for take in 1..=2.min(*n) {
                    for left in 0..=n - take {
                        let value = kayles(left as usize) ^ kayles((n - take - left) as usize);
                        let clicks = vec![Click::Piece(left), Click::Piece(left + take - 1)];
                        out.push((clicks, value));
                    }
                }
            }
            // One click cuts an edge: the last edge written first.
            (Game::Hackenbush, Part::Picture(edges)) => {
                for k in (0..edges.len()).rev() {
                    let (a, b) = edges[k];
                    let value = hackenbush(&cut(edges, k), &mut HashMap::new());
                    out.push((vec![Click::Edge(format!("{a}-{b}"))], value));
                }
            }
            // Two clicks on neighbouring free cells place a domino.
            (Game::Cram, Part::Board(cells)) => {
                for (r, c, r2, c2) in dominoes(cells) {
                    let mut after = cells.clone();
                    after[r][c] = false;
                    after[r2][c2] = false;
                    let clicks = vec![Click::Cell(cell(r, c)), Click::Cell(cell(r2, c2))];
                    out.push((clicks, cram(&after, &mut HashMap::new())));
                }
            }
            // One click takes a free cell.
            (Game::NodeKayles, Part::Board(cells)) => {
                for (r, c) in free_cells(cells) {
                    let after = take(cells, r, c);
                    let value = node_kayles(&after, &mut HashMap::new());
                    out.push((vec![Click::Cell(cell(r, c))], value));
                }
            }
            // One click on a square the queen reaches.
            (Game::Wythoff, &Part::Queen(x, y)) => {
                for (a, b) in queen_moves(x, y) {
                    out.push((vec![Click::Square(format!("({a},{b})"))], wythoff(a, b)));
                }
            }
            // Clicks on the coins to turn, then on the button.
            (Game::Turtles, Part::Coins(heads)) => {
                for (turned, after) in turn_moves(heads) {
                    let mut clicks: Vec<Click> = turned.into_iter().map(Click::Coin).collect();
                    clicks.push(Click::Turn);
                    out.push((clicks, turtles(&after, &mut HashMap::new())));
                }
            }
            _ => panic!("{part:?} is not a component of {self:?}"),
        }
        out
    }
}

#[test]
fn games_by_clicks_at_phone_and_desktop_widths() {
    let Some(chrome) = Chrome::start() else {
        return;
    };
    let started = Instant::now();
    let server = Server::start(&[]);
    // The page's weight: its HTML, style and script (all built into the binary, sent
    // uncompressed), and the atlas view's script, which the page loads too.
    let mut weight = 0;
    for path in ["/", "/page.css", "/page.js", "/atlas.js"] {
        let (status, body) = server.request("GET", path, "");
        assert_eq!(status, 200, "{path}");
        println!("{path}: {} bytes", body.len());
        if path == "/atlas.js" {
            println!(
                "the page weighs {weight} bytes, {} with the atlas view's script",
                weight + body.len()
            );
        } else {
            weight += body.len();
        }
    }
    assert!(weight < 64 * 1024, "{weight}");
    let url = server.url();
    let mut timings: Vec<(u32, Game, f64)> = Vec::new();
    chrome.run(async {
        // The player plays some games perfectly and the others carelessly, the other way
        // round at the other width: both winners and a slipped win are seen in every game.
        for (width, first_perfect) in [(360, true), (1280, false)] {
            let c = chrome.session(width).await;
            for (k, game) in Game::ALL.into_iter().enumerate() {
                let perfect = (k % 2 == 0) == first_perfect;
                for took in play(&c, &url, width, game, perfect).await {
                    timings.push((width, game, took));
                }
            }
            if width == 1280 {
                chooser(&c, &url).await;
                staircase(&c, &url).await;
                bad_link(&c, &url).await;
            }
            c.close().await.unwrap();
        }
    });
    drop(chrome);
    let median = |mut t: Vec<f64>| {
        t.sort_by(f64::total_cmp);
        (t.len(), t[t.len() / 2], t[t.len() - 1])
    };
    for width in [360, 1280] {
        for game in Game::ALL {
            let t = timings
                .iter()
                .filter(|&&(w, g, _)| w == width && g == game)
                .map(|&(_, _, t)| t)
                .collect();
            let (n, m, worst) = median(t);
            println!(
                "{game:?} at {width} px: click to reply drawn over {n} moves: median {m:.1} ms, worst {worst:.1} ms"
            );
        }
        let (n, m, worst) = median(
            timings
                .iter()
                .filter(|&&(w, _, _)| w == width)
                .map(|&(_, _, t)| t)
                .collect(),
        );
        println!(
            "all games at {width} px: click to reply drawn over {n} moves: median {m:.1} ms, worst {worst:.1} ms"
        );
    }
    println!("the board test took {:?}", started.elapsed());
}

/// Everything the test reads of the page, in one call.
const SNAPSHOT: &str = r#"
const status = document.getElementById('status');
const board = document.getElementById('board');
const component = (e) => Number(e.closest('.heap').dataset.component);
const button = (e) => e.getAttribute('role') === 'button';
return {
  state: status.dataset.state || '',
  position: document.getElementById('play-position').textContent.replace(/^Position: /, ''),
  board_of: board.dataset.position || '',
  log: document.querySelectorAll('#log li').length,
  replied: !!document.querySelector('#log li:last-child.computer'),
  story: [...document.querySelectorAll('#story li')].map((li) => ({position: li.dataset.position,
    value: li.dataset.value, outcome: li.dataset.outcome, winner: li.dataset.winner,
    slip: li.dataset.slip || ''})),
  rows: [...board.querySelectorAll('.heap')].map((r) => ({component: Number(r.dataset.component),
    pieces: r.querySelectorAll('.piece:not(.ghost)').length,
    ghosts: r.querySelectorAll('.piece.ghost').length, changed: r.classList.contains('changed')})),
  edges: [...board.querySelectorAll('.tree g.edge')].map((e) => ({component: component(e),
    edge: e.dataset.edge, button: button(e)})),
  cells: [...board.querySelectorAll('g.cell')].map((g) => ({component: component(g),
    cell: g.dataset.cell, covered: g.classList.contains('covered'), button: button(g),
    last: g.classList.contains('last')})),
  coins: [...board.querySelectorAll('g.coin')].map((g) => ({component: component(g),
    coin: Number(g.dataset.coin), head: g.classList.contains('head'), button: button(g),
    last: g.classList.contains('last')})),
  squares: [...board.querySelectorAll('g.square')].map((g) => ({component: component(g),
    square: g.dataset.square, queen: g.classList.contains('queen'), button: button(g),
    last: g.classList.contains('last')})),
  restored: document.body.dataset.restored || '',
  link: document.getElementById('share-link').value,
  scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
  clicked: window.clickedAt || 0, drawn: window.lastReplyDrawn || 0,
};
"#;

async fn snapshot(c: &Client) -> Value {
    c.execute(SNAPSHOT, vec![]).await.unwrap()
}

/// Takes snapshots until one passes `ready` (20 s at most); returns it.
async fn wait_for(c: &Client, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let s = snapshot(c).await;
        if ready(&s) {
            return s;
        }
        assert!(Instant::now() < deadline, "{what}: {s}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// Waits until the game has answered: the log holds at least `log` entries, the value story
/// covers the position now, and the board is drawn for it.
async fn settled(c: &Client, log: u64) -> Value {
    wait_for(c, "the page never settled", |s| {
        let story = s["story"].as_array().unwrap();
        ["your-turn", "human-won", "computer-won"].contains(&s["state"].as_str().unwrap())
            && s["log"].as_u64().unwrap() >= log
            && story.len() as u64 == s["log"].as_u64().unwrap() + 1
            && story.last().is_some_and(|e| e["position"] == s["position"])
            && s["board_of"] == s["position"]
    })
    .await
}

/// Waits until the page has replayed the moves of the link it was opened with.
async fn restored(c: &Client) {
    wait_for(c, "the link never reopened", |s| s["restored"] == "1").await;
}

/// Clicks the element `css` selects.
async fn click_css(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("nothing to click at {css}: {e}"))
        .click()
        .await
        .unwrap();
}

/// Clicks the puzzle link showing `puzzle`.
async fn click_puzzle(c: &Client, puzzle: &str) {
    c.find(Locator::XPath(&format!(
        "//ul[@id='puzzles']//a[text()='{puzzle}']"
    )))
    .await
    .unwrap_or_else(|e| panic!("no puzzle {puzzle}: {e}"))
    .click()
    .await
    .unwrap();
}

/// The position the first move of the game's log left.
async fn first_result(c: &Client) -> Option<String> {
    c.find(Locator::Css("#log li"))
        .await
        .unwrap()
        .attr("data-result")
        .await
        .unwrap()
}

/// Clicks a token, pin, edge or cell of component `component` of the board; the page
/// notes the time of the click (for the click-to-reply timing).
async fn click_board(c: &Client, component: usize, click: &Click) {
    c.execute(
        "if (!window.timing) { window.timing = true; \
         document.addEventListener('click', () => { window.clickedAt = performance.now(); }, true); }",
        vec![],
    )
    .await
    .unwrap();
    let row = format!("#board .heap[data-component='{component}']");
    let css = match click {
        Click::Piece(k) => format!("{row} g.piece[data-index='{k}']"),
        Click::Edge(e) => format!("{row} g.edge[data-edge='{e}'][role='button']"),
        Click::Cell(name) => format!("{row} g.cell[data-cell='{name}'][role='button']"),
        Click::Square(name) => format!("{row} g.square[data-square='{name}'][role='button']"),
        Click::Coin(k) => format!("{row} g.coin[data-coin='{k}'][role='button']"),
        Click::Turn => format!("{row} button.turn"),
    };
    click_css(c, &css).await;
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

/// The board shows the position: a row of tokens or pins a heap, every edge of a picture, every
/// cell of a board (a cell is a button exactly when a domino fits on it), with the computer's
/// reply marked.
fn check_board(game: Game, s: &Value, replied: bool) {
    let parts = game.parts(s["position"].as_str().unwrap());
    let rows = s["rows"].as_array().unwrap();
    let changed: Vec<&Value> = rows.iter().filter(|r| r["changed"] == true).collect();
    let of = |list: &str, i: usize| -> Vec<Value> {
        s[list]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["component"] == i)
            .cloned()
            .collect()
    };
    match game {
        Game::Nim | Game::Kayles => {
            let drawn: Vec<u64> = rows.iter().map(|r| r["pieces"].as_u64().unwrap()).collect();
            let heaps: Vec<u64> = parts
                .iter()
                .map(|p| match p {
                    Part::Heap(n) => *n,
                    _ => unreachable!(),
                })
                .collect();
            let nonzero = |v: &[u64]| v.iter().copied().filter(|&n| n > 0).collect::<Vec<_>>();
            assert_eq!(nonzero(&drawn), nonzero(&heaps), "{s}");
            if replied && game == Game::Nim {
                assert_eq!(changed.len(), 1, "one heap marked as the computer's: {s}");
                assert!(changed[0]["ghosts"].as_u64().unwrap() > 0, "{s}");
            }
        }
        Game::Hackenbush => {
            assert_eq!(rows.len(), parts.len(), "one picture a component: {s}");
            for (i, part) in parts.iter().enumerate() {
                let Part::Picture(edges) = part else {
                    unreachable!()
                };
                let drawn = of("edges", i);
                let mut names: Vec<&str> =
                    drawn.iter().map(|e| e["edge"].as_str().unwrap()).collect();
                let mut want: Vec<String> = edges.iter().map(|(a, b)| format!("{a}-{b}")).collect();
                names.sort_unstable();
                want.sort_unstable();
                assert_eq!(names, want, "the edges of component {i}: {s}");
                // Every edge is joined to the ground: each can be cut.
                assert!(drawn.iter().all(|e| e["button"] == true), "{s}");
            }
            if replied && !parts.is_empty() {
                assert_eq!(
                    changed.len(),
                    1,
                    "the picture the computer cut is marked: {s}"
                );
            }
        }
        Game::Cram | Game::NodeKayles => {
            for (i, part) in parts.iter().enumerate() {
                let Part::Board(cells) = part else {
                    unreachable!()
                };
                let drawn = of("cells", i);
                // The cells a move can start from: in Cram a cell a domino fits on, in Node
                // Kayles every free cell.
                let playable: HashSet<String> = if game == Game::Cram {
                    dominoes(cells)
                        .into_iter()
                        .flat_map(|(r, c, r2, c2)| [cell(r, c), cell(r2, c2)])
                        .collect()
                } else {
                    free_cells(cells)
                        .into_iter()
                        .map(|(r, c)| cell(r, c))
                        .collect()
                };
                let mut count = 0;
                for (r, row) in cells.iter().enumerate() {
                    for (k, &free) in row.iter().enumerate() {
                        let name = cell(r, k);
                        let d = drawn
                            .iter()
                            .find(|d| d["cell"] == name.as_str())
                            .unwrap_or_else(|| panic!("no cell {name}: {s}"));
                        assert_eq!(d["covered"], !free, "{name}: {s}");
                        assert_eq!(d["button"], playable.contains(&name), "{name}: {s}");
                        count += 1;
                    }
                }
                assert_eq!(drawn.len(), count, "{s}");
            }
            if replied && !parts.is_empty() {
                // The computer's domino (two neighbouring cells) or taken cell, covered now.
                let last: Vec<(i64, i64)> = s["cells"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|d| d["last"] == true)
                    .map(|d| {
                        assert_eq!(d["covered"], true, "{s}");
                        let t = d["cell"].as_str().unwrap();
                        let (r, c) = t[1..t.len() - 1].split_once(',').unwrap();
                        (r.parse().unwrap(), c.parse().unwrap())
                    })
                    .collect();
                if game == Game::Cram {
                    assert_eq!(last.len(), 2, "the computer's domino is marked: {s}");
                    let ((r1, c1), (r2, c2)) = (last[0], last[1]);
                    assert_eq!((r1 - r2).abs() + (c1 - c2).abs(), 1, "{s}");
                } else {
                    assert_eq!(last.len(), 1, "the computer's cell is marked: {s}");
                }
            }
        }
        Game::Wythoff => {
            // The board keeps the start's size: the queen walks across it.
            let Part::Queen(w, h) = game.parts(game.start())[0] else {
                unreachable!()
            };
            let squares = s["squares"].as_array().unwrap();
            assert_eq!(squares.len() as u64, (w + 1) * (h + 1), "{s}");
            let Part::Queen(x, y) = parts[0] else {
                unreachable!()
            };
            let reach: HashSet<String> = queen_moves(x, y)
                .into_iter()
                .map(|(a, b)| format!("({a},{b})"))
                .collect();
            for q in squares {
                let name = q["square"].as_str().unwrap();
                assert_eq!(q["queen"], name == format!("({x},{y})"), "{s}");
                assert_eq!(q["button"], reach.contains(name), "{name}: {s}");
            }
            if replied {
                // The square the queen left: one she reached (x, y) from.
                let last: Vec<&str> = squares
                    .iter()
                    .filter(|q| q["last"] == true)
                    .map(|q| q["square"].as_str().unwrap())
                    .collect();
                assert_eq!(last.len(), 1, "the queen's last square is marked: {s}");
                let (a, b) = last[0][1..last[0].len() - 1].split_once(',').unwrap();
                let (a, b): (u64, u64) = (a.parse().unwrap(), b.parse().unwrap());
                assert!(queen_moves(a, b).contains(&(x, y)), "{s}");
            }
        }
        Game::Turtles => {
            // The row keeps the start's length: coins 1 to the start's last head.
            let Part::Coins(start) = &game.parts(game.start())[0] else {
                unreachable!()
            };
            let heads: Vec<u64> = match parts.first() {
                Some(Part::Coins(h)) => h.clone(),
                _ => Vec::new(),
            };
            let coins = s["coins"].as_array().unwrap();
            if parts.is_empty() {
                // Every coin is tails: nothing left to draw.
                assert!(coins.is_empty(), "{s}");
                return;
            }
            let numbers: Vec<u64> = coins.iter().map(|q| q["coin"].as_u64().unwrap()).collect();
            assert_eq!(
                numbers,
                (1..=start[start.len() - 1]).collect::<Vec<_>>(),
                "{s}"
            );
            let last_head = heads.last().copied().unwrap_or(0);
            for q in coins {
                let k = q["coin"].as_u64().unwrap();
                assert_eq!(q["head"], heads.contains(&k), "coin {k}: {s}");
                // A move turns a head and maybe a coin to its left.
                assert_eq!(q["button"], k <= last_head, "coin {k}: {s}");
            }
            if replied {
                // The coins the computer turned: where the position before its reply differs.
                let story = s["story"].as_array().unwrap();
                let before = game.parts(story[story.len() - 2]["position"].as_str().unwrap());
                let Some(Part::Coins(was)) = before.first() else {
                    panic!("{s}")
                };
                let mut diff: Vec<u64> = was
                    .iter()
                    .chain(&heads)
                    .copied()
                    .filter(|k| was.contains(k) != heads.contains(k))
                    .collect();
                diff.sort_unstable();
                let last: Vec<u64> = coins
                    .iter()
                    .filter(|q| q["last"] == true)
                    .map(|q| q["coin"].as_u64().unwrap())
                    .collect();
                assert_eq!(last, diff, "the coins the computer turned are marked: {s}");
            }
        }
    }
}

/// The clicks for the player's move: (component, clicks). A perfect player moves to value 0;
/// a careless one plays the first move in the board's order that leaves the opponent a win,
/// when there is one.
fn choose(game: Game, s: &Value, perfect: bool) -> (usize, Vec<Click>) {
    let parts = game.parts(s["position"].as_str().unwrap());
    let total = game.value(s["position"].as_str().unwrap());
    let mut moves = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let before = game.part_value(part);
        for (clicks, after) in game.options(part) {
            moves.push((i, clicks, total ^ before ^ after));
        }
    }
    assert!(!moves.is_empty(), "no move left: {s}");
    let wanted = moves
        .iter()
        .position(|&(_, _, v)| if perfect { v == 0 } else { v != 0 });
    if perfect {
        assert!(total == 0 || wanted.is_some(), "no winning move from {s}");
    }
    let (i, clicks, _) = moves.swap_remove(wanted.unwrap_or(0));
    (i, clicks)
}

/// Opens the page's link to the game and checks that it shows the same game.
async fn reopen(c: &Client, s: &Value) {
    let link = s["link"].as_str().unwrap().to_string();
    assert!(link.contains("m="), "{link}");
    c.goto(&link).await.unwrap();
    restored(c).await;
    let reopened = settled(c, s["log"].as_u64().unwrap()).await;
    for key in [
        "position", "story", "log", "link", "state", "rows", "edges", "cells", "squares", "coins",
    ] {
        assert_eq!(reopened[key], s[key], "{key} after reopening {link}");
    }
}

/// Plays `game` from its start to the end by clicks on the board, checking the board and the
/// value story after every move; returns the time from each click to the reply drawn, in ms.
async fn play(c: &Client, url: &str, width: u32, game: Game, perfect: bool) -> Vec<f64> {
    let start = game.start();
    if game.puzzle() {
        // The puzzle's link starts the game.
        c.goto(url).await.unwrap();
        click_puzzle(c, start).await;
    } else {
        c.goto(&format!("{url}?e={}&play=1", start.replace(' ', "+")))
            .await
            .unwrap();
    }
    let mut s = settled(c, 0).await;
    assert_eq!(s["position"], start);
    screenshot(c, &format!("{}-{width}-start.png", game.rule())).await;
    assert!(game.value(start) != 0, "{start}");
    let mut human_moves = 0;
    let mut timings = Vec::new();
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
        for click in &clicks {
            click_board(c, component, click).await;
        }
        human_moves += 1;
        s = settled(c, log + 1).await;
        let took = s["drawn"].as_f64().unwrap() - s["clicked"].as_f64().unwrap();
        assert!(took > 0.0, "{s}");
        timings.push(took);
        if human_moves == 1 {
            screenshot(c, &format!("{}-{width}.png", game.rule())).await;
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
        // Every start is a win for the first player.
        assert_eq!(winner, "you", "{s}");
    } else {
        assert!(story.iter().any(|e| e["slip"] == "you"), "{s}");
    }
    println!(
        "{start} at {width} px: {human_moves} moves by clicks, {winner} won, {} positions in the story",
        story.len()
    );
    timings
}

/// A click that several legal moves match opens a chooser of exactly those moves.
async fn chooser(c: &Client, url: &str) {
    // In 4.07 (take 2 leaving up to two heaps, or split a heap in two) taking the last two of
    // six tokens leaves 4, 1 + 3 or 2 + 2.
    c.goto(&format!("{url}?e=4.07+6&play=1")).await.unwrap();
    let s = settled(c, 0).await;
    assert_eq!(s["position"], "4.07 6");
    click_board(c, 0, &Click::Piece(4)).await;
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
    assert_eq!(first_result(c).await.as_deref(), Some("4.07 1 3"));
}

/// Staircase Nim: a click on the first coin of step 2 moves both its coins to step 1.
async fn staircase(c: &Client, url: &str) {
    c.goto(url).await.unwrap();
    click_puzzle(c, "staircase 3 2 1").await;
    settled(c, 0).await;
    click_css(
        c,
        "#board .step g[data-step='2'][data-index='0'][role='button']",
    )
    .await;
    settled(c, 1).await;
    assert_eq!(first_result(c).await.as_deref(), Some("staircase 5 0 1"));
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
