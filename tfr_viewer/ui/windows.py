"""The app's main windows: files handed over by the OS or by a second launch open here."""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtCore import QObject, QPoint, Qt, QTimer

from .main_window import MainWindow

CASCADE = QPoint(32, 32)


class Windows(QObject):
    """Owns the main windows. A request opens in the active window when it is empty and
    in a new window otherwise, so nothing open (or edited) is replaced unasked."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.windows: list[MainWindow] = []

    def new_window(self) -> MainWindow:
        """A new main window, cascaded from the last one; it is deleted when closed."""
        window = MainWindow()
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if self.windows:
            window.move(self.windows[-1].pos() + CASCADE)
        self.windows.append(window)
        window.destroyed.connect(lambda _=None, w=window: self._forget(w))
        return window

    def _forget(self, window: MainWindow) -> None:
        if window in self.windows:
            self.windows.remove(window)

    def target(self) -> MainWindow:
        """The window a request opens in: the last empty one, else a new one."""
        for window in reversed(self.windows):
            if window.dataset is None and not window.edit_actions.dirty():
                return window
        return self.new_window()

    def open_request(self, paths: list[str], select: int | None) -> tuple[bool, str]:
        """Handle a hand-off; the window opens on the next turn of the event loop so the
        sender's reply is not held up by any dialog the opening shows."""
        QTimer.singleShot(0, lambda: self.open(paths, select))
        what = ", ".join(os.path.basename(p) or p for p in paths) or "a new window"
        return True, f"opening {what} in the running tfr-viewer"

    def open(self, paths: Sequence[str], select: int | None = None) -> MainWindow:
        """Open ``paths`` (an empty window when there are none) and bring it forward."""
        window = self.target()
        window.show()
        window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMinimized)
        window.raise_()
        window.activateWindow()
        opened = bool(paths) and window.open_paths(list(paths))
        if select is not None and (opened or window.remote.looking_up):
            window.index_finished.connect(
                lambda _s, w=window: w.select_record(select),
                Qt.ConnectionType.SingleShotConnection,
            )
        return window

    def close_all(self) -> None:
        for window in list(self.windows):
            window.close()
