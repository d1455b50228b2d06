"""Decoded payloads as the JSON of the command contract (``show --json``).

Each payload type's decoder writes the JSON of its own payloads (``to_json(payload,
lazy)``); :func:`payload_json` adds the ``type`` and dispatches. The parts the types
share are here: a bytes value (``{size, detected, text?, base64}``, with the image's
header and verdict) and features (``{key: {kind, values}}``).
"""

from __future__ import annotations

import base64
from typing import Any

from ..text import shortest_float32, shortest_floats
from .detect import IMAGE_FORMATS, detect
from .image_verdict import QUICK_SIDE, verdict_of
from .payload_types import LAZY_NUMBERS, FeatureData


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
