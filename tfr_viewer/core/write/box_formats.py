"""Boxes written beside exported images, in the formats that training tools read:
Pascal VOC (an XML file per image), YOLO (a text file per image, ``class cx cy w h`` in
fractions, and ``classes.txt``) or COCO (one ``annotations.json``).

Boxes arrive as :class:`~..decode.layouts.Box` in fractions (or pixels when the layout
says so) with their class id and text; VOC and COCO get pixels, YOLO fractions.
"""

from __future__ import annotations

import math
import os
from typing import Any
from xml.sax.saxutils import escape

from .. import json_text
from ..analyze.label_map import name_line
from ..decode.layouts import Box

FORMATS = ("voc", "yolo", "coco")


def _name(box: Box) -> str:
    if box.text:
        return box.text
    return str(box.label) if box.label is not None else "object"


class BoxWriter:
    """Collects each written image's boxes (:meth:`add`) and writes the format's files
    into ``root`` (:meth:`finish` for the files written once at the end)."""

    def __init__(self, kind: str, root: str) -> None:
        if kind not in FORMATS:
            raise ValueError(f"unknown box format {kind!r}: one of {', '.join(FORMATS)}")
        self.kind = kind
        self.root = root
        self.classes: dict[int, str] = {}
        self.images: list[dict[str, Any]] = []
        self.annotations: list[dict[str, Any]] = []
        self.skipped = 0  # boxes with a coordinate that is not a finite number

    def _pixels(self, box: Box, normalized: bool, w: int, h: int) -> tuple[float, ...]:
        sx, sy = (w, h) if normalized else (1, 1)
        return box.xmin * sx, box.ymin * sy, box.xmax * sx, box.ymax * sy

    def add(
        self, image_path: str, width: int, height: int, boxes: tuple[Box, ...], normalized: bool
    ) -> None:
        """An image written at ``image_path`` (inside ``root``) with its boxes; a box with
        a coordinate that is NaN or infinite is left out and counted in ``skipped``."""
        kept = tuple(
            b for b in boxes if all(math.isfinite(v) for v in (b.xmin, b.ymin, b.xmax, b.ymax))
        )
        self.skipped += len(boxes) - len(kept)
        boxes = kept
        for b in boxes:
            if b.label is not None:
                self.classes.setdefault(b.label, _name(b))
        stem = os.path.splitext(image_path)[0]
        rel = os.path.relpath(image_path, self.root)
        if self.kind == "voc":
            objects = "".join(
                f"  <object>\n    <name>{escape(_name(b))}</name>\n    <bndbox>\n"
                f"      <xmin>{x0:.6g}</xmin>\n      <ymin>{y0:.6g}</ymin>\n"
                f"      <xmax>{x1:.6g}</xmax>\n      <ymax>{y1:.6g}</ymax>\n    </bndbox>\n"
                f"  </object>\n"
                for b in boxes
                for x0, y0, x1, y1 in [self._pixels(b, normalized, width, height)]
            )
            xml = (
                f"<annotation>\n  <filename>{escape(os.path.basename(image_path))}</filename>\n"
                f"  <size>\n    <width>{width}</width>\n    <height>{height}</height>\n"
                f"  </size>\n{objects}</annotation>\n"
            )
            with open(stem + ".xml", "x", encoding="utf-8") as f:
                f.write(xml)
        elif self.kind == "yolo":
            lines = []
            for b in boxes:
                x0, y0, x1, y1 = self._pixels(b, normalized, width, height)
                lines.append(
                    (
                        b.label,
                        (x0 + x1) / 2 / width,
                        (y0 + y1) / 2 / height,
                        (x1 - x0) / width,
                        (y1 - y0) / height,
                    )
                )
            self.images.append({"stem": stem, "lines": lines})
        else:
            image_id = len(self.images) + 1
            self.images.append({"id": image_id, "file_name": rel, "width": width, "height": height})
            for b in boxes:
                x0, y0, x1, y1 = self._pixels(b, normalized, width, height)
                self.annotations.append(
                    {
                        "id": len(self.annotations) + 1,
                        "image_id": image_id,
                        "category_id": b.label if b.label is not None else 0,
                        "bbox": [x0, y0, x1 - x0, y1 - y0],
                        "area": (x1 - x0) * (y1 - y0),
                        "iscrowd": 0,
                    }
                )

    def finish(self) -> None:
        """Write what depends on every image: YOLO's files (its class indices are the
        ids in order, from 0) and ``classes.txt``; COCO's ``annotations.json``."""
        if self.kind == "yolo":
            order = {cid: n for n, cid in enumerate(sorted(self.classes))}
            for image in self.images:
                with open(image["stem"] + ".txt", "x", encoding="utf-8") as f:
                    for label, cx, cy, w, h in image["lines"]:
                        f.write(f"{order.get(label, 0)} {cx:.6f} {cy:.6f} {w:.6f} {h:.6f}\n")
            with open(os.path.join(self.root, "classes.txt"), "x", encoding="utf-8") as f:
                f.writelines(name_line(self.classes[c]) for c in sorted(self.classes))
        elif self.kind == "coco":
            doc = {
                "images": self.images,
                "annotations": self.annotations,
                "categories": [{"id": c, "name": n} for c, n in sorted(self.classes.items())],
            }
            with open(os.path.join(self.root, "annotations.json"), "x", encoding="utf-8") as f:
                json_text.dump(doc, f)
