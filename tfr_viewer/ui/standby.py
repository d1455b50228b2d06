"""A child process started ahead of need, ready to index the next dataset opened: its
start-up (an interpreter and the core's imports) then overlaps with the window's own.
Qt-free, so that a launch can start it before Qt is imported."""

from __future__ import annotations

import multiprocessing
import threading
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from ..app.index_jobs import standby_task
from ..app.jobs import run_child

_standby: tuple[BaseProcess, Connection] | None = None  # a child waiting for a job
_standby_lock = threading.Lock()


def prestart() -> None:
    """Start a standby child, unless one is waiting already."""
    global _standby
    with _standby_lock:
        if _standby is None:
            ctx = multiprocessing.get_context("spawn")
            conn, child = ctx.Pipe(duplex=True)
            process = ctx.Process(target=run_child, args=(standby_task, child), daemon=True)
            process.start()
            child.close()
            _standby = (process, conn)


def take_standby() -> tuple[BaseProcess, Connection]:
    """The waiting child and its end of the pipe (started now if none is alive); the
    next call starts another."""
    global _standby
    with _standby_lock:
        taken, _standby = _standby, None
    if taken is None or not taken[0].is_alive():
        prestart()
        with _standby_lock:
            taken, _standby = _standby, None
    assert taken is not None
    return taken
