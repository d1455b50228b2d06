"""Small previews of a record's image, with its boxes drawn in, for the gallery."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .images import decode_preview, raw_pixels
from .layouts import ImageAnnotation

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw

# One colour per class, shared by the gallery and the image view.
COLOURS = [
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4",
    "#42d4f4", "#f032e6", "#bfef45", "#9a6324", "#469990",
]  # fmt: skip


def class_colour(label: int | None, text: str | None) -> str:
    """The colour of a class: by its id, else by its text."""
    key = label if label is not None else sum(map(ord, text or ""))
    return COLOURS[key % len(COLOURS)]


def readable_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (``#rrggbb``)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def box_caption(label: int | None, text: str | None) -> str:
    """``cat (3)``, ``cat``, ``class 3``, or empty when the record names no class."""
    if text and label is not None:
        return f"{text} ({label})"
    return text or (f"class {label}" if label is not None else "")


def annotated_thumbnail(ann: ImageAnnotation, size: int) -> np.ndarray:
    """RGBA pixels at most ``size`` a side (JPEGs decode in draft mode, never at full
    size), boxes drawn when the layout has them. Raises ImageError when undecodable."""
    from PIL import Image, ImageDraw

    if ann.raw_shape is not None:
        img = Image.fromarray(raw_pixels(ann.data, ann.raw_shape))
        img.thumbnail((size, size))
        rgba: np.ndarray = np.asarray(img.convert("RGBA")).copy()
        full_w, full_h = ann.raw_shape[1], ann.raw_shape[0]
    else:
        rgba, full_w, full_h = decode_preview(ann.data, size)
    if not ann.boxes:
        return rgba
    h, w = rgba.shape[:2]
    sx, sy = (w, h) if ann.normalized else (w / full_w, h / full_h)
    img = Image.fromarray(rgba)
    draw = ImageDraw.Draw(img)
    for box in ann.boxes:
        corners = (box.xmin * sx, box.ymin * sy, box.xmax * sx, box.ymax * sy)
        draw_box(draw, corners, class_colour(box.label, box.text), 2)
    drawn: np.ndarray = np.asarray(img).copy()
    return drawn


def draw_box(
    draw: ImageDraw, corners: tuple[float, float, float, float], colour: str, width: int
) -> None:
    """Draw a box where its corners ``(xmin, ymin, xmax, ymax)`` put it, whatever they
    are: an inverted box (a min past its max) spans its corners and is crossed out; a
    box without width or height is a line or a point, marked with a small cross; one
    past the picture's edge is drawn as far as the picture goes. Never raises for the
    values of a faulty record: that is the record a user needs to see."""
    if not all(math.isfinite(v) for v in corners):
        return  # nowhere to draw it (the checks name such a box)
    # Pillow walks an outline pixel by pixel, off the picture too: a box to 3.4e38 is
    # drawn as far as the picture goes (a little past it, so that no edge shows).
    wide, high = draw.im.size
    margin = 2 * width + 8
    x0, x1 = (min(max(v, -margin), wide + margin) for v in corners[0::2])
    y0, y1 = (min(max(v, -margin), high + margin) for v in corners[1::2])
    left, right = sorted((x0, x1))
    top, bottom = sorted((y0, y1))
    draw.rectangle((left, top, right, bottom), outline=colour, width=width)
    if x0 > x1 or y0 > y1:
        draw.line((left, top, right, bottom), fill=colour, width=width)
        draw.line((left, bottom, right, top), fill=colour, width=width)
    if right - left < 1 or bottom - top < 1:
        cx, cy, r = (left + right) / 2, (top + bottom) / 2, 3 + width
        draw.line((cx - r, cy - r, cx + r, cy + r), fill=colour, width=width)
        draw.line((cx - r, cy + r, cx + r, cy - r), fill=colour, width=width)
