"""grundy: impartial combinatorial games in Python, on grundy's Rust engines.

Who wins, with which move, and why: Sprague-Grundy values of sums, nim-sequences of heap
games and their periods, misere quotients, nim arithmetic, game graphs (loopy ones too), and
games of your own.

Where to start:

- `analyze("kayles 10 + nim 3")`: value, outcome, winning moves and why, of any position of
  the expression language (`rules()` lists its rules);
- `sequence("0.137", to=1000)`: a heap rule's nim-sequence and its period;
- `quotient("0.75")`: a misere quotient;
- `atlas("0.??", db="atlas.sqlite")`: the rows of a census database (`grundy census`);
- `graph(edges).solve()`: every vertex of a game graph;
- `analyze_game(MyGame(), position)` with `class MyGame(Game)` defining `moves(pos)`.

In a notebook each answer shows as a table with the library's pictures; `to_dict()` of an
answer equals the command line's `--json`, and sequences, graph solutions and quotients have
`to_numpy()` and `to_pandas()` (with numpy or pandas installed).

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

from ._api import (
    Analysis,
    ComponentReport,
    ComponentValue,
    MapPeriod,
    Period,
    Quotient,
    Sequence,
    WinningMove,
    analyze,
    quotient,
    rules,
    schema,
    sequence,
)
from ._atlas import FamilyRows, GameCard, GameRow, MisereRow, ProvenTwin, Twin, atlas
from ._games import (
    Game,
    GameAnalysis,
    Graph,
    GraphSolution,
    HeapGame,
    VertexSolution,
    analyze_game,
    graph,
    heap_game,
)
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
    "FamilyRows",
    "Game",
    "GameAnalysis",
    "GameCard",
    "GameRow",
    "Graph",
    "GraphSolution",
    "GrundyError",
    "HeapGame",
    "LimitError",
    "MapPeriod",
    "MisereRow",
    "Nimber",
    "Period",
    "ProvenTwin",
    "Quotient",
    "ScriptError",
    "Sequence",
    "Twin",
    "VertexSolution",
    "WinningMove",
    "analyze",
    "analyze_game",
    "atlas",
    "graph",
    "heap_game",
    "quotient",
    "rules",
    "schema",
    "sequence",
]


def _home() -> None:
    """The public classes and functions defined in the private modules name `grundy` as
    their module, as `help()`, reprs and pickles show them."""
    for name in __all__:
        obj = globals()[name]
        if getattr(obj, "__module__", "") in ("grundy._api", "grundy._atlas", "grundy._games"):
            obj.__module__ = __name__


_home()
del _home
