"""The payload decoder registry.

Each decoder module (a :class:`Decoder`) names itself (``NAME``) and the ``type`` of
the payloads it makes (``TYPE``), bids for bytes (``bid(data) -> int``, 0: cannot
decode), decodes them (``decode(data) -> Payload``) and owns every form of its payloads:
their JSON (``to_json``), their text lines for ``show`` (``render``, from the JSON)
and their outline for the window's tree (``outline``). :func:`decode` gives the bytes
to the highest bidder; a decoder whose bid or decoding fails is passed over, and the
result is the bytes fallback labelled with the decoder that failed and why. Adding a
payload type is one module and one entry in :data:`DECODERS`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from . import event, example, hexdump, raw_proto, sequence, tensor, text
from .types import BytesPayload, Decoded

if TYPE_CHECKING:
    from ..outline import Outline


class Decoder(Protocol):
    """What a decoder module provides."""

    NAME: str
    TYPE: str

    def bid(self, data: bytes) -> int: ...
    def decode(self, data: bytes) -> Any: ...
    def to_json(self, payload: Any, lazy: bool) -> dict[str, Any]: ...
    def render(self, record: dict[str, Any]) -> Iterator[str]: ...
    def outline(self, payload: Any, key: str, depth: int) -> list[Outline]: ...


DECODERS: tuple[Decoder, ...] = (example, sequence, event, tensor, raw_proto, text, hexdump)


def choose(data: bytes) -> Decoder:
    """The decoder with the highest bid (earlier in DECODERS wins a tie); a decoder
    whose bid fails is passed over."""
    best: Decoder = hexdump
    best_bid = 0
    for decoder in DECODERS:
        try:
            offer = decoder.bid(data)
        except Exception:  # noqa: BLE001 - hostile bytes: a failing bid is no bid
            continue
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


def by_name(name: str) -> Decoder:
    for decoder in DECODERS:
        if decoder.NAME == name:
            return decoder
    names = ", ".join(d.NAME for d in DECODERS)
    raise ValueError(f"unknown decoder {name!r}: choose one of {names}")


def by_type(payload_type: str) -> Decoder:
    """The decoder whose payloads are of ``payload_type`` (a payload's ``type``)."""
    for decoder in DECODERS:
        if decoder.TYPE == payload_type:
            return decoder
    raise ValueError(f"no decoder makes payloads of type {payload_type!r}")
