"""Long core jobs run in a child process, talking over a pipe in typed messages.

A CPU-bound Python job in a thread would compete with a GUI thread for the interpreter
lock; in a child process it cannot. Messages are the frozen dataclasses of
:mod:`.task_messages`; every job ends with ``Done`` or ``Failed``. The parent cancels
by terminating the child, which only ever reads files.
"""

from __future__ import annotations

from collections.abc import Callable
from multiprocessing.connection import Connection

from .io import Dataset
from .task_messages import (
    Done,
    Failed,
    Hits,
    Progress,
)


def run_child(
    job: Callable[[Connection], None],
    conn: Connection,
    read: frozenset[tuple[int, int]] = frozenset(),
) -> None:
    """The entry of every child job: ``job(conn)``, knowing the files its parent has
    read (``read``: inputs no output of the job may replace). A parent that has gone
    (the window closed while the job worked) ends the child quietly: its pipe broke,
    and there is nobody left to tell."""
    from .io.inputs_read import carry

    carry(read)
    try:
        job(conn)
    except (BrokenPipeError, ConnectionResetError, EOFError):
        pass


def _progress(conn: Connection) -> Callable[[int, int], None]:
    """A core progress callback that sends :class:`Progress`."""
    return lambda done, total: conn.send(Progress(done, total))


def on_dataset(
    conn: Connection,
    paths: list[str],
    columns: list[tuple],
    job: Callable[[Dataset], None],
    verified: bool = True,
) -> None:
    """Run ``job`` on a dataset rebuilt from a parent's index (``verified``: its
    statuses are a CRC pass's); errors become ``Failed``; the pipe is closed after."""
    ds = Dataset.from_arrays(paths, columns, verified=verified)
    try:
        job(ds)
    except Exception as exc:  # reported to the parent, which shows it
        conn.send(Failed.of(exc))
    finally:
        ds.close()
        conn.close()


def filter_task(conn: Connection) -> None:
    """Receive ``(paths, columns, text, edited payloads)`` and run filter ``text`` over
    records whose index is given per file as ``(offsets, lengths, statuses)``. Messages:
    ``Progress`` (with ``matches``), ``Hits`` per block, then ``Done`` or ``Failed``."""
    from .query import compile_filter, filter_dataset

    paths, columns, text, edited = conn.recv()

    def job(ds: Dataset) -> None:
        flt = compile_filter(text)

        def progress(done: int, total: int, matches: int) -> None:
            conn.send(Progress(done, total, matches))

        for hits in filter_dataset(ds, flt, progress=progress, edited=edited):
            if len(hits):
                conn.send(Hits(hits))
        conn.send(Done())

    on_dataset(conn, paths, columns, job)


def export_task(conn: Connection) -> None:
    """Receive ``(paths, columns, records, options, payloads)`` and export. Messages:
    ``Progress``, then ``Done(ExportSummary)`` or ``Failed``. If the parent terminates
    this process, the temporary files are removed by
    :func:`~.output.clean_stale_temporaries`."""
    from .write.export import export

    paths, columns, records, options, payloads = conn.recv()

    def job(ds: Dataset) -> None:
        summary = export(ds, records, options, payloads=payloads, progress=_progress(conn))
        conn.send(Done(summary))

    on_dataset(conn, paths, columns, job)


def format_export_task(conn: Connection) -> None:
    """Receive ``(paths, columns, records, payloads, fmt, out)`` with ``fmt`` a format of
    :mod:`.write.writers` that writes edits; ``out`` may be replaced (the window asked).
    Messages: ``Progress``, then ``Done(records written)`` or ``Failed``."""
    from .write.writers import write

    paths, columns, records, payloads, fmt, out = conn.recv()

    def job(ds: Dataset) -> None:
        read = lambda i: payloads[i] if i in payloads else ds.read(i)  # noqa: E731
        count = write(fmt, ds, records, out, overwrite=True, read=read, progress=_progress(conn))
        conn.send(Done(count))

    on_dataset(conn, paths, columns, job)


def convert_task(conn: Connection) -> None:
    """Receive ``(listing, options)`` and convert the images. Messages: ``Progress``,
    then ``Done(ConvertSummary)`` or ``Failed``. When the
    parent terminates this process, no output file is left (export's temporaries are
    removed by the next export into the folder)."""
    from .write.convert import convert

    listing, options = conn.recv()
    try:
        conn.send(Done(convert(listing, options, progress=_progress(conn))))
    except Exception as exc:  # reported to the parent, which shows it
        conn.send(Failed.of(exc))
    finally:
        conn.close()
