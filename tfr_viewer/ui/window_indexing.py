"""What the main window does while and after a dataset is indexed: progress, the
problem count, the end of the scan, and what follows it (keys, summary columns, the first
record). A mixin of :class:`~.main_window.MainWindow`, which owns every attribute used."""

from __future__ import annotations

import time
from typing import Any

from ..core.analyze import choose_summary_keys, feature_keys, feature_kinds, sample_features
from ..core.io import Compression, Dataset
from ..core.text import plural
from .indexer import IndexState
from .status_widgets import show_problem_count, show_warnings


class WindowIndexing:
    """Indexing handlers of the main window (``self`` is the window)."""

    dataset: Any
    model: Any
    indexer: Any

    def _on_progress(
        self, phase: int, records: int, problems: int, done: float, total: float
    ) -> None:
        assert self.model is not None
        self.model.set_count(records)
        if phase == 1:
            self.model.statuses_changed()
        self.progress.setMaximum(1000)
        self.progress.setValue(int(1000 * min(done / total, 1.0)) if total else 0)
        elapsed = max(time.monotonic() - self._started, 1e-6)
        verb = "verifying" if phase else "indexing"
        self.counts.setText(
            f"{verb}: {plural(records, 'record')}, {done / elapsed / 1e6:,.0f} MB/s"
        )
        self._show_problem_count(problems)
        if not self._size_warned and (warning := self.dataset.size_warning()) is not None:
            self._size_warned = True
            self.show_error("A very large dataset", warning)
        if self.current is None and records and not self.table.currentIndex().isValid():
            # a compressed first file waits for the end of the scan: until the child hands
            # over its seek points (or its decoded bytes), a read here would decode the
            # stream on the window's thread
            source = self.dataset.files[0].source
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
            if not self.remote.indexing_failed(message):
                self.show_error("Indexing stopped", message)
        show_warnings(self.warnings_button, ds.file_warnings())
        self.remote.update_verify_button()
        self.remote.refresh_transfer()
        try:
            self._after_index()
            self._update_title()
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
        self.analysis.dataset_indexed()
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
        self.table.known_keys = keys
        self.filter_bar.set_keys(keys, feature_kinds(sample))
        self.model.set_summary_keys(choose_summary_keys(sample, keys))
        self.table.fit_columns()

    def cancel_indexing(self) -> None:
        """The status bar's Cancel: stops indexing, verifying or a URL lookup."""
        self.remote.cancel()
        if self.indexer is not None:
            self.indexer.cancel(wait=False)
