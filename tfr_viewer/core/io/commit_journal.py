"""The journal of a commit of several files: what a process is about to move into place,
written before the first move, removed after the last.

A process killed between two moves (a SIGKILL, a power cut of the process) leaves some
targets in place and the rest as temporaries. The next job that cleans that folder
(:func:`finish_stale`, before its stale temporaries are removed) finds the journal of a
process that is gone and finishes the commit: every temporary still there is moved into
place, unless its target has since become a file the commit did not know (then the
temporary is removed and the target left alone); the kept copies of replaced targets
are removed.
The temporaries were complete when the commit began, so the files end whole.

A journal is named ``.tfr-viewer-commit.PID.RANDOM.tfr-viewer-tmp`` (a temporary of
its process: removed with the rest once finished), one in each folder the commit writes
in, and holds a JSON line for each file of that folder: ``{"target", "temp", "backup",
"folder", "was"}`` (``was``: the target's device and inode when the commit began, or
null). A journal is obeyed only where it cannot reach further than its folder: a line
whose target is in another folder, or whose temporary or kept copy is not a temporary
of the journal's own process beside it, is ignored (a journal planted in a folder moves
nothing its planter could not have moved)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from .file_writes import is_stale, temp_name, temporary_pid, write_atomic

JOURNAL = "tfr-viewer-commit"


@dataclass(frozen=True)
class Move:
    """One file of a commit: its temporary, its target, the kept copy of the target it
    replaces (or None), whether it is a folder, and the target's identity before."""

    target: str
    temp: str
    backup: str | None
    folder: bool
    was: tuple[int, int] | None


def identity(path: str) -> tuple[int, int] | None:
    """``(device, inode)`` of ``path`` itself (a symlink's own), or None."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def write(moves: Iterable[Move]) -> list[str]:
    """Write the journals of ``moves``, one in each folder they move into; returns
    their paths (raises OSError: nothing has moved yet)."""
    by_folder: dict[str, list[Move]] = {}
    for m in moves:
        by_folder.setdefault(os.path.dirname(os.path.abspath(m.target)), []).append(m)
    paths: list[str] = []
    try:
        for folder, mine in by_folder.items():
            path = temp_name(os.path.join(folder, JOURNAL))
            lines = [json.dumps(asdict(m)) + "\n" for m in mine]
            write_atomic(path, "".join(lines).encode("utf-8"))
            paths.append(path)
    except BaseException:
        remove(paths)
        raise
    return paths


def remove(paths: Iterable[str]) -> None:
    """Remove journals (a commit done, or undone)."""
    for path in paths:
        with contextlib.suppress(OSError):
            os.remove(path)


def finish_stale(folder: str) -> None:
    """:func:`finish` every journal in ``folder`` of a process that is gone."""
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return
    for name in names:
        if name.startswith(f".{JOURNAL}.") and is_stale(name):
            finish(os.path.join(folder, name))


def finish(path: str) -> None:
    """Finish the commit the journal at ``path`` describes (see the module), then remove
    the journal. A journal that cannot be read is removed; nothing is moved then."""
    try:
        with open(path, encoding="utf-8") as f:
            moves = [_move(json.loads(line)) for line in f if line.strip()]
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        moves = []
    for m in moves:
        if _within(path, m):
            _finish_one(m)
    remove([path])


def _within(journal: str, m: Move) -> bool:
    """Whether ``m`` stays in the journal's folder, its temporary and kept copy
    temporaries of the journal's process (see the module)."""
    folder = os.path.dirname(os.path.abspath(journal))
    pid = temporary_pid(os.path.basename(journal))
    if pid is None:
        return False
    beside = [m.target, m.temp] + ([m.backup] if m.backup is not None else [])
    if any(os.path.dirname(os.path.abspath(p)) != folder for p in beside):
        return False
    return all(temporary_pid(os.path.basename(p)) == pid for p in beside[1:])


def _move(obj: dict[str, object]) -> Move:
    was = obj["was"]
    return Move(
        str(obj["target"]),
        str(obj["temp"]),
        None if obj["backup"] is None else str(obj["backup"]),
        bool(obj["folder"]),
        None if was is None else (int(was[0]), int(was[1])),  # type: ignore[index]
    )


def _finish_one(m: Move) -> None:
    if os.path.lexists(m.temp):
        now = identity(m.target)
        with contextlib.suppress(OSError):
            if m.folder:
                if now is None:
                    os.rename(m.temp, m.target)
                else:
                    shutil.rmtree(m.temp)
            elif now is None or now == m.was:
                os.replace(m.temp, m.target)
            else:  # the target is a file the commit did not know: left alone
                os.remove(m.temp)
    if m.backup is not None:
        with contextlib.suppress(OSError):
            os.remove(m.backup)
