"""The box editor in every layout it recognises, through the user's path: a TFDS record
that ``convert`` wrote from COCO boxes, raw pixels with int64 pixel boxes (the tutorial
kind), and keys no guess finds, named in View › Layout Keys…. In each, a box is nudged
with an arrow key, another deleted with Del, a new one drawn with B and a drag; the
export is read back by TensorFlow, every per-box list in step."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QDialogButtonBox, QInputDialog

from tests.tf_oracle import tf, tf_read, tf_write
from tests.ui.conftest import open_and_wait
from tests.ui.viewers.test_box_picker import drag, exported
from tfr_viewer.core.decode.layouts import KeyMap
from tfr_viewer.core.write.build import build_example

W, H = 64, 48
PIXEL_BOXES = [(4, 6, 20, 30), (30, 8, 50, 40), (10, 20, 60, 44)]  # xmin, ymin, xmax, ymax
LABELS = [1, 2, 1]
NAMES = {1: "cat", 2: "dog"}


def _png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    pixels = np.random.default_rng(0).integers(0, 255, (H, W, 3), dtype=np.uint8)
    Image.fromarray(pixels).save(out, "PNG")
    return out.getvalue()


def _tfds_by_convert(tmp_path) -> str:
    """A COCO file of one image made into the TFDS layout by ``convert``."""
    from tfr_viewer.core.write import ExportOptions
    from tfr_viewer.core.write.convert import ConvertOptions, convert, list_source

    folder = tmp_path / "coco"
    folder.mkdir()
    (folder / "a.png").write_bytes(_png())
    coco = {
        "images": [{"id": 1, "file_name": "a.png", "width": W, "height": H}],
        "categories": [{"id": i, "name": n} for i, n in NAMES.items()],
        "annotations": [
            {"id": k, "image_id": 1, "category_id": c, "bbox": [x0, y0, x1 - x0, y1 - y0]}
            for k, ((x0, y0, x1, y1), c) in enumerate(zip(PIXEL_BOXES, LABELS, strict=True))
        ],
    }
    (folder / "coco.json").write_text(json.dumps(coco))
    out = tmp_path / "tfds" / "boxes.tfrecord"
    options = ConvertOptions(ExportOptions(str(out)), "tfds", check=False)
    (written,) = convert(list_source(str(folder / "coco.json")), options).files
    return written


def _pixels_int64(tmp_path) -> str:
    """Raw pixels with their shape, and boxes as int64 pixel lists."""
    pixels = np.random.default_rng(1).integers(0, 255, (H, W, 3), dtype=np.uint8)
    features = {
        "image_raw": [pixels.tobytes()],
        "height": [H],
        "width": [W],
        "depth": [3],
        "object/label": LABELS,
    }
    for i, side in enumerate(("xmin", "ymin", "xmax", "ymax")):
        features[f"bbox/{side}"] = [b[i] for b in PIXEL_BOXES]
    return str(tf_write(tmp_path / "pixels.tfrecord", [build_example(features)]))


RENAMED = {"xmin": "left", "ymin": "top", "xmax": "right", "ymax": "bottom"}


def _renamed(tmp_path) -> str:
    """Fractions under keys no guess finds, the class under ``kind``/``kind_name``."""
    features: dict = {"photo": [_png()], "kind": LABELS}
    features["kind_name"] = [NAMES[c].encode() for c in LABELS]
    for i, side in enumerate(("xmin", "ymin", "xmax", "ymax")):
        size = W if side[0] == "x" else H
        features[RENAMED[side]] = [b[i] / size for b in PIXEL_BOXES]
    return str(tf_write(tmp_path / "renamed.tfrecord", [build_example(features)]))


# layout -> (maker, coordinate keys or the TFDS bbox key, the class key, in pixels)
LAYOUTS = {
    "tfds": (_tfds_by_convert, "objects/bbox", "objects/label", False),
    "pixels": (_pixels_int64, {s: f"bbox/{s}" for s in RENAMED}, "object/label", True),
    "renamed": (_renamed, RENAMED, "kind", False),
}


def _read(payload: bytes, layout: str) -> tuple[list[tuple[float, ...]], list[int]]:
    """TensorFlow's reading of the record's boxes, in pixels, and their classes."""
    _, coords, label_key, pixels = LAYOUTS[layout]
    t = tf()
    kind = t.int64 if pixels else t.float32
    if isinstance(coords, str):
        spec = {coords: t.io.VarLenFeature(t.float32)}
    else:
        spec = {key: t.io.VarLenFeature(kind) for key in coords.values()}
    spec[label_key] = t.io.VarLenFeature(t.int64)
    parsed = {
        k: v.values.numpy().tolist() for k, v in t.io.parse_single_example(payload, spec).items()
    }
    if isinstance(coords, str):
        rows = np.asarray(parsed[coords]).reshape(-1, 4)  # ymin, xmin, ymax, xmax
        boxes = [(r[1] * W, r[0] * H, r[3] * W, r[2] * H) for r in rows]
    else:
        scale = (1, 1, 1, 1) if pixels else (W, H, W, H)
        columns = [parsed[coords[s]] for s in ("xmin", "ymin", "xmax", "ymax")]
        assert len({len(c) for c in columns}) == 1
        boxes = [
            tuple(v * f for v, f in zip(b, scale, strict=True)) for b in zip(*columns, strict=True)
        ]
    return boxes, parsed[label_key]


def _screen(viewer, x: float, y: float):
    """A point of the picture, in pixels, on the screen."""
    sx, sy = viewer.picker.scale
    normal = viewer.picker.boxes and all(
        v <= 2 for b in viewer.picker.boxes for v in (b.xmax, b.ymax)
    )
    fx, fy = (x / W, y / H) if normal else (x, y)
    return viewer.view.mapFromScene(QPointF(fx * sx, fy * sy))


def _name_keys(qtbot, window) -> None:
    """View › Layout Keys…: each key chosen from the record's keys, then OK."""
    window.menus.action("view.layout_keys").trigger()
    dialog = window.layout_keys.last_dialog
    qtbot.waitUntil(dialog.isVisible)
    assert "0 boxes" in dialog.result_line.text()  # none under guessed names
    image = dialog.fields["image"]
    image.setCurrentIndex(image.findText("photo"))
    for side, key in RENAMED.items():
        box = dialog.fields[side]
        assert box.findText(key) > 0, f"{key} is offered"
        box.setCurrentIndex(box.findText(key))
    dialog.fields["label"].setCurrentText("kind")
    dialog.fields["text"].setCurrentText("kind_name")
    assert "3 boxes, 3 with a class" in dialog.result_line.text()
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_boxes_are_edited_in_every_layout(qtbot, window, tmp_path, monkeypatch, layout):
    path = LAYOUTS[layout][0](tmp_path)
    open_and_wait(qtbot, window, [path])
    window.select_record(0)
    viewer = window.preview.images
    try:
        if layout == "renamed":
            assert viewer.picker.boxes == ()  # no guess finds them
            _name_keys(qtbot, window)
            window.menus.action("view.gallery").trigger()  # its tiles read the keys too
            thumbs = window.gallery.thumbs
            caption = lambda: thumbs.data(thumbs.index(0), Qt.ItemDataRole.DisplayRole)  # noqa: E731
            qtbot.waitUntil(lambda: "cat (1), dog (2)" in caption(), timeout=5000)
            window.menus.action("view.records").trigger()
        qtbot.waitUntil(lambda: len(viewer.picker.boxes) == 3, timeout=5000)
        original, labels = _read(tf_read(path)[0], layout)
        assert np.allclose(original, PIXEL_BOXES, atol=1e-4) and labels == LABELS

        # box 1: one pixel right; box 0: deleted
        qtbot.mouseClick(
            viewer.view.viewport(), Qt.MouseButton.LeftButton, pos=_screen(viewer, 40, 12)
        )
        assert viewer.picker.selected == 1
        qtbot.keyClick(viewer.view, Qt.Key.Key_Right)
        qtbot.keyClick(viewer.view, Qt.Key.Key_Backtab)
        assert viewer.picker.selected == 0
        qtbot.keyClick(viewer.view, Qt.Key.Key_Delete)

        # B and a drag: a new box of a class typed as "2 dog"
        monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *a: ("2 dog", True)))
        qtbot.keyClick(viewer.view, Qt.Key.Key_B)
        drag(qtbot, viewer, _screen(viewer, 2, 36), _screen(viewer, 12, 46))

        out = exported(qtbot, window, tmp_path / "fixed.tfrecord")
        boxes, labels = _read(tf_read(out)[0], layout)
        assert labels == [2, 1, 2]
        moved = tuple(v + d for v, d in zip(PIXEL_BOXES[1], (1, 0, 1, 0), strict=True))
        assert np.allclose(boxes[0], moved, atol=1e-4)
        assert np.allclose(boxes[1], PIXEL_BOXES[2], atol=1e-4)
        zoom = viewer.view.transform().m11()
        assert np.allclose(boxes[2], (2, 36, 12, 46), atol=1.5 / zoom + 0.5), boxes[2]
    finally:
        window.layout_keys.set_keymap(KeyMap())  # the next test starts with guesses
