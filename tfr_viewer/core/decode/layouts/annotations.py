"""What a layout speaks of: boxes, the hand-made key map, an image with its annotations,
where a record keeps its boxes, and what a layout module provides (:class:`Layout`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

import numpy as np


@dataclass(frozen=True)
class Box:
    """A box in normalised coordinates (0..1) unless ``normalized`` is False."""

    xmin: float
    ymin: float
    xmax: float
    ymax: float
    label: int | None = None
    text: str | None = None


HiddenClasses = set[tuple[int | None, str | None]]  # (class id, class text) pairs


def is_hidden(box: Box, hidden: HiddenClasses) -> bool:
    """Whether ``box`` is of a class the user chose to hide (its id and text)."""
    return (box.label, box.text) in hidden


@dataclass(frozen=True)
class KeyMap:
    """Hand-made key mapping; None fields are guessed. A key the record lacks is
    guessed too (:meth:`present_in`): keys set for one dataset leave another's alone."""

    image: str | None = None
    xmin: str | None = None
    ymin: str | None = None
    xmax: str | None = None
    ymax: str | None = None
    bbox: str | None = None  # TFDS-style [ymin, xmin, ymax, xmax] * N
    label: str | None = None
    text: str | None = None
    height: str | None = None
    width: str | None = None
    depth: str | None = None
    mask: str | None = None
    keypoint_x: str | None = None
    keypoint_y: str | None = None

    def present_in(self, keys: Collection[str]) -> KeyMap:
        """This map with the keys that ``keys`` lacks left to be guessed."""
        named = {f.name: getattr(self, f.name) for f in fields(self)}
        return KeyMap(**{name: key if key in keys else None for name, key in named.items()})

    def named(self) -> dict[str, str]:
        """The keys set by hand, by field (``{"xmin": "left"}``)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}


@dataclass(frozen=True)
class ImageAnnotation:
    """One image of a record with what the layout says about it.

    ``data`` is encoded image bytes, or raw pixels when ``raw_shape`` is set
    (height, width, depth; uint8).
    """

    key: str
    index: int
    layout: str
    data: bytes
    raw_shape: tuple[int, int, int] | None = None
    boxes: tuple[Box, ...] = ()
    normalized: bool = True
    masks: tuple[bytes | np.ndarray, ...] = ()
    keypoints: tuple[tuple[float, float], ...] = ()
    label: int | None = None
    label_text: str | None = None
    notes: tuple[str, ...] = field(default=())


def is_prediction_key(key: str) -> bool:
    """Whether ``key`` holds a model's predictions (the Object Detection API's inference
    writes ``image/detection/…``), never the labels."""
    return "detection/" in key and (key.startswith("detection/") or "/detection/" in key)


def key_ending(keys: list[str], *suffixes: str) -> str | None:
    """The shortest key ending in the first suffix that any key ends in, as a whole
    part after ``/``, ``_`` or ``.`` (``image/object/bbox/xmin`` ends in ``xmin``)."""
    for suffix in suffixes:
        hits = [k for k in keys if re.search(rf"(^|[/_.]){re.escape(suffix)}$", k)]
        if hits:
            return sorted(hits, key=len)[0]
    return None


CORNERS = ("xmin", "ymin", "xmax", "ymax")


@dataclass(frozen=True)
class BoxKeys:
    """Where a record keeps its boxes, as layout ``layout`` stores them: the keys of
    the coordinates by role (``{"xmin": …}`` or ``{"bbox": …}``), and the prefix that
    the other per-box lists share (``image/object/``; empty at the top level)."""

    layout: str
    coordinates: Mapping[str, str]
    prefix: str


@dataclass(frozen=True)
class ImageFacts:
    """An image file's bytes and what its header says (an image to write)."""

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


_CHANNELS = {"1": 1, "L": 1, "P": 3, "RGB": 3, "YCbCr": 3, "CMYK": 4, "RGBA": 4, "LA": 2, "I;16": 1}


@dataclass(frozen=True)
class Boxes:
    """Boxes to write, as fractions of the image (0..1), with their class ids and
    names."""

    xmin: tuple[float, ...] = ()
    ymin: tuple[float, ...] = ()
    xmax: tuple[float, ...] = ()
    ymax: tuple[float, ...] = ()
    ids: tuple[int, ...] = ()
    names: tuple[str, ...] = ()


Values = Callable[[str], "np.ndarray | None"]  # a numeric list of the record, by key


class Layout(Protocol):
    """What a layout module provides: how a dataset convention names its pictures,
    keeps its boxes (read, and edited in place: every coordinate is a value at a
    position of a list) and writes a converted image.

    ``NAME`` names it (in ``convert --layout`` and the image viewer); ``FIRST_CLASS`` is
    the first class id its convention gives (1 for the Object Detection API, whose
    label maps keep 0 for the background); ``BOX_KINDS``, the kinds of the box lists it
    writes (written even when empty)."""

    NAME: str
    FIRST_CLASS: int
    BOX_KINDS: dict[str, str]

    def names_picture(self, key: str) -> bool:
        """Whether a picture under ``key`` follows this layout (its image key)."""
        ...

    def box_keys(self, numeric: list[str], keymap: KeyMap) -> BoxKeys | None:
        """Where the boxes are, among the record's ``numeric`` keys; None: not here."""
        ...

    def corners(self, where: BoxKeys, values: Values) -> np.ndarray | None:
        """The boxes as rows ``[xmin, ymin, xmax, ymax]``; None when the lists do not
        hold whole boxes."""
        ...

    def lengths(self, where: BoxKeys, length: Callable[[str], int]) -> dict[str, int]:
        """Each coordinate list's length in boxes (-1: not a whole number of boxes)."""
        ...

    def slot(self, where: BoxKeys, corner: str, box: int) -> tuple[str, int]:
        """The list and the position in it of ``corner`` of box number ``box``."""
        ...

    def new_row(self, where: BoxKeys, corners: Mapping[str, float]) -> list[tuple[str, float]]:
        """The values a new box appends, list by list, in order."""
        ...

    def write(
        self, image: ImageFacts, label: int | float | None, text: str | None, source_id: str
    ) -> dict[str, Any] | None:
        """The features of a converted image; None: this layout is not written."""
        ...

    def write_boxes(self, boxes: Boxes) -> dict[str, Any] | None:
        """The features of a converted image's boxes; None: this layout has none."""
        ...
