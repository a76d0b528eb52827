"""The package as users meet it: the installed wheel, a namespace that is only the API, stubs
that match the native module, `help(grundy)` saying where to start, and `to_dict()` on every
answer."""

import ast
import inspect
import os
import pathlib
import pickle
import pydoc
import subprocess
import sys

import grundy
from grundy import _grundy

PACKAGE = pathlib.Path(grundy.__file__).parent


def test_the_tests_run_on_the_installed_wheel():
    wheel = os.environ.get("GRUNDY_TEST_WHEEL")
    if not wheel:
        import pytest

        pytest.skip("not run by scripts/test (GRUNDY_TEST_WHEEL unset)")
    # Imported from the test environment's site-packages, not the source tree.
    assert PACKAGE.resolve().is_relative_to(pathlib.Path(sys.prefix).resolve())
    assert "site-packages" in PACKAGE.parts
    assert not (PACKAGE.parent / "Cargo.toml").exists()
    version = pathlib.Path(wheel).name.split("-")[1]
    from importlib.metadata import version as installed

    assert installed("grundy") == version


def test_dir_shows_only_the_api():
    public = {name for name in dir(grundy) if not name.startswith("_")}
    assert public == set(grundy.__all__)
    assert len(grundy.__all__) == len(set(grundy.__all__))
    for name in ("Any", "Callable", "json", "os", "dataclass", "field", "annotations"):
        assert not hasattr(grundy, name), name


def test_the_api_lives_in_grundy():
    for name in grundy.__all__:
        obj = getattr(grundy, name)
        module = getattr(obj, "__module__", None)
        # pyo3 names its exceptions' module `_grundy`, the native module.
        assert module in ("grundy", "grundy._grundy", "_grundy"), (name, module)
    a = grundy.analyze("nim 3")
    assert pickle.loads(pickle.dumps(a)) == a


def test_help_says_where_to_start():
    text = pydoc.render_doc(grundy, renderer=pydoc.plaintext)
    assert "Where to start" in text
    for name in ("analyze(", "sequence(", "quotient(", "graph(edges).solve()", "Game"):
        assert name in text.split("Where to start", 1)[1][:800], name


def _stub():
    tree = ast.parse((PACKAGE / "_grundy.pyi").read_text())
    return {
        node.name: node
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
    }


def test_the_stubs_name_what_the_native_module_has():
    native = {name for name in dir(_grundy) if not name.startswith("_")}
    assert set(_stub()) == native


def test_the_stubs_give_the_native_functions_parameters():
    for name, node in _stub().items():
        if not isinstance(node, ast.FunctionDef):
            continue
        stubbed = [a.arg for a in node.args.args]
        actual = list(inspect.signature(getattr(_grundy, name)).parameters)
        assert stubbed == actual, name


def test_the_package_ships_its_stubs_and_marker():
    assert (PACKAGE / "_grundy.pyi").exists() and (PACKAGE / "py.typed").exists()


def test_every_python_file_stays_readable():
    for path in PACKAGE.glob("*.py"):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines < 600, f"{path.name}: {lines} lines"


def test_import_loads_neither_numpy_nor_pandas():
    code = "import sys, grundy; print('numpy' in sys.modules, 'pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


def test_to_dict_of_every_part_is_its_part_of_the_clis_json(cli):
    a = grundy.analyze("kayles 10 + nim 3")
    data = cli("analyze", "--json", "kayles 10 + nim 3")
    assert a.to_dict() == data
    assert [m.to_dict() for m in a.winning_moves] == data["winning_moves"]
    assert [c.to_dict() for c in a.components] == data["components"]
    s = grundy.sequence("kayles", to=200)
    data = cli("sequence", "kayles", "--to", "200", "--json")
    assert s.period is not None
    assert s.to_dict() == data and s.period.to_dict() == data["period"]
    q = grundy.quotient("0.75")
    data = cli("quotient", "0.75", "--json")
    assert q.to_dict() == data and q.period.to_dict() == data["period"]


def test_to_dict_hands_out_a_copy():
    a = grundy.analyze("nim 3 5")
    a.to_dict()["winning_moves"].clear()
    a.winning_moves[0].to_dict()["result"] = "changed"
    assert a.to_dict()["winning_moves"][0]["result"] == a.winning_moves[0].result != "changed"


def test_to_dict_of_a_graph_and_its_vertices_is_the_clis_json(cli, tmp_path):
    edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
    path = tmp_path / "g.txt"
    path.write_text("".join(f"{x} {y}\n" for x, y in edges))
    data = cli("graph", str(path), "--json")
    s = grundy.graph(edges).solve()
    assert s.to_dict() == data
    assert [s[v].to_dict() for v in "abcd"] == data["vertices"]
