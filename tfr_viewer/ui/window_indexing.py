"""What the main window does while and after a dataset is indexed: progress, the
problem count, the end of the scan, and what follows it (keys, summary columns, the first
record). A mixin of :class:`~.main_window.MainWindow`, which owns every attribute used."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton

from ..core.analyze import choose_summary_keys, feature_keys, feature_kinds, sample_features
from ..core.analyze.sample import sample_classes
from ..core.io import Compression, Dataset
from ..core.text import plural
from .indexer import IndexProgress, IndexState
from .status_widgets import show_problem_count, show_warnings

if TYPE_CHECKING:
    from .analysis_actions import AnalysisActions
    from .filter_bar import FilterBar
    from .indexer import Indexer
    from .models.record_table import RecordTableModel
    from .panels.gallery import Gallery
    from .record_view import RecordTableView
    from .remote_actions import RemoteActions
    from .session import Session


class WindowIndexing:
    """Indexing handlers of the main window (``self`` is the window, which makes each
    of the attributes declared here)."""

    session: Session
    analysis: AnalysisActions
    table: RecordTableView
    gallery: Gallery
    filter_bar: FilterBar
    remote: RemoteActions
    progress: QProgressBar
    counts: QLabel
    cancel_button: QPushButton
    problems_button: QPushButton
    warnings_button: QPushButton
    index_finished: SignalInstance
    _started: float
    _size_warned: bool

    if TYPE_CHECKING:  # the window's properties and methods this mixin uses

        @property
        def dataset(self) -> Dataset | None: ...
        @property
        def model(self) -> RecordTableModel | None: ...
        @property
        def indexer(self) -> Indexer | None: ...
        @property
        def current(self) -> int | None: ...

        def select_record(self, record: int) -> bool: ...
        def show_record(self, record: int) -> None: ...
        def show_error(self, title: str, text: str) -> None: ...
        def _update_title(self) -> None: ...

    def _on_progress(self, at: IndexProgress) -> None:
        ds, model = self.dataset, self.model
        assert ds is not None and model is not None
        model.set_count(at.records)
        if at.phase == 1:
            model.statuses_changed()
        self.progress.setMaximum(1000)
        self.progress.setValue(int(1000 * min(at.done / at.total, 1.0)) if at.total else 0)
        elapsed = max(time.monotonic() - self._started, 1e-6)
        verb = "verifying" if at.phase else "indexing"
        self.counts.setText(
            f"{verb}: {plural(at.records, 'record')}, {at.done / elapsed / 1e6:,.0f} MB/s"
        )
        self._show_problem_count(at.problems)
        if not self._size_warned and (warning := ds.size_warning()) is not None:
            self._size_warned = True
            self.show_error("A very large dataset", warning)
        if self.current is None and at.records and not self.table.currentIndex().isValid():
            # a compressed first file waits for the end of the scan: until the child hands
            # over its seek points (or its decoded bytes), a read here would decode the
            # stream on the window's thread
            source = ds.files[0].source
            if source is not None and source.compression is Compression.NONE:
                self.select_record(0)
        self._update_title()

    def _show_problem_count(self, problems: int) -> None:
        show_problem_count(self.problems_button, problems)

    def _on_finished(self, state: int, message: str) -> None:
        ds = self.dataset
        if ds is None or self.model is None:
            return
        self.progress.hide()
        self.cancel_button.hide()
        self.model.set_count(len(ds))
        self.model.statuses_changed()
        problems = sum(f.index.problem_count() for f in ds.files)
        self._show_problem_count(problems)
        elapsed = time.monotonic() - self._started
        if state == IndexState.DONE:
            self.counts.setText(f"{plural(len(ds), 'record')} ({elapsed:.1f} s)")
        elif state == IndexState.CANCELLED:
            self.counts.setText(f"{plural(len(ds), 'record')} so far ({message})")
        else:
            self.counts.setText("indexing failed")
            failure = self.indexer.failure if self.indexer is not None else None
            if not self.remote.indexing_failed(failure):
                self.show_error("Indexing stopped", message)
        show_warnings(self.warnings_button, ds.file_warnings())
        self.remote.update_verify_button()
        self.remote.refresh_transfer()
        try:
            self._after_index()
            self._update_title()
            self.session.workspace.indexed(state)
        finally:
            self.index_finished.emit(state)

    def _after_index(self) -> None:
        ds = self.dataset
        if ds is None or self.model is None:
            return
        if len(ds):
            sampled = lambda sample, _exc: self._use_sample(ds, sample or [])  # noqa: E731
            if not self.remote.off_thread(lambda: sample_features(ds), sampled):
                self._use_sample(ds, sample_features(ds))
        self.table.fit_columns()  # now that the largest offset and the columns are known
        if not len(ds):
            return
        self.gallery.refresh()
        if self.current is None and not self.table.currentIndex().isValid():
            self.select_record(0)
        elif self.current is not None:
            self.show_record(self.current)  # its status is settled now

    def _use_sample(self, ds: Dataset, sample: list[dict]) -> None:
        """Keys for completion and the summary columns, from the first records."""
        if ds is not self.dataset or self.model is None:
            return
        keys = feature_keys(sample)
        self.analysis.sampled_classes = sample_classes(sample)
        self.table.known_keys = keys
        self.filter_bar.set_keys(keys, feature_kinds(sample))
        self.model.set_summary_keys(choose_summary_keys(sample, keys))
        self.table.fit_columns()

    def cancel_indexing(self) -> None:
        """The status bar's Cancel: stops indexing, verifying or a URL lookup."""
        self.remote.cancel()
        if self.indexer is not None:
            self.indexer.cancel(wait=False)
