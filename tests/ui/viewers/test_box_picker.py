"""Fixing a box in the picture, as a user does: click it, nudge it with the arrows,
delete it with Del, undo; every change is an edit of the overlay, said in Pending
Edits in words of boxes, and TensorFlow reads the exported record with the new boxes."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt

from tests.tf_oracle import tf, tf_read
from tests.ui.conftest import open_and_wait

KEYS = ["xmin", "ymin", "xmax", "ymax"]
BOX = "image/object/bbox/"


def _boxes(payload: bytes) -> dict[str, list]:
    t = tf()
    spec = {BOX + k: t.io.VarLenFeature(t.float32) for k in KEYS}
    spec["image/object/class/text"] = t.io.VarLenFeature(t.string)
    parsed = t.io.parse_single_example(payload, spec)
    return {k: v.values.numpy().tolist() for k, v in parsed.items()}


def _click_box(qtbot, viewer, box: int) -> None:
    """A click at the middle of box ``box`` as it is drawn."""
    b = viewer.picker.boxes[box]
    sx, sy = viewer.picker.scale
    centre = QPointF((b.xmin + b.xmax) / 2 * sx, (b.ymin + b.ymax) / 2 * sy)
    at = viewer.view.mapFromScene(centre)
    qtbot.mouseClick(viewer.view.viewport(), Qt.MouseButton.LeftButton, pos=at)


def test_a_box_is_chosen_nudged_and_deleted_in_the_picture(qtbot, window, samples, tmp_path):
    path = samples / "shapes_odapi.tfrecord"
    open_and_wait(qtbot, window, [path])
    window.select_record(5)  # three boxes: triangle, circle, triangle
    viewer = window.preview.images
    qtbot.waitUntil(lambda: len(viewer.picker.boxes) == 3, timeout=5000)
    original = tf_read(path)[5]
    width, height = viewer.picker.scale

    _click_box(qtbot, viewer, 1)
    assert viewer.picker.selected == 1
    assert viewer.info.text().startswith("box 1 of 3: circle")
    qtbot.keyClick(viewer.view, Qt.Key.Key_Tab)
    assert viewer.picker.selected == 2
    qtbot.keyClick(viewer.view, Qt.Key.Key_Backtab)
    assert viewer.picker.selected == 1

    # one pixel right, ten down with Shift: the record's fractions move by as much
    qtbot.keyClick(viewer.view, Qt.Key.Key_Right)
    qtbot.keyClick(viewer.view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    assert viewer.picker.selected == 1  # still chosen after the edits
    before, after = _boxes(original), _boxes(window.edit_actions.payload(5))
    f32 = np.float32
    assert after[BOX + "xmin"][1] == float(f32(before[BOX + "xmin"][1] + 1 / width))
    assert after[BOX + "ymax"][1] == float(f32(before[BOX + "ymax"][1] + 10 / height))
    assert after[BOX + "xmin"][0] == before[BOX + "xmin"][0]  # the others stay

    # Del deletes the box, not the record (Edit › Delete Records is Del too)
    qtbot.keyClick(viewer.view, Qt.Key.Key_Delete)
    after = _boxes(window.edit_actions.payload(5))
    assert after["image/object/class/text"] == [b"triangle", b"triangle"]
    assert all(len(after[BOX + k]) == 2 for k in KEYS)
    assert not window.edit_actions.is_deleted(5)
    window.menus.action("panel.pending-edits").trigger()
    assert window.edit_actions.pending.list.topLevelItem(0).text(1) == "box 1 (circle): deleted"

    # undo the deletion, then export: TensorFlow reads the moved box
    window.edit_actions.stack.undo()
    assert len(_boxes(window.edit_actions.payload(5))[BOX + "xmin"]) == 3
    written = tf_read(exported(qtbot, window, tmp_path / "fixed.tfrecord"))
    assert len(written) == 24
    read_back = _boxes(written[5])
    assert read_back[BOX + "xmin"][1] == float(f32(before[BOX + "xmin"][1] + 1 / width))
    assert _boxes(written[4]) == _boxes(tf_read(path)[4])


def test_a_click_beside_every_box_chooses_none(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(5)
    viewer = window.preview.images
    qtbot.waitUntil(lambda: len(viewer.picker.boxes) == 3, timeout=5000)
    _click_box(qtbot, viewer, 0)
    assert viewer.picker.selected == 0
    corner = viewer.view.mapFromScene(QPointF(1, 1))  # the image's top left pixel
    qtbot.mouseClick(viewer.view.viewport(), Qt.MouseButton.LeftButton, pos=corner)
    assert viewer.picker.selected is None
    qtbot.keyClick(viewer.view, Qt.Key.Key_Delete)  # nothing chosen: the record's Del
    assert len(viewer.picker.boxes) == 3


def exported(qtbot, window, out):
    """File › Export… of every record, with its edits, to ``out``, as a user runs it."""
    window.menus.action("file.export").trigger()
    dialog = window.edit_actions.exports.last_dialog
    dialog.output.setText(str(out))
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=30_000)
    return out


def drag(qtbot, viewer, start, end) -> None:
    """A press at ``start``, a move to ``end`` and the release there, on the picture."""
    port = viewer.view.viewport()
    qtbot.mousePress(port, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(port, end)
    qtbot.mouseRelease(port, Qt.MouseButton.LeftButton, pos=end)


def _screen(viewer, x: float, y: float):
    """A point of the picture (the record's convention) on the screen."""
    sx, sy = viewer.picker.scale
    return viewer.view.mapFromScene(QPointF(x * sx, y * sy))


def test_dragging_a_box_moves_it_and_dragging_a_corner_resizes_it(qtbot, window, samples):
    import pytest
    from PySide6.QtCore import QPoint

    path = samples / "shapes_odapi.tfrecord"
    open_and_wait(qtbot, window, [path])
    window.select_record(5)
    viewer = window.preview.images
    qtbot.waitUntil(lambda: len(viewer.picker.boxes) == 3, timeout=5000)
    port = viewer.view.viewport()
    zoom = viewer.view.transform().m11()  # screen pixels per image pixel
    width, height = viewer.picker.scale
    before = _boxes(tf_read(path)[5])

    b = viewer.picker.boxes[0]
    start = _screen(viewer, (b.xmin + b.xmax) / 2, (b.ymin + b.ymax) / 2)
    end = start + QPoint(30, 12)
    qtbot.mousePress(port, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(port, end)
    assert viewer.picker._ghost is not None  # the box shows where it will go
    qtbot.mouseRelease(port, Qt.MouseButton.LeftButton, pos=end)
    moved = _boxes(window.edit_actions.payload(5))
    for key, shift, size in (("xmin", 30, width), ("xmax", 30, width), ("ymin", 12, height)):
        want = before[BOX + key][0] + shift / zoom / size
        assert moved[BOX + key][0] == pytest.approx(want, abs=1e-5), key
    assert moved[BOX + "xmin"][1:] == before[BOX + "xmin"][1:]
    assert viewer.picker.selected == 0

    # the bottom-right corner of the chosen box, dragged out
    b = viewer.picker.boxes[0]
    corner = _screen(viewer, b.xmax, b.ymax)
    qtbot.mousePress(port, Qt.MouseButton.LeftButton, pos=corner)
    qtbot.mouseMove(port, corner + QPoint(16, 9))
    qtbot.mouseRelease(port, Qt.MouseButton.LeftButton, pos=corner + QPoint(16, 9))
    resized = _boxes(window.edit_actions.payload(5))
    assert resized[BOX + "xmin"][0] == moved[BOX + "xmin"][0]
    assert resized[BOX + "ymin"][0] == moved[BOX + "ymin"][0]
    assert resized[BOX + "xmax"][0] == pytest.approx(
        moved[BOX + "xmax"][0] + 16 / zoom / width, abs=1e-5
    )
    assert resized[BOX + "ymax"][0] == pytest.approx(
        moved[BOX + "ymax"][0] + 9 / zoom / height, abs=1e-5
    )
    # two edits on the undo stack, in words of boxes
    assert window.edit_actions.stack.count() == 2
    assert window.edit_actions.stack.text(0) == "Move box 0 of record 5"

    # a click on a box is no drag: nothing changes
    b = viewer.picker.boxes[2]
    qtbot.mouseClick(
        port,
        Qt.MouseButton.LeftButton,
        pos=_screen(viewer, (b.xmin + b.xmax) / 2, (b.ymin + b.ymax) / 2),
    )
    assert viewer.picker.selected == 2 and window.edit_actions.stack.count() == 2


def test_c_changes_a_class_and_b_draws_a_new_box(qtbot, window, samples, monkeypatch):
    import pytest
    from PySide6.QtWidgets import QInputDialog

    path = samples / "shapes_odapi.tfrecord"
    open_and_wait(qtbot, window, [path])
    window.select_record(5)
    viewer = window.preview.images
    qtbot.waitUntil(lambda: len(viewer.picker.boxes) == 3, timeout=5000)
    offered: list[list[str]] = []

    chosen_at: list[int] = []

    def answer(reply):
        def get_item(parent, title, label, items, current, editable):
            offered.append(list(items))
            chosen_at.append(current)
            return reply, True

        monkeypatch.setattr(QInputDialog, "getItem", staticmethod(get_item))

    triangle = next(i for i, b in enumerate(viewer.picker.boxes) if b.text == "triangle")
    _click_box(qtbot, viewer, triangle)
    answer("3 triangle")  # Enter on what is offered first: the box's own class
    qtbot.keyClick(viewer.view, Qt.Key.Key_C)
    assert offered[-1][chosen_at[-1]] == "3 triangle"  # not the lowest id, 1 circle
    _click_box(qtbot, viewer, 1)  # the circle
    answer("3 triangle")
    qtbot.keyClick(viewer.view, Qt.Key.Key_C)
    assert offered[-1] == ["1 circle", "2 square", "3 triangle"]  # every class it knows
    assert offered[-1][chosen_at[-1]] == "1 circle"
    t = tf()
    spec = {"image/object/class/label": t.io.VarLenFeature(t.int64)}

    def labels():
        parsed = t.io.parse_single_example(window.edit_actions.payload(5), spec)
        return parsed["image/object/class/label"].values.numpy().tolist()

    assert _boxes(window.edit_actions.payload(5))["image/object/class/text"][1] == b"triangle"
    assert labels()[1] == 3

    # B, then a drag over an empty corner of the picture: a new box, of a typed class
    answer("7 dog")
    qtbot.keyClick(viewer.view, Qt.Key.Key_B)
    drag(qtbot, viewer, _screen(viewer, 0.05, 0.05), _screen(viewer, 0.2, 0.25))
    after = _boxes(window.edit_actions.payload(5))
    assert after["image/object/class/text"] == [b"triangle", b"triangle", b"triangle", b"dog"]
    assert labels()[-1] == 7
    zoom = viewer.view.transform().m11()
    tolerance = 1.5 / zoom / min(viewer.picker.scale)  # a screen pixel, as a fraction
    for key, want in zip(KEYS, (0.05, 0.05, 0.2, 0.25), strict=True):
        assert after[BOX + key][-1] == pytest.approx(want, abs=tolerance), key
    window.menus.action("panel.pending-edits").trigger()
    # the record's change against the file, in words of boxes
    assert window.edit_actions.pending.list.topLevelItem(0).text(1) == (
        "box 1: circle → triangle; box 3: added, dog"
    )


def test_typed_classes_are_read_with_what_is_known():
    from tfr_viewer.ui.dialogs.class_choice import class_texts, parse_class

    known = [(1, "circle"), (2, "square"), (None, "cat"), (2, "square")]
    assert class_texts(known) == ["1 circle", "2 square", "cat"]
    assert parse_class("7 dog", known) == (7, "dog")
    assert parse_class("2", known) == (2, "square")
    assert parse_class("square", known) == (2, "square")
    assert parse_class("zebra", known) == (None, "zebra")
    assert parse_class("  ", known) is None


def test_boxes_whose_lists_disagree_are_edited_only_after_the_user_agrees(
    qtbot, window, tmp_path, monkeypatch
):
    import io as _io

    from PIL import Image
    from PySide6.QtWidgets import QMessageBox

    from tests.tf_oracle import tf_write
    from tfr_viewer.core.write.build import build_example

    picture = _io.BytesIO()
    Image.new("RGB", (64, 48), "white").save(picture, "PNG")
    record = build_example(
        {
            "image/encoded": [picture.getvalue()],
            BOX + "xmin": [0.1, 0.5],
            BOX + "ymin": [0.1, 0.5],
            BOX + "xmax": [0.3, 0.7],
            BOX + "ymax": [0.3, 0.7],
            "image/object/class/text": [b"only one"],  # two boxes, one text
        }
    )
    path = tf_write(tmp_path / "odd.tfrecord", [record])
    open_and_wait(qtbot, window, [path])
    viewer = window.preview.images
    qtbot.waitUntil(lambda: len(viewer.picker.boxes) == 2, timeout=5000)
    asked: list[str] = []
    reply = [QMessageBox.StandardButton.No]

    def question(parent, title, text, *args):
        asked.append(text)
        return reply[0]

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    _click_box(qtbot, viewer, 1)
    qtbot.keyClick(viewer.view, Qt.Key.Key_Delete)
    assert asked and "image/object/class/text (1)" in asked[0]
    assert not window.edit_actions.dirty()  # told, and declined: nothing changed
    reply[0] = QMessageBox.StandardButton.Yes
    qtbot.keyClick(viewer.view, Qt.Key.Key_Delete)
    after = _boxes(window.edit_actions.payload(0))
    assert after[BOX + "xmin"] == [float(np.float32(0.1))]
    assert after["image/object/class/text"] == [b"only one"]  # index 1 held nothing


def test_choosing_and_nudging_a_box_does_not_decode_the_picture_again(
    qtbot, window, samples, monkeypatch
):
    from tfr_viewer.ui.viewers import image_view

    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(5)
    viewer = window.preview.images
    qtbot.waitUntil(lambda: len(viewer.picker.boxes) == 3, timeout=5000)
    decoded = []
    real = image_view.decode_preview
    monkeypatch.setattr(image_view, "decode_preview", lambda d: decoded.append(1) or real(d))
    _click_box(qtbot, viewer, 1)
    qtbot.keyClick(viewer.view, Qt.Key.Key_Tab)
    assert viewer.picker.selected == 2 and decoded == []
    window.select_record(6)  # another picture is decoded
    assert decoded == [1]
