"""Say in a few words what an edit changed in a record (for the pending-edits list)."""

from __future__ import annotations

import numpy as np

from ..decode import FeatureData, decode, features_of
from ..text import float_text
from .box_edits import BoxLists, box_lists, corners_of
from .edits import EditError

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


Boxes = list[tuple[tuple[tuple[str, float], ...], tuple[str, str]]]  # corners, class


def _boxes(payload: bytes) -> tuple[BoxLists, Boxes] | None:
    """A record's box lists and, per box, its corners and its class (text, label)."""
    try:
        lists = box_lists(payload)
    except EditError:
        return None
    if not lists.aligned:
        return None
    features = features_of(decode(payload).payload) or {}
    labels = features[lists.label].items() if lists.label else []
    texts = features[lists.text].items() if lists.text else []
    out = []
    for i in range(lists.count):
        corners = corners_of(payload, i)
        text = texts[i].decode("utf-8", "replace") if i < len(texts) else ""
        label = str(labels[i]) if i < len(labels) else ""
        out.append((tuple((c, corners[c]) for c in sorted(corners)), (text, label)))
    return lists, out


def _class_words(cls: tuple[str, str]) -> str:
    return cls[0] or cls[1]


def _box_words(before: bytes, after: bytes) -> tuple[list[str], set[str]]:
    """``box 2: xmax 0.41 → 0.52``, ``box 3 (dog): deleted``, ``box 4: added, cat``: what a box
    edit did, and the keys it accounts for (the lists of the boxes)."""
    old, new = _boxes(before), _boxes(after)
    if old is None or new is None:
        return [], set()
    lists, a = old
    b = new[1]
    keys = set(lists.coordinates) | set(lists.per_box)  # an added or deleted box changes every list
    words: list[str] = []
    pairs: list[tuple[int, int]]  # (box before, box after) of the boxes in both
    if len(b) == len(a) - 1:  # one deleted: the one whose removal leaves most in place

        def differences(gone: int) -> int:
            """How much the other boxes would have changed: a class counts more than a
            move (a box keeps its class far more often than its place)."""
            rest = a[:gone] + a[gone + 1 :]
            return sum((x[0] != y[0]) + 2 * (x[1] != y[1]) for x, y in zip(rest, b, strict=True))

        gone = min(range(len(a)), key=differences)
        name = _class_words(a[gone][1])
        words.append(f"box {gone}{f' ({name})' if name else ''}: deleted")
        pairs = [(i, i if i < gone else i - 1) for i in range(len(a)) if i != gone]
    elif len(b) == len(a) + 1:  # one added: new boxes are appended
        pairs = [(i, i) for i in range(len(a))]
    elif len(b) == len(a):
        pairs = [(i, i) for i in range(len(a))]
    else:
        return [], set()
    for i, j in pairs:
        was, now = a[i], b[j]
        if was[0] != now[0]:
            moved = ", ".join(
                f"{side} {float_text(old)} → {float_text(new)}"
                for (side, old), (_, new) in zip(was[0], now[0], strict=True)
                if old != new
            )
            words.append(f"box {j}: {moved}")
        if was[1] != now[1]:
            words.append(f"box {j}: {_class_words(was[1]) or '?'} → {_class_words(now[1]) or '?'}")
    if len(b) == len(a) + 1:
        name = _class_words(b[-1][1])
        words.append(f"box {len(a)}: added{f', {name}' if name else ''}")
    if len(b) != len(a):
        return words, keys
    # the other per-box lists (difficult, area, …) are said by key when they change
    classes = {k for k in (lists.label, lists.text) if k}
    return words, (set(lists.coordinates) | classes) if words else set()


def describe_change(before: bytes, after: bytes | None, deleted: bool = False) -> str:
    """``box 2: xmax 0.41 → 0.52; label: [3] → [9]; added note; removed image/format`` or
    ``deleted``: box edits in words of boxes, other changes by key."""
    if after is None:
        return "deleted" if deleted else "unchanged"
    old = features_of(decode(before).payload) or {}
    new = features_of(decode(after).payload) or {}
    parts, box_keys = _box_words(before, after)
    for key, fd in new.items():
        if key in box_keys:
            continue
        if key not in old:
            parts.append(f"added {key} {_values_text(fd)}")
        elif not _same(old[key], fd):
            parts.append(f"{key}: {_values_text(old[key])} → {_values_text(fd)}")
    parts += [f"removed {key}" for key in old if key not in new and key not in box_keys]
    if not parts:
        parts.append("payload changed" if before != after else "unchanged")
    text = "; ".join(parts)
    return f"deleted; {text}" if deleted else text
