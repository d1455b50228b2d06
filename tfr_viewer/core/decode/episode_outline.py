"""An episode as the window's feature tree shows it: one ``steps`` node saying how many
steps there are, and under it each step feature (grouped by the ``/`` of its name) with
one step's shape (``7 × 10 steps``) and a child a step. Pictures show their preview,
texts their text, flags ``true`` and ``false``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..text import EMPTY, float_text, plural
from .detect import detect
from .episodes import STEPS, Episode
from .outline import MAX_CHILDREN, Outline, bytes_preview

_KINDS = {"b": "bool", "f": "float", "i": "int64", "u": "int64"}


def episode_outline(episode: Episode, sequence: str = STEPS) -> Outline:
    """The ``steps`` node of ``episode`` (its key ``sequence``)."""
    top = Outline(sequence, "episode", plural(episode.length, "step"), key=sequence)
    top.value = episode.instruction(0) or ""
    for note in episode.notes:
        top.add(Outline("note", value=note, key=sequence))
    groups: dict[tuple[str, ...], Outline] = {(): top}
    for name in sorted(episode.steps):
        parts = name.split("/")
        for i in range(1, len(parts)):
            path = tuple(parts[:i])
            if path not in groups:
                key = f"{sequence}/{'/'.join(path)}"
                groups[path] = groups[path[:-1]].add(Outline(parts[i - 1], key=key))
        key = f"{sequence}/{name}"
        groups[tuple(parts[:-1])].add(
            _feature(parts[-1], episode.steps[name], episode.kinds[name], key, episode.length)
        )
    for path, node in groups.items():
        if path:
            node.count = plural(len(node.children), "key")
    return top


def _feature(name: str, values: Any, kind: str, key: str, length: int) -> Outline:
    if kind in ("image", "text", "bytes") or isinstance(values, list):
        return _bytes_steps(name, list(values), key)
    array = np.asarray(values)
    if kind == "values":  # left as it is: the values were no whole steps
        texts = [_text(v, array.dtype.kind) for v in array.ravel()[:MAX_CHILDREN].tolist()]
        return Outline(name, _KINDS.get(array.dtype.kind, ""), str(array.size), _joined(texts), key)
    shape = " × ".join(str(d) for d in array.shape[1:])
    count = f"{shape} × {plural(length, 'step')}" if shape else plural(length, "step")
    node = Outline(name, _KINDS.get(array.dtype.kind, str(array.dtype)), count, key=key)
    rows = [_row(array[t]) for t in range(min(length, MAX_CHILDREN))]
    node.value = rows[0] if rows else EMPTY
    node.copy = "\n".join(rows)
    for t, text in enumerate(rows):
        node.add(Outline(f"[{t}]", node.kind, "", text, key=key, copy=text))
    if length > MAX_CHILDREN:
        node.add(Outline(f"… {length - MAX_CHILDREN:,} more steps", key=key))
    return node


def _bytes_steps(name: str, values: list[bytes], key: str) -> Outline:
    """A step feature of pictures or texts: the first step's preview as its value; a
    child a step saying what it holds (a text whole; a picture's format and size: the
    episode player shows the pictures, and decoding every step's here would make
    selecting a long episode slow)."""
    first = bytes_preview(values[0]) if values else (EMPTY, "bytes")
    node = Outline(name, first[1], plural(len(values), "step"), first[0], key=key)
    for t, v in enumerate(values[:MAX_CHILDREN]):
        what = detect(v)
        if what == "text":
            text, copy = bytes_preview(v)[0], v.decode("utf-8", "replace")
        else:
            text, copy = f"<{what}, {len(v):,} bytes>", v.hex()
        node.add(Outline(f"[{t}]", what, "", text, key=key, copy=copy))
    if len(values) > MAX_CHILDREN:
        node.add(Outline(f"… {len(values) - MAX_CHILDREN:,} more steps", key=key))
    return node


def _row(values: Any) -> str:
    """One step's values: a number, or a list of them."""
    array = np.asarray(values)
    texts = [_text(v, array.dtype.kind) for v in array.ravel()[:64].tolist()]
    if array.ndim == 0:
        return texts[0]
    return _joined(texts, array.size)


def _joined(texts: list[str], size: int | None = None) -> str:
    more = (size or len(texts)) - len(texts)
    return "[" + ", ".join(texts) + (f", … ({more:,} more)" if more > 0 else "") + "]"


def _text(v: Any, dtype_kind: str) -> str:
    if dtype_kind == "b":
        return "true" if v else "false"
    if dtype_kind == "f":
        return float_text(v)
    return str(v)
