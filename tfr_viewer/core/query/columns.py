"""Column values for block-wise filter evaluation.

A filter runs over a block of records at once. Each expression is a constant (the same
for every row), a :class:`Col` (one value per row, possibly missing) or a :class:`Rag`
(a list per row: flat ``values`` and ``splits`` of length rows + 1).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Col:
    values: np.ndarray
    valid: np.ndarray | None = None  # rows that hold a value; None means all


@dataclass(frozen=True)
class Rag:
    values: np.ndarray
    splits: np.ndarray  # int64

    @property
    def rows(self) -> int:
        return len(self.splits) - 1

    def lengths(self) -> np.ndarray:
        return np.diff(self.splits)

    def row_ids(self) -> np.ndarray:
        return np.repeat(np.arange(self.rows), self.lengths())


Value = Col | Rag | Any


def _one_each(rag: Rag) -> bool:
    """Whether every row holds exactly one value (then a flag per value is a flag per row)."""
    return len(rag.values) == rag.rows and bool((np.diff(rag.splits) == 1).all())


def per_row_any(rag: Rag, flags: np.ndarray) -> np.ndarray:
    """True for rows where any element flag is set."""
    if _one_each(rag):
        return np.asarray(flags, dtype=bool)
    counts = np.concatenate([[0], np.cumsum(flags, dtype=np.int64)])
    result: np.ndarray = counts[rag.splits[1:]] > counts[rag.splits[:-1]]
    return result


def per_row_all(rag: Rag, flags: np.ndarray) -> np.ndarray:
    if _one_each(rag):
        return np.asarray(flags, dtype=bool)
    counts = np.concatenate([[0], np.cumsum(flags, dtype=np.int64)])
    result: np.ndarray = (counts[rag.splits[1:]] - counts[rag.splits[:-1]]) == rag.lengths()
    return result


def truthy_array(values: np.ndarray) -> np.ndarray:
    if values.dtype == bool:
        return values
    if values.dtype == object:
        return np.fromiter((bool(v) for v in values), dtype=bool, count=len(values))
    result: np.ndarray = values != 0
    return result


def to_mask(value: Value, rows: int) -> np.ndarray:
    """Per-row truth: a list is true when any element is true."""
    if isinstance(value, Rag):
        return per_row_any(value, truthy_array(value.values))
    if isinstance(value, Col):
        mask = truthy_array(value.values)
        return mask & value.valid if value.valid is not None else mask
    if isinstance(value, (list, tuple)):
        return np.full(rows, any(value), dtype=bool)
    return np.full(rows, bool(value), dtype=bool)


def as_array(values: list[Any]) -> np.ndarray:
    """A flat array: int64 or float64 for numbers, object otherwise."""
    if not values:
        return np.zeros(0, dtype=np.int64)
    first = values[0]
    if isinstance(first, int) and not isinstance(first, bool):
        try:
            return np.array(values, dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            pass
    elif isinstance(first, float):
        try:
            return np.array(values, dtype=np.float64)
        except (TypeError, ValueError):
            pass
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def encode_constant(value: Any) -> Any:
    """Text constants compare with bytes values as UTF-8."""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (list, tuple)):
        return [encode_constant(v) for v in value]
    return value


def elementwise(op: Callable[[Any, Any], Any], x: Any, y: Any, size: int) -> np.ndarray:
    """``op`` over aligned arrays (or scalars); values that cannot be compared give
    False (True for ``!=``)."""
    if (
        isinstance(x, np.ndarray)
        and x.dtype == object
        or isinstance(y, np.ndarray)
        and (y.dtype == object)
    ):
        same = _equality(op, x, y, size)
        return same if same is not None else _slow(op, x, y, size)
    try:
        with np.errstate(all="ignore"):
            out = op(x, y)
    except TypeError:
        return _slow(op, x, y, size)
    if isinstance(out, np.ndarray) and out.shape == (size,):
        return out
    return np.full(size, out, dtype=np.asarray(out).dtype)


_PLAIN = (str, bytes, int, float, type(None))


def _equality(op: Callable[[Any, Any], Any], x: Any, y: Any, size: int) -> np.ndarray | None:
    """``==`` or ``!=`` of an array of objects and one plain value, element by element
    in numpy (what :func:`_slow` gives, one Python comparison each); None otherwise."""
    if op not in (operator.eq, operator.ne):
        return None
    if not (isinstance(x, np.ndarray) and isinstance(y, _PLAIN)) and not (
        isinstance(y, np.ndarray) and isinstance(x, _PLAIN)
    ):
        return None
    out = op(x, y)
    if isinstance(out, np.ndarray) and out.dtype == bool and out.shape == (size,):
        return out
    return None


def _slow(op: Callable[[Any, Any], Any], x: Any, y: Any, size: int) -> np.ndarray:
    xs = x if isinstance(x, np.ndarray) else [x] * size
    ys = y if isinstance(y, np.ndarray) else [y] * size
    results = []
    for a, b in zip(xs, ys, strict=False):
        try:
            results.append(op(a, b))
        except TypeError:
            results.append(op.__name__ == "ne")
    return as_array(results) if results else np.zeros(0, dtype=bool)
