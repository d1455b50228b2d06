"""Every file this process has read as an input beside a dataset (a label map, a schema,
a model's results, the records of a predictions dataset, TFDS descriptions): the output
layer refuses to replace any of them, whatever the command or window that writes, so a
report named like the results file it was made from cannot destroy it.

Files are known by identity (device and inode), noted when they are opened, so another
name for the same file (a link, ``..``) is caught too."""

from __future__ import annotations

import os
import threading

_lock = threading.Lock()
_read: set[tuple[int, int]] = set()


def note_stat(st: os.stat_result) -> None:
    """Note the file whose ``os.fstat``/``os.stat`` is ``st`` as read."""
    with _lock:
        _read.add((st.st_dev, st.st_ino))


def note_path(path: str) -> None:
    """Note the local file at ``path`` as read (nothing for a missing file)."""
    try:
        note_stat(os.stat(path))
    except (OSError, ValueError):
        pass


def carry(ids: frozenset[tuple[int, int]]) -> None:
    """Take over what another process had read (a child job of the window)."""
    with _lock:
        _read.update(ids)


def read_so_far() -> frozenset[tuple[int, int]]:
    """The identities of every file noted."""
    with _lock:
        return frozenset(_read)
