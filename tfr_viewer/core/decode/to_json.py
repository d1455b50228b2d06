"""Decoded payloads as the JSON of the command contract (``show --json``)."""

from __future__ import annotations

import base64
from typing import Any

from ..text import shortest_float32, shortest_floats
from .detect import IMAGE_FORMATS, detect
from .image_verdict import QUICK_SIDE, verdict_of
from .payloads.types import (
    LAZY_NUMBERS,
    BytesPayload,
    Decoded,
    ExamplePayload,
    FeatureData,
    ProtobufPayload,
    ProtoField,
    SequenceExamplePayload,
    TensorPayload,
    TextPayload,
)


def bytes_value(data: bytes) -> dict[str, Any]:
    """``{size, detected, text?, base64}``; images also get ``image: {format, width,
    height, mode, note?}`` from their header (``note``: a warning of
    :mod:`.image_verdict`), and ``image_error`` when they do not decode."""
    out: dict[str, Any] = {"size": len(data), "detected": detect(data)}
    try:
        out["text"] = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if out["detected"] in IMAGE_FORMATS:
        verdict = verdict_of(data, QUICK_SIDE)
        if verdict.width:
            out["image"] = {
                "format": verdict.format,
                "width": verdict.width,
                "height": verdict.height,
                "mode": verdict.mode,
            }
            if verdict.warning is not None:
                out["image"]["note"] = verdict.warning
        if verdict.error is not None:
            out["image_error"] = verdict.error
    out["base64"] = base64.b64encode(data).decode("ascii")
    return out


# Features with at most this many numbers are written from Python values (no numpy);
# larger ones go through numpy, in blocks. Both give the same text.
SMALL_FEATURE = LAZY_NUMBERS


def feature_json(fd: FeatureData, lazy: bool = False) -> dict[str, Any]:
    """``{kind, values}``; with ``lazy``, numeric values of more than
    :data:`SMALL_FEATURE` stay numpy arrays (float32, int64) for
    :func:`~.json_stream.write_json` to write in blocks."""
    values: Any
    if fd.kind == "bytes":
        values = [bytes_value(v) for v in fd.values]
    elif fd.kind not in ("float", "int64"):
        values = []
    elif lazy and len(fd) > SMALL_FEATURE:
        import numpy as np

        values = np.asarray(fd.values, dtype=np.float32 if fd.kind == "float" else np.int64)
    elif fd.kind == "float":
        values = [shortest_float32(v) for v in fd.items()] if lazy else shortest_floats(fd.values)
    else:
        values = [int(v) for v in fd.items()]
    return {"kind": fd.kind, "values": values}


def features_json(features: dict[str, FeatureData], lazy: bool = False) -> dict[str, Any]:
    return {key: feature_json(fd, lazy) for key, fd in features.items()}


MAX_TENSOR_JSON = 1_000_000  # elements written in full; larger tensors: the first ones
SHOWN_OF_LARGE = 1_000


def _tensor_values(t: TensorPayload) -> Any:
    import numpy as np

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


def proto_field_json(f: ProtoField) -> dict[str, Any]:
    out: dict[str, Any] = {"number": f.number, "wire_type": f.wire_type}
    if f.fields is not None:
        out["fields"] = [proto_field_json(c) for c in f.fields]
        if f.wire_type == 2:
            out["size"] = f.size
    elif isinstance(f.value, bytes):
        out["value"] = bytes_value(f.value)
        if f.size > len(f.value):
            out["value"]["size"] = f.size
            out["value"]["preview_only"] = True
    else:
        out["value"] = f.value
    return out


def payload_json(decoded: Decoded, lazy: bool = False) -> dict[str, Any]:
    """``{type, ...}`` for one decoded payload, per the contract (``lazy``: numeric
    feature values as numpy arrays, for streaming with ``write_json``)."""
    p = decoded.payload
    out: dict[str, Any] = {"type": p.type}
    if isinstance(p, ExamplePayload):
        out["features"] = features_json(p.features, lazy)
        if p.note:
            out["note"] = p.note
    elif isinstance(p, SequenceExamplePayload):
        out["context"] = features_json(p.context, lazy)
        out["feature_lists"] = {
            k: [feature_json(s, lazy) for s in steps] for k, steps in p.feature_lists.items()
        }
    elif isinstance(p, TensorPayload):
        out.update(dtype=p.dtype, shape=list(p.shape), values=_tensor_values(p))
        if p.note:  # values are the stored ones (a flat list), not the whole tensor
            out["note"] = p.note
        elif p.values.size > MAX_TENSOR_JSON:
            out["note"] = (
                f"{p.values.size:,} elements: the first {SHOWN_OF_LARGE:,} are listed (flat)"
            )
    elif isinstance(p, ProtobufPayload):
        out["fields"] = [proto_field_json(f) for f in p.fields]
        if p.truncated:
            out["truncated"] = True
    elif isinstance(p, TextPayload):
        out["text"] = p.text
    elif isinstance(p, BytesPayload):
        out.update(size=len(p.data), base64=base64.b64encode(p.data).decode("ascii"))
    if decoded.failed:
        out["decoder_error"] = {"decoder": decoded.failed, "message": decoded.error}
    return out
