"""Editing in the window: values, refusals, undo/redo, delete, export dialog, recover."""

from __future__ import annotations

from tests.tf_oracle import tf, tf_read
from tests.ui.conftest import open_and_wait


def label_of(payload: bytes) -> int:
    return tf().train.Example.FromString(payload).features.feature["label"].int64_list.value[0]


def test_edit_undo_redo_and_marks(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(2)
    original = window.dataset.read(2)
    actions = window.edit_actions
    assert actions.edit_value("label", "9")
    assert label_of(actions.payload(2)) == 9
    assert window.model.data(window.model.index(2, 0)) == "✎ 2"
    assert window.isWindowModified()
    assert not actions.edit_value("label", "1.5")
    assert "not a whole number" in window.statusBar().currentMessage()
    actions.stack.undo()
    assert actions.payload(2) == original
    actions.stack.redo()
    assert label_of(actions.payload(2)) == 9
    assert actions.stack.undoText() == "Set label of record 2"


def test_set_on_selection_delete_and_export(qtbot, window, samples, tmp_path):
    import hashlib

    source = samples / "classes_tutorial.tfrecord"
    before = hashlib.sha256(source.read_bytes()).hexdigest()
    open_and_wait(qtbot, window, [source])
    window.table.selectRow(3)
    window.table.selectionModel().select(
        window.model.index(4, 0),
        window.table.selectionModel().SelectionFlag.Select
        | window.table.selectionModel().SelectionFlag.Rows,
    )
    window.select_record(3)
    window.table.selectionModel().select(
        window.model.index(4, 0),
        window.table.selectionModel().SelectionFlag.Select
        | window.table.selectionModel().SelectionFlag.Rows,
    )
    assert window.edit_actions.set_on_selection("label", "7")
    assert label_of(window.edit_actions.payload(3)) == 7
    assert label_of(window.edit_actions.payload(4)) == 7
    window.table.selectRow(0)
    assert window.edit_actions.delete(restore=False) == 1
    assert window.model.data(window.model.index(0, 0)) == "✗ 0"
    dialog = window.edit_actions.exports.export_dialog()
    out = tmp_path / "edited.tfrecord"
    dialog.output.setText(str(out))
    assert "edited.tfrecord  (29 records)" in dialog.preview.toPlainText()
    dialog.start()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=30_000)
    got = tf_read(out)
    assert len(got) == 29
    assert label_of(got[2]) == 7 and label_of(got[3]) == 7  # records 3 and 4
    original = [window.dataset.read(i) for i in range(1, 30)]
    assert got[0] == original[0]  # unedited records are copied byte for byte
    assert hashlib.sha256(source.read_bytes()).hexdigest() == before


def test_unsaved_edits_are_asked_about(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(0)
    window.edit_actions.edit_value("label", "2")
    window.edit_actions.discard_answer = False
    assert not window.open_paths([str(samples / "sequences.tfrecord")])
    assert window.dataset.files[0].path.endswith("classes_tutorial.tfrecord")
    window.edit_actions.discard_answer = True
    open_and_wait(qtbot, window, [samples / "sequences.tfrecord"])
    assert not window.edit_actions.dirty()


def test_save_intact_records(qtbot, window, tmp_path):
    from tfr_viewer.core.io.framing import encode_frame

    frames = [encode_frame(f"r{i}".encode()) for i in range(10)]
    bad = bytearray(frames[6])
    bad[13] ^= 1
    frames[6] = bytes(bad)
    src = tmp_path / "d.tfrecord"
    src.write_bytes(b"".join(frames))
    open_and_wait(qtbot, window, [src])
    out = tmp_path / "intact.tfrecord"
    assert window.edit_actions.exports.save_intact(str(out))
    assert tf_read(out) == [f"r{i}".encode() for i in range(10) if i != 6]


def test_export_rows_as_jsonl_with_edits(qtbot, window, samples, tmp_path):
    import json

    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(1)
    window.edit_actions.edit_value("label", "8")
    out = tmp_path / "rows.jsonl"
    task = window.edit_actions.exports.export_as("jsonl", str(out))
    with qtbot.waitSignal(task.ended, timeout=30_000):
        pass
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 30
    assert rows[1]["features"]["label"]["values"] == [8]


def test_fix_a_label_then_export_the_filtered_subset_as_4_gzip_shards(
    qtbot, window, samples, tmp_path
):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(5)
    assert window.edit_actions.edit_value("label", "2")
    window.filter_bar.edit.setText("label == 2")
    with qtbot.waitSignal(window.filter_bar.rows_changed, timeout=10_000):
        window.filter_bar.apply()
    dialog = window.edit_actions.exports.export_dialog()
    dialog.scope_group.button(2).setChecked(True)  # the filtered rows
    dialog.output.setText(str(tmp_path / "fixed.tfrecord"))
    dialog.compression.setCurrentText("gzip")
    dialog.shard_mode.setCurrentIndex(1)
    dialog.shards.setValue(4)
    dialog.update_preview()
    assert "fixed.tfrecord-00003-of-00004" in dialog.preview.toPlainText()
    dialog.start()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=30_000)
    shards = [str(tmp_path / f"fixed.tfrecord-{k:05d}-of-00004") for k in range(4)]
    records = tf_read(shards, "gzip")
    rows = [window.model.record_at(r) for r in range(window.model.rowCount())]
    assert len(records) == len(rows) and 5 in rows
    assert all(label_of(r) == 2 for r in records)


def test_edit_in_the_feature_tree(qtbot, window, samples):
    from PySide6.QtCore import QModelIndex, Qt

    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(3)
    model = window.tree_model
    row = next(r for r in range(model.rowCount()) if model.data(model.index(r, 0)) == "label")
    cell = model.index(row, 3, QModelIndex())
    assert model.flags(cell) & Qt.ItemFlag.ItemIsEditable
    assert not model.flags(model.index(row, 0)) & Qt.ItemFlag.ItemIsEditable
    assert model.setData(cell, "11")
    assert label_of(window.edit_actions.payload(3)) == 11
    row = next(r for r in range(model.rowCount()) if model.data(model.index(r, 0)) == "label")
    assert model.data(model.index(row, 3)) == "11"


def _action(menu, text):
    from PySide6.QtWidgets import QMenu

    for action in menu.actions():
        if action.text().replace("&", "") == text:
            return action
        if action.menu() is not None and isinstance(action.menu(), QMenu):
            found = _action(action.menu(), text)
            if found is not None:
                return found
    return None


def _export_through_the_dialog(qtbot, window, scope: str, out) -> None:
    _action(window.file_menu, "Export…").trigger()
    dialog = window.edit_actions.exports.last_dialog
    from tfr_viewer.ui.dialogs.export_dialog import SCOPES

    dialog.scope_group.button(SCOPES.index(scope)).click()
    dialog.output.setText(str(out))
    dialog.run_button.click()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=30_000)
    dialog.close()


def test_deletions_are_unsaved_until_a_whole_export_leaves_them_out(
    qtbot, window, samples, tmp_path
):
    """Deleting rows marks the window modified; exporting only the selected row keeps
    the mark and the discard question; a whole export that leaves them out clears it."""
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    table = window.table
    flags = table.selectionModel().SelectionFlag
    table.selectRow(1)
    for row in range(2, 6):
        table.selectionModel().select(window.model.index(row, 0), flags.Select | flags.Rows)
    _action(window.edit_menu, "Delete Records").trigger()
    assert window.session.workspace.edits.deleted_records() == [1, 2, 3, 4, 5]
    assert window.isWindowModified()
    table.selectRow(8)
    _export_through_the_dialog(qtbot, window, "selected", tmp_path / "one.tfrecord")
    assert len(tf_read(tmp_path / "one.tfrecord")) == 1
    assert window.isWindowModified()  # the deletions were not applied by that export
    window.edit_actions.discard_answer = False  # the question comes, and is refused
    assert not window.open_paths([str(samples / "sequences.tfrecord")])
    assert not window.close()
    assert window.dataset.files[0].path.endswith("classes_tutorial.tfrecord")
    _export_through_the_dialog(qtbot, window, "all", tmp_path / "all.tfrecord")
    assert len(tf_read(tmp_path / "all.tfrecord")) == 25
    assert not window.isWindowModified()
    assert window.open_paths([str(samples / "sequences.tfrecord")])  # asks nothing now


def test_an_edit_left_out_of_the_export_stays_unsaved(qtbot, window, samples, tmp_path):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(2)
    window.edit_actions.edit_value("label", "9")
    window.table.selectRow(7)
    _export_through_the_dialog(qtbot, window, "selected", tmp_path / "one.tfrecord")
    assert window.isWindowModified()
    _export_through_the_dialog(qtbot, window, "edited", tmp_path / "edited.tfrecord")
    assert not window.isWindowModified()


def test_a_file_cut_short_while_open_keeps_the_window_and_its_edits(
    qtbot, window, samples, tmp_path
):
    """The open file is truncated behind the window's back: choosing a record past
    the new end says what happened in the status bar; the edits stay pending."""
    import shutil

    source = tmp_path / "shrinking.tfrecord"
    shutil.copyfile(samples / "classes_tutorial.tfrecord", source)
    open_and_wait(qtbot, window, [source])
    window.select_record(2)
    assert window.edit_actions.edit_value("label", "9")
    size = source.stat().st_size
    with open(source, "r+b") as f:
        f.truncate(size // 2)
    window.select_record(24)
    message = window.statusBar().currentMessage()
    assert message.startswith("record 24:"), message
    assert "changed while it was being read" in message
    assert window.isWindowModified()
    assert label_of(window.edit_actions.payload(2)) == 9
    window.select_record(1)  # a record still inside the file is shown again
    assert window.current == 1
    assert window.tree_model.rowCount() > 0


def test_one_value_of_a_list_is_edited_where_it_is_shown(qtbot, window, tmp_path):
    """Double-click a value of a list in the tree, type, Enter: that value alone
    changes (TensorFlow reads the rest as they were); a list's editor shows floats as
    the tree does (0.1, not 0.10000000149011612)."""
    from PySide6.QtCore import QModelIndex, Qt
    from PySide6.QtWidgets import QApplication, QLineEdit

    from tests.tf_oracle import tf
    from tfr_viewer.core.io import write_records
    from tfr_viewer.core.write import build_example

    path = tmp_path / "lists.tfrecord"
    write_records(path, [build_example({"scores": [0.1, 0.2, 0.3], "names": [b"a", b"b"]})])
    open_and_wait(qtbot, window, [path])
    window.select_record(0)
    model, tree = window.tree_model, window.tree
    row = next(r for r in range(model.rowCount()) if model.data(model.index(r, 0)) == "scores")
    scores = model.index(row, 0, QModelIndex())
    tree.expand(scores)
    value = model.index(1, 3, scores)  # [1]
    assert model.data(model.index(1, 0, scores)) == "[1]"
    assert window.edit_actions._current_values("scores") == ("float", "0.1, 0.2, 0.3")
    tree.scrollTo(value)
    qtbot.mouseClick(
        tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(value).center()
    )
    qtbot.mouseDClick(
        tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(value).center()
    )
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit) and editor.text() == "0.2"
    editor.selectAll()
    qtbot.keyClicks(editor, "0.25")
    tree.commitData(editor)  # what the delegate does on Enter (offscreen, the key is lost)
    assert window.edit_actions.stack.count() == 1
    t = tf()
    parsed = t.io.parse_single_example(
        window.edit_actions.payload(0),
        {"scores": t.io.VarLenFeature(t.float32), "names": t.io.VarLenFeature(t.string)},
    )
    assert parsed["scores"].values.numpy().tolist() == [
        t.constant(v, t.float32).numpy() for v in (0.1, 0.25, 0.3)
    ]
    assert parsed["names"].values.numpy().tolist() == [b"a", b"b"]
