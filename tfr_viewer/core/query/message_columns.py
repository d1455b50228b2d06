"""A filter's columns over records read as a user's message type: a key is a path of
field names (``context.name``, ``images``), and a message in a value is a
:class:`MessageValue` whose fields a filter names in turn (``f["images"][0]["name"]``).

Values are as the JSON form gives them (:mod:`..decode.payloads.message`): numbers,
text, an enum's name (its number when the type names none), bytes; a singular field
that is not set gives its default (a message: nothing); a repeated field every value; a
map one :class:`MapValue`, whose keys a filter names (``f["stats"]["speed"]``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
from google.protobuf.descriptor import FieldDescriptor

from ..decode.message_types import enum_value, is_map, is_repeated
from ..user_error import UserError
from .columns import Rag, as_array
from .extract import ROW_MALFORMED, ROW_OK, FeatureColumn
from .ops import fields_of

if TYPE_CHECKING:
    from google.protobuf.message import Message

    from ..decode.message_types import MessageType
    from ..io.payload_block import PayloadBlock

_F = FieldDescriptor


class MessageValue:
    """A message held in a record, as a filter's value."""

    __slots__ = ("message",)

    def __init__(self, message: Message) -> None:
        self.message = message

    def field(self, name: str) -> list[Any]:
        """The values of the field ``name`` (see the module); a ``TypeError`` naming
        the fields there are for a name the type does not have."""
        descriptor = self.message.DESCRIPTOR
        field = descriptor.fields_by_name.get(name)
        if field is None:
            raise TypeError(f"{descriptor.full_name} has no field {name!r} ({_names(descriptor)})")
        value = getattr(self.message, name)
        if is_map(field):
            return [MapValue(field, value)]
        if is_repeated(field):
            return [_item(field, v) for v in value]
        if field.type in (_F.TYPE_MESSAGE, _F.TYPE_GROUP) and not self.message.HasField(name):
            return []
        return [_item(field, value)]

    def __repr__(self) -> str:
        return f"<{self.message.DESCRIPTOR.full_name}>"


class MapValue:
    """A map field of a message, as a filter's value: its keys named in turn."""

    __slots__ = ("_field", "_map")

    def __init__(self, field: Any, value: Any) -> None:
        self._field, self._map = field, value

    def field(self, name: str) -> list[Any]:
        """The value at key ``name`` (a number key written as text), or nothing."""
        entry = self._field.message_type
        key_field, value_field = entry.fields_by_name["key"], entry.fields_by_name["value"]
        key: Any = name
        if key_field.type not in (_F.TYPE_STRING, _F.TYPE_BYTES):
            try:
                key = int(name) if key_field.type != _F.TYPE_BOOL else name == "true"
            except ValueError:
                return []
        if key not in self._map:
            return []
        return [_item(value_field, self._map[key])]

    def __len__(self) -> int:
        return len(self._map)

    def __repr__(self) -> str:
        return f"<map of {len(self._map)}>"


def _item(field: Any, value: Any) -> Any:
    kind = field.type
    if kind in (_F.TYPE_MESSAGE, _F.TYPE_GROUP):
        return MessageValue(value)
    if kind == _F.TYPE_ENUM:
        return enum_value(field, value)
    if kind == _F.TYPE_BYTES:
        return bytes(value)
    return value


def _names(descriptor: Any) -> str:
    return "its fields: " + ", ".join(f.name for f in descriptor.fields) or "it has no field"


def check_path(kind: MessageType, key: str) -> None:
    """A :class:`UserError` when ``key`` is no path of field names of ``kind`` (a
    map's keys are not checked: they are data)."""
    descriptor: Any = kind.descriptor
    walked: list[str] = []
    for name in key.split("."):
        if descriptor is None:
            raise UserError(
                f"{'.'.join(walked)} of {kind.name} holds no fields: {key!r} goes past it"
            )
        field = descriptor.fields_by_name.get(name)
        if field is None:
            where = ".".join(walked) or kind.name
            raise UserError(f"{where} has no field {name!r} ({_names(descriptor)})")
        walked.append(name)
        descriptor = None if is_map(field) else field.message_type


def message_columns(
    block: PayloadBlock, keys: Iterable[str], kind: MessageType
) -> tuple[np.ndarray, dict[str, FeatureColumn]]:
    """Per-row parse status and a column per key path over records of ``kind`` (a
    record that does not parse holds no key): by the compiled walk of field paths where
    it answers (:mod:`.message_paths`, the same columns), each record parsed by
    protobuf's runtime otherwise."""
    from .message_paths import columns

    wanted = sorted(set(keys))
    compiled = columns(block, wanted, kind)
    return compiled if compiled is not None else runtime_columns(block, wanted, kind)


def runtime_columns(
    block: PayloadBlock, wanted: list[str], kind: MessageType
) -> tuple[np.ndarray, dict[str, FeatureColumn]]:
    """:func:`message_columns` of the keys ``wanted`` (sorted, each once), each record
    parsed by protobuf's runtime."""
    from google.protobuf.message import DecodeError

    status = np.full(block.rows, ROW_OK, dtype=np.uint8)
    rows: dict[str, list[list[Any]]] = {key: [] for key in wanted}
    getters = [(rows[key], _getter(kind, key)) for key in wanted]
    for r in range(block.rows):
        message = None
        if block.starts[r] >= 0:
            try:
                message = kind.parse(block.payload(r))
            except DecodeError:
                status[r] = ROW_MALFORMED
        for out, get in getters:
            out.append([] if message is None else get(message))
    columns = {}
    for key, per_row in rows.items():
        lengths = np.array([len(v) for v in per_row], dtype=np.int64)
        splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        flat = as_array([v for values in per_row for v in values])
        present = lengths > 0
        columns[key] = FeatureColumn(
            Rag(flat, splits), present, np.zeros(block.rows, dtype=np.uint8)
        )
    return status, columns


def _getter(kind: MessageType, key: str) -> Callable[[Message], list[Any]]:
    """How a record's values of ``key`` are read: along its singular messages straight
    to a field that holds no message (the common path, a few attribute reads), or
    through :class:`MessageValue` for any other path; both give the same values."""
    steps: list[Any] = []
    descriptor = kind.descriptor
    for name in key.split("."):
        field = descriptor.fields_by_name.get(name) if descriptor is not None else None
        steps.append(field)
        descriptor = None if field is None or is_map(field) else field.message_type
    *through, leaf = steps
    plain = (
        leaf is not None
        and leaf.message_type is None
        and all(
            f is not None and f.message_type is not None and not is_repeated(f) for f in through
        )
    )
    if not plain:
        names = key.split(".")

        def walked(message: Message) -> list[Any]:
            values: list[Any] = [MessageValue(message)]
            for name in names:
                values = fields_of(values, name)
            return values

        return walked
    path = [f.name for f in through]
    name, converted, repeated = (
        leaf.name,
        leaf.type in (_F.TYPE_ENUM, _F.TYPE_BYTES),
        is_repeated(leaf),
    )

    def straight(message: Message) -> list[Any]:
        for step in path:
            if not message.HasField(step):
                return []
            message = getattr(message, step)
        value = getattr(message, name)
        if not repeated:
            return [_item(leaf, value) if converted else value]
        return [_item(leaf, v) for v in value] if converted else list(value)

    return straight
