"""UTF-8 text payloads. Bids only for readable text, below every structured decoder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .types import TextPayload

if TYPE_CHECKING:
    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Outline

NAME = "text"
_ALLOWED_CONTROLS = {"\t", "\n", "\r"}


def looks_like_text(data: bytes, sample: int = 4096) -> bool:
    """True when ``data`` is valid UTF-8 and (in its first ``sample`` bytes) at least
    95% printable characters, with no NUL."""
    if not data or b"\x00" in data[:sample]:
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    head = text[:sample]
    printable = sum(1 for c in head if c.isprintable() or c in _ALLOWED_CONTROLS)
    return printable >= 0.95 * len(head)


def bid(data: bytes) -> int:
    return 60 if looks_like_text(data) else 0


def decode(data: bytes) -> TextPayload:
    return TextPayload(data.decode("utf-8"))


TYPE = "text"


def to_json(p: TextPayload, lazy: bool) -> dict[str, Any]:
    """``{text}``."""
    return {"text": p.text}


def render(record: dict[str, Any]) -> Iterator[str]:
    yield from ("  " + line for line in record["text"].splitlines())


def outline(p: TextPayload, key: str, depth: int) -> list[Outline]:
    from ..outline import Outline

    return [Outline("text", "text", f"{len(p.text):,} chars", p.text[:500], copy=p.text)]


def images(p: TextPayload, keymap: KeyMap | None) -> list[ImageAnnotation]:
    return []
