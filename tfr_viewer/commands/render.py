"""Human-readable rendering of a ``show`` record (the JSON form, made readable)."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

from ..core.decode import hexdump
from ..core.text import shortest_floats

_MAX_VALUES = 16


def _bytes_text(v: dict[str, Any]) -> str:
    image = v.get("image")
    error = v.get("image_error")
    if image or error:
        if image:
            head = f"{image['format']} {image['width']}x{image['height']} {image['mode']}"
        else:
            head = v["detected"]
        note = f"; undecodable: {error}" if error else ""
        if image and image.get("note"):
            note += f"; {image['note']}"
        return f"<{head}, {v['size']} bytes{note}>"
    if v["detected"] == "text" and "text" in v:
        text = v["text"]
        return repr(text if len(text) <= 80 else text[:77] + "...")
    return f"<{v['detected']}, {v['size']} bytes>"


def _values(feature: dict[str, Any]) -> str:
    values = feature["values"]
    first = values[:_MAX_VALUES]
    if not isinstance(first, list):  # a numpy array, for large features
        first = shortest_floats(first) if feature["kind"] == "float" else first.tolist()
    shown = [_bytes_text(v) if feature["kind"] == "bytes" else repr(v) for v in first]
    more = f", ... ({len(values)} values)" if len(values) > _MAX_VALUES else ""
    return "[" + ", ".join(shown) + more + "]"


def _features(features: dict[str, Any], indent: str) -> Iterator[str]:
    width = max((len(k) for k in features), default=0)
    for key, feature in features.items():
        yield f"{indent}{key:<{width}}  {feature['kind']:<5}  {_values(feature)}"


def _proto(fields: list[dict[str, Any]], indent: str) -> Iterator[str]:
    for f in fields:
        if "fields" in f:
            yield f"{indent}{f['number']} {{"
            yield from _proto(f["fields"], indent + "  ")
            yield f"{indent}}}"
        elif isinstance(f["value"], dict):
            yield f"{indent}{f['number']}: {_bytes_text(f['value'])}"
        else:
            yield f"{indent}{f['number']}: {f['value']}"


def render_payload(record: dict[str, Any]) -> Iterator[str]:
    yield (
        f"record {record['index']}  {record['file']}  offset {record['offset']}  "
        f"length {record['length']}  status {record['status']}  type {record['type']}"
    )
    if "decoder_error" in record:
        err = record["decoder_error"]
        yield f"  (the {err['decoder']} decoder failed: {err['message']}; showing bytes)"
    kind = record["type"]
    if record.get("note") and kind != "tensor":
        yield f"  ({record['note']})"
    if kind == "example":
        yield from _features(record["features"], "  ")
    elif kind == "sequence_example":
        yield "  context:"
        yield from _features(record["context"], "    ")
        yield "  feature_lists:"
        for key, steps in record["feature_lists"].items():
            yield f"    {key}: {len(steps)} steps"
            for i, step in enumerate(steps[:_MAX_VALUES]):
                yield f"      [{i}] {step['kind']:<5} {_values(step)}"
    elif kind == "tensor":
        yield f"  dtype {record['dtype']}  shape {record['shape']}"
        if record.get("note"):
            yield f"  ({record['note']}; the stored values follow)"
        text = repr(record["values"])
        yield "  " + (text if len(text) < 2000 else text[:2000] + " ...")
    elif kind == "protobuf":
        yield from _proto(record["fields"], "  ")
    elif kind == "text":
        yield from ("  " + line for line in record["text"].splitlines())
    else:
        data = base64.b64decode(record["base64"])
        yield from ("  " + line for line in hexdump(data[:4096]))
        if len(data) > 4096:
            yield f"  ... {len(data) - 4096} more bytes"
