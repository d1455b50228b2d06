"""The protocol-buffer wire format, read field by field for payloads with no schema.

:func:`read_fields` returns the fields of one message as ``(number, wire type, value)``
triples: an ``int`` for varint, fixed64 and fixed32 fields, ``bytes`` for
length-delimited ones, and a tuple of triples for a group. It accepts exactly the
well-formed messages: field numbers from 1 to 2^29 - 1, varints of at most ten bytes
(bits past the 64th dropped, as protobuf's runtimes do), lengths inside the data,
groups closed by their own number, and no stray end-group. Anything else raises
:class:`WireError` with the byte offset.

At most ``limit`` fields are returned (groups' fields count); past it the rest of the
data is not read and ``truncated`` is set. Groups nest at most :data:`MAX_GROUP_DEPTH`
deep. Work is bounded by the bytes present and by ``limit``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

VARINT, FIXED64, LENGTH, START_GROUP, END_GROUP, FIXED32 = 0, 1, 2, 3, 4, 5
MAX_FIELD_NUMBER = (1 << 29) - 1
MAX_GROUP_DEPTH = 64
_MASK64 = (1 << 64) - 1

WireValue = int | bytes | tuple["WireField", ...]
WireField = tuple[int, int, WireValue]


class WireError(ValueError):
    """Bytes that are not a well-formed protobuf message."""


@dataclass
class Fields:
    """The fields read, and whether the limit stopped the reading early."""

    items: list[WireField] = field(default_factory=list)
    truncated: bool = False


def read_varint(data: bytes, pos: int) -> tuple[int, int]:
    """The varint at ``pos`` and the offset after it."""
    value = shift = 0
    for i in range(pos, min(pos + 10, len(data))):
        byte = data[i]
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value & _MASK64, i + 1
        shift += 7
    if len(data) - pos >= 10:
        raise WireError(f"varint at byte {pos} is longer than ten bytes")
    raise WireError(f"varint at byte {pos} runs past the end")


class _Reader:
    def __init__(self, data: bytes, limit: int) -> None:
        self.data = data
        self.left = limit
        self.truncated = False

    def message(self, pos: int, end: int, group: int, depth: int) -> tuple[list[WireField], int]:
        """The fields from ``pos`` to ``end`` (or to the end-group of ``group``)."""
        data = self.data
        items: list[WireField] = []
        while pos < end:
            if self.left <= 0:
                self.truncated = True
                return items, end
            start = pos
            key, pos = read_varint(data, pos)
            number, wire = key >> 3, key & 7
            if number == 0 or number > MAX_FIELD_NUMBER:
                raise WireError(f"field number {number} at byte {start} is not valid")
            if wire == END_GROUP:
                if number != group:
                    raise WireError(f"end of group {number} at byte {start} closes nothing")
                return items, pos
            self.left -= 1
            value: WireValue
            if wire == VARINT:
                value, pos = read_varint(data, pos)
            elif wire in (FIXED64, FIXED32):
                size = 8 if wire == FIXED64 else 4
                if pos + size > end:
                    raise WireError(f"fixed field at byte {start} runs past the end")
                value, pos = int.from_bytes(data[pos : pos + size], "little"), pos + size
            elif wire == LENGTH:
                length, pos = read_varint(data, pos)
                if length > end - pos:
                    raise WireError(f"length {length} at byte {start} runs past the end")
                value, pos = data[pos : pos + length], pos + length
            elif wire == START_GROUP:
                if depth >= MAX_GROUP_DEPTH:
                    raise WireError(f"groups nest deeper than {MAX_GROUP_DEPTH} at byte {start}")
                inner, pos = self.message(pos, end, number, depth + 1)
                value = tuple(inner)
            else:
                raise WireError(f"wire type {wire} at byte {start} is not valid")
            items.append((number, wire, value))
        if pos > end or group:
            if self.truncated:
                return items, end
            raise WireError(f"group {group} is not closed" if group else "data runs past the end")
        return items, pos


def read_fields(data: bytes, limit: int = 1 << 62) -> Fields:
    """The fields of the message in ``data``; :class:`WireError` if it is not one."""
    data = bytes(data)
    reader = _Reader(data, limit)
    items, _ = reader.message(0, len(data), 0, 0)
    return Fields(items, reader.truncated)
