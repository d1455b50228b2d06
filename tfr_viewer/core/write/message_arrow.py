"""Records of a project's own message type as an Arrow table, typed by the type itself
(never guessed from the values): a column a field, a nested message's fields flattened
into ``context.name`` columns, a repeated field a list, a repeated message a list of
structs, a map an Arrow map; ``int64`` as int64, ``uint64`` and ``fixed64`` as uint64,
``float`` as float32, ``bytes`` as binary, an enum as its name (the number's text when
the type names none). A singular message that is not set is null, a scalar its default
(as protobuf reads it). A type that holds itself is followed :data:`MAX_DEPTH` levels
deep; below, its messages are their serialized bytes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from google.protobuf.descriptor import FieldDescriptor

from ..decode.message_types import enum_value, is_map, is_repeated
from ..io.dataset_blocks import iter_blocks
from ..user_error import UserError

if TYPE_CHECKING:
    from google.protobuf.message import Message

    from ..decode.message_types import MessageType
    from ..io import Dataset

MAX_DEPTH = 8
_F = FieldDescriptor


def _scalar_type(pa: Any, field: Any) -> Any:
    t = field.type
    if t in (_F.TYPE_INT32, _F.TYPE_SINT32, _F.TYPE_SFIXED32):
        return pa.int32()
    if t in (_F.TYPE_INT64, _F.TYPE_SINT64, _F.TYPE_SFIXED64):
        return pa.int64()
    if t in (_F.TYPE_UINT32, _F.TYPE_FIXED32):
        return pa.uint32()
    if t in (_F.TYPE_UINT64, _F.TYPE_FIXED64):
        return pa.uint64()
    if t == _F.TYPE_FLOAT:
        return pa.float32()
    if t == _F.TYPE_DOUBLE:
        return pa.float64()
    if t == _F.TYPE_BOOL:
        return pa.bool_()
    if t == _F.TYPE_BYTES:
        return pa.binary()
    return pa.string()  # string, enum (by name)


def _field_type(pa: Any, field: Any, depth: int) -> Any:
    if is_map(field):
        entry = field.message_type
        key, value = entry.fields_by_name["key"], entry.fields_by_name["value"]
        return pa.map_(_scalar_type(pa, key), _one_type(pa, value, depth))
    one = _one_type(pa, field, depth)
    return pa.list_(one) if is_repeated(field) else one


def _one_type(pa: Any, field: Any, depth: int) -> Any:
    if field.message_type is None:
        return _scalar_type(pa, field)
    if depth >= MAX_DEPTH:
        return pa.binary()
    return struct_type(pa, field.message_type, depth + 1)


def struct_type(pa: Any, descriptor: Any, depth: int = 0) -> Any:
    """The Arrow struct of a message type's fields."""
    return pa.struct([pa.field(f.name, _field_type(pa, f, depth)) for f in descriptor.fields])


def row(message: Message, depth: int = 0) -> dict[str, Any]:
    """A message's values as :func:`struct_type` holds them."""
    out: dict[str, Any] = {}
    fields: Any = message.DESCRIPTOR.fields
    for field in fields:
        value = getattr(message, field.name)
        if is_map(field):
            inner = field.message_type.fields_by_name["value"]
            out[field.name] = [(k, _one(inner, value[k], depth)) for k in sorted(value)]
        elif is_repeated(field):
            out[field.name] = [_one(field, v, depth) for v in value]
        elif field.message_type is not None and not message.HasField(field.name):
            out[field.name] = None
        else:
            out[field.name] = _one(field, value, depth)
    return out


def _one(field: Any, value: Any, depth: int) -> Any:
    if field.message_type is not None:
        return value.SerializeToString() if depth >= MAX_DEPTH else row(value, depth + 1)
    if field.type == _F.TYPE_ENUM:
        return str(enum_value(field, value))  # a string column: a number as its text
    return value


def message_table(
    ds: Dataset, records: Sequence[int] | np.ndarray, kind: MessageType, keys: Sequence[str] | None
) -> Any:
    """The ``records`` of ``ds`` (read as ``kind``; those that do not parse left out)
    as one flattened Arrow table, its columns ``keys`` (flattened names) when given."""
    from google.protobuf.message import DecodeError

    from .parquet import require_pyarrow

    pa = require_pyarrow("to_arrow")
    schema = pa.schema(struct_type(pa, kind.descriptor))
    chosen = np.asarray(records, dtype=np.int64)

    def blocks() -> Iterator[Any]:
        for positions, block in iter_blocks(ds, chosen):
            rows: list[tuple[int, dict[str, Any]]] = []
            for r in range(block.rows):
                if block.starts[r] < 0:
                    continue
                try:
                    rows.append((int(positions[r]), row(kind.parse(block.payload(r)))))
                except DecodeError:
                    continue
            rows.sort(key=lambda item: item[0])
            yield pa.Table.from_pylist([r for _, r in rows], schema=schema)

    table = pa.concat_tables([*blocks(), schema.empty_table()])
    while any(pa.types.is_struct(f.type) for f in table.schema):
        table = table.flatten()
    if keys is not None:
        missing = [k for k in keys if k not in table.column_names]
        if missing:
            raise UserError(
                f"{kind.name} has no column {missing[0]!r} (its columns: "
                f"{', '.join(table.column_names)})"
            )
        table = table.select(list(keys))
    return table
