"""Start the GUI: application object, file-open events, and the screenshot mode."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from types import TracebackType

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication

from .. import __version__
from . import app_icon
from .main_window import MainWindow
from .windows import Windows

SCREENSHOT_TIMEOUT_MS = 120_000


class Application(QApplication):
    """Owns the windows and opens files handed over by the OS (macOS Finder: QFileOpenEvent)
    or by a second launch (see ``instance``)."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.setApplicationName("tfr-viewer")
        self.setOrganizationName("tfr-viewer")
        self.setApplicationVersion(__version__)
        self.setDesktopFileName("tfr-viewer")  # Wayland matches windows to the .desktop file
        self.setWindowIcon(app_icon.icon())
        self.windows = Windows(self)
        self.ready = False
        self._pending: list[str] = []

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.FileOpen and isinstance(e, QFileOpenEvent):
            if self.ready:
                self.windows.open([e.file()])
            else:
                self._pending.append(e.file())  # delivered before run() shows a window
            return True
        return super().event(e)

    def take_pending(self) -> list[str]:
        pending, self._pending = self._pending, []
        return pending


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
        if self.window.select_record(self.record):
            self.window.show_record(self.record)
        else:  # the window is still worth a picture: the empty state and its problems
            ds = self.window.dataset
            count = len(ds) if ds else 0
            print(
                f"tfr-viewer open: warning: record {self.record} does not exist "
                f"(the dataset has {count}); saving the window as it is",
                file=sys.stderr,
            )
        QTimer.singleShot(300, self._save)  # let layouts and the image view settle

    def _save(self) -> None:
        from PySide6.QtCore import QBuffer, QIODevice

        from ..core.write.output import save_file

        QApplication.processEvents()
        image = self.window.grab()
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        try:
            if image.isNull() or not image.save(buffer, "PNG"):
                raise OSError("the window could not be drawn")
            ds = self.window.dataset
            inputs = [f.path for f in ds.files] if ds is not None else []
            # a screenshot replaces an older one, never a file that is open
            save_file(self.path, bytes(buffer.data().data()), inputs=inputs, overwrite=True)
        except OSError as exc:
            print(f"tfr-viewer open: cannot write {self.path}: {exc}", file=sys.stderr)
            QApplication.exit(2)
            return
        self.code = 0
        QApplication.exit(0)

    def _timeout(self) -> None:
        if self.code != 0:
            print("tfr-viewer open: timed out waiting for the index and previews", file=sys.stderr)
            QApplication.exit(1)


def _report_errors() -> None:
    """Unexpected errors in slots go to stderr and the active window's status bar; they
    never kill the app."""
    previous = sys.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        previous(kind, value, tb)
        window = QApplication.activeWindow()
        if isinstance(window, MainWindow):
            window.statusBar().showMessage(f"internal error: {kind.__name__}: {value}", 30000)

    sys.excepthook = hook


def _hand_off(paths: Sequence[str], select: int | None) -> int | None:
    """Give the request to a running instance; its exit code, or ``None`` to go on here.
    Paths are checked first, so one that does not exist exits 2 with or without an app."""
    from ..core.io import PathError, expand
    from .instance import hand_off

    try:
        expand(list(paths))
    except PathError as exc:
        print(f"tfr-viewer open: {exc}", file=sys.stderr)
        return 2
    reply = hand_off(paths, select)
    if reply is None:
        return None
    print(f"tfr-viewer: {reply.message} (process {reply.pid})", file=sys.stderr)
    return 0 if reply.ok else 2


def _resolved(paths: Sequence[str]) -> list[str] | None:
    """The files of ``paths`` when they name URLs (looked up here, since the screenshot
    mode has nothing else to do meanwhile); None to let the window resolve them."""
    from ..core.io import PathError, SourceError, expand
    from ..core.io.remote import is_url

    if not any(is_url(p) for p in paths):
        return None
    try:
        return expand(list(paths))
    except (PathError, SourceError) as exc:
        print(f"tfr-viewer open: {exc}", file=sys.stderr)
        return []


def _trace_startup(window: MainWindow) -> None:
    """With ``$TFR_VIEWER_TRACE_STARTUP`` set, print on stderr the wall-clock times at
    which the first rows are painted (``first-rows-painted T``), every record was counted
    (``counted T N``, told when the indexing ends) and the indexing ends (``indexed T``;
    the start-up benchmarks read them). Set to ``exit``, the window then closes."""
    trace = os.environ.get("TFR_VIEWER_TRACE_STARTUP")
    if not trace or window.dataset is None or window.indexer is None:
        return

    def say(event: str, *extra: object, at: float | None = None) -> None:
        print(event, f"{at or time.time():.6f}", *extra, file=sys.stderr, flush=True)

    def painted(*_args: object) -> None:
        window.table.viewport().repaint()
        say("first-rows-painted")

    indexer, dataset, model = window.indexer, window.dataset, window.model
    if model is None:
        return

    def indexed(_state: int) -> None:
        if indexer.counted_at is not None:
            say("counted", len(dataset), at=indexer.counted_at)
        say("indexed")
        if trace == "exit":
            QApplication.quit()

    model.rowsInserted.connect(painted, Qt.ConnectionType.SingleShotConnection)
    window.index_finished.connect(indexed, Qt.ConnectionType.SingleShotConnection)


def run(
    paths: Sequence[str],
    select: int | None = None,
    screenshot: str | None = None,
    new_instance: bool = False,
) -> int:
    """Open ``paths`` in a window; with ``screenshot``, save it and exit. Unless
    ``new_instance`` or ``screenshot``, a running instance opens them instead and this
    process exits at once."""
    if not screenshot and not new_instance:
        code = _hand_off(paths, select)
        if code is not None:
            return code
    if screenshot and not os.environ.get("QT_QPA_PLATFORM") and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = QApplication.instance() or Application(sys.argv[:1])
    windows = app.windows if isinstance(app, Application) else Windows(app)
    server = None
    if not screenshot:
        from .instance import InstanceServer

        server = InstanceServer(windows.open_request, parent=app)
        if not server.listen():
            print(
                "tfr-viewer: cannot serve other launches; they open their own window",
                file=sys.stderr,
            )
    if isinstance(app, Application):
        paths = list(paths) + app.take_pending()
        app.ready = True
    _report_errors()
    if screenshot:
        window = windows.new_window()
        shot = Screenshot(window, select or 0, screenshot)  # noqa: F841 (kept alive for exec)
        window.resize(1400, 860)  # the same picture whatever size was remembered
        window.remember_geometry = False
        window.errors_to_stderr = True
        window.show()
        files = _resolved(paths)
        if files == [] or not window.open_paths(list(paths), files=files):
            return 2
    else:
        window = windows.open(paths, select)
    _trace_startup(window)
    code = app.exec()
    if server is not None:
        server.close()
    windows.close_all()
    return int(code)
