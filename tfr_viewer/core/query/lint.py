"""Warnings for filters that compile but would silently match nothing: a key that no
record in a sample has, a key with slashes written without quotes (``image/height``
parses as a division), a bare word where a quoted text was meant, or a comparison of
kinds that never match (a bytes feature with a number, a number feature with text)."""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping

from .language import RECORD_FIELDS
from .ops import FUNCTIONS

_CONSTANTS = {"True", "False", "None"}
_NUMERIC = ("int64", "float")


def _key_of(node: ast.AST) -> str | None:
    """The feature key an expression node names (``label`` or ``f["a/b"]``), if any."""
    if isinstance(node, ast.Name) and node.id not in _CONSTANTS and node.id not in RECORD_FIELDS:
        return node.id
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == "f"
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return node.slice.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
        if node.func.id in ("lower", "min", "max", "abs") or node.func.id.startswith("__"):
            return _key_of(node.args[0])
    return None


def _keys_used(tree: ast.AST) -> list[tuple[str, ast.AST]]:
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    out: list[tuple[str, ast.AST]] = []
    for node in ast.walk(tree):
        if id(node) in called:
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "has" and node.args and isinstance(node.args[0], ast.Constant):
                out.append((str(node.args[0].value), node))
            continue
        subscript_key = _key_of(node) if isinstance(node, ast.Subscript) else None
        if subscript_key is not None:
            out.append((subscript_key, node))
        elif isinstance(node, ast.Name) and node.id != "f" and node.id not in FUNCTIONS:
            key = _key_of(node)
            if key is not None:
                out.append((key, node))
    return out


def _slashed(node: ast.AST) -> str | None:
    """The key that names joined by ``/`` spell (``image/object/bbox/xmin`` parses as
    divisions of four names), or None when ``node`` is not such a chain."""
    if isinstance(node, ast.Name) and node.id != "f" and node.id not in _CONSTANTS:
        return node.id
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        left, right = _slashed(node.left), _slashed(node.right)
        if left is not None and right is not None:
            return f"{left}/{right}"
    return None


def _unquoted_keys(
    tree: ast.AST, kinds: Mapping[str, str]
) -> tuple[list[tuple[tuple[str, ...], str]], set[int]]:
    """Warnings for divisions of names that are meant as one key, and the ids of the
    nodes they cover (so their parts are not reported as missing keys). A division of
    features that all exist is left alone: it may be meant."""
    warnings: list[tuple[tuple[str, ...], str]] = []  # (the names divided, the warning)
    covered: set[int] = set()
    for node in ast.walk(tree):
        if id(node) in covered or not isinstance(node, ast.BinOp):
            continue
        key = _slashed(node)
        if key is None:
            continue
        names = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
        if all(name in kinds for name in names):
            continue
        covered.update(id(n) for n in ast.walk(node))
        if key in kinds:
            warnings.append(
                (
                    tuple(names),
                    f"`{key}` without quotes is read as a division; a key with slashes goes "
                    f"in quotes: {_shown(key)}",
                )
            )
        else:
            warnings.append(
                (tuple(names), f"no record in the sample has `{key}`{did_you_mean(key, kinds)}")
            )
    return warnings, covered


def _shown(key: str) -> str:
    return key if key.isidentifier() else f'f["{key}"]'


def did_you_mean(key: str, kinds: Mapping[str, str] | Collection[str]) -> str:
    """The closest known key, by its whole name or by its last ``/`` part."""
    import difflib  # only when a key is missing

    close = difflib.get_close_matches(key, list(kinds), n=1, cutoff=0.6)
    if not close:
        by_leaf = {k.rsplit("/", 1)[-1]: k for k in kinds}
        leaf = difflib.get_close_matches(key.rsplit("/", 1)[-1], list(by_leaf), n=1, cutoff=0.75)
        close = [by_leaf[leaf[0]]] if leaf else []
    return f"; did you mean `{_shown(close[0])}`?" if close else ""


def lint_filter(text: str, kinds: Mapping[str, str]) -> list[str]:
    """Warnings for ``text`` given the ``kinds`` (key -> bytes/float/int64) seen in a
    sample of the records. Empty when nothing looks wrong, or the text does not parse."""
    return [warning for _key, warning in _lint(text, kinds)]


def unknown_key_hint(text: str, kinds: Mapping[str, str], key: str) -> str:
    """What to say of ``key``, named in filter ``text`` but a feature of no record: that
    it is text to quote, when it is compared with a bytes feature; else the closest
    known key (``; did you mean …?``); empty when there is none."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return did_you_mean(key, kinds)
    for names, warning in _unquoted_keys(tree, kinds)[0]:
        if key in names:
            return f"; {warning}"
    for named, warning in _lint(text, kinds):
        if named == key and "quote it" in warning:
            return f"; {warning}"
    return did_you_mean(key, kinds)


def _lint(text: str, kinds: Mapping[str, str]) -> list[tuple[str | None, str]]:
    """The warnings of :func:`lint_filter`, each with the key it is about (if any)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    unquoted, covered = _unquoted_keys(tree, kinds)
    warnings: list[tuple[str | None, str]] = [
        (key, w) for names, w in unquoted for key in names[:1]
    ]
    unknown: set[str] = set()
    quoted_hint: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for a, b in zip(operands, operands[1:], strict=False):
            for feature, other in ((a, b), (b, a)):
                key = _key_of(feature)
                kind = kinds.get(key) if key is not None else None
                if key is None or kind is None:
                    continue
                other_key = _key_of(other)
                if isinstance(other, ast.Name) and other_key is not None and other_key not in kinds:
                    if kind == "bytes":
                        quoted_hint.add(other_key)
                        warnings.append(
                            (
                                other_key,
                                f"`{other_key}` is not a feature; to compare {_shown(key)} "
                                f"with the text {other_key}, quote it: {_shown(key)} == "
                                f'"{other_key}"',
                            )
                        )
                if isinstance(other, ast.Constant) and not isinstance(other.value, bool):
                    value = other.value
                    if kind == "bytes" and isinstance(value, int | float):
                        warnings.append(
                            (
                                None,
                                f"{_shown(key)} holds bytes (text), so it never equals the "
                                f"number {value!r}; compare with text in quotes: "
                                f'{_shown(key)} == "{value}"',
                            )
                        )
                    elif kind in _NUMERIC and isinstance(value, str):
                        warnings.append(
                            (
                                None,
                                f"{_shown(key)} holds numbers ({kind}), so it never equals "
                                f"the text {value!r}; compare with a number: "
                                f"{_shown(key)} == {value}",
                            )
                        )
    for key, node in _keys_used(tree):
        if key in kinds or key in unknown or key in quoted_hint or id(node) in covered:
            continue
        unknown.add(key)
        hint = did_you_mean(key, kinds)
        warnings.append((key, f"no record in the sample has `{key}`{hint}"))
    return list(dict.fromkeys(warnings))
