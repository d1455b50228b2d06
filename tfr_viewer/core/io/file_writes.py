"""The primitives of writing a file safely, below every layer that writes: temporaries
created exclusively beside their target (never through a symlink), named
``.NAME.PID.RANDOM.tfr-viewer-tmp``; a file put in place at once; the temporaries of
processes that are gone removed (the output layer finishes a commit of several files
they cut short first: :mod:`.commit_journal`). The rules of what may be written where (the inputs,
the overwrite rule) are the output layer's, :mod:`..write.output`, which uses these;
the index cache writes its entries with them too."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
from collections.abc import Iterable
from typing import BinaryIO

from ..user_error import UserError

TMP_SUFFIX = ".tfr-viewer-tmp"
_TMP_RE = re.compile(
    r"^\.(?P<name>.+)\.(?P<pid>\d+)\.(?P<tag>[A-Za-z0-9_]+)" + re.escape(TMP_SUFFIX) + "$",
    re.DOTALL,
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)


class ExportError(UserError, OSError):
    """An output that cannot be written; the message says what, where and what to do."""


# -- temporaries -------------------------------------------------------------------------------
def temp_name(target: str) -> str:
    """A new temporary's name beside ``target`` (this process's, never made before)."""
    folder, base = os.path.split(os.path.abspath(target))
    return os.path.join(folder, f".{base}.{os.getpid()}.{secrets.token_hex(6)}{TMP_SUFFIX}")


def create_temporary(target: str) -> tuple[str, int]:
    """A new, empty temporary beside ``target``, created exclusively and never through
    a symlink: ``(path, writable fd)``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | _BINARY
    for _ in range(16):
        path = temp_name(target)
        try:
            return path, os.open(path, flags, 0o644)
        except FileExistsError:
            continue
    raise ExportError(f"cannot create a temporary file beside {target}")


def open_temporary(path: str) -> BinaryIO:
    """Reopen a temporary made by :func:`create_temporary` (for a worker process that
    writes it): truncated, never created, never through a symlink."""
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC | _NOFOLLOW | _CLOEXEC | _BINARY)
    return os.fdopen(fd, "wb")


def clean_stale_temporaries(folder: str, keep: frozenset[str] = frozenset()) -> list[str]:
    """Remove temporaries left in ``folder`` by processes that are gone, except those in
    ``keep`` (real paths); return the paths removed. Odd names are skipped, never a
    crash."""
    removed: list[str] = []
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return removed
    for name in names:
        m = _TMP_RE.match(name)
        if m is None or _alive(m["pid"]):
            continue
        path = os.path.join(folder, name)
        if os.path.realpath(path) in keep:
            continue
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
            removed.append(path)
        except OSError:
            pass
    return removed


def is_stale(name: str) -> bool:
    """Whether the file name ``name`` is a temporary's of a process that is gone."""
    pid = temporary_pid(name)
    return pid is not None and not _alive(pid)


def temporary_pid(name: str) -> str | None:
    """The process number in a temporary's file name, or None for another name."""
    m = _TMP_RE.match(name)
    return None if m is None else m["pid"]


def _alive(pid_text: str) -> bool:
    try:
        pid = int(pid_text)
    except ValueError:
        return False
    if pid == os.getpid():
        return True  # this process's jobs remove their own temporaries
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError, ValueError):
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def write_atomic(target: str, data: bytes | Iterable[bytes], mode: int = 0o644) -> None:
    """Put ``data`` (bytes, or pieces of them in order) at ``target`` at once (a
    temporary beside it, then a rename), with no checks of the target: for files the
    program owns (cache entries). Raises OSError."""
    path, fd = create_temporary(target)
    try:
        with os.fdopen(fd, "wb") as out:
            for piece in [data] if isinstance(data, bytes) else data:
                out.write(piece)
        os.chmod(path, mode)
        os.replace(path, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(path)
        raise
