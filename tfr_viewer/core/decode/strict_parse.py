"""Bytes read as a message only when they are one to the letter, and bytes that are text:
the questions every decoder's bid and the content of a bytes value (:mod:`.detect`) ask.

Protobuf parsing is lenient: fields with an unknown number or a mismatched wire type
are kept as unknown fields instead of failing. :func:`has_unknown` finds them anywhere
in a parsed message, so that a payload that is not really an Example is never shown as
an (empty) one. This module imports nothing of the decoders: they and :mod:`.detect`
stand on it."""

from __future__ import annotations

import math
from typing import Any

from . import proto

MAX_ELEMENTS = 1 << 31
_ALLOWED_CONTROLS = {"\t", "\n", "\r"}

# DataType enum value -> (name, numpy type code of the stored values, typed value field).
# Codes, not numpy dtypes: checking that a payload is a tensor does not load numpy.
DTYPES: dict[int, tuple[str, str, str]] = {
    1: ("float32", "<f4", "float_val"),
    2: ("float64", "<f8", "double_val"),
    3: ("int32", "<i4", "int_val"),
    4: ("uint8", "u1", "int_val"),
    5: ("int16", "<i2", "int_val"),
    6: ("int8", "i1", "int_val"),
    7: ("string", "O", "string_val"),
    8: ("complex64", "<c8", "scomplex_val"),
    9: ("int64", "<i8", "int64_val"),
    10: ("bool", "?", "bool_val"),
    14: ("bfloat16", "<u2", "half_val"),
    17: ("uint16", "<u2", "int_val"),
    18: ("complex128", "<c16", "dcomplex_val"),
    19: ("float16", "<f2", "half_val"),
    22: ("uint32", "<u4", "uint32_val"),
    23: ("uint64", "<u8", "uint64_val"),
}


def itemsize(code: str) -> int:
    """Bytes per element of a type code (``<c16``: 16; ``?``: 1; ``O``, never stored
    as content: 1)."""
    digits = code.lstrip("<|").lstrip("fiucb?O")
    return int(digits) if digits else 1


def _shape(msg: Any) -> tuple[int, ...] | None:
    shape = msg.tensor_shape
    if shape.unknown_rank:
        return None
    dims = []
    for d in shape.dim:
        if d.size < 0:
            return None
        dims.append(int(d.size))
    return tuple(dims)


def strict(message: Any, data: bytes) -> Any | None:
    """``data`` parsed as a ``message`` (a class of :mod:`.proto`) when it is one to the
    letter: not empty, valid wire format, and no field the message does not define;
    None otherwise."""
    from google.protobuf.message import DecodeError

    if not data:
        return None
    msg = message()
    try:
        msg.ParseFromString(data)
    except DecodeError:
        return None
    # Sizing a message encodes it whole (a picture's bytes and all). Bytes written as
    # the runtime writes them are sized once: dropping unknown fields only shrinks a
    # message, and re-encoding one written otherwise (unpacked lists, default values
    # spelled out) only shrinks it too, so a size that is still the bytes' length
    # means that nothing was dropped (the one way to grow, a negative int32 written in
    # five bytes, would have to be matched byte for byte by the fields dropped).
    msg.DiscardUnknownFields()
    if msg.ByteSize() == len(data):
        return msg
    msg = message()
    msg.ParseFromString(data)
    return None if has_unknown(msg) else msg


def has_unknown(msg: Any) -> bool:
    """True when ``msg`` or any message inside it carries unknown fields. Those are
    dropped from ``msg`` on the way (the caller refuses such a message anyway).

    The size before and after dropping them differs exactly when there were some; this
    stays in the runtime's C code (its ``UnknownFieldSet`` crashes the process when a
    signal such as Ctrl+C arrives while one is built).
    """
    size = msg.ByteSize()
    msg.DiscardUnknownFields()
    return bool(msg.ByteSize() != size)


def example_message(data: bytes) -> object | None:
    """The parsed Example message, or None if ``data`` is not strictly an Example."""
    msg = strict(proto.Example, data)
    return msg if msg is not None and msg.HasField("features") else None


def tensor_message(data: bytes) -> tuple[Any, tuple[int, ...]] | None:
    """``(message, shape)`` when ``data`` is a self-consistent TensorProto, else None."""
    msg = strict(proto.TensorProto, data)
    if msg is None or msg.dtype not in DTYPES:
        return None
    shape = _shape(msg)
    if shape is None:
        return None
    count = math.prod(shape)
    if count > MAX_ELEMENTS:
        return None
    name, code, field = DTYPES[msg.dtype]
    content = msg.tensor_content
    if content:
        if name == "string" or len(content) != count * itemsize(code):
            return None
    else:
        typed = len(getattr(msg, field))
        per_element = 2 if name.startswith("complex") else 1
        if typed > count * per_element:
            return None
    return msg, shape


def looks_like_text(data: bytes, sample: int = 4096) -> bool:
    """True when ``data`` is valid UTF-8 and (in its first ``sample`` bytes) at least
    95% printable characters, with no NUL."""
    if not data or b"\x00" in data[:sample]:
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    head = text[:sample]
    printable = sum(1 for c in head if c.isprintable() or c in _ALLOWED_CONTROLS)
    return printable >= 0.95 * len(head)
