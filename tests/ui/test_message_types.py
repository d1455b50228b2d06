"""File › Message Types… through the window: a project's own records read by name
once the user gives the ``.proto`` or the descriptor set and chooses the type (the
tree by field names with their types, the pictures by field path, a filter over field
paths), remembered for the dataset; a file that is no descriptor set said, nothing
changed."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import QInputDialog

from tests.tf_oracle import tf_write
from tests.ui.conftest import open_and_wait
from tests.ui.models.test_feature_tree import child, names
from tests.user_protos import descriptor_set, frames, proto_folder
from tfr_viewer.ui import file_dialogs


@pytest.fixture
def made(tmp_path):
    protos = proto_folder(tmp_path)
    sets = descriptor_set(protos, tmp_path / "drive.pb")
    messages = frames(8)
    path = tmp_path / "frames.tfrecord"
    tf_write(path, [m.SerializeToString() for m in messages])
    return protos, sets, path, messages


def _answer(monkeypatch, file: str, choice: str) -> list[list[str]]:
    offered: list[list[str]] = []
    monkeypatch.setattr(file_dialogs, "open_file", lambda *a, **k: file)

    def get_item(parent, title, label, items, current, editable):
        offered.append(list(items))
        return choice, True

    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(get_item))
    return offered


def test_records_read_by_name_once_the_type_is_chosen(qtbot, window, made, monkeypatch):
    protos, sets, path, messages = made
    open_and_wait(qtbot, window, [path])
    window.select_record(3)
    assert names(window.tree_model)[0].startswith("#")  # fields by number, guessed
    offered = _answer(monkeypatch, str(sets), "drive.Frame")
    window.menus.action("file.message_types").trigger()
    assert "drive.Frame" in offered[0] and offered[0][0].startswith("The type that reads")
    model = window.tree_model
    qtbot.waitUntil(lambda: "images" in names(model), timeout=5000)
    assert names(model) == ["context", "timestamp_micros", "images", "lasers", "taken",
                            "labels", "seed"]  # fmt: skip
    images = child(model, QModelIndex(), "images")
    first = child(model, images, "[0]")
    assert names(model, first) == ["name", "image", "pose_timestamp"]
    shown = window.preview.images._annotations
    assert [a.key for a in shown] == [f"images[{k}].image" for k in range(3)]
    assert [a.data for a in shown] == [i.image for i in messages[3].images]
    # a filter over field paths
    window.filter_bar.edit.setText('f["images"][1]["name"] == "FRONT_LEFT" and f["night"]')
    with qtbot.waitSignal(window.filter_bar.rows_changed, timeout=20_000):
        window.filter_bar.apply()
    matched = [i for i, m in enumerate(messages) if m.night]
    assert window.model.rowCount() == len(matched) == 2
    # remembered for the dataset: read so when it opens again
    window.close_dataset()
    open_and_wait(qtbot, window, [path])
    window.select_record(0)
    qtbot.waitUntil(lambda: "images" in names(window.tree_model), timeout=5000)


def test_the_best_type_from_a_proto_is_chosen_and_said(qtbot, window, made, monkeypatch):
    protos, _, path, _ = made
    open_and_wait(qtbot, window, [path])
    window.select_record(1)
    _answer(
        monkeypatch, str(protos / "drive" / "frame.proto"), "The type that reads the records best"
    )
    window.menus.action("file.message_types").trigger()
    qtbot.waitUntil(lambda: "lasers" in names(window.tree_model), timeout=5000)
    assert "records read as" in window.statusBar().currentMessage()


def test_a_file_that_is_no_descriptor_set_is_said(qtbot, window, made, monkeypatch):
    _, _, path, _ = made
    open_and_wait(qtbot, window, [path])
    window.select_record(0)
    said: list[tuple[str, str]] = []
    monkeypatch.setattr(window, "show_error", lambda title, text: said.append((title, text)))
    _answer(monkeypatch, str(path), "drive.Frame")
    window.menus.action("file.message_types").trigger()
    assert said and "not a FileDescriptorSet" in said[0][1]
    assert window.session.dataset.message_type is None
    assert names(window.tree_model)[0].startswith("#")


def test_a_field_edited_in_the_tree_is_exported(qtbot, window, made, monkeypatch, tmp_path):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QLineEdit

    from tests.tf_oracle import tf_read

    _, sets, path, messages = made
    open_and_wait(qtbot, window, [path])
    window.select_record(2)
    _answer(monkeypatch, str(sets), "drive.Frame")
    window.menus.action("file.message_types").trigger()
    model, tree = window.tree_model, window.tree
    qtbot.waitUntil(lambda: "context" in names(model), timeout=5000)
    context = child(model, QModelIndex(), "context")
    tree.expand(context)
    name = child(model, context, "name")
    value = model.index(name.row(), 3, context)
    tree.scrollTo(value)
    qtbot.mouseClick(
        tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(value).center()
    )
    qtbot.mouseDClick(
        tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(value).center()
    )
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, "renamed")
    tree.commitData(editor)
    assert window.edit_actions.stack.count() == 1
    frame = type(messages[2])
    assert frame.FromString(window.edit_actions.payload(2)).context.name == "renamed"
    # a text the field's type refuses changes nothing
    assert not window.edit_actions.edit_value("timestamp_micros", "soon")
    assert window.edit_actions.stack.count() == 1
    dialog = window.edit_actions.exports.export_dialog()
    out = tmp_path / "edited.tfrecord"
    dialog.output.setText(str(out))
    dialog.start()
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=30_000)
    got = tf_read(out)
    assert len(got) == len(messages)
    assert frame.FromString(got[2]).context.name == "renamed"
    assert frame.FromString(got[2]).images == messages[2].images
    original = path.read_bytes()
    assert all(got[i] == window.dataset.read(i) for i in range(len(got)) if i != 2)
    assert path.read_bytes() == original


def test_the_statistics_panel_gives_stats_by_field_path(qtbot, window, made, monkeypatch):
    from tests.app.cli import cli_json
    from tests.ui.panels.test_analysis_panels import _action

    _, sets, path, messages = made
    open_and_wait(qtbot, window, [path])
    _answer(monkeypatch, str(sets), "drive.Frame")
    window.menus.action("file.message_types").trigger()
    _action(window, "Statistics").trigger()
    qtbot.waitUntil(lambda: window.analysis.stats is not None, timeout=60_000)
    cli = cli_json("stats", "--json", str(path), "--descriptor-set", str(sets), "--message",
                   "drive.Frame")[1]  # fmt: skip
    assert cli["message"] == "drive.Frame"
    assert window.analysis.stats.to_json() == cli
    panel = window.analysis.stats_panel
    assert "read as drive.Frame" in panel.summary.text() and "field paths" in panel.summary.text()
    # a bar clicked: the records it counts, by a filter over the field path
    (chart, *_) = panel.charts["images.name"]
    with qtbot.waitSignal(window.filter_bar.rows_changed, timeout=20_000):
        chart.bar_clicked.emit(chart.labels.index("SIDE_LEFT"))
    side = [i for i, m in enumerate(messages) if any(c.name == 3 for c in m.images)]
    assert window.model.rowCount() == len(side) == 4


def test_sql_over_the_records_by_their_field_paths(qtbot, window, made, monkeypatch):
    """Once the type is chosen, Analyze › SQL has a column a field path (the query run in
    a child process that reads the records as the type); a row selects its record."""
    from tests.ui.panels.test_sql_panel import _panel, _run

    _, sets, path, messages = made
    open_and_wait(qtbot, window, [path])
    window.select_record(0)
    _answer(monkeypatch, str(sets), "drive.Frame")
    window.menus.action("file.message_types").trigger()
    qtbot.waitUntil(lambda: "images" in names(window.tree_model), timeout=5000)
    panel = _panel(window)
    _run(qtbot, panel, 'SELECT index, "context.name", len("images.name") AS cameras '
                       "FROM records WHERE night ORDER BY index")  # fmt: skip
    assert panel.report is not None, panel.status.text()
    assert panel.model.rows == [
        [str(i), m.context.name, str(len(m.images))] for i, m in enumerate(messages) if m.night
    ]
    panel.table.doubleClicked.emit(panel.model.index(1, 0))
    assert window.current == [i for i, m in enumerate(messages) if m.night][1]
