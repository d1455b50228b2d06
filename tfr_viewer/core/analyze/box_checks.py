"""The checks of a record's boxes (Object Detection API box lists): the lists' lengths,
an image without boxes, boxes without a class, pixel coordinates where fractions are
due, and each box inverted, out of [0, 1] past the Object Detection API's tolerance, or
of zero area, each under the list whose value is at fault."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..query.extract import FeatureColumn
from .roles import Roles

TOLERANCE = 1.01  # the Object Detection API accepts normalised coordinates up to this


def scalar_of(columns: dict[str, FeatureColumn], key: str | None, r: int) -> Any:
    """Row ``r``'s one value of ``key`` (None when it holds none or several)."""
    if key is None or key not in columns:
        return None
    c = columns[key]
    a, b = c.rag.splits[r], c.rag.splits[r + 1]
    return c.rag.values[a] if b - a == 1 else None


class BoxChecks:
    """The box checks of blocks of records, each finding said to ``note``."""

    def __init__(self, note: Callable[..., None]) -> None:
        self.note = note

    def add(
        self,
        roles: Roles,
        columns: dict[str, FeatureColumn],
        records: np.ndarray,
        ok: np.ndarray,
    ) -> None:
        """Check the boxes of the rows ``ok`` of a block (``records`` their numbers),
        its box lists named by ``roles`` all among ``columns``."""
        assert roles.boxes is not None
        sides = [columns[k] for k in roles.boxes]
        counts = np.stack([np.diff(c.rag.splits) for c in sides])
        label = columns.get(roles.object_label) if roles.object_label else None
        has_image = np.zeros(len(records), dtype=bool)
        for k in roles.images:
            if k in columns:
                has_image |= columns[k].present
        for r in np.flatnonzero(ok).tolist():
            record = int(records[r])
            n = counts[:, r]
            if (n != n[0]).any():
                shown = ", ".join(
                    f"{k.rsplit('/', 1)[-1]} {c}" for k, c in zip(roles.boxes, n, strict=True)
                )
                odd = _odd_one(n.tolist())
                self.note(
                    "bbox_length_mismatch",
                    f"the box lists differ in length: {shown}; {roles.boxes[odd]} is the odd one",
                    record,
                    feature=roles.boxes[odd],
                )
                continue
            if n[0] == 0:
                if has_image[r]:
                    self.note("image_without_boxes", "the image has no boxes", record)
                continue
            coords = [
                np.asarray(c.rag.values[c.rag.splits[r] : c.rag.splits[r + 1]], dtype=np.float64)
                for c in sides
            ]
            self._record(roles, columns, record, r, coords)
            if label is not None and np.diff(label.rag.splits)[r] != n[0]:
                self.note(
                    "box_without_class",
                    f"{n[0]} boxes but {np.diff(label.rag.splits)[r]} class ids in "
                    f"{roles.object_label}",
                    record,
                    feature=roles.object_label,
                )

    def _record(
        self,
        roles: Roles,
        columns: dict[str, FeatureColumn],
        record: int,
        r: int,
        coords: list[np.ndarray],
    ) -> None:
        x0, y0, x1, y1 = coords
        names = roles.boxes
        assert names is not None
        width = scalar_of(columns, roles.width, r)
        height = scalar_of(columns, roles.height, r)
        big = max(float(np.nanmax(np.abs(np.concatenate(coords)))), 0.0)
        if big > TOLERANCE and width is not None and height is not None:
            fits = (x1 <= int(width) + 0.5).all() and (y1 <= int(height) + 0.5).all()
            if fits and big > 2:
                side, box = divmod(int(np.nanargmax(np.abs(np.stack(coords)))), len(x0))
                self.note(
                    "box_pixel_coordinates",
                    f"box coordinates reach {big:g} ({_side(names[side])} of box {box}), within "
                    f"the image's {int(width)}×{int(height)} pixels: they are pixels, not "
                    "fractions",
                    record,
                    feature=names[side],
                    box=box,
                )
                return
        for b in range(len(x0)):
            sides = (x0[b], y0[b], x1[b], y1[b])
            shown = ", ".join(f"{_side(k)} {v:g}" for k, v in zip(names, sides, strict=True))

            def flag(kind: str, side: int, what: str, box_index: int = b) -> None:
                """A finding of this box, under the list whose value is at fault."""
                message = f"box {box_index} has {what}"
                self.note(kind, message, record, feature=names[side], box=box_index)

            if x0[b] > x1[b] or y0[b] > y1[b]:
                side = 0 if x0[b] > x1[b] else 1  # the min that passes its max
                flag("box_inverted", side, f"{'xy'[side]}min > {'xy'[side]}max ({shown})")
                continue
            out = [i for i, v in enumerate(sides) if not -0.01 <= v <= TOLERANCE]
            if out:
                side = out[0]
                flag(
                    "box_out_of_range",
                    side,
                    f"{_side(names[side])} {sides[side]:g}, outside [0, 1] (tolerance {TOLERANCE})",
                )
            elif x0[b] == x1[b] or y0[b] == y1[b]:
                side = 2 if x0[b] == x1[b] else 3  # the max that meets its min
                flag("box_zero_area", side, f"{'no width' if side == 2 else 'no height'} ({shown})")


def _side(key: str) -> str:
    """The last part of a box list's key (``xmin`` of ``image/object/bbox/xmin``)."""
    return key.rsplit("/", 1)[-1]


def _odd_one(counts: list[int]) -> int:
    """The list whose length most lists do not share (the first such, on a tie)."""
    common = max(counts, key=lambda c: (counts.count(c), -counts.index(c)))
    return next(i for i, c in enumerate(counts) if c != common)
