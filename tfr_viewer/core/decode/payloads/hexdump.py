"""Any bytes at all: the lowest bidder and the fallback when a decoder fails."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..payload_types import Bid, BytesPayload

if TYPE_CHECKING:
    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Nested, Outline

NAME = "bytes"
CEILING = 1  # the highest bid :func:`bid` makes


def bid(data: bytes) -> Bid:
    return Bid(1)


def decode(data: bytes, parsed: Any = None) -> BytesPayload:
    return BytesPayload(bytes(data))


def hexdump(data: bytes, offset: int = 0, width: int = 16) -> list[str]:
    """Classic hex dump lines: offset, hex bytes, and printable ASCII."""
    lines = []
    for i in range(0, len(data), width):
        row = data[i : i + width]
        hexes = " ".join(f"{b:02x}" for b in row)
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in row)
        lines.append(f"{offset + i:08x}  {hexes:<{width * 3 - 1}}  {text}")
    return lines


TYPE = "bytes"
SHOWN_BYTES = 4096  # bytes of a payload written as a hex dump by ``show``


def to_json(p: BytesPayload, lazy: bool) -> dict[str, Any]:
    """``{size, base64}``."""
    return {"size": len(p.data), "base64": base64.b64encode(p.data).decode("ascii")}


def render(record: dict[str, Any]) -> Iterator[str]:
    data = base64.b64decode(record["base64"])
    yield from ("  " + line for line in hexdump(data[:SHOWN_BYTES]))
    if len(data) > SHOWN_BYTES:
        yield f"  ... {len(data) - SHOWN_BYTES} more bytes"


def outline(p: BytesPayload, key: str, depth: int, nested: Nested) -> list[Outline]:
    from ..outline import Outline, bytes_preview

    text, _ = bytes_preview(p.data)
    return [Outline("bytes", "bytes", f"{len(p.data):,}", text, copy=p.data.hex())]


def images(p: BytesPayload, keymap: KeyMap | None) -> list[ImageAnnotation]:
    """The payload itself, when its bytes are an encoded picture."""
    from ..layouts import whole_images

    return whole_images([("payload", p.data)])
