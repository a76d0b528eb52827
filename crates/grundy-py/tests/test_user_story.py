"""Issue 13's user story, line by line, and the bad input it names; the help texts and stubs."""

import ast
import inspect
import os
import pathlib
import pydoc

import pytest

import grundy
from grundy import _grundy


def test_the_issue_user_story_line_by_line(tmp_path):
    a = grundy.analyze("kayles 10 + nim 3")
    assert (a.value, a.outcome) == (1, "N")
    assert a.winning_moves[0].result == "kayles 1 7 + nim 3"
    assert grundy.analyze(a.winning_moves[0].result).value == 0
    # What the moving component becomes, typed: the heap of 10 splits into 1 and 7.
    assert a.winning_moves[0].becomes == [
        {"family": "heap", "rule": "kayles", "args": ["1"]},
        {"family": "heap", "rule": "kayles", "args": ["7"]},
    ]

    p = grundy.sequence("0.137", to=1000).period
    assert (p.period, p.preperiod, p.proven) == (34, 52, True)

    assert grundy.Nimber(2) * grundy.Nimber(3) == grundy.Nimber(1)
    assert grundy.Nimber(2) ^ 3 == grundy.Nimber(1)

    s = grundy.graph([(1, 2), (2, 3)]).solve()
    assert (s[1].value, s[1].outcome, s[2].outcome) == (0, "P", "N")
    loopy = grundy.graph([(1, 2), (2, 1), (3, 4), (4, 3), (4, 5)]).solve()
    assert (loopy[1].outcome, loopy[2].outcome) == ("D", "D")  # a cycle with no way out
    assert (loopy[3].outcome, loopy[4].outcome) == ("P", "N")  # 4 escapes to 5, so 3 loses
    assert not loopy.acyclic

    class Euclid(grundy.Game):
        """Positions (a, b); a position with both numbers positive is one game, and the
        components split off nothing (it is here to show the hook)."""

        def moves(self, pos):
            a, b = pos
            if a == 0 or b == 0:
                return []
            if a < b:
                return [(a, b - k * a) for k in range(1, b // a + 1)]
            return [(a - k * b, b) for k in range(1, a // b + 1)]

        def components(self, pos):
            return [pos]

    e = grundy.analyze_game(Euclid(), (21, 13))
    assert (e.value, e.outcome, e.winning_moves) == (0, "P", [])
    assert grundy.analyze_game(Euclid(), (5, 2)).winning_moves == [(3, 2)]  # 3/2 < golden ratio

    squares = grundy.heap_game(lambda n: [n - k * k for k in range(1, int(n**0.5) + 1)])
    seq = squares.sequence(to=1000)
    assert [n for n, v in enumerate(seq.values) if v == 0][:6] == [0, 2, 5, 7, 10, 12]
    assert seq.period is None  # subtract-a-square has no period
    three = grundy.heap_game(lambda n: [n - k for k in (1, 2, 3) if k <= n])
    assert (three.sequence(to=100).period.period, three.sequence(to=100).period.proven) == (4, False)
    path = squares.plot(tmp_path / "squares.svg", to=1000)
    assert pathlib.Path(path).read_text().startswith("<svg")


def test_a_game_with_components_splits_its_positions():
    class Heaps(grundy.Game):
        """Nim on a tuple of heaps, split into single heaps."""

        calls = 0

        def moves(self, pos):
            Heaps.calls += 1
            (n,) = pos
            return [(k,) for k in range(n)]

        def components(self, pos):
            return [(h,) for h in pos if h]

    a = grundy.analyze_game(Heaps(), (3, 5, 6))
    assert (a.value, a.outcome) == (0, "P")
    # Memoised per heap: each heap size's moves are listed once.
    assert Heaps.calls <= 7


def test_recursion_forever_in_python_is_an_exception_not_a_crash():
    class Recursive(grundy.Game):
        def moves(self, pos):
            return self.moves(pos)

    with pytest.raises(RecursionError):
        grundy.analyze_game(Recursive(), 0)

    class Upwards(grundy.Game):
        """Every position has a larger one after it: the game never ends."""

        def moves(self, pos):
            return [pos + 1]

    with pytest.raises(grundy.LimitError, match="limit"):
        grundy.analyze_game(Upwards(), 0, max_positions=10_000)
    with pytest.raises(grundy.AnalysisError, match="smaller"):
        grundy.heap_game(lambda n: [n + 1]).sequence(5)


def _script(tmp_path, name, body, heap=True):
    path = tmp_path / name
    path.write_text(
        f'const NAME = "x"; const HEAP = {"true" if heap else "false"};\n'
        f"fn moves(n) {{\n{body}\n}}\n"
    )
    return path


@pytest.mark.parametrize(
    "body,says,place",
    [
        # Rhai reports its limits without a place: the message names the function instead.
        ("  loop { }", "operations", "bad.rhai: "),
        ("  moves(n)", "nest deeper", "bad.rhai: "),
        ('  let s = "ab"; loop { s += s; }', "too large", "bad.rhai: "),
        ("  let a = [1]; loop { a.append(a); }", "too large", "bad.rhai: "),
        ('  open_file("/etc/passwd")', "open_file", "bad.rhai:3:"),
        ('  throw "no moves here"', "no moves here", "bad.rhai:3:"),
    ],
)
def test_bad_scripts_are_script_errors(tmp_path, body, says, place):
    path = _script(tmp_path, "bad.rhai", body)
    for run in (
        lambda: grundy.analyze("x 5 + nim 1", rules=path),
        lambda: grundy.analyze("x 5", misere=True, rules=path),
        lambda: grundy.sequence("x", to=10, rules=path),
    ):
        with pytest.raises(grundy.ScriptError) as e:
            run()
        assert place in str(e.value) and says in str(e.value), str(e.value)
        assert "in `moves`" in str(e.value) or place.endswith(":3:")
    # The package goes on working afterwards.
    assert grundy.analyze("nim 1 2 3").outcome == "P"


def test_scripts_cannot_import_files(tmp_path):
    path = tmp_path / "import.rhai"
    path.write_text('import "os" as os;\nconst NAME = "x";\nfn moves(p) { [] }\n')
    with pytest.raises(grundy.ScriptError, match="import.rhai:1:"):
        grundy.analyze("x 1", rules=path)


def test_every_public_function_teaches_through_help():
    text = pydoc.render_doc(grundy, renderer=pydoc.plaintext)
    for name in grundy.__all__:
        obj = getattr(grundy, name)
        doc = inspect.getdoc(obj)
        assert doc and len(doc) > 30, name
        assert name in text, name
    for name in ("analyze", "sequence", "analyze_game", "heap_game", "graph"):
        assert ">>>" in inspect.getdoc(getattr(grundy, name)) or name in ("analyze_game",), name


def test_the_stubs_match_the_native_module():
    stub = pathlib.Path(_grundy.__file__).parent / "_grundy.pyi"
    tree = ast.parse(stub.read_text())
    stubbed = {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
    }
    native = {name for name in dir(_grundy) if not name.startswith("_")}
    assert stubbed == native
    # Each stubbed function takes the parameters the native one does, by name.
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            params = [a.arg for a in node.args.args]
            signature = inspect.signature(getattr(_grundy, node.name))
            assert params == list(signature.parameters), node.name
    assert (pathlib.Path(grundy.__file__).parent / "py.typed").exists()
    assert os.path.basename(grundy.__file__) == "__init__.py"
