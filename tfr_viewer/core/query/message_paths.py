"""A filter's columns over a user's message type, read by the compiled walk of field
paths (``native/message_paths.c``): the same columns as :mod:`.message_columns` reads
with protobuf's own runtime, a record at a time.

The walk follows protobuf's parse rules for the type: every field of every message
checked against its declared wire type (a field of another wire type is an unknown
field), packed and unpacked repeated numbers, the last occurrence of a singular field,
the occurrences of a singular message merged, text checked as UTF-8 where the type says
so, a singular leaf whose message is there but which is not holding its default. It
answers for paths through singular messages (no oneof) to a field that holds no message
and is no closed enum's, of a type with no required field and no extension range;
anything else, and a record holding a group or nested deeper than the walk follows, is
read by protobuf (:func:`columns` returns None)."""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from google.protobuf.descriptor import FieldDescriptor

from .. import kernels
from ..decode.message_types import enum_value, is_repeated
from .columns import Rag
from .extract import ROW_UPB, FeatureColumn, on_every_core, parts

if TYPE_CHECKING:
    from ..decode.message_types import MessageType
    from ..io.payload_block import PayloadBlock

_F = FieldDescriptor
REPEATED, UTF8 = 1, 2  # a field's flags, as message_paths.h names them
MAX_PATHS = 64
_SIGNED = (_F.TYPE_INT32, _F.TYPE_INT64, _F.TYPE_SINT32, _F.TYPE_SINT64, _F.TYPE_SFIXED32,
           _F.TYPE_SFIXED64, _F.TYPE_UINT32, _F.TYPE_FIXED32)  # fmt: skip
_UNSIGNED = (_F.TYPE_UINT64, _F.TYPE_FIXED64)
_FLOATS = (_F.TYPE_FLOAT, _F.TYPE_DOUBLE)
_TEXTS = (_F.TYPE_STRING, _F.TYPE_BYTES)


@dataclass(frozen=True)
class Plan:
    """The type's schema and the paths, as the compiled walk reads them, and each
    path's leaf field."""

    schema: tuple[bytes, bytes]
    paths: tuple[tuple[bytes, int, int, int, int], ...]
    leaves: tuple[Any, ...]


def columns(
    block: PayloadBlock, keys: list[str], kind: MessageType
) -> tuple[np.ndarray, dict[str, FeatureColumn]] | None:
    """Per-row parse status and a column per key, as :func:`.message_columns.
    message_columns` gives them; None when the compiled walk does not answer (see the
    module)."""
    if not block.rows or not kernels.compiled_in_use():
        return None
    found = plan(kind, tuple(keys))
    if found is None:
        return None

    def part(a: int, b: int) -> Any:
        return kernels.message_paths(
            block.buf, block.starts[a:b], block.lengths[a:b], found.schema, found.paths
        )

    results = on_every_core(part, parts(block.rows))
    if any(r is None for r in results):
        return None
    status = np.concatenate([r[0] for r in results])
    if (status == ROW_UPB).any():
        return None
    out = {}
    for c, key in enumerate(keys):
        pieces = [r[1][c] for r in results]
        splits = _joined([p.splits for p in pieces])
        words = np.concatenate([p.words for p in pieces])
        values = _values(block, found.leaves[c], words)
        present = np.diff(splits) > 0
        out[key] = FeatureColumn(Rag(values, splits), present, np.zeros(block.rows, np.uint8))
    return status, out


def _joined(splits: list[np.ndarray]) -> np.ndarray:
    out, total = [splits[0]], splits[0][-1]
    for part in splits[1:]:
        out.append(part[1:] + total)
        total += part[-1]
    return np.concatenate(out) if len(out) > 1 else out[0]


def _values(block: PayloadBlock, leaf: Any, words: np.ndarray) -> np.ndarray:
    """A leaf's values as protobuf's runtime gives them, in :func:`.columns.as_array`'s
    array: int64 for integers (an object array of Python ints when one is past int64),
    float64 for floats, objects for booleans, text, bytes and enum names."""
    kind = leaf.type
    if not len(words):
        return np.zeros(0, dtype=np.int64)
    if kind in _FLOATS:
        return words.view(np.float64)
    if kind in _SIGNED:
        return words.view(np.int64)
    if kind in _UNSIGNED:
        if int(words.max()) < 1 << 63:
            return words.view(np.int64)
        return _objects(words.tolist())
    if kind == _F.TYPE_BOOL:
        return _objects(words.astype(bool).tolist())
    if kind == _F.TYPE_ENUM:
        numbers = words.view(np.int64)
        uniq, inverse = np.unique(numbers, return_inverse=True)
        named = [enum_value(leaf, int(u)) for u in uniq.tolist()]
        if all(isinstance(n, int) for n in named):
            return numbers
        return _objects(named)[inverse.reshape(-1)]
    pairs = words.view(np.int64).reshape(-1, 2)
    default = leaf.default_value
    real = pairs[:, 0] >= 0
    spans = np.ascontiguousarray(pairs[real]).reshape(-1)
    # a string's value is its text, or its bytes when they are no UTF-8 (a type that
    # does not check them), as protobuf's runtime gives it
    take = kernels.take_text if kind == _F.TYPE_STRING else kernels.take_bytes
    taken: list[Any] = take(block.buf, spans)
    if real.all():
        return _objects(taken)
    items: list[Any] = [default] * len(pairs)
    for i, data in zip(np.flatnonzero(real).tolist(), taken, strict=True):
        items[i] = data
    return _objects(items)


def _objects(items: list[Any]) -> np.ndarray:
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


@functools.lru_cache(maxsize=64)
def plan(kind: MessageType, keys: tuple[str, ...]) -> Plan | None:
    """How the compiled walk reads ``keys`` of ``kind``, or None when it does not (see
    the module)."""
    if not keys or len(keys) > MAX_PATHS:
        return None
    try:
        return _plan(kind, keys)
    except _Unsaid:
        return None


def _plan(kind: MessageType, keys: tuple[str, ...]) -> Plan | None:
    laid = _schema(kind.descriptor)
    if laid is None:
        return None
    schema, _ = laid
    paths, leaves = [], []
    for key in keys:
        found = _path(kind.descriptor, key)
        if found is None:
            return None
        steps, leaf = found
        flags = (REPEATED if is_repeated(leaf) else 0) | (UTF8 if _checks_text(leaf) else 0)
        numbers = struct.pack(f"<{len(steps)}i", *steps)
        paths.append((numbers, leaf.number, leaf.type, flags, _fallback(leaf)))
        leaves.append(leaf)
    return Plan(schema, tuple(paths), tuple(leaves))


def _path(descriptor: Any, key: str) -> tuple[list[int], Any] | None:
    """The numbers of the singular message fields ``key`` goes through, and its leaf;
    None when the walk does not read it."""
    steps: list[int] = []
    names = key.split(".")
    for name in names[:-1]:
        field = descriptor.fields_by_name.get(name)
        if (
            field is None
            or field.type != _F.TYPE_MESSAGE
            or is_repeated(field)
            or field.containing_oneof is not None
        ):
            return None
        steps.append(field.number)
        descriptor = field.message_type
    leaf = descriptor.fields_by_name.get(names[-1])
    if leaf is None or leaf.message_type is not None or leaf.containing_oneof is not None:
        return None
    if leaf.type == _F.TYPE_GROUP or (leaf.enum_type is not None and _closed(leaf.enum_type)):
        return None
    return steps, leaf


class _Unsaid(Exception):
    """The protobuf in use does not say what the walk needs to know of a field."""


def _checks_text(field: Any) -> bool:
    """Whether protobuf refuses a record whose value of ``field`` is no UTF-8: as the
    field's features say (editions), or its file's syntax (proto3's strings) in a
    protobuf older than editions."""
    if field.type != _F.TYPE_STRING:
        return False
    features = getattr(field, "_GetFeatures", None)
    if features is not None:
        from google.protobuf import descriptor_pb2

        return bool(features().utf8_validation == descriptor_pb2.FeatureSet.VERIFY)
    syntax = getattr(field.file, "syntax", None)
    if syntax not in ("proto2", "proto3"):
        raise _Unsaid(field.full_name)
    return bool(syntax == "proto3")


def _required(field: Any) -> bool:
    said = getattr(field, "is_required", None)
    return bool(said if said is not None else field.label == _F.LABEL_REQUIRED)


def _closed(enum: Any) -> bool:
    said = getattr(enum, "is_closed", None)
    if said is None:
        raise _Unsaid(enum.full_name)
    return bool(said)


def _fallback(leaf: Any) -> int:
    """A singular leaf's default as the walk stores its values (64 bits)."""
    if is_repeated(leaf) or leaf.type in _TEXTS:
        return 0
    value = leaf.default_value
    if leaf.type in _FLOATS:
        (bits,) = struct.unpack("<Q", struct.pack("<d", float(value)))
        return int(bits)
    return int(value) & ((1 << 64) - 1)


@functools.lru_cache(maxsize=64)
def _schema(root: Any) -> tuple[tuple[bytes, bytes], dict[str, int]] | None:
    """Every message type ``root`` reaches, laid out for the walk (``message_paths.h``),
    with each one's index; None for a type the walk does not read."""
    order: dict[str, int] = {root.full_name: 0}
    types = [root]
    fields: list[int] = []
    msgs: list[int] = []
    i = 0
    while i < len(types):
        descriptor = types[i]
        if descriptor.extension_ranges:
            return None
        msgs.extend([len(fields) // 4, len(descriptor.fields)])
        for field in sorted(descriptor.fields, key=lambda f: f.number):
            if _required(field):
                return None
            sub = -1
            if field.type == _F.TYPE_MESSAGE:
                entry = field.message_type
                if entry.full_name not in order:
                    order[entry.full_name] = len(types)
                    types.append(entry)
                sub = order[entry.full_name]
            flags = (REPEATED if is_repeated(field) else 0) | (UTF8 if _checks_text(field) else 0)
            fields.extend([field.number, field.type, flags, sub])
        i += 1
    packed = (struct.pack(f"<{len(fields)}i", *fields), struct.pack(f"<{len(msgs)}i", *msgs))
    return packed, order
