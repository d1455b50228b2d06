"""The feature keys a converted image is written under, by layout.

- ``tutorial`` (the TensorFlow tutorial): ``image_raw``, ``label``, ``height``, ``width``,
  ``depth``;
- ``odapi`` (the Object Detection API): ``image/encoded``, ``image/format``,
  ``image/height``, ``image/width``, ``image/filename``, ``image/source_id``,
  ``image/key/sha256``, and ``image/class/label`` with ``image/class/text``;
- ``tfds`` (TensorFlow Datasets' image classification): ``image``, ``label``.

Every key can be renamed. A float label (regression) is written as a float feature.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .build import build_example

LAYOUTS = ("tutorial", "odapi", "tfds")
_CHANNELS = {"1": 1, "L": 1, "P": 3, "RGB": 3, "YCbCr": 3, "CMYK": 4, "RGBA": 4, "LA": 2, "I;16": 1}


@dataclass(frozen=True)
class ImageFacts:
    """An image file's bytes and what its header says."""

    path: str
    data: bytes
    format: str  # jpeg, png, ...
    width: int
    height: int
    mode: str
    sha256: str

    @property
    def channels(self) -> int:
        return _CHANNELS.get(self.mode, 3)


def features_for(
    layout: str,
    image: ImageFacts,
    label: int | float | None,
    text: str | None,
    source_id: str,
) -> dict[str, Any]:
    """The features of one converted image (before renaming)."""
    if layout == "tutorial":
        out: dict[str, Any] = {
            "image_raw": image.data,
            "height": image.height,
            "width": image.width,
            "depth": image.channels,
        }
        if label is not None:
            out["label"] = label
        return out
    if layout == "tfds":
        out = {"image": image.data}
        if label is not None:
            out["label"] = label
        return out
    if layout != "odapi":
        raise ValueError(f"unknown layout {layout!r}: one of {', '.join(LAYOUTS)}")
    out = {
        "image/encoded": image.data,
        "image/format": image.format.encode(),
        "image/height": image.height,
        "image/width": image.width,
        "image/filename": source_id.encode("utf-8", "surrogateescape"),
        "image/source_id": source_id.encode("utf-8", "surrogateescape"),
        "image/key/sha256": image.sha256.encode(),
    }
    if label is not None:
        out["image/class/label"] = label
        if text is not None:
            out["image/class/text"] = text.encode()
    return out


def payload_for(
    layout: str,
    image: ImageFacts,
    label: int | float | None,
    text: str | None,
    source_id: str,
    renames: Mapping[str, str] | None = None,
) -> bytes:
    """The serialized Example of one converted image, keys renamed by ``renames``."""
    features = features_for(layout, image, label, text, source_id)
    if renames:
        features = {renames.get(k, k): v for k, v in features.items()}
    kinds = {k: "float" for k, v in features.items() if isinstance(v, float)}
    return build_example(features, kinds)


def keys_of(layout: str) -> tuple[str, ...]:
    """Every key a layout may write (for checking renames)."""
    fake = ImageFacts("", b"", "jpeg", 1, 1, "RGB", "")
    return tuple(features_for(layout, fake, 0, "", "x"))
