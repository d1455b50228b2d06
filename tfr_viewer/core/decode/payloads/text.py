"""UTF-8 text payloads. Bids only for readable text, below every structured decoder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..payload_types import Bid, TextPayload
from ..strict_parse import looks_like_text

if TYPE_CHECKING:
    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Nested, Outline

NAME = "text"
CEILING = 60  # the highest bid :func:`bid` makes


def bid(data: bytes) -> Bid:
    return Bid(60 if looks_like_text(data) else 0)


def decode(data: bytes, parsed: Any = None) -> TextPayload:
    return TextPayload(data.decode("utf-8"))


TYPE = "text"


def to_json(p: TextPayload, lazy: bool) -> dict[str, Any]:
    """``{text}``."""
    return {"text": p.text}


def render(record: dict[str, Any]) -> Iterator[str]:
    yield from ("  " + line for line in record["text"].splitlines())


def outline(p: TextPayload, key: str, depth: int, nested: Nested) -> list[Outline]:
    from ..outline import Outline

    return [Outline("text", "text", f"{len(p.text):,} chars", p.text[:500], copy=p.text)]


def images(p: TextPayload, keymap: KeyMap | None) -> list[ImageAnnotation]:
    return []
