"""Any other protobuf message, shown like ``protoc --decode_raw``.

The protobuf runtime first checks that the bytes are a message (quickly, in C); then
:mod:`..wire` reads its fields with their numbers, wire types and data, refusing what
the runtime lets through but the format forbids (field number 0). A length-delimited
value becomes a nested message when it parses as one and is not readable text. Depth
and field count are bounded.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from google.protobuf.message import DecodeError

from ...text import plural
from .. import proto
from ..wire import LENGTH, START_GROUP, WireError, WireField, read_fields
from .text import looks_like_text
from .types import ProtobufPayload, ProtoField

if TYPE_CHECKING:
    from ..outline import Outline

NAME = "protobuf"
MAX_DEPTH = 12
MAX_FIELDS = 5000
PREVIEW_BYTES = 4096
WIRE_TYPES = {0: "varint", 1: "fixed64", 2: "bytes", 3: "group", 5: "fixed32"}


def _parse(data: bytes, budget: _Budget) -> list[WireField] | None:
    """The fields of ``data`` (at most the budget's), or None if it is not a message."""
    try:
        proto.RawMessage().ParseFromString(data)
        fields = read_fields(data, max(budget.left, 1))
    except (DecodeError, WireError):
        return None
    budget.truncated |= fields.truncated
    return fields.items or None


class _Budget:
    def __init__(self) -> None:
        self.left = MAX_FIELDS
        self.truncated = False


def _fields(fields: Any, depth: int, budget: _Budget) -> tuple[ProtoField, ...]:
    out = []
    for number, wire, data in fields:
        if budget.left <= 0:
            budget.truncated = True
            break
        budget.left -= 1
        if wire == START_GROUP:
            out.append(ProtoField(number, wire, fields=_fields(data, depth + 1, budget)))
        elif wire == LENGTH:
            nested = None
            if depth < MAX_DEPTH and data and not looks_like_text(data):
                nested = _parse(data, budget)
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
    return 40 if data and _parse(data, _Budget()) is not None else 0


def decode(data: bytes) -> ProtobufPayload:
    budget = _Budget()
    fields = _parse(data, budget)
    if fields is None:
        raise ValueError("not a protobuf message")
    return ProtobufPayload(_fields(fields, 0, budget), budget.truncated)


TYPE = "protobuf"


def _field_json(f: ProtoField) -> dict[str, Any]:
    from ..to_json import bytes_value

    out: dict[str, Any] = {"number": f.number, "wire_type": f.wire_type}
    if f.fields is not None:
        out["fields"] = [_field_json(c) for c in f.fields]
        if f.wire_type == 2:
            out["size"] = f.size
    elif isinstance(f.value, bytes):
        out["value"] = bytes_value(f.value)
        if f.size > len(f.value):
            out["value"]["size"] = f.size
            out["value"]["preview_only"] = True
    else:
        out["value"] = f.value
    return out


def to_json(p: ProtobufPayload, lazy: bool) -> dict[str, Any]:
    """``{fields: [{number, wire_type, value | fields}], truncated?}``."""
    out: dict[str, Any] = {"fields": [_field_json(f) for f in p.fields]}
    if p.truncated:
        out["truncated"] = True
    return out


def _lines(fields: list[dict[str, Any]], indent: str) -> Iterator[str]:
    from ..text_form import bytes_text

    for f in fields:
        if "fields" in f:
            yield f"{indent}{f['number']} {{"
            yield from _lines(f["fields"], indent + "  ")
            yield f"{indent}}}"
        elif isinstance(f["value"], dict):
            yield f"{indent}{f['number']}: {bytes_text(f['value'])}"
        else:
            yield f"{indent}{f['number']}: {f['value']}"


def render(record: dict[str, Any]) -> Iterator[str]:
    yield from _lines(record["fields"], "  ")


def outline(p: ProtobufPayload, key: str, depth: int) -> list[Outline]:
    return _field_nodes(p.fields)


def _field_nodes(fields: tuple[ProtoField, ...]) -> list[Outline]:
    from ..outline import Outline, bytes_preview

    out = []
    for f in fields:
        node = Outline(f"#{f.number}", WIRE_TYPES.get(f.wire_type, str(f.wire_type)))
        if f.fields is not None:
            node.count = plural(len(f.fields), "field")
            for child in _field_nodes(f.fields):
                node.add(child)
        elif isinstance(f.value, bytes):
            node.value, _ = bytes_preview(f.value)
            node.count = f"{f.size:,} bytes"
            node.copy = f.value.hex()
        else:
            node.value = node.copy = str(f.value)
        out.append(node)
    return out
