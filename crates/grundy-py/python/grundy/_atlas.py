"""The atlas: what `grundy census` computed, read from its database through the typed API.

`atlas(...)` sends the library's `AtlasRequest` (the request of `POST /api/atlas` on the web
page) to the native module, which opens the database read-only and answers with
`AtlasReport`s; the rows here are those answers as frozen dataclasses. `to_dict()` of each is
what `grundy atlas ... --json` prints.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from . import _frames, _grundy
from ._api import _known, _Part

Path = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class GameRow(_Part):
    """One game of the atlas (a row of its table `games`): its canonical `code`, `status`
    ("proven", "apparent", "none": no period seen, "refused"), the heap asked for (`target`)
    and the last computed (`computed_to`), its period, preperiod and saltus with the `proof`
    in words, the largest value and where, the count of P-positions, `first_values` (g(0) to
    g(63), space-separated), the checksum of the values computed, the sparse engine's rare
    values, why it was refused (`reason`) and when and by which census run it was written."""

    code: str
    status: str
    target: int
    computed_to: Optional[int]
    engine: Optional[str]
    period: Optional[int]
    preperiod: Optional[int]
    saltus: Optional[int]
    proof: Optional[str]
    last_exceptional: Optional[int]
    max_value: Optional[int]
    max_value_heap: Optional[int]
    p_positions: Optional[int]
    first_values: str
    checksum: Optional[str]
    rare_mask: Optional[int]
    rare_values: Optional[str]
    rare_count: Optional[int]
    last_rare: Optional[int]
    reason: Optional[str]
    seconds: float
    run_id: Optional[int]
    finished_at: Optional[str]
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def __str__(self) -> str:
        if self.period is None:
            return f"{self.code}: {self.status}, computed to {self.computed_to}"
        return f"{self.code}: {self.status}, period {self.period} from {self.preperiod}"


@dataclass(frozen=True)
class Twin(_Part):
    """A game whose sequence agrees with another's on g(0) to g(length - 1)."""

    code: str
    length: int
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True)
class ProvenTwin(_Part):
    """A game tied to a card's game by the shift rule: g(n) of the card's game is
    g(n + offset) of `code` for every n (offset -1, 0: the same sequence, or 1), for the
    `reason` given; `in_atlas` says whether the atlas has `code`."""

    code: str
    offset: int
    reason: str
    in_atlas: bool
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True)
class MisereRow(_Part):
    """A game's bounded misere quotient of heaps 1 to `max_heap`, as a census computed it
    (`--misere`): its `order`, the size of its P-portion and the heap map's period, or why
    it was refused (`computed` False, `reason`)."""

    code: str
    max_heap: int
    computed: bool
    computed_to: Optional[int]
    order: Optional[int]
    p_portion: Optional[int]
    period: Optional[int]
    preperiod: Optional[int]
    period_proven: Optional[bool]
    reason: Optional[str]
    seconds: float
    finished_at: Optional[str]
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)


@dataclass(frozen=True, repr=False)
class FamilyRows(_Part):
    """A family's games in the atlas: the `pattern`, how many `games` it holds, how many of
    them the atlas lacks (`missing`), and the `rows` that pass the filter, in the family's
    order. `to_dict()` equals `grundy atlas PATTERN --json`; `to_pandas()` is the rows as a
    DataFrame indexed by code. `misere` holds the misere quotients a census computed for
    these rows (not part of the CLI's JSON)."""

    pattern: str
    games: int
    missing: int
    rows: List[GameRow]
    misere: List[MisereRow] = field(default_factory=list)
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def __repr__(self) -> str:
        lacking = f", {self.missing} not in the atlas" if self.missing else ""
        return f"<FamilyRows {self.pattern}: {len(self.rows)} rows of {self.games} games{lacking}>"

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Any:
        return iter(self.rows)

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame indexed by `code`, a column per field of
        `GameRow` (integers nullable). Needs pandas."""
        return _frames.atlas_pandas(self.rows, "FamilyRows.to_pandas()")


@dataclass(frozen=True, repr=False)
class GameCard(_Part):
    """One game's card: its row (`game`), the games whose sequences agree with it
    (`same_as`), the games provably the same one heap along or with provably the same
    sequence (`proven_same`), and its misere quotient when a census computed it.
    `to_dict()` equals `grundy atlas CODE --json`."""

    game: GameRow
    same_as: List[Twin]
    proven_same: List[ProvenTwin]
    misere: Optional[MisereRow]
    _raw: Dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def __repr__(self) -> str:
        return f"<GameCard {self.game}; {len(self.same_as)} twins>"

    def to_pandas(self) -> Any:
        """The game's row as a one-row pandas DataFrame indexed by `code`. Needs pandas."""
        return _frames.atlas_pandas([self.game], "GameCard.to_pandas()")


def _row(raw: Dict[str, Any]) -> GameRow:
    return GameRow(**_known(GameRow, raw), _raw=raw)


def _misere(raw: Optional[Dict[str, Any]]) -> Optional[MisereRow]:
    return None if raw is None else MisereRow(**_known(MisereRow, raw), _raw=raw)


def _card(raw: Dict[str, Any]) -> GameCard:
    return GameCard(
        game=_row(raw["game"]),
        same_as=[Twin(**_known(Twin, t), _raw=t) for t in raw["same_as"]],
        proven_same=[ProvenTwin(**_known(ProvenTwin, t), _raw=t) for t in raw["proven_same"]],
        misere=_misere(raw.get("misere")),
        _raw=raw,
    )


def _ask(db: Path, request: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [json.loads(page) for page in _grundy.atlas(os.fspath(db), json.dumps(request))]


def atlas(
    target: Optional[str] = None,
    *,
    db: Path = "atlas.sqlite",
    open: bool = False,
    solved: bool = False,
    same_as: Optional[str] = None,
) -> Union[FamilyRows, GameCard, List[Twin]]:
    """What the atlas database of `grundy census` holds, as `grundy atlas` answers it.

    >>> rows = atlas("0.??", db="atlas.sqlite", open=True)   # doctest: +SKIP
    >>> [r.code for r in rows][:3]                            # doctest: +SKIP
    ['0.04', '0.06', '0.14']

    target: a family pattern ("0.??", "sub(1..4)") for its games' rows (`FamilyRows`), or
        one game ("0.137", "kayles") for its card (`GameCard`); with `open` or `solved` a
        game alone is a family of one.
    db: the database file (`atlas.sqlite` in the current directory by default).
    open, solved: only the games with no proven period, or only those with one.
    same_as: a game: the games whose sequences agree with its (a list of `Twin`), as
        `grundy atlas --same-as CODE`.
    Raises FileNotFoundError when `db` is not there, GrundyError when it is not an atlas
    (both name the file), ValueError for a pattern that is no family or a game that is not
    in the atlas.
    """
    if open and solved:
        raise ValueError("ask for open or solved games, not both")
    if same_as is not None:
        if target is not None or open or solved:
            raise ValueError("same_as asks for one game's twins: give no target, open or solved")
        [page] = _ask(db, {"card": same_as})
        return _card(page["card"]).same_as
    if target is None:
        raise ValueError("give a game or a family pattern (target), or same_as")
    flt = "open" if open else "solved" if solved else "all"
    pages = _ask(db, json.loads(_grundy.atlas_query(target, flt)))
    if pages[0].get("card") is not None:
        return _card(pages[0]["card"])
    first = pages[0]["family"]["family"]
    rows = [r for page in pages for r in page["family"]["family"]["rows"]]
    raw = dict(first, rows=rows)
    misere = [m for page in pages for m in page["family"]["misere"]]
    fields_ = {k: v for k, v in _known(FamilyRows, raw).items() if k not in ("rows", "misere")}
    return FamilyRows(
        **fields_,
        rows=[_row(r) for r in rows],
        misere=[MisereRow(**_known(MisereRow, m), _raw=m) for m in misere],
        _raw=raw,
    )
