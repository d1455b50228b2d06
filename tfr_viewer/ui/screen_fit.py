"""A window's first size and place: the size it asks for, within the screen's available
area (what panels and docks leave), so that its status bar and edges are on the screen
whatever the screen; a remembered geometry from a larger screen is brought back in."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QWidget

# what a window manager adds around a window: its title bar and borders
FRAME = QSize(16, 48)


def fitted(wanted: QSize, available: QRect) -> QRect:
    """The geometry of a window's contents of at most ``wanted`` that fits, frame and
    all, in ``available``, centred there."""
    width = max(320, min(wanted.width(), available.width() - FRAME.width()))
    height = max(240, min(wanted.height(), available.height() - FRAME.height()))
    rect = QRect(0, 0, width, height)
    rect.moveCenter(available.center())
    return rect


def fit_to_screen(window: QWidget, wanted: QSize) -> None:
    """Give ``window`` the size it wants, or less, on the screen it is on."""
    screen = window.screen()
    if screen is None:
        window.resize(wanted)
        return
    window.setGeometry(fitted(wanted, screen.availableGeometry()))


def bring_in(window: QWidget) -> None:
    """A restored geometry larger than the screen it is on now: made to fit it."""
    screen = window.screen()
    if screen is None:
        return
    available = screen.availableGeometry()
    frame = window.frameGeometry()
    if frame.width() > available.width() or frame.height() > available.height():
        fit_to_screen(window, window.size())
    elif not available.intersects(frame):
        window.move(available.topLeft())
