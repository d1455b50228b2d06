"""The readable text of a ``show`` record, made from its JSON form.

Each payload type's decoder writes the lines of its own payloads
(``render(record) -> lines``, from the record's JSON); :func:`payload_lines` dispatches,
and the helpers here write the parts the types share: bytes values (images with their
size and verdict, text quoted, other bytes by what they are), and features as aligned
``key  kind  [values]`` lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..text import shortest_floats

MAX_VALUES = 16


def bytes_text(v: dict[str, Any]) -> str:
    """One bytes value of the JSON form (``{size, detected, text?, image?, ...}``)."""
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


def values_text(feature: dict[str, Any]) -> str:
    """A feature's first :data:`MAX_VALUES` values, and how many there are in all."""
    values = feature["values"]
    first = values[:MAX_VALUES]
    if not isinstance(first, list):  # a numpy array, for large features
        first = shortest_floats(first) if feature["kind"] == "float" else first.tolist()
    shown = [bytes_text(v) if feature["kind"] == "bytes" else repr(v) for v in first]
    more = f", ... ({len(values)} values)" if len(values) > MAX_VALUES else ""
    return "[" + ", ".join(shown) + more + "]"


def features_lines(features: dict[str, Any], indent: str) -> Iterator[str]:
    """``key  kind  [values]`` lines, the keys aligned."""
    width = max((len(k) for k in features), default=0)
    for key, feature in features.items():
        yield f"{indent}{key:<{width}}  {feature['kind']:<5}  {values_text(feature)}"
