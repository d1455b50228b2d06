"""Any operation in a child process: the window's one job runner for the verbs.

:func:`operation_task` is a child's entry (as :mod:`~tfr_viewer.core.tasks`' are): it
receives ``(paths, columns, request)`` — the dataset as the window indexed it, and a
request of this layer (anything with ``run(ds, state)``) — runs the request with a
:class:`PipeState` that sends its progress as :mod:`~tfr_viewer.core.task_messages`,
and sends ``Done(report)`` or ``Failed``. Cancelling is ending the child."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any, Protocol

from ..core.io import Dataset
from ..core.task_messages import Done, Phase, Progress
from ..core.tasks import on_dataset
from .task_state import Scan, Step, TaskState


class Request(Protocol):
    """A request of the application layer: it runs on a dataset and gives a report."""

    def run(self, ds: Dataset, state: TaskState = ...) -> Any: ...


class PipeState(TaskState):
    """An operation's progress sent to the parent: a scan and each phase as ``Phase``,
    a phase's steps as ``Progress``, a warning as a ``Phase`` that says so."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    @contextmanager
    def scanning(self, ds: Dataset, verify: bool) -> Iterator[Scan]:
        if not all(f.index.complete and (f.index.verified or not verify) for f in ds.files):
            self._conn.send(Phase("verifying" if verify else "indexing"))
        yield lambda _number, _position: None

    @contextmanager
    def phase(self, label: str, total: int, unit: str = "records") -> Iterator[Step]:
        self._conn.send(Phase(label))

        def step(done: int, now: int | None = None, /) -> None:
            self._conn.send(Progress(done, total if now is None else now))

        yield step

    def warn(self, text: str) -> None:
        self._conn.send(Phase(f"warning: {text}"))


def operation_task(conn: Connection) -> None:
    """Receive ``(paths, columns, request)`` and run the request on the dataset
    rebuilt from the parent's index. Messages: ``Phase`` and ``Progress``, then
    ``Done(report)`` or ``Failed``."""
    paths, columns, request = conn.recv()
    on_dataset(conn, paths, columns, lambda ds: conn.send(Done(request.run(ds, PipeState(conn)))))
