"""The window's remote-file actions: File › Open URL…, the transfer figures in the status
bar, one-click payload verification after a header-only scan, and Retry after a network
failure. Nothing here blocks the window: URLs are looked up on a thread, verification
runs in a child process."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel, QMessageBox, QPushButton

from ..app.index_jobs import verify_task
from ..core import task_messages as tm
from ..core.io import Compression, expand
from ..core.io.remote import Transferred, is_url
from ..core.text import plural
from .actions import Action, Entry
from .background import Background, Done
from .process_task import ProcessTask
from .status_widgets import show_problem_count

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from .host import PanelHost
    from .index_status import IndexStatus


def _megabytes(n: float) -> str:
    return f"{n / 1e6:,.2f} MB" if n < 1e9 else f"{n / 1e9:,.2f} GB"


class RemoteActions(QObject):
    """Owned by the main window ``w``; follows its session (closing cancels)."""

    looked_up = Signal(object, object, object)  # specs, files or None, error text or None
    verified = Signal(bool)  # a verification ended: True when complete
    open_requested = Signal(list, object)  # specs, the files they expand to (or None)

    def __init__(self, w: PanelHost, status: IndexStatus, settings: QSettings) -> None:
        """``status``: the status bar's widgets, which a lookup or a verification uses
        as the indexing does; ``settings``: where the URLs asked for are remembered."""
        super().__init__(w.as_widget())
        self.w, self.status, self.settings = w, status, settings
        bar = w.statusBar()
        self.transfer_label = QLabel(bar)
        self.transfer_label.hide()
        self.verify_button = QPushButton("Verify CRCs", bar)
        self.verify_button.setToolTip(
            "The index was built from the frame headers alone. Read every record once "
            "and check its payload CRC (Ctrl+Shift+V)"
        )
        self.verify_button.hide()
        self.verify_button.clicked.connect(lambda: self.verify())
        bar.insertPermanentWidget(0, self.transfer_label)
        bar.addPermanentWidget(self.verify_button)
        self.dialog: Any = None
        self.retry_box: QMessageBox | None = None
        self.task: ProcessTask | None = None
        self._figures: dict[str, Transferred] = {}
        self._lookup = 0  # the number of the latest lookup
        self._awaited: int | None = None  # the lookup whose answer is awaited
        self.looked_up.connect(self._on_looked_up)
        self._background: Background | None = None
        w.session.closed.connect(self._closed)

    @property
    def background(self) -> Background:
        """The threads remote records are read on, made the first time one is read."""
        if self._background is None:
            pool = self._background = Background(self)
            self.w.as_widget().destroyed.connect(lambda *_: pool.shutdown())
        return self._background

    def actions(self) -> list[Entry]:
        """File › Open URL… and Analyze › Verify CRCs."""
        return [
            Action(
                "file.open_url", "Open &URL…", "file", self.open_url_dialog, "Ctrl+Shift+O", order=3
            ),
            Action("analyze.verify", "&Verify CRCs", "analyze", self.verify, "Ctrl+Shift+V", 1),
        ]

    def _closed(self) -> None:
        self.cancel()
        self.reset()

    def is_remote(self) -> bool:
        """Whether the window's dataset has a file behind a URL."""
        ds = self.w.session.dataset
        return ds is not None and any(is_url(f.path) for f in ds.files)

    def off_thread(self, fn: Callable[[], Any], then: Done) -> bool:
        """For a remote dataset, run ``fn`` on a worker and ``then`` with its result
        here, returning True; for a local one do nothing and return False (the caller
        reads directly: a local read is quicker than a hand-over)."""
        if not self.is_remote():
            return False
        self.background.run(fn, then)
        return True

    # -- opening -------------------------------------------------------------------
    def open_url_dialog(self) -> None:
        """File › Open URL… (Ctrl+Shift+O)."""
        from .dialogs.open_url_dialog import OpenUrlDialog

        self.dialog = OpenUrlDialog(self.settings, self.w.as_widget())
        self.dialog.accepted.connect(lambda: self.open_urls(self.dialog.urls()))
        self.dialog.open()

    def open_urls(self, specs: Sequence[str]) -> None:
        """Resolve ``specs`` (globs and folders need listings) on a thread, then open."""
        specs = list(specs)
        if not specs:
            return
        self._lookup += 1
        number = self._awaited = self._lookup
        self.w.statusBar().showMessage(f"connecting to {specs[0]}…")
        self.status.progress.setRange(0, 0)
        self.status.progress.show()
        self.status.cancel_button.show()

        def look_up() -> None:
            try:
                files, error = expand(specs), None
            except Exception as exc:  # noqa: BLE001 - shown with Retry, never raised
                files, error = None, str(exc)
            try:
                self.looked_up.emit((number, specs), files, error)
            except RuntimeError:
                pass  # the window was closed meanwhile

        threading.Thread(target=look_up, name="tfr-url-lookup", daemon=True).start()

    @property
    def looking_up(self) -> bool:
        """URLs are being resolved; the dataset opens when they are."""
        return self._awaited is not None

    def _on_looked_up(
        self, asked: tuple[str, ...], files: list[str] | None, error: str | None
    ) -> None:
        number, specs = asked
        if number != self._lookup:
            return  # a newer lookup replaced this one
        self._awaited = None
        self.status.progress.setRange(0, 1000)
        self.status.progress.hide()
        self.status.cancel_button.hide()
        self.w.statusBar().clearMessage()
        if error is not None:
            self.failed("Cannot open the URL", error, lambda: self.open_urls(specs))
            return
        self.open_requested.emit(list(specs), files)

    def cancel_lookup(self) -> None:
        if self._awaited is None:
            return
        self._lookup += 1
        self._awaited = None
        self.status.progress.setRange(0, 1000)
        self.status.progress.hide()
        self.status.cancel_button.hide()
        self.w.statusBar().showMessage("opening the URL cancelled", 10000)

    # -- failures ------------------------------------------------------------------
    def failed(self, title: str, text: str, retry: Callable[[], object]) -> None:
        """A message with Retry and Cancel (not modal: the window stays usable)."""
        print(f"tfr-viewer: {title}: {text}", file=sys.stderr)
        self.w.statusBar().showMessage(f"{title}: {text}", 30000)
        box = self.retry_box = QMessageBox(
            QMessageBox.Icon.Warning,
            title,
            text,
            QMessageBox.StandardButton.Retry | QMessageBox.StandardButton.Cancel,
            self.w.as_widget(),
        )
        box.button(QMessageBox.StandardButton.Retry).clicked.connect(lambda: retry())
        if os.environ.get("QT_QPA_PLATFORM") != "offscreen":
            box.open()

    def indexing_failed(self, failure: tm.Failed | None) -> bool:
        """Offer Retry when indexing a remote dataset stopped on the network; True when
        the failure was handled here."""
        ds = self.w.session.dataset
        if ds is None or not any(is_url(f.path) for f in ds.files):
            return False
        if failure is None or failure.kind != "network":
            return False
        paths = [f.path for f in ds.files]
        retry = lambda: self.open_requested.emit(paths, paths)  # noqa: E731
        self.failed("Reading stopped", failure.message, retry)
        return True

    # -- transfer figures ------------------------------------------------------------
    def reset(self) -> None:
        """A dataset was opened or closed."""
        self._figures = {}
        self.transfer_label.hide()
        self.verify_button.hide()

    def show_transfer(self, figures: Transferred, source: str = "index") -> None:
        """Figures from the indexing (or verifying) child; the window's own reads of
        remote records are added."""
        self._figures[source] = figures
        self.refresh_transfer()

    def refresh_transfer(self) -> None:
        ds = self.w.session.dataset
        if ds is None:
            return
        own = ds.transfer()
        parts = [*self._figures.values(), *([own] if own else [])]
        if not parts:
            return
        total = sum(parts, Transferred())
        compressed = [
            os.path.basename(f.path)
            for f in ds.files
            if is_url(f.path)
            and f.source is not None
            and f.source.compression is not Compression.NONE
            and not f.index.complete
        ]
        text = (
            f"⇣ {_megabytes(total.bytes)} in {plural(total.requests, 'request')}, "
            f"{total.seconds:.1f} s"
        )
        if compressed:
            text = f"reading {compressed[0]} from its start (compressed) — {text}"
        self.transfer_label.setText(text)
        on_server = sum(f.source.compressed_size for f in ds.files if f.source is not None)
        whole = on_server and total.bytes >= 0.5 * on_server
        self.transfer_label.setToolTip(
            "Bytes read from remote files so far. "
            + (
                "The records are small, so finding them needs most of each file."
                if whole
                else "Large records: the scan reads their 12-byte headers only."
            )
        )
        self.transfer_label.show()

    # -- verification ----------------------------------------------------------------
    def update_verify_button(self) -> None:
        """Shown while a complete index has payload CRCs left unchecked."""
        ds = self.w.session.dataset
        unchecked = ds is not None and any(
            f.index.complete and not f.index.verified for f in ds.files
        )
        self.verify_button.setVisible(bool(unchecked) and self.task is None)

    def verify(self) -> None:
        """Check every payload CRC left unchecked by the header-only scan (one pass
        over the files, in a child process)."""
        w, ds = self.w, self.w.session.dataset
        if ds is None or self.task is not None:
            return
        if w.session.indexer is not None and w.session.indexer.running:
            w.statusBar().showMessage("wait for the index to finish, then verify", 10000)
            return
        if all(f.index.verified for f in ds.files):
            w.statusBar().showMessage("every payload CRC is checked already", 10000)
            return
        task = self.task = ProcessTask(
            verify_task, ([f.path for f in ds.files], ds.columns()), self
        )
        task.message.connect(self._on_message)
        task.ended.connect(self._on_ended)
        self._verify_ok = False
        self._settled = 0  # records whose CRC the child has checked
        self.verify_button.hide()
        self.status.progress.setRange(0, 1000)
        self.status.progress.setValue(0)
        self.status.progress.show()
        self.status.cancel_button.show()
        self.status.counts.setText("verifying payload CRCs…")
        task.start()

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self.cancel_lookup()

    def _on_message(self, msg: object) -> None:
        ds, w = self.w.session.dataset, self.w
        if ds is None:
            return
        match msg:
            case tm.Statuses(number, start, statuses):
                ds.files[number].index.set_statuses(start, statuses)
                self._settled += len(statuses)
                self.status.progress.setValue(int(1000 * self._settled / max(len(ds), 1)))
                problems = sum(f.index.problem_count() for f in ds.files)
                show_problem_count(self.status.problems_button, problems)
                if w.session.model is not None:
                    w.session.model.statuses_changed()
            case tm.FileVerified(number):
                ds.files[number].index.verified = True
            case tm.Transfer(figures):
                self.show_transfer(figures, "verify")
            case tm.Done():
                for f in ds.files:
                    f.index.verified = True
                self._verify_ok = True
            case tm.Failed(_kind, message):
                self.failed("Verification stopped", message, self.verify)

    def _on_ended(self) -> None:
        w, ds = self.w, self.w.session.dataset
        cancelled = self.task is not None and self.task.cancelled
        self.task = None
        self.status.progress.hide()
        self.status.cancel_button.hide()
        if ds is not None:
            problems = sum(f.index.problem_count() for f in ds.files)
            show_problem_count(self.status.problems_button, problems)
            verdict = "cancelled" if cancelled else plural(problems, "problem")
            self.status.counts.setText(f"{plural(len(ds), 'record')} verified: {verdict}")
            if w.session.model is not None:
                w.session.model.statuses_changed()
        self.update_verify_button()
        self.verified.emit(self._verify_ok and not cancelled)
