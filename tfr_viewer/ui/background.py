"""Reads of remote records off the window's thread.

Reading a record of a local file takes microseconds; of a remote one, a round trip, and
after a network failure up to the timeouts of its retries. Whatever the window reads from
a remote dataset (the record shown, the summary columns, the sample of keys) goes through
:class:`Background`: the function runs on a small thread pool and its result, or the
exception it raised, comes back on the window's thread.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Signal

Done = Callable[[Any, BaseException | None], None]


class Background(QObject):
    _finished = Signal(object, object, object)  # then, result, error

    def __init__(self, parent: QObject | None = None, workers: int = 4) -> None:
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tfr-read")
        self._finished.connect(lambda then, result, error: then(result, error))

    def run(self, fn: Callable[[], Any], then: Done) -> None:
        """Call ``fn()`` on a worker, then ``then(result, None)`` or ``then(None, error)``
        on this object's thread."""
        self._pool.submit(fn).add_done_callback(lambda f: self._deliver(f, then))

    def _deliver(self, future: Future[Any], then: Done) -> None:
        if future.cancelled():
            return
        error = future.exception()
        try:
            self._finished.emit(then, None if error else future.result(), error)
        except RuntimeError:
            pass  # the window was closed meanwhile

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
