"""The wire-format reader: every well-formed message read as upb reads it, everything
else refused with its byte offset; random bytes compared with upb both ways."""

from __future__ import annotations

import random

import pytest
from google.protobuf.message import DecodeError
from google.protobuf.unknown_fields import UnknownFieldSet

from tests.fuzz.cases import mutate, varint
from tfr_viewer.core.decode import proto
from tfr_viewer.core.decode.wire import MAX_GROUP_DEPTH, WireError, read_fields, read_varint


def _upb(data: bytes):
    """upb's reading of ``data`` as (number, wire, value) triples, or None."""
    msg = proto.RawMessage()
    try:
        msg.ParseFromString(data)
    except DecodeError:
        return None
    return _triples(UnknownFieldSet(msg))


def _triples(fields):
    out = []
    for f in fields:
        data = f.data
        if f.wire_type == 3:
            data = tuple(_triples(data))
        out.append((f.field_number, f.wire_type, data))
    return out


def _ours(data: bytes):
    try:
        return read_fields(data).items
    except WireError:
        return None


def _random_message(rng: random.Random, depth: int = 0) -> bytes:
    """Mostly well-formed messages, with the edge values of each wire type."""
    out = bytearray()
    for _ in range(rng.randrange(0, 6)):
        number = rng.choice([1, 2, 15, 16, 2047, 2048, (1 << 29) - 1, rng.randrange(1, 1000)])
        wire = rng.choice([0, 1, 2, 3, 5] if depth < 4 else [0, 1, 2, 5])
        out += varint(number << 3 | wire)
        if wire == 0:
            out += varint(
                rng.choice([0, 1, 127, 128, (1 << 63), (1 << 64) - 1, rng.randrange(1 << 40)])
            )
        elif wire == 1:
            out += rng.randbytes(8)
        elif wire == 5:
            out += rng.randbytes(4)
        elif wire == 2:
            body = (
                _random_message(rng, depth + 1)
                if rng.random() < 0.3
                else rng.randbytes(rng.randrange(0, 20))
            )
            out += varint(len(body)) + body
        else:
            out += _random_message(rng, depth + 1) + varint(number << 3 | 4)
    return bytes(out)


@pytest.mark.parametrize("seed", range(4))
def test_well_formed_messages_read_as_upb_reads_them(seed):
    rng = random.Random(seed)
    for _ in range(2000):
        data = _random_message(rng)
        assert _ours(data) == _upb(data), data.hex()


@pytest.mark.parametrize("seed", range(4))
def test_damaged_messages_are_refused_when_upb_refuses_them(seed):
    """Whatever upb refuses we refuse; whatever we accept upb reads identically. The
    one difference allowed: field number 0, which upb keeps and the format forbids."""
    rng = random.Random(100 + seed)
    accepted = refused = 0
    for _ in range(3000):
        data = mutate(rng, _random_message(rng)) if rng.random() < 0.8 else rng.randbytes(12)
        ours, theirs = _ours(data), _upb(data)
        if ours is not None:
            accepted += 1
            assert ours == theirs, data.hex()
        else:
            refused += 1
            assert theirs is None or _has_field_zero(theirs), data.hex()
    assert accepted > 300 and refused > 300


def _has_field_zero(triples) -> bool:
    return any(n == 0 or (w == 3 and _has_field_zero(v)) for n, w, v in triples)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"\x00" * 10, "field number 0 at byte 0"),
        (b"\x08\x01\x00", "field number 0 at byte 2"),
        (b"\x08" + b"\xff" * 10 + b"\x01", "longer than ten bytes"),
        (b"\x08\x80", "runs past the end"),
        (b"\x12\x05ab", "length 5 at byte 0 runs past the end"),
        (b"\x0b\x08\x01", "group 1 is not closed"),
        (b"\x0b\x08\x01\x14", "end of group 2 at byte 3 closes nothing"),
        (b"\x0c", "end of group 1 at byte 0 closes nothing"),
        (b"\x0e", "wire type 6"),
        (b"\x0d\x01\x02", "fixed field at byte 0 runs past the end"),
    ],
)
def test_what_is_not_a_message_is_refused_with_its_place(data, says):
    with pytest.raises(WireError, match=says):
        read_fields(data)


def test_groups_nest_to_a_bound_and_the_limit_stops_reading():
    deep = b"\x0b" * (MAX_GROUP_DEPTH + 1) + b"\x0c" * (MAX_GROUP_DEPTH + 1)
    with pytest.raises(WireError, match="nest deeper"):
        read_fields(deep)
    ok = b"\x0b" * MAX_GROUP_DEPTH + b"\x0c" * MAX_GROUP_DEPTH
    assert read_fields(ok).items[0][:2] == (1, 3)
    many = b"\x08\x01" * 1000
    head = read_fields(many, limit=10)
    assert len(head.items) == 10 and head.truncated
    assert not read_fields(many).truncated


def test_varints_at_their_edges():
    assert read_varint(b"\x00", 0) == (0, 1)
    assert read_varint(b"\xff" * 9 + b"\x01", 0) == ((1 << 64) - 1, 10)
    assert read_varint(b"xx\x96\x01", 2) == (150, 4)
    assert read_varint(b"\xff" * 9 + b"\x7f", 0) == ((1 << 64) - 1, 10)  # as upb: 64 bits kept
