"""TensorFlow Datasets' layout: the picture in ``image``, the boxes in one float list
``…/bbox`` of 4·N values, a box a row ``[ymin, xmin, ymax, xmax]`` (fractions), the
per-box lists beside it under the same prefix (``objects/``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .annotations import Boxes, BoxKeys, ImageFacts, KeyMap, Values, key_ending

NAME = "tfds"
FIRST_CLASS = 0
BOX_KINDS = {"objects/bbox": "float", "objects/label": "int64"}
ORDER = ("ymin", "xmin", "ymax", "xmax")  # a row of the bbox list


def names_picture(key: str) -> bool:
    return key == "image"


def box_keys(numeric: list[str], keymap: KeyMap) -> BoxKeys | None:
    bbox = keymap.bbox or key_ending(numeric, "bbox", "bboxes", "boxes")
    if bbox is None:
        return None
    parts = bbox.split("/")
    prefix = "/".join(parts[:-1]) + "/" if len(parts) > 1 else ""  # objects/
    return BoxKeys(NAME, {"bbox": bbox}, prefix)


def corners(where: BoxKeys, values: Values) -> np.ndarray | None:
    flat = values(where.coordinates["bbox"])
    if flat is None or len(flat) % 4:
        return None
    rows = flat.reshape(-1, 4)
    return rows[:, [1, 0, 3, 2]]


def lengths(where: BoxKeys, length: Callable[[str], int]) -> dict[str, int]:
    bbox = where.coordinates["bbox"]
    flat = length(bbox)
    return {bbox: flat // 4 if flat % 4 == 0 else -1}


def slot(where: BoxKeys, corner: str, box: int) -> tuple[str, int]:
    return where.coordinates["bbox"], 4 * box + ORDER.index(corner)


def new_row(where: BoxKeys, corners: Mapping[str, float]) -> list[tuple[str, float]]:
    return [(where.coordinates["bbox"], corners[c]) for c in ORDER]


def write(
    image: ImageFacts, label: int | float | None, text: str | None, source_id: str
) -> dict[str, Any]:
    out: dict[str, Any] = {"image": image.data}
    if label is not None:
        out["label"] = label
    return out


def write_boxes(boxes: Boxes) -> dict[str, Any]:
    flat = [v for b in zip(boxes.ymin, boxes.xmin, boxes.ymax, boxes.xmax, strict=True) for v in b]
    return {"objects/bbox": flat, "objects/label": list(boxes.ids)}
