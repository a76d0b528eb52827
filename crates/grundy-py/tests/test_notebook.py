"""The guide's tour notebook (docs/src/tour.ipynb) runs in a real kernel: no cell fails, and
every answer it shows is displayed as a picture or a table (text/html or image/svg+xml), the
cells tagged `svg` with the library's SVG inside."""

import pytest

from conftest import ROOT

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOK = ROOT / "docs" / "src" / "tour.ipynb"
RICH = ("text/html", "image/svg+xml")


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    # Shipped clean: outputs come from running it, here.
    assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code")
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path_factory.mktemp("tour"))}},
    )
    client.execute()  # raises CellExecutionError on any cell's error
    return notebook


def results(cell):
    return [o for o in cell.outputs if o.output_type in ("execute_result", "display_data")]


def test_the_tour_covers_what_researchers_do():
    source = NOTEBOOK.read_text(encoding="utf-8")
    for needle in ("analyze(", "sequence(", "quotient(", "grundy.Game", "graph(", "misere=True"):
        assert needle in source, needle


def test_no_cell_fails(executed):
    for cell in executed.cells:
        if cell.cell_type == "code":
            assert not [o for o in cell.outputs if o.output_type == "error"], cell.source


def test_every_answer_shows_rich(executed):
    tagged = [c for c in executed.cells if c.cell_type == "code" and c.metadata.get("tags")]
    assert len(tagged) >= 8
    for cell in tagged:
        outputs = results(cell)
        assert outputs, f"no result: {cell.source}"
        bundle = outputs[-1].data
        assert any(kind in bundle for kind in RICH), (cell.source, list(bundle))
        if "svg" in cell.metadata.tags:
            shown = bundle.get("image/svg+xml", "") + bundle.get("text/html", "")
            assert "<svg" in shown, cell.source
        # The plain text beside it is the short repr, one line.
        if cell.id not in ("frame", "graph-frame"):
            assert "\n" not in bundle["text/plain"], bundle["text/plain"]


def test_the_answers_shown_are_the_right_ones(executed):
    by_id = {c.id: c for c in executed.cells}
    html = lambda name: results(by_id[name])[-1].data["text/html"]  # noqa: E731
    assert "period <b>34</b> from n = <b>52</b>" in html("sequence")
    assert results(by_id["proof"])[-1].data["text/plain"].startswith("(True, ")
    assert "order</td>" in html("quotient") and "{a, b²}" in html("quotient")
    assert "P: the player to move loses" in html("euclid")
    assert "N: the player to move wins" in html("euclid-n")
    assert "5 vertices, with cycles: 1 P, 2 N, 2 D" in html("graph")
