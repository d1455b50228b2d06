"""The filter language: Python expression syntax, parsed with ``ast``, run by a whitelist.

Nothing is ever passed to ``eval``. The expression is parsed once and compiled into a
tree of small functions over a *block* of records (numpy columns, see
:mod:`.columns`); only the node types and functions listed here are accepted, so
attribute access, arbitrary calls, comprehensions, lambdas and ``**`` are refused with
the column of the mistake.

Semantics: a feature is the list of its values (bytes compare with text as UTF-8); a
missing feature is an empty list. A list compared with a scalar is compared element by
element, and a list of booleans is true when any element is true: ``label == 3``
matches a record whose ``label`` holds 3, ``all(score > 0.5)`` needs every element.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from .columns import (
    Col,
    Rag,
    Value,
    as_array,
    elementwise,
    per_row_all,
    per_row_any,
    to_mask,
    truthy_array,
)

MAX_LENGTH = 4000
MAX_DEPTH = 40
RECORD_FIELDS = ("index", "file", "offset", "length", "status")


class QueryError(ValueError):
    """A filter that cannot be compiled or evaluated; ``column`` is 1-based."""

    def __init__(self, message: str, column: int | None = None, text: str = "") -> None:
        self.message = message
        self.column = column
        self.text = text
        where = f"at column {column}: " if column else ""
        pointer = ""
        if column and text and "\n" not in text:
            pointer = f"\n  {text}\n  {' ' * (column - 1)}^"
        super().__init__(f"filter error {where}{message}{pointer}")


class Block(Protocol):
    """Records seen by a filter at once."""

    rows: int

    def field(self, name: str) -> np.ndarray:
        """A record field per row: index/offset/length int64, file/status str objects."""

    def feature(self, key: str) -> tuple[Rag, np.ndarray]:
        """The values of ``key`` per row (bytes as bytes) and a per-row presence mask."""


Node = Callable[[Block], Value]
_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_ARITH = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
}


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
        if (
            op is operator.truediv
            and not isinstance(x, np.ndarray)
            and not isinstance(y, np.ndarray)
        ):
            return x / y if y else float("nan")
        return wrap(op(np.asarray(x, dtype=float) if op is operator.truediv else x, y))


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


_REGEX_CACHE: dict[str, re.Pattern[str]] = {}


def _regex(v: Value, pattern: Value) -> Value:
    if not isinstance(pattern, str) or len(pattern) > 500:
        raise TypeError("the pattern must be a quoted text of at most 500 characters")
    rx = _REGEX_CACHE.get(pattern)
    if rx is None:
        try:
            rx = re.compile(pattern)
        except re.error as exc:
            raise TypeError(f"bad regular expression {pattern!r}: {exc}") from None
        _REGEX_CACHE[pattern] = rx
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
        return {"min": min, "max": max, "sum": sum}[name](values) if values else None

    return apply


def _whole(test: Callable[[Rag, np.ndarray], np.ndarray], py: Callable[..., bool]):
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
}
_CONSTANTS = {"True": True, "False": False, "None": None}


@dataclass(frozen=True)
class Filter:
    """A compiled filter. ``keys`` are the feature keys it reads (empty: it needs only
    record fields, so payloads need not be parsed)."""

    text: str
    keys: frozenset[str]
    _root: Node

    def mask(self, block: Block) -> np.ndarray:
        """Per-row match over ``block``; raises QueryError on a type mistake."""
        try:
            return to_mask(self._root(block), block.rows)
        except (TypeError, ZeroDivisionError, OverflowError) as exc:
            raise QueryError(str(exc), None, self.text) from None


class _Compiler:
    def __init__(self, text: str) -> None:
        self.text = text
        self.keys: set[str] = set()

    def fail(self, node: ast.AST, message: str) -> QueryError:
        return QueryError(message, getattr(node, "col_offset", 0) + 1, self.text)

    def compile(self, node: ast.AST, depth: int = 0) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail(node, f"the expression is nested more than {MAX_DEPTH} levels deep")
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            raise self.fail(node, f"{_describe(node)} is not allowed in a filter")
        return method(node, depth + 1)

    def _Expression(self, node: ast.Expression, d: int) -> Node:
        return self.compile(node.body, d)

    def _Constant(self, node: ast.Constant, d: int) -> Node:
        value = node.value
        if not isinstance(value, (int, float, str, bytes, bool, type(None))):
            raise self.fail(node, f"constants of type {type(value).__name__} are not allowed")
        return lambda block: value

    def _Name(self, node: ast.Name, d: int) -> Node:
        name = node.id
        if name in _CONSTANTS:
            value = _CONSTANTS[name]
            return lambda block: value
        if name in RECORD_FIELDS:
            return lambda block: Col(block.field(name))
        return self._feature(name)

    def _feature(self, key: str) -> Node:
        self.keys.add(key)
        return lambda block: block.feature(key)[0]

    def _Subscript(self, node: ast.Subscript, d: int) -> Node:
        sl = node.slice
        if isinstance(node.value, ast.Name) and node.value.id == "f":
            if not (isinstance(sl, ast.Constant) and isinstance(sl.value, str)):
                raise self.fail(sl, 'write a feature key as f["key"], with the key quoted')
            return self._feature(sl.value)
        position = _int_constant(sl)
        if position is not None:
            inner, i = self.compile(node.value, d), position

            def item(block: Block) -> Value:
                v = inner(block)
                if not isinstance(v, Rag):
                    raise TypeError("only features and lists can be indexed")
                lengths = v.lengths()
                valid = lengths > i if i >= 0 else lengths >= -i
                base = v.splits[:-1] + i if i >= 0 else v.splits[1:] + i
                pick = np.where(valid, base, 0)
                values = v.values[pick] if len(v.values) else np.zeros(v.rows, dtype=np.int64)
                return Col(values, valid)

            return item
        raise self.fail(node, 'only f["key"] and value[number] subscripts are allowed')

    def _List(self, node: ast.List | ast.Tuple, d: int) -> Node:
        items = []
        for e in node.elts:
            if not isinstance(e, ast.Constant) and not (
                isinstance(e, ast.UnaryOp) and isinstance(e.operand, ast.Constant)
            ):
                raise self.fail(e, "list literals may hold only constants")
            items.append(self.compile(e, d))
        return lambda block: [i(block) for i in items]

    _Tuple = _List

    def _BoolOp(self, node: ast.BoolOp, d: int) -> Node:
        parts = [self.compile(v, d) for v in node.values]
        combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or

        def boolop(block: Block) -> Value:
            mask = to_mask(parts[0](block), block.rows)
            for p in parts[1:]:
                mask = combine(mask, to_mask(p(block), block.rows))
            return Col(mask)

        return boolop

    def _UnaryOp(self, node: ast.UnaryOp, d: int) -> Node:
        operand = self.compile(node.operand, d)
        if isinstance(node.op, ast.Not):
            return lambda block: Col(~to_mask(operand(block), block.rows))
        if isinstance(node.op, ast.USub):
            return lambda block: arithmetic(operator.mul, operand(block), -1)
        if isinstance(node.op, ast.UAdd):
            return operand
        raise self.fail(node, f"the operator {type(node.op).__name__} is not allowed")

    def _BinOp(self, node: ast.BinOp, d: int) -> Node:
        op = _ARITH.get(type(node.op))
        if op is None:
            raise self.fail(
                node, f"the operator {type(node.op).__name__} is not allowed (use + - * / %)"
            )
        left, right = self.compile(node.left, d), self.compile(node.right, d)
        return lambda block: arithmetic(op, left(block), right(block))

    def _Compare(self, node: ast.Compare, d: int) -> Node:
        operands = [self.compile(node.left, d)] + [self.compile(c, d) for c in node.comparators]
        steps: list[Callable[[Value, Value, int], Value]] = []
        for op in node.ops:
            if isinstance(op, ast.In):
                steps.append(membership)
            elif isinstance(op, ast.NotIn):
                steps.append(lambda a, b, n: Col(~to_mask(membership(a, b, n), n)))
            elif type(op) in _COMPARE:
                cmp = _COMPARE[type(op)]
                steps.append(lambda a, b, n, cmp=cmp: compare(cmp, a, b))
            else:
                raise self.fail(node, f"the comparison {type(op).__name__} is not allowed")

        def chain(block: Block) -> Value:
            values = [o(block) for o in operands]
            if len(steps) == 1:
                return steps[0](values[0], values[1], block.rows)
            mask = np.ones(block.rows, dtype=bool)
            for i, step in enumerate(steps):
                mask &= to_mask(step(values[i], values[i + 1], block.rows), block.rows)
            return Col(mask)

        return chain

    def _Call(self, node: ast.Call, d: int) -> Node:
        if not isinstance(node.func, ast.Name):
            raise self.fail(node, "only plain function names can be called")
        name = node.func.id
        if node.keywords:
            raise self.fail(node, f"{name}() takes no keyword arguments")
        if name == "has":
            arg = node.args[0] if len(node.args) == 1 else None
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                raise self.fail(node, 'write has("feature key") with the key quoted')
            key = arg.value
            self.keys.add(key)
            return lambda block: Col(block.feature(key)[1])
        if name not in FUNCTIONS:
            allowed = ", ".join(sorted([*FUNCTIONS, "has"]))
            raise self.fail(node.func, f"unknown function {name!r}; allowed: {allowed}")
        arity, fn = FUNCTIONS[name]
        if len(node.args) != arity:
            raise self.fail(node, f"{name}() takes {arity} argument(s), got {len(node.args)}")
        args = [self.compile(a, d) for a in node.args]
        return lambda block: fn(*(a(block) for a in args))


def _int_constant(node: ast.AST) -> int | None:
    """The value of ``3`` or ``-3`` written as a literal, else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_constant(node.operand)
        return -inner if inner is not None else None
    return None


def _describe(node: ast.AST) -> str:
    names = {
        "Attribute": "attribute access (a.b)",
        "Lambda": "a lambda",
        "ListComp": "a comprehension",
        "GeneratorExp": "a generator expression",
        "DictComp": "a comprehension",
        "SetComp": "a comprehension",
        "NamedExpr": "assignment (:=)",
        "Starred": "unpacking (*)",
        "Dict": "a dict literal",
        "Set": "a set literal",
        "IfExp": "a conditional expression",
        "JoinedStr": "an f-string",
    }
    return names.get(type(node).__name__, type(node).__name__)


def compile_filter(text: str) -> Filter:
    """Parse and check ``text``; raise :class:`QueryError` pointing at the mistake."""
    source = text.strip()
    if not source:
        raise QueryError("the filter is empty")
    if len(source) > MAX_LENGTH:
        raise QueryError(f"the filter is longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        if not exc.offset:  # the input ended before the expression did
            raise QueryError("the expression is incomplete", len(source) + 1, source) from None
        raise QueryError(exc.msg, min(exc.offset, len(source) + 1), source) from None
    except (RecursionError, MemoryError, ValueError):
        raise QueryError("the expression is too deeply nested") from None
    compiler = _Compiler(source)
    try:
        root = compiler.compile(tree)
    except RecursionError:
        raise QueryError("the expression is too deeply nested") from None
    return Filter(source, frozenset(compiler.keys), root)
