"""Index a dataset in a worker thread: a header pass (rows appear), then verification.

Signals carry plain values only. ``progress`` is throttled to a few per second so that
the event loop stays free.
"""

from __future__ import annotations

import enum
import time

from PySide6.QtCore import QObject, QThread, Signal, Slot

from ..core.dataset import Dataset
from ..core.records import CancelToken


class IndexState(enum.IntEnum):
    DONE = 0
    CANCELLED = 1
    FAILED = 2


class IndexWorker(QObject):
    """Runs in a QThread; never touches widgets."""

    # phase (0 header pass, 1 verifying), records known, problems, bytes done, total bytes
    progress = Signal(int, int, int, float, float)
    finished = Signal(int, str)  # IndexState, message

    def __init__(self, dataset: Dataset, interval: float = 0.1) -> None:
        super().__init__()
        self.dataset = dataset
        self.token = CancelToken()
        self._interval = interval
        self._last = 0.0

    def _total_bytes(self) -> float:
        return float(
            sum(
                f.source.size or f.source.compressed_size
                for f in self.dataset.files
                if f.source is not None
            )
            or 1
        )

    def _emit(self, phase: int, done_bytes: float, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < self._interval:
            return
        self._last = now
        problems = sum(f.index.problem_count() for f in self.dataset.files)
        self.progress.emit(phase, len(self.dataset), problems, done_bytes, self._total_bytes())

    @Slot()
    def run(self) -> None:
        ds = self.dataset
        try:
            done_before = 0.0
            current = -1
            for number, chunk in ds.scan(verify=False, cancel=self.token):
                if number != current:
                    if current >= 0:
                        done_before += ds.files[current].index.position
                    current = number
                self._emit(0, done_before + chunk.position)
            if self.token.cancelled:
                self.finished.emit(IndexState.CANCELLED, "indexing cancelled")
                return
            self._emit(0, self._total_bytes(), force=True)
            total = max(len(ds), 1)
            for number, done, _bad in ds.verify(cancel=self.token):
                self._emit(1, self._total_bytes() * (ds.start_of(number) + done) / total)
            if self.token.cancelled:
                self.finished.emit(IndexState.CANCELLED, "verification cancelled")
                return
            self._emit(1, self._total_bytes(), force=True)
            self.finished.emit(IndexState.DONE, "")
        except Exception as exc:  # reported in the status bar, never a traceback
            self.finished.emit(IndexState.FAILED, str(exc))


class Indexer(QObject):
    """Owns the worker thread for one dataset; ``cancel`` stops it and waits."""

    progress = Signal(int, int, int, float, float)
    finished = Signal(int, str)

    def __init__(self, dataset: Dataset, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread = QThread()
        self._worker = IndexWorker(dataset)
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        self._worker.progress.connect(self.progress)
        self._worker.finished.connect(self._on_finished)
        self.running = False

    def start(self) -> None:
        self.running = True
        self._thread.start()

    def _on_finished(self, state: int, message: str) -> None:
        self.running = False
        self._thread.quit()
        self.finished.emit(state, message)

    def cancel(self, wait: bool = True) -> None:
        """Ask the worker to stop; with ``wait``, block until its thread has ended."""
        self._worker.token.cancel()
        if wait:
            self._thread.quit()
            self._thread.wait()
