"""A decoded record as a tree of labelled nodes, for the window's feature tree: the
node, and the preview of a bytes value. Each payload type's decoder gives the outline of
its payloads (``outline(payload, key, depth)``), from the builders of
:mod:`.payloads.outlines`. Nothing here knows Qt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .detect import IMAGE_FORMATS, detect
from .image_verdict import QUICK_SIDE, verdict_of

MAX_CHILDREN = 1000
MAX_NESTING = 4


@dataclass(eq=False)
class Outline:
    """One node: ``name``, its ``kind``, ``count`` and ``value`` as shown; ``key`` the
    full feature key it belongs to (for copying the key), ``copy`` the full value text."""

    name: str
    kind: str = ""
    count: str = ""
    value: str = ""
    key: str = ""
    copy: str = ""
    children: list[Outline] = field(default_factory=list)

    def add(self, child: Outline) -> Outline:
        self.children.append(child)
        return child


Nested = Callable[[bytes, str, int], list[Outline]]
"""The outline of bytes that are themselves a record (``(bytes, key, depth)``), which the
registry hands a decoder's ``outline``: a decoder never imports the registry."""


def bytes_preview(v: bytes) -> tuple[str, str]:
    """The text shown for a bytes value, and what it was detected as."""
    what = detect(v)
    if what in IMAGE_FORMATS:
        verdict = verdict_of(v, QUICK_SIDE)
        size = f" {verdict.width}×{verdict.height} {verdict.mode}" if verdict.width else ""
        problem = f"; {verdict.problem}" if verdict.problem else ""
        return f"<{what}{size}, {len(v):,} bytes{problem}>", what
    if what == "text":
        text = v.decode("utf-8")
        return (text if len(text) <= 200 else text[:200] + "…"), what
    if what in ("tensor", "example"):
        return f"<serialized {what}, {len(v):,} bytes>", what
    if not v:
        return "<0 bytes>", what
    return f"<{len(v):,} bytes: {v[:16].hex(' ')}{'…' if len(v) > 16 else ''}>", what
