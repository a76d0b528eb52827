"""How answers show in a notebook (Jupyter's `_repr_html_`): small HTML tables around the
library's own SVG pictures (sequence plots, game graphs coloured P/N, Hackenbush cuts), which
the native module draws; nothing is drawn here."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence

from ._grundy import GrundyError

if TYPE_CHECKING:  # pragma: no cover
    from ._api import Analysis, Quotient, Sequence as NimSequence
    from ._games import GameAnalysis, GraphSolution

# A graph of more vertices shows as a summary (the library refuses far larger layouts).
MAX_DRAWN_VERTICES = 80
# Rows of a graph summary, values under a sequence plot, elements of a quotient table.
MAX_ROWS = 20
MAX_VALUES = 100
MAX_TABLE = 24

OUTCOME_WORDS = {
    "P": "P: the player to move loses",
    "N": "N: the player to move wins",
    "D": "D: a draw with best play",
}
OUTCOME_COLOURS = {"P": "#f4a3a3", "N": "#a3e4a3", "D": "#d0d0d0"}

_BOX = 'class="grundy" style="font-family: sans-serif; max-width: 100%; overflow-x: auto"'
_TABLE = 'style="border-collapse: collapse; margin: 4px 0"'
_CELL = 'style="border: 1px solid #ccc; padding: 2px 6px; text-align: left"'


def clip(text: str, width: int = 60) -> str:
    """`text` cut to `width` characters with an ellipsis (plain reprs stay one short line)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _e(value: Any) -> str:
    return escape(str(value))


def _table(header: Optional[Sequence[str]], rows: Iterable[Sequence[Any]]) -> str:
    """A table of already-escaped cells."""
    out = [f"<table {_TABLE}>"]
    if header is not None:
        out.append("<tr>" + "".join(f"<th {_CELL}>{h}</th>" for h in header) + "</tr>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td {_CELL}>{c}</td>" for c in row) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _outcome(outcome: str) -> str:
    colour = OUTCOME_COLOURS.get(outcome, "#ffffff")
    words = OUTCOME_WORDS.get(outcome, outcome)
    return f'<span style="background: {colour}; padding: 0 4px">{_e(words)}</span>'


def _figure(svg: str) -> str:
    return f'<div style="max-width: 100%; overflow-x: auto">{svg}</div>'


def _note(text: str) -> str:
    return f'<p style="color: #666; font-size: smaller">{_e(text)}</p>'


def _box(title: str, parts: List[str]) -> str:
    return f"<div {_BOX}><p><b>{title}</b></p>" + "".join(parts) + "</div>"


def analysis_html(a: Analysis) -> str:
    """Value, outcome, winning moves, components and the explanation, then the library's
    game graph (small positions) and Hackenbush pictures."""
    rows = [["outcome", _outcome(a.outcome)]]
    if a.value is not None:
        rows.append(["value", _e(a.value)])
    rows.append(["play", "misère" if a.misere else "normal"])
    parts = [_table(None, rows)]
    if a.winning_moves:
        moves = [[_e(m.component), _e(m.move), _e(m.result)] for m in a.winning_moves]
        parts.append("<p>Winning moves</p>")
        parts.append(_table(["component", "move", "position after it"], moves))
    if a.winning_moves_note:
        parts.append(_note(a.winning_moves_note))
    if len(a.components) > 1:
        components = [
            [_e(c.expression), _e(c.family), _e("" if c.value is None else c.value)]
            for c in a.components
        ]
        parts.append(_table(["component", "family", "value"], components))
    if a.explanation:
        parts.append("<ul>" + "".join(f"<li>{_e(line)}</li>" for line in a.explanation) + "</ul>")
    try:
        pictures = a.pictures()
    except GrundyError as e:
        parts.append(_note(f"no picture: {e}"))
    else:
        for svg in pictures["hackenbush"]:
            parts.append(_figure(svg))
        if pictures["graph"] is not None:
            parts.append(_figure(pictures["graph"]))
        elif pictures["graph_note"]:
            parts.append(_note(f"game graph not drawn: {pictures['graph_note']}"))
    return _box(_e(a.expression), parts)


def _value_rows(values: List[int]) -> List[List[str]]:
    rows = []
    for start in range(0, len(values), 10):
        row = [f"<i>{start}</i>"] + [_e(v) for v in values[start : start + 10]]
        rows.append(row + [""] * (11 - len(row)))
    return rows


def sequence_html(s: NimSequence) -> str:
    """The period in words, the library's plot, and the first values, ten a row."""
    values = [int(v) for v in s.values]
    parts = []
    if s.period is None:
        parts.append(_note("no period shows in the values computed"))
    else:
        p = s.period
        status = "proven: " + p.proof if p.proven else "apparent (not proven)"
        saltus = f", saltus {p.saltus}" if p.saltus else ""
        parts.append(
            f"<p>period <b>{_e(p.period)}</b> from n = <b>{_e(p.preperiod)}</b>{_e(saltus)}, "
            f"{_e(status)}</p>"
        )
    if values:
        parts.append(_figure(s.svg()))
        shown = values[:MAX_VALUES]
        header = ["n"] + [f"+{k}" for k in range(10)]
        parts.append(_table(header, _value_rows(shown)))
        if len(values) > len(shown):
            parts.append(_note(f"the first {len(shown)} of {len(values)} values; to_pandas()"))
    title = f"{_e(s.rule)}: g(n) for n = 0 to {max(len(values) - 1, 0)}"
    return _box(title, parts)


def quotient_html(q: Quotient) -> str:
    """Order, P-portion, heap map and the multiplication table (P-portion shaded)."""
    p_portion = set(q.p_portion)
    rows = [
        ["order", _e(q.order)],
        ["P-portion", _e("{" + ", ".join(q.p_portion) + "}")],
    ]
    if q.period is not None:
        proven = "proven" if q.period.proven else "observed"
        rows.append(
            ["heap map", _e(f"period {q.period.period} from heap {q.period.preperiod}, {proven}")]
        )
    parts = [_table(None, rows)]
    heaps = q.heap_map[: MAX_ROWS + 1]
    header = ["heap"] + [_e(n) for n in range(len(heaps))]
    parts.append(_table(header, [["element"] + [_e(h) for h in heaps]]))
    if q.order <= MAX_TABLE:

        def cell(name: str) -> str:
            shade = f' style="background: {OUTCOME_COLOURS["P"]}"' if name in p_portion else ""
            return f"<span{shade}>{_e(name)}</span>"

        rows_ = [
            [f"<b>{cell(x)}</b>"] + [cell(q.elements[i]) for i in q.table[k]]
            for k, x in enumerate(q.elements)
        ]
        parts.append(_table(["×"] + [f"<b>{cell(x)}</b>" for x in q.elements], rows_))
        parts.append(_note("P-portion shaded"))
    else:
        parts.append(_note(f"a table of {q.order} elements: to_pandas() has it"))
    return _box(f"misère quotient of {_e(q.rule)}, heaps 1 to {_e(q.max_heap)}", parts)


def graph_html(g: GraphSolution) -> str:
    """A small graph as the library's picture; a big one as counts and its first rows."""
    c = g.counts()
    kind = "acyclic" if g.acyclic else "with cycles"
    summary = f"{len(g)} vertices, {kind}: {c['P']} P, {c['N']} N, {c['D']} D"
    svg, why = g._picture()
    if svg is not None:
        return _box(_e(summary), [_figure(svg)])
    rows = []
    for vertex, v in list(g.items())[:MAX_ROWS]:
        remoteness = "" if v.remoteness is None else v.remoteness
        rows.append([_e(repr(vertex)), _e(v), _outcome(v.outcome), _e(remoteness)])
    parts = [_table(["vertex", "value", "outcome", "remoteness"], rows)]
    if len(g) > MAX_ROWS:
        parts.append(_note(f"the first {MAX_ROWS} of {len(g)} vertices; to_pandas() has all"))
    if why:
        parts.append(_note(f"not drawn: {why}"))
    return _box(_e(summary), parts)


def game_analysis_html(a: GameAnalysis) -> str:
    """Position, value, outcome and winning moves of a game defined in Python."""
    rows = [["position", _e(repr(a.position))], ["outcome", _outcome(a.outcome)]]
    if a.value is not None:
        rows.append(["value", _e(a.value)])
    if a.infinite is not None:
        rows.append(["value", _e("∞(" + ",".join(str(k) for k in a.infinite) + ")")])
    if a.remoteness is not None:
        rows.append(["remoteness", _e(a.remoteness)])
    parts = [_table(None, rows)]
    if a.winning_moves:
        parts.append("<p>Winning moves (to these positions)</p>")
        parts.append(_table(None, [[_e(repr(m))] for m in a.winning_moves[:MAX_ROWS]]))
    if a.drawing_moves:
        parts.append("<p>Drawing moves</p>")
        parts.append(_table(None, [[_e(repr(m))] for m in a.drawing_moves[:MAX_ROWS]]))
    return _box(_e(clip(repr(a.position))), parts)

