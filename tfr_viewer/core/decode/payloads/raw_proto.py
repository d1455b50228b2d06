"""Any other protobuf message, shown like ``protoc --decode_raw``.

The bytes are parsed by the protobuf runtime into a message with no declared fields, so
every field arrives as an unknown field with its number, wire type and data. A
length-delimited value becomes a nested message when it parses as one and is not
readable text. Depth and field count are bounded.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.message import DecodeError
from google.protobuf.unknown_fields import UnknownFieldSet

from .. import proto
from .text import looks_like_text
from .types import ProtobufPayload, ProtoField

NAME = "protobuf"
MAX_DEPTH = 12
MAX_FIELDS = 5000
PREVIEW_BYTES = 4096
WIRE_TYPES = {0: "varint", 1: "fixed64", 2: "bytes", 3: "group", 5: "fixed32"}


def _parse(data: bytes) -> Any | None:
    msg = proto.RawMessage()
    try:
        msg.ParseFromString(data)
    except DecodeError:
        return None
    fields = UnknownFieldSet(msg)
    return fields if len(fields) else None


class _Budget:
    def __init__(self) -> None:
        self.left = MAX_FIELDS
        self.truncated = False


def _fields(fields: Any, depth: int, budget: _Budget) -> tuple[ProtoField, ...]:
    out = []
    for f in fields:
        if budget.left <= 0:
            budget.truncated = True
            break
        budget.left -= 1
        number, wire, data = f.field_number, f.wire_type, f.data
        if wire == 3:
            out.append(ProtoField(number, wire, fields=_fields(data, depth + 1, budget)))
        elif wire == 2:
            nested = None
            if depth < MAX_DEPTH and data and not looks_like_text(data):
                nested = _parse(data)
            elif depth >= MAX_DEPTH:
                budget.truncated = True
            if nested is not None:
                out.append(
                    ProtoField(
                        number, wire, fields=_fields(nested, depth + 1, budget), size=len(data)
                    )
                )
            else:
                out.append(
                    ProtoField(number, wire, value=bytes(data[:PREVIEW_BYTES]), size=len(data))
                )
        else:
            out.append(ProtoField(number, wire, value=int(data)))
    return tuple(out)


def bid(data: bytes) -> int:
    return 40 if data and _parse(data) is not None else 0


def decode(data: bytes) -> ProtobufPayload:
    fields = _parse(data)
    if fields is None:
        raise ValueError("not a protobuf message")
    budget = _Budget()
    return ProtobufPayload(_fields(fields, 0, budget), budget.truncated)
