"""Answers as arrays and data frames: NumPy and pandas are optional, imported only when a
`to_numpy()` or `to_pandas()` is called; without them the call says what to install."""

from __future__ import annotations

import importlib
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Dict, List

if TYPE_CHECKING:  # pragma: no cover
    from ._api import Quotient, Sequence
    from ._atlas import GameRow
    from ._games import GraphSolution


def need(module: str, method: str) -> Any:
    """Imports `module` (numpy or pandas) for `method`, or raises an ImportError naming the
    package to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(
            f"{method} needs {module}, which is not installed: pip install {module}"
        ) from None


def sequence_numpy(s: Sequence) -> Any:
    np = need("numpy", "Sequence.to_numpy()")
    return np.asarray([int(v) for v in s.values], dtype=np.uint16)


def sequence_pandas(s: Sequence) -> Any:
    pd = need("pandas", "Sequence.to_pandas()")
    values = [int(v) for v in s.values]
    index = pd.RangeIndex(len(values), name="n")
    return pd.DataFrame({"g": pd.array(values, dtype="uint16")}, index=index)


def quotient_numpy(q: Quotient) -> Any:
    np = need("numpy", "Quotient.to_numpy()")
    return np.asarray(q.table, dtype=np.int64)


def quotient_pandas(q: Quotient) -> Any:
    pd = need("pandas", "Quotient.to_pandas()")
    rows = [[q.elements[i] for i in row] for row in q.table]
    return pd.DataFrame(
        rows,
        index=pd.Index(q.elements, name="x"),
        columns=pd.Index(q.elements, name="y"),
    )


def graph_numpy(g: GraphSolution) -> Any:
    np = need("numpy", "GraphSolution.to_numpy()")
    dtype = [("vertex", object), ("value", np.int64), ("outcome", "U1"), ("remoteness", np.int64)]
    rows = [
        (
            vertex,
            -1 if v.value is None else v.value,
            v.outcome,
            -1 if v.remoteness is None else v.remoteness,
        )
        for vertex, v in g.items()
    ]
    return np.array(rows, dtype=dtype)


def graph_pandas(g: GraphSolution) -> Any:
    pd = need("pandas", "GraphSolution.to_pandas()")
    vertices = list(g)
    solutions = [g[v] for v in vertices]
    return pd.DataFrame(
        {
            "value": pd.array([s.value for s in solutions], dtype="Int64"),
            "infinite": [s.infinite for s in solutions],
            "outcome": [s.outcome for s in solutions],
            "remoteness": pd.array([s.remoteness for s in solutions], dtype="Int64"),
        },
        index=pd.Index(vertices, name="vertex", tupleize_cols=False),
    )



def atlas_pandas(rows: List[GameRow], method: str) -> Any:
    """Atlas rows as a DataFrame indexed by code: a column per field of `GameRow`, the
    integers nullable (a game not computed has no period)."""
    pd = need("pandas", method)
    from ._atlas import GameRow as Row

    data: Dict[str, Any] = {}
    for f in fields(Row):
        if f.name.startswith("_"):
            continue
        values = [getattr(r, f.name) for r in rows]
        data[f.name] = pd.array(values, dtype="Int64") if f.type in INTEGERS else values
    return pd.DataFrame(data).set_index("code")


# The annotations (strings, with `from __future__ import annotations`) of integer fields.
INTEGERS = ("int", "Optional[int]")
