"""The record a converted image is written as, by its layout (one of the registry's,
:mod:`~..decode.layouts.registry`: ``tutorial``, ``odapi``, ``tfds``…). Every key can be
renamed. A float label (regression) is written as a float feature."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..decode.layouts import Boxes, ImageFacts, by_name
from ..decode.layouts.registry import names
from .build import build_example

__all__ = ["Boxes", "ImageFacts", "features_for", "keys_of", "payload_for"]


def features_for(
    layout: str,
    image: ImageFacts,
    label: int | float | None,
    text: str | None,
    source_id: str,
    boxes: Boxes | None = None,
) -> dict[str, Any]:
    """The features of one converted image (before renaming); ValueError for a layout
    that is not written, or has no boxes when boxes are given."""
    chosen = by_name(layout)
    out = chosen.write(image, label, text, source_id)
    if out is None:
        raise ValueError(f"the {layout} layout is read, never written: one of {', '.join(names())}")
    if boxes is not None:
        written = chosen.write_boxes(boxes)
        if written is None:
            with_boxes = [n for n in names() if by_name(n).BOX_KINDS]
            choices = " or ".join(f"--layout {n}" for n in with_boxes)
            raise ValueError(f"the {layout} layout has no boxes: use {choices}")
        out.update(written)
    return out


def payload_for(
    layout: str,
    image: ImageFacts,
    label: int | float | None,
    text: str | None,
    source_id: str,
    renames: Mapping[str, str] | None = None,
    boxes: Boxes | None = None,
) -> bytes:
    """The serialized Example of one converted image, keys renamed by ``renames``."""
    features = features_for(layout, image, label, text, source_id, boxes)
    kinds = {k: "float" for k, v in features.items() if isinstance(v, float)}
    box_kinds = by_name(layout).BOX_KINDS
    kinds.update({k: v for k, v in box_kinds.items() if k in features})  # lists may be empty
    if renames:
        features = {renames.get(k, k): v for k, v in features.items()}
        kinds = {renames.get(k, k): v for k, v in kinds.items()}
    return build_example(features, kinds)


def keys_of(layout: str, boxes: bool = False) -> tuple[str, ...]:
    """Every key a layout may write (for checking renames)."""
    fake = ImageFacts("", b"", "jpeg", 1, 1, "RGB", "")
    return tuple(features_for(layout, fake, 0, "", "x", Boxes() if boxes else None))
