"""A one-line progress display on stderr for long scans (only when stderr is a terminal)."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.io import Dataset


class _Line:
    """One line on a terminal's stderr, rewritten at most every ``interval`` seconds and
    cleared at the end; nothing when stderr is not a terminal."""

    def __init__(self, interval: float = 0.2) -> None:
        self._interval = interval
        self._enabled = sys.stderr.isatty()
        self._last = 0.0
        self._t0 = time.monotonic()
        self._shown = False

    def __enter__(self):  # noqa: ANN204
        return self

    def _due(self) -> float | None:
        """The time now when a new line is due, else None."""
        if not self._enabled:
            return None
        now = time.monotonic()
        if now - self._last < self._interval:
            return None
        self._last = now
        return now

    def _write(self, text: str) -> None:
        sys.stderr.write(f"\r{text}   ")
        sys.stderr.flush()
        self._shown = True

    def __exit__(self, *exc: object) -> None:
        if self._shown:
            sys.stderr.write("\r" + " " * 72 + "\r")
            sys.stderr.flush()


class ScanProgress(_Line):
    """Prints ``indexing file 2/8: 41% 1.2 GB/s`` at most a few times a second."""

    def __init__(self, ds: Dataset, verb: str, interval: float = 0.2) -> None:
        super().__init__(interval)
        self._ds = ds
        self._verb = verb

    def update(self, file_number: int, position: int) -> None:
        now = self._due()
        if now is None:
            return
        f = self._ds.files[file_number]
        size = f.source.size if f.source is not None else None
        pct = f"{100 * position / size:3.0f}%" if size else f"{position / 1e6:.0f} MB"
        rate = position / max(now - self._t0, 1e-6) / 1e6
        self._write(
            f"{self._verb} file {file_number + 1}/{len(self._ds.files)}: {pct} "
            f"({len(self._ds)} records, {rate:.0f} MB/s)"
        )


class TaskProgress(_Line):
    """Prints ``statistics: 41% (410,000 of 1,000,000 records)``; ``update(done,
    total)`` fits a core progress callback."""

    def __init__(self, verb: str, total: int, interval: float = 0.2, unit: str = "records") -> None:
        super().__init__(interval)
        self._verb = verb
        self._total = total
        self._unit = unit

    def update(self, done: int, total: int | None = None) -> None:
        if self._due() is None:
            return
        total = self._total if total is None else total
        pct = 100 * done / total if total else 100
        self._write(f"{self._verb}: {pct:3.0f}% ({done:,} of {total:,} {self._unit})")


def index_with_progress(
    ds: Dataset, verify: bool, until: int | None = None, *, other_files: bool = False
) -> None:
    """Index ``ds`` with a progress line; with ``until``, stop as soon as global record
    ``until`` is known (a header scan of only what is needed). A file that turns out not
    to be a TFRecord at all is refused (:meth:`Dataset.refuse_other_files`) unless
    ``other_files`` (the caller reports it itself)."""
    warned = False
    with ScanProgress(ds, "verifying" if verify else "indexing") as progress:
        for number, chunk in ds.scan(verify=verify):
            progress.update(number, chunk.position)
            if not warned and (warning := ds.size_warning()) is not None:
                print(f"\nwarning: {warning}", file=sys.stderr)
                warned = True
            if until is not None and len(ds) > until:
                return
    if not other_files:
        ds.refuse_other_files()


def verify_with_progress(ds: Dataset) -> None:
    """Index ``ds`` checking every CRC, with a progress line: a verifying scan, or a
    header pass and then parts of the files checked side by side where that is faster
    (:meth:`~tfr_viewer.core.io.Dataset.verifies_in_parts`); the statuses are the
    same either way."""
    if not ds.verifies_in_parts():
        index_with_progress(ds, verify=True)
        return
    from ..core.io.verify import FINISHED

    index_with_progress(ds, verify=False)
    done = 0
    with TaskProgress("verifying", len(ds)) as progress:
        for _number, first, end in ds.verify():
            if first != FINISHED:
                done += end - first
                progress.update(done)


def warn_about_filter(ds: Dataset, text: str) -> None:
    """Refuse a filter that reads a key no record has (one line, exit 2: see
    :func:`~..core.query.names.require_features`), then print warnings (stderr) for one
    that would silently match nothing, judged on the features of the first records."""
    from ..core.analyze.schema import sample_kinds
    from ..core.query import compile_filter, lint_filter
    from ..core.query.names import require_features, resolved

    sample = 64
    index_with_progress(ds, verify=False)
    require_features(ds, resolved(ds, compile_filter(text)))
    for warning in lint_filter(text, sample_kinds(ds, sample)):
        print(f"warning: filter: {warning}", file=sys.stderr)


def print_warnings(ds: Dataset, as_json: bool, shown: set[str] | None = None) -> set[str]:
    """Print on stderr the dataset's warnings (empty files, missing shards) and why a
    completely scanned file is not a TFRecord at all, except those in ``shown``; none
    with ``--json``, whose output carries the warnings. Returns what has been printed,
    so that a command that streams can print what its scan found later."""
    shown = set() if shown is None else shown
    if not as_json:
        for warning in ds.file_warnings():
            if warning not in shown:
                shown.add(warning)
                print(f"warning: {warning}", file=sys.stderr)
    return shown
