"""Records read as a message type the user gave (``--proto`` or ``--descriptor-set``
with ``--message``, :mod:`..message_types`): every field by its name, as the type
declares it.

The JSON form is ``{message, fields, unknown_fields?}``: ``fields`` maps each field
that is set (in the order of its number, as ``protoc --decode`` writes them) to its
value: a number (``float`` as its shortest float32 text, 64-bit integers whole), a
string, a bool, an enum's name (its number when the type names none), a bytes value as
every command writes one (pictures with their verdict, on all their bytes), a message
as such a mapping, a repeated field as a list, a map as a mapping of its keys' text.
This decoder never bids: a file is read so only when its user names the type."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from google.protobuf.descriptor import FieldDescriptor

from ...text import plural, shortest_float32
from ..message_types import enum_value, is_map, is_repeated
from ..payload_types import Bid, MessagePayload

if TYPE_CHECKING:
    from google.protobuf.message import Message

    from ..layouts import ImageAnnotation, KeyMap
    from ..message_types import MessageType
    from ..outline import Nested, Outline

NAME = "message"
TYPE = "message"
CEILING = 0  # never asked in an auction: a user's type is named, not guessed
MAX_IMAGES = 256  # the pictures of one record, at most

_F = FieldDescriptor
_INTEGERS = {
    _F.TYPE_INT32, _F.TYPE_INT64, _F.TYPE_UINT32, _F.TYPE_UINT64, _F.TYPE_SINT32,
    _F.TYPE_SINT64, _F.TYPE_FIXED32, _F.TYPE_FIXED64, _F.TYPE_SFIXED32, _F.TYPE_SFIXED64,
}  # fmt: skip
_TYPE_NAMES = {
    getattr(_F, name): name.removeprefix("TYPE_").lower()
    for name in dir(_F)
    if name.startswith("TYPE_") and isinstance(getattr(_F, name), int)
}


def bid(data: bytes) -> Bid:
    return Bid(0)


def decode(data: bytes, parsed: Any = None) -> MessagePayload:
    """``data`` read as ``parsed``, the :class:`~..message_types.MessageType` the file
    is read as; protobuf's ``DecodeError`` when the bytes are no such message."""
    if parsed is None:
        raise ValueError("no message type is given for these bytes (--proto, --message)")
    return read_as(parsed, data)


def read_as(kind: MessageType, data: bytes) -> MessagePayload:
    from ..message_types import unknown_fields

    value = kind.parse(data)
    return MessagePayload(kind.name, value, unknown_fields(value))


def to_json(p: MessagePayload, lazy: bool) -> dict[str, Any]:
    """``{message, fields, unknown_fields?}`` (see the module)."""
    out: dict[str, Any] = {"message": p.message, "fields": message_json(p.value)}
    if p.unknown:
        out["unknown_fields"] = p.unknown
    return out


def message_json(message: Message) -> dict[str, Any]:
    """Every field of ``message`` that is set, by name (see the module)."""
    out: dict[str, Any] = {}
    for field, value in message.ListFields():
        if is_map(field):
            kind = _map_value(field)
            out[field.name] = {str(k): value_json(kind, value[k]) for k in sorted(value)}
        elif is_repeated(field):
            out[field.name] = [value_json(field, v) for v in value]
        else:
            out[field.name] = value_json(field, value)
    return out


def value_json(field: Any, value: Any) -> Any:
    """One value of ``field`` as the JSON form writes it."""
    from ..to_json import bytes_value

    kind = field.type
    if kind in (_F.TYPE_MESSAGE, _F.TYPE_GROUP):
        return message_json(value)
    if kind == _F.TYPE_ENUM:
        return enum_value(field, value)
    if kind == _F.TYPE_BYTES:
        return bytes_value(bytes(value))
    if kind == _F.TYPE_FLOAT:
        return shortest_float32(value)
    if kind == _F.TYPE_DOUBLE:
        return float(value)
    if kind in _INTEGERS:
        return int(value)
    return value  # bool, string


def type_name(field: Any) -> str:
    """A field's type as its ``.proto`` spells it (a message's or enum's name, a map's
    ``map<key, value>``, ``repeated`` before a list's)."""
    if is_map(field):
        key, value = (field.message_type.fields_by_name[n] for n in ("key", "value"))
        return f"map<{type_name(key)}, {type_name(value)}>"
    if field.message_type is not None:
        base = field.message_type.name
    elif field.enum_type is not None:
        base = field.enum_type.name
    else:
        base = _TYPE_NAMES.get(field.type, "?")
    return f"repeated {base}" if is_repeated(field) else base


def _map_value(field: Any) -> Any:
    """The value field of a map field's entries."""
    return field.message_type.fields_by_name["value"]


def render(record: dict[str, Any]) -> Iterator[str]:
    yield f"  message {record['message']}"
    if record.get("unknown_fields"):
        yield f"  ({plural(record['unknown_fields'], 'field')} the type does not define)"
    yield from _lines(record["fields"], "  ")


def _lines(fields: dict[str, Any], indent: str) -> Iterator[str]:
    for name, value in fields.items():
        items = value if isinstance(value, list) else [value]
        for k, item in enumerate(items):
            label = f"{name}[{k}]" if isinstance(value, list) else name
            if isinstance(item, dict) and "base64" not in item:
                yield f"{indent}{label} {{"
                yield from _lines(item, indent + "  ")
                yield f"{indent}}}"
            else:
                yield f"{indent}{label}: {_scalar_text(item)}"


def _scalar_text(value: Any) -> str:
    from ..text_form import bytes_text

    if isinstance(value, dict):
        return bytes_text(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def outline(p: MessagePayload, key: str, depth: int, nested: Nested) -> list[Outline]:
    from ..outline import Outline

    nodes = _field_nodes(p.value, "")
    if p.unknown:
        nodes.insert(
            0, Outline("note", value=f"{plural(p.unknown, 'field')} the type does not define")
        )
    return nodes


def _field_nodes(message: Message, path: str) -> list[Outline]:
    from ..outline import MAX_CHILDREN, Outline

    out = []
    for field, value in message.ListFields():
        here = f"{path}.{field.name}" if path else field.name
        node = Outline(field.name, type_name(field), key=here)
        if is_map(field):
            kind = _map_value(field)
            node.count = plural(len(value), "entry", "entries")
            for k in sorted(value)[:MAX_CHILDREN]:
                node.add(_value_node(kind, value[k], f"[{k!r}]", f"{here}[{k!r}]"))
        elif is_repeated(field):
            node.count = plural(len(value), "value")
            for i, item in enumerate(list(value)[:MAX_CHILDREN]):
                node.add(_value_node(field, item, f"[{i}]", f"{here}[{i}]"))
        else:
            filled = _value_node(field, value, field.name, here)
            node.value, node.copy, node.count = filled.value, filled.copy, filled.count
            node.children = filled.children
        out.append(node)
    return out


def _value_node(field: Any, value: Any, name: str, path: str) -> Outline:
    from ..outline import Outline, bytes_preview

    node = Outline(name, type_name(field).removeprefix("repeated "), key=path)
    if field.type in (_F.TYPE_MESSAGE, _F.TYPE_GROUP):
        node.children = _field_nodes(value, path)
        node.count = plural(len(node.children), "field")
    elif field.type == _F.TYPE_BYTES:
        node.value, _ = bytes_preview(bytes(value))
        node.count = f"{len(value):,} bytes"
        node.copy = bytes(value).hex()
    else:
        node.value = node.copy = _scalar_text(value_json(field, value))
    return node


def images(p: MessagePayload, keymap: KeyMap | None) -> list[ImageAnnotation]:
    """Every picture in the message, named by its field path (``images[0].image``),
    each whole."""
    from ..layouts import whole_images

    found: list[tuple[str, bytes]] = []

    def walk(message: Message, path: str) -> None:
        for field, value in message.ListFields():
            if len(found) >= MAX_IMAGES:
                return
            here = f"{path}.{field.name}" if path else field.name
            if is_map(field):
                kind = _map_value(field)
                items = [(f"{here}[{k!r}]", value[k]) for k in sorted(value)]
                field = kind
            elif is_repeated(field):
                items = [(f"{here}[{i}]", v) for i, v in enumerate(value)]
            else:
                items = [(here, value)]
            for where, item in items:
                if field.type in (_F.TYPE_MESSAGE, _F.TYPE_GROUP):
                    walk(item, where)
                elif field.type == _F.TYPE_BYTES:
                    found.append((where, bytes(item)))

    walk(p.value, "")
    return whole_images(found)
