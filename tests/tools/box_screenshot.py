"""Make the README's box-fixing picture: a detection record with one box being dragged
to where it belongs (shown dashed), another chosen, and Pending Edits saying what
changed. ``python tests/tools/box_screenshot.py OUT``"""

from __future__ import annotations

import sys

from picture_window import opened


def main(out: str) -> None:
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    from tfr_viewer.core.decode.layouts import Box

    app, w = opened(["shapes_odapi.tfrecord"], (1366, 768))
    w.select_record(5)
    app.processEvents()
    images = w.preview.images
    picker = images.picker
    sx, sy = picker.scale
    # box 1 deleted with Del, box 0 moved by the keys, then box 2 being dragged
    picker.select(1)
    w.edit_actions.edit_box("delete", 1, None, images.keymap)
    picker.select(0)
    b = picker.boxes[0]
    w.edit_actions.edit_box(
        "move",
        0,
        Box(b.xmin - 0.03, b.ymin, b.xmax - 0.03, b.ymax),
        images.keymap,
    )
    w.edit_actions.pending_dock.show()
    app.processEvents()
    b = picker.boxes[1]
    start = images.view.mapFromScene(
        QPointF((b.xmin + b.xmax) / 2 * sx, (b.ymin + b.ymax) / 2 * sy)
    )
    port = images.view.viewport()
    for kind, at in (
        (QEvent.Type.MouseButtonPress, start),
        (QEvent.Type.MouseMove, start + QPointF(40, -25).toPoint()),
    ):
        event = QMouseEvent(
            kind,
            QPointF(at),
            QPointF(at),
            Qt.MouseButton.LeftButton,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        QApplication.sendEvent(port, event)
    for _ in range(20):
        app.processEvents()
    w.grab().save(out)
    w.close()


if __name__ == "__main__":
    main(sys.argv[1])
