"""Which keys play which part: a model's predictions (``image/detection/…``) are never
taken for the labels, in the checks' roles, the picture or the box editor."""

from __future__ import annotations

from tfr_viewer.core.analyze.roles import find_roles


def test_detection_lists_are_not_labels():
    kinds = {
        "image/encoded": "bytes",
        "image/object/bbox/xmin": "float",
        "image/object/bbox/ymin": "float",
        "image/object/bbox/xmax": "float",
        "image/object/bbox/ymax": "float",
        "image/object/class/label": "int64",
        "image/detection/bbox/xmin": "float",
        "image/detection/bbox/ymin": "float",
        "image/detection/bbox/xmax": "float",
        "image/detection/bbox/ymax": "float",
        "image/detection/label": "int64",
        "image/detection/score": "float",
    }
    roles = find_roles(kinds, {"image/encoded"})
    assert roles.label is None  # image/detection/label is no image-level class
    assert roles.boxes is not None and roles.boxes[0] == "image/object/bbox/xmin"
    assert roles.object_label == "image/object/class/label"
    assert not any("detection" in k for k in roles.keys())
    alone = find_roles({k: v for k, v in kinds.items() if "object" not in k}, {"image/encoded"})
    assert alone.boxes is None and alone.label is None  # predictions alone: no labels


def test_the_picture_and_the_box_editor_leave_predictions_alone(tmp_path):
    from tests.planted_faults import example_of
    from tests.planted_labels import _features
    from tfr_viewer.core.decode import decode, features_of, recognise
    from tfr_viewer.core.write.box_edits import box_lists

    payload = example_of(_features(3, with_predictions=True))  # 2 boxes, 4 predictions
    (annotation,) = recognise(features_of(decode(payload).payload))
    assert len(annotation.boxes) == 2 and annotation.label is None
    lists = box_lists(payload)
    assert lists.count == 2 and lists.where.coordinates["xmin"] == "image/object/bbox/xmin"
    assert not any("detection" in k for k in lists.per_box)
