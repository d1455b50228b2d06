"""Box edits keep every parallel list of a record's layout in step, in the record's own
convention; TensorFlow's parser reads the edited records and sees exactly the change."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tf_oracle import tf
from tfr_viewer.core.decode import decode, features_of, recognise
from tfr_viewer.core.write.box_edits import (
    MisalignedBoxes,
    add_box,
    box_lists,
    corners_of,
    delete_box,
    move_box,
    set_box_class,
)
from tfr_viewer.core.write.edits import EditError

F32 = np.float32


def _example(features: dict) -> bytes:
    t = tf().train

    def feature(values):
        if isinstance(values[0], bytes):
            return t.Feature(bytes_list=t.BytesList(value=values))
        if isinstance(values[0], float):
            return t.Feature(float_list=t.FloatList(value=values))
        return t.Feature(int64_list=t.Int64List(value=values))

    return t.Example(
        features=t.Features(feature={k: feature(v) for k, v in features.items()})
    ).SerializeToString()


ODAPI = {
    "image/encoded": [b"\xff\xd8\xff\xe0 not decoded here"],
    "image/height": [120],
    "image/object/bbox/xmin": [0.1, 0.2, 0.3],
    "image/object/bbox/ymin": [0.15, 0.25, 0.35],
    "image/object/bbox/xmax": [0.4, 0.5, 0.6],
    "image/object/bbox/ymax": [0.45, 0.55, 0.65],
    "image/object/class/label": [1, 2, 3],
    "image/object/class/text": [b"circle", b"square", b"triangle"],
    "image/object/difficult": [0, 1, 0],
    "image/object/area": [10.5, 20.5, 30.5],
}
FLOATS = {"image/object/bbox/" + c for c in ("xmin", "ymin", "xmax", "ymax")} | {
    "image/object/area"
}


def _parsed(payload: bytes, keys) -> dict[str, list]:
    """What TensorFlow's parser gives for each key (VarLen, dense values)."""
    t = tf()
    kinds = {k: (t.float32 if k in FLOATS or "bbox" in k or "area" in k else None) for k in keys}
    spec = {}
    for key in keys:
        if kinds[key] is not None:
            spec[key] = t.io.VarLenFeature(t.float32)
        elif key.endswith("text") or key == "image/encoded":
            spec[key] = t.io.VarLenFeature(t.string)
        else:
            spec[key] = t.io.VarLenFeature(t.int64)
    parsed = t.io.parse_single_example(payload, spec)
    return {k: v.values.numpy().tolist() for k, v in parsed.items()}


def test_the_lists_of_an_object_detection_record_are_found():
    lists = box_lists(_example(ODAPI))
    assert lists.layout == "odapi" and lists.count == 3 and lists.aligned
    assert lists.label == "image/object/class/label" and lists.text == "image/object/class/text"
    assert set(lists.per_box) == {
        "image/object/class/label",
        "image/object/class/text",
        "image/object/difficult",
        "image/object/area",
    }


def test_deleting_a_box_removes_it_from_every_list():
    before = _example(ODAPI)
    after = delete_box(before, 1)
    got = _parsed(after, ODAPI)
    for key, values in ODAPI.items():
        if key.startswith("image/object/"):
            want = [values[0], values[2]]
            want = [float(F32(v)) for v in want] if isinstance(values[0], float) else want
            assert got[key] == want, key
        else:
            assert got[key] == _parsed(before, [key])[key]  # the image's own keys stay


def test_adding_a_box_appends_to_every_list_with_values_of_their_kind():
    after = add_box(
        _example(ODAPI),
        {"xmin": 0.7, "ymin": 0.1, "xmax": 0.9, "ymax": 0.3},
        label=4,
        text="dog",
        extra={"image/object/difficult": 1},
    )
    got = _parsed(after, ODAPI)
    assert got["image/object/bbox/xmin"][-1] == float(F32(0.7))
    assert got["image/object/bbox/ymax"][-1] == float(F32(0.3))
    assert got["image/object/class/label"] == [1, 2, 3, 4]
    assert got["image/object/class/text"] == [b"circle", b"square", b"triangle", b"dog"]
    assert got["image/object/difficult"] == [0, 1, 0, 1]
    assert got["image/object/area"][-1] == 0.0  # nothing said: a value of the list's kind
    boxes = recognise(features_of(decode(after).payload))[0].boxes
    assert len(boxes) == 4 and (boxes[-1].label, boxes[-1].text) == (4, "dog")
    with pytest.raises(EditError, match="not a per-box list"):
        add_box(_example(ODAPI), dict(xmin=0, ymin=0, xmax=1, ymax=1), extra={"image/height": 1})


def test_moving_a_box_and_changing_its_class_change_only_that():
    before = _example(ODAPI)
    moved = move_box(before, 0, {"xmin": 0.05, "xmax": 0.45})
    got, old = _parsed(moved, ODAPI), _parsed(before, ODAPI)
    assert got["image/object/bbox/xmin"] == [float(F32(0.05)), *old["image/object/bbox/xmin"][1:]]
    assert got["image/object/bbox/xmax"][0] == float(F32(0.45))
    assert all(got[k] == old[k] for k in ODAPI if not k.endswith(("xmin", "xmax")))
    assert corners_of(moved, 0)["xmin"] == pytest.approx(0.05)
    renamed = set_box_class(moved, 2, label=9, text="cat")
    got = _parsed(renamed, ODAPI)
    assert got["image/object/class/label"] == [1, 2, 9]
    assert got["image/object/class/text"] == [b"circle", b"square", b"cat"]
    with pytest.raises(EditError, match="there is no box 3"):
        move_box(before, 3, {"xmin": 0.0})


def test_a_tfds_record_keeps_its_bbox_rows_and_order():
    t = tf()
    record = _example(
        {
            "image": [b"\x89PNG not decoded here"],
            "objects/bbox": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],  # ymin xmin ymax xmax
            "objects/label": [3, 5],
            "objects/is_crowd": [0, 1],
        }
    )
    lists = box_lists(record)
    assert lists.layout == "tfds" and lists.count == 2 and lists.coordinates == ("objects/bbox",)
    spec = {
        "objects/bbox": t.io.VarLenFeature(t.float32),
        "objects/label": t.io.VarLenFeature(t.int64),
        "objects/is_crowd": t.io.VarLenFeature(t.int64),
    }

    def parse(payload):
        got = t.io.parse_single_example(payload, spec)
        return {k: v.values.numpy().tolist() for k, v in got.items()}

    moved = move_box(record, 1, {"xmin": 0.55})
    assert parse(moved)["objects/bbox"][4:] == [float(F32(v)) for v in (0.5, 0.55, 0.7, 0.8)]
    gone = delete_box(record, 0)
    assert parse(gone) == {
        "objects/bbox": [float(F32(v)) for v in (0.5, 0.6, 0.7, 0.8)],
        "objects/label": [5],
        "objects/is_crowd": [1],
    }
    added = add_box(record, {"xmin": 0.2, "ymin": 0.1, "xmax": 0.4, "ymax": 0.3}, label=7)
    got = parse(added)
    assert got["objects/bbox"][8:] == [float(F32(v)) for v in (0.1, 0.2, 0.3, 0.4)]
    assert got["objects/label"] == [3, 5, 7] and got["objects/is_crowd"] == [0, 1, 0]


def test_pixel_boxes_in_int64_lists_stay_whole_numbers():
    record = _example(
        {
            "image/encoded": [b"x"],
            "bbox/xmin": [10],
            "bbox/ymin": [20],
            "bbox/xmax": [50],
            "bbox/ymax": [60],
        }
    )
    moved = move_box(record, 0, {"xmin": 12.6, "ymax": 70.2})
    assert corners_of(moved, 0) == {"xmin": 13.0, "ymin": 20.0, "xmax": 50.0, "ymax": 70.0}


def test_lists_that_disagree_are_edited_only_when_the_user_agreed():
    bad = dict(ODAPI, **{"image/object/class/text": [b"circle", b"square"]})
    record = _example(bad)
    assert not box_lists(record).aligned
    with pytest.raises(MisalignedBoxes, match=r"image/object/class/text \(2\)"):
        delete_box(record, 0)
    after = delete_box(record, 0, misaligned=True)
    assert _parsed(after, ["image/object/class/text"])["image/object/class/text"] == [b"square"]


def test_an_edit_past_a_short_list_is_refused_in_a_line_not_a_crash():
    """Three boxes, two labels, one ymax short, and the user chose to edit anyway: the
    box whose values are missing cannot be changed; the message says which list."""
    bad = dict(
        ODAPI,
        **{"image/object/class/label": [1, 2], "image/object/bbox/ymax": [0.45, 0.55]},
    )
    record = _example(bad)
    with pytest.raises(EditError, match=r"image/object/class/label holds 2 values, none for box 2"):
        set_box_class(record, 2, label=7, misaligned=True)
    with pytest.raises(EditError, match=r"image/object/bbox/ymax holds 2 values, none for box 2"):
        move_box(record, 2, {"ymax": 0.9}, misaligned=True)
    with pytest.raises(EditError, match="image/object/bbox/ymax holds no value for box 2"):
        corners_of(record, 2)
    moved = move_box(record, 2, {"xmin": 0.05}, misaligned=True)  # a list that has it
    assert _parsed(moved, ["image/object/bbox/xmin"])["image/object/bbox/xmin"][2] == (
        pytest.approx(0.05)
    )


def test_a_record_without_boxes_says_so():
    with pytest.raises(EditError, match="no boxes"):
        delete_box(_example({"label": [1]}), 0)


def test_pending_edits_say_what_happened_to_which_box():
    from tfr_viewer.core.write.changes import describe_change

    before = _example(ODAPI)
    moved = move_box(before, 2, {"ymin": 0.3})
    assert describe_change(before, moved) == "box 2: ymin 0.35 → 0.3"  # what moved, how far
    assert describe_change(before, delete_box(before, 1)) == "box 1 (square): deleted"
    added = add_box(before, {"xmin": 0.7, "ymin": 0.1, "xmax": 0.9, "ymax": 0.3}, 5, "cat")
    assert describe_change(before, added) == "box 3: added, cat"
    renamed = set_box_class(before, 0, label=7, text="dog")
    assert describe_change(before, renamed) == "box 0: circle → dog"
    # a per-box list the box words do not cover is said by its key
    from tfr_viewer.core.write.edits import set_values

    harder = set_values(before, "image/object/difficult", [1, 1, 0])
    assert describe_change(before, harder) == "image/object/difficult: [0, 1, 0] → [1, 1, 0]"


def test_a_deletion_beside_a_move_names_the_box_that_went():
    from tfr_viewer.core.write.changes import describe_change

    before = _example(ODAPI)
    after = delete_box(move_box(before, 0, {"xmin": 0.12}), 1)
    assert describe_change(before, after) == "box 1 (square): deleted; box 0: xmin 0.1 → 0.12"
