"""Games defined in Python (a `Game` subclass, a heap rule given by a function) and game
graphs, solved by the Rust engines."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Dict, Hashable, Iterable, List, Optional, Tuple, Union

from . import _display, _frames, _grundy
from ._api import Sequence, _call, _plain, _sequence


class HeapGame:
    """A heap game given by a function: `moves(n)` lists, for each move from a heap of n,
    the heap left (an int) or the heaps left (a tuple of ints), each smaller than n."""

    def __init__(self, moves: Callable[[int], Iterable[Any]], name: str = "heap_game"):
        self.moves = moves
        self.name = name

    def sequence(self, to: int = 100, *, max_work: Optional[int] = None) -> Sequence:
        """g(0), ..., g(to) and the apparent period."""
        return _sequence(json.loads(_grundy.heap_sequence(self.moves, to, self.name, max_work)))

    def plot(self, path: Union[str, "os.PathLike[str]"], to: int = 100) -> str:
        """Writes an SVG scatter plot of g(0), ..., g(to) to `path`."""
        return self.sequence(to).plot(path)

    def __repr__(self) -> str:
        return f"HeapGame({self.name!r})"


def heap_game(moves: Callable[[int], Iterable[Any]], name: str = "heap_game") -> HeapGame:
    """A heap rule of your own.

    >>> squares = heap_game(lambda n: [n - k * k for k in range(1, int(n ** 0.5) + 1)])
    >>> [n for n, v in enumerate(squares.sequence(to=30).values) if v == 0]
    [0, 2, 5, 7, 10, 12, 15, 17, 20, 22]
    """
    return HeapGame(moves, name)


class Game:
    """Base class of a game of your own: define `moves(pos)`, the positions one move leads
    to (any hashable positions, e.g. tuples). Optionally define `components(pos)`, the
    independent parts a position splits into (their values nim-add); each part must split
    into itself alone."""

    def moves(self, pos: Hashable) -> Iterable[Hashable]:
        raise NotImplementedError("a Game defines moves(self, pos)")


@dataclass(frozen=True, repr=False)
class GameAnalysis:
    """The analysis of a position of a game defined in Python.

    value: the Sprague-Grundy value (None in misere play and for Smith's infinite values,
    whose K is then in `infinite`); outcome: "P", "N" or "D" (a draw, loopy games only);
    winning_moves: the positions to move to (a P-position each); loopy: whether positions
    repeat (then the whole reachable graph was solved; `drawing_moves`, `remoteness`).
    In a notebook it shows as a table.
    """

    position: Any
    value: Optional[int]
    outcome: str
    winning_moves: List[Any]
    misere: bool = False
    loopy: bool = False
    infinite: Optional[List[int]] = None
    drawing_moves: List[Any] = field(default_factory=list)
    remoteness: Optional[int] = None
    positions: Optional[int] = None

    def to_dict(self) -> Dict[str, Any]:
        """The analysis as a dict (positions as the game gives them)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __repr__(self) -> str:
        value = "" if self.value is None else f", value {self.value}"
        moves = len(self.winning_moves)
        return (
            f"<GameAnalysis {_display.clip(repr(self.position))}: {self.outcome}{value}, "
            f"{moves} winning move{'' if moves == 1 else 's'}>"
        )

    def _repr_html_(self) -> str:
        return _display.game_analysis_html(self)


def analyze_game(
    game: Any,
    position: Hashable,
    misere: bool = False,
    *,
    max_positions: Optional[int] = None,
    max_work: Optional[int] = None,
) -> GameAnalysis:
    """Analyses `position` of `game` (a `Game`, or any object with `moves(pos)`) by the Rust
    engine: value, outcome and winning moves; `misere=True` for misere play. Positions that
    repeat are solved through the loopy-graph solver (draws, Smith's values).

    Raises TypeError for unhashable positions, LimitError past `max_positions` stored
    positions or `max_work` moves, and whatever your own code raises, as itself.
    """
    moves = getattr(game, "moves", None)
    if moves is None:
        raise TypeError("the game needs a moves(pos) method")
    components = getattr(game, "components", None)
    raw = _grundy.analyze_game(moves, components, position, misere, max_positions, max_work)
    return GameAnalysis(**raw)


# -- Game graphs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class VertexSolution:
    """One vertex: its value (None for Smith's infinite value, whose K is `infinite`), its
    outcome ("P", "N" or "D") and remoteness (None in a draw). `to_dict()` is its row of the
    CLI's `graph --json` output."""

    value: Optional[int]
    infinite: Optional[List[int]]
    outcome: str
    remoteness: Optional[int]
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def __str__(self) -> str:
        if self.value is not None:
            return str(self.value)
        return "∞(" + ",".join(str(k) for k in self.infinite or []) + ")"

    def to_dict(self) -> Dict[str, Any]:
        """The vertex's row of `grundy graph --json`: name, value, outcome, remoteness."""
        return _plain(self._raw)


class GraphSolution(Dict[Hashable, VertexSolution]):
    """Vertex -> VertexSolution, for every vertex of a game graph. `to_dict()` equals
    `grundy graph FILE --json` for the same edges (vertices named by `str` when they are
    strings without spaces, else by their index in order of appearance); `to_numpy()` and
    `to_pandas()` give one row per vertex; in a notebook a small graph shows as its picture
    coloured P/N/D, a big one as a summary."""

    acyclic: bool
    _raw: Dict[str, Any]
    _request: Dict[str, Any]

    def to_dict(self) -> Dict[str, Any]:
        """The solution as plain data, equal to the CLI's `graph --json` output."""
        return _plain(self._raw)

    def counts(self) -> Dict[str, int]:
        """How many vertices are P, N and D."""
        out = {"P": 0, "N": 0, "D": 0}
        for v in self.values():
            out[v.outcome] = out.get(v.outcome, 0) + 1
        return out

    def svg(self) -> Optional[str]:
        """The graph drawn by the library, coloured by outcome (P red, N green, D grey), each
        vertex with its name and value; None when it is too large to lay out."""
        return self._picture()[0]

    def _picture(self) -> Tuple[Optional[str], Optional[str]]:
        if len(self) > _display.MAX_DRAWN_VERTICES:
            return None, (
                f"{len(self)} vertices: more than {_display.MAX_DRAWN_VERTICES}, too many "
                "to draw in a notebook"
            )
        return _grundy.graph_svg(json.dumps(self._request))

    def to_numpy(self) -> Any:
        """One row per vertex (in order of appearance) as a NumPy structured array with the
        fields vertex (object), value (-1 for an infinite value), outcome, remoteness (-1 in
        a draw). Needs numpy."""
        return _frames.graph_numpy(self)

    def to_pandas(self) -> Any:
        """A pandas DataFrame indexed by vertex with the columns value (None for an infinite
        value), infinite, outcome and remoteness. Needs pandas."""
        return _frames.graph_pandas(self)

    def __repr__(self) -> str:
        c = self.counts()
        kind = "acyclic" if self.acyclic else "with cycles"
        draws = f", {c['D']} D" if c["D"] else ""
        return f"<GraphSolution {len(self)} vertices, {kind}: {c['P']} P, {c['N']} N{draws}>"

    def _repr_html_(self) -> str:
        return _display.graph_html(self)


def _name_ok(v: Any) -> bool:
    return isinstance(v, str) and v != "" and not any(c.isspace() or c == "#" for c in v)


class Graph:
    """A game graph: a token moves along the directed edges; vertices are any hashables."""

    def __init__(self, edges: Iterable[Tuple[Hashable, Hashable]]):
        self.vertices: List[Hashable] = []
        index: Dict[Hashable, int] = {}
        self.sources: List[int] = []
        self.targets: List[int] = []
        for edge in edges:
            try:
                a, b = edge
            except (TypeError, ValueError):
                raise TypeError(f"an edge is a pair (from, to), not {edge!r}") from None
            for v in (a, b):
                if v not in index:
                    index[v] = len(self.vertices)
                    self.vertices.append(v)
            self.sources.append(index[a])
            self.targets.append(index[b])

    def __repr__(self) -> str:
        return f"<Graph {len(self.vertices)} vertices, {len(self.sources)} edges>"

    def solve(self) -> GraphSolution:
        """Values, outcomes and remoteness of every vertex (loopy graphs too)."""
        if all(_name_ok(v) for v in self.vertices):
            names = [str(v) for v in self.vertices]
        else:
            names = [str(i) for i in range(len(self.vertices))]
        text = "".join(f"{names[a]} {names[b]}\n" for a, b in zip(self.sources, self.targets))
        request = {"graph": text}
        raw = _call("graph", request, [])
        vertex_of = dict(zip(names, self.vertices))
        out = GraphSolution()
        for row in raw["vertices"]:
            value = row["value"]
            infinite = value["inf"] if isinstance(value, dict) else None
            out[vertex_of[row["name"]]] = VertexSolution(
                None if infinite is not None else value,
                infinite,
                row["outcome"],
                row["remoteness"],
                _raw=row,
            )
        out.acyclic = raw["acyclic"]
        out._raw = raw
        out._request = request
        return out


def graph(edges: Iterable[Tuple[Hashable, Hashable]]) -> Graph:
    """A game graph from its edges.

    >>> s = graph([(1, 2), (2, 3)]).solve()
    >>> s[1].value, s[1].outcome
    (0, 'P')
    >>> graph([("a", "b"), ("b", "a")]).solve()["a"].outcome
    'D'
    """
    return Graph(edges)
