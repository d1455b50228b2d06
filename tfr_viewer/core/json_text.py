"""Every JSON text the program writes: strict JSON, written as it goes.

Strict: a float that is not finite is written as the string ``"NaN"``, ``"Infinity"``
or ``"-Infinity"`` (as protobuf's JSON mapping writes them), never as the bare words
``json.dumps`` allows, which ``JSON.parse`` and ``jq`` refuse. Everything else is the
text ``json.dumps`` writes (with ``indent`` when given).

As it goes: numpy arrays are written as JSON lists in blocks, so that a record of ten
million floats never becomes ten million Python objects or one giant string; float32
with the fewest digits that read back the same.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import numpy as np

BLOCK = 1 << 16
PIECE = 1 << 16  # characters gathered before each write
_SPECIAL = {"nan": '"NaN"', "inf": '"Infinity"', "-inf": '"-Infinity"'}
NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _spelled(text: str) -> str:
    return _SPECIAL.get(text) or repr(float(text))


def _array_items(arr: np.ndarray) -> list[str]:
    """Each element as ``json.dumps`` writes the Python value ``to_json`` would give."""
    if arr.dtype.kind == "f":
        # numpy prints the shortest digits for the array's own precision; repr(float())
        # then spells them as Python (and json) does: 123456790.0, not 1.2345679e+08.
        texts = arr.astype(str).tolist()
        return [t if "e" not in t and "n" not in t else _spelled(t) for t in texts]
    if arr.dtype.kind == "b":
        return ["true" if v else "false" for v in arr.tolist()]
    return [str(v) for v in arr.tolist()]


def _numeric_array(obj: Any) -> bool:
    """A numpy array of numbers or booleans (none exists while numpy is not loaded)."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(obj, np.ndarray) and obj.dtype.kind in "fiub"


def write_json(
    obj: Any,
    write: Callable[[str], object],
    indent: int | None = None,
    *,
    sort_keys: bool = False,
    ensure_ascii: bool = True,
) -> None:
    """Write ``obj`` as strict JSON through ``write`` (in pieces of up to about
    :data:`PIECE` characters)."""
    pieces: list[str] = []
    held = 0

    def gather(text: str) -> None:
        nonlocal held
        pieces.append(text)
        held += len(text)
        if held >= PIECE:
            write("".join(pieces))
            pieces.clear()
            held = 0

    _write(obj, _Writer(gather, indent, sort_keys, ensure_ascii), 0)
    if pieces:
        write("".join(pieces))


_STR_ASCII = json.encoder.encode_basestring_ascii  # the C functions json.dumps uses
_STR = json.encoder.encode_basestring


_WORDS = {True: "true", False: "false", None: "null"}


def _scalar(obj: Any, ensure_ascii: bool) -> str:
    kind = type(obj)
    if kind is str:
        return _STR_ASCII(obj) if ensure_ascii else _STR(obj)
    if kind is int:
        return int.__repr__(obj)
    if kind is float and math.isfinite(obj):
        return float.__repr__(obj)
    if kind is bool or obj is None:
        return _WORDS[obj]
    np = sys.modules.get("numpy")
    if np is not None and isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return _SPECIAL[repr(float(obj))]
    return json.dumps(obj, ensure_ascii=ensure_ascii)


@dataclass(frozen=True)
class _Writer:
    write: Callable[[str], object]
    indent: int | None
    sort: bool
    ascii_only: bool


_PLAIN = frozenset({str, int, float, bool, type(None)})  # written by _scalar alone


def _write(obj: Any, out: _Writer, level: int) -> None:
    write, indent = out.write, out.indent
    if type(obj) in _PLAIN:
        write(_scalar(obj, out.ascii_only))
        return
    pad = "" if indent is None else "\n" + " " * (indent * (level + 1))
    end = "" if indent is None else "\n" + " " * (indent * level)
    sep = ", " if indent is None else ","
    if _numeric_array(obj):
        flat = obj.ravel()
        if not len(flat):
            write("[]")
            return
        write("[")
        for start in range(0, len(flat), BLOCK):
            shown = _array_items(flat[start : start + BLOCK])
            write(("" if start == 0 else sep) + pad + (sep + pad).join(shown))
        write(end + "]")
    elif isinstance(obj, dict):
        if not obj:
            write("{}")
            return
        write("{")
        items: Iterable[tuple[str, Any]] = sorted(obj.items()) if out.sort else obj.items()
        for i, (key, value) in enumerate(items):
            name = _scalar(str(key), out.ascii_only)
            if type(value) in _PLAIN:
                write(("" if i == 0 else sep) + pad + name + ": " + _scalar(value, out.ascii_only))
                continue
            write(("" if i == 0 else sep) + pad + name + ": ")
            _write(value, out, level + 1)
        write(end + "}")
    elif isinstance(obj, list | tuple):
        if not obj:
            write("[]")
            return
        write("[")
        for i, value in enumerate(obj):
            write(("" if i == 0 else sep) + pad)
            _write(value, out, level + 1)
        write(end + "]")
    else:
        write(_scalar(obj, out.ascii_only))


def dumps(
    obj: Any, indent: int | None = None, *, sort_keys: bool = False, ensure_ascii: bool = True
) -> str:
    """The text :func:`write_json` writes, as one string (for small objects)."""
    parts: list[str] = []
    write_json(obj, parts.append, indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
    return "".join(parts)


def dump(obj: Any, file: TextIO, indent: int | None = None) -> None:
    """Write ``obj`` to ``file`` as strict JSON, as it goes."""
    write_json(obj, file.write, indent)


class TooDeep(ValueError):
    """JSON nested past the parser's depth."""


def load_document(text: str | bytes) -> Any:
    """JSON that a hand-made or hostile document holds (a side file, a saved report, a
    message from another process): ``json.loads``, but nesting past the parser's depth is
    a ValueError saying so (:class:`TooDeep`), as every other way of not being JSON is,
    never a RecursionError."""
    try:
        return json.loads(text)
    except RecursionError:
        raise TooDeep("it nests too deeply") from None


def loads(text: str | bytes) -> Any:
    """Parse JSON as strict parsers do (bare ``NaN`` and ``Infinity`` are refused); the
    strings this module writes for non-finite floats stay strings."""

    def refuse(word: str) -> Any:
        raise ValueError(f"{word} is not JSON")

    return json.loads(text, parse_constant=refuse)


def read_back(obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` as a reader of the text :func:`dumps` writes gets it: lists for tuples and
    arrays, floats as written, non-finite floats as their strings. What a report's
    ``to_json()`` gives, so that it equals the command line's JSON read back."""
    out: dict[str, Any] = loads(dumps(obj))
    return out
