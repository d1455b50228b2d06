"""The window's indexing in a child process: a dataset indexed and verified while its
rows are shown, streamed to the parent as :mod:`~tfr_viewer.core.task_messages`; the
payload CRCs of a header-indexed dataset checked later (remote files); and the standby
child that has paid its imports before the user opens a file. Whether one verifying
scan or a header pass first is the policy of :mod:`.indexing`."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from multiprocessing.connection import Connection

from ..core.io import CompressedSource, Compression, Dataset
from ..core.io.header_scan import hops
from ..core.io.verify import FINISHED
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
from .indexing import verifies_in_one_scan
from .jobs import on_dataset


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
            in_scan = verifies_in_one_scan(ds)
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

    def job(ds: Dataset) -> None:
        _send_statuses(conn, ds, lambda: None)
        if (figures := ds.transfer()) is not None:
            conn.send(Transfer(figures))
        conn.send(Done(verified=True))

    on_dataset(conn, paths, columns, job, verified=False)


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
