"""The TensorFlow tutorial's layout: the picture in ``image_raw`` with ``label``,
``height``, ``width`` and ``depth`` beside it; no boxes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .annotations import Boxes, BoxKeys, ImageFacts, KeyMap, Values

NAME = "tutorial"
FIRST_CLASS = 0
BOX_KINDS: dict[str, str] = {}


def names_picture(key: str) -> bool:
    return key.endswith("image_raw")


def box_keys(numeric: list[str], keymap: KeyMap) -> BoxKeys | None:
    return None


def corners(where: BoxKeys, values: Values) -> np.ndarray | None:
    return None


def lengths(where: BoxKeys, length: Callable[[str], int]) -> dict[str, int]:
    return {}


def slot(where: BoxKeys, corner: str, box: int) -> tuple[str, int]:
    raise ValueError("the tutorial layout has no boxes")


def new_row(where: BoxKeys, corners: Mapping[str, float]) -> list[tuple[str, float]]:
    raise ValueError("the tutorial layout has no boxes")


def write(
    image: ImageFacts, label: int | float | None, text: str | None, source_id: str
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "image_raw": image.data,
        "height": image.height,
        "width": image.width,
        "depth": image.channels,
    }
    if label is not None:
        out["label"] = label
    return out


def write_boxes(boxes: Boxes) -> dict[str, Any] | None:
    return None
