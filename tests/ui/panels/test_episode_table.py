"""The Episodes panel as a user drives it: Analyze › Run Episodes on an RLDS dataset
lists its episodes (the report the API gives); a filter typed and Enter shows the rows
it matches, a wrong one says why under it; a header click sorts; Enter on a row selects
the episode, which the Episode Player then plays; the filter is remembered."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

import tfr_viewer as tfv
from tests.rlds_data import planted_episodes, write_rlds
from tests.ui.conftest import open_and_wait


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    splits, _ = planted_episodes()
    return write_rlds(tmp_path_factory.mktemp("planted"), splits)


def _run(qtbot, window, folder):
    open_and_wait(qtbot, window, [folder])
    window.menus.refresh()
    window.menus.action("analyze.episodes").trigger()  # Analyze › Run Episodes
    dock = window.docks.dock("analysis-episodes")
    assert dock.isVisible() and dock.windowTitle() == "Episodes"
    panel = window.docks.widget("analysis-episodes")
    qtbot.waitUntil(lambda: panel.report is not None, timeout=60_000)
    return panel


def _filter(qtbot, panel, text):
    panel.filter_edit.clear()
    qtbot.keyClicks(panel.filter_edit, text)
    qtbot.keyClick(panel.filter_edit, Qt.Key.Key_Return)


def test_the_table_lists_filters_sorts_and_selects_episodes(qtbot, window, planted):
    panel = _run(qtbot, window, planted)
    _filter(qtbot, panel, "")
    with tfv.open(str(planted)) as view:
        theirs = view.analyze("episodes").to_json()
    assert panel.report.to_json() == theirs
    assert panel.proxy.rowCount() == theirs["count"] == 29
    assert panel.count.text() == "29 episodes"

    _filter(qtbot, panel, "len(steps) < 5")
    assert panel.count.text() == "2 of 29 episodes"
    lengths = {r["record"]: r["length"] for r in theirs["episodes"]}
    assert sorted(lengths[r] for r in panel.shown_records()) == [1, 2]

    _filter(qtbot, panel, 'instruction == ""')
    assert [lengths[r] for r in panel.shown_records()] == [12]
    assert panel.model.row(0).record in lengths

    _filter(qtbot, panel, "len(stepz) < 5")  # a mistake: said, the rows kept
    assert panel.error.isVisible() and "no column 'stepz'" in panel.error.text()
    assert panel.proxy.rowCount() == 1

    _filter(qtbot, panel, "")
    assert not panel.error.isVisible() and panel.proxy.rowCount() == 29
    header = panel.table.horizontalHeader()
    steps_column = 2
    at = QPoint(header.sectionViewportPosition(steps_column) + 5, 5)
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=at)
    shown = [lengths[r] for r in panel.shown_records()]
    assert shown == sorted(shown) or shown == sorted(shown, reverse=True)
    assert shown[0] in (1, 14)

    # Enter on a row selects its episode; the player plays the episode selected
    window.menus.action("panel.episode").trigger()
    player = window.docks.widget("episode")
    panel.table.setFocus()
    target = panel.proxy.index(3, 0)
    panel.table.setCurrentIndex(target)
    record = panel.shown_records()[3]
    qtbot.keyClick(panel.table, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.current == record, timeout=10_000)
    qtbot.waitUntil(
        lambda: player.episode is not None and player.episode.record == record, timeout=10_000
    )
    assert player.episode.length == lengths[record]


def test_the_filter_is_remembered(qtbot, window, planted):
    panel = _run(qtbot, window, planted)
    _filter(qtbot, panel, '"camera_blank" in findings')
    assert panel.count.text() == "2 of 29 episodes"
    from tfr_viewer.ui.panels.episode_table import EpisodeTable

    again = EpisodeTable()
    qtbot.addWidget(again)
    assert again.filter_edit.text() == '"camera_blank" in findings'
    _filter(qtbot, panel, "")


def test_the_episodes_shown_export_as_a_tfds_folder(qtbot, window, planted, tmp_path, monkeypatch):
    import tensorflow_datasets as tfds

    from tfr_viewer.ui import file_dialogs

    panel = _run(qtbot, window, planted)
    _filter(qtbot, panel, "len(findings) == 0")
    shown = panel.shown_records()
    assert shown and panel.export_button.isEnabled()
    out = tmp_path / "clean" / "robot_debug" / "1.0.0"
    monkeypatch.setattr(file_dialogs, "save_file", lambda *a, **k: str(out))
    qtbot.mouseClick(panel.export_button, Qt.MouseButton.LeftButton)
    task = window.edit_actions.exports.last_task
    assert task is not None
    qtbot.waitUntil(lambda: (out / "dataset_info.json").exists(), timeout=60_000)
    qtbot.waitUntil(lambda: "wrote" in window.statusBar().currentMessage(), timeout=10_000)
    builder = tfds.builder_from_directory(str(out))
    assert builder.info.splits["train"].num_examples == len(shown)
    _filter(qtbot, panel, "")
