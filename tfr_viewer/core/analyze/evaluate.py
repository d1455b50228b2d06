"""COCO-style detection metrics of a model's predictions against a dataset's labels,
computed by pycocotools (the optional ``eval`` extra), never by hand.

:func:`gather` reads each record's labelled boxes and predictions as the label checks
do (:mod:`.label_checks`); :func:`evaluate` hands them to ``COCOeval`` in pixels (the
image's size where known, else a 1000 × 1000 frame) and reads back AP over IoU 0.5 to
0.95, AP at IoU 0.5 and recall at IoU 0.5 (up to 100 detections an image), per class
and over all classes, as ``COCOeval`` averages them.
"""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..io import CancelToken, Dataset
from .label_checks import LabelChecks, PredictionCheck, settle
from .label_errors import Labelled, Predicted
from .survey import Survey, survey_block

FRAME = 1000  # the side of the frame fractions are put in when an image's size is unknown


class EvaluationUnavailable(RuntimeError):
    """pycocotools is not installed; the message says how to install it."""


@dataclass(frozen=True)
class Scene:
    """One record's labelled boxes and predictions, and its image's size in pixels."""

    record: int
    labelled: tuple[Labelled, ...]
    predicted: tuple[Predicted, ...]
    size: tuple[int, int] | None


@dataclass(frozen=True)
class ClassResult:
    label: int
    text: str | None
    ap: float | None  # None: the class has no labelled box
    ap50: float | None
    recall50: float | None
    boxes: int
    predictions: int

    def to_json(self) -> dict[str, Any]:
        return {
            "class": self.label,
            "text": self.text,
            "ap": self.ap,
            "ap50": self.ap50,
            "recall50": self.recall50,
            "boxes": self.boxes,
            "predictions": self.predictions,
        }


@dataclass(frozen=True)
class Evaluation:
    """The metrics over all classes (COCOeval's means over the classes with boxes), per
    class, and how many images (records with predictions) were weighed."""

    ap: float | None
    ap50: float | None
    recall50: float | None
    classes: tuple[ClassResult, ...]
    images: int

    def to_json(self) -> dict[str, Any]:
        return {
            "ap": self.ap,
            "ap50": self.ap50,
            "recall50": self.recall50,
            "images": self.images,
            "classes": [c.to_json() for c in self.classes],
        }


def gather(
    ds: Dataset,
    check: PredictionCheck,
    *,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Scene]:
    """Every intact record of an indexed ``ds`` that has predictions (and box lists), in
    record order; a record a results file or predictions dataset does not name counts
    with no detections, as COCOeval counts an image without results. The keys' roles
    come from the first block's survey."""
    from ..decode.detect import image_info
    from ..io.dataset_blocks import iter_blocks
    from ..query.extract import extract

    check = settle(ds, check)
    labels = LabelChecks(check, lambda *a, **k: None, None)
    records = np.arange(len(ds), dtype=np.int64)
    survey, out, done = Survey(), [], 0
    roles = None
    for positions, block in iter_blocks(ds, records, verify=True, reuse=True):
        if cancel is not None and cancel.cancelled:
            break
        if roles is None:
            survey_block(survey, block)
            roles = survey.roles()
        keys = sorted({*roles.keys(), *check.keys()})
        status, columns = extract(block, keys)
        for r in np.flatnonzero(status == 0).tolist():
            record = int(records[positions[r]])
            size = _size(roles, columns, r, image_info)
            scene = labels.scene(roles, columns, r, record, size, unnamed_found_nothing=True)
            if scene is not None:
                out.append(Scene(record, tuple(scene[0]), tuple(scene[1]), size))
        done += block.rows
        if progress is not None:
            progress(done, len(records))
    ds.settle_verified()
    return out


def _size(
    roles: Any, columns: Mapping[str, Any], r: int, image_info: Any
) -> tuple[int, int] | None:
    """The image's width and height: stored, or read from the first image's header."""

    def first(key: str | None) -> Any:
        if key is None or key not in columns or not columns[key].present[r]:
            return None
        c = columns[key]
        a, b = int(c.rag.splits[r]), int(c.rag.splits[r + 1])
        return c.rag.values[a] if b > a else None

    width, height = first(roles.width), first(roles.height)
    if isinstance(width, (int, np.integer)) and isinstance(height, (int, np.integer)):
        if width > 0 and height > 0:
            return int(width), int(height)
    for key in roles.images:
        value = first(key)
        if isinstance(value, (bytes, memoryview)):
            info = image_info(bytes(value))
            if info is not None:
                return info.width, info.height
    return None


def coco_dicts(scenes: list[Scene]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ground truth (a COCO dataset) and the detections (COCO results) in pixels."""
    images: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    categories: set[int] = set()

    def pixels(c: tuple[float, float, float, float], w: int, h: int) -> list[float]:
        return [c[0] * w, c[1] * h, (c[2] - c[0]) * w, (c[3] - c[1]) * h]

    for scene in scenes:
        w, h = scene.size or (FRAME, FRAME)
        images.append({"id": scene.record, "width": w, "height": h})
        for box in scene.labelled:
            if box.label is None:
                continue
            x, y, bw, bh = pixels(box.corners, w, h)
            categories.add(box.label)
            annotations.append(
                {
                    "id": len(annotations) + 1,
                    "image_id": scene.record,
                    "category_id": box.label,
                    "bbox": [x, y, bw, bh],
                    "area": max(bw, 0.0) * max(bh, 0.0),
                    "iscrowd": 0,
                }
            )
        for p in scene.predicted:
            categories.add(p.label)
            results.append(
                {
                    "image_id": scene.record,
                    "category_id": p.label,
                    "bbox": pixels(p.corners, w, h),
                    "score": p.score,
                }
            )
    gt = {
        "images": images,
        "annotations": annotations,
        "categories": [{"id": c} for c in sorted(categories)],
    }
    return gt, results


def _mean(values: np.ndarray) -> float | None:
    kept = values[values > -1]
    return round(float(kept.mean()), 6) if kept.size else None


def evaluate(scenes: list[Scene], names: Mapping[int, str] | None = None) -> Evaluation:
    """The metrics of ``scenes`` (EvaluationUnavailable without pycocotools)."""
    try:
        from pycocotools.coco import COCO
        from pycocotools.cocoeval import COCOeval
    except ImportError:
        raise EvaluationUnavailable(
            "evaluate needs pycocotools: pip install 'tfr-viewer[eval]' (or pycocotools)"
        ) from None
    gt_dict, results = coco_dicts(scenes)
    texts = dict(names or {})
    for scene in scenes:
        for box in scene.labelled:
            if box.label is not None and box.text and box.label not in texts:
                texts[box.label] = box.text
    boxes = Counter(b.label for s in scenes for b in s.labelled if b.label is not None)
    predicted = Counter(p.label for s in scenes for p in s.predicted)
    categories = [c["id"] for c in gt_dict["categories"]]
    if not gt_dict["annotations"]:
        raise ValueError("no record has a labelled box with a class to evaluate against")
    with contextlib.redirect_stdout(io.StringIO()):  # pycocotools prints as it goes
        gt = COCO()
        gt.dataset = gt_dict
        gt.createIndex()
        dt = gt.loadRes(results) if results else COCO()
        if not results:
            dt.dataset = {
                "images": gt_dict["images"],
                "annotations": [],
                "categories": gt_dict["categories"],
            }
            dt.createIndex()
        run = COCOeval(gt, dt, "bbox")
        run.evaluate()
        run.accumulate()
    precision = run.eval["precision"]  # [iou, recall, class, area, max detections]
    recall = run.eval["recall"]  # [iou, class, area, max detections]
    area, most = 0, len(run.params.maxDets) - 1  # all areas, 100 detections
    classes = []
    for k, label in enumerate(categories):
        has = boxes.get(label, 0) > 0
        classes.append(
            ClassResult(
                label,
                texts.get(label),
                _mean(precision[:, :, k, area, most]) if has else None,
                _mean(precision[0, :, k, area, most]) if has else None,
                _mean(recall[0:1, k, area, most]) if has else None,
                boxes.get(label, 0),
                predicted.get(label, 0),
            )
        )
    return Evaluation(
        _mean(precision[:, :, :, area, most]),
        _mean(precision[0, :, :, area, most]),
        _mean(recall[0, :, area, most]),
        tuple(classes),
        len(scenes),
    )
