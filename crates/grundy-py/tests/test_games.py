"""Games defined in Python: against the built-in fast paths, misere, loopy, and bad input."""

import random
import signal
import sys

import pytest

import grundy
from conftest import EXAMPLES

sys.path.insert(0, str(EXAMPLES))
from euclid import Euclid  # noqa: E402
from kayles import Kayles, kayles_heap  # noqa: E402


class Wythoff(grundy.Game):
    def moves(self, pos):
        x, y = pos
        return (
            [(x - i, y) for i in range(1, x + 1)]
            + [(x, y - j) for j in range(1, y + 1)]
            + [(x - k, y - k) for k in range(1, min(x, y) + 1)]
        )


class Subtraction(grundy.Game):
    """sub(1,3,4) on a tuple of heaps, split into heaps."""

    def moves(self, pos):
        return [
            tuple(sorted(pos[:i] + (h - s,) + pos[i + 1:]))
            for i, h in enumerate(pos)
            for s in (1, 3, 4)
            if s <= h
        ]

    def components(self, pos):
        return [(h,) for h in pos]


def _heaps(v):
    return " ".join(str(h) for h in v)


def test_python_games_agree_with_the_built_in_fast_paths():
    rng = random.Random(13)
    for _ in range(15):
        k = tuple(rng.randrange(0, 40) for _ in range(rng.randrange(1, 4)))
        x, y = rng.randrange(0, 20), rng.randrange(0, 20)
        s = tuple(rng.randrange(0, 60) for _ in range(rng.randrange(1, 4)))
        assert grundy.analyze_game(Kayles(), k).value == grundy.analyze(f"kayles {_heaps(k)}").value
        assert grundy.analyze_game(Wythoff(), (x, y)).value == grundy.analyze(f"wythoff {x} {y}").value
        assert (
            grundy.analyze_game(Subtraction(), s).value
            == grundy.analyze(f"sub(1,3,4) {_heaps(s)}").value
        )


def test_heap_game_matches_the_built_in_kayles():
    ours = grundy.heap_game(kayles_heap, "kayles").sequence(300)
    builtin = grundy.sequence("kayles", to=300)
    assert [int(v) for v in ours.values] == [int(v) for v in builtin.values]
    assert ours.period.period == 12 and not ours.period.proven


def test_euclid_and_winning_moves():
    a = grundy.analyze_game(Euclid(), (21, 13))
    assert a.outcome == "P" and a.value == 0 and a.winning_moves == []
    a = grundy.analyze_game(Euclid(), (5, 2))
    assert a.outcome == "N"
    for w in a.winning_moves:
        assert grundy.analyze_game(Euclid(), w).outcome == "P"


def test_misere_play():
    class Nim(grundy.Game):
        def moves(self, pos):
            return [tuple(sorted(pos[:i] + (t,) + pos[i + 1:])) for i, h in enumerate(pos) for t in range(h)]

    for heaps in [(1, 1, 1), (2, 2), (1, 2, 3), (1, 1), (4, 1, 5)]:
        ours = grundy.analyze_game(Nim(), heaps, misere=True)
        theirs = grundy.analyze(f"nim {_heaps(heaps)}", misere=True)
        assert ours.outcome == theirs.outcome, heaps
        assert ours.misere and ours.value is None


def test_loopy_games_go_through_the_graph_solver():
    class Cycle(grundy.Game):
        # 0 -> 1 -> 2 -> 0, and 2 -> "end" (a terminal position).
        def moves(self, pos):
            return {0: [1], 1: [2], 2: [0, "end"], "end": []}[pos]

    a = grundy.analyze_game(Cycle(), 0)
    assert a.loopy and a.positions == 4
    g = grundy.graph([(0, 1), (1, 2), (2, 0), (2, "end")]).solve()
    assert a.outcome == g[0].outcome
    assert (a.value, a.infinite) == (g[0].value, g[0].infinite)

    class Forever(grundy.Game):
        def moves(self, pos):
            return [1 - pos]

    a = grundy.analyze_game(Forever(), 0)
    assert a.outcome == "D" and a.value is None and a.drawing_moves == [1]


def test_user_exceptions_propagate_as_themselves():
    class Broken(grundy.Game):
        def moves(self, pos):
            if pos == 3:
                raise ZeroDivisionError("the user's own bug")
            return [pos + 1]

    with pytest.raises(ZeroDivisionError, match="the user's own bug"):
        grundy.analyze_game(Broken(), 0)
    with pytest.raises(KeyError):
        grundy.heap_game(lambda n: {}[n]).sequence(5)


def test_bad_positions_are_type_errors():
    class Lists(grundy.Game):
        def moves(self, pos):
            return [[1, 2]]

    with pytest.raises(TypeError, match="unhashable"):
        grundy.analyze_game(Lists(), 0)
    with pytest.raises(TypeError, match="unhashable"):
        grundy.analyze_game(Euclid(), [21, 13])

    class NotIterable(grundy.Game):
        def moves(self, pos):
            return 5

    with pytest.raises(TypeError, match="iterable"):
        grundy.analyze_game(NotIterable(), 0)
    with pytest.raises(TypeError):
        grundy.heap_game(lambda n: ["x"] if n else []).sequence(3)
    with pytest.raises(grundy.AnalysisError, match="smaller"):
        grundy.heap_game(lambda n: [n]).sequence(3)
    with pytest.raises(TypeError, match="moves"):
        grundy.analyze_game(object(), 0)


def test_limits():
    class Chain(grundy.Game):
        def moves(self, pos):
            return [pos - 1] if pos > 0 else []

    with pytest.raises(grundy.LimitError, match="position limit"):
        grundy.analyze_game(Chain(), 10_000, max_positions=100)
    assert grundy.analyze_game(Chain(), 10_000).value == 0


def _interrupt_after(seconds):
    # A shell that starts the tests in the background ignores SIGINT, and Python then keeps
    # it ignored: the handler that turns Ctrl-C into KeyboardInterrupt is installed here.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    previous = signal.signal(signal.SIGALRM, lambda *_: signal.raise_signal(signal.SIGINT))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return previous


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX timers")
def test_ctrl_c_interrupts_long_computations():
    class Chain(grundy.Game):
        def moves(self, pos):
            return [pos - 1] if pos > 0 else []

    previous = _interrupt_after(0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            grundy.analyze_game(Chain(), 10**9, max_positions=10**9)
        _interrupt_after(0.3)
        with pytest.raises(KeyboardInterrupt):
            grundy.analyze("kayles 20000 + nim 1", engine="generic", max_work=10**15)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_heap_game_plot(tmp_path):
    squares = grundy.heap_game(lambda n: [n - k * k for k in range(1, int(n**0.5) + 1)], "square")
    path = squares.plot(tmp_path / "square.svg", to=200)
    assert open(path).read().startswith("<svg")
    with pytest.raises(ValueError, match="svg"):
        squares.plot(tmp_path / "square.png", to=10)
    s = squares.sequence(to=267)
    published = [0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95]
    assert [n for n, v in enumerate(s.values) if v == 0][: len(published)] == published
