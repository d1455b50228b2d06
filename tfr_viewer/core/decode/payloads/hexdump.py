"""Any bytes at all: the lowest bidder and the fallback when a decoder fails."""

from __future__ import annotations

from .types import BytesPayload

NAME = "bytes"


def bid(data: bytes) -> int:
    return 1


def decode(data: bytes) -> BytesPayload:
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
