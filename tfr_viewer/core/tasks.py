"""Long core jobs run in a child process, talking over a pipe in typed messages.

A CPU-bound Python job in a thread would compete with a GUI thread for the interpreter
lock; in a child process it cannot. Messages are the frozen dataclasses of
:mod:`.task_messages`; every job ends with ``Done`` or ``Failed``. The parent cancels
by terminating the child, which only ever reads files.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from multiprocessing.connection import Connection

from .io import CompressedSource, Compression, Dataset, index_cache
from .io.header_scan import hops, hops_far
from .io.verify import FINISHED
from .task_messages import (
    Chunk,
    Done,
    Failed,
    FileVerified,
    Hits,
    Indexed,
    Inflated,
    Progress,
    SeekPoints,
    Statuses,
    Transfer,
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


def index_task(conn: Connection, paths: list[str], seek_dir: str, verify: bool = True) -> None:
    """Index ``paths`` and check their payload CRCs unless ``verify`` is false,
    streaming the results. Where the first file holds large records (a header-only
    pass hops over them) or its index is cached, a header pass gives the rows and the
    count first and the CRCs are checked after it; otherwise one verifying scan does
    both (reading or decoding every byte once). ``verify`` false only saves transfers
    where a file can be scanned by its headers alone (plain remote files); otherwise
    the CRCs are checked.

    Messages: ``Chunk`` (every file sends at least one, in file order), ``SeekPoints``
    for compressed files (or ``Inflated``: the bytes of a stream rapidgzip refused),
    ``Indexed``, ``Statuses`` and ``FileVerified``, ``Transfer`` for remote files (now
    and then, and before the end), then ``Done(verified=...)`` or ``Failed``.
    """
    ds = Dataset(paths, seek_points=True)
    sent = time.monotonic()

    def transfer(force: bool = False) -> None:
        nonlocal sent
        if force or time.monotonic() - sent > 0.25:
            sent = time.monotonic()
            if (figures := ds.transfer()) is not None:
                conn.send(Transfer(figures))

    try:
        # with nothing to hop over (compressed files are read whole anyway), the CRCs
        # are checked as the scan reads, rather than by reading everything again
        if verify:
            in_scan = _counts_as_it_verifies(ds)
        else:
            in_scan = not any(hops(f.open()) for f in ds.files)
        for number, chunk in ds.scan(verify=in_scan):
            conn.send(Chunk(number, chunk))
            transfer()
        for number, f in enumerate(ds.files):
            if isinstance(f.source, CompressedSource) and f.source.compression is not (
                Compression.NONE
            ):
                target = os.path.join(seek_dir, f"{number}.seekpoints")
                if f.source.export_seek_points(target):
                    conn.send(SeekPoints(number, target))
                elif (decoded := f.source.export_inflated(target)) is not None:
                    conn.send(Inflated(number, target, *decoded))
        conn.send(Indexed())
        if verify and not in_scan:
            _send_statuses(conn, ds, transfer)
        transfer(force=True)
        conn.send(Done(verified=verify or in_scan))
    except Exception as exc:  # reported to the parent, which shows it
        conn.send(Failed.of(exc))
    finally:
        ds.close()
        conn.close()


def _counts_as_it_verifies(ds: Dataset) -> bool:
    """Whether one verifying scan should index ``ds`` for the window: its first file
    holds nothing for a header pass to hop over, and the cache holds no index of it (a
    cached index gives the rows and the count at once, and a verifying scan never
    uses one)."""
    if not ds.files:
        return True
    first = ds.files[0]
    if hops_far(first.open()):
        return False
    return index_cache.kept(first.path) is None


STATUS_SECONDS = 0.1  # settled statuses are sent at most this long after they are known


def _send_statuses(conn: Connection, ds: Dataset, tick: Callable[[], None]) -> None:
    """Verify the payload CRCs of an indexed dataset, sending the statuses as they are
    settled: a file's consecutive blocks as one message, at least every
    :data:`STATUS_SECONDS` (a message a block would cost the window more than checking
    the block), and all of a file's before its ``FileVerified``."""
    runs: dict[int, list[int]] = {}  # file -> [first, end) settled and not yet sent
    sent = time.monotonic()

    def send(number: int) -> None:
        first, end = runs.pop(number)
        conn.send(Statuses(number, first, ds.files[number].index.statuses(first, end)))
        tick()

    for number, first, end in ds.verify():
        if first == FINISHED:
            if number in runs:
                send(number)
            conn.send(FileVerified(number))
            continue
        run = runs.get(number)
        if run is not None and run[1] == first:
            run[1] = end
        else:
            if run is not None:
                send(number)
            runs[number] = [first, end]
        if time.monotonic() - sent >= STATUS_SECONDS:
            for waiting in list(runs):
                send(waiting)
            sent = time.monotonic()
    for waiting in list(runs):
        send(waiting)


def verify_task(conn: Connection) -> None:
    """Receive ``(paths, columns)`` (a header-only index per file) and check every
    payload CRC: ``Statuses`` and ``FileVerified`` as :func:`index_task` sends them,
    ``Transfer`` for remote files, then ``Done(verified=True)`` or ``Failed``."""
    paths, columns = conn.recv()
    ds = Dataset.from_arrays(paths, columns, verified=False)
    try:
        _send_statuses(conn, ds, lambda: None)
        if (figures := ds.transfer()) is not None:
            conn.send(Transfer(figures))
        conn.send(Done(verified=True))
    except Exception as exc:  # reported to the parent, which shows it
        conn.send(Failed.of(exc))
    finally:
        ds.close()
        conn.close()


def _on_dataset(
    conn: Connection, paths: list[str], columns: list[tuple], job: Callable[[Dataset], None]
) -> None:
    """Run ``job`` on a dataset rebuilt from a parent's index; errors become ``Failed``."""
    ds = Dataset.from_arrays(paths, columns)
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

    _on_dataset(conn, paths, columns, job)


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

    _on_dataset(conn, paths, columns, job)


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

    _on_dataset(conn, paths, columns, job)


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


def standby_task(conn: Connection) -> None:
    """Wait, already imported, for one job ``(name, *args)`` and run it on ``conn``.
    Starting a child costs interpreter start-up and imports; a standby child has paid
    them before the user opens a file."""
    try:
        job = conn.recv()
    except EOFError:
        return
    name, *args = job
    {"index": index_task}[name](conn, *args)
