"""The rows a query's ``WHERE`` can only reject, found as the features are extracted,
before DuckDB sees them (:func:`row_filter`).

A query over one table whose ``WHERE`` holds, joined by ``AND``, terms of these forms
(a term of another form is left to DuckDB alone; an ``OR`` is taken when each of its
sides is one of them):

- ``key[i] <op> constant`` (``=``, ``<>``, ``<``, ``<=``, ``>``, ``>=``, ``IN (...)``,
  ``BETWEEN``; ``i`` from 1, or from -1 at the end),
- ``list_contains(key, constant)`` (``contains``, ``list_has``, ``array_contains``,
  ``array_has``, ``constant IN key``),
- ``len(key) <op> n`` (``length``, ``array_length``, ``list_length``),
- ``key IS NOT NULL`` and ``key IS NULL``,

where ``key`` is a feature of the table and the constant is of its kind (a whole number
for ``int64``; a number for ``float``; text without ``\\`` for ``bytes``, as the bytes of
its UTF-8). DuckDB still applies the whole ``WHERE``: a row is left out here only when
the term is false or NULL for it as DuckDB reckons it, so the result is the same. A
``float`` compared both as a float32 (as DuckDB compares ``FLOAT`` with a decimal) and
as a double, kept when either holds or the value is NaN; a record that could not be
read is always kept (its features are NULL: DuckDB decides)."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..query.columns import Rag, per_row_any
from .sql_pushdown import FLIPPED, conjuncts, literal, lone_select, whole_number

_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "COMPARE_EQUAL": operator.eq,
    "COMPARE_NOTEQUAL": operator.ne,
    "COMPARE_LESSTHAN": operator.lt,
    "COMPARE_LESSTHANOREQUALTO": operator.le,
    "COMPARE_GREATERTHAN": operator.gt,
    "COMPARE_GREATERTHANOREQUALTO": operator.ge,
}
_FLIPPED = {**FLIPPED, "COMPARE_NOTEQUAL": "COMPARE_NOTEQUAL"}  # c <op> key as key <op'> c
_CONTAINS = {"list_contains", "contains", "list_has", "array_contains", "array_has"}
_LENGTHS = {"len", "length", "array_length", "list_length"}
_INT64 = (-(1 << 63), (1 << 63) - 1)


@dataclass(frozen=True)
class ListColumn:
    """A feature's list column over a batch's rows: whether each row holds it (as the
    column's kind), its number of values, and the values of every row in row order."""

    valid: np.ndarray
    lengths: np.ndarray
    values: np.ndarray

    def take(self, rows: np.ndarray) -> ListColumn:
        """The column over the rows where ``rows`` (a mask) is set."""
        return ListColumn(
            self.valid[rows], self.lengths[rows], self.values[np.repeat(rows, self.lengths)]
        )


Test = Callable[[Mapping[str, ListColumn], int], np.ndarray]  # rows it may hold for
Reach = tuple[str, str, int]  # (key, "at" or "len", the element's place from 1 or -1)


@dataclass(frozen=True)
class RowFilter:
    """The terms found, each a test of the rows; :meth:`keep` the rows they all may
    hold for."""

    keys: frozenset[str]
    tests: tuple[Test, ...]

    def keep(self, columns: Mapping[str, ListColumn], rows: int) -> np.ndarray:
        out = np.ones(rows, dtype=bool)
        for test in self.tests:
            out &= test(columns, rows)
        return out


def row_filter(tree: dict[str, Any], table: str, features: Mapping[str, str]) -> RowFilter | None:
    """The terms of the ``WHERE`` of the parsed statement ``tree`` (DuckDB's
    ``json_serialize_sql``) over ``table`` alone that name its ``features`` (by kind),
    in the forms above; None when it reads other tables or no term is of them."""
    node = lone_select(tree, table)
    if node is None:
        return None
    source = node.get("from_table") or {}
    scope = _Scope(features, {table.lower(), str(source.get("alias") or table).lower()})
    keys: set[str] = set()
    tests = []
    for term in conjuncts(node.get("where_clause")):
        found = _term(term, scope, keys)
        if found is not None:
            tests.append(found)
    return RowFilter(frozenset(keys), tuple(tests)) if tests else None


class _Scope:
    """The table's features by kind, and by the name SQL gives them (not case-sensitive:
    a name two keys share names neither); the names that may qualify a column."""

    def __init__(self, features: Mapping[str, str], qualifiers: set[str]) -> None:
        self.features = features
        self.qualifiers = qualifiers
        named: dict[str, str | None] = {}
        for key in features:
            named[key.lower()] = None if key.lower() in named else key
        self.named = {k: v for k, v in named.items() if v is not None}

    def key(self, node: Any) -> str | None:
        """The feature a column reference names (``key`` or ``table.key``)."""
        if not isinstance(node, dict) or node.get("type") != "COLUMN_REF":
            return None
        names = [str(n).lower() for n in node.get("column_names") or []]
        if not names or len(names) > 2 or (len(names) == 2 and names[0] not in self.qualifiers):
            return None
        return self.named.get(names[-1])

    def kind(self, reach: Reach) -> str:
        return "int64" if reach[1] == "len" else self.features[reach[0]]


def _term(term: dict[str, Any], scope: _Scope, keys: set[str]) -> Test | None:
    """The test of one term, its keys added to ``keys``; None when it is of no form here."""
    kind = term.get("type")
    if kind == "CONJUNCTION_OR":
        held: set[str] = set()
        sides = [_term(c, scope, held) for c in term.get("children") or []]
        if not sides or any(s is None for s in sides):
            return None
        keys |= held
        return _either([s for s in sides if s is not None])
    if kind in ("OPERATOR_IS_NOT_NULL", "OPERATOR_IS_NULL"):
        children = term.get("children") or []
        key = scope.key(children[0]) if len(children) == 1 else None
        if key is None:
            return None
        keys.add(key)
        return _held(key, kind == "OPERATOR_IS_NOT_NULL")
    if kind == "FUNCTION" and str(term.get("function_name", "")).lower() in _CONTAINS:
        arguments = [a.get("expression") for a in term.get("arguments") or []]
        key = scope.key(arguments[0]) if len(arguments) == 2 else None
        if key is None:
            return None
        value = _constant(arguments[1], scope.features[key])
        if value is None:
            return None
        keys.add(key)
        return _contains(key, scope.features[key], value)
    if kind == "COMPARE_IN":
        first, *rest = term.get("children") or [None]
        reach = _reach(first, scope)
        if reach is None or not rest:
            return None
        typed = [_constant(v, scope.kind(reach)) for v in rest]
        if any(v is None for v in typed):
            return None
        keys.add(reach[0])
        return _member(reach, scope.kind(reach), typed)
    if kind == "COMPARE_BETWEEN":
        reach = _reach(term.get("input"), scope)
        if reach is None:
            return None
        lo = _constant(term.get("lower"), scope.kind(reach))
        hi = _constant(term.get("upper"), scope.kind(reach))
        if lo is None or hi is None:
            return None
        keys.add(reach[0])
        kind_of = scope.kind(reach)
        return _both(
            [_compare(reach, kind_of, operator.ge, lo), _compare(reach, kind_of, operator.le, hi)]
        )
    if kind in _OPERATORS:
        left, right = term.get("left"), term.get("right")
        if _reach(left, scope) is None:
            left, right, kind = right, left, _FLIPPED.get(str(kind), "")
        reach = _reach(left, scope)
        if reach is None or kind not in _OPERATORS:
            return None
        value = _constant(right, scope.kind(reach))
        if value is None:
            return None
        keys.add(reach[0])
        return _compare(reach, scope.kind(reach), _OPERATORS[kind], value)
    return None


def _reach(node: Any, scope: _Scope) -> Reach | None:
    """``key[i]`` or ``len(key)``."""
    if not isinstance(node, dict):
        return None
    if node.get("type") == "ARRAY_EXTRACT":
        children = node.get("children") or []
        key = scope.key(children[0]) if len(children) == 2 else None
        place = _whole(children[1]) if key is not None else None
        if key is None or place is None or place == 0:
            return None
        return key, "at", place
    if node.get("type") == "FUNCTION" and str(node.get("function_name", "")).lower() in _LENGTHS:
        arguments = [a.get("expression") for a in node.get("arguments") or []]
        key = scope.key(arguments[0]) if len(arguments) == 1 else None
        return None if key is None else (key, "len", 0)
    return None


def _whole(node: Any) -> int | None:
    """A whole number constant within int64 (the values it is compared with)."""
    value = whole_number(node)
    return value if value is not None and _INT64[0] <= value <= _INT64[1] else None


def _constant(node: Any, kind: str) -> Any:
    """The constant ``node`` as a value of a feature of ``kind``; None when it is not one
    a test here reckons as DuckDB does."""
    found = literal(node)
    if found is None:
        return None
    kind_of_literal, text = found
    if kind == "int64":
        return _whole(node)
    if kind == "float":
        numbers = ("INTEGER", "BIGINT", "HUGEINT", "SMALLINT", "TINYINT", "NUMERIC", "DECIMAL")
        if kind_of_literal not in numbers:
            return None
        try:
            value = float(text)
        except ValueError:
            return None
        return value if math.isfinite(value) else None
    if kind == "bytes":
        return text.encode() if kind_of_literal == "STRING" and "\\" not in text else None
    return None


def _compare(reach: Reach, kind: str, op: Any, value: Any) -> Test:
    return _judged(reach, lambda values: _holds(values, op, value, kind))


def _member(reach: Reach, kind: str, constants: list[Any]) -> Test:
    """``reach IN (constants)``, at once however many they are."""
    return _judged(reach, lambda values: _among(values, constants, kind))


def _judged(reach: Reach, judge: Callable[[np.ndarray], np.ndarray]) -> Test:
    """The rows whose ``key[i]`` (or ``len(key)``) the judge holds for."""
    key, how, place = reach

    def test(columns: Mapping[str, ListColumn], rows: int) -> np.ndarray:
        column = columns[key]
        if how == "len":
            return np.asarray(column.valid & judge(column.lengths), dtype=bool)
        held = column.valid & (column.lengths >= abs(place))
        starts = np.concatenate([[0], np.cumsum(column.lengths)[:-1]]).astype(np.int64)
        at = (starts + place - 1) if place > 0 else (starts + column.lengths + place)
        out = np.zeros(rows, dtype=bool)
        out[held] = judge(column.values[at[held]])
        return out

    return test


def _among(values: np.ndarray, constants: list[Any], kind: str) -> np.ndarray:
    """Whether each value is one of ``constants``, as DuckDB may reckon it (see the
    module)."""
    if kind == "float":
        narrow = np.isin(values.astype(np.float32), np.array(constants, dtype=np.float32))
        wide = np.isin(values.astype(np.float64), np.array(constants, dtype=np.float64))
        return np.asarray(narrow | wide | np.isnan(values), dtype=bool)
    if kind == "bytes":
        held = set(constants)
        return np.fromiter((v in held for v in values), dtype=bool, count=len(values))
    return np.asarray(np.isin(values.astype(np.int64), np.array(constants, dtype=np.int64)))


def _held(key: str, wanted: bool) -> Test:
    def test(columns: Mapping[str, ListColumn], rows: int) -> np.ndarray:
        return np.asarray(columns[key].valid == wanted, dtype=bool)

    return test


def _contains(key: str, kind: str, value: Any) -> Test:
    def test(columns: Mapping[str, ListColumn], rows: int) -> np.ndarray:
        column = columns[key]
        splits = np.concatenate([[0], np.cumsum(column.lengths)]).astype(np.int64)
        flags = _holds(column.values, operator.eq, value, kind)
        return np.asarray(column.valid & per_row_any(Rag(column.values, splits), flags), dtype=bool)

    return test


def _holds(values: np.ndarray, op: Any, value: Any, kind: str) -> np.ndarray:
    """``op(v, value)`` of each value, as DuckDB may reckon it (see the module)."""
    if kind == "float":
        narrow = op(values.astype(np.float32), np.float32(value))
        wide = op(values.astype(np.float64), value)
        return np.asarray(narrow | wide | np.isnan(values), dtype=bool)
    if kind == "bytes":
        return np.fromiter((bool(op(v, value)) for v in values), dtype=bool, count=len(values))
    return np.asarray(op(values.astype(np.int64), value), dtype=bool)


def _either(sides: list[Test]) -> Test:
    def test(columns: Mapping[str, ListColumn], rows: int) -> np.ndarray:
        out = np.zeros(rows, dtype=bool)
        for side in sides:
            out |= side(columns, rows)
        return out

    return test


def _both(sides: list[Test]) -> Test:
    def test(columns: Mapping[str, ListColumn], rows: int) -> np.ndarray:
        out = np.ones(rows, dtype=bool)
        for side in sides:
            out &= side(columns, rows)
        return out

    return test
