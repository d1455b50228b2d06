"""Where handed-over files open: the app's window list and the OS file-open event."""

from __future__ import annotations

from PySide6.QtGui import QFileOpenEvent, QKeySequence
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import SAMPLES, open_and_wait
from tfr_viewer.ui.app import Application
from tfr_viewer.ui.windows import CASCADE, Windows

ODAPI = SAMPLES / "shapes_odapi.tfrecord"
SEQUENCES = SAMPLES / "sequences.tfrecord"


def close(windows: Windows) -> None:
    for window in list(windows.windows):
        window.edit_actions.discard_answer = True
    windows.close_all()


def test_a_window_with_a_file_is_never_replaced(qtbot):
    windows = Windows()
    try:
        first = windows.new_window()
        assert windows.target() is first  # empty: reused
        open_and_wait(qtbot, first, [SEQUENCES])
        first.edit_actions.discard_answer = False  # a prompt would refuse to drop anything
        second = windows.open([str(ODAPI)])
        assert second is not first and windows.windows == [first, second]
        assert second.pos() == first.pos() + CASCADE
        assert [f.path for f in first.dataset.files] == [str(SEQUENCES)]
    finally:
        close(windows)


def test_a_closed_window_leaves_the_list(qtbot):
    windows = Windows()
    window = windows.new_window()
    window.show()
    window.close()
    qtbot.waitUntil(lambda: windows.windows == [], timeout=5000)


def test_file_open_event_before_and_after_start(qtbot, qapp):
    assert isinstance(qapp, Application)
    qapp.ready = False
    QApplication.sendEvent(qapp, QFileOpenEvent(str(ODAPI)))
    assert qapp.take_pending() == [str(ODAPI)]  # run() opens these with its first window
    qapp.ready = True
    try:
        QApplication.sendEvent(qapp, QFileOpenEvent(str(SEQUENCES)))
        window = qapp.windows.windows[-1]
        assert [f.path for f in window.dataset.files] == [str(SEQUENCES)]
        assert window.isVisible()
    finally:
        qapp.ready = False
        close(qapp.windows)


def test_new_window_and_quit_closes_them_all(qtbot, qapp):
    first = qapp.windows.new_window()
    first.show()
    try:
        first.new_window()
        first.new_window()
        assert len(qapp.windows.windows) == 3
        assert all(w.isVisible() for w in qapp.windows.windows)
        quit_action = first.quit_action
        assert quit_action.shortcut().matches(QKeySequence(QKeySequence.StandardKey.Quit))
        quit_action.trigger()
        qtbot.waitUntil(lambda: qapp.windows.windows == [], timeout=5000)
    finally:
        close(qapp.windows)
