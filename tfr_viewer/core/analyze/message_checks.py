"""The checks that apply to any message, for records read as a project's own type
(:mod:`..decode.message_types`), each finding at its record and, where one field is at
fault, its field path: a record the type does not parse, fields the type does not
define (a newer writer's, or another type's), an enum number the type names not, a
floating-point value that is NaN or infinite, a record that sets no field at all. The
checks of features, pictures, boxes and classes are the Examples'."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
from google.protobuf.descriptor import FieldDescriptor

from ..decode.message_types import is_map, is_repeated, unknown_fields

if TYPE_CHECKING:
    from google.protobuf.message import Message

    from ..decode.message_types import MessageType
    from ..io import Dataset
    from ..io.payload_block import PayloadBlock

Note = Callable[..., None]  # (kind, message, record, **where)
_F = FieldDescriptor
_FLOATS = (_F.TYPE_FLOAT, _F.TYPE_DOUBLE)
MESSAGE_KINDS = (
    "message_unparseable",
    "message_unknown_fields",
    "message_enum_unnamed",
    "message_not_finite",
    "message_empty",
)


def read_as(ds: Dataset, records: np.ndarray) -> MessageType | None:
    """The user's message type a block's records (of one file, ``records`` their
    numbers) are read as, or None (at once when the user gave none)."""
    if ds.message_type is None or not len(records):
        return None
    from ..decode.file_payloads import message_type_of

    return message_type_of(ds, ds.locate(int(records[0]))[0])


def check_messages(
    records: np.ndarray, rows: np.ndarray, block: PayloadBlock, kind: MessageType, note: Note
) -> None:
    """Check the block's ``rows`` (readable records, ``records`` their global numbers)
    as messages of ``kind``."""
    from google.protobuf.message import DecodeError

    for r in np.flatnonzero(rows).tolist():
        record = int(records[r])
        try:
            message = kind.parse(block.payload(r))
        except DecodeError as exc:
            note("message_unparseable", f"the record is no {kind.name}: {exc}", record)
            continue
        unknown = unknown_fields(message)
        if not message.ListFields() and not unknown:
            note("message_empty", f"the record sets no field of {kind.name}", record)
        if unknown:
            note(
                "message_unknown_fields",
                f"the record holds {unknown} field{'s' if unknown > 1 else ''} "
                f"{kind.name} does not define",
                record,
            )
        for path, field, value in _values(message, ""):
            if field.type == _F.TYPE_ENUM and value not in field.enum_type.values_by_number:
                note(
                    "message_enum_unnamed",
                    f"{path} is {value}, a number {field.enum_type.full_name} names not",
                    record,
                    feature=path,
                )
            elif field.type in _FLOATS and not math.isfinite(value):
                note("message_not_finite", f"{path} is {value}", record, feature=path)


def _values(message: Message, path: str) -> Iterator[tuple[str, Any, Any]]:
    """``(path, field, value)`` of every enum and floating-point value in ``message``
    and the messages it holds."""
    fields: Any = message.ListFields()
    for field, value in fields:
        here = f"{path}.{field.name}" if path else field.name
        if is_map(field):
            inner = field.message_type.fields_by_name["value"]
            items = [(f"{here}[{k!r}]", inner, value[k]) for k in sorted(value)]
        elif is_repeated(field):
            items = [(f"{here}[{i}]", field, v) for i, v in enumerate(value)]
        else:
            items = [(here, field, value)]
        for where, kind, item in items:
            if kind.type in (_F.TYPE_MESSAGE, _F.TYPE_GROUP):
                yield from _values(item, where)
            elif kind.type == _F.TYPE_ENUM or kind.type in _FLOATS:
                yield where, kind, item
