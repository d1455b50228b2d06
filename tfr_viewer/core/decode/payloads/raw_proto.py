"""Any other protobuf message, shown like ``protoc --decode_raw``.

The protobuf runtime first checks that the bytes are a message (quickly, in C); then
:mod:`..wire` reads its fields with their numbers, wire types and data, refusing what
the runtime lets through but the format forbids (field number 0). A length-delimited
value becomes a nested message when it parses as one and is not readable text. Depth
and field count are bounded.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from google.protobuf.message import DecodeError

from ...text import plural, shortest_float32
from .. import proto
from ..payload_types import Bid, ProtobufPayload, ProtoField
from ..strict_parse import looks_like_text
from ..wire import FIXED32, FIXED64, LENGTH, START_GROUP, WireError, WireField, read_fields

if TYPE_CHECKING:
    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Nested, Outline

NAME = "protobuf"
CEILING = 40  # the highest bid :func:`bid` makes
MAX_DEPTH = 12
MAX_FIELDS = 5000
PREVIEW_BYTES = 4096
WIRE_TYPES = {0: "varint", 1: "fixed64", 2: "bytes", 3: "group", 5: "fixed32"}
# the picture values a message holds: more than this in one record are left out
MAX_IMAGES = 256


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
    from ..detect import image_format  # (detect imports this package)

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
                # a picture is kept whole (it is shown, and judged, on all its bytes);
                # other long values as a preview
                kept = data if image_format(data[:32]) else data[:PREVIEW_BYTES]
                out.append(ProtoField(number, wire, value=bytes(kept), size=len(data)))
        else:
            out.append(ProtoField(number, wire, value=int(data)))
    return tuple(out)


def bid(data: bytes) -> Bid:
    if not data:
        return Bid(0)
    budget = _Budget()
    fields = _parse(data, budget)
    return Bid(40, (fields, budget)) if fields is not None else Bid(0)


def decode(data: bytes, parsed: Any = None) -> ProtobufPayload:
    if parsed is not None:
        fields, budget = parsed
    else:
        budget = _Budget()
        fields = _parse(data, budget)
    if fields is None:
        raise ValueError("not a protobuf message")
    return ProtobufPayload(_fields(fields, 0, budget), budget.truncated)


TYPE = "protobuf"


def real_reading(f: ProtoField) -> tuple[str, float] | None:
    """A fixed field's floating-point reading: ``("double", x)`` for a 64-bit field,
    ``("float", x)`` (its shortest float32 text) for a 32-bit one; None for other
    fields. The wire format does not say which reading the message's schema means."""
    if not isinstance(f.value, int) or f.wire_type not in (FIXED64, FIXED32):
        return None
    if f.wire_type == FIXED64:
        return "double", struct.unpack("<d", f.value.to_bytes(8, "little"))[0]
    x = struct.unpack("<f", f.value.to_bytes(4, "little"))[0]
    return "float", shortest_float32(x)


def plausible(x: float) -> bool:
    """Whether a floating-point reading looks like a number a message would hold (zero,
    or finite between 1e-6 and 1e15 in size), and so is shown before the integer one."""
    return x == 0 or (math.isfinite(x) and 1e-6 <= abs(x) < 1e15)


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
        if (real := real_reading(f)) is not None and math.isfinite(real[1]):
            out[real[0]] = real[1]  # JSON has no NaN or infinity: those are left out
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
        elif (real := f.get("double", f.get("float"))) is not None and plausible(real):
            kind = "fixed64" if "double" in f else "fixed32"
            yield f"{indent}{f['number']}: {real!r} ({kind} {f['value']})"
        else:
            yield f"{indent}{f['number']}: {f['value']}"


def render(record: dict[str, Any]) -> Iterator[str]:
    yield from _lines(record["fields"], "  ")


def outline(p: ProtobufPayload, key: str, depth: int, nested: Nested) -> list[Outline]:
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
        elif (real := real_reading(f)) is not None and plausible(real[1]):
            node.kind = real[0]
            node.value = node.copy = repr(real[1])
            node.count = f"{WIRE_TYPES[f.wire_type]} {f.value}"
        else:
            node.value = node.copy = str(f.value)
        out.append(node)
    return out


def images(p: ProtobufPayload, keymap: KeyMap | None) -> list[ImageAnnotation]:
    """Every picture nested in the message, named by its path of field numbers
    (``#1.#3``), in the order of the wire."""
    from ..layouts import whole_images

    found: list[tuple[str, bytes]] = []

    def walk(fields: tuple[ProtoField, ...], path: str) -> None:
        for f in fields:
            if len(found) >= MAX_IMAGES:
                return
            here = f"{path}.#{f.number}" if path else f"#{f.number}"
            if f.fields is not None:
                walk(f.fields, here)
            elif isinstance(f.value, bytes) and f.size == len(f.value):
                found.append((here, f.value))

    walk(p.fields, "")
    return whole_images(found)
