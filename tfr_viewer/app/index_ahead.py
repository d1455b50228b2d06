"""A dataset indexed on a thread of its own while its records are read behind the
index: one pass over a file's bytes from the disk instead of two, for a reader that
takes every record in order (the event read, :func:`.event_log.read_log`).

The scan reads the file ahead of the reader and leaves its pages in the system's cache;
the reader's payloads, right behind it, come from there. Both let go of the
interpreter for their heavy work (reading, framing, decoding), so on two cores the
reader's work is done while the disk is read. Only plain local files are indexed so
(:func:`indexes_ahead`): their reads take a position each, and the index of a file may
be read while it grows (:class:`~..core.io.file_index.FileIndex`)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..core.io import Dataset
from ..core.io.records import CancelToken
from .task_state import Scan, TaskState

_GROWN, _WARNED, _ENDED = range(3)


def indexes_ahead(ds: Dataset) -> bool:
    """Whether ``ds`` has a file left to index and every such file is a plain local
    file read at a position (no compressed or remote stream, whose reader and scan
    would share a decoder's position)."""
    todo = [f for f in ds.files if not f.index.complete]
    return bool(todo) and all(f.open().concurrent_reads for f in todo)


class _Ahead(TaskState):
    """The indexing thread's state: stopped by ``token``; the dataset's length after
    each chunk indexed and the warnings handed to the reader's thread, which says the
    warnings; no progress line of its own (the reader's is shown)."""

    def __init__(self, token: CancelToken, out: queue.SimpleQueue[tuple[int, object]]) -> None:
        self.token, self.out = token, out

    @property
    def cancelled(self) -> bool:
        return self.token.cancelled

    @contextmanager
    def scanning(self, ds: Dataset, verify: bool) -> Iterator[Scan]:
        def grown(_file: int, _position: int) -> None:
            self.out.put((_GROWN, len(ds)))

        yield grown

    def warn(self, text: str) -> None:
        self.out.put((_WARNED, text))


@contextmanager
def index_ahead(ds: Dataset, state: TaskState) -> Iterator[Iterator[int]]:
    """Index ``ds`` (a header pass, :func:`.indexing.index`) on a thread while the
    caller reads; yields an iterator of the number of records indexed so far, each
    larger than the one before, the last the dataset's length once the index is
    complete. The indexing's error (a file that is no TFRecord, a file changed while
    read) is raised from the iterator; the indexing's warnings are said through
    ``state`` on the caller's thread; when the caller stops early (its own error, or
    ``state`` cancelled), the indexing stops and is waited for."""
    from .indexing import index

    token = CancelToken()
    out: queue.SimpleQueue[tuple[int, object]] = queue.SimpleQueue()
    ahead = _Ahead(token, out)

    def run() -> None:
        try:
            index(ds, verify=False, state=ahead)
            out.put((_ENDED, None))
        except BaseException as exc:  # noqa: BLE001 - raised on the reader's thread
            out.put((_ENDED, exc))

    def counts() -> Iterator[int]:
        told = 0
        while True:
            grown = told
            kind, what = out.get()
            while True:  # what the scan told meanwhile, to its newest length
                if kind == _WARNED:
                    state.warn(str(what))
                elif kind == _GROWN:
                    assert isinstance(what, int)
                    grown = max(grown, what)
                else:
                    break
                try:
                    kind, what = out.get_nowait()
                except queue.Empty:
                    break
            if grown > told:
                told = grown
                yield told
            if kind == _ENDED:
                if isinstance(what, BaseException):
                    raise what
                if len(ds) > told:
                    yield len(ds)
                return

    thread = threading.Thread(target=run, name="tfr-index-ahead", daemon=True)
    thread.start()
    try:
        yield counts()
    finally:
        token.cancel()
        thread.join()
