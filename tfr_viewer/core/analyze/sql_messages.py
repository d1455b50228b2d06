"""Records of a project's own message type as a table of SQL (:mod:`.sql_tables`): a
column a field path, as ``schema`` names them (``context.name``; a repeated message's
fields as one path of all their values, ``images.name``).

A path with no repeated field on the way (nor at its end) is a plain column: ``BIGINT``
for the integer types but ``uint64``/``fixed64`` (``UBIGINT``), ``FLOAT`` and
``DOUBLE``, ``BOOLEAN``, ``VARCHAR`` for ``string`` and an enum's value name (an unnamed
number as its digits), ``BLOB`` for ``bytes``. A path with a repeated field on the way
is a list of them. A singular field holds its value as protobuf reads it (its default
when a record does not set it) where the message that holds it is set, and is NULL where
that message is not; every field of a record the type does not parse is NULL. Maps are
not columns.

The columns are the paths that records spread over every file set (at most
:data:`~.sql_tables.SAMPLE` of each file); a path the type declares that the query
names is a column too (:func:`declared`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from google.protobuf.descriptor import FieldDescriptor

from ..decode.message_types import is_map, is_repeated

if TYPE_CHECKING:
    from ..decode.message_types import MessageType

_F = FieldDescriptor
_KINDS = {
    _F.TYPE_INT32: "int64",
    _F.TYPE_INT64: "int64",
    _F.TYPE_SINT32: "int64",
    _F.TYPE_SINT64: "int64",
    _F.TYPE_SFIXED32: "int64",
    _F.TYPE_SFIXED64: "int64",
    _F.TYPE_UINT32: "int64",
    _F.TYPE_FIXED32: "int64",
    _F.TYPE_UINT64: "uint64",
    _F.TYPE_FIXED64: "uint64",
    _F.TYPE_FLOAT: "float",
    _F.TYPE_DOUBLE: "double",
    _F.TYPE_BOOL: "bool",
    _F.TYPE_STRING: "string",
    _F.TYPE_ENUM: "string",
    _F.TYPE_BYTES: "bytes",
}
BUILT_IN_TABLES = {"event": "tensorflow.Event", "tensor": "tensorflow.TensorProto"}
# the payloads TensorFlow writes that are tables of their message's field paths (by the
# decoder a file's records are read with), with no type given
_NUMPY = {"int64": np.int64, "uint64": np.uint64, "float": np.float32, "double": np.float64}


@dataclass(frozen=True)
class Column:
    """A field path as a column: its kind (above) and whether it is a list."""

    kind: str
    listed: bool


def column_of(kind: MessageType, path: str) -> Column | None:
    """The column of ``path`` of ``kind`` (names as the type spells them); None when it
    is no path to a field that holds no message, or goes through a map."""
    descriptor: Any = kind.descriptor
    listed = False
    field = None
    for name in path.split("."):
        if descriptor is None:
            return None
        field = descriptor.fields_by_name.get(name)
        if field is None or is_map(field):
            return None
        listed |= is_repeated(field)
        descriptor = field.message_type
    if field is None or descriptor is not None or field.type not in _KINDS:
        return None
    return Column(_KINDS[field.type], listed)


def sampled(kind: MessageType, payloads: Iterable[bytes]) -> dict[str, Column]:
    """The columns of the paths ``payloads`` set, in the order the type declares them."""
    from .message_schema import message_schema

    schema = message_schema(kind, payloads)
    out = {}
    for path, _ in schema.ordered():
        column = column_of(kind, path)
        if column is not None:
            out[path] = column
    return out


def declared(
    kind: MessageType, wanted: Callable[[str], bool], have: Iterable[str]
) -> dict[str, Column]:
    """The paths the type declares that are ``wanted`` and not among ``have``."""
    have = set(have)
    found = {}
    for path in _paths(kind.descriptor, "", 0):
        if wanted(path) and path not in have:
            column = column_of(kind, path)
            if column is not None:
                found[path] = column
    return found


def _paths(descriptor: Any, path: str, depth: int) -> Iterable[str]:
    from .message_schema import MAX_DEPTH

    for f in descriptor.fields:
        here = f"{path}.{f.name}" if path else f.name
        if f.message_type is not None and not is_map(f) and depth < MAX_DEPTH:
            yield from _paths(f.message_type, here, depth + 1)
        elif f.message_type is None:
            yield here


def typed(values: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """The values a path's column gives (:func:`~..query.message_columns.
    message_columns`) as the column's items, and which are of its kind (a ``string``
    field that holds bytes that are no UTF-8, as a type that does not check them may:
    not; an enum's unnamed number: its digits)."""
    n = len(values)
    if kind in _NUMPY:
        return np.asarray(values).astype(_NUMPY[kind]), np.ones(n, dtype=bool)
    if kind == "bool":
        return np.asarray(values, dtype=bool), np.ones(n, dtype=bool)
    out = np.empty(n, dtype=object)
    ok = np.ones(n, dtype=bool)
    for i, v in enumerate(values.tolist()):
        if kind == "string" and isinstance(v, int):
            out[i] = str(v)
        elif kind == "string" and not isinstance(v, str):
            out[i], ok[i] = "", False
        else:
            out[i] = v
    return out, ok


def arrow_item(kind: str) -> Any:
    """The Arrow type of a column's items."""
    import pyarrow as pa

    return {
        "int64": pa.int64(),
        "uint64": pa.uint64(),
        "float": pa.float32(),
        "double": pa.float64(),
        "bool": pa.bool_(),
        "string": pa.string(),
        "bytes": pa.binary(),
    }[kind]
