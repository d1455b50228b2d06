"""A model's predictions weighed against one record's labelled boxes.

:func:`match` pairs them as detection metrics do: the confident predictions (score at
least ``score``), strongest first, each take the unpaired labelled box of their class
they overlap most, when the IoU reaches ``iou``; a paired prediction is a true
positive, an unpaired one a false positive, an unpaired labelled box missed.

:func:`label_errors` reads what is left unpaired as evidence against the labels:

- ``label_class``: a missed box that a confident prediction of another class covers
  (IoU at least ``iou``);
- ``label_location``: a missed box that a confident prediction of its own class only
  overlaps (IoU from ``near`` up to ``iou``);
- ``label_missed``: a confident prediction that overlaps no labelled box by ``near``;
- ``label_spurious``: a missed box that no prediction at all (any score) overlaps by
  ``near``, in an image where the model was confident of something else.

Each comes with its evidence and a rank in [0, 1] (the score, times the IoU for a
class, times the shortfall of the IoU for a location). Boxes are fractions of the image
``(xmin, ymin, xmax, ymax)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

# How strongly each kind of evidence speaks against the labels, for a triage: a box of
# the wrong class or in the wrong place first, then an object nobody labelled, then a
# labelled object the model did not see (its evidence is the model's silence alone)
TIERS = {"label_class": 2, "label_location": 2, "label_missed": 1, "label_spurious": 0}


def triage_weight(kind: str, rank: float) -> float:
    """A finding's place in a triage: its kind's tier first, its rank within the tier."""
    return TIERS.get(kind, 0) + min(max(rank, 0.0), 1.0)


Corners = tuple[float, float, float, float]


@dataclass(frozen=True)
class Labelled:
    """A labelled box: its corners and class (id, and text when the record has one)."""

    corners: Corners
    label: int | None
    text: str | None = None


@dataclass(frozen=True)
class Predicted:
    """A predicted box: its corners, class id and score."""

    corners: Corners
    label: int
    score: float


@dataclass(frozen=True)
class Thresholds:
    """``score``: a prediction at least this sure is confident; ``iou``: the overlap
    that pairs a prediction with a box; ``near``: below it, boxes do not overlap."""

    score: float = 0.5
    iou: float = 0.5
    near: float = 0.1

    def check(self) -> None:
        """ValueError unless 0 <= near < iou <= 1 and 0 <= score <= 1."""
        if not (0.0 <= self.score <= 1.0):
            raise ValueError(f"the score threshold {self.score} is not between 0 and 1")
        if not (0.0 < self.iou <= 1.0):
            raise ValueError(f"the IoU threshold {self.iou} is not above 0 and at most 1")
        if not (0.0 <= self.near < self.iou):
            raise ValueError(f"the near IoU {self.near} is not from 0 up to the IoU threshold")


@dataclass(frozen=True)
class Match:
    """The pairing of one record: per prediction, the labelled box it is paired with
    (None: a false positive, or not confident: see ``confident``); per labelled box,
    whether a prediction pairs with it."""

    paired: tuple[int | None, ...]
    confident: tuple[bool, ...]
    found: tuple[bool, ...]

    @property
    def true_positives(self) -> int:
        return sum(p is not None for p in self.paired)

    @property
    def false_positives(self) -> int:
        return sum(c and p is None for p, c in zip(self.paired, self.confident, strict=True))

    @property
    def missed(self) -> int:
        return sum(not f for f in self.found)


@dataclass(frozen=True)
class LabelError:
    """One piece of evidence against the labels: its kind, the labelled box at fault
    (None for ``label_missed``), the prediction (None for ``label_spurious``), and the
    evidence as the finding carries it."""

    kind: str
    box: int | None
    prediction: int | None
    evidence: Mapping[str, object]


def iou_matrix(a: Sequence[Corners], b: Sequence[Corners]) -> np.ndarray:
    """The intersection over union of every box of ``a`` with every box of ``b``."""
    if not len(a) or not len(b):
        return np.zeros((len(a), len(b)))
    x = np.asarray(a, dtype=np.float64)[:, None, :]
    y = np.asarray(b, dtype=np.float64)[None, :, :]
    w = np.clip(np.minimum(x[..., 2], y[..., 2]) - np.maximum(x[..., 0], y[..., 0]), 0, None)
    h = np.clip(np.minimum(x[..., 3], y[..., 3]) - np.maximum(x[..., 1], y[..., 1]), 0, None)
    inter = w * h
    area_x = np.clip(x[..., 2] - x[..., 0], 0, None) * np.clip(x[..., 3] - x[..., 1], 0, None)
    area_y = np.clip(y[..., 2] - y[..., 0], 0, None) * np.clip(y[..., 3] - y[..., 1], 0, None)
    union = area_x + area_y - inter
    result: np.ndarray = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
    return result


def _order(predicted: Sequence[Predicted]) -> list[int]:
    """Predictions strongest first (ties in their order)."""
    return sorted(range(len(predicted)), key=lambda i: -predicted[i].score)


def match(
    labelled: Sequence[Labelled],
    predicted: Sequence[Predicted],
    limits: Thresholds,
    overlap: np.ndarray | None = None,
) -> Match:
    """Pair the confident predictions with the labelled boxes of their class
    (``overlap``: their :func:`iou_matrix`, when the caller has it already)."""
    if overlap is None:
        overlap = iou_matrix([p.corners for p in predicted], [g.corners for g in labelled])
    paired: list[int | None] = [None] * len(predicted)
    taken = [False] * len(labelled)
    confident = [p.score >= limits.score for p in predicted]
    for i in _order(predicted):
        if not confident[i]:
            continue
        best, best_iou = None, limits.iou
        for g, box in enumerate(labelled):
            if not taken[g] and box.label == predicted[i].label and overlap[i, g] >= best_iou:
                best, best_iou = g, float(overlap[i, g])
        if best is not None:
            paired[i], taken[best] = best, True
    return Match(tuple(paired), tuple(confident), tuple(taken))


def _r(value: float) -> float:
    return round(float(value), 4)


def label_errors(
    labelled: Sequence[Labelled],
    predicted: Sequence[Predicted],
    limits: Thresholds,
    names: Mapping[int, str] | None = None,
) -> list[LabelError]:
    """The evidence of one record against its labels (see the module's description);
    ``names`` gives class names to the predicted ids."""
    names = names or {}
    overlap = iou_matrix([p.corners for p in predicted], [g.corners for g in labelled])
    pairs = match(labelled, predicted, limits, overlap)
    free = [
        i for i in _order(predicted) if pairs.confident[i] and pairs.paired[i] is None
    ]  # confident false positives, strongest first
    missed = [g for g, f in enumerate(pairs.found) if not f]
    out: list[LabelError] = []

    def evidence(i: int, g: int | None, **more: object) -> dict[str, object]:
        p = predicted[i]
        found: dict[str, object] = {
            "prediction": i,  # its place in the record's predictions
            "score": _r(p.score),
            "predicted_class": p.label,
            "predicted_box": [_r(v) for v in p.corners],
        }
        if p.label in names:
            found["predicted_text"] = names[p.label]
        if g is not None:
            found["iou"] = _r(overlap[i, g])
            found["class"] = labelled[g].label
            if labelled[g].text is not None:
                found["text"] = labelled[g].text
        return found | more

    for rule in ("class", "location"):
        for g in list(missed):
            if rule == "class":
                fits = [i for i in free if predicted[i].label != labelled[g].label]
                fits = [i for i in fits if overlap[i, g] >= limits.iou]
            else:
                fits = [i for i in free if predicted[i].label == labelled[g].label]
                fits = [i for i in fits if limits.near <= overlap[i, g] < limits.iou]
            if not fits:
                continue
            i = max(fits, key=lambda i: (overlap[i, g], predicted[i].score))
            strength = float(overlap[i, g]) if rule == "class" else 1 - overlap[i, g] / limits.iou
            found = evidence(i, g, rank=_r(predicted[i].score * strength))
            out.append(LabelError(f"label_{rule}", g, i, found))
            free.remove(i)
            missed.remove(g)
    for i in free:
        if not len(labelled) or overlap[i].max() < limits.near:
            out.append(
                LabelError("label_missed", None, i, evidence(i, None, rank=_r(predicted[i].score)))
            )
    sure = [p.score for p in predicted if p.score >= limits.score]
    if sure:
        for g in missed:
            if not len(predicted) or overlap[:, g].max() < limits.near:
                said: dict[str, object] = {"class": labelled[g].label}
                if labelled[g].text is not None:
                    said["text"] = labelled[g].text
                said |= {"strongest_elsewhere": _r(max(sure)), "rank": _r(max(sure))}
                out.append(LabelError("label_spurious", g, None, said))
    return out
