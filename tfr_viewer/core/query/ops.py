"""The values and functions of the filter language, over block columns.

Comparisons, arithmetic and ``in`` bring two values into one space (elements of a list
column, rows, or a constant) and work element-wise with numpy; ``FUNCTIONS`` is the
whitelist of callable names. Type mistakes raise TypeError, which the filter reports.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from .columns import (
    Col,
    Rag,
    Value,
    as_array,
    elementwise,
    per_row_all,
    per_row_any,
    truthy_array,
)


def _bytes_like(arr: np.ndarray) -> bool:
    return arr.dtype == object and len(arr) > 0 and isinstance(arr[0], (bytes, bytearray))


def _coerce(x: Any, y: Any) -> tuple[Any, Any]:
    """Encode a text constant when it meets bytes values."""
    if isinstance(y, str) and isinstance(x, np.ndarray) and _bytes_like(x):
        y = y.encode()
    if isinstance(x, str) and isinstance(y, np.ndarray) and _bytes_like(y):
        x = x.encode()
    return x, y


def _align(a: Value, b: Value) -> tuple[Any, Any, Callable[[np.ndarray], Value], int]:
    """Bring two values into one space (elements, rows or constant)."""
    rag = a if isinstance(a, Rag) else b if isinstance(b, Rag) else None
    if rag is not None:
        lengths = rag.lengths()

        def side(v: Value) -> Any:
            if isinstance(v, Rag):
                if v is not rag and not np.array_equal(v.splits, rag.splits):
                    raise TypeError("cannot combine lists of different lengths element-wise")
                return v.values
            if isinstance(v, Col):
                return np.repeat(v.values, lengths)
            if isinstance(v, (list, tuple)):
                raise TypeError("cannot combine a list constant element-wise")
            return v

        return side(a), side(b), lambda r: Rag(r, rag.splits), len(rag.values)
    col = a if isinstance(a, Col) else b if isinstance(b, Col) else None
    if col is not None:
        valid = None
        for v in (a, b):
            if isinstance(v, Col) and v.valid is not None:
                valid = v.valid if valid is None else valid & v.valid
        xa = a.values if isinstance(a, Col) else a
        xb = b.values if isinstance(b, Col) else b
        return xa, xb, lambda r: Col(r, valid), len(col.values)
    return a, b, lambda r: r, 0


def _list_equal(a: Value, b: Value) -> Col | None:
    """Row-wise list equality when one side is a list (feature or constant)."""
    if isinstance(a, (list, tuple)) and isinstance(b, Rag):
        a, b = b, a
    if isinstance(a, Rag) and isinstance(b, (list, tuple)):
        const = as_array(
            [v.encode() if isinstance(v, str) and _bytes_like(a.values) else v for v in b]
        )
        lengths = a.lengths()
        pos = np.arange(len(a.values)) - np.repeat(a.splits[:-1], lengths)
        if len(const):
            expected = const[np.minimum(pos, len(const) - 1)]
            same = elementwise(operator.eq, a.values, expected, len(a.values)).astype(bool)
        else:
            same = np.zeros(len(a.values), dtype=bool)
        return Col((lengths == len(const)) & per_row_all(a, same))
    if isinstance(a, Rag) and isinstance(b, Rag):
        if np.array_equal(a.splits, b.splits):
            same = elementwise(operator.eq, a.values, b.values, len(a.values)).astype(bool)
            return Col(per_row_all(a, same))
        rows = [
            list(a.values[a.splits[i] : a.splits[i + 1]])
            == list(b.values[b.splits[i] : b.splits[i + 1]])
            for i in range(a.rows)
        ]
        return Col(np.array(rows, dtype=bool))
    return None


def compare(op: Callable[[Any, Any], Any], a: Value, b: Value) -> Value:
    if op in (operator.eq, operator.ne):
        listwise = _list_equal(a, b)
        if listwise is not None:
            return listwise if op is operator.eq else Col(~listwise.values)
    x, y, wrap, size = _align(a, b)
    x, y = _coerce(x, y)
    if size == 0 and not isinstance(x, np.ndarray) and not isinstance(y, np.ndarray):
        try:
            return op(x, y)
        except TypeError:
            return op is operator.ne
    return wrap(elementwise(op, x, y, size).astype(bool))


def _number_array(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        if x.dtype == object or x.dtype == bool:
            raise TypeError("arithmetic needs numbers, not text or bytes")
        return x
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"arithmetic needs numbers, got {type(x).__name__}")
    return x


def arithmetic(op: Callable[[Any, Any], Any], a: Value, b: Value) -> Value:
    x, y, wrap, _ = _align(a, b)
    x, y = _number_array(x), _number_array(y)
    with np.errstate(all="ignore"):
        if op not in (operator.truediv, operator.mod):
            return wrap(op(x, y))
        # Division by zero has no value (NaN, which no comparison matches), never inf.
        if not isinstance(x, np.ndarray) and not isinstance(y, np.ndarray):
            return op(x, y) if y else float("nan")
        result = np.asarray(op(np.asarray(x, dtype=float), y), dtype=float)
        zero = np.broadcast_to(np.asarray(y) == 0, result.shape)
        return wrap(np.where(zero, np.nan, result))


def _values_of(v: Value) -> list[Any]:
    if isinstance(v, (list, tuple)):
        return list(v)
    return [v]


def membership(a: Value, b: Value, rows: int) -> Value:
    """``a in b``: b a list constant, a feature (per row), or a text (substring)."""
    if isinstance(b, (list, tuple)):
        pool = set()
        for v in b:
            pool.add(v)
            if isinstance(v, str):
                pool.add(v.encode())
        if isinstance(a, (Rag, Col)):
            flags = np.fromiter((v in pool for v in a.values), dtype=bool, count=len(a.values))
            return Rag(flags, a.splits) if isinstance(a, Rag) else Col(flags, a.valid)
        return a in pool
    if isinstance(b, Rag):
        if isinstance(a, (Rag, Col)):
            raise TypeError("'in' needs a constant on its left when its right is a feature")
        x, y = _coerce(a, b.values)
        return Col(per_row_any(b, elementwise(operator.eq, y, x, len(b.values)).astype(bool)))
    if isinstance(b, str):
        if isinstance(a, str):
            return a in b
        raise TypeError("'in' with a text on the right needs a text on the left")
    if isinstance(b, Col) and isinstance(a, str):
        return Col(np.fromiter((a in str(v) for v in b.values), dtype=bool, count=rows), b.valid)
    raise TypeError("'in' needs a list, a feature or a text on its right")


def _text(v: Any) -> str:
    return v.decode("utf-8", "replace") if isinstance(v, (bytes, bytearray)) else str(v)


def _text_test(test: Callable[[str, str], bool]) -> Callable[[Value, Value], Value]:
    def apply(v: Value, arg: Value) -> Value:
        if not isinstance(arg, str):
            raise TypeError("the second argument must be a quoted text")
        if isinstance(v, (Rag, Col)):
            flags = np.fromiter(
                (test(_text(x), arg) for x in v.values), dtype=bool, count=len(v.values)
            )
            return Rag(flags, v.splits) if isinstance(v, Rag) else Col(flags, v.valid)
        return any(test(_text(x), arg) for x in _values_of(v))

    return apply


_REGEX_CACHE: dict[str, Any] = {}


def compile_regex(pattern: str) -> Any:
    """A compiled pattern run by RE2, whose time is linear in the text (no catastrophic
    backtracking). Raises TypeError for a bad pattern, or one RE2 refuses."""
    import re2

    options = re2.Options()
    options.log_errors = False  # the reason is in the exception, not on stderr
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else exc
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise TypeError(
            f"the regular expression {pattern!r} is refused ({reason}); patterns run on a "
            "linear-time engine (RE2), which has no backreferences or lookaround"
        ) from None


def _regex(v: Value, pattern: Value) -> Value:
    if not isinstance(pattern, str) or len(pattern) > 500:
        raise TypeError("the pattern must be a quoted text of at most 500 characters")
    rx = _REGEX_CACHE.get(pattern)
    if rx is None:
        rx = _REGEX_CACHE[pattern] = compile_regex(pattern)
    return _text_test(lambda s, _p: rx.search(s) is not None)(v, pattern)


def _len(v: Value) -> Value:
    if isinstance(v, Rag):
        return Col(v.lengths())
    if isinstance(v, Col):
        return Col(
            np.fromiter((len(x) for x in v.values), dtype=np.int64, count=len(v.values)), v.valid
        )
    return len(v) if isinstance(v, (list, tuple, str, bytes)) else 1


def _reducer(name: str) -> Callable[[Value], Value]:
    ufunc = {"min": np.minimum, "max": np.maximum, "sum": np.add}[name]

    def apply(v: Value) -> Value:
        if isinstance(v, Rag):
            values = _number_array(v.values)
            lengths = v.lengths()
            nonempty = lengths > 0
            out = np.zeros(v.rows, dtype=values.dtype if len(values) else np.int64)
            if nonempty.any():
                out[nonempty] = ufunc.reduceat(values, v.splits[:-1][nonempty])
            return Col(out, None if name == "sum" else nonempty)
        if isinstance(v, Col):
            return v
        values = _values_of(v)
        if not values:
            return None
        return min(values) if name == "min" else max(values) if name == "max" else sum(values)

    return apply


def _whole(
    test: Callable[[Rag, np.ndarray], np.ndarray], py: Callable[..., bool]
) -> Callable[[Value], Value]:
    def apply(v: Value) -> Value:
        if isinstance(v, Rag):
            return Col(test(v, truthy_array(v.values)))
        if isinstance(v, Col):
            return Col(truthy_array(v.values), v.valid)
        return py(_values_of(v))

    return apply


def _abs(v: Value) -> Value:
    if isinstance(v, Rag):
        return Rag(np.abs(_number_array(v.values)), v.splits)
    if isinstance(v, Col):
        return Col(np.abs(_number_array(v.values)), v.valid)
    return abs(_number_array(v))


def _lower(v: Value) -> Value:
    def low(values: np.ndarray) -> np.ndarray:
        return as_array([_text(x).lower() for x in values])

    if isinstance(v, Rag):
        return Rag(low(v.values), v.splits)
    if isinstance(v, Col):
        return Col(low(v.values), v.valid)
    return _text(v).lower()


def _image_side(side: str) -> Callable[[Value], Value]:
    """``width(x)`` / ``height(x)``: the size of each image value from its header (no
    decode); NaN for a value that is not an image, so that no comparison matches it."""

    def sides(values: Any) -> np.ndarray:
        from ..decode.detect import image_info

        out = np.full(len(values), np.nan)
        for i, x in enumerate(values):
            if isinstance(x, (bytes, bytearray)):
                info = image_info(bytes(x))
                if info is not None:
                    out[i] = getattr(info, side)
        return out

    def apply(v: Value) -> Value:
        if isinstance(v, Rag):
            return Rag(sides(v.values), v.splits)
        if isinstance(v, Col):
            return Col(sides(v.values), v.valid)
        return float(sides([v])[0])

    return apply


FUNCTIONS: dict[str, tuple[int, Callable[..., Value]]] = {
    "len": (1, _len),
    "any": (1, _whole(per_row_any, any)),
    "all": (1, _whole(per_row_all, all)),
    "min": (1, _reducer("min")),
    "max": (1, _reducer("max")),
    "sum": (1, _reducer("sum")),
    "abs": (1, _abs),
    "lower": (1, _lower),
    "contains": (2, _text_test(lambda s, a: a in s)),
    "startswith": (2, _text_test(lambda s, a: s.startswith(a))),
    "endswith": (2, _text_test(lambda s, a: s.endswith(a))),
    "match": (2, _regex),
    "width": (1, _image_side("width")),
    "height": (1, _image_side("height")),
}


def fields_of(values: Any, name: str) -> list[Any]:
    """The values of field ``name`` of each value in turn: values that have named
    fields (a message's, :mod:`.message_columns`) give a list each (``field(name)``)."""
    out: list[Any] = []
    for v in values:
        field = getattr(v, "field", None)
        if field is None:
            raise TypeError(f"[{name!r}] names a field of a message: {v!r} is no message")
        out += field(name)
    return out


def named_field(v: Value, name: str) -> Value:
    """``v[name]``: the field ``name`` of each message of ``v``, a list a row (all the
    values of a row's messages together)."""
    if isinstance(v, Col):
        valid = v.valid if v.valid is not None else np.ones(len(v.values), dtype=bool)
        per_row = [
            fields_of([x], name) if ok else [] for x, ok in zip(v.values, valid, strict=True)
        ]
    elif isinstance(v, Rag):
        per_row = [
            fields_of(v.values[a:b], name) for a, b in zip(v.splits[:-1], v.splits[1:], strict=True)
        ]
    else:
        return fields_of([v], name)
    lengths = np.array([len(p) for p in per_row], dtype=np.int64)
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    return Rag(as_array([x for p in per_row for x in p]), splits)
