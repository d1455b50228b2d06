"""Edits change exactly what they say, refuse wrong kinds, and undo to the exact bytes."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.tf_oracle import tf
from tfr_viewer.core.write.build import build_example, build_sequence_example
from tfr_viewer.core.write.edits import (
    EditError,
    EditSet,
    parse_values,
    remove_feature,
    rename_feature,
    replace_image,
    set_values,
)


def parsed(payload: bytes):
    return tf().train.Example.FromString(payload).features.feature


BASE = build_example(
    {
        "label": 3,
        "score": [0.1, 0.2],
        "name": "cat",
        "image/height": 4,
        "image/width": 4,
        "image/format": "png",
    },
    kinds={"score": "float"},
)


def test_set_values_keeps_kind_and_other_features_exactly():
    out = set_values(BASE, "label", parse_values("7", "int64", "label"))
    f = parsed(out)
    assert list(f["label"].int64_list.value) == [7]
    assert list(f["score"].float_list.value) == list(parsed(BASE)["score"].float_list.value)
    out = set_values(BASE, "name", parse_values('["dog", "emu"]', "bytes", "name"))
    assert list(parsed(out)["name"].bytes_list.value) == [b"dog", b"emu"]


def test_numbers_are_separated_by_commas_or_line_breaks():
    assert parse_values("[1, 2,3]", "int64", "k") == [1, 2, 3]
    assert parse_values("0.5\n0.25,\n 0.125\n", "float", "k") == [0.5, 0.25, 0.125]
    assert parse_values("-1 -2", "int64", "k") == [-1, -2]
    assert parse_values("  ", "float", "k") == []


def test_wrong_kinds_are_refused_with_a_message():
    with pytest.raises(EditError, match="not a whole number"):
        parse_values("1.5", "int64", "label")
    with pytest.raises(EditError, match="does not fit in int64"):
        parse_values(str(2**63), "int64", "label")
    with pytest.raises(EditError, match="float cannot be stored"):
        set_values(BASE, "label", [1.5])
    with pytest.raises(EditError, match="holds int64"):
        set_values(BASE, "label", [b"x"], kind="bytes")
    with pytest.raises(EditError, match="not an Example"):
        set_values(b"\xff\xff", "label", [1])


def test_add_remove_rename():
    added = set_values(BASE, "new", [1, 2], kind="int64")
    assert list(parsed(added)["new"].int64_list.value) == [1, 2]
    assert "label" not in parsed(remove_feature(BASE, "label"))
    renamed = parsed(rename_feature(BASE, "label", "class"))
    assert "label" not in renamed and list(renamed["class"].int64_list.value) == [3]
    with pytest.raises(EditError, match="already exists"):
        rename_feature(BASE, "label", "name")


def test_replace_image_updates_size_and_format():
    buf = io.BytesIO()
    Image.new("RGB", (30, 20)).save(buf, format="JPEG")
    payload = build_example(
        {"image/encoded": b"old", "image/height": 4, "image/width": 4, "image/format": "png"}
    )
    f = parsed(replace_image(payload, "image/encoded", buf.getvalue()))
    assert f["image/encoded"].bytes_list.value[0] == buf.getvalue()
    assert f["image/height"].int64_list.value[0] == 20
    assert f["image/width"].int64_list.value[0] == 30
    assert f["image/format"].bytes_list.value[0] == b"jpeg"
    with pytest.raises(EditError, match="not an image"):
        replace_image(payload, "image/encoded", b"not an image")


def test_sequence_example_context_can_be_edited():
    seq = build_sequence_example({"id": 1}, {"steps": [[1], [2]]}, kinds={"steps": "int64"})
    out = set_values(seq, "id", [5])
    theirs = tf().train.SequenceExample.FromString(out)
    assert list(theirs.context.feature["id"].int64_list.value) == [5]
    assert len(theirs.feature_lists.feature_list["steps"].feature) == 2


def test_undo_and_redo_restore_the_exact_bytes():
    edits = EditSet()
    first = set_values(BASE, "label", [1])
    undo1 = edits.replace(4, first)
    redo1 = edits.state(4)
    second = set_values(first, "label", [2])
    undo2 = edits.replace(4, second)
    undo3 = edits.delete([4, 9])
    assert edits.is_deleted(4) and edits.payloads[4] == second
    edits.apply_states(undo3)
    assert not edits.is_deleted(9) and edits.payloads[4] == second
    edits.apply_states([undo2])
    assert edits.payloads[4] == first
    edits.apply_states([undo1])
    assert not edits and 4 not in edits.payloads
    edits.apply_states([redo1])
    assert edits.payloads[4] == first
    assert edits.kept([3, 4, 9]) == [3, 4, 9]
