"""grundy: impartial combinatorial games in Python, on grundy's Rust engines.

Who wins, with which move, and why: Sprague-Grundy values of sums, nim-sequences of heap
games and their periods, nim arithmetic, game graphs (loopy ones too), and games of your own.

>>> import grundy
>>> a = grundy.analyze("kayles 10 + nim 3")
>>> a.value, a.outcome
(1, 'N')
>>> grundy.sequence("0.137", to=1000).period.period
34
>>> grundy.Nimber(2) * grundy.Nimber(3)
Nimber(1)

A game of your own: subclass `Game` and list a position's moves; the engine does the rest
(memoisation, sums, mex, winning moves, misere play, loopy positions).

>>> class Euclid(grundy.Game):
...     def moves(self, pos):
...         a, b = pos
...         if a == 0 or b == 0:
...             return []
...         if a < b:
...             return [(a, b - k * a) for k in range(1, b // a + 1)]
...         return [(a - k * b, b) for k in range(1, a // b + 1)]
>>> grundy.analyze_game(Euclid(), (21, 13)).outcome
'P'

Errors are exceptions: `ExpressionError` (with the caret-annotated expression),
`ScriptError`, `LimitError`, `AnalysisError`, all subclasses of `GrundyError`. Exceptions
raised by your own code come through as themselves; Ctrl-C raises `KeyboardInterrupt`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Dict, Hashable, Iterable, List, Optional, Sequence, Tuple, Union

from . import _grundy
from ._grundy import (
    AnalysisError,
    ExpressionError,
    GrundyError,
    LimitError,
    Nimber,
    ScriptError,
)

__all__ = [
    "Analysis",
    "AnalysisError",
    "ComponentReport",
    "ComponentValue",
    "ExpressionError",
    "Game",
    "GameAnalysis",
    "Graph",
    "GraphSolution",
    "GrundyError",
    "HeapGame",
    "LimitError",
    "MapPeriod",
    "Nimber",
    "Period",
    "Quotient",
    "ScriptError",
    "Sequence",
    "VertexSolution",
    "WinningMove",
    "analyze",
    "analyze_game",
    "graph",
    "heap_game",
    "quotient",
    "rules",
    "schema",
    "sequence",
]

RulePaths = Union[str, os.PathLike, Sequence[Union[str, os.PathLike]], None]


def _scripts(rules: RulePaths) -> List[Tuple[str, str]]:
    """Reads rule scripts: one path or a list of paths -> [(source, name)]."""
    if rules is None:
        return []
    if isinstance(rules, (str, os.PathLike)):
        rules = [rules]
    out = []
    for path in rules:
        with open(path, encoding="utf-8") as f:
            out.append((f.read(), os.fspath(path)))
    return out


# -- The typed API ----------------------------------------------------------------------------
#
# Every answer below is the library's typed response (`grundy.schema()` has the JSON Schema of
# all of them): `_call` sends a request as JSON and reads the response, and each dataclass takes
# the fields it knows, keeping the whole response for `to_dict()`. A field added by a newer
# library is kept in `to_dict()` and never breaks the package.


def _call(kind: str, request: Dict[str, Any], rules: RulePaths = None) -> Dict[str, Any]:
    return json.loads(_grundy.call(kind, json.dumps(request), _scripts(rules)))


def _known(cls: Any, data: Dict[str, Any]) -> Dict[str, Any]:
    """The items of `data` that are fields of the dataclass `cls`."""
    names = {f.name for f in fields(cls) if not f.name.startswith("_")}
    return {k: v for k, v in data.items() if k in names}


def _limits(
    max_positions: Optional[int], max_work: Optional[int], max_memory: Optional[int]
) -> Dict[str, Any]:
    return {"max_positions": max_positions, "max_work": max_work, "max_memory": max_memory}


def schema() -> Dict[str, Any]:
    """The JSON Schema of every request and response: `$defs` names each type (`Analysis`,
    `SequenceReport`, ...); `to_dict()` of every answer here is an instance of one."""
    return json.loads(_grundy.schema())


# -- Expressions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ComponentReport:
    """One component of an analysed sum, the same fields whatever route answered: its
    expression, family ("nim", "heap", "board", ...), rule, value (None where none applies),
    and in misere play its genus ({"value": g, "exponents": [...]}) and whether it is tame,
    where computable within the limits."""

    expression: str
    family: str
    rule: str
    value: Optional[int]
    genus: Optional[Dict[str, Any]] = None
    tame: Optional[bool] = None


ComponentValue = ComponentReport


@dataclass(frozen=True)
class WinningMove:
    """A winning move: which component moves (0-based), what it does, and the whole position
    after it (`result`, an expression that `analyze` accepts)."""

    component: int
    move: str
    result: str


@dataclass(frozen=True)
class Analysis:
    """The analysis of a position: value, outcome, winning moves and why.

    `value` is the Sprague-Grundy value (None in misere play), `outcome` is "P" (the player
    to move loses) or "N" (the player to move wins). `winning_moves_complete` is False when
    some winning moves were left out (a limit), and `winning_moves_note` says why. `notes`
    are the teaching notes as plain data, each with a "kind": "mex_table", "staircase" or
    "period". `to_dict()` is the object the command line prints with `grundy analyze --json`.
    """

    expression: str
    misere: bool
    value: Optional[int]
    outcome: str
    components: List[ComponentReport]
    winning_moves: List[WinningMove]
    winning_moves_complete: bool
    winning_moves_note: Optional[str]
    explanation: List[str]
    notes: List[Dict[str, Any]]
    _raw: Dict[str, Any] = field(repr=False, compare=False)

    def to_dict(self) -> Dict[str, Any]:
        """The analysis as plain data, equal to the CLI's `--json` output."""
        return json.loads(json.dumps(self._raw))

    def __str__(self) -> str:
        value = "" if self.value is None else f", value {self.value}"
        return f"{self.expression}: {self.outcome}{value}"


def analyze(
    expression: str,
    misere: bool = False,
    *,
    engine: str = "fast",
    max_positions: Optional[int] = None,
    max_work: Optional[int] = None,
    max_memory: Optional[int] = None,
    rules: RulePaths = None,
) -> Analysis:
    """Analyses a position written in grundy's expression language.

    >>> a = analyze("nim 13 12 8")
    >>> a.value, [m.result for m in a.winning_moves]
    (9, ['nim 4 12 8', 'nim 13 5 8', 'nim 13 12 1'])

    misere: the player who makes the last move loses.
    engine: "fast" (closed forms, fast paths) or "generic" (search through the moves).
    max_positions, max_work: limits of the generic engines (LimitError past them).
    max_memory: the largest table in MiB (LimitError past it); by default 4 GiB or half
        the memory this machine and process have free, whichever is less.
    rules: a rule script (.rhai) or a list of them whose rules the expression may use.
    Raises ExpressionError for a malformed expression (the message points at it).
    """
    if engine not in ("fast", "generic"):
        raise ValueError(f'engine must be "fast" or "generic", not {engine!r}')
    request = {
        "expression": expression,
        "misere": misere,
        "engine": engine,
        "limits": _limits(max_positions, max_work, max_memory),
    }
    raw = _call("analyze", request, rules)
    fields_ = _known(Analysis, raw)
    fields_["components"] = [ComponentReport(**_known(ComponentReport, c)) for c in raw["components"]]
    fields_["winning_moves"] = [WinningMove(**_known(WinningMove, m)) for m in raw["winning_moves"]]
    return Analysis(**fields_, _raw=raw)


def rules(rules: RulePaths = None) -> List[Tuple[str, str]]:
    """Every rule of the expression language: (usage, summary), with those of `rules`."""
    return _grundy.rules(_scripts(rules))


# -- Nim-sequences ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    """g(n + period) = g(n) + saltus for every n >= preperiod; `proven` says whether a
    theorem proves it for every n, or it is only apparent in the values computed."""

    period: int
    preperiod: int
    saltus: int
    proven: bool
    proof: str
    text: str = ""


def _values(values: List[int]) -> Any:
    try:
        import numpy  # type: ignore
    except ImportError:
        return values
    return numpy.asarray(values, dtype=numpy.uint16)


@dataclass(frozen=True)
class Sequence:
    """A nim-sequence: `values[n]` is g(n) (a NumPy array when NumPy is installed, else a
    list), and its period if one shows (`proof` says where a proof stands: "not_asked",
    "proven", "gave_up"). `to_dict()` equals `grundy sequence --json`."""

    rule: str
    values: Any
    period: Optional[Period]
    computed: int = 0
    proof: str = "not_asked"
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        """The sequence as plain data, equal to the CLI's `sequence --json` output."""
        return json.loads(json.dumps(self._raw))

    def plot(self, path: Union[str, os.PathLike]) -> str:
        """Writes an SVG scatter plot of the sequence to `path` (ending in .svg)."""
        path = os.fspath(path)
        if not path.endswith(".svg"):
            raise ValueError(f"{path}: plots are written as SVG; give a name ending in .svg")
        values = [int(v) for v in self.values]
        with open(path, "w", encoding="utf-8") as f:
            f.write(_grundy.svg_plot(self.rule, values))
        return path


def _sequence(raw: Dict[str, Any]) -> Sequence:
    p = raw.get("period")
    fields_ = _known(Sequence, raw)
    fields_["values"] = _values(raw.get("values") or [])
    fields_["period"] = None if p is None else Period(**_known(Period, p))
    return Sequence(**fields_, _raw=raw)


def sequence(rule: str, to: int = 100, *, rules: RulePaths = None) -> Sequence:
    """The nim-sequence g(0), ..., g(to) of a heap rule, and its period.

    >>> s = sequence("kayles", to=200)
    >>> s.period.period, s.period.preperiod, s.period.proven
    (12, 71, True)

    rule: an octal or hex code ("0.137"), a named heap game ("kayles", "sub(1,3,4)"), or the
    name of a heap rule in one of the `rules` scripts.
    """
    return _sequence(_call("sequence", {"rule": rule, "to": to}, rules))


# -- Misere quotients ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MapPeriod:
    """The heap map repeats with `period` from heap `preperiod`: `proven` for every heap by the
    periodicity theorem (which `needed` heaps computed; `computed` were), or only observed."""

    period: int
    preperiod: int
    proven: bool
    needed: Optional[int]
    computed: int


@dataclass(frozen=True)
class Quotient:
    """The misere quotient of a heap rule's heaps 1 to `max_heap` (Plambeck-Siegel): a
    commutative monoid whose P-portion tells the misere outcome of every sum of those heaps.

    `elements` are the names of the elements (`table[x][y]` is the index of their product),
    `heap_map[n]` the name of heap n's element, `nim_map[m - 1]` that of the Nim heap *m when
    Nim heaps are in the closure. `to_dict()` equals `grundy quotient --json`.
    """

    rule: str
    max_heap: int
    order: int
    p_portion: List[str]
    elements: List[str]
    table: List[List[int]]
    heap_map: List[str]
    nim_map: List[str]
    period: Optional[MapPeriod]
    presentation: Dict[str, Any] = field(default_factory=dict)
    orders: List[int] = field(default_factory=list)
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        """The quotient as plain data, equal to the CLI's `quotient --json` output."""
        return json.loads(json.dumps(self._raw))


def quotient(rule: str, max_heap: int = 24, *, nim: int = 0, max_elements: int = 1024) -> Quotient:
    """The misere quotient of the heaps 1 to `max_heap` of a heap rule, with the Nim heaps
    *1 to *nim beside them when `nim` is given, computed heap by heap and verified on every
    sum of those heaps (as `grundy quotient` does; a period of the heap map is proven by the
    periodicity theorem where it applies, computing further heaps for it).

    >>> q = quotient("0.75")
    >>> q.order, q.p_portion
    (8, ['a', 'b²'])
    >>> q.period.period, q.period.preperiod, q.period.proven
    (2, 8, True)

    Outcomes of sums (with Nim heaps beside them too) come from `analyze(..., misere=True)`,
    which reads them through the same quotient.
    """
    request = {"rule": rule, "max_heap": max_heap, "nim": nim, "max_elements": max_elements}
    raw = _call("quotient", request)
    p = raw.get("period")
    fields_ = _known(Quotient, raw)
    fields_["nim_map"] = raw.get("nim_map") or []
    fields_["period"] = None if p is None else MapPeriod(**_known(MapPeriod, p))
    return Quotient(**fields_, _raw=raw)


class HeapGame:
    """A heap game given by a function: `moves(n)` lists, for each move from a heap of n,
    the heap left (an int) or the heaps left (a tuple of ints), each smaller than n."""

    def __init__(self, moves: Callable[[int], Iterable[Any]], name: str = "heap_game"):
        self.moves = moves
        self.name = name

    def sequence(self, to: int = 100, *, max_work: Optional[int] = None) -> Sequence:
        """g(0), ..., g(to) and the apparent period."""
        return _sequence(json.loads(_grundy.heap_sequence(self.moves, to, self.name, max_work)))

    def plot(self, path: Union[str, os.PathLike], to: int = 100) -> str:
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


# -- Games defined in Python --------------------------------------------------------------------


class Game:
    """Base class of a game of your own: define `moves(pos)`, the positions one move leads
    to (any hashable positions, e.g. tuples). Optionally define `components(pos)`, the
    independent parts a position splits into (their values nim-add); each part must split
    into itself alone."""

    def moves(self, pos: Hashable) -> Iterable[Hashable]:
        raise NotImplementedError("a Game defines moves(self, pos)")


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of a position of a game defined in Python.

    value: the Sprague-Grundy value (None in misere play and for Smith's infinite values,
    whose K is then in `infinite`); outcome: "P", "N" or "D" (a draw, loopy games only);
    winning_moves: the positions to move to (a P-position each); loopy: whether positions
    repeat (then the whole reachable graph was solved; `drawing_moves`, `remoteness`).
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
        """The analysis as a dict."""
        return dict(self.__dict__)


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
    outcome ("P", "N" or "D") and remoteness (None in a draw)."""

    value: Optional[int]
    infinite: Optional[List[int]]
    outcome: str
    remoteness: Optional[int]

    def __str__(self) -> str:
        if self.value is not None:
            return str(self.value)
        return "∞(" + ",".join(str(k) for k in self.infinite or []) + ")"


class GraphSolution(dict):
    """Vertex -> VertexSolution, for every vertex of a game graph. `to_dict()` equals
    `grundy graph FILE --json` for the same edges (vertices named by `str` when they are
    strings without spaces, else by their index in order of appearance)."""

    acyclic: bool
    _raw: Dict[str, Any]

    def to_dict(self) -> Dict[str, Any]:
        """The solution as plain data, equal to the CLI's `graph --json` output."""
        return json.loads(json.dumps(self._raw))


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

    def solve(self) -> GraphSolution:
        """Values, outcomes and remoteness of every vertex (loopy graphs too)."""
        if all(_name_ok(v) for v in self.vertices):
            names = [str(v) for v in self.vertices]
        else:
            names = [str(i) for i in range(len(self.vertices))]
        text = "".join(f"{names[a]} {names[b]}\n" for a, b in zip(self.sources, self.targets))
        raw = _call("graph", {"graph": text})
        vertex_of = dict(zip(names, self.vertices))
        out = GraphSolution()
        for row in raw["vertices"]:
            value = row["value"]
            infinite = value["inf"] if isinstance(value, dict) else None
            out[vertex_of[row["name"]]] = VertexSolution(
                None if infinite is not None else value, infinite, row["outcome"], row["remoteness"]
            )
        out.acyclic = raw["acyclic"]
        out._raw = raw
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
