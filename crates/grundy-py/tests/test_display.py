"""What a notebook shows: each answer's `_repr_html_` holds the library's own pictures (the
same SVG the command line writes and the web page shows) and its data in small tables, and
the plain `repr` stays one short line."""

import html
import json
import os
import pathlib
import re
import subprocess
import urllib.request

import pytest

import grundy
from conftest import ROOT

BINARY = os.environ.get("GRUNDY_BIN") or str(ROOT / "target" / "debug" / "grundy")


def same_drawing(svg):
    """An SVG from layout-rs without its style classes, which it numbers differently from one
    drawing to the next (the shapes, positions and text are the same)."""
    if svg is None:
        return None
    svg = re.sub(r"<style>.*?</style>", "", svg, flags=re.S)
    return re.sub(r'class="a[0-9]+"', "", svg)


def run(*args):
    out = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def web():
    """The real `grundy serve`: its /api/picture is what the web page draws."""
    process = subprocess.Popen([BINARY, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://([0-9.:]+)/", line)
    assert match, f"no address in {line!r}"
    base = f"http://{match.group(1)}"

    def picture(expression, misere=False):
        request = urllib.request.Request(
            base + "/api/picture",
            data=json.dumps({"expression": expression, "misere": misere}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())

    yield picture
    process.terminate()
    process.wait(timeout=30)


def test_an_analysis_shows_its_moves_and_the_web_pages_game_graph(web):
    a = grundy.analyze("nim 3 + nim 1")
    page = a._repr_html_()
    pictures = a.pictures()
    assert same_drawing(pictures["graph"]) == same_drawing(web("nim 3 + nim 1")["graph_svg"])
    assert pictures["graph_note"] is None and pictures["hackenbush"] == []
    assert "<svg" in pictures["graph"] and same_drawing(pictures["graph"]) in same_drawing(page)
    # Value 3 ^ 1 = 2: the one winning move takes nim 3 to nim 1.
    assert a.value == 2 and [m.result for m in a.winning_moves] == ["nim 1 1"]
    assert "Winning moves" in page and html.escape("nim 1 1") in page
    assert "N: the player to move wins" in page
    for line in a.explanation:
        assert html.escape(line) in page


def test_misere_pictures_are_the_misere_graph(web):
    a = grundy.analyze("nim 1 1 1", misere=True)
    drawn = same_drawing(a.pictures()["graph"])
    assert drawn == same_drawing(web("nim 1 1 1", misere=True)["graph_svg"])
    assert drawn != same_drawing(grundy.analyze("nim 1 1 1").pictures()["graph"])
    assert "misère" in a._repr_html_()


def test_a_hackenbush_position_shows_its_winning_cuts(web):
    expression = "hackenbush 0-1 1-2 0-3"
    a = grundy.analyze(expression)
    drawn = a.pictures()["hackenbush"]
    assert drawn == web(expression)["hackenbush_svgs"] and len(drawn) == 1
    assert a.value != 0 and a.winning_moves
    # The winning cuts are drawn dashed (the library marks them), and the page shows it.
    assert "stroke-dasharray" in drawn[0] and drawn[0] in a._repr_html_()
    # With no winning move, no cut is marked.
    lost = grundy.analyze("hackenbush 0-1 0-2")
    assert lost.value == 0 and "stroke-dasharray" not in lost.pictures()["hackenbush"][0]


def test_a_position_too_large_to_draw_says_so():
    # (Not a huge Kayles heap: analysing one leaves the Kayles period in a process-wide cache,
    # and later analyses of Kayles then add a period note that the CLI, a fresh process, lacks.)
    a = grundy.analyze("nim 1000 + nim 5")
    pictures = a.pictures()
    assert pictures["graph"] is None and "too many to draw" in pictures["graph_note"]
    page = a._repr_html_()
    assert "<svg" not in page and "game graph not drawn" in page


def test_a_sequence_shows_the_clis_plot_and_its_first_values(tmp_path):
    s = grundy.sequence("kayles", to=200)
    path = tmp_path / "kayles.svg"
    run("sequence", "kayles", "--to", "200", "--plot", str(path))
    assert s.svg() == path.read_text()
    page = s._repr_html_()
    assert s.svg() in page
    assert "period <b>12</b> from n = <b>71</b>" in page and "proven" in page
    # The first 100 values in rows of ten: row 70 starts with g(70).
    assert f"<i>70</i></td><td {_cell()}>{int(s.values[70])}</td>" in page
    assert "the first 100 of 201 values" in page
    # plot(path) writes the same picture.
    assert pathlib.Path(s.plot(tmp_path / "again.svg")).read_text() == s.svg()


def _cell():
    return 'style="border: 1px solid #ccc; padding: 2px 6px; text-align: left"'


def test_an_apparent_period_is_drawn_as_apparent():
    squares = grundy.heap_game(lambda n: [n - k for k in (1, 2) if n >= k], "sub12")
    s = squares.sequence(to=30)
    assert s.period is not None and not s.period.proven
    assert "(apparent)" in s.svg() and "(proven)" not in s.svg()
    assert "apparent (not proven)" in s._repr_html_()


def test_a_small_graph_shows_the_clis_picture(tmp_path):
    edges = [("a", "b"), ("b", "a"), ("b", "c"), ("c", "d"), ("e", "d")]
    path = tmp_path / "g.txt"
    path.write_text("".join(f"{x} {y}\n" for x, y in edges))
    run("graph", str(path), "--svg", str(tmp_path / "g.svg"))
    s = grundy.graph(edges).solve()
    assert same_drawing(s.svg()) == same_drawing((tmp_path / "g.svg").read_text())
    assert same_drawing(s.svg()) in same_drawing(s._repr_html_())
    # d ends the game (P), c and e move to it (N), a and b go round for ever (D).
    assert s.counts() == {"P": 1, "N": 2, "D": 2}
    assert [s[v].outcome for v in "abcde"] == ["D", "D", "N", "P", "N"]
    assert "5 vertices, with cycles: 1 P, 2 N, 2 D" in s._repr_html_()


def test_a_big_graph_shows_a_summary():
    edges = [(n, n + 1) for n in range(500)]
    s = grundy.graph(edges).solve()
    assert s.svg() is None
    page = s._repr_html_()
    assert "<svg" not in page
    assert "501 vertices, acyclic: 251 P, 250 N, 0 D" in page
    assert "the first 20 of 501 vertices" in page
    # A path: the end is P, remoteness counts down to it.
    assert s[500].outcome == "P" and s[499].outcome == "N" and s[0].remoteness == 500


def test_a_quotient_shows_order_p_portion_and_table():
    q = grundy.quotient("0.75")
    page = q._repr_html_()
    assert html.escape("{a, b²}") in page
    assert f"<td {_cell()}>{q.order}</td>" in page
    # Every product of the table is shown, row by row.
    for k, x in enumerate(q.elements):
        row = "".join(
            f"<td {_cell()}>{_name(q, q.elements[i])}</td>" for i in q.table[k]
        )
        assert row in page, x
    assert "period 2 from heap 8, proven" in page


def _name(q, name):
    shade = ' style="background: #f4a3a3"' if name in q.p_portion else ""
    return f"<span{shade}>{html.escape(name)}</span>"


def test_a_game_of_your_own_shows_a_table():
    class Subtract(grundy.Game):
        def moves(self, n):
            return [n - k for k in (1, 2) if n >= k]

    a = grundy.analyze_game(Subtract(), 7)
    assert a.value == 1 and a.winning_moves == [6]
    page = a._repr_html_()
    assert "N: the player to move wins" in page and "<td" in page and ">6</td>" in page
    assert repr(a) == "<GameAnalysis 7: N, value 1, 1 winning move>"


def test_plain_reprs_are_one_short_line():
    answers = [
        grundy.analyze("kayles 10 + nim 3"),
        grundy.sequence("0.137", to=1000),
        grundy.quotient("kayles", max_heap=30),
        grundy.graph([(n, n + 1) for n in range(300)]).solve(),
        grundy.graph([(1, 2)]),
    ]
    for answer in answers:
        text = repr(answer)
        assert "\n" not in text and len(text) <= 120, text
    moves = len(answers[0].winning_moves)
    assert repr(answers[0]) == f"<Analysis 'kayles 10 + nim 3': N, value 1, {moves} winning moves>"
    first = " ".join(str(int(v)) for v in answers[1].values[:12])
    assert repr(answers[1]).startswith(f"<Sequence 0.137, g(0..1000) = {first} ...; ")
    assert repr(answers[1]).endswith("; period 34 from 52 (proven)>")
    assert repr(answers[2]).startswith("<Quotient kayles, heaps 1..30: order ")
    assert repr(answers[3]) == "<GraphSolution 301 vertices, acyclic: 151 P, 150 N>"
