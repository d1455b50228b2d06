"""Remote datasets in the window, through the user's path: File › Open URL… (the menu
and Ctrl+Shift+O), a header-only index with the transfer in the status bar, one-click
verification, Open Recent with URLs, and Retry after the server failed."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from tfr_viewer.core.io import Dataset, RecordStatus


def _action(window, text):
    return next(a for a in window.file_menu.actions() if a.text().replace("&", "") == text)


def _type_url(qtbot, window, url):
    dialog = window.remote.dialog
    assert dialog is not None and dialog.isVisible()
    dialog.combo.setCurrentText(url)
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Open).click()


def test_open_url_from_the_menu_then_verify_in_one_click(qtbot, window, server, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    action = _action(window, "Open URL…")
    assert action.shortcut().toString() == "Ctrl+Shift+O"
    action.trigger()
    url = server.url("damaged.tfrecord")
    _type_url(qtbot, window, url)
    ds = window.dataset
    assert [f.path for f in ds.files] == [url]
    assert window.model.rowCount() >= 20
    statuses = ds.files[0].index.statuses()
    assert (statuses == RecordStatus.UNVERIFIED).sum() > 0  # headers only
    assert window.remote.verify_button.isVisible()
    assert "MB in" in window.remote.transfer_label.text()
    with qtbot.waitSignal(window.remote.verified, timeout=60_000) as blocker:
        qtbot.mouseClick(window.remote.verify_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [True]
    with Dataset([str(server.root / "damaged.tfrecord")]) as local:
        local.index(verify=True)
        assert np.array_equal(ds.files[0].index.statuses(), local.files[0].index.statuses())
        assert len(ds) == len(local)
    assert window.remote.verify_button.isHidden()
    assert "problem" in window.status.problems_button.text()
    # the URL is remembered in Open Recent and in the dialog's list
    recent = window.recent_menu.actions()
    assert recent and recent[0].toolTip() == url and recent[0].isEnabled()
    old = window.remote.dialog
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    window.table.setFocus()
    qtbot.keyClick(
        window.table,
        Qt.Key.Key_O,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert window.remote.dialog is not old and window.remote.dialog.isVisible()
    assert window.remote.dialog.combo.itemText(0) == url
    window.remote.dialog.reject()


def test_a_glob_url_opens_every_shard_and_the_window_shows_records(qtbot, window, server):
    window.remote.open_url_dialog()
    _type_url(qtbot, window, server.url("train-*"))
    assert len(window.dataset.files) == 3 and window.model.rowCount() == 3000
    # small records need the whole file: the status bar says so
    assert "small" in window.remote.transfer_label.toolTip()
    with qtbot.waitSignal(window.record_shown):
        window.select_record(2500)
    assert window.tree_model.rowCount() > 0


def test_a_failed_lookup_offers_retry(qtbot, window, server):
    import shutil

    window.remote.open_urls([server.url("later-*")])
    qtbot.waitUntil(lambda: window.remote.retry_box is not None, timeout=60_000)
    assert "matches no" in window.remote.retry_box.text()
    assert window.dataset is None
    late = server.root / "later-1.tfrecord"
    shutil.copy(server.root / "big.tfrecord", late)
    try:
        with qtbot.waitSignal(window.index_finished, timeout=60_000):
            window.remote.retry_box.button(QMessageBox.StandardButton.Retry).click()
        assert len(window.dataset) == 60
    finally:
        window.close_dataset()
        late.unlink()


def test_a_server_failing_during_the_scan_offers_retry(qtbot, window, server, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    monkeypatch.setenv("TFR_VIEWER_REMOTE_RETRIES", "1")
    server.faults.fail_after = 10
    url = server.url("big.tfrecord")
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        window.open_paths([url], files=[url])
    box = window.remote.retry_box
    assert box is not None and url in box.text()
    assert window.status.counts.text() == "indexing failed"
    server.faults.fail_after = None
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        box.button(QMessageBox.StandardButton.Retry).click()
    assert len(window.dataset) == 60


def test_a_compressed_url_is_read_whole_once_then_any_record_opens(qtbot, window, server):
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDropEvent

    url = server.url("small.tfrecord.gz")
    mime = QMimeData()
    mime.setUrls([QUrl(url)])  # a link dragged from a browser
    drop = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        window.dropEvent(drop)
    ds = window.dataset
    assert [f.path for f in ds.files] == [url] and len(ds) == 3000
    # nothing to hop over: the one pass checked every CRC, and no Verify button is needed
    assert ds.files[0].index.verified and window.remote.verify_button.isHidden()
    server.reset_counts()
    with qtbot.waitSignal(window.record_shown):
        window.select_record(2900)
    assert window.tree_model.rowCount() > 0
    size = (server.root / "small.tfrecord.gz").stat().st_size
    assert server.bytes_sent < size  # the seek points spare a second whole read


def test_a_slow_server_never_freezes_the_window(qtbot, window, server, monkeypatch, work_places):
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    url = server.url("big.tfrecord")
    with qtbot.waitSignal(window.index_finished, timeout=60_000):
        window.open_paths([url], files=[url])
    server.faults.latency = 1.0  # every request now takes a second

    def choose() -> None:
        window.select_record(40)
        window.table.viewport().repaint()  # summary cells of rows not read yet

    shown_40 = qtbot.waitSignal(
        window.record_shown, timeout=30_000, check_params_cb=lambda record: record == 40
    )  # the first record's read may still be arriving
    work_places.clear()
    with shown_40:
        QTimer.singleShot(50, choose)
    assert window.current == 40 and window.tree_model.rowCount() > 0
    # every read of the remote file happened off the window's thread: none could stall it
    assert work_places.calls and work_places.on_the_window_thread() == []


def test_cancel_stops_waiting_for_a_silent_server(qtbot, window, server):
    server.faults.hang = True
    window.remote.open_urls([server.url("big.tfrecord")])
    assert window.status.cancel_button.isVisible() and window.remote.looking_up
    qtbot.mouseClick(window.status.cancel_button, Qt.MouseButton.LeftButton)
    assert not window.remote.looking_up and window.status.cancel_button.isHidden()
    assert window.status.progress.isHidden() and window.dataset is None
    assert "cancelled" in window.statusBar().currentMessage()
