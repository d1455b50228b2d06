"""Which feature keys play which part (image, label, boxes, sizes), from the keys and
their kinds alone, by the conventions :mod:`..decode.layouts` recognises in a record.

The Object Detection API spells them ``image/encoded``, ``image/format``,
``image/height``, ``image/width``, ``image/object/bbox/{xmin,ymin,xmax,ymax}``,
``image/object/class/label`` and ``image/object/class/text``; the TensorFlow tutorial
``image_raw``, ``label``, ``height``, ``width``, ``depth``; TFDS ``image``, ``label`` and
``objects/bbox`` (``[ymin, xmin, ymax, xmax]`` per box).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..decode.layouts import is_prediction_key, key_ending

BOX_SIDES = ("xmin", "ymin", "xmax", "ymax")


@dataclass(frozen=True)
class Roles:
    """Keys by role; None where the dataset has no such key."""

    images: tuple[str, ...] = ()  # bytes keys whose values were seen to be images
    format: str | None = None
    height: str | None = None
    width: str | None = None
    depth: str | None = None
    label: str | None = None  # an image-level class id (int64, one per record)
    label_text: str | None = None
    boxes: tuple[str, str, str, str] | None = None  # xmin, ymin, xmax, ymax
    bbox: str | None = None  # TFDS: one float list of [ymin, xmin, ymax, xmax] * N
    object_label: str | None = None  # a class id per box
    object_text: str | None = None

    @property
    def detection(self) -> bool:
        return self.boxes is not None or self.bbox is not None

    @property
    def odapi(self) -> bool:
        """Object Detection API conventions: its class ids start at 1 (0 is background)."""
        return self.boxes is not None and self.boxes[0].startswith("image/object/")

    def keys(self) -> list[str]:
        """Every key with a role, each once."""
        found = [*self.images, *(self.boxes or ())]
        found += [
            k
            for k in (
                self.format,
                self.height,
                self.width,
                self.depth,
                self.label,
                self.label_text,
                self.bbox,
                self.object_label,
                self.object_text,
            )
            if k
        ]
        return list(dict.fromkeys(found))


def find_roles(kinds: Mapping[str, str], images: set[str] | None = None) -> Roles:
    """Roles from ``{key: kind}`` (``bytes``, ``float``, ``int64``) and the bytes keys
    known to hold images."""
    keys = sorted(k for k in kinds if not is_prediction_key(k))  # a model's, not labels

    def of(kind: str, where: list[str] | None = None) -> list[str]:
        return [k for k in (where if where is not None else keys) if kinds[k] == kind]

    numbers = [k for k in keys if kinds[k] in ("float", "int64")]
    ints, texts = of("int64"), of("bytes")
    objects = [k for k in keys if "object" in k or k.startswith("objects/")]
    plain = [k for k in keys if k not in objects]
    sides = [key_ending([k for k in numbers if k in objects or "bbox" in k], s) for s in BOX_SIDES]
    boxes = tuple(sides) if all(sides) else None
    bbox = None if boxes else key_ending(of("float"), "bbox", "bboxes", "boxes")
    return Roles(
        images=tuple(sorted(images or ())),
        format=key_ending(of("bytes", plain), "format"),
        height=key_ending(of("int64", plain), "height"),
        width=key_ending(of("int64", plain), "width"),
        depth=key_ending(of("int64", plain), "depth", "channels"),
        label=key_ending(of("int64", plain), "class/label", "label"),
        label_text=key_ending(of("bytes", plain), "class/text", "label_text", "class_name"),
        boxes=boxes,  # type: ignore[arg-type]
        bbox=bbox,
        object_label=key_ending([k for k in ints if k in objects], "class/label", "label"),
        object_text=key_ending([k for k in texts if k in objects], "class/text", "text"),
    )
