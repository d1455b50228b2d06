"""The records a query can only want, read from its own parse before any is read: a
query over one table whose ``WHERE`` bounds ``index`` (``index < 100``, ``index BETWEEN
a AND b``, ``index IN (...)``, joined by ``AND``) reads only the records within the
bounds. DuckDB still applies the whole ``WHERE``: what is left out here is only what
could not match, so the result is the same."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

FLIPPED = {
    "COMPARE_LESSTHAN": "COMPARE_GREATERTHAN",
    "COMPARE_LESSTHANOREQUALTO": "COMPARE_GREATERTHANOREQUALTO",
    "COMPARE_GREATERTHAN": "COMPARE_LESSTHAN",
    "COMPARE_GREATERTHANOREQUALTO": "COMPARE_LESSTHANOREQUALTO",
    "COMPARE_EQUAL": "COMPARE_EQUAL",
}


@dataclass
class Bounds:
    """``lo <= index < hi``, and within ``only`` when it is given."""

    lo: int = 0
    hi: int | None = None
    only: set[int] | None = None

    def rows(self, count: int, records: np.ndarray | None) -> np.ndarray:
        """The global numbers of the records within the bounds, of ``records`` (None:
        of ``count`` records)."""
        hi = count if self.hi is None else min(self.hi, count)
        lo = max(self.lo, 0)
        if records is None:
            out = np.arange(lo, max(lo, hi), dtype=np.int64)
        else:
            out = records[(records >= lo) & (records < hi)]
        if self.only is not None:
            out = out[np.isin(out, np.fromiter(self.only, dtype=np.int64, count=len(self.only)))]
        return out


def index_bounds(tree: dict[str, Any], table: str) -> Bounds | None:
    """The bounds on ``index`` of the parsed statement ``tree`` (DuckDB's
    ``json_serialize_sql``) over ``table`` alone; None when it reads other tables, reads
    it more than once, or bounds nothing."""
    node = lone_select(tree, table)
    if node is None:
        return None
    bounds, said = Bounds(), False
    for term in conjuncts(node.get("where_clause")):
        said |= _narrow(bounds, term)
    return bounds if said else None


def lone_select(tree: dict[str, Any], table: str) -> dict[str, Any] | None:
    """The statement of ``tree`` when it is one ``SELECT`` reading ``table`` once and no
    other table (no join, subquery or table function); None otherwise."""
    statements = tree.get("statements") or []
    node = statements[0].get("node", {}) if len(statements) == 1 else {}
    source = node.get("from_table") or {}
    if (
        node.get("type") != "SELECT_NODE"
        or source.get("type") != "BASE_TABLE"
        or str(source.get("table_name", "")).lower() != table.lower()
        or _tables(tree) != 1
    ):
        return None
    return dict(node)


def _tables(tree: Any) -> int:
    if isinstance(tree, dict):
        own = int(tree.get("type") in ("BASE_TABLE", "TABLE_FUNCTION", "SUBQUERY", "JOIN"))
        return own + sum(_tables(v) for v in tree.values())
    if isinstance(tree, list):
        return sum(_tables(v) for v in tree)
    return 0


def conjuncts(where: Any) -> list[dict[str, Any]]:
    if not isinstance(where, dict):
        return []
    if where.get("type") == "CONJUNCTION_AND":
        return [t for child in where.get("children", []) for t in conjuncts(child)]
    return [where]


def _is_index(node: Any) -> bool:
    if not isinstance(node, dict) or node.get("type") != "COLUMN_REF":
        return False
    names = node.get("column_names")
    return isinstance(names, list) and bool(names) and str(names[-1]).lower() == "index"


def literal(node: Any) -> tuple[str, str] | None:
    """``(kind, text)`` of a constant of the parsed statement; None for anything else."""
    if not isinstance(node, dict) or node.get("type") != "VALUE_CONSTANT":
        return None
    found = node.get("literal") or {}
    return str(found.get("kind")), str(found.get("text"))


def whole_number(node: Any) -> int | None:
    """The whole number a constant is (of any size); None for anything else."""
    found = literal(node)
    if found is None or found[0] not in ("INTEGER", "BIGINT", "HUGEINT", "SMALLINT", "TINYINT"):
        return None
    try:
        return int(found[1])
    except ValueError:
        return None


def _narrow(bounds: Bounds, term: dict[str, Any]) -> bool:
    """Narrow ``bounds`` by one term of the ``WHERE``; whether it did."""
    kind = term.get("type")
    if kind == "COMPARE_BETWEEN" and _is_index(term.get("input")):
        lo, hi = whole_number(term.get("lower")), whole_number(term.get("upper"))
        if lo is None or hi is None:
            return False
        _set(bounds, lo, hi + 1)
        return True
    if kind == "COMPARE_IN":
        first, *rest = term.get("children") or [None]
        values = [whole_number(v) for v in rest]
        if not _is_index(first) or not values or None in values:
            return False
        held = {int(v) for v in values if v is not None}
        bounds.only = held if bounds.only is None else bounds.only & held
        return True
    if kind not in FLIPPED:
        return False
    left, right = term.get("left"), term.get("right")
    if _is_index(right) and not _is_index(left):
        left, right, kind = right, left, FLIPPED[kind]
    value = whole_number(right)
    if not _is_index(left) or value is None:
        return False
    if kind == "COMPARE_EQUAL":
        _set(bounds, value, value + 1)
    elif kind == "COMPARE_LESSTHAN":
        _set(bounds, None, value)
    elif kind == "COMPARE_LESSTHANOREQUALTO":
        _set(bounds, None, value + 1)
    elif kind == "COMPARE_GREATERTHAN":
        _set(bounds, value + 1, None)
    else:
        _set(bounds, value, None)
    return True


def _set(bounds: Bounds, lo: int | None, hi: int | None) -> None:
    if lo is not None:
        bounds.lo = max(bounds.lo, lo)
    if hi is not None:
        bounds.hi = hi if bounds.hi is None else min(bounds.hi, hi)
