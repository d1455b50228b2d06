"""Make the README's box-fixing picture: a detection record with one box being dragged
to where it belongs (shown dashed), another chosen, and Pending Edits saying what
changed. ``python tests/tools/box_screenshot.py OUT``"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main(out: str) -> None:
    from PySide6.QtCore import QEvent, QEventLoop, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    from tfr_viewer.ui.main_window import MainWindow

    app = QApplication([])
    w = MainWindow()
    w.edit_actions.discard_answer = True  # nobody is there to answer
    w.remember_geometry = False
    w.resize(1366, 768)
    w.show()
    loop = QEventLoop()
    w.index_finished.connect(lambda _s: loop.quit())
    w.open_paths([str(ROOT / "resources" / "samples" / "shapes_odapi.tfrecord")])
    loop.exec()
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
        {"xmin": b.xmin - 0.03, "xmax": b.xmax - 0.03, "ymin": b.ymin, "ymax": b.ymax},
        images.keymap,
    )
    w.pending_dock.show()
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
