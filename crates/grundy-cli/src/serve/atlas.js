"use strict";
// The atlas view: shown only when the server was started with an atlas (`--atlas FILE`).
// A family's games in a table that sorts by its headers and filters; a row opens the game's
// card with its sequence plot (drawn by the library: /api/sequence with `plot`).
(() => {
  const $ = (id) => document.getElementById(id);
  const COLUMNS = [
    ["code", "code", (r) => r.code],
    ["status", "status", (r) => r.status],
    ["period", "period", (r) => r.period],
    ["preperiod", "preperiod", (r) => r.preperiod],
    ["computed_to", "computed to", (r) => r.computed_to],
    ["max_value", "largest value", (r) => r.max_value],
    ["misere", "misère order", (r) => r.misere_order],
  ];
  const PLOT_TO = 500;
  const view = {rows: [], page: null, sort: null, descending: false};

  async function ask(body) {
    const response = await fetch("/api/atlas", {
      method: body ? "POST" : "GET",
      headers: body ? {"Content-Type": "application/json"} : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || ("HTTP " + response.status));
    return data;
  }
  function el(tag, content, cls) {
    const e = document.createElement(tag);
    if (content !== undefined && content !== null) e.textContent = content;
    if (cls) e.className = cls;
    return e;
  }
  const show = (x) => (x === null || x === undefined ? "-" : String(x));

  // ---- The table.
  function header() {
    const tr = $("atlas-head");
    tr.textContent = "";
    for (const [key, label] of COLUMNS) {
      const th = el("th");
      th.dataset.key = key;
      th.setAttribute("aria-sort", view.sort !== key ? "none" : view.descending ? "descending" : "ascending");
      const b = el("button", label + (view.sort === key ? (view.descending ? " ▼" : " ▲") : ""));
      b.type = "button";
      b.onclick = () => {
        view.descending = view.sort === key ? !view.descending : false;
        view.sort = key;
        render();
      };
      th.appendChild(b);
      tr.appendChild(th);
    }
  }
  // Numbers in order, absent values last whichever the direction; codes as text.
  function compare(get) {
    return (a, b) => {
      const x = get(a), y = get(b);
      if (x === y) return 0;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      const d = typeof x === "number" ? x - y : String(x).localeCompare(String(y), undefined, {numeric: true});
      return view.descending ? -d : d;
    };
  }
  function render() {
    header();
    const needle = $("atlas-text").value.trim().toLowerCase();
    let rows = view.rows.filter((r) => !needle
      || [r.code, r.status, r.engine || "", r.proof || ""].some((t) => t.toLowerCase().includes(needle)));
    if (view.sort) {
      const get = COLUMNS.find((c) => c[0] === view.sort)[2];
      rows = rows.slice().sort(compare(get));
    }
    const body = $("atlas-rows");
    body.textContent = "";
    for (const r of rows) {
      const tr = el("tr");
      tr.dataset.code = r.code;
      tr.dataset.status = r.status;
      COLUMNS.forEach(([key, , get], i) => {
        const td = el("td", i === 0 ? null : show(get(r)));
        td.dataset.key = key;
        if (i === 0) {
          // A button, so that a keyboard opens the card as a click on the row does.
          const b = el("button", r.code);
          b.type = "button";
          td.appendChild(b);
        }
        tr.appendChild(td);
      });
      tr.onclick = () => openCard(r.code);
      body.appendChild(tr);
    }
    const p = view.page;
    const family = p.family;
    let count = `${rows.length} shown of ${p.matching} ${p.filter === "all" ? "" : p.filter + " "}games` +
      ` of ${family.pattern} (${family.games} in the family`;
    if (family.missing) count += `, ${family.missing} not in the atlas`;
    count += ")";
    if (view.rows.length < p.matching) count += `; ${view.rows.length} loaded`;
    $("atlas-count").textContent = count;
    $("atlas-more").hidden = view.rows.length >= p.matching;
  }
  async function load(more) {
    $("atlas-error").textContent = "";
    const request = {pattern: $("atlas-pattern").value.trim(), filter: $("atlas-filter").value};
    if (more) request.offset = view.rows.length;
    try {
      const page = (await ask(request)).family;
      const orders = new Map(page.misere.map((m) => [m.code, m.order]));
      const rows = page.family.rows.map((r) => Object.assign(r, {misere_order: orders.has(r.code) ? orders.get(r.code) : null}));
      view.rows = more ? view.rows.concat(rows) : rows;
      view.page = page;
      render();
      $("atlas-view").dataset.loaded = String(Date.now());
    } catch (e) { $("atlas-error").textContent = e.message; }
  }

  // ---- A game's card.
  function fact(dl, name, value) {
    if (value === null || value === undefined || value === "") return;
    dl.appendChild(el("dt", name));
    const dd = el("dd");
    if (value instanceof Node) dd.appendChild(value); else dd.textContent = value;
    dl.appendChild(dd);
  }
  function status(g) {
    if (g.status === "proven") return `proven: period ${g.period} from n = ${g.preperiod}` + (g.proof ? ` (${g.proof})` : "");
    if (g.status === "apparent") return `apparent period ${g.period} from n = ${g.preperiod} (not proven)`;
    if (g.status === "refused") return "refused: " + (g.reason || "");
    return "no period seen";
  }
  function misereText(m) {
    if (!m.computed) return "refused: " + (m.reason || "");
    let t = `order ${m.order}, P-portion ${m.p_portion} (heaps 1 to ${m.computed_to}`;
    if (m.period !== null) t += `; heap map period ${m.period} from heap ${m.preperiod}, ${m.period_proven ? "proven" : "observed"}`;
    return t + ")";
  }
  async function openCard(code) {
    const box = $("atlas-card");
    $("atlas-error").textContent = "";
    let card;
    try { card = (await ask({card: code})).card; } catch (e) { $("atlas-error").textContent = e.message; return; }
    const g = card.game;
    box.textContent = "";
    box.dataset.code = g.code;
    box.appendChild(el("h3", g.code));
    const dl = el("dl");
    fact(dl, "status", status(g));
    fact(dl, "computed", g.computed_to === null ? "nothing" :
      `g(0) to g(${g.computed_to}) of g(${g.target}) asked for` + (g.engine ? ` (${g.engine} engine)` : ""));
    fact(dl, "last exceptional heap", g.last_exceptional);
    if (g.max_value !== null) fact(dl, "largest value", `${g.max_value}, first at heap ${g.max_value_heap}`);
    fact(dl, "P-positions", g.p_positions);
    fact(dl, "first values", g.first_values);
    const twins = el("span", card.same_as.length ? null : "none in the atlas");
    card.same_as.forEach((t, i) => {
      if (i) twins.appendChild(document.createTextNode(", "));
      const a = el("a", t.code);
      a.href = "#atlas-card";
      a.className = "twin";
      a.title = `the same values g(0) to g(${t.length - 1})`;
      a.onclick = (e) => { e.preventDefault(); openCard(t.code); };
      twins.appendChild(a);
    });
    fact(dl, "same sequence", twins);
    if (card.proven_same.length) {
      const proven = el("span");
      card.proven_same.forEach((t, i) => {
        if (i) proven.appendChild(document.createTextNode("; "));
        const a = el("a", t.code);
        a.href = "#atlas-card";
        a.className = "proven-twin";
        a.title = t.reason;
        a.onclick = (e) => { e.preventDefault(); openCard(t.code); };
        const relation = t.offset === 0 ? "the same sequence"
          : `g(n) here is g(n ${t.offset < 0 ? "−" : "+"} 1) there`;
        proven.appendChild(a);
        proven.appendChild(document.createTextNode(`: ${relation} (${t.reason})`));
      });
      fact(dl, "provably the same", proven);
    }
    fact(dl, "misère quotient", card.misere ? misereText(card.misere) : null);
    box.appendChild(dl);
    const plot = el("div", "Plotting…");
    plot.id = "atlas-plot";
    box.appendChild(plot);
    box.scrollIntoView({block: "nearest"});
    try {
      const s = await fetch("/api/sequence", {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({rule: g.code, to: PLOT_TO, plot: true})});
      const data = await s.json();
      if (!s.ok) throw new Error(data.error || ("HTTP " + s.status));
      if ($("atlas-card").dataset.code !== g.code) return;  // another card opened meanwhile
      plot.innerHTML = data.plot;
      plot.appendChild(el("div", `g(0) to g(${PLOT_TO}): ` + (data.period ? data.period.text : "no period in these values")));
    } catch (e) { plot.textContent = "No plot: " + e.message; }
  }

  // ---- Start: only with an atlas.
  (async () => {
    let summary;
    try { summary = await ask(null); } catch (e) { return; }
    $("atlas-section").hidden = false;
    $("atlas-link").hidden = false;
    $("atlas-summary").textContent = `This server's atlas holds ${summary.games} games, ${summary.solved} of them solved` +
      (summary.misere ? `, ${summary.misere} with a misère quotient` : "") + ".";
    const patterns = $("atlas-patterns");
    for (const p of summary.patterns) patterns.appendChild(el("option", null)).value = p;
    $("atlas-pattern").value = summary.patterns[0] || "0.??";
    $("atlas-go").onclick = () => load(false);
    $("atlas-pattern").addEventListener("keydown", (e) => { if (e.key === "Enter") load(false); });
    $("atlas-filter").onchange = () => load(false);
    $("atlas-text").oninput = render;
    $("atlas-more").onclick = () => load(true);
    await load(false);
  })();
})();
