"""Editing a whole list with F2: a wide, wrapping editor that counts the values as they
are typed, refuses what cannot be stored, and applies on Ctrl+Enter."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QPushButton

from tests.tf_oracle import tf
from tests.ui.conftest import open_and_wait
from tests.ui.modal import when_shown


def _open_list(qtbot, window, tmp_path, scores):
    from tfr_viewer.core.io import write_records
    from tfr_viewer.core.write import build_example

    path = tmp_path / "lists.tfrecord"
    write_records(path, [build_example({"scores": scores, "label": [1]})])
    open_and_wait(qtbot, window, [path])
    window.select_record(0)
    model = window.tree_model
    row = next(r for r in range(model.rowCount()) if model.data(model.index(r, 0)) == "scores")
    window.tree.setCurrentIndex(model.index(row, 0, QModelIndex()))


def _when_shown(qtbot, act):
    from tfr_viewer.ui.dialogs.values_editor import ValuesEditor

    return when_shown(ValuesEditor, act)


def test_f2_edits_a_long_list_in_a_wide_editor(qtbot, window, tmp_path):
    window.resize(1366, 740)
    scores = [i / 7 for i in range(40)]
    _open_list(qtbot, window, tmp_path, scores)
    looked = {}

    def act(dialog):
        looked["width"] = dialog.width()
        looked["text"] = dialog.text()
        looked["count"] = dialog.count.text()
        editor = dialog.editor
        editor.selectAll()
        qtbot.keyClicks(editor, "0.5")
        qtbot.keyClick(editor, Qt.Key.Key_Return)  # a new line, one value a line
        qtbot.keyClicks(editor, "0.25, x")
        looked["refused"] = dialog.count.text()
        looked["ok_refused"] = dialog.ok.isEnabled()
        editor.textCursor().deletePreviousChar()
        qtbot.keyClicks(editor, "0.125")
        looked["counted"] = dialog.count.text()
        qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        looked["open"] = dialog.isVisible()
        if dialog.isVisible():
            looked["left"] = dialog.text()
            dialog.reject()

    shown = _when_shown(qtbot, act)
    window.menus.action("edit.value").trigger()  # F2
    assert shown and not isinstance(shown[-1], BaseException), shown
    assert not looked["open"], looked
    assert looked["width"] >= 0.6 * window.width() - 1 and looked["width"] >= 520
    assert looked["text"].startswith("0.0, 0.14285715, 0.2857143")  # as the tree shows them
    assert looked["count"] == "40 values"
    assert "not a number" in looked["refused"] and not looked["ok_refused"]
    assert looked["counted"] == "3 values"
    t = tf()
    parsed = t.io.parse_single_example(
        window.edit_actions.payload(0), {"scores": t.io.VarLenFeature(t.float32)}
    )
    assert parsed["scores"].values.numpy().tolist() == [0.5, 0.25, 0.125]
    assert window.edit_actions.stack.count() == 1


def test_cancel_changes_nothing(qtbot, window, tmp_path):
    _open_list(qtbot, window, tmp_path, [0.1, 0.2])

    def act(dialog):
        dialog.editor.setPlainText("9, 9, 9")
        next(b for b in dialog.findChildren(QPushButton) if b.text() == "Cancel").click()

    shown = _when_shown(qtbot, act)
    window.menus.action("edit.value").trigger()
    assert shown and not isinstance(shown[-1], BaseException), shown
    assert window.edit_actions.stack.count() == 0
    assert not window.edit_actions.dirty()
