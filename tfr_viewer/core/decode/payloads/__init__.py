"""The payload decoder registry.

Each decoder module (a :class:`Decoder`) names itself (``NAME``) and the ``type`` of
the payloads it makes (``TYPE``), bids for bytes (``bid(data) -> Bid``: a priority,
0 when it cannot decode them, and what it parsed to judge them), decodes them
(``decode(data, parsed) -> Payload``, ``parsed`` its winning bid's, so that bytes are
parsed once as each message) and owns every form of its payloads:
their JSON (``to_json``), their text lines for ``show`` (``render``, from the JSON),
their outline for the window's tree (``outline``) and their pictures (``images``, each
whole: a verdict on a picture is made on all its bytes). :func:`decode` gives the bytes
to the highest bidder; a decoder whose bid or decoding fails is passed over, and the
result is the bytes fallback labelled with the decoder that failed and why. Adding a
payload type is one module and one entry in :data:`DECODERS`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

from ..payload_types import Bid, BytesPayload, Decoded, Payload
from . import elwc, event, example, hexdump, raw_proto, sequence, tensor, text

if TYPE_CHECKING:
    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Nested, Outline


class Decoder(Protocol):
    """What a decoder module provides."""

    NAME: str
    TYPE: str

    def bid(self, data: bytes) -> Bid: ...
    def decode(self, data: bytes, parsed: Any = ...) -> Any: ...
    def to_json(self, payload: Any, lazy: bool) -> dict[str, Any]: ...
    def render(self, record: dict[str, Any]) -> Iterator[str]: ...
    def outline(self, payload: Any, key: str, depth: int, nested: Nested) -> list[Outline]: ...
    def images(self, payload: Any, keymap: KeyMap | None) -> list[ImageAnnotation]: ...


DECODERS: tuple[Decoder, ...] = (
    example,
    elwc,
    sequence,
    event,
    tensor,
    raw_proto,
    text,
    hexdump,
)


NO_BID = Bid(0)


def _bid(decoder: Decoder, data: bytes) -> Bid:
    """``decoder``'s bid for ``data``; a bid that fails is no bid (hostile bytes)."""
    try:
        return decoder.bid(data)
    except Exception:  # noqa: BLE001 - hostile bytes: a failing bid is no bid
        return NO_BID


def offers(data: bytes) -> dict[str, Bid]:
    """Every decoder's bid for ``data``, with what it parsed, in the order of
    :data:`DECODERS`."""
    return {decoder.NAME: _bid(decoder, data) for decoder in DECODERS}


def bids(data: bytes) -> dict[str, int]:
    """Every decoder's priority for ``data``, in the order of :data:`DECODERS`."""
    return {name: offer.priority for name, offer in offers(data).items()}


CERTAIN = 90  # a bid this high names a payload's type whatever its file holds


def _highest(offers: dict[str, int]) -> Decoder:
    """The highest bidder of ``offers`` (earlier in DECODERS wins a tie; the bytes
    decoder when nobody bids)."""
    best: Decoder = hexdump
    best_bid = 0
    for decoder in DECODERS:
        if offers[decoder.NAME] > best_bid:
            best, best_bid = decoder, offers[decoder.NAME]
    return best


def choose(data: bytes) -> Decoder:
    """The decoder with the highest bid (earlier in DECODERS wins a tie); a decoder
    whose bid fails is passed over."""
    return _highest(bids(data))


def certain(data: bytes) -> bool:
    """Whether the bytes name their type alone (a bid of :data:`CERTAIN` or more): a
    file's type then does not change how they are read."""
    return max(bids(data).values()) >= CERTAIN


def choose_for_many(samples: list[bytes]) -> str:
    """The decoder for a file whose records include ``samples``: the one that reads the
    most of them (a bid above 0), and of those the one with the highest bid over all
    (earlier in DECODERS wins a tie). The bytes decoder when there is no sample.

    One message type is read as one type in a file: a record whose bytes also happen
    to be readable text or a tensor is still read as the file's type."""
    if not samples:
        return hexdump.NAME
    # the bytes fallback reads anything: it is the file's type only when nothing else is
    reads: dict[str, int] = dict.fromkeys((d.NAME for d in DECODERS if d is not hexdump), 0)
    total: dict[str, int] = dict.fromkeys(reads, 0)
    for data in samples:
        for name, offer in bids(data).items():
            if name not in reads:
                continue
            reads[name] += offer > 0
            total[name] += offer
    order = {d.NAME: i for i, d in enumerate(DECODERS)}
    best = max(reads, key=lambda n: (reads[n], total[n], -order[n]))
    return best if reads[best] else hexdump.NAME


def decode(data: bytes, decoder: str | None = None, within: str | None = None) -> Decoded:
    """Decode ``data`` with the best decoder, or the one named by ``decoder``.

    ``within`` names the decoder of the file the bytes come from
    (:func:`choose_for_many`): unless the bytes name their type alone (:func:`certain`),
    it decodes them whenever it can read them at all, and the best bidder only when it
    cannot (a record that truly differs from its file)."""
    parsed = None
    if decoder is not None:
        chosen = by_name(decoder)
    else:
        offered = offers(data)
        priorities = {name: offer.priority for name, offer in offered.items()}
        chosen = _highest(priorities)
        if (
            within is not None
            and priorities[chosen.NAME] < CERTAIN
            and priorities.get(within, 0) > 0
        ):
            chosen = by_name(within)
        parsed = offered[chosen.NAME].parsed
    try:
        return Decoded(chosen.decode(data, parsed), chosen.NAME)
    except Exception as exc:  # any decoder failure falls back to raw bytes
        if decoder is None and within is not None and chosen.NAME == within:
            return decode(data)  # the file's decoder could not: the best bidder may
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


def payload_images(payload: Payload, keymap: KeyMap | None = None) -> list[ImageAnnotation]:
    """Every picture of a decoded payload, as its type holds them (an Example's by its
    layout and ``keymap``, a SequenceExample's frames, a message's nested images), each
    with its whole bytes."""
    return by_type(payload.type).images(payload, keymap)


def payload_json(decoded: Decoded, lazy: bool = False) -> dict[str, Any]:
    """``{type, ...}`` for one decoded payload, per the contract, as the decoder of its
    type writes it (``lazy``: numeric feature values as numpy arrays, for streaming
    with ``write_json``), with ``decoder_error`` when the best decoder failed."""
    p = decoded.payload
    out: dict[str, Any] = {"type": p.type}
    out.update(by_type(p.type).to_json(p, lazy))
    if decoded.failed:
        out["decoder_error"] = {"decoder": decoded.failed, "message": decoded.error}
    return out


def payload_lines(record: dict[str, Any]) -> Iterator[str]:
    """The lines of a record's payload (``record`` is its ``show --json`` form), as
    the decoder of its ``type`` writes them."""
    yield from by_type(record["type"]).render(record)


def payload_outline(decoded: Decoded, key: str = "", depth: int = 0) -> list[Outline]:
    """The top-level nodes of any decoded payload: its decoder's outline (bytes that
    are themselves a record outlined the same way), after a note when the best decoder
    failed and the bytes are shown instead."""
    from ..outline import Outline

    nodes: list[Outline] = []
    if decoded.failed:
        text = f"the {decoded.failed} decoder failed: {decoded.error}; showing bytes"
        nodes.append(Outline("note", value=text))
    return nodes + by_type(decoded.payload.type).outline(decoded.payload, key, depth, _nested)


def _nested(data: bytes, key: str, depth: int) -> list[Outline]:
    return payload_outline(decode(data), key, depth)
