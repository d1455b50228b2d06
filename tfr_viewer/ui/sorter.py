"""Sort the table in a worker thread over the core's :func:`sort_records`, with progress
and cancellation; the window never waits for it."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, QThread, Signal, Slot

from ..core.io import CancelToken, Dataset
from ..core.query import sort_records
from .threads import stop_worker


class SortWorker(QObject):
    progress = Signal(int, int)
    # records in order (None: cancelled or failed), column, descending, error
    finished = Signal(object, str, bool, str)

    def __init__(
        self,
        dataset: Dataset,
        records: np.ndarray,
        column: str,
        descending: bool,
        edited: dict[int, bytes],
    ) -> None:
        super().__init__()
        self.args = (dataset, records, column, descending, edited)
        self.token = CancelToken()

    @Slot()
    def run(self) -> None:
        dataset, records, column, descending, edited = self.args
        try:
            order = sort_records(
                dataset,
                records,
                column,
                descending=descending,
                cancel=self.token,
                progress=self.progress.emit,
                edited=edited,
            )
        except Exception as exc:  # shown in the status bar, never a traceback
            self.finished.emit(None, column, descending, f"cannot sort by {column}: {exc}")
            return
        self.finished.emit(order, column, descending, "")


class Sorter(QObject):
    """One sort at a time; starting another (or :meth:`stop`) cancels the running one."""

    progress = Signal(int, int)
    finished = Signal(object, str, bool, str)  # records, column, descending, error

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread: QThread | None = None
        self._worker: SortWorker | None = None

    def start(
        self,
        dataset: Dataset,
        records: np.ndarray,
        column: str,
        descending: bool,
        edited: dict[int, bytes],
    ) -> None:
        self.stop()
        thread = self._thread = QThread(self)
        worker = self._worker = SortWorker(dataset, records, column, descending, edited)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        worker.progress.connect(self.progress)
        # a bound slot of this object: delivered queued, in the window's thread
        worker.finished.connect(self._done)
        thread.start()

    @Slot(object, str, bool, str)
    def _done(self, order: object, column: str, desc: bool, err: str) -> None:
        if self.sender() is not self._worker:
            return  # a sort that was replaced meanwhile
        self.stop()
        if order is not None or err:
            self.finished.emit(order, column, desc, err)

    def running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def stop(self) -> None:
        stop_worker(self._worker, self._thread)
        self._thread = self._worker = None
