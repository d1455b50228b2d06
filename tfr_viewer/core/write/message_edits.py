"""One value of a record of a project's own message type set by its field path, as the
window's tree names it (``context.name``, ``images[0].pose_timestamp``,
``lasers[0].ranges[2]``, ``context.stats['speed']``): the record parsed by protobuf,
the value set from its text as its field's type, the record serialized again (the
fields its type does not define kept, as protobuf keeps them)."""

from __future__ import annotations

import ast
import math
import re
from typing import TYPE_CHECKING, Any

from google.protobuf.descriptor import FieldDescriptor

from ..decode.message_types import is_map, is_repeated
from .edits import EditError

if TYPE_CHECKING:
    from google.protobuf.message import Message

    from ..decode.message_types import MessageType

_F = FieldDescriptor
_STEP = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[[^\]]*\])*)")
_INDEX = re.compile(r"\[([^\]]*)\]")
_INT_RANGES = {
    _F.TYPE_INT32: (-(2**31), 2**31 - 1),
    _F.TYPE_SINT32: (-(2**31), 2**31 - 1),
    _F.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    _F.TYPE_INT64: (-(2**63), 2**63 - 1),
    _F.TYPE_SINT64: (-(2**63), 2**63 - 1),
    _F.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    _F.TYPE_UINT32: (0, 2**32 - 1),
    _F.TYPE_FIXED32: (0, 2**32 - 1),
    _F.TYPE_UINT64: (0, 2**64 - 1),
    _F.TYPE_FIXED64: (0, 2**64 - 1),
}


def set_field(kind: MessageType, payload: bytes, path: str, text: str) -> bytes:
    """``payload`` (a ``kind`` record) with the value at ``path`` set to ``text`` read as
    its field's type; an :class:`EditError` naming what is wrong otherwise."""
    from google.protobuf.message import DecodeError

    try:
        message = kind.parse(payload)
    except DecodeError as exc:
        raise EditError(f"the record is no {kind.name}: {exc}") from None
    holder, field, at = _locate(message, path)
    value = typed(field, text, path)
    try:
        if at is None:
            setattr(holder, field.name, value)
        else:
            holder[at] = value
    except (TypeError, ValueError) as exc:
        raise EditError(f"{path}: {exc}") from None
    return message.SerializeToString()


def _locate(message: Message, path: str) -> tuple[Any, Any, Any]:
    """The holder of the value at ``path`` (a message, a repeated field or a map), the
    value's field, and its place in the holder (None: a message's own field)."""
    steps = path.split(".")
    here: Any = message
    for n, step in enumerate(steps):
        matched = _STEP.fullmatch(step)
        if matched is None:
            raise EditError(f"{path}: {step!r} names no field")
        name, indexes = matched.group(1), _INDEX.findall(matched.group(2))
        field = here.DESCRIPTOR.fields_by_name.get(name)
        if field is None:
            raise EditError(f"{path}: {here.DESCRIPTOR.full_name} has no field {name!r}")
        last = n == len(steps) - 1
        entry = field.message_type
        if is_map(field):
            if len(indexes) != 1:
                raise EditError(f"{path}: name one key of the map {name}")
            inner = entry.fields_by_name["value"]
            container, key = getattr(here, name), _key(indexes[0], path)
            if key not in container:
                raise EditError(f"{path}: the map {name} has no key {key!r}")
            if last and inner.message_type is None:
                return container, inner, key
            here = container[key]
            continue
        if is_repeated(field):
            if len(indexes) != 1:
                raise EditError(f"{path}: name one value of the list {name} ([0], [1] …)")
            container, at = getattr(here, name), _place(indexes[0], path)
            if not 0 <= at < len(container):
                raise EditError(f"{path}: {name} holds {len(container)} values")
            if last and entry is None:
                return container, field, at
            here = container[at]
            continue
        if indexes:
            raise EditError(f"{path}: {name} is no list")
        if last:
            if entry is not None:
                raise EditError(f"{path}: a message; set one of its fields")
            return here, field, None
        here = getattr(here, name)
    raise EditError(f"{path}: a message; set one of its fields")


def _key(text: str, path: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise EditError(f"{path}: [{text}] is no key") from None


def _place(text: str, path: str) -> int:
    if not text.strip().isdigit():
        raise EditError(f"{path}: [{text}] is no place in a list")
    return int(text)


def typed(field: Any, text: str, path: str) -> Any:
    """``text`` as a value of ``field``'s type (an enum by its name or number, a bool as
    true or false, bytes as UTF-8 text; text quoted as the tree shows it taken without
    its quotes); an :class:`EditError` naming the type otherwise."""
    t, words = field.type, text.strip()
    if t in (_F.TYPE_ENUM, _F.TYPE_STRING, _F.TYPE_BYTES):
        words = _unquoted(words)
    if t == _F.TYPE_ENUM:
        named = field.enum_type.values_by_name.get(words)
        if named is not None:
            return named.number
        if words.lstrip("-").isdigit():
            return int(words)
        names = ", ".join(v.name for v in field.enum_type.values)
        raise EditError(f"{path}: {text!r} is no {field.enum_type.name} ({names})")
    if t in _INT_RANGES:
        lo, hi = _INT_RANGES[t]
        try:
            number = int(words)
        except ValueError:
            raise EditError(f"{path}: {text!r} is no whole number") from None
        if not lo <= number <= hi:
            raise EditError(f"{path}: {number} is outside {lo}..{hi}")
        return number
    if t in (_F.TYPE_FLOAT, _F.TYPE_DOUBLE):
        try:
            real = float(words)
        except ValueError:
            raise EditError(f"{path}: {text!r} is no number") from None
        if t == _F.TYPE_FLOAT and math.isfinite(real) and abs(real) > 3.4028234663852886e38:
            raise EditError(f"{path}: {real} is outside a float's range")
        return real
    if t == _F.TYPE_BOOL:
        if words.lower() in ("true", "1"):
            return True
        if words.lower() in ("false", "0"):
            return False
        raise EditError(f"{path}: {text!r} is no bool (true or false)")
    if t == _F.TYPE_BYTES:
        return words.encode("utf-8")
    return words


def _unquoted(text: str) -> str:
    """Text as the tree shows it, quoted (``'segment-1'``), or as typed."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        try:
            found = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return text
        if isinstance(found, str):
            return found
    return text
