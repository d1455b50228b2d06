"""The read of an open log folder for the run view, off the window's thread: the
application's one read of event files (:func:`~..app.event_log.read_log`) on a dataset
of its own rebuilt from the window's index (its files opened anew, so the window's
reads never share a position with it), in a thread; the compiled pass lets go of
the interpreter while it reads.

As it reads, ``points(chunks, tags)`` hands the window the scalar points read since the
last time (:class:`~..core.analyze.scalar_series.KeptPoints`, made here) and a copy of every
tag's facts so far, the first block at once and then at most a few times a second, so
that the first curve is drawn while the rest is read; ``progress(done, total)``
counts records; ``finished(read, error)`` fires once, with the
:class:`~..app.event_log.ReadLog` (kept by nobody else from then on), or None and the
error (empty when cancelled)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace

from PySide6.QtCore import QObject, QThread, Signal, Slot

from ..app.event_log import read_log
from ..app.task_state import Step, TaskState
from ..core.analyze.event_log import EventLog
from ..core.analyze.scalar_series import KeptPoints
from ..core.io import Dataset
from ..core.io.records import CancelToken
from .threads import stop_worker

SHOW_EVERY = 0.3  # seconds between two hand-overs of points after the first


class _ThreadState(TaskState):
    """Cancelled by ``token``; each phase's progress to ``progress``."""

    def __init__(self, token: CancelToken, progress: Callable[[int, int], None]) -> None:
        self.token, self._progress = token, progress
        self.warnings: list[str] = []

    @property
    def cancelled(self) -> bool:
        return self.token.cancelled

    @contextmanager
    def phase(self, label: str, total: int, unit: str = "records") -> Iterator[Step]:
        def step(done: int, told: int | None = None) -> None:
            self._progress(done, told if told is not None else total)

        yield step

    def warn(self, text: str) -> None:
        self.warnings.append(text)


class RunReadWorker(QObject):
    """Reads the event files ``paths`` indexed as ``columns`` (a window's index, perhaps
    of a part of them yet) from record ``start`` on, into ``log`` (which holds the
    records before) or a new log."""

    points = Signal(object, object)  # list[KeptPoints], list[TagEntry]
    progress = Signal(int, int)
    finished = Signal(object, str)  # ReadLog | None, error

    def __init__(
        self,
        paths: list[str],
        columns: list[tuple[object, ...]],
        log: EventLog | None = None,
        start: int = 0,
    ) -> None:
        super().__init__()
        self.paths, self.columns = paths, columns
        self.log, self.start = log, start
        self.token = CancelToken()
        self._shown = 0.0
        self.warnings: list[str] = []

    @Slot()
    def run(self) -> None:
        state = _ThreadState(self.token, self.progress.emit)
        try:
            with Dataset.from_arrays(self.paths, self.columns) as ds:
                read = read_log(ds, state, each_block=self._block, log=self.log, start=self.start)
        except Exception as exc:  # said in the panel, never a traceback
            self.finished.emit(None, f"cannot read the event files: {exc}")
            return
        self.warnings = state.warnings
        if self.token.cancelled:
            self.finished.emit(None, "")
            return
        self._hand_over(read.log)
        self.finished.emit(read, "")

    def _block(self, log: EventLog) -> None:
        if self._shown and time.monotonic() - self._shown < SHOW_EVERY:
            return
        self._hand_over(log)

    def _hand_over(self, log: EventLog) -> None:
        self._shown = time.monotonic()
        kept = [KeptPoints.of(part) for part in log.scalars.take_parts() if len(part)]
        self.points.emit(kept, [replace(t) for t in log.tags.values()])


class RunReader(QObject):
    """One read at a time; starting another (or :meth:`stop`) cancels the one running.
    Signals as :class:`RunReadWorker`'s, from the read running only."""

    points = Signal(object, object)
    progress = Signal(int, int)
    finished = Signal(object, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread: QThread | None = None
        self._worker: RunReadWorker | None = None

    def start(self, ds: Dataset, log: EventLog | None = None, start: int = 0) -> None:
        """Read ``ds``'s event files as far as they are indexed now, from record
        ``start`` on into ``log`` (None: a new log from the first record)."""
        self.stop()
        thread = self._thread = QThread(self)
        worker = self._worker = RunReadWorker([f.path for f in ds.files], ds.columns(), log, start)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        worker.points.connect(self._points)  # bound slots: run on the window's thread
        worker.progress.connect(self._progress)
        worker.finished.connect(self._done)
        thread.start()

    def running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def warnings(self) -> list[str]:
        """What the last read said that did not stop it."""
        return [] if self._worker is None else list(self._worker.warnings)

    @Slot(object, object)
    def _points(self, chunk: object, tags: object) -> None:
        if self.sender() is self._worker:
            self.points.emit(chunk, tags)

    @Slot(int, int)
    def _progress(self, done: int, total: int) -> None:
        if self.sender() is self._worker:
            self.progress.emit(done, total)

    @Slot(object, str)
    def _done(self, read: object, error: str) -> None:
        if self.sender() is not self._worker:
            return
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait()
        self._thread = None
        self.finished.emit(read, error)

    def stop(self) -> None:
        """Cancel the read running, and wait for its thread to end."""
        stop_worker(self._worker, self._thread)
        self._thread = None
        self._worker = None
