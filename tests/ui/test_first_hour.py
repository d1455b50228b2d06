"""The first hour of a new user, through the user's path: menu actions, key presses,
clicks on the status bar and the header, and what the panes show afterwards."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFontMetrics, QGuiApplication
from PySide6.QtWidgets import QInputDialog, QMessageBox

from tests.ui.conftest import open_and_wait
from tests.ui.test_menus import all_actions
from tfr_viewer.core.io import STATUS_HELP
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.query.names import feature_column
from tfr_viewer.core.write import build_example
from tfr_viewer.ui import file_dialogs


def trigger(window, name: str) -> None:
    dict(all_actions(window))[name].trigger()


@pytest.fixture
def damaged(tmp_path):
    """12 records; record 5's payload is corrupt; 37 bytes of garbage before record 8."""
    frames = [encode_frame(build_example({"label": [i % 3]})) for i in range(12)]
    bad = bytearray(frames[5])
    bad[20] ^= 0x10
    frames[5] = bytes(bad)
    path = tmp_path / "damaged.tfrecord"
    path.write_bytes(b"".join(frames[:8]) + b"\x07" * 37 + b"".join(frames[8:]))
    return path


# -- 2: damage that belongs to no record --------------------------------------------
def test_garbage_has_a_row_only_damaged_shows_it_and_the_count_opens_the_list(
    qtbot, window, damaged
):
    open_and_wait(qtbot, window, [damaged])
    model = window.model
    assert model.rowCount() == 13  # 12 records and the garbage region, where it lies
    region = model.region_at(8)
    assert region is not None and region.kind == "garbage" and region.size == 37
    status = model.columns().index("status")
    assert model.data(model.index(8, status)) == "garbage"
    assert model.data(model.index(8, model.columns().index("length"))) == "37"
    assert STATUS_HELP["garbage"] in model.data(model.index(8, status), Qt.ItemDataRole.ToolTipRole)
    assert model.record_at(9) == 8
    tip = model.data(model.index(5, status), Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith(STATUS_HELP["bad_data_crc"])
    # "Only damaged" shows the damaged record and the region
    with qtbot.waitSignal(window.filter_bar.rows_changed):
        window.filter_bar.damaged.click()
    assert model.rowCount() == 2
    assert model.record_at(0) == 5 and model.region_at(1) is not None
    # the problem count in the status bar opens the list of problems
    assert window.status.problems_button.text() == "2 problems"
    qtbot.mouseClick(window.status.problems_button, Qt.MouseButton.LeftButton)
    dialog = window.navigator.problems_dialog
    assert dialog.isVisible() and dialog.table.rowCount() == 2
    cells = [dialog.table.item(1, c).text() for c in range(6)]
    assert cells[0] == "damaged.tfrecord" and cells[3] == "garbage"
    assert "37 bytes" in cells[4] and "Save Intact Records" in cells[5]
    # choosing the region (Enter on its line) selects its row
    dialog.table.setCurrentCell(1, 3)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Return)
    assert window.model.region_at(window.table.currentIndex().row()) == region
    assert window.preview.hex.data == b"\x07" * 37
    assert window.current is None
    assert window.tree_model.rowCount() == 4
    assert "1 of 12 match + 1 damaged region" == window.filter_bar.count.text()
    # clearing the filter keeps the region selected
    with qtbot.waitSignal(window.filter_bar.rows_changed):
        qtbot.keyClick(window.filter_bar.edit, Qt.Key.Key_Escape)
    assert window.model.rowCount() == 13
    assert window.model.region_at(window.table.currentIndex().row()) == region
    assert window.preview.hex.data == b"\x07" * 37


def test_a_corrupt_gzip_stream_has_a_row(qtbot, window, tmp_path):
    import gzip
    import os

    raw = b"".join(encode_frame(os.urandom(500)) for _ in range(40))
    data = bytearray(gzip.compress(raw))
    data[len(data) // 2 : len(data) // 2 + 32] = b"\x00" * 32
    path = tmp_path / "corrupt.tfrecord.gz"
    path.write_bytes(bytes(data))
    open_and_wait(qtbot, window, [path])
    regions = [window.model.region_at(r) for r in range(window.model.rowCount())]
    stream = [r for r in regions if r is not None and r.kind == "truncated"]
    assert len(stream) == 1 and "gzip" in stream[0].message
    assert stream[0].offset > 0  # the records before the damage are kept
    assert window.status.problems_button.isVisible()
    status = window.model.columns().index("status")
    row = regions.index(stream[0])
    assert window.model.data(window.model.index(row, status)) == "truncated"


# -- 3: columns wide enough for what they can hold, and remembered -----------------
def test_columns_fit_large_numbers_and_remember_user_widths(qtbot, window, tmp_path, samples):
    path = tmp_path / "many.tfrecord"
    frame = encode_frame(build_example({"label": [7], "name": [b"x" * 30]}))
    path.write_bytes(frame * 3000)
    open_and_wait(qtbot, window, [path])
    model, table = window.model, window.table
    metrics = QFontMetrics(table.font())
    last = model.rowCount() - 1
    for name in ("#", "offset", "length", "status"):
        col = model.columns().index(name)
        text = model.data(model.index(last, col))
        assert metrics.horizontalAdvance(text) + 12 < table.columnWidth(col), name
    assert metrics.horizontalAdvance("bad_length_crc") < table.columnWidth(
        model.columns().index("status")
    )
    # a width the user sets is kept for the next dataset
    offset = model.columns().index("offset")
    table.horizontalHeader().resizeSection(offset, 222)
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    assert window.table.columnWidth(window.model.columns().index("offset")) == 222
    trigger(window, "View › Reset Column Widths")
    assert window.table.columnWidth(window.model.columns().index("offset")) != 222


def test_tree_keys_are_not_clipped(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(3)
    tree, model = window.tree, window.tree_model
    metrics = QFontMetrics(tree.font())
    pending = [model.index(r, 0) for r in range(model.rowCount())]
    checked = 0
    while pending:
        index = pending.pop()
        if not tree.isExpanded(index.parent()) and index.parent().isValid():
            continue
        rect = tree.visualRect(index)
        text = model.data(index)
        assert rect.x() + metrics.horizontalAdvance(text) <= tree.columnWidth(0), text
        checked += 1
        pending += [model.index(r, 0, index) for r in range(model.rowCount(index))]
    assert checked > 5


# -- 4 and 13: the filter bar stays in step with what is shown -----------------------
def test_filter_resets_with_the_dataset_and_errors_point_at_the_mistake(
    qtbot, window, samples, damaged
):
    bar = window.filter_bar
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    bar.edit.setText("label == 1")
    with qtbot.waitSignal(bar.rows_changed):
        qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    bar.damaged.setChecked(False)
    assert "of 30 match" in bar.count.text()
    open_and_wait(qtbot, window, [damaged])
    assert bar.edit.text() == "" and not bar.damaged.isChecked() and bar.count.text() == ""
    assert window.model.rowCount() == 13
    # an error shows a caret under the mistake, in what the user typed
    bar.edit.setText("  label = 3")
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    text_line, caret_line = bar.problem.text().splitlines()[1:3]
    assert caret_line.index("^") == text_line.index("= 3")
    assert "error" in bar.count.text() and window.model.rowCount() == 13
    qtbot.keyClicks(bar.edit, "=")  # the next edit clears the old error
    assert bar.problem.isHidden()
    # clearing the text (the clear button) shows every row and drops the count
    bar.edit.setText("label == 2")
    with qtbot.waitSignal(bar.rows_changed):
        qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    assert window.model.rowCount() == 3  # 2, 8 and 11 (5 is damaged: no features)
    with qtbot.waitSignal(bar.rows_changed):
        bar.edit.clear()
    assert window.model.rowCount() == 13 and bar.count.text() == ""


def test_filters_that_cannot_match_are_warned_about(qtbot, window, samples):
    bar = window.filter_bar
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    bar.edit.setText("lable == 3")  # no record has it: refused, with the suggestion
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bar.count.text() == "error", timeout=30_000)
    assert "no record has a feature 'lable'" in bar.problem.text()
    assert 'did you mean `f["image/object/class/label"]`?' in bar.problem.text()
    bar.edit.setText('f["image/object/class/text"] == circle')  # a word meant as text
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: "no record has a feature 'circle'" in bar.problem.text(), timeout=30_000
    )
    assert 'quote it: f["image/object/class/text"] == "circle"' in bar.problem.text()
    bar.edit.setText("image/height > 100")
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "no record has a feature" in bar.problem.text(), timeout=30_000)
    assert 'is read as a division; a key with slashes goes in quotes: f["image/height"]' in (
        bar.problem.text()
    )
    bar.edit.setText("label == 1 && label == 2")
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    assert "write `and` / `or`" in bar.problem.text()
    completions = bar._keys.stringList()
    assert 'f["image/object/class/text"]' in completions
    qtbot.mouseClick(bar.help_button, Qt.MouseButton.LeftButton)
    from tfr_viewer.ui.dialogs.filter_help import FilterHelp

    helps = [w for w in window.findChildren(FilterHelp) if w.isVisible()]
    assert helps and "len(f[" in helps[0].text.toPlainText()


# -- 5: every pane shows the current record or nothing -------------------------------
def test_panes_never_show_a_record_that_is_gone(qtbot, window, samples, tmp_path):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(2)
    assert window.preview.images.info.text().startswith("image/encoded")
    empty = tmp_path / "empty.tfrecord"
    empty.write_bytes(b"")
    open_and_wait(qtbot, window, [empty])
    preview = window.preview
    assert window.tree_model.rowCount() == 0 and preview.hex.data == b""
    assert not preview.isTabEnabled(preview.indexOf(preview.images))
    assert preview.images.info.text() == "no image in this record"
    # a filter that hides the selected record clears the panes
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(0)
    label = window.model.data(
        window.model.index(0, window.model.columns().index(feature_column("label")))
    )
    window.filter_bar.edit.setText(f"label != {label}")
    with qtbot.waitSignal(window.filter_bar.rows_changed):
        qtbot.keyClick(window.filter_bar.edit, Qt.Key.Key_Return)
    # record 0 is gone from the rows: the panes show the first match, never record 0
    assert window.current == window.model.record_at(0) != 0
    # the status line of a selected record is settled once verification ends
    assert "unverified" not in window.statusBar().currentMessage()


def test_status_line_settles_after_verification(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "sequences.tfrecord"])
    window.select_record(1)
    assert window.statusBar().currentMessage().endswith(", ok")


# -- 6 and 7: edits are visible, reviewable and counted as saved once exported -------
def test_edited_and_deleted_rows_and_the_pending_edits_list(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    model = window.model
    window.select_record(2)
    assert window.edit_actions.edit_value("label", "9")
    window.table.selectRow(4)
    qtbot.keyClick(window.table, Qt.Key.Key_Delete)
    status = model.columns().index("status")
    assert model.data(model.index(2, 0), Qt.ItemDataRole.FontRole).italic()
    assert model.data(model.index(4, 0), Qt.ItemDataRole.FontRole).strikeOut()
    assert model.data(model.index(4, status)) == "deleted"
    assert model.data(model.index(2, status)) == "ok, edited"
    trigger(window, "View › Pending Edits")
    pending = window.edit_actions.pending
    assert window.edit_actions.pending_dock.isVisible()
    rows = [pending.list.topLevelItem(i) for i in range(pending.list.topLevelItemCount())]
    assert [r.text(0) for r in rows] == ["2", "4"]
    assert rows[0].text(1).startswith("label: [") and rows[0].text(1).endswith("→ [9]")
    assert rows[1].text(1) == "deleted"
    rows[0].setSelected(True)
    qtbot.mouseClick(pending.revert, Qt.MouseButton.LeftButton)
    assert not window.session.workspace.edits.is_edited(2)
    assert pending.list.topLevelItemCount() == 1
    window.edit_actions.stack.undo()  # the revert is undoable
    assert window.session.workspace.edits.is_edited(2)


def test_no_question_after_the_edits_were_exported(qtbot, window, samples, tmp_path, monkeypatch):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(1)
    window.edit_actions.edit_value("label", "2")
    window.edit_actions.discard_answer = None  # the real question from here on
    asked = []

    def answer(box):
        asked.append([b.text() for b in box.buttons()])
        return QMessageBox.StandardButton.Save  # "Export…"

    monkeypatch.setattr(QMessageBox, "exec", answer)
    assert not window.open_paths([str(samples / "sequences.tfrecord")])
    assert any("Export…" in texts for texts in asked[0:1])
    assert set(asked[0]) == {"Export…", "Discard", "Cancel"}
    dialog = window.edit_actions.exports.last_dialog
    assert dialog.isVisible()
    dialog.output.setText(str(tmp_path / "fixed.tfrecord"))
    dialog.start()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=30_000)
    assert not window.isWindowModified()
    asked.clear()
    open_and_wait(qtbot, window, [samples / "sequences.tfrecord"])
    assert asked == []


def test_export_asks_before_replacing_a_file(qtbot, window, samples, tmp_path, monkeypatch):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    out = tmp_path / "there.tfrecord"
    out.write_bytes(b"keep")
    questions = []
    monkeypatch.setattr(
        QMessageBox,
        "question",
        staticmethod(lambda *a, **k: questions.append(a[1]) or QMessageBox.StandardButton.No),
    )
    trigger(window, "File › Export…")
    dialog = window.edit_actions.exports.last_dialog
    dialog.output.setText(str(out))
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    assert questions == ["Replace files?"] and out.read_bytes() == b"keep"
    assert "nothing was written" in dialog.status.text()


# -- 8: go to, Ctrl+End, Ctrl+C ------------------------------------------------------
def test_goto_out_of_range_says_so_and_keys_work(qtbot, window, samples, monkeypatch, capsys):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("500", True)))
    window.activateWindow()
    trigger(window, "Go › Go to Record or Offset…")
    assert "record 500 does not exist; the records are 0 to 23" in capsys.readouterr().err
    window.table.setFocus()
    qtbot.keyClick(window.table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    assert window.table.selectionModel().isRowSelected(23)
    assert window.current == 23
    qtbot.keyClick(window.table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert window.current == 0
    row3 = window.table.visualRect(window.model.index(3, 1)).center()
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=row3)
    trigger(window, "Edit › Copy")
    lines = QGuiApplication.clipboard().text().splitlines()
    assert lines[0].split("\t")[:3] == ["#", "offset", "length"]
    assert lines[1].split("\t")[0] == "3" and len(lines) == 2
    # in the tree, the value of the selected node
    hits = window.tree_model.match(
        window.tree_model.index(0, 0), Qt.ItemDataRole.DisplayRole, "filename", 1,
        Qt.MatchFlag.MatchRecursive,
    )  # fmt: skip
    window.tree.setCurrentIndex(hits[0])
    window.tree.setFocus()
    trigger(window, "Edit › Copy")
    assert QGuiApplication.clipboard().text().endswith(".jpg")


# -- 9: box captions --------------------------------------------------------------
def test_box_captions_show_class_text_and_id_on_a_readable_label(qtbot, window, samples):
    from tfr_viewer.core.decode import readable_on
    from tfr_viewer.ui.style import label_colour

    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    window.select_record(1)
    ann = window.preview.images._annotations[0]
    scene = window.preview.images.view.scene()
    captions = {item.data(0): item for item in scene.items() if item.data(0)}
    box = ann.boxes[0]
    caption = f"{box.text} ({box.label})"
    assert caption in captions
    background = captions[caption].brush().color()
    assert background == label_colour(box.label, box.text)
    text = captions[caption].childItems()[0].brush().color()
    assert text.name() == readable_on(background.name())


# -- 10 and 11: the menus the README promises, and the Open dialog ----------------------
def test_export_rows_as_csv_from_the_file_menu(qtbot, window, samples, tmp_path, monkeypatch):
    open_and_wait(qtbot, window, [samples / "shapes_odapi.tfrecord"])
    out = tmp_path / "rows.csv"
    monkeypatch.setattr(file_dialogs, "save_file", lambda *a, **k: str(out))
    trigger(window, "File › Export Rows as › CSV…")
    task = window.edit_actions.exports.last_task
    with qtbot.waitSignal(task.ended, timeout=30_000):
        pass
    header = out.read_text().splitlines()[0]
    assert "image/object/bbox/xmin" in header


def test_open_dialog_shows_all_files_first(qtbot, window, monkeypatch):
    seen = []
    monkeypatch.setattr(
        file_dialogs,
        "open_files",
        lambda parent, caption, folder, filters: seen.append(filters) or [],
    )
    trigger(window, "File › Open…")
    assert seen and seen[0].startswith("All files (*)")
    assert "*.record*" in seen[0] and "*-of-*" in seen[0]


# -- 14: grammar, floats, tensor tables, recent folders ---------------------------------
def test_floats_tensors_and_recent_folders(qtbot, window, samples, tmp_path):
    import tensorflow as tf

    from tfr_viewer.core.io.framing import write_records

    path = tmp_path / "t.tfrecord"
    write_records(
        path,
        [
            build_example({"score": np.array([0.1, 2.5], np.float32)}),
            tf.io.serialize_tensor(tf.constant([[0.1, 1.0], [2.0, 3.0]])).numpy(),
            tf.io.serialize_tensor(tf.constant([b"abc", b"de"])).numpy(),
        ],
    )
    open_and_wait(qtbot, window, [path])
    window.select_record(0)
    model = window.tree_model
    score = model.index(0, 3)
    assert model.data(model.index(0, 0)) == "score" and model.data(score) == "[0.1, 2.5]"
    window.select_record(1)
    tensor = window.preview.tensor
    assert tensor.model.headerData(0, Qt.Orientation.Horizontal) == "0"
    assert tensor.model.data(tensor.model.index(0, 0)) == "0.1"
    window.select_record(2)
    assert tensor.info.text().startswith("string (bytes)")
    open_and_wait(qtbot, window, [samples])
    first = window.recent_menu.actions()[0]
    assert first.text().startswith("samples/  —  ") and first.isEnabled()


# -- 15: gallery tiles ---------------------------------------------------------------
def test_gallery_tiles_have_record_class_and_badges(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    thumbs = window.gallery.thumbs
    window.gallery.viewport().repaint()
    qtbot.waitUntil(lambda: "  " in (thumbs.data(thumbs.index(0)) or ""), timeout=15_000)
    text = thumbs.data(thumbs.index(0))
    label = window.model.data(
        window.model.index(0, window.model.columns().index(feature_column("label")))
    )
    assert text.startswith("0  ") and label in text
    window.select_record(0)
    window.edit_actions.delete(restore=False)
    assert thumbs.data(thumbs.index(0)).startswith("✗ 0")


# -- 16: sorting ----------------------------------------------------------------------
def click_header(qtbot, window, column: str) -> None:
    header = window.table.horizontalHeader()
    shown = [
        window.model.headerData(c, Qt.Orientation.Horizontal)
        for c in range(len(window.model.columns()))
    ]
    section = shown.index(column)  # the header the user clicks
    x = header.sectionViewportPosition(section) + header.sectionSize(section) // 2
    with qtbot.waitSignal(window.order.sorter.finished, timeout=30_000):
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))


def test_sorting_by_a_summary_column_and_back(qtbot, window, samples):
    open_and_wait(qtbot, window, [samples / "classes_tutorial.tfrecord"])
    window.select_record(7)
    click_header(qtbot, window, "label")
    model = window.model
    col = model.columns().index(feature_column("label"))
    labels = [int(model.data(model.index(r, col))) for r in range(model.rowCount())]
    assert labels == sorted(labels)
    records = [model.record_at(r) for r in range(model.rowCount())]
    assert sorted(records) == list(range(30))
    assert model.data(model.index(0, 0)) == str(records[0])  # record numbers stay visible
    assert window.current == 7 and model.record_at(window.table.currentIndex().row()) == 7
    click_header(qtbot, window, "label")  # again: descending
    labels = [int(model.data(model.index(r, col))) for r in range(model.rowCount())]
    assert labels == sorted(labels, reverse=True)
    trigger(window, "View › Unsorted (File Order)")
    assert [model.record_at(r) for r in range(30)] == list(range(30))
