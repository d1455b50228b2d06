"""Serialized tensors (``tf.io.serialize_tensor`` writes a TensorProto).

Values come from ``tensor_content`` (little-endian raw bytes) or from the typed value
fields; as in TensorFlow, fewer typed values than elements repeat the last one, and no
values mean zeros. bfloat16 is widened to float32 by shifting its 16 bits.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..payload_types import Bid, TensorPayload
from ..strict_parse import DTYPES, tensor_message as parse_strict

if TYPE_CHECKING:
    import numpy as np

    from ..layouts import ImageAnnotation, KeyMap
    from ..outline import Nested, Outline

NAME = "tensor"
CEILING = 95  # the highest bid :func:`bid` makes
# A tensor whose stored values must be repeated to fill its shape is expanded only to
# MAX_EXPANDED elements, or 16 per byte present when that is more: decoding is bounded
# by the bytes actually there, never by the claimed shape. Larger ones are shown by
# their stored values.
MAX_EXPANDED = 1 << 16
EXPANSION_PER_BYTE = 16


def _typed_values(msg: Any, name: str, dtype: Any, field: str, count: int) -> np.ndarray:
    """Values from the typed field; half_val holds 16-bit patterns, returned as uint16."""
    import numpy as np

    raw = getattr(msg, field)
    if field == "half_val":
        dtype = np.dtype("<u2")
    if name == "string":
        values = np.empty(len(raw), dtype=object)
        values[:] = list(raw)
    elif name.startswith("complex"):
        pairs = np.array(raw, dtype=np.float32 if name == "complex64" else np.float64)
        values = (pairs[0::2] + 1j * pairs[1::2]).astype(dtype)
    else:
        values = np.array(raw, dtype=np.int64 if dtype.kind in "iub" else dtype).astype(dtype)
    if len(values) == count:
        return values
    if len(values) == 0:
        return np.zeros(count, dtype=dtype) if name != "string" else np.full(count, b"", object)
    out = np.empty(count, dtype=dtype)
    out[: len(values)] = values
    out[len(values) :] = values[-1]
    return out


def decode(data: bytes, parsed: Any = None) -> TensorPayload:
    import numpy as np

    parsed = parsed if parsed is not None else parse_strict(data)
    if parsed is None:
        raise ValueError("not a valid serialized tensor (TensorProto)")
    msg, shape = parsed
    name, code, field = DTYPES[msg.dtype]
    dtype = np.dtype(code)
    count = math.prod(shape)
    if msg.tensor_content:  # as many bytes as values: bounded by the record's size
        values = np.frombuffer(msg.tensor_content, dtype=dtype).copy()
    elif (
        count > max(MAX_EXPANDED, EXPANSION_PER_BYTE * len(data))
        and len(getattr(msg, field)) < count
    ):
        stored = _typed_values(msg, name, dtype, field, len(getattr(msg, field)))
        rule = "the rest repeat the last one" if len(stored) else "all are zero"
        note = (
            f"{count:,} elements claimed but {len(stored):,} stored ({rule}, as in "
            f"TensorFlow); not expanded: {len(data):,} bytes cannot hold that many"
        )
        return TensorPayload(name, shape, _widen(name, stored, False), note)
    else:
        values = _typed_values(msg, name, dtype, field, count)
    return TensorPayload(name, shape, _widen(name, values, bool(msg.tensor_content)).reshape(shape))


def _widen(name: str, values: np.ndarray, from_content: bool) -> np.ndarray:
    """bfloat16 bit patterns to float32; float16 typed values from their bit patterns."""
    import numpy as np

    if name == "bfloat16":
        return (values.astype(np.uint32) << 16).view(np.float32)
    if name == "float16" and not from_content:
        return values.view(np.float16)
    return values


def bid(data: bytes) -> Bid:
    parsed = parse_strict(data)
    return Bid(95 if parsed is not None else 0, parsed)


TYPE = "tensor"
MAX_TENSOR_JSON = 1_000_000  # elements written in full; larger tensors: the first ones
SHOWN_OF_LARGE = 1_000
MAX_COPY = 100_000  # values of a tensor copied as text at most


def _json_values(t: TensorPayload) -> Any:
    import numpy as np

    from ..to_json import bytes_value

    values = t.values
    if values.size > MAX_TENSOR_JSON:
        values = values.ravel()[:SHOWN_OF_LARGE]
    if t.dtype == "string":
        flat = [bytes_value(bytes(v)) for v in values.ravel()]
        arr = np.empty(len(flat), dtype=object)
        arr[:] = flat
        return arr.reshape(values.shape).tolist()
    if values.dtype.kind == "c":
        return np.stack([values.real, values.imag], axis=-1).astype(np.float64).tolist()
    if values.dtype in (np.float32, np.float16):  # shortest digits that read back the same
        return values.astype(str).astype(np.float64).tolist()
    if values.dtype.kind == "f":
        return values.astype(np.float64).tolist()
    return values.tolist()


def to_json(p: TensorPayload, lazy: bool) -> dict[str, Any]:
    """``{dtype, shape, values, note?}``; the values of a tensor over
    :data:`MAX_TENSOR_JSON` elements are its first :data:`SHOWN_OF_LARGE`, flat."""
    out: dict[str, Any] = {"dtype": p.dtype, "shape": list(p.shape), "values": _json_values(p)}
    if p.note:  # values are the stored ones (a flat list), not the whole tensor
        out["note"] = p.note
    elif p.values.size > MAX_TENSOR_JSON:
        out["note"] = f"{p.values.size:,} elements: the first {SHOWN_OF_LARGE:,} are listed (flat)"
    return out


def render(record: dict[str, Any]) -> Iterator[str]:
    yield f"  dtype {record['dtype']}  shape {record['shape']}"
    if record.get("note"):
        yield f"  ({record['note']}; the stored values follow)"
    text = repr(record["values"])
    yield "  " + (text if len(text) < 2000 else text[:2000] + " ...")


def outline(p: TensorPayload, key: str, depth: int, nested: Nested) -> list[Outline]:
    from ...text import dtype_text, value_text
    from ..outline import Outline

    flat = p.values.ravel()
    preview = ", ".join(value_text(v) for v in flat[:20]) + ("…" if flat.size > 20 else "")
    return [
        Outline(
            "tensor",
            dtype_text(p.dtype),
            "×".join(map(str, p.shape)) or "scalar",
            f"[{preview}]",
            key=key,
            copy=str(p.values.tolist()) if p.values.size <= MAX_COPY else "",
        )
    ]


def images(p: TensorPayload, keymap: KeyMap | None) -> list[ImageAnnotation]:
    return []
