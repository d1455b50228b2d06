"""Make the README's edit-and-export picture: a record with a fixed label, the filter,
and the export dialog, composed into one PNG. ``python tests/tools/edit_screenshot.py OUT``"""

from __future__ import annotations

import os
import sys

from picture_window import opened


def main(out: str) -> None:
    from PySide6.QtCore import QEventLoop, QPoint, QTimer
    from PySide6.QtGui import QPainter

    app, w = opened(["classes_tutorial.tfrecord"])
    w.select_record(5)
    w.edit_actions.edit_value("label", "2")
    w.filter_bar.edit.setText("label == 2")
    done = QEventLoop()
    w.filter_bar.rows_changed.connect(lambda _r: done.quit())
    w.filter_bar.apply()
    done.exec()
    w.select_record(5)
    w.show_record(5)
    dialog = w.edit_actions.exports.export_dialog()
    dialog.scope_group.button(2).setChecked(True)
    dialog.output.setText("/data/fixed/classes.tfrecord")
    dialog.compression.setCurrentText("gzip")
    dialog.shard_mode.setCurrentIndex(1)
    dialog.shards.setValue(4)
    dialog.update_preview()
    dialog.resize(720, 520)

    def shoot() -> None:  # before the app quits, which closes the window and its panes
        picture = w.grab()
        painter = QPainter(picture)
        painter.drawPixmap(QPoint(picture.width() - 760, 120), dialog.grab())
        painter.end()
        picture.save(out, "PNG")
        app.quit()

    QTimer.singleShot(300, shoot)
    app.exec()
    w.edit_actions.discard_answer = True
    w.close()
    os._exit(0)  # skip interpreter teardown of Qt objects owned by a finished app


if __name__ == "__main__":
    main(sys.argv[1])
