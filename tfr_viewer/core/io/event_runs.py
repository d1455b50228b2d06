"""TensorBoard log folders: their runs and the order of a run's event files.

A log folder (``--logdir``) holds event files (``events.out.tfevents.*``, TFRecords of
``Event``) in folders of its tree; each folder holding event files is one **run**,
named by its path under the log folder (``.`` for the log folder itself), as
TensorBoard names them. A run's files are read in the order they were written: by the
wall time of their first event, then by the time in their names, then by name.

A file's run is a function of the dataset's paths only: the folder of the file relative
to the deepest folder holding every file's folder, whatever the paths' spelling."""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..text import natural_key
from .framing import HEADER_SIZE, decode_header

EVENT_NAME = "tfevents"  # what TensorFlow, PyTorch and tensorboardX put in every name
MAX_FOLDERS = 100_000  # folders of a log tree looked into
_NAME_TIME = re.compile(r"tfevents\.(\d{1,12})")
_FIRST_EVENT_LIMIT = 1 << 16  # a first event larger is ordered by name


def is_event_file(path: str) -> bool:
    """Named as event files are (``events.out.tfevents.*``, ``*.tfevents.*``)."""
    return EVENT_NAME in os.path.basename(path)


def all_event_files(paths: Sequence[str]) -> bool:
    """Whether there are ``paths`` and every one is named as an event file."""
    return bool(paths) and all(is_event_file(p) for p in paths)


@dataclass(frozen=True)
class Run:
    """One run: its ``name`` (its folder under the log folder, ``.`` for the log
    folder) and its event ``files`` in the order they were written."""

    name: str
    files: tuple[str, ...]


def _first_wall_time(path: str) -> float | None:
    """The wall time of the first event of ``path`` (field 1, a double), or None when
    the file is unreadable or its first record is no event."""
    try:
        with open(path, "rb") as f:
            header = f.read(HEADER_SIZE)
            if len(header) < HEADER_SIZE:
                return None
            length, ok = decode_header(header)
            if not ok or length > _FIRST_EVENT_LIMIT:
                return None
            data = f.read(min(length, 9))
    except OSError:
        return None
    if len(data) < 9 or data[0] != 0x09:  # field 1, fixed 64 bits
        return None
    value = float(struct.unpack("<d", data[1:9])[0])
    return value if value == value else None  # NaN orders nothing


def _written_order(path: str) -> tuple[float, float, list[object]]:
    wall = _first_wall_time(path)
    named = _NAME_TIME.search(os.path.basename(path))
    name_time = float(named.group(1)) if named else float("inf")
    return (
        wall if wall is not None else name_time,
        name_time,
        natural_key(os.path.basename(path)),
    )


def in_written_order(paths: Iterable[str]) -> list[str]:
    """``paths`` (event files of one run) in the order they were written."""
    return sorted(paths, key=_written_order)


def log_runs(folder: str) -> list[Run]:
    """The runs of the log folder ``folder``: every folder of its tree (links to
    folders not followed) holding event files, hidden ones too as TensorBoard takes
    them, in natural order of their names. Empty when the tree holds no event file."""
    found: dict[str, list[str]] = {}
    seen = 0
    for where, folders, names in os.walk(folder):
        seen += 1
        if seen > MAX_FOLDERS:
            break
        folders[:] = sorted(folders, key=natural_key)
        events = [
            os.path.join(where, n)
            for n in names
            if is_event_file(n) and not n.startswith(".") and os.path.isfile(os.path.join(where, n))
        ]
        if events:
            found[where] = events
    runs = [
        Run(_run_name(os.path.relpath(where, folder)), tuple(in_written_order(files)))
        for where, files in found.items()
    ]
    return sorted(runs, key=lambda r: natural_key(r.name) if r.name != "." else [])


def log_files(folder: str) -> list[str]:
    """The event files of the log folder ``folder``, run by run, each run's in the
    order they were written."""
    return [path for run in log_runs(folder) for path in run.files]


def _run_name(relative: str) -> str:
    return "." if relative in ("", ".") else relative.replace(os.sep, "/")


def run_names(paths: Sequence[str]) -> list[str]:
    """The run of each of ``paths`` (a dataset's files): its folder relative to the
    deepest folder holding every file's folder; ``.`` for that folder. URLs are
    runs by their folders likewise."""
    if not paths:
        return []
    folders = [_folder(p) for p in paths]
    try:
        common = os.path.commonpath(folders)
    except ValueError:  # absolute and relative, or URLs of several hosts
        return [f or "." for f in folders]
    return [_run_name(os.path.relpath(f, common)) if f != common else "." for f in folders]


def _folder(path: str) -> str:
    from .remote import is_url

    if is_url(path):
        return path.rsplit("/", 1)[0]
    return os.path.dirname(os.path.abspath(path))
