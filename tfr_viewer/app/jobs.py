"""Any operation in a child process: the window's one job runner.

A CPU-bound Python job in a thread would compete with the window's thread for the
interpreter lock; in a child process it cannot. :func:`run_child` is every child's
entry. :func:`operation_task` receives what :func:`operation_payload` makes — the
dataset as the window indexed it (with the message type its records are read as), and a
request of this layer (anything with ``run(ds, state)``);
:func:`standalone_task` receives a request that reads no indexed dataset (``run(state)``:
a conversion of images). Either runs the request with a :class:`PipeState`, which sends
its progress as :mod:`~tfr_viewer.core.task_messages`, and sends ``Done(report)`` or
``Failed``. Cancelling is ending the child, which writes only through the output
layer's temporaries."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any, Protocol

from ..core.io import Dataset
from ..core.task_messages import Done, Failed, Partial, Phase, Progress
from .task_state import Scan, Step, TaskState


class Request(Protocol):
    """A request of the application layer: it runs on a dataset and gives a report."""

    def run(self, ds: Dataset, state: TaskState = ...) -> Any: ...


class StandaloneRequest(Protocol):
    """A request that reads no indexed dataset (its inputs are in it)."""

    def run(self, state: TaskState = ...) -> Any: ...


class PipeState(TaskState):
    """An operation's progress sent to the parent: a scan and each phase as ``Phase``,
    a phase's steps as ``Progress``, a warning as a ``Phase`` that says so, a partial
    result as ``Partial``."""

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

    def partial(self, result: object) -> None:
        self._conn.send(Partial(result))


def run_child(
    job: Callable[[Connection], None],
    conn: Connection,
    read: frozenset[tuple[int, int]] = frozenset(),
) -> None:
    """The entry of every child job: ``job(conn)``, knowing the files its parent has
    read (``read``: inputs no output of the job may replace). A parent that has gone
    (the window closed while the job worked) ends the child quietly: its pipe broke,
    and there is nobody left to tell."""
    from ..core.io.inputs_read import carry

    carry(read)
    try:
        job(conn)
    except (BrokenPipeError, ConnectionResetError, EOFError):
        pass


def operation_payload(ds: Dataset, request: Request) -> tuple[Any, ...]:
    """What :func:`operation_task` receives to run ``request`` on ``ds``: its files,
    its index, and what its records are read as (the user's message type, or None)."""
    from ..core.decode.message_types import spec_of

    return [f.path for f in ds.files], ds.columns(), request, spec_of(ds.message_type)


def on_dataset(
    conn: Connection,
    paths: list[str],
    columns: list[tuple[Any, ...]],
    job: Callable[[Dataset], None],
    verified: bool = True,
    spec: Any = None,
) -> None:
    """Run ``job`` on a dataset rebuilt from a parent's index (``verified``: its
    statuses are a CRC pass's; ``spec``: the message type its records are read as, see
    :func:`~..core.decode.message_types.spec_of`); errors become ``Failed``; the pipe is
    closed after."""
    ds = Dataset.from_arrays(paths, columns, verified=verified)
    try:
        if spec is not None:
            from ..core.decode.message_types import from_spec

            ds.message_type = from_spec(spec)
        job(ds)
    except Exception as exc:  # reported to the parent, which shows it
        conn.send(Failed.of(exc))
    finally:
        ds.close()
        conn.close()


def operation_task(conn: Connection) -> None:
    """Receive :func:`operation_payload`'s tuple and run its request on the dataset
    rebuilt from the parent's index. Messages: ``Phase``, ``Progress`` and
    ``Partial``, then ``Done(report)`` or ``Failed``."""
    paths, columns, request, spec = conn.recv()
    on_dataset(
        conn,
        paths,
        columns,
        lambda ds: conn.send(Done(request.run(ds, PipeState(conn)))),
        spec=spec,
    )


def standalone_task(conn: Connection) -> None:
    """Receive a :class:`StandaloneRequest` and run it. Messages as
    :func:`operation_task`'s."""
    request = conn.recv()
    try:
        conn.send(Done(request.run(PipeState(conn))))
    except Exception as exc:  # reported to the parent, which shows it
        conn.send(Failed.of(exc))
    finally:
        conn.close()
