"""The feature tree: grouping by '/', sequences, nested payloads, raw protobuf."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex

from tfr_viewer.core.decode.payloads import decode
from tfr_viewer.core.write.build import build_example, build_sequence_example
from tfr_viewer.ui.models.feature_tree import FeatureTreeModel


def names(model, parent=None):
    parent = parent if parent is not None else QModelIndex()
    return [model.data(model.index(r, 0, parent)) for r in range(model.rowCount(parent))]


def child(model, parent, name):
    for r in range(model.rowCount(parent)):
        idx = model.index(r, 0, parent)
        if model.data(idx) == name:
            return idx
    raise AssertionError(f"{name} not under {model.data(parent)}: {names(model, parent)}")


def test_keys_group_by_slash_and_values_expand(qtmodeltester):
    model = FeatureTreeModel()
    data = build_example(
        {
            "image/object/bbox/xmin": [0.1, 0.2, 0.3],
            "image/height": 7,
            "label": 3,
            "nested": build_example({"inner": 5}),
        },
        kinds={"image/object/bbox/xmin": "float"},
    )
    model.set_decoded(decode(data))
    qtmodeltester.check(model)
    assert names(model) == ["image", "label", "nested"]
    image = child(model, QModelIndex(), "image")
    bbox = child(model, child(model, image, "object"), "bbox")
    xmin = child(model, bbox, "xmin")
    node = model.node(xmin)
    assert (node.kind, node.count, node.key) == ("float", "3", "image/object/bbox/xmin")
    assert names(model, xmin) == ["[0]", "[1]", "[2]"]
    assert model.data(model.index(1, 3, xmin)) == "0.2"
    nested = child(model, QModelIndex(), "nested")
    assert "inner" in names(model, nested)


def test_sequence_example_has_two_branches(qtmodeltester):
    model = FeatureTreeModel()
    model.set_decoded(
        decode(
            build_sequence_example({"id": "a"}, {"steps": [[1], [2, 3]]}, kinds={"steps": "int64"})
        )
    )
    qtmodeltester.check(model)
    assert names(model) == ["context", "feature_lists"]
    steps = child(model, child(model, QModelIndex(), "feature_lists"), "steps")
    assert names(model, steps) == ["[0]", "[1]"]


def test_other_payloads(qtmodeltester):
    model = FeatureTreeModel()
    model.set_decoded(decode(b"\x08\x96\x01\x12\x03abc"))
    qtmodeltester.check(model)
    assert names(model) == ["#1", "#2"]
    model.set_decoded(decode(b"hello"))
    assert names(model) == ["text"]
    model.set_decoded(decode(b"\xff\x00"))
    assert names(model) == ["bytes"]
    model.set_decoded(None)
    assert model.rowCount() == 0


def test_a_box_of_a_feature_is_found_by_its_index():
    model = FeatureTreeModel()
    key = "image/object/bbox/xmax"
    model.set_decoded(decode(build_example({key: [0.1, 0.2, 1.3], "label": 3}, {key: "float"})))
    box = model.index_of_key(key, 2)
    assert model.data(box) == "[2]" and model.node(box).key == key
    assert model.data(model.index_of_key(key)) == "xmax"
    assert model.data(model.index_of_key(key, 7)) == "xmax"  # no such box: the key
    assert model.data(model.index_of_key("label", 0)) == "label"  # one value: the key
