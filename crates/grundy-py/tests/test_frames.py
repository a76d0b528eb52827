"""Data out: `to_numpy()` and `to_pandas()` of sequences, graph solutions and quotients hold
the same data as the answers (and so as the CLI's `--json`), and without numpy or pandas they
say what to install."""

import sys

import pytest

import grundy

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")


def test_a_sequence_as_an_array_and_a_frame(cli):
    s = grundy.sequence("0.137", to=300)
    values = cli("sequence", "0.137", "--to", "300", "--json")["values"]
    array = s.to_numpy()
    assert array.dtype == np.uint16 and array.tolist() == values
    frame = s.to_pandas()
    assert list(frame.columns) == ["g"] and frame.index.name == "n"
    assert frame["g"].tolist() == values and frame.index.tolist() == list(range(301))
    # The P-positions as a researcher would select them.
    assert frame.index[frame["g"] == 0].tolist() == [n for n, v in enumerate(values) if v == 0]


def test_a_quotient_as_an_array_and_a_frame(cli):
    q = grundy.quotient("0.75")
    data = cli("quotient", "0.75", "--json")
    table = q.to_numpy()
    assert table.shape == (q.order, q.order) and table.tolist() == data["table"]
    frame = q.to_pandas()
    assert frame.index.tolist() == frame.columns.tolist() == data["elements"]
    for i, x in enumerate(data["elements"]):
        for j, y in enumerate(data["elements"]):
            assert frame.loc[x, y] == data["elements"][data["table"][i][j]]


def test_a_graph_solution_as_an_array_and_a_frame(cli, tmp_path):
    edges = [("a", "b"), ("b", "a"), ("b", "c"), ("c", "d"), ("e", "d")]
    path = tmp_path / "g.txt"
    path.write_text("".join(f"{x} {y}\n" for x, y in edges))
    rows = {r["name"]: r for r in cli("graph", str(path), "--json")["vertices"]}
    s = grundy.graph(edges).solve()
    frame = s.to_pandas()
    assert frame.index.tolist() == list("abcde")
    for name, row in rows.items():
        assert frame.loc[name, "outcome"] == row["outcome"]
        if isinstance(row["value"], dict):
            assert pd.isna(frame.loc[name, "value"]) and frame.loc[name, "infinite"] == row["value"]["inf"]
        else:
            assert frame.loc[name, "value"] == row["value"]
        expected = row["remoteness"]
        assert pd.isna(frame.loc[name, "remoteness"]) if expected is None else (
            frame.loc[name, "remoteness"] == expected
        )
    array = s.to_numpy()
    assert array["vertex"].tolist() == list("abcde")
    assert array["outcome"].tolist() == [rows[v]["outcome"] for v in "abcde"]
    assert array["remoteness"].tolist() == [
        -1 if rows[v]["remoteness"] is None else rows[v]["remoteness"] for v in "abcde"
    ]


def test_tuple_vertices_stay_whole_in_the_frame():
    s = grundy.graph([((0, 1), (0, 0)), ((1, 1), (0, 1))]).solve()
    frame = s.to_pandas()
    assert frame.index.tolist() == [(0, 1), (0, 0), (1, 1)]
    assert frame.loc[[(1, 1)], "outcome"].tolist() == ["P"]


@pytest.mark.parametrize("missing", ["numpy", "pandas"])
def test_without_the_package_the_error_says_what_to_install(monkeypatch, missing):
    # A module set to None in sys.modules cannot be imported: as if it were not installed.
    monkeypatch.setitem(sys.modules, missing, None)
    s = grundy.sequence("kayles", to=20)
    q = grundy.quotient("0.75")
    g = grundy.graph([(1, 2)]).solve()
    method = "to_numpy" if missing == "numpy" else "to_pandas"
    for answer, cls in [(s, "Sequence"), (q, "Quotient"), (g, "GraphSolution")]:
        with pytest.raises(ImportError) as e:
            getattr(answer, method)()
        assert str(e.value) == (
            f"{cls}.{method}() needs {missing}, which is not installed: pip install {missing}"
        )
