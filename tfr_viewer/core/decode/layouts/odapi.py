"""The Object Detection API's layout: the picture in ``image/encoded``, each box's
corners in four float lists ``…/bbox/{xmin,ymin,xmax,ymax}`` (fractions), the per-box
class lists beside them under the same prefix (``image/object/``); class ids start at 1
(a label map keeps 0 for the background)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .annotations import CORNERS, Boxes, BoxKeys, ImageFacts, KeyMap, Values, key_ending

NAME = "odapi"
FIRST_CLASS = 1
BOX_KINDS = {
    "image/object/bbox/xmin": "float",
    "image/object/bbox/ymin": "float",
    "image/object/bbox/xmax": "float",
    "image/object/bbox/ymax": "float",
    "image/object/class/label": "int64",
    "image/object/class/text": "bytes",
}


def names_picture(key: str) -> bool:
    return key == "image/encoded"


def box_keys(numeric: list[str], keymap: KeyMap) -> BoxKeys | None:
    found = {c: getattr(keymap, c) or key_ending(numeric, c) for c in CORNERS}
    corners = {c: k for c, k in found.items() if k is not None}
    if len(corners) != 4:
        return None
    xmin = corners["xmin"]
    parts = xmin.split("/")
    prefix = "/".join(parts[:-2]) + "/" if len(parts) > 2 else ""  # image/object/
    return BoxKeys(NAME, corners, prefix)


def corners(where: BoxKeys, values: Values) -> np.ndarray | None:
    columns = [values(where.coordinates[c]) for c in CORNERS]
    if any(c is None for c in columns):
        return None
    if len({len(c) for c in columns if c is not None}) != 1:
        return None
    return np.stack([c for c in columns if c is not None], axis=1)


def lengths(where: BoxKeys, length: Callable[[str], int]) -> dict[str, int]:
    return {key: length(key) for key in where.coordinates.values()}


def slot(where: BoxKeys, corner: str, box: int) -> tuple[str, int]:
    return where.coordinates[corner], box


def new_row(where: BoxKeys, corners: Mapping[str, float]) -> list[tuple[str, float]]:
    return [(key, corners[c]) for c, key in where.coordinates.items()]


def write(
    image: ImageFacts, label: int | float | None, text: str | None, source_id: str
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "image/encoded": image.data,
        "image/format": image.format.encode(),
        "image/height": image.height,
        "image/width": image.width,
        "image/filename": source_id.rsplit("/", 1)[-1].encode("utf-8", "surrogateescape"),
        "image/source_id": source_id.encode("utf-8", "surrogateescape"),
        "image/key/sha256": image.sha256.encode(),
    }
    if label is not None:
        out["image/class/label"] = label
        if text is not None:
            out["image/class/text"] = text.encode()
    return out


def write_boxes(boxes: Boxes) -> dict[str, Any]:
    return {
        "image/object/bbox/xmin": list(boxes.xmin),
        "image/object/bbox/ymin": list(boxes.ymin),
        "image/object/bbox/xmax": list(boxes.xmax),
        "image/object/bbox/ymax": list(boxes.ymax),
        "image/object/class/label": list(boxes.ids),
        "image/object/class/text": [n.encode() for n in boxes.names],
    }
