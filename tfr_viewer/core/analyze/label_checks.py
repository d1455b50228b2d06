"""The label-error checks of a pass: each record's labelled boxes against a model's
predictions (:mod:`.predictions`), weighed by :mod:`.label_errors`, noted as findings
with their evidence.

The labelled boxes are those the pass's roles name (the Object Detection API's four
lists, or a TFDS ``bbox`` list), as fractions of the image (pixel boxes are divided by
the image's size); predictions from a results file are in pixels and divided the same
way. A record without predictions (none in its lists, or no id that matches) is not
weighed; the ids that matched are kept, so that the ones that did not can be named.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..io import Dataset
from .label_errors import Labelled, Predicted, Thresholds, label_errors
from .predictions import (
    MATCH_KEYS,
    ById,
    InRecords,
    PredictionError,
    Source,
    as_fractions,
    choose_match,
    detections,
    matched,
    row_values,
)
from .roles import Roles

Note = Callable[..., None]
SETTLE_RECORDS = 256  # records read to choose the id predictions are matched by


@dataclass(frozen=True)
class PredictionCheck:
    """What ``check --predictions`` weighs: the source, and the thresholds."""

    source: Source
    limits: Thresholds = field(default_factory=Thresholds)

    def keys(self) -> list[str]:
        """The keys a pass extracts for the predictions."""
        if isinstance(self.source, InRecords):
            return self.source.keys.candidates()
        names = [self.source.match] if self.source.match else list(MATCH_KEYS)
        return [MATCH_KEYS[n] for n in names]


def settle(ds: Dataset, check: PredictionCheck) -> PredictionCheck:
    """``check`` with the id to match by chosen from the first records of an indexed
    ``ds`` (so every split of a dataset matches by the same one)."""
    source = check.source
    if not isinstance(source, ById) or source.match is not None:
        return check
    from ..io.dataset_blocks import iter_blocks
    from ..query.extract import extract

    ids: dict[str, list[Any]] = {name: [] for name in MATCH_KEYS}
    first = np.arange(min(len(ds), SETTLE_RECORDS), dtype=np.int64)
    for _positions, block in iter_blocks(ds, first):
        status, columns = extract(block, MATCH_KEYS.values())
        for r in np.flatnonzero(status == 0).tolist():
            values = row_values(columns, list(MATCH_KEYS.values()), r)
            for name, key in MATCH_KEYS.items():
                if values.get(key):
                    ids[name].append(values[key][0])
    return replace(check, source=replace(source, match=choose_match(source, ids)))


def _class(label: int | None, text: str | None) -> str:
    if text:
        return f"{text!r} ({label})" if label is not None else repr(text)
    return f"class {label}"


class LabelChecks:
    """The label-error part of one pass (see the module's description)."""

    def __init__(self, check: PredictionCheck, note: Note, label_map: Mapping[int, str] | None):
        self.check = check
        self.note = note
        self.label_map = dict(label_map or {})
        self.keys = check.keys()  # what each row is read for
        self.matched: set[str] = set()
        self.named: dict[str, list[int]] = {}  # prediction id -> the records it matched
        self.unpredicted: list[int] = []  # records whose id no prediction names

    def add(
        self,
        roles: Roles,
        columns: Mapping[str, Any],
        records: np.ndarray,
        ok: np.ndarray,
        sizes: Mapping[int, tuple[int, int]],
    ) -> None:
        """Weigh rows ``ok`` of a block (row → record in ``records``; ``sizes``: row →
        the image's width and height, where known)."""
        for r in np.flatnonzero(ok).tolist():
            record = int(records[r])
            scene = self.scene(roles, columns, r, record, sizes.get(r))
            if scene is None:
                continue
            labelled, predicted = scene
            # predicted classes are named by the label map here, else by the whole
            # dataset's labels once every part is in (check_merge)
            for e in label_errors(labelled, predicted, self.check.limits, self.label_map):
                self.note(
                    e.kind,
                    message_of(e.kind, e.box, e.evidence),
                    record,
                    feature=_feature(roles, e.box, self.check.source),
                    box=e.box,
                    evidence=e.evidence,
                )

    def scene(
        self,
        roles: Roles,
        columns: Mapping[str, Any],
        r: int,
        record: int,
        size: tuple[int, int] | None,
        unnamed_found_nothing: bool = False,
    ) -> tuple[list[Labelled], list[Predicted]] | None:
        """Row ``r``'s labelled boxes and predictions, both as fractions of the image;
        None when it has no predictions or no usable box lists. With
        ``unnamed_found_nothing``, a record no results entry names had no detections
        (a detector writes nothing for an image where it finds nothing, and COCOeval
        counts every labelled image): its objects are all missed."""
        unnamed = len(self.unpredicted)
        predicted = self._predicted(row_values(columns, self.keys, r), record, size)
        if predicted is None and unnamed_found_nothing and len(self.unpredicted) > unnamed:
            predicted = []
        if predicted is None:
            return None
        labelled = _labelled(roles, columns, r, size)
        return None if labelled is None else (labelled, predicted)

    def _predicted(
        self, values: dict[str, list[Any]], record: int, size: tuple[int, int] | None
    ) -> list[Predicted] | None:
        source = self.check.source
        if isinstance(source, ById):
            assert source.match is not None, "settle() chooses the id first"
            found = matched(source, values)
            if found is None:
                self.unpredicted.append(record)
                return None
            self.matched.add(found[0])
            self.named.setdefault(found[0], []).append(record)
            return as_fractions(source, found[1], size)
        try:
            return detections(values, source.keys)
        except PredictionError as exc:
            self.note("predictions_malformed", str(exc), record, feature=source.keys.xmin)
            return None


def _labelled(
    roles: Roles, columns: Mapping[str, Any], r: int, size: tuple[int, int] | None
) -> list[Labelled] | None:
    """Row ``r``'s labelled boxes as fractions; None when it has no usable box lists."""

    def values(key: str | None) -> list[Any] | None:
        if key is None or key not in columns or not columns[key].present[r]:
            return None
        c = columns[key]
        result: list[Any] = c.rag.values[int(c.rag.splits[r]) : int(c.rag.splits[r + 1])].tolist()
        return result

    if roles.boxes is not None:
        sides = [values(k) for k in roles.boxes]
        if all(s is None for s in sides):
            return []  # an image written without box lists has no boxes
        if any(s is None for s in sides):
            return None
        lists = [s for s in sides if s is not None]
        if len({len(s) for s in lists}) != 1:
            return None  # bbox_length_mismatch says so
        corners = [tuple(float(v) for v in box) for box in zip(*lists, strict=True)]
    elif roles.bbox is not None:
        flat = values(roles.bbox)
        if flat is None:
            return []
        if len(flat) % 4:
            return None
        rows = np.asarray(flat, dtype=np.float64).reshape(-1, 4)
        corners = [(float(b[1]), float(b[0]), float(b[3]), float(b[2])) for b in rows]
    else:
        return None
    if any(v > 2 for c in corners for v in c):  # pixels
        if size is None:
            return None
        w, h = size
        corners = [(c[0] / w, c[1] / h, c[2] / w, c[3] / h) for c in corners]
    labels = values(roles.object_label) or []
    texts = values(roles.object_text) or []
    if len(labels) != len(corners):
        labels = [None] * len(corners)
    if len(texts) != len(corners):
        texts = [None] * len(corners)
    return [
        Labelled(
            (c[0], c[1], c[2], c[3]),
            int(label) if label is not None else None,
            t.decode("utf-8", "replace") if isinstance(t, bytes) else None,
        )
        for c, label, t in zip(corners, labels, texts, strict=True)
    ]


def _feature(roles: Roles, box: int | None, source: Source) -> str | None:
    if box is None:
        return source.keys.xmin if isinstance(source, InRecords) else None
    return roles.boxes[0] if roles.boxes is not None else roles.bbox


def class_names(text_ids: Mapping[str, Mapping[int, int]]) -> dict[int, str]:
    """Each class id's name as the labels give it most often (``text_ids``: name →
    how often each id carried it), the first name on a tie."""
    best: dict[int, tuple[int, str]] = {}
    for name, ids in sorted(text_ids.items()):
        for label, count in ids.items():
            if label not in best or count > best[label][0]:
                best[label] = (count, name)
    return {label: name for label, (_, name) in best.items()}


def with_class_names(found: list[Any], names: Mapping[int, str]) -> list[Any]:
    """The label-error findings with the classes named as the whole dataset names them
    (its labels' texts, or its folder's ClassLabel names): the predicted class, and the
    labelled box's when its record gives it no text."""
    out = []
    for f in found:
        ev = f.evidence
        if ev is None:
            out.append(f)
            continue
        added = {}
        for id_key, text_key in (("predicted_class", "predicted_text"), ("class", "text")):
            label = ev.get(id_key)
            if text_key not in ev and isinstance(label, int) and label in names:
                added[text_key] = names[label]
        if added:
            ev = {**ev, **added}
            f = replace(f, evidence=ev, message=message_of(f.kind, f.box, ev))
        out.append(f)
    return out


def message_of(kind: str, box: int | None, ev: Mapping[str, Any]) -> str:
    """What a label-error finding says, from its evidence."""
    labelled = _class(ev.get("class"), ev.get("text"))
    predicted = _class(ev.get("predicted_class"), ev.get("predicted_text"))
    score = f"score {ev.get('score', 0):.2f}"
    if kind == "label_class":
        return (
            f"box {box} is labelled {labelled}; the model finds {predicted} there "
            f"({score}, IoU {ev['iou']:.2f})"
        )
    if kind == "label_location":
        return (
            f"box {box} ({labelled}) is off its object: the model's {predicted} overlaps it "
            f"by IoU {ev['iou']:.2f} only ({score})"
        )
    if kind == "label_missed":
        at = ", ".join(f"{v:.3f}" for v in ev["predicted_box"])
        return f"the model finds {predicted} ({score}) at [{at}] where no box is labelled"
    return (
        f"box {box} ({labelled}): no prediction comes near it, while the model is sure of "
        f"another object (score {ev['strongest_elsewhere']:.2f})"
    )
