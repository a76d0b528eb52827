"""One answer everywhere: the same requests through the command line (`--json`), the web
server (`POST /api/...`, the real `grundy serve`) and this package give identical JSON, and
every answer is an instance of the schema the library generates (docs/api.schema.json)."""

import json
import os
import pathlib
import re
import subprocess
import urllib.error
import urllib.request
from dataclasses import fields

import pytest

import grundy
from conftest import ROOT

BINARY = os.environ.get("GRUNDY_BIN") or str(ROOT / "target" / "debug" / "grundy")

# A position of every catalogue rule, in normal play; then sums that take each misère route
# (Bouton's rule, the quotient of one rule and of several, the Kayles decomposition, Conway's
# tame rule, the exhaustive search, a theorem for one component alone).
NORMAL = [
    "nim 13 12 8",
    "staircase 3 2 1",
    "moore(2) 3 5 7",
    "wythoff 3 5",
    "0.137 20",
    "4.07 9",
    "kayles 10",
    "dawson-kayles 9",
    "dawson 12",
    "grundys-game 11",
    "lasker 9",
    "half 10",
    "even-if-not-all 8",
    "sub(1,3,4) 100",
    "bash(3) 7",
    "allbut(1,2) 9",
    "hackenbush 0-1 1-2 1-3",
    "turning-turtles 1 4 6",
    "twins 0 3",
    "mock-turtles 0 3 5",
    "ruler 3 8",
    "moebius 2 5",
    "mogul 3 7",
    "turn(3) 2 5 7",
    "coin-sub(1,2) 3 7",
    "corners 2,3 4,5",
    "rugs 2,3",
    "product(ruler,mock-turtles) 3,4",
    "acrostic-twins 1,2",
    "cram 3x3",
    "node-kayles 1-2 2-3 3-4",
    "arc-kayles 1-2 2-3 3-4 4-1",
    "chomp 3x4",
    "kayles 10 + 0.137 20 + nim 3",
    "0",
]
MISERE = [
    "nim 3 4 5",
    "kayles 9",
    "0.75 5",
    "dawson 7",
    "kayles 5 + nim 1",
    "kayles 5 + 0.75 9 + nim 3",
    "kayles 1000000 + kayles 5",
    "staircase 1 2 + nim 1",
    "kayles 3 + wythoff 0 2",
    "cram 2x3",
    "wythoff 4 7",
    "moore(2) 1 2 2",
]


class Server:
    """The real `grundy serve` on a free port of this machine."""

    def __init__(self):
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True
        )
        line = self.process.stdout.readline()
        match = re.search(r"http://([0-9.:]+)/", line)
        assert match, f"no address in {line!r}"
        self.base = f"http://{match.group(1)}"

    def post(self, path, body):
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=60) as answer:
            return json.loads(answer.read())

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def server():
    s = Server()
    yield s
    s.stop()


def run_cli(*args):
    out = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def check_schema(instance, name, schema):
    """`instance` has exactly the properties the schema's `name` lists, each required one
    present (a light check of the shape; the types are Rust's)."""
    definition = schema["$defs"][name]
    properties = set(definition.get("properties", {}))
    assert set(instance) <= properties, f"{name}: {set(instance) - properties} not in the schema"
    missing = set(definition.get("required", [])) - set(instance)
    assert not missing, f"{name}: {missing} missing"


@pytest.fixture(scope="module")
def schema():
    return grundy.schema()


def test_the_package_schema_is_the_checked_in_file(schema):
    checked_in = json.loads((ROOT / "docs" / "api.schema.json").read_text())
    assert schema == checked_in


@pytest.mark.parametrize("expression", NORMAL)
def test_analyze_is_one_answer_normal_play(server, schema, expression):
    cli = run_cli("analyze", "--json", expression)
    status, web = server.post("/api/analyze", {"expression": expression})
    assert status == 200, web
    package = grundy.analyze(expression).to_dict()
    assert cli == web == package
    check_schema(cli, "Analysis", schema)
    for c in cli["components"]:
        check_schema(c, "ComponentReport", schema)
    assert cli["winning_moves_complete"] is True


@pytest.mark.parametrize("expression", MISERE)
def test_analyze_is_one_answer_misere_play(server, schema, expression):
    cli = run_cli("analyze", "--json", "--misere", expression)
    status, web = server.post("/api/analyze", {"expression": expression, "misere": True})
    assert status == 200, web
    package = grundy.analyze(expression, misere=True).to_dict()
    assert cli == web == package
    check_schema(cli, "Analysis", schema)
    # Every component that can be expanded reports its genus, whatever route answered.
    for c in cli["components"]:
        if c["expression"] != "kayles 1000000":
            assert c["genus"] is not None, (expression, c)
            assert c["tame"] is not None, (expression, c)


@pytest.mark.parametrize(
    "rule,to", [("kayles", 200), ("0.137", 300), ("lasker", 100), ("grundys-game", 50), ("0.8", 40)]
)
def test_sequence_is_one_answer(server, schema, rule, to):
    cli = run_cli("sequence", rule, "--to", str(to), "--json")
    status, web = server.post("/api/sequence", {"rule": rule, "to": to})
    assert status == 200, web
    package = grundy.sequence(rule, to=to).to_dict()
    assert cli == web == package
    check_schema(cli, "SequenceReport", schema)


@pytest.mark.parametrize("rule,max_heap,nim", [("0.75", 24, 0), ("kayles", 30, 1)])
def test_quotient_is_one_answer(server, schema, rule, max_heap, nim):
    args = ["quotient", rule, "--max-heap", str(max_heap), "--json"]
    if nim:
        args += ["--nim", str(nim)]
    cli = run_cli(*args)
    status, web = server.post("/api/quotient", {"rule": rule, "max_heap": max_heap, "nim": nim})
    assert status == 200, web
    package = grundy.quotient(rule, max_heap, nim=nim).to_dict()
    assert cli == web == package
    check_schema(cli, "QuotientReport", schema)


def test_graph_is_one_answer(server, schema, tmp_path):
    edges = [("a", "b"), ("b", "a"), ("b", "c"), ("c", "d"), ("e", "d")]
    path = tmp_path / "g.txt"
    path.write_text("".join(f"{x} {y}\n" for x, y in edges))
    cli = run_cli("graph", str(path), "--json")
    text = path.read_text()
    status, web = server.post("/api/graph", {"graph": text})
    assert status == 200, web
    package = grundy.graph(edges).solve().to_dict()
    assert cli == web == package
    check_schema(cli, "GraphReport", schema)


def test_errors_are_one_answer(server):
    status, web = server.post("/api/analyze", {"expression": "nim 3 + nmi 4"})
    assert status == 422 and web["kind"] == "expression" and web["span"] == [8, 11]
    out = subprocess.run([BINARY, "analyze", "nim 3 + nmi 4"], capture_output=True, text=True)
    assert out.returncode == 2
    assert "unknown rule `nmi`" in out.stderr and "unknown rule `nmi`" in web["error"]
    with pytest.raises(grundy.ExpressionError) as e:
        grundy.analyze("nim 3 + nmi 4")
    assert e.value.span == (8, 11)


def test_the_server_serves_the_schema(server, schema):
    assert server.get("/api/schema") == schema


DATACLASSES = {
    "Analysis": grundy.Analysis,
    "ComponentReport": grundy.ComponentReport,
    "WinningMove": grundy.WinningMove,
    "SequenceReport": grundy.Sequence,
    "PeriodSummary": grundy.Period,
    "QuotientReport": grundy.Quotient,
    "ReportedPeriod": grundy.MapPeriod,
}


@pytest.mark.parametrize("name", sorted(DATACLASSES))
def test_the_dataclasses_know_every_field_of_the_schema(schema, name):
    cls = DATACLASSES[name]
    known = {f.name for f in fields(cls) if not f.name.startswith("_")}
    listed = set(schema["$defs"][name]["properties"])
    # `plot` and `stats` of a sequence are in `to_dict()` only; everything else is an attribute.
    allowed = {"SequenceReport": {"plot", "stats"}}.get(name, set())
    assert listed - known <= allowed, f"{name}: {listed - known - allowed} not attributes"


def test_a_field_the_package_does_not_know_does_not_break_it():
    # The tame-rule sum that used to raise TypeError (an unknown `genus` keyword).
    a = grundy.analyze("staircase 1 2 + nim 1", misere=True)
    assert a.outcome in ("P", "N")
    assert all(c.genus is not None for c in a.components)
    raw = dict(a.to_dict(), some_future_field=1)
    rebuilt = grundy.Analysis(**grundy._api._known(grundy.Analysis, raw), _raw=raw)
    assert rebuilt.to_dict()["some_future_field"] == 1
