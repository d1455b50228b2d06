"""A layout no registry entry names yet: the picture in ``photo``, the boxes in one
float list ``objects/corners`` of rows ``[xmin, ymin, xmax, ymax]``, class ids in
``objects/class`` beside it. The whole of a new layout: this module and one entry."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from tfr_viewer.core.decode.layouts import CORNERS, Boxes, BoxKeys, ImageFacts, KeyMap

NAME = "corner-rows"
FIRST_CLASS = 0
BOX_KINDS = {"objects/corners": "float", "objects/class": "int64"}


def names_picture(key: str) -> bool:
    return key == "photo"


def box_keys(numeric: list[str], keymap: KeyMap) -> BoxKeys | None:
    return (
        BoxKeys(NAME, {"rows": "objects/corners"}, "objects/")
        if "objects/corners" in numeric
        else None
    )


def corners(where: BoxKeys, values: Callable[[str], np.ndarray | None]) -> np.ndarray | None:
    flat = values(where.coordinates["rows"])
    return None if flat is None or len(flat) % 4 else flat.reshape(-1, 4)


def lengths(where: BoxKeys, length: Callable[[str], int]) -> dict[str, int]:
    n = length(where.coordinates["rows"])
    return {where.coordinates["rows"]: n // 4 if n % 4 == 0 else -1}


def slot(where: BoxKeys, corner: str, box: int) -> tuple[str, int]:
    return where.coordinates["rows"], 4 * box + CORNERS.index(corner)


def new_row(where: BoxKeys, corners: Mapping[str, float]) -> list[tuple[str, float]]:
    return [(where.coordinates["rows"], corners[c]) for c in CORNERS]


def write(
    image: ImageFacts, label: int | float | None, text: str | None, source_id: str
) -> dict[str, Any]:
    return {"photo": image.data} | ({} if label is None else {"class": label})


def write_boxes(boxes: Boxes) -> dict[str, Any]:
    rows = zip(boxes.xmin, boxes.ymin, boxes.xmax, boxes.ymax, strict=True)
    return {"objects/corners": [v for row in rows for v in row], "objects/class": list(boxes.ids)}
