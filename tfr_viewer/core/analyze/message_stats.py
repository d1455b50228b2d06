"""``stats`` over records read as a project's own message type: a column per field path
a record sets, as ``schema`` names them (:mod:`.message_schema`: ``context.name``, a
repeated message's fields as one path of all their values), for the figures every
feature has (:func:`.stats.add_column`).

A path's values are what a record sets: numbers (a ``bool`` as 0 or 1), text as its
UTF-8 bytes (so that text figures and pictures are found as in an Example's bytes), an
enum's name (its number as text when the enum names none). A path's kind is its type as
the ``.proto`` spells it (``double``, ``string``, ``CameraName``). A map is left out: its
values are of as many things as it has keys (a speed and a yaw), which one figure would
mix; ``schema`` counts its entries, and a filter reads it by key."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
from google.protobuf.descriptor import FieldDescriptor

from ..decode.message_types import enum_value, is_map, is_repeated
from ..decode.payloads.message import type_name
from ..query.columns import Rag, as_array
from ..query.extract import BYTES, FLOAT, INT64, FeatureColumn
from .message_schema import MAX_DEPTH

if TYPE_CHECKING:
    from google.protobuf.message import Message

    from ..decode.message_types import MessageType
    from ..io.payload_block import PayloadBlock

_F = FieldDescriptor
_FLOATS = (_F.TYPE_FLOAT, _F.TYPE_DOUBLE)
_TEXTS = (_F.TYPE_STRING, _F.TYPE_BYTES, _F.TYPE_ENUM)


class PathColumn:
    """One field path over a block: its column, and its type's name."""

    __slots__ = ("column", "kind")

    def __init__(self, column: FeatureColumn, kind: str) -> None:
        self.column, self.kind = column, kind


def message_block(
    block: PayloadBlock, kind: MessageType
) -> tuple[np.ndarray, dict[str, PathColumn]]:
    """Which rows ``kind`` parses, and a column per field path some parsed row sets."""
    from google.protobuf.message import DecodeError

    parsed = np.zeros(block.rows, dtype=bool)
    found: dict[str, tuple[Any, dict[int, list[Any]]]] = {}
    for r in range(block.rows):
        if block.starts[r] < 0:
            continue
        try:
            message = kind.parse(block.payload(r))
        except DecodeError:
            continue
        parsed[r] = True
        for path, field, values in _set_values(message, "", 0):
            _, rows = found.setdefault(path, (field, {}))
            rows.setdefault(r, []).extend(values)
    columns = {path: _column(field, rows, block.rows) for path, (field, rows) in found.items()}
    return parsed, columns


def _column(field: Any, rows: dict[int, list[Any]], count: int) -> PathColumn:
    lengths = np.zeros(count, dtype=np.int64)
    for r, held in rows.items():
        lengths[r] = len(held)
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    flat = [v for r in sorted(rows) for v in rows[r]]
    present = np.zeros(count, dtype=bool)
    present[list(rows)] = True
    code = BYTES if field.type in _TEXTS else FLOAT if field.type in _FLOATS else INT64
    kinds = np.where(present, code, 0).astype(np.uint8)
    values = as_array(flat)
    if code == FLOAT and values.dtype == np.int64:
        values = values.astype(np.float64)
    column = FeatureColumn(Rag(values, splits), present, kinds)
    return PathColumn(column, type_name(field).removeprefix("repeated "))


def _set_values(message: Message, path: str, depth: int) -> Iterator[tuple[str, Any, list[Any]]]:
    """``(path, field, values)`` of every field set in ``message`` that holds no
    message, a repeated message's fields once per message; maps are left out (see the
    module)."""
    for f, value in message.ListFields():
        here = f"{path}.{f.name}" if path else f.name
        entry = f.message_type
        if entry is not None and is_map(f):
            continue  # its values are of as many things as it has keys: not one figure
        if entry is not None:
            if depth < MAX_DEPTH:
                for item in value if is_repeated(f) else (value,):
                    yield from _set_values(item, here, depth + 1)
        else:
            items = value if is_repeated(f) else (value,)
            yield here, f, [_plain(f, v) for v in items]


def _plain(field: Any, value: Any) -> Any:
    """A value as the figures count it (see the module)."""
    kind = field.type
    if kind == _F.TYPE_STRING:
        return value.encode("utf-8")
    if kind == _F.TYPE_ENUM:
        return str(enum_value(field, value)).encode("utf-8")
    if kind == _F.TYPE_BYTES:
        return bytes(value)
    if kind == _F.TYPE_BOOL:
        return int(value)
    return value
