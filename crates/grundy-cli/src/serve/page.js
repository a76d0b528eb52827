"use strict";
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
// One example (at least) for every rule of the expression language, by family.
const EXAMPLES = JSON.parse($("examples-data").textContent);
// Puzzles a teacher can hand out: a position to play and the lesson it teaches.
const PUZZLES = [
  ["nim 3 4 5", "Bouton's Nim: write the heaps in binary and leave every column even (a nim-sum of 0)."],
  ["sub(1,3,4) 17", "Take 1, 3 or 4: the values repeat every 7, and the heaps that leave 0 or 2 over a multiple of 7 are lost for the player to move."],
  ["staircase 3 2 1", "Staircase Nim: only the coins on odd steps count; it is Nim on them."],
  ["kayles 7", "Kayles: knock down one pin or two neighbours. The first player wins by splitting the row into two equal halves, then copying."],
  ["dawson-kayles 8", "Dawson's Kayles: knock down two neighbouring pins; from 53 pins on, its values repeat every 34."],
  ["cram 3x4", "Cram: place a domino on two free neighbouring cells. With one side even and the other odd, the first player wins: the middle domino, then answer each domino with its image under a half turn."],
  ["node-kayles 3x3", "Node Kayles: take a cell, and it and its neighbours leave. On an odd × odd board the first player takes the centre, then answers each cell with its image through the centre."],
  ["wythoff 4 2", "Wythoff's queen moves left, down or diagonally toward the corner (0,0). The squares to leave her on are (0,0), (1,2), (3,5), (4,7), (6,10), … (⌊kφ⌋, ⌊kφ²⌋ with φ the golden ratio) and their mirror images."],
  ["turning-turtles 3 5 7", "Turning Turtles: turn a coin from heads to tails, and maybe one coin to its left either way. A head on coin n is a Nim heap of n: leave the heads' numbers a nim-sum of 0."],
  ["hackenbush 0-1 1-2 1-3", "Green Hackenbush: branches meeting at a point are worth their nim-sum, and the stalk under them adds 1."],
];
// The heap rules drawn as pins (a move knocks down a run of neighbouring pins).
const PINS = (head) => head === "kayles" || head === "dawson-kayles" || head === "dawson" || /^0\.\d+$/.test(head);
const MAX_DRAWN = 60;

let game = null;
// How each rule's components are drawn (the analysis's family, by the rule as written).
let families = new Map();
// The analyses of positions seen, by misère flag and position.
const analyses = new Map();

async function api(path, body) {
  const response = await fetch("/api/" + path, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || ("HTTP " + response.status));
  return data;
}
function text(tag, content, cls) {
  const e = document.createElement(tag);
  e.textContent = content;
  if (cls) e.className = cls;
  return e;
}
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}
function outcomeText(o) {
  return {P: "P: the player to move loses", N: "N: the player to move wins", D: "D: a draw"}[o] || o;
}
function misere() { return $("misere").checked; }

// ---- Theme: the system's choice until the toggle says otherwise.
function setTheme(theme) {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}
try { setTheme(localStorage.getItem("grundy-theme")); } catch (e) { /* storage off */ }
$("theme").onclick = () => {
  const dark = getComputedStyle(document.documentElement).colorScheme === "dark";
  const theme = dark ? "light" : "dark";
  setTheme(theme);
  try { localStorage.setItem("grundy-theme", theme); } catch (e) { /* storage off */ }
};

for (const [family, examples] of EXAMPLES) {
  const row = document.createElement("div");
  row.appendChild(text("small", family + ": "));
  for (const [expression, name] of examples) {
    const b = text("button", expression);
    b.title = name;
    b.onclick = () => { $("expr").value = expression; analyze(); };
    row.appendChild(b);
  }
  $("examples").appendChild(row);
}
// The examples are open on a wide screen, unless a link opens a game (the board comes first).
const opening = new URLSearchParams(location.search);
if (matchMedia("(min-width: 900px)").matches && opening.get("play") !== "1") $("examples-box").open = true;
for (const [expression, lesson] of PUZZLES) {
  const li = document.createElement("li");
  const a = text("a", expression);
  a.href = "?" + new URLSearchParams({e: expression, play: "1"});
  li.appendChild(a);
  li.appendChild(document.createTextNode(" — " + lesson));
  $("puzzles").appendChild(li);
}

// The analysis of a position (cached): the value story and the board's families use it.
function analysis(position, mis) {
  const key = (mis ? "m:" : "n:") + position;
  if (!analyses.has(key)) {
    const p = api("analyze", {expression: position, misere: mis});
    p.catch(() => analyses.delete(key));
    analyses.set(key, p);
  }
  return analyses.get(key);
}

async function analyze() {
  $("expr-error").textContent = "";
  const box = $("analysis");
  box.textContent = "…";
  try {
    const a = await api("analyze", {expression: $("expr").value, misere: misere()});
    box.textContent = "";
    box.appendChild(text("div", "Position: " + a.expression + (a.misere ? " (misère)" : "")));
    if (a.value !== null) box.appendChild(text("div", "Value: " + a.value));
    box.appendChild(text("div", "Outcome: " + outcomeText(a.outcome), "outcome-" + a.outcome));
    const notes = a.notes.flatMap((n) => n.kind === "mex_table" ? n.text : [n.text]);
    box.appendChild(text("pre", a.explanation.concat(notes).join("\n")));
    if (a.winning_moves.length) {
      box.appendChild(text("div", "Winning moves (" + a.winning_moves.length + "):"));
      const ul = document.createElement("ul");
      for (const m of a.winning_moves) ul.appendChild(text("li", m.move + "  leaves  " + m.result));
      box.appendChild(ul);
    }
    sequenceControls([...new Set(a.components.filter((c) => c.family === "heap").map((c) => c.rule))]);
  } catch (e) {
    box.textContent = "";
    $("expr-error").textContent = e.message;
  }
}

function sequenceControls(rules) {
  const span = $("sequence-controls");
  span.textContent = "";
  for (const rule of rules) {
    const b = text("button", "Plot the nim-sequence of " + rule);
    b.onclick = () => plot(rule);
    span.appendChild(b);
  }
}

async function plot(rule) {
  $("picture-error").textContent = "";
  try {
    const s = await api("sequence", {rule: rule, to: 300, plot: true});
    const box = $("pictures");
    box.innerHTML = s.plot;
    box.appendChild(text("div", (s.period ? s.period.text : "no period found yet") + "; values: " + s.values.join(" ")));
  } catch (e) { $("picture-error").textContent = e.message; }
}

async function draw() {
  $("picture-error").textContent = "";
  const expression = game ? game.position : $("expr").value;
  try {
    const p = await api("picture", {expression: expression, misere: misere()});
    const box = $("pictures");
    box.innerHTML = "";
    for (const s of p.hackenbush_svgs) box.insertAdjacentHTML("beforeend", s);
    if (p.graph_svg) box.insertAdjacentHTML("beforeend", p.graph_svg);
    if (p.graph_error) box.appendChild(text("div", "Game graph: " + p.graph_error));
  } catch (e) { $("picture-error").textContent = e.message; }
}

// ---- Reading positions as the API writes them, to draw them (never to find moves).
// The terms of a sum, each split into its words: `kayles 1 2 + nim 3` → [[kayles,1,2],[nim,3]].
function terms(position) {
  return position.split(" + ").map((t) => t.trim().split(/\s+/)).filter((t) => t[0]);
}
function isHeapRule(head) {
  const f = families.get(head);
  return f === "nim" || f === "heap";
}
// The components in the API's order: every heap of a heap rule is one; any other term is one.
function components(position) {
  const out = [];
  for (const [head, ...args] of terms(position)) {
    if (head === "staircase" && args.length && args.every((a) => /^\d+$/.test(a))) {
      out.push({head: head, steps: args.map(Number), expr: [head, ...args].join(" ")});
    } else if (head === "cram" && args.length) {
      for (const a of args) out.push({head: head, board: a, expr: head + " " + a});
    } else if (head === "node-kayles" && args.length === 1 && /^(\d+x\d+|[.#]+(\/[.#]+)*)$/.test(args[0])) {
      out.push({head: head, board: args[0], expr: head + " " + args[0]});
    } else if (families.get(head) === "coins" && args.every((a) => /^\d+$/.test(a))) {
      // A row of coins: the heads' numbers.
      out.push({head: head, coins: args.map(Number), expr: [head, ...args].join(" ")});
    } else if (head === "wythoff" && args.length === 2 && args.every((a) => /^\d+$/.test(a))) {
      out.push({head: head, queen: args.map(Number), expr: [head, ...args].join(" ")});
    } else if (isHeapRule(head) && args.length && args.every((a) => /^\d+$/.test(a))) {
      for (const a of args) out.push({head: head, n: Number(a), expr: head + " " + a});
    } else {
      out.push({head: head, expr: [head, ...args].join(" ")});
    }
  }
  return out;
}
// How many heaps of each size (by rule) a position has, empty heaps left out.
function heapCounts(position) {
  const counts = new Map();
  for (const [head, ...args] of terms(position)) {
    if (!isHeapRule(head) || !args.every((a) => /^\d+$/.test(a))) continue;
    for (const a of args) if (Number(a) > 0) counts.set(head + " " + a, (counts.get(head + " " + a) || 0) + 1);
  }
  return counts;
}
// The heaps a move leaves in place of the heap it moves in: the sizes its result has that
// the position had not (counted with multiplicity), of the same rule.
function pieces(position, from, result) {
  const [head, n] = [from.slice(0, from.lastIndexOf(" ")), from.slice(from.lastIndexOf(" ") + 1)];
  const before = heapCounts(position);
  const key = head + " " + n;
  if (before.has(key)) before.set(key, before.get(key) - 1);
  const out = [];
  for (const [k, c] of heapCounts(result)) {
    if (k.slice(0, k.lastIndexOf(" ")) !== head) continue;
    for (let i = before.get(k) || 0; i < c; i++) out.push(Number(k.slice(k.lastIndexOf(" ") + 1)));
  }
  return out.sort((a, b) => a - b);
}
const sameList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

// ---- The board.
// Draws the heaps of the position as rows of tokens (Nim and heap games: a click takes a
// token and all to its right) or pins (Kayles: a click on a pin, then on it again or on
// another pin of the row, knocks down the pins from one to the other). A click plays only a
// move in the API's list of legal moves; the rest of the position is played from the list.
// Resolves when the board is drawn (Hackenbush pictures come from the API), then marks the
// board with the position it shows.
function drawBoard(answer, changed) {
  const board = $("board");
  const shown = () => { if (game && game.position === answer.position) board.dataset.position = answer.position; };
  board.textContent = "";
  board.dataset.position = "";
  closeChooser();
  game.selected = null;
  const comps = components(answer.position);
  const byComponent = new Map();
  for (const m of answer.moves) {
    const c = comps[m.component];
    if (!c || ((c.n !== undefined || c.board !== undefined || c.steps || c.queen || c.coins) && c.expr !== m.from)) {
      // The position is not read as the API reads it: play from the list.
      $("board-help").textContent = "";
      shown();
      return Promise.resolve();
    }
    if (!byComponent.has(m.component)) byComponent.set(m.component, []);
    byComponent.get(m.component).push(m);
  }
  let drawn = 0;
  let pins = false;
  const highlight = changed || new Map();
  const kinds = new Set();
  comps.forEach((c, i) => {
    if (c.board !== undefined || c.steps || c.queen || c.coins) {
      const row = document.createElement("div");
      row.className = "heap" + (highlight.has(i) ? " changed" : "");
      row.dataset.component = i;
      row.dataset.expr = c.expr;
      const kind = c.steps ? "staircase" : c.queen ? "wythoff" : c.coins ? "coins" : c.head;
      const title = {staircase: "Staircase: ", wythoff: "Queen: ", coins: "Coins: "}[kind] || "Board: ";
      row.appendChild(text("div", title + c.expr + (highlight.has(i) ? "  ← the computer's move" : ""), "label"));
      const moves = byComponent.get(i) || [];
      const last = highlight.get(i);
      row.appendChild(c.steps ? staircase(i, c, moves, answer.position)
        : c.queen ? queenBoard(i, c, moves, last)
        : c.coins ? coinRow(i, c, moves, last) : cellBoard(i, c, moves, last));
      board.appendChild(row);
      kinds.add(kind);
      return;
    }
    if (c.n === undefined) return;
    const moves = byComponent.get(i) || [];
    const ghosts = highlight.has(i) ? highlight.get(i) : null;
    const row = document.createElement("div");
    row.className = "heap" + (ghosts !== null ? " changed" : "");
    row.dataset.component = i;
    row.dataset.expr = c.expr;
    const label = (PINS(c.head) ? "Row " : "Heap ") + (drawn + 1) + ": " + c.expr + (ghosts !== null ? "  ← the computer's move" : "");
    row.appendChild(text("div", label, "label"));
    if (c.n > MAX_DRAWN) {
      row.appendChild(text("div", "Too many to draw: play it from the list or type the position.", "muted"));
    } else {
      row.appendChild(PINS(c.head) ? pinRow(i, c, moves, answer.position) : tokenRow(i, c, moves, answer.position, ghosts || 0));
    }
    pins = pins || PINS(c.head);
    const splits = moves.filter((m) => pieces(answer.position, m.from, m.result).reduce((a, b) => a + b, 0) === c.n);
    if (splits.length && !PINS(c.head)) {
      const b = text("button", "Split this heap…");
      b.onclick = () => choose("Split " + c.expr + ":", splits);
      row.appendChild(b);
    }
    board.appendChild(row);
    drawn++;
  });
  const trees = comps.map((c, i) => [c, i]).filter(([c]) => c.head === "hackenbush");
  const done = trees.length ? hackenbushBoard(answer, trees, byComponent, highlight) : Promise.resolve();
  const help = [];
  if (drawn) help.push(pins
    ? "Click a pin, then the same pin to knock it down alone or another pin of the row to knock down the pins between."
    : "Click a token to take it and every token to its right.");
  if (kinds.has("staircase")) help.push("Click a coin to move it and every coin to its right one step down (off the staircase from step 1).");
  if (kinds.has("cram")) help.push("Click two neighbouring free cells to place a domino on them.");
  if (kinds.has("node-kayles")) help.push("Click a free cell to take it: it and its free neighbours leave.");
  if (kinds.has("coins")) help.push("Click the coins to turn (the rightmost a head), then \"Turn them\".");
  if (kinds.has("wythoff")) help.push("Click a square left of, below or diagonally below-left of the queen to move her there.");
  if (trees.length) help.push("Click an edge to cut it: whatever is no longer joined to the ground falls.");
  $("board-help").textContent = help.join(" ");
  return done.then(shown);
}

// Green Hackenbush: the API's pictures of the position, each edge a button that plays the
// listed cut of that edge. The pictures mark the winning cuts: the board hides the marks.
// The picture the computer's reply cut is marked, with its cut.
async function hackenbushBoard(answer, trees, byComponent, highlight) {
  const g = game;
  const rows = trees.map(([c, i]) => {
    const row = document.createElement("div");
    row.className = "heap tree" + (highlight.has(i) ? " changed" : "");
    row.dataset.component = i;
    row.dataset.expr = c.expr;
    row.appendChild(text("div", c.expr + (highlight.has(i) ? "  ← the computer's move: " + highlight.get(i) : ""), "label"));
    $("board").appendChild(row);
    return row;
  });
  let p;
  try {
    p = await api("picture", {expression: answer.position, misere: g.misere});
  } catch (e) { return; }
  if (g !== game || g.position !== answer.position || p.hackenbush_svgs.length !== trees.length) return;
  trees.forEach(([c, i], k) => {
    const row = rows[k];
    row.insertAdjacentHTML("beforeend", p.hackenbush_svgs[k]);
    const picture = row.querySelector("svg");
    for (const t of picture.querySelectorAll("text.cut, title")) t.remove();
    for (const t of picture.querySelectorAll(":scope > text")) if (t.textContent.includes("winning cut")) t.remove();
    for (const edge of picture.querySelectorAll("g.edge")) {
      const line = edge.querySelector("line, path");
      if (line) {
        line.setAttribute("stroke", "#2e8b2e");
        line.removeAttribute("stroke-dasharray");
        line.setAttribute("stroke-width", "6");
        line.classList.add("shape");
        // A wide invisible band along it: an edge is easy to hit with a finger (and a
        // straight edge's band has an area even when the edge is upright or level).
        let hit;
        if (line.tagName === "line") {
          const [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map((k) => Number(line.getAttribute(k)));
          const len = Math.hypot(x2 - x1, y2 - y1) || 1;
          const [nx, ny] = [-(y2 - y1) / len * 14, (x2 - x1) / len * 14];
          hit = svg("polygon", {points: [[x1 + nx, y1 + ny], [x2 + nx, y2 + ny], [x2 - nx, y2 - ny], [x1 - nx, y1 - ny]].join(" "),
            fill: "transparent", "pointer-events": "all"});
        } else {
          hit = line.cloneNode();
          hit.setAttribute("stroke", "transparent");
          hit.setAttribute("stroke-width", "28");
          hit.setAttribute("pointer-events", "stroke");
        }
        hit.setAttribute("class", "hit");
        edge.appendChild(hit);
      }
      const cut = (byComponent.get(i) || []).find((m) => m.move === "cut " + edge.dataset.edge);
      piece(edge, "cut edge " + edge.dataset.edge + " of " + c.expr, !!cut, () => move(cut.number));
    }
  });
}

// Staircase Nim: a row of coins a step, the top step first; a click on a coin moves it and
// the coins to its right one step down, the move the API lists with that result.
function staircase(i, c, moves, position) {
  const wrap = document.createElement("div");
  const counts = (position) => {
    const n = position.split(/\s+/).slice(1).map(Number);
    while (n.length && n[n.length - 1] === 0) n.pop();
    return n.join(" ");
  };
  const stairsOf = (p) => terms(p).filter((t) => t[0] === "staircase").map((t) => counts(t.join(" ")));
  const others = stairsOf(position);
  others.splice(others.indexOf(counts(c.expr)), 1);
  for (let step = c.steps.length; step >= 1; step--) {
    const n = c.steps[step - 1];
    const row = document.createElement("div");
    row.className = "step";
    row.style.marginLeft = Math.min(step - 1, 6) * 10 + "px";
    row.appendChild(text("div", "Step " + step + ": " + n + (n === 1 ? " coin" : " coins"), "label"));
    const s = svg("svg", {viewBox: "0 0 " + Math.max(n, 1) * CELL + " " + CELL, width: Math.max(n, 1) * CELL, height: CELL, role: "group", "aria-label": "step " + step});
    for (let k = 0; k < n; k++) {
      const after = c.steps.slice();
      after[step - 1] = k;
      if (step > 1) after[step - 2] += n - k;
      const want = counts("staircase " + after.join(" "));
      const found = moves.find((m) => {
        // The staircase the move left: the result's staircases but the others of the position.
        const left = stairsOf(m.result);
        for (const o of others) if (left.includes(o)) left.splice(left.indexOf(o), 1);
        return left.length ? left.length === 1 && left[0] === want : want === "";
      });
      const g = svg("g", {"data-step": step, "data-index": k});
      g.appendChild(svg("rect", {class: "hit", x: k * CELL, y: 0, width: CELL, height: CELL}));
      g.appendChild(svg("circle", {class: "shape", cx: k * CELL + CELL / 2, cy: CELL / 2, r: CELL / 2 - 5}));
      const moved = n - k;
      piece(g, "move " + moved + (moved === 1 ? " coin" : " coins") + " from step " + step + (step > 1 ? " to step " + (step - 1) : " off the staircase"), !!found, () => move(found.number));
      s.appendChild(g);
    }
    row.appendChild(s);
    wrap.appendChild(row);
  }
  return wrap;
}

// Cram and Node Kayles on a board: a grid of cells (`.` free, `#` covered). In Cram a click
// on a free cell, then on a free neighbour, places the domino the API lists on those two
// cells; in Node Kayles a click on a free cell takes it (the API's move `take (r,c)`).
function cellBoard(i, c, moves, last) {
  const size = /^(\d+)x(\d+)$/.exec(c.board);
  const rows = size
    ? Array.from({length: Number(size[1])}, () => ".".repeat(Number(size[2])))
    : c.board.split("/");
  const width = Math.max(...rows.map((r) => r.length));
  const s = svg("svg", {viewBox: "0 0 " + width * CELL + " " + rows.length * CELL, width: width * CELL, height: rows.length * CELL, role: "group", "aria-label": c.expr});
  const cellName = (r, k) => "(" + (r + 1) + "," + (k + 1) + ")";
  rows.forEach((row, r) => {
    for (let k = 0; k < row.length; k++) {
      const name = cellName(r, k);
      const g = svg("g", {"data-cell": name, class: "cell" + (last && last.has(name) ? " last" : "")});
      g.appendChild(svg("rect", {class: "shape", x: k * CELL + 2, y: r * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 5}));
      const free = row[k] === ".";
      if (!free) g.classList.add("covered");
      if (c.head === "node-kayles") {
        const take = moves.find((m) => m.move === "take " + name);
        piece(g, "take cell " + name + " of " + c.expr, free && !!take, () => move(take.number));
      } else {
        const inMove = free && moves.some((m) => m.move.includes(name));
        piece(g, "cell " + name + " of " + c.expr, inMove, () => cellClick(i, name, moves, g));
      }
      s.appendChild(g);
    }
  });
  return s;
}

// Wythoff's queen on a board from (0,0) at the bottom left to the farthest square a queen of
// the game's start stood on (she walks across one board): a click on a square she can reach
// plays the API's move there. `last`: the square the computer's reply left.
function queenBoard(i, c, moves, last) {
  const [X, Y] = c.queen;
  let [W, H] = [X, Y];
  for (const q of components(game.start)) if (q.queen) [W, H] = [Math.max(W, q.queen[0]), Math.max(H, q.queen[1])];
  if (W > 24 || H > 24) return text("div", "Too many squares to draw: play it from the list or type the position.", "muted");
  const s = svg("svg", {viewBox: "0 0 " + (W + 1) * CELL + " " + (H + 1) * CELL, width: (W + 1) * CELL, height: (H + 1) * CELL, role: "group", "aria-label": c.expr});
  for (let y = H; y >= 0; y--) {
    for (let x = 0; x <= W; x++) {
      const name = "(" + x + "," + y + ")";
      const g = svg("g", {"data-square": name, class: "square" + ((x + y) % 2 ? " dark" : "") + (last === name ? " last" : "")});
      const [px, py] = [x * CELL, (H - y) * CELL];
      g.appendChild(svg("rect", {class: "shape", x: px + 1, y: py + 1, width: CELL - 2, height: CELL - 2}));
      if (x === X && y === Y) {
        g.classList.add("queen");
        g.appendChild(svg("circle", {class: "token", cx: px + CELL / 2, cy: py + CELL / 2, r: CELL / 2 - 8}));
        g.appendChild(svg("text", {x: px + CELL / 2, y: py + CELL / 2 + 7, "text-anchor": "middle", "font-size": 20})).textContent = "♛";
      }
      const to = moves.find((m) => m.move.endsWith("-> " + name));
      piece(g, "move the queen to " + name, !!to, () => move(to.number));
      s.appendChild(g);
    }
  }
  return s;
}

// A row of coins, heads (H) where the position has them, from the first coin a move can turn
// to the farthest head of the game's start: a click chooses a coin (again: unchooses it),
// and "Turn them" plays the API's move `turn a b …` that turns exactly the chosen coins.
// `last`: the coins the computer's reply turned.
function coinRow(i, c, moves, last) {
  const turned = (m) => /^turn [\d ]+$/.test(m.move) ? m.move.slice(5).split(" ").map(Number) : [];
  const heads = new Set(c.coins);
  let [lo, hi] = [1, Math.max(0, ...c.coins)];
  for (const m of moves) for (const k of turned(m)) lo = Math.min(lo, k);
  for (const q of components(game.start)) if (q.head === c.head && q.coins) hi = Math.max(hi, ...q.coins);
  lo = Math.min(lo, ...c.coins);
  if (hi - lo >= MAX_DRAWN) return text("div", "Too many coins to draw: play it from the list or type the position.", "muted");
  const wrap = document.createElement("div");
  const s = svg("svg", {viewBox: "0 0 " + Math.max(hi - lo + 1, 1) * CELL + " " + CELL * 1.4, width: Math.max(hi - lo + 1, 1) * CELL, height: CELL * 1.4, role: "group", "aria-label": c.expr});
  const chosen = new Set();
  const turn = text("button", "Turn them");
  turn.className = "turn";
  const find = () => moves.find((m) => { const t = turned(m); return t.length === chosen.size && t.every((k) => chosen.has(k)); });
  const update = () => {
    const found = find();
    turn.disabled = !found;
    turn.textContent = chosen.size ? "Turn " + [...chosen].sort((a, b) => a - b).join(", ") + (found ? "" : " (not a move)") : "Turn them";
  };
  turn.onclick = () => { const found = find(); if (found) move(found.number); };
  for (let k = lo; k <= hi; k++) {
    const x = (k - lo) * CELL;
    const head = heads.has(k);
    const g = svg("g", {"data-coin": k, class: "coin" + (head ? " head" : "") + (last && last.has(k) ? " last" : "")});
    g.appendChild(svg("rect", {class: "hit", x: x, y: 0, width: CELL, height: CELL}));
    g.appendChild(svg("circle", {class: "shape", cx: x + CELL / 2, cy: CELL / 2, r: CELL / 2 - 5}));
    g.appendChild(svg("text", {x: x + CELL / 2, y: CELL / 2 + 6, "text-anchor": "middle", "font-size": 17})).textContent = head ? "H" : "T";
    g.appendChild(svg("text", {class: "number", x: x + CELL / 2, y: CELL * 1.32, "text-anchor": "middle", "font-size": 13})).textContent = k;
    const usable = moves.some((m) => turned(m).includes(k));
    piece(g, "coin " + k + (head ? ", heads" : ", tails"), usable, () => {
      if (chosen.has(k)) chosen.delete(k); else chosen.add(k);
      g.classList.toggle("lift", chosen.has(k));
      g.setAttribute("aria-pressed", String(chosen.has(k)));
      update();
    });
    s.appendChild(g);
  }
  wrap.appendChild(s);
  update();
  if (moves.length) wrap.appendChild(turn);
  return wrap;
}

function cellClick(i, name, moves, g) {
  const sel = game.selected;
  if (!sel || sel.component !== i || sel.index === name) {
    if (sel) { sel.g.classList.remove("lift"); sel.g.removeAttribute("aria-pressed"); }
    if (sel && sel.component === i && sel.index === name) { game.selected = null; return; }
    game.selected = {component: i, index: name, g: g};
    g.classList.add("lift");
    g.setAttribute("aria-pressed", "true");
    $("board-help").textContent = "Cell " + name + " chosen: click a free neighbour to place the domino.";
    return;
  }
  const found = moves.find((m) => m.move === "domino " + sel.index + "-" + name || m.move === "domino " + name + "-" + sel.index);
  sel.g.classList.remove("lift");
  sel.g.removeAttribute("aria-pressed");
  game.selected = null;
  if (found) { move(found.number); return; }
  $("board-help").textContent = "No domino fits on " + sel.index + " and " + name + ": choose again.";
}

function piece(g, label, enabled, act) {
  g.setAttribute("class", "piece" + (enabled ? "" : " off") + " " + (g.getAttribute("class") || ""));
  if (!enabled) { g.setAttribute("aria-disabled", "true"); return g; }
  g.setAttribute("role", "button");
  g.setAttribute("tabindex", "0");
  g.setAttribute("aria-label", label);
  g.addEventListener("click", act);
  g.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); }
  });
  return g;
}

const CELL = 46;
function tokenRow(i, c, moves, position, ghosts) {
  // The moves by how many tokens they take (a split takes none).
  const byTaken = new Map();
  for (const m of moves) {
    const left = pieces(position, m.from, m.result).reduce((a, b) => a + b, 0);
    if (left === c.n) continue;
    if (!byTaken.has(c.n - left)) byTaken.set(c.n - left, []);
    byTaken.get(c.n - left).push(m);
  }
  const total = c.n + ghosts;
  const s = svg("svg", {viewBox: "0 0 " + Math.max(total, 1) * CELL + " " + CELL, width: Math.max(total, 1) * CELL, height: CELL, role: "group", "aria-label": c.expr});
  for (let k = 0; k < total; k++) {
    const g = svg("g", {"data-index": k});
    g.appendChild(svg("rect", {class: "hit", x: k * CELL, y: 0, width: CELL, height: CELL}));
    g.appendChild(svg("circle", {class: "shape", cx: k * CELL + CELL / 2, cy: CELL / 2, r: CELL / 2 - 5}));
    if (k >= c.n) {
      g.setAttribute("class", "ghost");
      piece(g, "", false);
      g.setAttribute("aria-label", "taken by the computer");
    } else {
      const options = byTaken.get(c.n - k) || [];
      const take = c.n - k;
      piece(g, "take " + take + (take === 1 ? " token" : " tokens") + " from " + c.expr + ", leaving " + k, options.length > 0,
        () => options.length === 1 ? move(options[0].number) : choose("Take " + take + " from " + c.expr + ":", options));
    }
    s.appendChild(g);
  }
  if (!total) s.appendChild(svg("text", {x: 4, y: CELL / 2 + 5, fill: "currentColor"})).textContent = "empty";
  return s;
}

function pinRow(i, c, moves, position) {
  const s = svg("svg", {viewBox: "0 0 " + c.n * CELL + " " + CELL * 1.6, width: c.n * CELL, height: CELL * 1.6, role: "group", "aria-label": c.expr});
  for (let k = 0; k < c.n; k++) {
    const g = svg("g", {"data-index": k, class: "pin"});
    const x = k * CELL + CELL / 2;
    g.appendChild(svg("rect", {class: "hit", x: k * CELL, y: 0, width: CELL, height: CELL * 1.6}));
    g.appendChild(svg("path", {class: "shape", d: `M ${x - 6} ${CELL * 1.5} C ${x - 16} ${CELL * 1.0}, ${x - 4} ${CELL * 0.75}, ${x - 6} ${CELL * 0.5} C ${x - 12} ${CELL * 0.3}, ${x - 8} ${CELL * 0.08}, ${x} ${CELL * 0.08} C ${x + 8} ${CELL * 0.08}, ${x + 12} ${CELL * 0.3}, ${x + 6} ${CELL * 0.5} C ${x + 4} ${CELL * 0.75}, ${x + 16} ${CELL * 1.0}, ${x + 6} ${CELL * 1.5} Z`}));
    g.appendChild(svg("rect", {class: "band", x: x - 8, y: CELL * 0.55, width: 16, height: 5}));
    piece(g, "pin " + (k + 1) + " of " + c.expr, moves.length > 0, () => pinClick(i, c, k, moves, position, g));
    s.appendChild(g);
  }
  return s;
}

function pinClick(i, c, k, moves, position, g) {
  const sel = game.selected;
  if (!sel || sel.component !== i) {
    if (sel) sel.g.classList.remove("lift");
    game.selected = {component: i, index: k, g: g};
    g.classList.add("lift");
    g.setAttribute("aria-pressed", "true");
    $("board-help").textContent = "Pin " + (k + 1) + " chosen: click it again to knock it down alone, or another pin of the row to knock down the pins between.";
    return;
  }
  const [a, b] = [Math.min(sel.index, k), Math.max(sel.index, k)];
  const want = [a, c.n - 1 - b].filter((x) => x > 0).sort((x, y) => x - y);
  const found = moves.find((m) => sameList(pieces(position, m.from, m.result), want));
  sel.g.classList.remove("lift");
  sel.g.removeAttribute("aria-pressed");
  game.selected = null;
  if (found) { move(found.number); return; }
  $("board-help").textContent = "Knocking down " + (a === b ? "pin " + (a + 1) : "pins " + (a + 1) + " to " + (b + 1)) + " is not a move of this game: choose again.";
}

function choose(title, options) {
  const box = $("chooser");
  box.textContent = "";
  box.appendChild(text("div", title));
  for (const m of options) {
    const b = text("button", m.move);
    b.dataset.number = m.number;
    b.onclick = () => { closeChooser(); move(m.number); };
    box.appendChild(b);
  }
  const cancel = text("button", "Cancel");
  cancel.onclick = closeChooser;
  box.appendChild(cancel);
  box.hidden = false;
  box.querySelector("button").focus();
}
function closeChooser() { $("chooser").hidden = true; $("chooser").textContent = ""; }

// ---- The game.
// The rows the computer's reply changed in the position it left, by component, with how
// many tokens it took from each (drawn as empty places).
function replyRows(before, choice, after) {
  const rows = new Map();
  const was = components(before);
  const now = components(after);
  const from = was[choice.component];
  if (from && from.steps && was.length === now.length) {
    rows.set(choice.component, true);
    return rows;
  }
  if (from && from.head === "hackenbush" && was.length === now.length && now[choice.component].head === "hackenbush") {
    // A cut in a Hackenbush picture that still stands.
    rows.set(choice.component, choice.move);
    return rows;
  }
  const take = /^take (\(\d+,\d+\))$/.exec(choice.move);
  if (from && from.board !== undefined && take && was.length === now.length) {
    // A cell taken on a Node Kayles board.
    rows.set(choice.component, new Set([take[1]]));
    return rows;
  }
  if (from && from.coins && /^turn [\d ]+$/.test(choice.move) && was.length === now.length) {
    // The coins the computer turned.
    rows.set(choice.component, new Set(choice.move.slice(5).split(" ").map(Number)));
    return rows;
  }
  const queen = /^(\(\d+,\d+\)) -> /.exec(choice.move);
  if (from && from.queen && queen && was.length === now.length) {
    // The square the queen left.
    rows.set(choice.component, queen[1]);
    return rows;
  }
  const domino = /^domino (\(\d+,\d+\))-(\(\d+,\d+\))$/.exec(choice.move);
  if (from && from.board !== undefined && domino && was.length === now.length) {
    // A domino on a Cram board: its two cells.
    rows.set(choice.component, new Set([domino[1], domino[2]]));
    return rows;
  }
  if (!from || from.n === undefined) return rows;
  const here = now[choice.component];
  if (was.length === now.length && here && here.head === from.head && here.n <= from.n) {
    // One heap left in place (Nim keeps even an empty one).
    rows.set(choice.component, from.n - here.n);
    return rows;
  }
  // Heaps split or gone: mark each heap the reply left.
  for (const k of pieces(before, choice.from, choice.result)) {
    const i = now.findIndex((c, j) => c.expr === from.head + " " + k && !rows.has(j));
    if (i >= 0) rows.set(i, 0);
  }
  return rows;
}
function showGame(answer) {
  const previous = game.position;
  game.position = answer.position;
  $("play-position").textContent = "Position: " + answer.position;
  $("hint-box").textContent = "";
  const log = $("log");
  const reply = $("reply");
  reply.textContent = "";
  let changed = null;
  if (answer.human_move) {
    const h = answer.human_move;
    const li = text("li", "You: " + h.move + " in " + h.from + "  →  " + h.result);
    li.dataset.result = h.result;
    log.appendChild(li);
    game.plies.push({mover: "you", result: h.result});
  }
  if (answer.computer_move) {
    const c = answer.computer_move;
    const li = text("li", "Computer: " + c.choice.move + " in " + c.choice.from + "  →  " + c.choice.result + " (" + c.explanation + ")", "computer");
    li.dataset.result = c.choice.result;
    li.dataset.reason = c.reason.kind;
    log.appendChild(li);
    game.plies.push({mover: "computer", result: c.choice.result});
    reply.textContent = "The computer played " + c.choice.move + " in " + c.choice.from + ".";
    changed = replyRows(answer.human_move ? answer.human_move.result : previous, c.choice, answer.position);
  }
  const status = $("status");
  const moves = $("moves");
  moves.textContent = "";
  const drawn = drawBoard(answer, changed);
  updateStory();
  updateLink();
  if (answer.status.state === "won") {
    status.textContent = answer.status.player === "human" ? "Game over: you won!" : "Game over: the computer won.";
    status.dataset.state = answer.status.player === "human" ? "human-won" : "computer-won";
    $("board-help").textContent = "";
    return drawn;
  }
  status.textContent = answer.unlisted
    ? "Your turn: the moves are too many to list (" + answer.unlisted + "); type the position you move to."
    : "Your turn: " + answer.moves_total + (answer.moves_total === 1 ? " move" : " moves");
  status.dataset.state = "your-turn";
  for (const m of answer.moves) {
    const b = text("button", m.number + ". " + m.move + " in " + m.from + "  →  " + m.result);
    b.dataset.number = m.number;
    b.dataset.result = m.result;
    b.onclick = () => move(m.number);
    moves.appendChild(b);
  }
  return drawn;
}

async function startGame() {
  $("play-error").textContent = "";
  $("log").textContent = "";
  $("story").textContent = "";
  const expression = $("expr").value;
  const first = $("computer-first").checked;
  game = {start: expression, position: expression, misere: misere(), first: first, plies: [], humanMoves: [], history: []};
  try {
    // The families of the rules (how to draw them) come from the analysis.
    const a = await analysis(expression, game.misere);
    families = new Map(a.components.map((c) => [c.expression.split(/\s+/)[0], c.family]));
    game.start = a.expression;
    const answer = await api("play", {expression: expression, misere: game.misere, computer_first: first});
    showGame(answer);
  } catch (e) { $("play-error").textContent = e.message; game = null; }
}

// Plays the player's move: its number in the list, or (typed) the position it leaves.
// Whether the move was played.
async function move(input) {
  if (!game || game.busy) return false;
  $("play-error").textContent = "";
  game.busy = true;
  try {
    const before = game.position;
    const logLength = $("log").children.length;
    const answer = await api("play", {expression: before, misere: game.misere, move: input});
    game.history.push({position: before, logLength: logLength, plies: game.plies.length, humanMoves: game.humanMoves.length});
    // For the link: the position the move left (its number when that position is a bare
    // number such as `0`, which the API would read as a move number).
    const h = answer.human_move;
    game.humanMoves.push(/^\d+$/.test(h.result) ? String(h.number) : h.result);
    $("typed-move").value = "";
    // A keyboard player stays on the board: the focus goes to its first piece.
    const onBoard = document.activeElement && document.activeElement.closest("#board, #chooser");
    await showGame(answer);
    const first = onBoard && $("board").querySelector("[tabindex='0']");
    if (first) first.focus();
    window.lastReplyDrawn = performance.now();
    return true;
  } catch (e) {
    $("play-error").textContent = e.message;
    return false;
  } finally { if (game) game.busy = false; }
}

async function hint() {
  if (!game) return;
  try {
    const h = await api("hint", {expression: game.position, misere: game.misere});
    const box = $("hint-box");
    box.textContent = "";
    box.appendChild(text("div", "Hint: " + outcomeText(h.outcome), "outcome-" + h.outcome));
    box.appendChild(text("pre", h.explanation.join("\n")));
    const best = new Set(h.moves.map((m) => m.number));
    for (const b of $("moves").children) b.classList.toggle("best", best.has(Number(b.dataset.number)));
    if (!h.moves.length) box.appendChild(text("div", "No winning move: every move leaves the opponent a win."));
  } catch (e) { $("play-error").textContent = e.message; }
}

async function undo() {
  if (!game || !game.history.length || game.busy) return;
  $("play-error").textContent = "";
  const back = game.history.pop();
  const log = $("log");
  while (log.children.length > back.logLength) log.removeChild(log.lastChild);
  game.plies.length = back.plies;
  game.humanMoves.length = back.humanMoves;
  try {
    showGame(await api("play", {expression: back.position, misere: game.misere}));
  } catch (e) { $("play-error").textContent = e.message; }
}

// ---- The value story: every position of the game so far, its value and who was winning.
let storyRun = 0;
async function updateStory() {
  const run = ++storyRun;
  const g = game;
  const positions = [g.start].concat(g.plies.map((p) => p.result));
  const movers = g.plies.map((p) => p.mover);
  const firstToMove = g.first ? "computer" : "you";
  let answers;
  try {
    answers = await Promise.all(positions.map((p) => analysis(p, g.misere)));
  } catch (e) { $("play-error").textContent = e.message; return; }
  if (run !== storyRun || g !== game) return;
  const story = $("story");
  story.textContent = "";
  answers.forEach((a, k) => {
    const toMove = k === 0 ? firstToMove : (movers[k - 1] === "you" ? "computer" : "you");
    const other = toMove === "you" ? "computer" : "you";
    const winner = a.outcome === "N" ? toMove : a.outcome === "P" ? other : "nobody";
    const li = document.createElement("li");
    li.dataset.position = positions[k];
    li.dataset.outcome = a.outcome;
    li.dataset.value = a.value === null ? "" : a.value;
    li.dataset.winner = winner;
    const who = k === 0 ? "Start" : (movers[k - 1] === "you" ? "You moved" : "The computer moved");
    li.appendChild(text("div", who + (k === 0 ? ": " : " to ")));
    li.firstChild.appendChild(text("code", positions[k]));
    const value = a.value === null ? "" : "value " + a.value + ", ";
    const side = winner === "nobody" ? "a draw" : (winner === "you" ? "you are winning" : "the computer is winning");
    li.appendChild(text("div", value + a.outcome + ": " + side + " (" + (toMove === "you" ? "you" : "the computer") + " to move).",
      winner === "you" ? "you-win" : winner === "computer" ? "computer-wins" : ""));
    // A move from a won position (N for its mover) to one the opponent wins let the win slip.
    if (k > 0 && answers[k - 1].outcome === "N" && a.outcome === "N") {
      li.classList.add("slip");
      li.dataset.slip = movers[k - 1];
      li.appendChild(text("div", "⚠ " + (movers[k - 1] === "you" ? "You" : "The computer") + " let the win slip here.", "slip-mark"));
    }
    story.appendChild(li);
  });
  story.dataset.positions = positions.length;
}

// ---- Links: the position, misère, who moved first and the player's moves so far.
function gameLink() {
  const params = new URLSearchParams({e: game.start});
  if (game.misere) params.set("misere", "1");
  if (game.first) params.set("first", "computer");
  params.set("play", "1");
  for (const m of game.humanMoves) params.append("m", m);
  return "?" + params;
}
function updateLink() {
  const link = gameLink();
  history.replaceState(null, "", link);
  $("share-link").value = location.href;
}
$("share").onclick = async () => {
  $("share-link").select();
  try { await navigator.clipboard.writeText($("share-link").value); $("share").textContent = "Copied"; }
  catch (e) { $("share").textContent = "Select and copy the link"; }
};

$("analyze").onclick = analyze;
$("expr").addEventListener("keydown", (e) => { if (e.key === "Enter") analyze(); });
$("play-start").onclick = startGame;
$("hint").onclick = hint;
$("undo").onclick = undo;
$("draw").onclick = draw;
$("typed-go").onclick = () => move($("typed-move").value);
$("typed-move").addEventListener("keydown", (e) => { if (e.key === "Enter") move($("typed-move").value); });
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") { closeChooser(); if (game && game.selected) { game.selected.g.classList.remove("lift"); game.selected = null; } }
});

// A link opens a position: ?e=nim+3+4+5 (and &misere=1, &play=1, &first=computer, &m=MOVE
// for each of the player's moves so far, as the position it left; &draw=1, &plot=RULE).
(async () => {
  const params = new URLSearchParams(location.search);
  if (!params.has("e")) return;
  $("expr").value = params.get("e");
  $("misere").checked = params.get("misere") === "1";
  $("computer-first").checked = params.get("first") === "computer";
  await analyze();
  if (params.get("play") === "1") {
    await startGame();
    for (const m of params.getAll("m")) {
      // A move the game does not allow stops the replay (the error says why).
      if (!game || $("status").dataset.state !== "your-turn" || !(await move(m))) break;
    }
    // On a phone the board is below the position: bring the game into view.
    if (!matchMedia("(min-width: 900px)").matches) $("play-section").scrollIntoView();
    document.body.dataset.restored = "1";
  }
  if (params.get("draw") === "1") await draw();
  if (params.has("plot")) await plot(params.get("plot"));
})();
