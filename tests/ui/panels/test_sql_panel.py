"""Analyze › SQL through the window: a query typed and run with Ctrl+Return gives the
rows ``sql --json`` gives; a row double-clicked selects its record; Show These Records
makes them the current view; the query is kept for the dataset (and a saved one by its
name) and offered again when it opens; a query that cannot run says why, nothing
else changes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog

from tests.app.cli import cli_json
from tests.planted_faults import example_of
from tests.program import program
from tests.tf_oracle import tf_write
from tests.ui.conftest import open_and_wait

QUERY = "SELECT index, label[1] AS label FROM records WHERE label[1] = 2 ORDER BY index"


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "labels.tfrecord"
    tf_write(path, [example_of({"label": [i % 3], "name": [f"n{i}".encode()]}) for i in range(12)])
    return path


def _panel(window):
    window.menus.action("panel.sql").trigger()  # Analyze › SQL
    return window.docks.widget("sql")


def _run(qtbot, panel, query):
    from PySide6.QtTest import QTest

    panel.editor.setPlainText(query)
    QTest.keyClick(panel.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert panel.job is not None
    qtbot.waitUntil(lambda: panel.job is None, timeout=60_000)


def test_a_query_typed_and_run_gives_the_command_lines_rows(qtbot, window, data):
    open_and_wait(qtbot, window, [data])
    panel = _panel(window)
    _run(qtbot, panel, QUERY)
    cli = cli_json("sql", QUERY, str(data), "--json")[1]
    assert panel.report is not None
    assert [[int(c) for c in row] for row in panel.model.rows] == cli["rows"]
    assert panel.model.names == ["index", "label"]
    # a row double-clicked selects its record
    index = panel.model.index(2, 0)
    panel.table.doubleClicked.emit(index)
    assert window.current == cli["rows"][2][0]
    # its records as the current view
    with qtbot.waitSignal(window.filter_bar.rows_changed, timeout=20_000):
        panel.show_button.click()
    assert window.model.rowCount() == len(cli["rows"]) == 4


def test_a_result_saved_as_html_is_sqls_report(qtbot, window, data, tmp_path):
    open_and_wait(qtbot, window, [data])
    panel = _panel(window)
    _run(qtbot, panel, QUERY)
    out = tmp_path / "query.html"
    assert panel.save_html(str(out))
    done = program("sql", QUERY, str(data), "--html", str(tmp_path / "cli.html"))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == (tmp_path / "cli.html").read_bytes()
    assert not panel.save_html(str(data))  # the dataset's own file: refused
    assert "source" in panel.status.text()


def test_queries_are_kept_for_the_dataset(qtbot, window, data, monkeypatch):
    open_and_wait(qtbot, window, [data])
    panel = _panel(window)
    _run(qtbot, panel, "SELECT count(*) AS n FROM records")
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("count", True)))
    panel.save_button.click()
    window.close_dataset()
    open_and_wait(qtbot, window, [data])
    offered = [panel.queries.itemText(i) for i in range(panel.queries.count())]
    assert "★ count" in offered and any("SELECT count(*) AS n" in t for t in offered)
    panel.queries.activated.emit(offered.index("★ count"))
    assert panel.editor.toPlainText() == "SELECT count(*) AS n FROM records"


def test_a_query_that_cannot_run_says_why(qtbot, window, data):
    open_and_wait(qtbot, window, [data])
    panel = _panel(window)
    _run(qtbot, panel, "COPY records TO 'x.csv'")
    assert "only a SELECT" in panel.status.text()
    assert panel.report is None and panel.model.rowCount() == 0
    assert not panel.show_button.isEnabled()


def test_a_row_with_file_and_offset_selects_its_record(qtbot, window, tmp_path):
    """Without an index column, a row's file and offset name its record (each shard's
    frames start at the same offsets: the file tells them apart)."""
    shards = [tmp_path / f"part-{n}.tfrecord" for n in range(2)]
    for n, path in enumerate(shards):
        tf_write(path, [example_of({"label": [n * 10 + i]}) for i in range(5)])
    open_and_wait(qtbot, window, shards)
    panel = _panel(window)
    query = 'SELECT file, "offset", label[1] AS label FROM records WHERE label[1] % 10 = 3'
    _run(qtbot, panel, query)
    assert panel.model.names == ["file", "offset", "label"]
    assert [r[2] for r in panel.model.rows] == ["3", "13"]
    assert panel.model.records == [3, 8]
    # each column as wide as its text, up to a third of the dock
    shown = panel.table.fontMetrics().horizontalAdvance(panel.model.rows[0][0])
    assert panel.table.columnWidth(0) >= min(shown, max(160, panel.width() // 3))
    window.left_tabs.setCurrentIndex(1)  # the gallery shown: its tile follows
    panel.table.doubleClicked.emit(panel.model.index(1, 0))
    assert window.current == 8
    gallery = window.gallery
    assert gallery.thumbs.record_at(gallery.currentIndex().row()) == 8
    # a row whose offset is no frame's start names no record
    _run(qtbot, panel, 'SELECT file, "offset" + 1 AS "offset" FROM records WHERE index = 3')
    assert panel.model.records == [None]
    assert "double-click" not in panel.status.text()  # no row names a record
    panel.table.doubleClicked.emit(panel.model.index(0, 0))
    assert window.current == 8
    assert "names no record" in window.statusBar().currentMessage()
