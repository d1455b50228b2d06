"""The status bar's side of the open dataset: its progress while it is indexed and
verified (records found, speed), its problem and warning counts, and the warning of a
very large dataset, following the session's announcements.

:class:`IndexStatus` owns the status bar's permanent widgets (:class:`StatusWidgets`);
the remote actions use them too, for the work they run (a URL's lookup, Verify CRCs).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMessageBox, QStatusBar

from ..core.io import Dataset
from ..core.text import plural
from .indexer import IndexProgress, IndexState
from .session import Session
from .status_widgets import StatusWidgets, show_problem_count, show_warnings


class IndexStatus(QObject):
    """The status bar's counts, progress and Cancel for the session's dataset."""

    def __init__(
        self, session: Session, bar: QStatusBar, show_error: Callable[[str, str], None]
    ) -> None:
        super().__init__(bar)
        self.session = session
        self._show_error = show_error
        widgets = StatusWidgets(bar)
        self.counts, self.problems_button = widgets.counts, widgets.problems
        self.warnings_button = widgets.warnings
        self.progress, self.cancel_button = widgets.progress, widgets.cancel
        self._started = 0.0
        self._size_warned = False
        self.warnings_box: QMessageBox | None = None
        self.warnings_button.clicked.connect(lambda: self.show_warnings())
        session.opened.connect(self._opened)
        session.index_progress.connect(self._progress)
        session.index_ended.connect(self._ended)
        session.closed.connect(self._closed)

    def show_warnings(self) -> None:
        """The warnings about the open files, in a box whose text can be copied."""
        texts = self.warnings_button.toolTip().splitlines()
        parent = self.warnings_button.window()
        box = self.warnings_box = QMessageBox(
            QMessageBox.Icon.Warning, "Warnings", "", parent=parent
        )
        box.setText(f"{plural(len(texts), 'warning')} about the open files:")
        box.setInformativeText("\n\n".join(texts))
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.open()

    def _opened(self, dataset: Dataset) -> None:
        show_warnings(self.warnings_button, dataset.warnings)

    def indexing_started(self) -> None:
        """The session's indexer started: the progress bar and Cancel show."""
        self._started = time.monotonic()
        self._size_warned = False
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()

    def _progress(self, at: IndexProgress) -> None:
        ds = self.session.dataset
        if ds is None:
            return
        self.progress.setMaximum(1000)
        self.progress.setValue(int(1000 * min(at.done / at.total, 1.0)) if at.total else 0)
        elapsed = max(time.monotonic() - self._started, 1e-6)
        verb = "verifying" if at.phase else "indexing"
        self.counts.setText(
            f"{verb}: {plural(at.records, 'record')}, {at.done / elapsed / 1e6:,.0f} MB/s"
        )
        show_problem_count(self.problems_button, at.problems)
        if not self._size_warned and (warning := ds.size_warning()) is not None:
            self._size_warned = True
            self._show_error("A very large dataset", warning)

    def _ended(self, state: int, message: str) -> None:
        ds = self.session.dataset
        if ds is None:
            return
        self.progress.hide()
        self.cancel_button.hide()
        show_problem_count(self.problems_button, sum(f.index.problem_count() for f in ds.files))
        elapsed = time.monotonic() - self._started
        if state == IndexState.DONE:
            self.counts.setText(f"{plural(len(ds), 'record')} ({elapsed:.1f} s)")
        elif state == IndexState.CANCELLED:
            self.counts.setText(f"{plural(len(ds), 'record')} so far ({message})")
        else:
            self.counts.setText("indexing failed")
        show_warnings(self.warnings_button, ds.file_warnings())

    def _closed(self) -> None:
        self.counts.clear()
        self.problems_button.hide()
        self.warnings_button.hide()
