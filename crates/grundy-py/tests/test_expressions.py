"""Expressions, sequences, nimbers and graphs: the package against the command line."""

import subprocess
import sys

import pytest

import grundy
from conftest import EXAMPLES


@pytest.mark.parametrize(
    "expr,misere",
    [
        ("kayles 10 + nim 3", False),
        ("nim 13 12 8", False),
        ("nim 3 4 5", True),
        ("wythoff 3 5 + 0.137 20 + sub(1,3,4) 100", False),
        ("hackenbush 0-1 1-2 1-3 + mock-turtles 0 3 5", False),
        ("0", False),
    ],
)
def test_analyze_equals_the_cli_json(cli, expr, misere):
    a = grundy.analyze(expr, misere=misere)
    args = ["analyze", "--json", expr] + (["--misere"] if misere else [])
    assert a.to_dict() == cli(*args)


def test_analysis_attributes():
    a = grundy.analyze("kayles 10 + nim 3")
    assert a.value == 1 and a.outcome == "N"
    assert a.components[1].expression == "nim 3"
    for m in a.winning_moves:
        assert grundy.analyze(m.result).value == 0
    assert any("nim-sum" in line for line in a.explanation)


@pytest.mark.parametrize("moves,flag", [("none", "--no-moves"), ("one", "--one-move")])
def test_the_value_alone_or_one_move_equals_the_cli(cli, moves, flag):
    a = grundy.analyze("cram 3x5 + nim 2", moves=moves)
    assert a.to_dict() == cli("analyze", "--json", "cram 3x5 + nim 2", flag)
    assert a.value == 3 and not a.winning_moves_complete
    assert len(a.winning_moves) == (0 if moves == "none" else 1)
    with pytest.raises(ValueError, match="moves must be"):
        grundy.analyze("nim 1", moves="some")


def test_a_checkpoint_keeps_a_search_stopped_by_its_limit(tmp_path):
    table = tmp_path / "cram-5x8.tbl"
    values = []
    for _ in range(60):
        a = grundy.analyze("cram 5x8", moves="none", max_work=3_000_000, checkpoint=table)
        values.append(a.value)
        if a.value is not None:
            break
    # Several runs stopped short, each going on from the last one's table, then the value.
    assert values[0] is None and values[-1] == 1 and len(values) > 2, values
    assert table.stat().st_size > 1000
    (tmp_path / "other.tbl").write_text("not a table\n")
    with pytest.raises(ValueError, match="not a search table"):
        grundy.analyze("cram 5x8", checkpoint=str(tmp_path / "other.tbl"))
    with pytest.raises(ValueError, match="one Cram board"):
        grundy.analyze("nim 3 4", checkpoint=table)


def test_two_threads_give_the_value_of_one(cli, tmp_path):
    one = grundy.analyze("cram 5x5 + nim 2", moves="none")
    two = grundy.analyze("cram 5x5 + nim 2", moves="none", threads=2)
    assert two.value == one.value == cli("analyze", "--json", "cram 5x5 + nim 2", "--no-moves")["value"]
    # The checkpoint of a search on two threads is read by one thread, and back.
    table = tmp_path / "cram-5x7.tbl"
    a = grundy.analyze("cram 5x7", moves="none", threads=2, checkpoint=table)
    b = grundy.analyze("cram 5x7", moves="none", checkpoint=table)
    assert a.value == b.value == 1 and table.stat().st_size > 1000
    with pytest.raises(ValueError, match="threads 0"):
        grundy.analyze("cram 3x3", threads=0)


def test_expression_errors_carry_the_located_message():
    with pytest.raises(grundy.ExpressionError) as e:
        grundy.analyze("nim 3 + nmi 4")
    assert "^^^ unknown rule `nmi`" in str(e.value)
    assert e.value.span == (8, 11)
    assert isinstance(e.value, grundy.GrundyError)


def test_limits_raise_limit_error():
    with pytest.raises(grundy.LimitError, match="limit"):
        grundy.analyze("kayles 60", engine="generic", max_work=100)
    with pytest.raises(grundy.LimitError, match="memory limit of 50 MiB"):
        grundy.analyze("cram 100x100 + nim 1", misere=True, max_memory=50)
    with pytest.raises(ValueError, match="too large"):
        grundy.analyze("nim 1", max_memory=2**63)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as on Linux")
def test_a_table_past_the_address_space_limit_is_refused_not_aborted():
    # With the 4 GiB default this table passed the budget's check and its allocation failed
    # under a 1.5 GB address-space cap, which aborts the interpreter (the CLI did so, exit
    # 134). The default limit is now at most half the memory the process can still map.
    script = (
        "import resource, grundy\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))\n"
        "try:\n"
        "    grundy.analyze('cram 100x100 + nim 1', misere=True)\n"
        "except grundy.LimitError as e:\n"
        "    print('refused:', e)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "refused:" in run.stdout and "memory limit of" in run.stdout, run.stdout


def test_sequence_equals_the_cli_json(cli):
    s = grundy.sequence("0.137", to=300)
    assert s.to_dict() == cli("sequence", "0.137", "--to", "300", "--json")
    assert s.period.period == 34 and s.period.proven
    assert int(s.values[0]) == 0 and len(s.values) == 301


def test_quotient_equals_the_cli_json(cli):
    q = grundy.quotient("0.75")
    assert q.to_dict() == cli("quotient", "0.75", "--json")
    assert q.order == 8 and len(q.p_portion) == 2 and q.nim_map == []
    assert q.period.proven and (q.period.period, q.period.preperiod) == (2, 8)
    k = grundy.quotient("kayles", max_heap=120, nim=2)
    assert k.to_dict() == cli("quotient", "kayles", "--max-heap", "120", "--nim", "2", "--json")
    # Kayles heaps 1 and 2 are *1 and *2: the same elements.
    assert k.nim_map == k.heap_map[1:3] and k.order == 40 and k.period.proven


def test_quotient_refusals():
    with pytest.raises(grundy.LimitError, match="elements"):
        grundy.quotient("0.137", max_heap=20, max_elements=10)
    with pytest.raises(ValueError, match="heap bound"):
        grundy.quotient("0.75", max_heap=5000)
    with pytest.raises(ValueError, match="Nim heaps"):
        grundy.quotient("0.75", nim=65)
    with pytest.raises(grundy.ExpressionError):
        grundy.quotient("0.7x")


def test_sequence_values_are_numpy_when_numpy_is_installed():
    s = grundy.sequence("kayles", to=50)
    try:
        import numpy
    except ImportError:
        assert isinstance(s.values, list)
    else:
        assert isinstance(s.values, numpy.ndarray)


def test_nimber_arithmetic():
    N = grundy.Nimber
    assert N(2) * N(3) == N(1)
    assert N(4) * N(4) == N(6)
    assert N(13) ^ N(12) ^ 8 == N(9)
    assert int(N(7)) == 7 and repr(N(7)) == "Nimber(7)" and str(N(7)) == "*7"
    assert N(7) * N(7).inverse() == N(1)
    assert {N(3): "x"}[N(3)] == "x"
    with pytest.raises(ValueError):
        N(-1)
    with pytest.raises(ZeroDivisionError):
        N(0).inverse()


def test_graphs_finite_and_loopy():
    s = grundy.graph([(1, 2), (2, 3)]).solve()
    assert (s[3].value, s[2].value, s[1].value) == (0, 1, 0)
    assert s[1].outcome == "P" and s.acyclic
    s = grundy.graph([("a", "b"), ("b", "a"), ("b", "c")]).solve()
    assert s["b"].outcome == "N" and s["a"].outcome == "P"
    loop = grundy.graph([("x", "y"), ("y", "x")]).solve()
    assert loop["x"].outcome == "D" and loop["x"].value is None and str(loop["x"]) == "∞()"


def test_rule_scripts_from_python(cli):
    euclid = EXAMPLES / "euclid.rhai"
    a = grundy.analyze("euclid 21 13 + nim 4", rules=euclid)
    assert a.to_dict() == cli("analyze", "--json", "--rules", str(euclid), "euclid 21 13 + nim 4")
    s = grundy.sequence("square", to=40, rules=[EXAMPLES / "subtract-square.rhai"])
    assert [n for n, v in enumerate(s.values) if v == 0][:6] == [0, 2, 5, 7, 10, 12]
    with pytest.raises(grundy.ScriptError, match="3:"):
        grundy.analyze("x 1", rules=_write("bad.rhai", 'const NAME = "x";\nfn moves(p) {\n [p +]\n}'))


def _write(name, text):
    import tempfile, os

    path = os.path.join(tempfile.mkdtemp(), name)
    with open(path, "w") as f:
        f.write(text)
    return path


def test_the_docstring_examples_run():
    import doctest

    failures, tried = doctest.testmod(grundy)
    assert tried > 10 and failures == 0


def test_an_end_table_is_made_once_and_changes_no_answer(tmp_path):
    table = tmp_path / "end.tbl"
    plain = grundy.analyze("cram 5x5 + nim 1")
    first = grundy.analyze("cram 5x5 + nim 1", end_table=table, end_rows=4)
    assert table.stat().st_size > 32768
    made = table.stat().st_mtime_ns
    second = grundy.analyze("cram 4x9", moves="none", end_table=table)
    assert table.stat().st_mtime_ns == made, "read, not made again"
    assert first.value == plain.value and second.value == 1
    assert [m.result for m in first.winning_moves] == [m.result for m in plain.winning_moves]
    with pytest.raises(ValueError, match="1 to 7 rows"):
        grundy.analyze("cram 3x3", end_table=tmp_path / "tall.tbl", end_rows=8)
    (tmp_path / "bad.tbl").write_text("not a table\n")
    with pytest.raises(ValueError, match="not an end table"):
        grundy.analyze("cram 3x3", end_table=tmp_path / "bad.tbl")
