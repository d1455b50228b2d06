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
    source_size: tuple[int, int] | None = None  # (width, height) before re-encoding

    @property
    def original_size(self) -> tuple[int, int]:
        """The size the source file had (what its boxes are measured in)."""
        return self.source_size or (self.width, self.height)

    @property
    def channels(self) -> int:
        return _CHANNELS.get(self.mode, 3)


@dataclass(frozen=True)
class Boxes:
    """Boxes as fractions of the image (0..1), with their class ids and names."""

    xmin: tuple[float, ...] = ()
    ymin: tuple[float, ...] = ()
    xmax: tuple[float, ...] = ()
    ymax: tuple[float, ...] = ()
    ids: tuple[int, ...] = ()
    names: tuple[str, ...] = ()


def _box_features(layout: str, boxes: Boxes) -> dict[str, Any]:
    if layout == "odapi":
        return {
            "image/object/bbox/xmin": list(boxes.xmin),
            "image/object/bbox/ymin": list(boxes.ymin),
            "image/object/bbox/xmax": list(boxes.xmax),
            "image/object/bbox/ymax": list(boxes.ymax),
            "image/object/class/label": list(boxes.ids),
            "image/object/class/text": [n.encode() for n in boxes.names],
        }
    if layout == "tfds":
        flat = [
            v for b in zip(boxes.ymin, boxes.xmin, boxes.ymax, boxes.xmax, strict=True) for v in b
        ]
        return {"objects/bbox": flat, "objects/label": list(boxes.ids)}
    raise ValueError(f"the {layout} layout has no boxes: use --layout odapi or --layout tfds")


def features_for(
    layout: str,
    image: ImageFacts,
    label: int | float | None,
    text: str | None,
    source_id: str,
    boxes: Boxes | None = None,
) -> dict[str, Any]:
    """The features of one converted image (before renaming)."""
    if boxes is not None:
        out = features_for(layout, image, label, text, source_id)
        out.update(_box_features(layout, boxes))
        return out
    if layout == "tutorial":
        out = {
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
        "image/filename": source_id.rsplit("/", 1)[-1].encode("utf-8", "surrogateescape"),
        "image/source_id": source_id.encode("utf-8", "surrogateescape"),
        "image/key/sha256": image.sha256.encode(),
    }
    if label is not None:
        out["image/class/label"] = label
        if text is not None:
            out["image/class/text"] = text.encode()
    return out


_BOX_KINDS = {
    "image/object/bbox/xmin": "float",
    "image/object/bbox/ymin": "float",
    "image/object/bbox/xmax": "float",
    "image/object/bbox/ymax": "float",
    "image/object/class/label": "int64",
    "image/object/class/text": "bytes",
    "objects/bbox": "float",
    "objects/label": "int64",
}


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
    kinds.update({k: v for k, v in _BOX_KINDS.items() if k in features})  # lists may be empty
    if renames:
        features = {renames.get(k, k): v for k, v in features.items()}
        kinds = {renames.get(k, k): v for k, v in kinds.items()}
    return build_example(features, kinds)


def keys_of(layout: str, boxes: bool = False) -> tuple[str, ...]:
    """Every key a layout may write (for checking renames)."""
    fake = ImageFacts("", b"", "jpeg", 1, 1, "RGB", "")
    return tuple(features_for(layout, fake, 0, "", "x", Boxes() if boxes else None))
