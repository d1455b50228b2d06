"""Index a dataset without blocking the window: the scan runs in a child process.

The child (:func:`tfr_viewer.app.index_jobs.index_task`) streams index chunks, then payload
statuses. A reader thread here receives them and hands each to the window's thread,
which applies it to the window's :class:`Dataset` (the dataset changes on that thread
only, so the table never reads an index while it grows) and emits throttled
``progress`` signals. Cancelling terminates the child, which only reads files.
"""

from __future__ import annotations

import enum
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Signal

from ..core.io import CompressedSource, Dataset
from ..core.task_messages import (
    Chunk,
    Done,
    Failed,
    FileVerified,
    Indexed,
    Inflated,
    SeekPoints,
    Statuses,
    Transfer,
)
from .process_task import SignalGate
from .standby import prestart, take_standby


def compressed(ds: Dataset, number: int) -> CompressedSource:
    """File ``number``'s source, which the child said is compressed."""
    source = ds.files[number].open()
    assert isinstance(source, CompressedSource)
    return source


class IndexState(enum.IntEnum):
    DONE = 0
    CANCELLED = 1
    FAILED = 2


@dataclass(frozen=True)
class IndexProgress:
    """Where indexing stands: ``phase`` 0 is the header pass, 1 the CRC check;
    ``done`` of ``total`` bytes (of the files on disk)."""

    phase: int
    records: int
    problems: int
    done: float
    total: float


class Indexer(QObject):
    """Owns the child process and the reader thread for one dataset."""

    progress = Signal(object)  # IndexProgress
    finished = Signal(int, str)  # IndexState, message (see ``failure`` for its kind)
    transferred = Signal(object)  # {bytes, requests, seconds} read from remote files so far
    _received = Signal(object)  # a message of the child, from the reader thread

    def __init__(
        self,
        dataset: Dataset,
        parent: QObject | None = None,
        interval: float = 0.2,
        verify: bool = True,
    ) -> None:
        """``verify`` false: a header pass only (payload CRCs stay unverified)."""
        super().__init__(parent)
        self.dataset = dataset
        self.interval = interval
        self.running = False
        self._cancelled = False
        self.counted_at: float | None = None  # wall-clock time every record was known
        self.failure: Failed | None = None  # why indexing failed, once it has
        self._last = 0.0
        self._seek_dir = tempfile.mkdtemp(prefix="tfr-viewer-")
        self._process, self._conn = take_standby()
        self._conn.send(("index", [f.path for f in dataset.files], self._seek_dir, verify))
        self._thread = threading.Thread(target=self._read, name="tfr-index-reader", daemon=True)
        # what the child sends is applied on this object's (the window's) thread
        self._current = -1  # the file whose chunks arrive
        self._settled = 0  # records whose CRC the child has checked
        self._done_files = 0.0  # bytes of the files indexed
        gate = self._gate = SignalGate()
        seek_dir = self._seek_dir

        def gone(*_args: object) -> None:
            """Closed before the end was applied: nothing reads the folder any more."""
            gate.close()
            shutil.rmtree(seek_dir, ignore_errors=True)

        self.destroyed.connect(gone)
        self._received.connect(self._apply, Qt.ConnectionType.QueuedConnection)

    def start(self) -> None:
        """Returns at once; the child is started from the reader thread."""
        self.running = True
        self._thread.start()

    def cancel(self, wait: bool = True) -> None:
        """Stop the child; the reader thread then reports CANCELLED."""
        self._cancelled = True
        if self._process.pid is not None and self._process.is_alive():
            self._process.terminate()
        if wait:
            self._thread.join(timeout=10)
            self._process.join(timeout=10)

    # -- reader thread -------------------------------------------------------------
    def _total_bytes(self) -> float:
        ds = self.dataset
        return float(
            sum(f.source.compressed_size if f.source is not None else 0 for f in ds.files) or 1
        )

    def _emit(self, phase: int, done: float, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self._last >= self.interval:
            self._last = now
            problems = sum(f.index.problem_count() for f in self.dataset.files)
            total = self._total_bytes()
            self.progress.emit(IndexProgress(phase, len(self.dataset), problems, done, total))

    def _advance(self, number: int) -> None:
        """Finish the current file and begin each file up to ``number`` (files arrive in
        order)."""
        ds = self.dataset
        while self._current < number:
            if self._current >= 0:
                ds.finish_file(self._current, verified=False)
                self._done_files += ds.files[self._current].open().compressed_size
            self._current += 1
            ds.begin_file(self._current)

    # -- the reader thread: messages in, forwarded to the window's thread -------------
    def _forward(self, msg: object) -> None:
        self._gate.emit(self, "_received", msg)

    def _read(self) -> None:
        end = _Ended(IndexState.FAILED, "the indexing process stopped unexpectedly")
        try:
            prestart()  # the next Open gets a fresh standby; started off the window's thread
            if self._cancelled:
                self._process.terminate()
            for f in self.dataset.files:
                f.open()  # network round trips for remote files: never on the window's thread
            while True:
                try:
                    msg = self._conn.recv()
                except (EOFError, OSError):
                    break
                if isinstance(msg, Indexed):
                    self.counted_at = time.time()
                self._forward(msg)
                if isinstance(msg, Done):
                    end = _Ended(IndexState.DONE, "")
                    break
                if isinstance(msg, Failed):
                    end = _Ended(IndexState.FAILED, msg.message, msg)
                    break
        except Exception as exc:  # shown in the window, never a traceback
            failure = Failed.of(exc)
            end = _Ended(IndexState.FAILED, failure.message, failure)
        finally:
            self._conn.close()
            self._process.join(timeout=5)
            if self._cancelled:
                end = _Ended(IndexState.CANCELLED, "indexing cancelled")
            try:
                self._forward(end)  # the seek points' folder goes when it is applied
            except RuntimeError:
                shutil.rmtree(self._seek_dir, ignore_errors=True)  # the window is gone

    # -- the window's thread: the dataset changes here only ------------------------------
    def _apply(self, msg: object) -> None:
        """Apply one message of the child to the dataset (on the window's thread, so the
        table never reads an index while it grows)."""
        if isinstance(msg, _Ended):
            # every message before this one is applied: the files the child left for the
            # seek points (or a refused stream's decoded bytes) have been read
            shutil.rmtree(self._seek_dir, ignore_errors=True)
            self.running = False
            self.failure = msg.failure
            self.finished.emit(int(msg.state), msg.message)
            return
        if self._cancelled:
            return  # the window may have closed the dataset meanwhile
        ds = self.dataset
        match msg:
            case Chunk(number, chunk):
                self._advance(number)
                ds.files[number].index.add(chunk)
                src = ds.files[number].open()
                frac = min(chunk.position / (src.size or src.compressed_size or 1), 1.0)
                self._emit(0, self._done_files + frac * src.compressed_size)
            case SeekPoints(number, path):
                compressed(ds, number).import_seek_points(path)
            case Inflated(number, path, size, problem):  # decoded once, in the child
                compressed(ds, number).import_inflated(path, size, problem)
            case Indexed():
                self._advance(len(ds.files) - 1)
                ds.finish_file(self._current, verified=False)
                self._emit(0, self._total_bytes(), force=True)
            case Statuses(number, start, statuses):
                ds.files[number].index.set_statuses(start, statuses)
                self._settled += len(statuses)
                self._emit(1, self._settled / max(len(ds), 1) * self._total_bytes())
            case FileVerified(number):
                ds.files[number].index.verified = True
            case Transfer(figures):
                self.transferred.emit(figures)
            case Done(_result, verified):
                for f in ds.files:
                    f.index.verified = f.index.verified or verified
                self._emit(1, self._total_bytes(), force=True)


@dataclass(frozen=True)
class _Ended:
    """The reader thread's last word: how indexing ended."""

    state: IndexState
    message: str
    failure: Failed | None = None
