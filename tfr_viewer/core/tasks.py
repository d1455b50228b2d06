"""Long core jobs run in a child process, talking over a pipe in plain messages.

A CPU-bound Python job in a thread would compete with a GUI thread for the interpreter
lock; in a child process it cannot. Messages are tuples of plain data (ints, strings,
numpy arrays, frozen dataclasses). The parent cancels by terminating the child, which
only ever reads files.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from multiprocessing.connection import Connection

from .io import CompressedSource, Compression, Dataset
from .io.header_scan import hops
from .io.verify import FINISHED


def index_task(conn: Connection, paths: list[str], seek_dir: str, verify: bool = True) -> None:
    """Index ``paths`` (header pass, then payload CRCs unless ``verify`` is false) and
    stream the results. ``verify`` false only saves transfers where a file can be
    scanned by its headers alone (plain remote files); otherwise the CRCs are checked.

    Messages: ``("chunk", file, IndexChunk)`` (every file sends at least one, in file
    order), ``("seek_points", file, path)`` for compressed files (or ``("inflated",
    file, path, size, problem)``: the bytes of a stream rapidgzip refused), ``("indexed",)``,
    ``("statuses", file, start, uint8 array)`` (parts of a file may come in any order),
    ``("verified", file)`` once all of a file's are sent, ``("transfer", {bytes,
    requests, seconds})`` for remote files (now and then, and before the end), then
    ``("done", verified)`` or ``("error", text)``.
    """
    import time

    ds = Dataset(paths, seek_points=True)
    sent = time.monotonic()

    def transfer(force: bool = False) -> None:
        nonlocal sent
        if force or time.monotonic() - sent > 0.25:
            sent = time.monotonic()
            if (figures := ds.transfer()) is not None:
                conn.send(("transfer", figures))

    try:
        # with nothing to hop over (compressed files are read whole anyway), the CRCs
        # are checked as the scan reads, rather than by reading everything again
        in_scan = not verify and not any(hops(f.open()) for f in ds.files)
        for number, chunk in ds.scan(verify=in_scan):
            conn.send(("chunk", number, chunk))
            transfer()
        for number, f in enumerate(ds.files):
            if isinstance(f.source, CompressedSource) and f.source.compression is not (
                Compression.NONE
            ):
                target = os.path.join(seek_dir, f"{number}.seekpoints")
                if f.source.export_seek_points(target):
                    conn.send(("seek_points", number, target))
                elif (decoded := f.source.export_inflated(target)) is not None:
                    conn.send(("inflated", number, target, *decoded))
        conn.send(("indexed",))
        if verify:
            _send_statuses(conn, ds, transfer)
        transfer(force=True)
        conn.send(("done", verify or in_scan))
    except Exception as exc:  # reported to the parent, which shows it
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        ds.close()
        conn.close()


def _send_statuses(conn: Connection, ds: Dataset, tick: Callable[[], None]) -> None:
    """Verify the payload CRCs of an indexed dataset, sending the statuses block by block."""
    for number, first, end in ds.verify():
        if first == FINISHED:
            conn.send(("verified", number))
            continue
        conn.send(("statuses", number, first, ds.files[number].index.statuses(first, end)))
        tick()


def verify_task(conn: Connection) -> None:
    """Receive ``(paths, columns)`` (a header-only index per file) and check every
    payload CRC: ``("statuses", file, start, uint8 array)`` and ``("verified", file)``
    messages as :func:`index_task` sends them, ``("transfer", figures)`` for remote
    files, then ``("done", True)`` or ``("error", text)``."""
    paths, columns = conn.recv()
    ds = Dataset.from_arrays(paths, columns, verified=False)
    try:
        _send_statuses(conn, ds, lambda: None)
        if (figures := ds.transfer()) is not None:
            conn.send(("transfer", figures))
        conn.send(("done", True))
    except Exception as exc:  # reported to the parent, which shows it
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        ds.close()
        conn.close()


def _on_dataset(
    conn: Connection, paths: list[str], columns: list[tuple], job: Callable[[Dataset], None]
) -> None:
    """Run ``job`` on a dataset rebuilt from a parent's index; errors become messages."""
    ds = Dataset.from_arrays(paths, columns)
    try:
        job(ds)
    except Exception as exc:  # reported to the parent, which shows it
        conn.send(("error", str(exc)))
    finally:
        ds.close()
        conn.close()


def filter_task(conn: Connection) -> None:
    """Receive ``(paths, columns, text, edited payloads)`` and run filter ``text`` over
    records whose index is given per file as ``(offsets, lengths, statuses)``. Messages:
    ``("progress", done, total, matches)``, ``("hits", int64 array)`` per block, then
    ``("done",)`` or ``("error", text)``."""
    from .query import compile_filter, filter_dataset

    paths, columns, text, edited = conn.recv()

    def job(ds: Dataset) -> None:
        flt = compile_filter(text)
        progress = lambda done, total, matches: conn.send(("progress", done, total, matches))  # noqa: E731
        for hits in filter_dataset(ds, flt, progress=progress, edited=edited):
            if len(hits):
                conn.send(("hits", hits))
        conn.send(("done",))

    _on_dataset(conn, paths, columns, job)


def export_task(conn: Connection) -> None:
    """Receive ``(paths, columns, records, options, payloads)`` and export. Messages:
    ``("progress", done, total)``, then ``("summary", ExportSummary)`` or
    ``("error", text)``. If the parent terminates this process, the temporary files
    are removed by :func:`~.output.clean_stale_temporaries`."""
    from .write.export import export

    paths, columns, records, options, payloads = conn.recv()

    def job(ds: Dataset) -> None:
        progress = lambda done, total: conn.send(("progress", done, total))  # noqa: E731
        conn.send(("summary", export(ds, records, options, payloads=payloads, progress=progress)))

    _on_dataset(conn, paths, columns, job)


def format_export_task(conn: Connection) -> None:
    """Receive ``(paths, columns, records, payloads, fmt, out)`` with ``fmt`` a format of
    :mod:`.write.writers` that writes edits; ``out`` may be replaced (the window asked).
    Messages: ``("progress", done, total)``, then ``("written", count)`` or
    ``("error", text)``."""
    from .write.writers import write

    paths, columns, records, payloads, fmt, out = conn.recv()

    def job(ds: Dataset) -> None:
        read = lambda i: payloads[i] if i in payloads else ds.read(i)  # noqa: E731
        progress = lambda done, total: conn.send(("progress", done, total))  # noqa: E731
        count = write(fmt, ds, records, out, overwrite=True, read=read, progress=progress)
        conn.send(("written", count))

    _on_dataset(conn, paths, columns, job)


def analyze_task(conn: Connection) -> None:
    """Receive ``(paths, columns, job, options)`` and run the data-QA ``job`` over the
    indexed dataset: ``stats`` (``Stats.to_json()``), ``check`` (options: ``label_map``,
    ``schema``; the findings as JSON) or ``compare`` (options: ``against``, a list of
    paths, indexed here; ``threshold``). Messages: ``("progress", done, total)``, then
    ``("result", data)`` or ``("error", text)``."""
    paths, columns, job, options = conn.recv()

    def run(ds: Dataset) -> None:
        progress = lambda done, total: conn.send(("progress", done, total))  # noqa: E731
        if job == "stats":
            from .analyze.stats import dataset_stats

            result: object = dataset_stats(ds, progress=progress).to_json()
        elif job == "check":
            from .analyze.checks import check_dataset

            findings = check_dataset(
                ds,
                label_map=options.get("label_map"),
                schema=options.get("schema"),
                progress=progress,
            )
            result = [f.to_json() for f in findings]
        else:
            from .analyze.compare import compare

            with Dataset.open(options["against"]) as other:
                conn.send(("phase", "indexing the other dataset"))
                other.index(verify=True)
                conn.send(("phase", "comparing"))
                result = compare(ds, other, threshold=options["threshold"], progress=progress)
        conn.send(("result", result))

    _on_dataset(conn, paths, columns, run)


def convert_task(conn: Connection) -> None:
    """Receive ``(listing, options)`` and convert the images. Messages: ``("progress",
    done, total)``, then ``("summary", ConvertSummary)`` or ``("error", text)``. When the
    parent terminates this process, no output file is left (export's temporaries are
    removed by the next export into the folder)."""
    from .write.convert import convert

    listing, options = conn.recv()
    try:
        progress = lambda done, total: conn.send(("progress", done, total))  # noqa: E731
        conn.send(("summary", convert(listing, options, progress=progress)))
    except Exception as exc:  # reported to the parent, which shows it
        conn.send(("error", str(exc)))
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
