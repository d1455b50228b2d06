"""Say in a few words what an edit changed in a record (for the pending-edits list)."""

from __future__ import annotations

import numpy as np

from ..decode import FeatureData, decode, features_of
from ..text import float_text

_SHOWN = 3


def _values_text(fd: FeatureData) -> str:
    if fd.kind == "bytes":
        items = []
        for v in fd.values[:_SHOWN]:
            try:
                text = v.decode("utf-8")
                items.append(repr(text) if len(text) <= 24 else f"<{len(v)} bytes>")
            except UnicodeDecodeError:
                items.append(f"<{len(v)} bytes>")
    else:
        fmt = float_text if fd.kind == "float" else str
        items = [fmt(v) for v in np.asarray(fd.values)[:_SHOWN].tolist()]
    more = f", … {len(fd.values)} values" if len(fd.values) > _SHOWN else ""
    return "[" + ", ".join(items) + more + "]"


def _same(a: FeatureData, b: FeatureData) -> bool:
    if a.kind != b.kind or len(a.values) != len(b.values):
        return False
    if a.kind == "bytes":
        return list(a.values) == list(b.values)
    return bool(np.array_equal(np.asarray(a.values), np.asarray(b.values), equal_nan=True))


def describe_change(before: bytes, after: bytes | None, deleted: bool = False) -> str:
    """``label: [3] → [9]; added note; removed image/format`` or ``deleted``."""
    if after is None:
        return "deleted" if deleted else "unchanged"
    old = features_of(decode(before).payload) or {}
    new = features_of(decode(after).payload) or {}
    parts = []
    for key, fd in new.items():
        if key not in old:
            parts.append(f"added {key} {_values_text(fd)}")
        elif not _same(old[key], fd):
            parts.append(f"{key}: {_values_text(old[key])} → {_values_text(fd)}")
    parts += [f"removed {key}" for key in old if key not in new]
    if not parts:
        parts.append("payload changed" if before != after else "unchanged")
    text = "; ".join(parts)
    return f"deleted; {text}" if deleted else text
