"""The filter language: Python expression syntax, parsed with ``ast``, run by a whitelist.

Nothing is ever passed to ``eval``. The expression is parsed once and compiled into a
tree of small functions over a *block* of records (numpy columns, see :mod:`.columns`;
the operations are in :mod:`.query_ops`). Only the node types and functions listed
there and here are accepted, so attribute access, arbitrary calls, comprehensions,
lambdas and ``**`` are refused with the column of the mistake.

Semantics: a feature is the list of its values (bytes compare with text as UTF-8); a
missing feature is an empty list. A list compared with a scalar is compared element by
element, and a list of booleans is true when any element is true: ``label == 3``
matches a record whose ``label`` holds 3, ``all(score > 0.5)`` needs every element.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ..user_error import UserError
from .columns import Col, Rag, Value, to_mask
from .ops import FUNCTIONS, arithmetic, compare, membership, named_field

MAX_LENGTH = 4000
MAX_DEPTH = 40
RECORD_FIELDS = ("index", "file", "offset", "length", "status")


class QueryError(UserError, ValueError):
    """A filter that cannot be compiled or evaluated; ``column`` is 1-based."""

    def __init__(self, message: str, column: int | None = None, text: str = "") -> None:
        self.message = message
        self.column = column
        self.text = text
        where = f" at column {column}: " if column else ": "
        if column and text and text.isprintable():  # the user's own text, the caret under it
            self.detail = f"\n  {text}\n  {' ' * (column - 1)}^"
        super().__init__(f"filter error{where}{message}")


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


def _comparing(cmp: Callable[[Any, Any], Any]) -> Callable[[Value, Value, int], Value]:
    """A step of a comparison chain that compares with ``cmp``."""
    return lambda a, b, _n: compare(cmp, a, b)


_ARITH = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
}


_CONSTANTS = {"True": True, "False": False, "None": None}


@dataclass(frozen=True)
class Filter:
    """A compiled filter. ``keys`` are the feature keys it reads (empty: it needs only
    record fields, so payloads need not be parsed)."""

    text: str
    keys: frozenset[str]
    _root: Node
    record_names: frozenset[str] = frozenset()  # bare record column names (maybe features)
    resolved: bool = False  # whether those names were resolved against the data

    def mask(self, block: Block) -> np.ndarray:
        """Per-row match over ``block``; raises QueryError on a type mistake."""
        try:
            return to_mask(self._root(block), block.rows)
        except (TypeError, ZeroDivisionError, OverflowError) as exc:
            raise QueryError(str(exc), None, self.text) from None


class _Compiler:
    def __init__(self, text: str, features: frozenset[str]) -> None:
        self.text = text
        self.keys: set[str] = set()
        self.features = features
        self.record_names: set[str] = set()

    def fail(self, node: ast.AST, message: str) -> QueryError:
        return QueryError(message, getattr(node, "col_offset", 0) + 1, self.text)

    def compile(self, node: ast.AST, depth: int = 0) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail(node, f"the expression is nested more than {MAX_DEPTH} levels deep")
        method: Callable[[ast.AST, int], Node] | None = getattr(
            self, f"_{type(node).__name__}", None
        )
        if method is None:
            raise self.fail(node, f"{_describe(node)} is not allowed in a filter")
        return method(node, depth + 1)

    def _Expression(self, node: ast.Expression, d: int) -> Node:
        return self.compile(node.body, d)

    def _Constant(self, node: ast.Constant, d: int) -> Node:
        value = node.value
        if not isinstance(value, (int, float, str, bytes, bool, type(None))):
            raise self.fail(node, f"constants of type {type(value).__name__} are not allowed")
        if isinstance(value, str):
            self._text(node, value)
        return lambda block: value

    def _text(self, node: ast.AST, value: str) -> None:
        """Refuse text that has no UTF-8 form (a lone surrogate such as ``\\ud800``):
        keys and values are compared as UTF-8."""
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = value[exc.start].encode("unicode_escape").decode("ascii")
            raise self.fail(node, f"{bad} is not a character: text must be valid UTF-8") from None

    def _Name(self, node: ast.Name, d: int) -> Node:
        name = node.id
        if name in _CONSTANTS:
            value = _CONSTANTS[name]
            return lambda block: value
        if name in RECORD_FIELDS:
            self.record_names.add(name)
            if name not in self.features:
                return lambda block: Col(block.field(name))
        return self._feature(name, node)

    def _Attribute(self, node: ast.Attribute, d: int) -> Node:
        value = node.value
        if isinstance(value, ast.Name) and value.id == "record" and node.attr in RECORD_FIELDS:
            name = node.attr
            return lambda block: Col(block.field(name))
        fields = ", ".join(f"record.{n}" for n in RECORD_FIELDS)
        raise self.fail(node, f"attribute access is not allowed in a filter (but {fields})")

    def _key(self, node: ast.AST, key: str) -> str:
        """A feature key the filter reads (valid UTF-8, as keys are compared)."""
        self._text(node, key)
        self.keys.add(key)
        return key

    def _feature(self, key: str, node: ast.AST) -> Node:
        self._key(node, key)
        return lambda block: block.feature(key)[0]

    def _Subscript(self, node: ast.Subscript, d: int) -> Node:
        sl = node.slice
        if isinstance(node.value, ast.Name) and node.value.id == "f":
            if not (isinstance(sl, ast.Constant) and isinstance(sl.value, str)):
                raise self.fail(sl, 'write a feature key as f["key"], with the key quoted')
            return self._feature(sl.value, sl)
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
        if isinstance(sl, ast.Constant) and isinstance(sl.value, str):
            self._text(sl, sl.value)
            inner, name = self.compile(node.value, d), sl.value
            return lambda block: named_field(inner(block), name)
        raise self.fail(
            node, 'only f["key"], value[number] and message["field"] subscripts are allowed'
        )

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
                steps.append(_comparing(_COMPARE[type(op)]))
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
            key = self._key(arg, arg.value)
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


def _syntax_hint(source: str) -> str:
    """Advice for the mistakes people carry over from other languages."""
    if "&&" in source or "||" in source:
        return "; write `and` / `or` instead of && / ||"
    stripped = source.replace("!=", "")
    if "!" in stripped:
        return "; write `not x` instead of !x"
    if "=" in source.replace("==", "").replace("!=", "").replace("<=", "").replace(">=", ""):
        return "; compare with == (a single = assigns)"
    return ""


def compile_filter(text: str, features: frozenset[str] | None = None) -> Filter:
    """Parse and check ``text``; raise :class:`QueryError` pointing at the mistake (its
    column counts from the start of ``text``, leading spaces included). ``features``:
    the record column names that are features of the data (:mod:`.names`); without it,
    bare column names mean the columns until :func:`~.filtering.filter_dataset`
    resolves them."""
    source = text.strip()
    lead = len(text) - len(text.lstrip())
    shown = text.rstrip()
    if not source:
        raise QueryError("the filter is empty")
    if len(source) > MAX_LENGTH:
        raise QueryError(f"the filter is longer than {MAX_LENGTH} characters")
    odd = next((i for i, c in enumerate(source) if "\ud800" <= c <= "\udfff"), None)
    if odd is not None:  # half of a character (a surrogate): no text holds one
        raise QueryError(
            f"the filter holds U+{ord(source[odd]):04X}, half of a character; type the "
            "whole character, or \\u escapes inside a quoted text",
            odd + lead + 1,
            shown.encode("utf-8", "backslashreplace").decode("utf-8"),
        )
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        hint = _syntax_hint(source)
        if not exc.offset:  # the input ended before the expression did
            raise QueryError("the expression is incomplete" + hint, len(shown) + 1, shown) from None
        column = min(exc.offset, len(source) + 1) + lead
        raise QueryError(exc.msg + hint, column, shown) from None
    except (RecursionError, MemoryError, ValueError):
        raise QueryError("the expression is too deeply nested") from None
    compiler = _Compiler(source, features or frozenset())
    try:
        root = compiler.compile(tree)
    except RecursionError:
        raise QueryError("the expression is too deeply nested") from None
    except QueryError as exc:
        if exc.column is None:
            raise
        raise QueryError(exc.message, exc.column + lead, shown) from None
    return Filter(
        source,
        frozenset(compiler.keys),
        root,
        frozenset(compiler.record_names),
        features is not None,
    )
