"""The first window fits the screen's available area, frame and all, whatever the
screen: its status bar is on the screen (1366×768 here, and the offscreen screen)."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize

from tfr_viewer.ui.screen_fit import FRAME, fitted


def test_a_window_fits_a_small_screen_and_keeps_its_size_on_a_large_one():
    laptop = QRect(0, 0, 1366, 768 - 28)  # a panel takes the bottom of the screen
    small = fitted(QSize(1280, 800), laptop)
    assert small.height() + FRAME.height() <= laptop.height() and small.width() == 1280
    assert laptop.contains(small)
    large = fitted(QSize(1280, 800), QRect(0, 0, 1920, 1080))
    assert (large.width(), large.height()) == (1280, 800)


def test_the_first_window_is_within_its_screen(qtbot):
    from PySide6.QtCore import QSettings

    from tfr_viewer.ui.main_window import MainWindow

    QSettings("tfr-viewer", "tfr-viewer").remove("geometry")  # a first launch
    window = MainWindow()
    window.remember_geometry = False
    qtbot.addWidget(window)
    window.show()
    available = window.screen().availableGeometry()
    assert available.contains(window.geometry())
    status = window.statusBar()
    bottom_left = status.mapToGlobal(status.rect().bottomLeft())
    assert available.contains(bottom_left)
