"""The typed API: analyses, nim-sequences and misere quotients of the library's rules.

Every answer here is the library's typed response (`grundy.schema()` has the JSON Schema of
all of them): `_call` sends a request as JSON and reads the response, and each dataclass takes
the fields it knows, keeping the whole response for `to_dict()`. A field added by a newer
library is kept in `to_dict()` and never breaks the package.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from typing import Any, Dict, List, Optional, Sequence as _Seq, Tuple, Union

from . import _display, _frames, _grundy

RulePaths = Union[str, "os.PathLike[str]", _Seq[Union[str, "os.PathLike[str]"]], None]


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


def _call(
    kind: str,
    request: Dict[str, Any],
    scripts: List[Tuple[str, str]],
    checkpoint: Optional[str] = None,
    end_table: Optional[str] = None,
    end_rows: int = 7,
) -> Dict[str, Any]:
    return json.loads(
        _grundy.call(kind, json.dumps(request), scripts, checkpoint, end_table, end_rows)
    )


def _known(cls: Any, data: Dict[str, Any]) -> Dict[str, Any]:
    """The items of `data` that are fields of the dataclass `cls`."""
    names = {f.name for f in fields(cls) if not f.name.startswith("_")}
    return {k: v for k, v in data.items() if k in names}


def _plain(data: Any) -> Any:
    """A deep copy of JSON data (what `to_dict()` hands out, so the answer stays intact)."""
    return json.loads(json.dumps(data))


class _Part:
    """A part of an answer: `to_dict()` is its part of the response, as the CLI prints it."""

    _raw: Dict[str, Any]

    def to_dict(self) -> Dict[str, Any]:
        """This part as plain data, equal to its part of the CLI's `--json` output."""
        if self._raw:
            return _plain(self._raw)
        return {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")}  # type: ignore[arg-type]


def _limits(
    max_positions: Optional[int], max_work: Optional[int], max_memory: Optional[int]
) -> Dict[str, Any]:
    return {"max_positions": max_positions, "max_work": max_work, "max_memory": max_memory}


def schema() -> Dict[str, Any]:
    """The JSON Schema of every request and response: `$defs` names each type (`Analysis`,
    `SequenceReport`, ...); `to_dict()` of every answer here is an instance of one."""
    return json.loads(_grundy.schema())


def rules(rules: RulePaths = None) -> List[Tuple[str, str]]:
    """Every rule of the expression language: (usage, summary), with those of `rules`."""
    return _grundy.rules(_scripts(rules))


# -- Expressions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ComponentReport(_Part):
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
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)


ComponentValue = ComponentReport


@dataclass(frozen=True)
class WinningMove(_Part):
    """A winning move: which component moves (0-based), what it does, the whole position
    after it (`result`, an expression that `analyze` accepts), and what the moving component
    becomes as typed values (`becomes`: a list of {"family", "rule", "args"}; empty when it
    vanishes, two items when a heap splits)."""

    component: int
    move: str
    result: str
    becomes: List[Dict[str, Any]] = field(default_factory=list)
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True, repr=False)
class Analysis(_Part):
    """The analysis of a position: value, outcome, winning moves and why.

    `value` is the Sprague-Grundy value (None in misere play), `outcome` is "P" (the player
    to move loses) or "N" (the player to move wins). `winning_moves_complete` is False when
    some winning moves were left out (a limit), and `winning_moves_note` says why. `notes`
    are the teaching notes as plain data, each with a "kind": "mex_table", "staircase" or
    "period". `to_dict()` is the object the command line prints with `grundy analyze --json`.
    In a notebook it shows as a table, with the game graph of a small position coloured P/N
    and Hackenbush pictures with the winning cuts marked (`pictures()`).
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
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    _scripts: List[Tuple[str, str]] = field(repr=False, compare=False, default_factory=list)

    def __str__(self) -> str:
        value = "" if self.value is None else f", value {self.value}"
        return f"{self.expression}: {self.outcome}{value}"

    def __repr__(self) -> str:
        play = " (misere)" if self.misere else ""
        value = "" if self.value is None else f", value {self.value}"
        moves = len(self.winning_moves)
        return (
            f"<Analysis {_display.clip(self.expression)!r}{play}: {self.outcome}{value}, "
            f"{moves} winning move{'' if moves == 1 else 's'}>"
        )

    def pictures(self) -> Dict[str, Any]:
        """The library's pictures of the position, as SVG text: `graph` (the game graph
        coloured P/N with the winning moves thick, or None when too many positions are
        reachable, `graph_note` saying why) and `hackenbush` (each Hackenbush component with
        its winning cuts dashed red)."""
        svg, note, hackenbush = _grundy.position_pictures(
            self.expression, self.misere, self._scripts
        )
        return {"graph": svg, "graph_note": note, "hackenbush": hackenbush}

    def _repr_html_(self) -> str:
        return _display.analysis_html(self)


def analyze(
    expression: str,
    misere: bool = False,
    *,
    engine: str = "fast",
    max_positions: Optional[int] = None,
    max_work: Optional[int] = None,
    max_memory: Optional[int] = None,
    rules: RulePaths = None,
    moves: str = "all",
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    threads: int = 1,
    end_table: Optional[Union[str, "os.PathLike[str]"]] = None,
    end_rows: int = 7,
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
    moves: which winning moves to look for: "all", "one" (the search stops at the first)
        or "none" (the value alone: for a board game often far quicker).
    checkpoint: a file that keeps the search table of the expression's Cram board: read
        first if it exists, written when the analysis ends (answered, or stopped by a limit
        or KeyboardInterrupt), so that the same call again goes on from what was proved.
    threads: threads for the position search of a board's value (2 for both cores of a
        two-core machine); winning moves and other engines use one.
    end_table: a file of the values of every Cram region of a box four cells wide and
        end_rows (1 to 7) tall: read if it exists, else computed (7 rows: about 6 s and
        128 MiB) and written; the search never searches such a region. Same answers, sooner.
        A damaged file or end_rows outside 1 to 7: ValueError; a file that cannot be
        read or written: OSError.
    Raises ExpressionError for a malformed expression (the message points at it).
    """
    if engine not in ("fast", "generic"):
        raise ValueError(f'engine must be "fast" or "generic", not {engine!r}')
    if moves not in ("all", "one", "none"):
        raise ValueError(f'moves must be "all", "one" or "none", not {moves!r}')
    request = {
        "expression": expression,
        "misere": misere,
        "engine": engine,
        "limits": {**_limits(max_positions, max_work, max_memory), "threads": threads},
        "moves": moves,
    }
    scripts = _scripts(rules)
    path = None if checkpoint is None else os.fspath(checkpoint)
    end = None if end_table is None else os.fspath(end_table)
    raw = _call("analyze", request, scripts, path, end, end_rows)
    fields_ = _known(Analysis, raw)
    fields_["components"] = [
        ComponentReport(**_known(ComponentReport, c), _raw=c) for c in raw["components"]
    ]
    fields_["winning_moves"] = [
        WinningMove(**_known(WinningMove, m), _raw=m) for m in raw["winning_moves"]
    ]
    return Analysis(**fields_, _raw=raw, _scripts=scripts)


# -- Nim-sequences ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Period(_Part):
    """g(n + period) = g(n) + saltus for every n >= preperiod; `proven` says whether a
    theorem proves it for every n, or it is only apparent in the values computed."""

    period: int
    preperiod: int
    saltus: int
    proven: bool
    proof: str
    text: str = ""
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)


def _values(values: List[int]) -> Any:
    try:
        import numpy  # type: ignore
    except ImportError:
        return values
    return numpy.asarray(values, dtype=numpy.uint16)


@dataclass(frozen=True, repr=False)
class Sequence(_Part):
    """A nim-sequence: `values[n]` is g(n) (a NumPy array when NumPy is installed, else a
    list), and its period if one shows (`proof` says where a proof stands: "not_asked",
    "proven", "gave_up"). `to_dict()` equals `grundy sequence --json`; `to_numpy()` and
    `to_pandas()` give the values as an array or a data frame; in a notebook it shows as its
    plot (the period shaded) and its first values."""

    rule: str
    values: Any
    period: Optional[Period]
    computed: int = 0
    proof: str = "not_asked"
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def __repr__(self) -> str:
        values = [int(v) for v in self.values]
        first = " ".join(str(v) for v in values[:12]) + (" ..." if len(values) > 12 else "")
        if self.period is None:
            period = "no period"
        else:
            p = self.period
            saltus = f", saltus {p.saltus}" if p.saltus else ""
            proven = "proven" if p.proven else "apparent"
            period = f"period {p.period} from {p.preperiod}{saltus} ({proven})"
        return f"<Sequence {self.rule}, g(0..{len(values) - 1}) = {first}; {period}>"

    def svg(self) -> str:
        """The plot of g(n) as SVG text, drawn by the library as the web page shows it:
        zeros (P-positions) ringed red, the preperiod dashed and one period shaded."""
        p = self.period
        period = None if p is None else (p.period, p.preperiod, p.saltus, p.proven)
        return _grundy.sequence_svg(self.rule, [int(v) for v in self.values], period)

    def plot(self, path: Union[str, "os.PathLike[str]"]) -> str:
        """Writes the plot (`svg()`) to `path` (ending in .svg)."""
        path = os.fspath(path)
        if not path.endswith(".svg"):
            raise ValueError(f"{path}: plots are written as SVG; give a name ending in .svg")
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg())
        return path

    def to_numpy(self) -> Any:
        """g(0), g(1), ... as a NumPy array (uint16). Needs numpy."""
        return _frames.sequence_numpy(self)

    def to_pandas(self) -> Any:
        """A pandas DataFrame indexed by the heap `n`, with the column `g`. Needs pandas."""
        return _frames.sequence_pandas(self)

    def _repr_html_(self) -> str:
        return _display.sequence_html(self)


def _sequence(raw: Dict[str, Any]) -> Sequence:
    p = raw.get("period")
    fields_ = _known(Sequence, raw)
    fields_["values"] = _values(raw.get("values") or [])
    fields_["period"] = None if p is None else Period(**_known(Period, p), _raw=p)
    return Sequence(**fields_, _raw=raw)


def sequence(rule: str, to: int = 100, *, rules: RulePaths = None) -> Sequence:
    """The nim-sequence g(0), ..., g(to) of a heap rule, and its period.

    >>> s = sequence("kayles", to=200)
    >>> s.period.period, s.period.preperiod, s.period.proven
    (12, 71, True)

    rule: an octal or hex code ("0.137"), a named heap game ("kayles", "sub(1,3,4)"), or the
    name of a heap rule in one of the `rules` scripts.
    """
    return _sequence(_call("sequence", {"rule": rule, "to": to}, _scripts(rules)))


# -- Misere quotients ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MapPeriod(_Part):
    """The heap map repeats with `period` from heap `preperiod`: `proven` for every heap by the
    periodicity theorem (which `needed` heaps computed; `computed` were), or only observed."""

    period: int
    preperiod: int
    proven: bool
    needed: Optional[int]
    computed: int
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True, repr=False)
class Quotient(_Part):
    """The misere quotient of a heap rule's heaps 1 to `max_heap` (Plambeck-Siegel): a
    commutative monoid whose P-portion tells the misere outcome of every sum of those heaps.

    `elements` are the names of the elements (`table[x][y]` is the index of their product),
    `heap_map[n]` the name of heap n's element, `nim_map[m - 1]` that of the Nim heap *m when
    Nim heaps are in the closure. `to_dict()` equals `grundy quotient --json`; `to_numpy()`
    is the table of indices, `to_pandas()` the table of names; in a notebook it shows as its
    order, P-portion, heap map and table.
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

    def __repr__(self) -> str:
        p_portion = "{" + ", ".join(self.p_portion) + "}"
        period = ""
        if self.period is not None:
            proven = "proven" if self.period.proven else "apparent"
            period = f"; map period {self.period.period} from {self.period.preperiod} ({proven})"
        return (
            f"<Quotient {self.rule}, heaps 1..{self.max_heap}: order {self.order}, "
            f"P-portion {_display.clip(p_portion)}{period}>"
        )

    def to_numpy(self) -> Any:
        """The multiplication table as a NumPy array of element indices (`elements[i]`
        names index i). Needs numpy."""
        return _frames.quotient_numpy(self)

    def to_pandas(self) -> Any:
        """The multiplication table as a pandas DataFrame: rows and columns the elements'
        names, entries their products' names. Needs pandas."""
        return _frames.quotient_pandas(self)

    def _repr_html_(self) -> str:
        return _display.quotient_html(self)


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
    raw = _call("quotient", request, [])
    p = raw.get("period")
    fields_ = _known(Quotient, raw)
    fields_["nim_map"] = raw.get("nim_map") or []
    fields_["period"] = None if p is None else MapPeriod(**_known(MapPeriod, p), _raw=p)
    return Quotient(**fields_, _raw=raw)
