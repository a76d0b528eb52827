"""The atlas in Python: `grundy.atlas(...)` reads a database the real `grundy census` made,
through the typed API, and its rows, cards and twins are the CLI's `grundy atlas --json`."""

import dataclasses
import os
import pathlib
import subprocess
import sys

import pytest

import grundy
from conftest import ROOT

BINARY = os.environ.get("GRUNDY_BIN") or str(ROOT / "target" / "debug" / "grundy")


def census(db, *args):
    out = subprocess.run(
        [BINARY, "census", *args, "--db", str(db)], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A small atlas: the one-digit codes to 300, and two-digit ones to 300 with 0.75's misere
    quotient."""
    path = tmp_path_factory.mktemp("atlas") / "small.sqlite"
    census(path, "0.?", "0.?7", "--to", "300")
    census(path, "0.75", "--to", "300", "--misere", "16")
    return path


def test_family_rows_are_the_clis_json(db, cli):
    for args, kwargs in [
        (["0.?"], {}),
        (["0.??"], {}),
        (["0.?7", "--open"], {"open": True}),
        (["0.?7", "--solved"], {"solved": True}),
        (["kayles", "--solved"], {"solved": True}),
    ]:
        rows = grundy.atlas(args[0], db=db, **kwargs)
        assert isinstance(rows, grundy.FamilyRows)
        data = cli("atlas", *args, "--db", str(db), "--json")
        assert rows.to_dict() == data, args
        assert [r.to_dict() for r in rows.rows] == data["rows"]
        assert [r.code for r in rows] == [r["code"] for r in data["rows"]]
    rows = grundy.atlas("0.??", db=db)
    # 63 games in 0.??, of which the atlas has 0.1 to 0.7, 0.07 to 0.77 and 0.75.
    assert (rows.games, rows.missing, len(rows)) == (63, 63 - 16, 16)


def test_rows_are_typed_and_frozen(db):
    rows = grundy.atlas("0.?7", db=db, solved=True)
    kayles = next(r for r in rows if r.code == "0.77")
    assert isinstance(kayles, grundy.GameRow)
    assert (kayles.status, kayles.period, kayles.preperiod) == ("proven", 12, 71)
    assert kayles.first_values.split()[:6] == ["0", "1", "2", "3", "1", "4"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        kayles.period = 1  # type: ignore[misc]
    assert all(r.status == "proven" for r in rows)
    open_ = grundy.atlas("0.?7", db=db, open=True)
    assert {r.code for r in rows} | {r.code for r in open_} == {f"0.{d}7" for d in range(8)}
    assert not {r.code for r in rows} & {r.code for r in open_}


def test_a_card_and_twins_are_the_clis_json(db, cli):
    card = grundy.atlas("kayles", db=db)
    assert isinstance(card, grundy.GameCard)
    assert card.to_dict() == cli("atlas", "kayles", "--db", str(db), "--json")
    assert card.game.code == "0.77" and card.game.period == 12
    card = grundy.atlas("0.75", db=db)
    assert card.misere is not None and card.misere.order == 8
    assert card.to_dict() == cli("atlas", "0.75", "--db", str(db), "--json")
    card = grundy.atlas("0.07", db=db)
    assert card.to_dict() == cli("atlas", "0.07", "--db", str(db), "--json")
    proven = {t.code: t for t in card.proven_same}
    assert all(isinstance(t, grundy.ProvenTwin) for t in card.proven_same)
    # Dawson's Kayles is Dawson's chess (0.137) one heap on; 0.071 shares that shift.
    assert (proven["0.137"].offset, proven["0.137"].in_atlas) == (-1, False)
    assert proven["0.071"].offset == 0
    twins = grundy.atlas(same_as="0.7", db=db)
    data = cli("atlas", "--same-as", "0.7", "--db", str(db), "--json")
    assert [t.to_dict() for t in twins] == data
    assert {t.code for t in twins} >= {"0.3", "0.5"}
    assert all(isinstance(t, grundy.Twin) and t.length > 300 for t in twins)


def test_the_misere_rows_of_a_family_page(db):
    rows = grundy.atlas("0.?5", db=db)
    assert [m.code for m in rows.misere] == ["0.75"]
    assert rows.misere[0].to_dict()["order"] == 8


def test_to_pandas_holds_the_rows(db):
    pd = pytest.importorskip("pandas")
    rows = grundy.atlas("0.?", db=db)
    frame = rows.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert frame.index.name == "code"
    assert frame.index.tolist() == [r.code for r in rows]
    assert frame.loc["0.7", "status"] == rows.rows[6].status
    periods = [None if pd.isna(v) else int(v) for v in frame["period"]]
    assert periods == [r.period for r in rows] and None in periods
    assert str(frame["period"].dtype) == "Int64"
    card = grundy.atlas("0.77", db=db).to_pandas()
    assert card.index.tolist() == ["0.77"] and card.loc["0.77", "preperiod"] == 71
    assert len(grundy.atlas("0.??", db=db, open=True).to_pandas().columns) == 22


def test_without_pandas_the_error_says_what_to_install(db, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError) as e:
        grundy.atlas("0.?", db=db).to_pandas()
    assert str(e.value) == (
        "FamilyRows.to_pandas() needs pandas, which is not installed: pip install pandas"
    )


def test_errors_name_the_file_and_the_game(db, tmp_path):
    missing = tmp_path / "nowhere.sqlite"
    with pytest.raises(FileNotFoundError) as e:
        grundy.atlas("0.?", db=missing)
    assert str(missing) in str(e.value) and "no such file" in str(e.value)
    notes = tmp_path / "notes.sqlite"
    notes.write_text("hello\n")
    with pytest.raises(grundy.GrundyError) as e:
        grundy.atlas("0.?", db=notes)
    assert f"{notes} is not an atlas database" in str(e.value)
    with pytest.raises(ValueError) as e:
        grundy.atlas("0.137", db=db)
    assert "0.137 is not in this atlas" in str(e.value)
    with pytest.raises(ValueError) as e:
        grundy.atlas("0.?x7g", db=db)
    assert "`g`" in str(e.value)
    with pytest.raises(ValueError):
        grundy.atlas("0.?", db=db, open=True, solved=True)
    with pytest.raises(ValueError):
        grundy.atlas(db=db)
    # The default database is atlas.sqlite in the current directory.
    cwd = pathlib.Path.cwd()
    os.chdir(tmp_path)
    try:
        with pytest.raises(FileNotFoundError) as e:
            grundy.atlas("0.?")
        assert "atlas.sqlite" in str(e.value)
    finally:
        os.chdir(cwd)


def test_the_dataclasses_know_every_field_of_the_schema():
    schema = grundy.schema()["$defs"]
    for name, cls in [
        ("GameRow", grundy.GameRow),
        ("GameCard", grundy.GameCard),
        ("FamilyRows", grundy.FamilyRows),
        ("Twin", grundy.Twin),
        ("MisereRow", grundy.MisereRow),
    ]:
        known = {f.name for f in dataclasses.fields(cls) if not f.name.startswith("_")}
        assert set(schema[name]["properties"]) <= known, name
