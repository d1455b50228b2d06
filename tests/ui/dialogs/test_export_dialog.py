"""File › Export… as a user meets it: with a filter applied, the filtered rows are
chosen at first, and the proposed output lies beside the dataset's folder, so that
opening the folder again does not read the export as one more shard."""

from __future__ import annotations

import shutil

from PySide6.QtCore import Qt

from tests.tf_oracle import tf, tf_read
from tests.ui.conftest import open_and_wait


def _labels(path) -> list[int]:
    t = tf()
    spec = {"label": t.io.FixedLenFeature([], t.int64)}
    return [int(t.io.parse_single_example(r, spec)["label"]) for r in tf_read(path)]


def test_export_chooses_the_filtered_rows_and_writes_beside_the_folder(
    qtbot, window, samples, tmp_path
):
    folder = tmp_path / "shards"
    folder.mkdir()
    shutil.copy(samples / "classes_tutorial.tfrecord", folder / "train-00000-of-00001")
    open_and_wait(qtbot, window, [folder])
    window.menus.action("file.export").trigger()
    dialog = window.edit_actions.exports.last_dialog
    assert dialog.scope_group.checkedButton().text().startswith("all (")
    dialog.close()

    edit = window.filter_bar.edit
    edit.setFocus()
    qtbot.keyClicks(edit, "label == 1")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    ones = _labels(folder / "train-00000-of-00001").count(1)
    qtbot.waitUntil(lambda: window.model.rowCount() == ones, timeout=10_000)
    window.menus.action("file.export").trigger()  # Ctrl+E
    dialog = window.edit_actions.exports.last_dialog
    assert dialog.scope_group.checkedButton().text() == f"filtered ({ones:,})"
    out = dialog.output.text()
    assert out == str(tmp_path / "shards-export.tfrecord")
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=30_000)
    assert _labels(out) == [1] * ones  # TensorFlow reads the filtered records back
    qtbot.waitUntil(lambda: dialog.task is None, timeout=10_000)
    assert dialog.status.text().startswith(f"{ones} record")  # the run's result line
    dialog.compression.setCurrentText("gzip")  # another setting: that line is not its
    assert dialog.status.text() == ""
    open_and_wait(qtbot, window, [folder])  # the folder again: still one shard
    assert len(window.dataset.files) == 1
