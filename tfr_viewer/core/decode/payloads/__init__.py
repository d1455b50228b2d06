"""The payload decoder registry.

Each decoder module has ``NAME``, ``bid(data) -> int`` (0: cannot decode) and
``decode(data) -> Payload``. :func:`decode` gives the bytes to the highest bidder; if it
fails, the result is the bytes fallback, labelled with the decoder that failed and why.
"""

from __future__ import annotations

from types import ModuleType

from . import example, hexdump, raw_proto, sequence, tensor, text
from .types import BytesPayload, Decoded

DECODERS: tuple[ModuleType, ...] = (example, sequence, tensor, raw_proto, text, hexdump)


def choose(data: bytes) -> ModuleType:
    """The decoder with the highest bid (earlier in DECODERS wins a tie)."""
    best, best_bid = hexdump, 0
    for decoder in DECODERS:
        offer = decoder.bid(data)
        if offer > best_bid:
            best, best_bid = decoder, offer
    return best


def decode(data: bytes, decoder: str | None = None) -> Decoded:
    """Decode ``data`` with the best decoder, or the one named by ``decoder``."""
    chosen = choose(data) if decoder is None else by_name(decoder)
    try:
        return Decoded(chosen.decode(data), chosen.NAME)
    except Exception as exc:  # any decoder failure falls back to raw bytes
        return Decoded(BytesPayload(bytes(data)), hexdump.NAME, chosen.NAME, str(exc))


def by_name(name: str) -> ModuleType:
    for decoder in DECODERS:
        if decoder.NAME == name:
            return decoder
    names = ", ".join(d.NAME for d in DECODERS)
    raise ValueError(f"unknown decoder {name!r}: choose one of {names}")
