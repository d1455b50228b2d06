"""Predictions against labels, box by box: pairing as detection metrics pair, and each
kind of label error found where it was planted, with nothing on clean boxes."""

from __future__ import annotations

import numpy as np
import pytest

from tfr_viewer.core.analyze.label_errors import (
    Labelled,
    Predicted,
    Thresholds,
    iou_matrix,
    label_errors,
    match,
)

CAT, DOG = 1, 2
LIMITS = Thresholds()


def _kinds(labelled, predicted) -> list[tuple[str, int | None, int | None]]:
    return [(e.kind, e.box, e.prediction) for e in label_errors(labelled, predicted, LIMITS)]


def test_iou_of_boxes_against_a_direct_computation():
    rng = np.random.default_rng(0)
    boxes = []
    for _ in range(20):
        x = np.sort(rng.random(2))
        y = np.sort(rng.random(2))
        boxes.append((x[0], y[0], x[1], y[1]))
    m = iou_matrix(boxes[:8], boxes[8:])
    for i, p in enumerate(boxes[:8]):
        for j, q in enumerate(boxes[8:]):
            w = max(0.0, min(p[2], q[2]) - max(p[0], q[0]))
            h = max(0.0, min(p[3], q[3]) - max(p[1], q[1]))
            union = (p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - w * h
            assert m[i, j] == pytest.approx(w * h / union)
    assert iou_matrix([], boxes).shape == (0, 20)
    assert iou_matrix([(0.2, 0.2, 0.2, 0.5)], [(0.2, 0.2, 0.2, 0.5)])[0, 0] == 0.0  # no area


def test_pairing_takes_the_strongest_prediction_of_the_class():
    gt = [Labelled((0.1, 0.1, 0.4, 0.4), CAT), Labelled((0.5, 0.5, 0.9, 0.9), DOG)]
    preds = [
        Predicted((0.12, 0.1, 0.4, 0.42), CAT, 0.7),
        Predicted((0.1, 0.1, 0.41, 0.4), CAT, 0.9),  # the stronger takes the cat
        Predicted((0.5, 0.5, 0.9, 0.9), CAT, 0.95),  # the wrong class: no pair
        Predicted((0.5, 0.5, 0.88, 0.9), DOG, 0.3),  # not confident
    ]
    m = match(gt, preds, LIMITS)
    assert m.paired == (None, 0, None, None)
    assert m.found == (True, False)
    assert (m.true_positives, m.false_positives, m.missed) == (1, 2, 1)


def test_clean_boxes_with_close_predictions_give_no_error():
    gt = [Labelled((0.1, 0.1, 0.4, 0.4), CAT), Labelled((0.5, 0.5, 0.9, 0.9), DOG)]
    preds = [
        Predicted((0.11, 0.09, 0.41, 0.4), CAT, 0.9),
        Predicted((0.5, 0.52, 0.9, 0.91), DOG, 0.8),
        Predicted((0.0, 0.6, 0.05, 0.65), DOG, 0.2),  # weak and elsewhere: no evidence
    ]
    assert _kinds(gt, preds) == []


def test_each_planted_error_is_found_at_its_box():
    gt = [
        Labelled((0.1, 0.1, 0.3, 0.3), CAT, "cat"),  # 0: fine
        Labelled((0.5, 0.1, 0.7, 0.3), CAT, "cat"),  # 1: the model says dog
        Labelled((0.1, 0.5, 0.3, 0.7), DOG, "dog"),  # 2: shifted off its dog
        Labelled((0.8, 0.8, 0.95, 0.95), CAT, "cat"),  # 3: nothing there
    ]
    preds = [
        Predicted((0.1, 0.1, 0.3, 0.3), CAT, 0.95),
        Predicted((0.5, 0.1, 0.7, 0.31), DOG, 0.9),
        Predicted((0.18, 0.5, 0.38, 0.7), DOG, 0.85),  # IoU 0.43 with box 2
        Predicted((0.5, 0.6, 0.7, 0.75), DOG, 0.8),  # a dog nobody labelled
    ]
    found = {e.kind: e for e in label_errors(gt, preds, LIMITS, names={DOG: "dog"})}
    assert sorted(found) == ["label_class", "label_location", "label_missed", "label_spurious"]
    assert (found["label_class"].box, found["label_class"].prediction) == (1, 1)
    assert found["label_class"].evidence["predicted_text"] == "dog"
    assert found["label_class"].evidence["text"] == "cat"
    assert (found["label_location"].box, found["label_location"].prediction) == (2, 2)
    assert 0.1 <= found["label_location"].evidence["iou"] < 0.5
    assert (found["label_missed"].box, found["label_missed"].prediction) == (None, 3)
    assert found["label_missed"].evidence["predicted_box"] == [0.5, 0.6, 0.7, 0.75]
    assert (found["label_spurious"].box, found["label_spurious"].prediction) == (3, None)
    assert all(0 <= e.evidence["rank"] <= 1 for e in found.values())


def test_a_box_is_spurious_only_where_the_model_saw_something():
    gt = [Labelled((0.1, 0.1, 0.3, 0.3), CAT)]
    assert _kinds(gt, []) == []  # no prediction at all: nothing to weigh
    weak = [Predicted((0.6, 0.6, 0.8, 0.8), DOG, 0.3)]
    assert _kinds(gt, weak) == []
    near = [
        Predicted((0.6, 0.6, 0.8, 0.8), DOG, 0.9),
        Predicted((0.12, 0.12, 0.32, 0.32), CAT, 0.1),
    ]
    kinds = _kinds(gt, near)  # a weak cat on the box: the box is not spurious
    assert ("label_spurious", 0, None) not in kinds and ("label_missed", None, 0) in kinds


def test_thresholds_are_checked():
    for bad in (Thresholds(score=1.5), Thresholds(iou=0), Thresholds(near=0.5, iou=0.5)):
        with pytest.raises(ValueError):
            bad.check()
    Thresholds(score=0.0, iou=1.0, near=0.0).check()
