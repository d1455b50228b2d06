"""Start the GUI: application object, file-open events, and the screenshot mode."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication

from .main_window import MainWindow

SCREENSHOT_TIMEOUT_MS = 120_000


class Application(QApplication):
    """Opens files handed over by the OS (macOS Finder double-click: QFileOpenEvent)."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.setApplicationName("tfr-viewer")
        self.setOrganizationName("tfr-viewer")
        self.window: MainWindow | None = None
        self._pending: list[str] = []

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.FileOpen and isinstance(e, QFileOpenEvent):
            path = e.file()
            if self.window is not None:
                self.window.open_paths([path])
            else:
                self._pending.append(path)
            return True
        return super().event(e)


class Screenshot(QObject):
    """Waits for the index, the selection and the previews, saves the window, quits."""

    def __init__(self, window: MainWindow, record: int, path: str) -> None:
        super().__init__(window)
        self.window, self.record, self.path = window, record, path
        self.indexed = False
        self.code = 1
        window.index_finished.connect(self._on_indexed)
        QTimer.singleShot(SCREENSHOT_TIMEOUT_MS, self._timeout)

    def _on_indexed(self, _state: int) -> None:
        self.indexed = True
        if not self.window.select_record(self.record):
            ds = self.window.dataset
            print(
                f"tfr-viewer open: record {self.record} does not exist "
                f"(the dataset has {len(ds) if ds else 0})",
                file=sys.stderr,
            )
            QApplication.exit(2)
            return
        self.window.show_record(self.record)
        QTimer.singleShot(300, self._save)  # let layouts and the image view settle

    def _save(self) -> None:
        QApplication.processEvents()
        image = self.window.grab()
        if image.isNull() or not image.save(self.path, "PNG"):
            print(f"tfr-viewer open: cannot write {self.path}", file=sys.stderr)
            QApplication.exit(1)
            return
        self.code = 0
        QApplication.exit(0)

    def _timeout(self) -> None:
        if self.code != 0:
            print("tfr-viewer open: timed out waiting for the index and previews", file=sys.stderr)
            QApplication.exit(1)


def _report_errors(window: MainWindow) -> None:
    """Unexpected errors in slots go to the status bar and stderr, never kill the app."""
    previous = sys.excepthook

    def hook(kind, value, tb) -> None:  # noqa: ANN001
        previous(kind, value, tb)
        window.statusBar().showMessage(f"internal error: {kind.__name__}: {value}", 30000)

    sys.excepthook = hook


def run(paths: Sequence[str], select: int | None = None, screenshot: str | None = None) -> int:
    """Open the main window on ``paths``; with ``screenshot``, save it and exit."""
    if screenshot and not os.environ.get("QT_QPA_PLATFORM") and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = QApplication.instance() or Application(sys.argv[:1])
    window = MainWindow()
    _report_errors(window)
    if isinstance(app, Application):
        app.window = window
        paths = list(paths) + app._pending
    shot = Screenshot(window, select or 0, screenshot) if screenshot else None
    if shot is not None:
        window.resize(1400, 860)  # the same picture whatever size was remembered
    window.show()
    if paths and not window.open_paths(list(paths)) and shot is not None:
        return 2
    if select is not None and shot is None:
        window.index_finished.connect(lambda _s: window.select_record(select))
    code = app.exec()
    window.close()
    return int(code)
