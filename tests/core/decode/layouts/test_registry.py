"""A new layout is one module and one registry entry: with ``corner_rows`` entered,
images with boxes are converted to it (TensorFlow reads back the boxes as fractions),
its records are recognised with their boxes, and their boxes are moved, added and
deleted in place; without the entry nothing knows it."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from tests.core.decode.layouts import corner_rows
from tests.tf_oracle import tf, tf_read
from tfr_viewer.core.decode.layouts import by_name, recognise, registry
from tfr_viewer.core.decode.payloads import decode
from tfr_viewer.core.write import ExportOptions
from tfr_viewer.core.write.box_edits import add_box, box_lists, delete_box, move_box
from tfr_viewer.core.write.convert import ConvertOptions, convert
from tfr_viewer.core.write.convert_detection import box_csv

W, H = 80, 60
BOXES = [(8, 6, 40, 30, "cat"), (50, 10, 79, 59, "dog")]


@pytest.fixture
def entered(monkeypatch):
    """The one entry: the layout in the registry (first, as a new convention is)."""
    monkeypatch.setattr(registry, "LAYOUTS", (corner_rows, *registry.LAYOUTS))


def _converted(tmp_path) -> list[bytes]:
    folder = tmp_path / "images"
    folder.mkdir()
    pixels = np.random.default_rng(0).integers(0, 255, (H, W, 3), dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "JPEG")
    (folder / "a.jpg").write_bytes(buffer.getvalue())
    lines = ["filename,width,height,class,xmin,ymin,xmax,ymax"]
    lines += [f"images/a.jpg,{W},{H},{c},{x0},{y0},{x1},{y1}" for x0, y0, x1, y1, c in BOXES]
    (tmp_path / "boxes.csv").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.tfrecord"
    options = ConvertOptions(ExportOptions(str(out)), corner_rows.NAME)
    convert(box_csv(str(tmp_path / "boxes.csv")), options)
    return tf_read(out)


def _parsed(payload: bytes) -> dict:
    t = tf()
    spec = {
        "photo": t.io.FixedLenFeature([], t.string),
        "objects/corners": t.io.VarLenFeature(t.float32),
        "objects/class": t.io.VarLenFeature(t.int64),
    }
    row = t.io.parse_single_example(payload, spec)
    return {
        "shape": tuple(t.io.decode_image(row["photo"]).shape),
        "corners": row["objects/corners"].values.numpy().reshape(-1, 4).tolist(),
        "class": row["objects/class"].values.numpy().tolist(),
    }


def _fractions(boxes) -> list[list[float]]:
    return [[x0 / W, y0 / H, x1 / W, y1 / H] for x0, y0, x1, y1, _ in boxes]


def test_images_are_converted_to_the_new_layout(entered, tmp_path):
    (payload,) = _converted(tmp_path)
    row = _parsed(payload)
    assert row["shape"] == (H, W, 3)
    assert np.allclose(row["corners"], _fractions(BOXES), atol=1e-7)
    assert row["class"] == [1, 2]


def test_its_records_are_recognised_with_their_boxes(entered, tmp_path):
    (payload,) = _converted(tmp_path)
    (picture,) = recognise(decode(payload).payload.features)
    assert picture.layout == corner_rows.NAME and picture.key == "photo"
    got = [[b.xmin, b.ymin, b.xmax, b.ymax] for b in picture.boxes]
    assert np.allclose(got, _fractions(BOXES), atol=1e-7)


def test_its_boxes_are_edited_in_place(entered, tmp_path):
    (payload,) = _converted(tmp_path)
    lists = box_lists(payload)
    assert lists.layout == corner_rows.NAME and lists.count == 2 and lists.aligned
    assert lists.per_box == ("objects/class",)
    moved = move_box(payload, 1, {"xmax": 0.5})
    added = add_box(moved, {"xmin": 0.1, "ymin": 0.2, "xmax": 0.3, "ymax": 0.4}, label=7)
    final = delete_box(added, 0)
    row = _parsed(final)
    want = [[50 / W, 10 / H, 0.5, 59 / H], [0.1, 0.2, 0.3, 0.4]]
    assert np.allclose(row["corners"], want, atol=1e-7)
    assert row["class"] == [2, 7]


def test_without_its_entry_nothing_knows_it(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="unknown layout 'corner-rows'"):
        by_name(corner_rows.NAME)
    monkeypatch.setattr(registry, "LAYOUTS", (corner_rows, *registry.LAYOUTS))
    (payload,) = _converted(tmp_path)
    monkeypatch.undo()
    (picture,) = recognise(decode(payload).payload.features)
    assert picture.layout == "generic" and picture.boxes == ()
