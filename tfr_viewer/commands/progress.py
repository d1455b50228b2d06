"""A one-line progress display on stderr for long scans (only when stderr is a terminal),
and the command line's :class:`~..app.task_state.TaskState`."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

from ..app.task_state import Scan, Step, TaskState

if TYPE_CHECKING:
    from ..core.io import Dataset


L = TypeVar("L", bound="_Line")


class _Line:
    """One line on a terminal's stderr, rewritten at most every ``interval`` seconds and
    cleared at the end; nothing when stderr is not a terminal."""

    def __init__(self, interval: float = 0.2) -> None:
        self._interval = interval
        self._enabled = sys.stderr.isatty()
        self._last = 0.0
        self._t0 = time.monotonic()
        self._shown = False

    def __enter__(self: L) -> L:
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


class CommandLineState(TaskState):
    """An operation's progress as a line on a terminal's stderr, its warnings on
    stderr (never cancelled from here: Ctrl+C and signals end the process)."""

    @contextmanager
    def scanning(self, ds: Dataset, verify: bool) -> Iterator[Scan]:
        with ScanProgress(ds, "verifying" if verify else "indexing") as progress:
            yield progress.update

    @contextmanager
    def phase(self, label: str, total: int, unit: str = "records") -> Iterator[Step]:
        with TaskProgress(label, total, unit=unit) as progress:
            yield progress.update

    def warn(self, text: str) -> None:
        print(f"\nwarning: {text}", file=sys.stderr)


COMMAND_LINE = CommandLineState()


def index_with_progress(
    ds: Dataset, verify: bool, until: int | None = None, *, other_files: bool = False
) -> None:
    """:func:`~..app.indexing.index` with a progress line and warnings on stderr."""
    from ..app.indexing import index

    index(ds, verify, COMMAND_LINE, until, other_files=other_files)


def warn_about_filter(ds: Dataset, text: str, *, verify: bool) -> None:
    """Refuse a filter that reads a key no record has (one line, exit 2: see
    :func:`~..core.query.names.require_features`), then print warnings (stderr) for one
    that would silently match nothing, judged on the features of the first records.

    Only a filter whose meaning needs the index (it reads features, or a bare name that
    may be a feature's) has anything to judge; the dataset is then indexed, verifying
    when the command verifies next anyway (``verify``): one pass over the data, not a
    header pass and then a verifying one. Any other filter reads nothing here."""
    from ..core.query import compile_filter, lint_filter, needs_index
    from ..core.query.names import message_types_of, require_features, resolved

    sample = 64
    flt = compile_filter(text)
    if not needs_index(flt):
        return
    index_with_progress(ds, verify=verify)
    flt = resolved(ds, flt)
    require_features(ds, flt)
    if flt.keys and not message_types_of(ds):  # a message type's paths are checked whole
        from ..core.analyze.schema import sample_kinds

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


def print_message_types(ds: Dataset, as_json: bool) -> None:
    """Print on stderr which message type each file's records were read as, and why,
    when the user gave types but named none (``--proto`` without ``--message``); not
    with ``--json``, whose output names the type of each record."""
    if not as_json:
        for warning in ds.warnings:
            if warning.kind == "message_type":
                print(f"note: {warning}", file=sys.stderr)
