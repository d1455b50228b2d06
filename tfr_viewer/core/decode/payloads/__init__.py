"""The payload decoder registry.

Each decoder module (a :class:`Decoder`) names itself (``NAME``) and the ``type`` of
the payloads it makes (``TYPE``), bids for bytes (``bid(data) -> Bid``: a priority,
0 when it cannot decode them, and what it parsed to judge them; never above its
``CEILING``, so that a decoder that cannot win is not asked), decodes them
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
from . import elwc, event, example, hexdump, message, raw_proto, sequence, tensor, text

if TYPE_CHECKING:
    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Nested, Outline


class Decoder(Protocol):
    """What a decoder module provides."""

    NAME: str
    TYPE: str
    CEILING: int  # the highest priority its bid gives

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
    message,
    text,
    hexdump,
)


NO_BID = Bid(0)
CERTAIN = 90  # a bid this high names a payload's type whatever its file holds


def _bid(decoder: Decoder, data: bytes) -> Bid:
    """``decoder``'s bid for ``data``; a bid that fails is no bid (hostile bytes)."""
    try:
        return decoder.bid(data)
    except Exception:  # noqa: BLE001 - hostile bytes: a failing bid is no bid
        return NO_BID


def _auction(data: bytes) -> tuple[Decoder, dict[str, Bid]]:
    """The highest bidder for ``data`` (earlier in DECODERS wins a tie; the bytes
    decoder when nobody bids) and the bids asked for. A decoder whose ``CEILING`` is no
    higher than the best bid so far could not win and is not asked: the winner is the
    one every decoder's bid would choose."""
    asked: dict[str, Bid] = {}
    best: Decoder = hexdump
    best_bid = 0
    for decoder in DECODERS:
        if best_bid >= decoder.CEILING:
            continue
        offer = asked[decoder.NAME] = _bid(decoder, data)
        if offer.priority > best_bid:
            best, best_bid = decoder, offer.priority
    return best, asked


def choose(data: bytes) -> Decoder:
    """The decoder with the highest bid (earlier in DECODERS wins a tie); a decoder
    whose bid fails is passed over."""
    return _auction(data)[0]


def certain(data: bytes) -> bool:
    """Whether the bytes name their type alone (a bid of :data:`CERTAIN` or more): a
    file's type then does not change how they are read."""
    chosen, asked = _auction(data)
    return asked[chosen.NAME].priority >= CERTAIN


def choose_for_many(samples: list[bytes]) -> str:
    """The decoder for a file whose records include ``samples``: the one that reads the
    most of them (a bid above 0), and of those the one with the highest bid over all
    (earlier in DECODERS wins a tie). The bytes decoder when there is no sample.

    One message type is read as one type in a file: a record whose bytes also happen
    to be readable text or a tensor is still read as the file's type. A decoder that
    could not beat the best so far (it reads every sample at its ``CEILING`` and would
    still lose) is not asked."""
    if not samples:
        return hexdump.NAME
    best: tuple[int, int] = (0, 0)  # (samples read, bids over all) of the leader
    leader = hexdump.NAME
    # the bytes fallback reads anything: it is the file's type only when nothing else is
    for decoder in DECODERS:
        if decoder is hexdump or best >= (len(samples), decoder.CEILING * len(samples)):
            continue
        priorities = [_bid(decoder, data).priority for data in samples]
        score = (sum(p > 0 for p in priorities), sum(priorities))
        if score > best:
            best, leader = score, decoder.NAME
    return leader


def decode(data: bytes, decoder: str | None = None, within: str | None = None) -> Decoded:
    """Decode ``data`` with the best decoder, or the one named by ``decoder`` (or a
    user's message type's, :attr:`~..message_types.MessageType.decoder`).

    ``within`` names the decoder of the file the bytes come from
    (:func:`choose_for_many`): unless the bytes name their type alone (:func:`certain`),
    it decodes them whenever it can read them at all, and the best bidder only when it
    cannot (a record that truly differs from its file)."""
    from ..message_types import bound

    users = bound(decoder) if decoder is not None else bound(within)
    if users is not None:  # the message type a user gave: its reading, or the bytes
        try:
            return Decoded(message.read_as(users, data), message.NAME)
        except Exception as exc:  # noqa: BLE001 - protobuf's error, said with the bytes
            return Decoded(BytesPayload(bytes(data)), hexdump.NAME, users.name, str(exc))
    parsed = None
    if decoder is not None:
        chosen = by_name(decoder)
    else:
        chosen, asked = _auction(data)
        parsed = asked[chosen.NAME].parsed
        home = _NAMED.get(within or "")
        if home is not None and home is not chosen and asked[chosen.NAME].priority < CERTAIN:
            offer = asked.get(home.NAME) or _bid(home, data)
            if offer.priority > 0:
                chosen, parsed = home, offer.parsed
    try:
        return Decoded(chosen.decode(data, parsed), chosen.NAME)
    except Exception as exc:  # any decoder failure falls back to raw bytes
        if decoder is None and within is not None and chosen.NAME == within:
            return decode(data)  # the file's decoder could not: the best bidder may
        return Decoded(BytesPayload(bytes(data)), hexdump.NAME, chosen.NAME, str(exc))


_NAMED: dict[str, Decoder] = {d.NAME: d for d in DECODERS}


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
