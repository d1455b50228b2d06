"""Write a record's JSON as it goes, numeric arrays in blocks, so that a record of ten
million floats never becomes ten million Python objects or one giant string.

Produces the same text as ``json.dumps`` (with ``indent`` when given) for the plain
values; numpy arrays are written as JSON lists, float32 with the fewest digits that
read back the same, NaN and infinities as ``json.dumps`` writes them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

BLOCK = 1 << 16
_SPECIAL = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


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


def write_json(obj: Any, write: Callable[[str], object], indent: int | None = None) -> None:
    """Write ``obj`` as JSON through ``write``."""
    _write(obj, write, indent, 0)


def _write(obj: Any, write: Callable[[str], object], indent: int | None, level: int) -> None:
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
            items = _array_items(flat[start : start + BLOCK])
            write(("" if start == 0 else sep) + pad + (sep + pad).join(items))
        write(end + "]")
    elif isinstance(obj, dict):
        if not obj:
            write("{}")
            return
        write("{")
        for i, (key, value) in enumerate(obj.items()):
            write(("" if i == 0 else sep) + pad + json.dumps(str(key)) + ": ")
            _write(value, write, indent, level + 1)
        write(end + "}")
    elif isinstance(obj, list | tuple):
        if not obj:
            write("[]")
            return
        write("[")
        for i, value in enumerate(obj):
            write(("" if i == 0 else sep) + pad)
            _write(value, write, indent, level + 1)
        write(end + "]")
    else:
        write(json.dumps(obj))


def dumps(obj: Any, indent: int | None = None) -> str:
    """The text :func:`write_json` writes, as one string (for small objects)."""
    parts: list[str] = []
    write_json(obj, parts.append, indent)
    return "".join(parts)
