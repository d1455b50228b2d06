"""The one way the program writes files: every output, sidecar, report and cache entry.

An :class:`OutputJob` holds every file one piece of work writes. :meth:`~OutputJob.plan`
checks each target before anything is written:

- a target that is one of the inputs is refused, compared by device and inode, so hard
  links, symlinks, ``..``, bind mounts and case-insensitive names are all caught; the
  inputs are the files the job names and every file the process has read beside a
  dataset (a label map, a schema, a model's results: :mod:`..io.inputs_read`);
- an existing target that is not a regular file (a folder, device, FIFO or socket) is
  refused, with or without ``overwrite``;
- an existing regular file is replaced only with ``overwrite``;
- two targets of one job may not be the same file;
- URLs are refused (a bucket is written by :mod:`.bucket_output`, for cluster jobs).

Files are written to temporaries created exclusively (``O_CREAT | O_EXCL |
O_NOFOLLOW``) in the target's folder, all named ``.NAME.PID.RANDOM.tfr-viewer-tmp``, and
:meth:`~OutputJob.commit` moves every one into place at the end, or none: a target that
existed is kept as a hard link until the whole job is committed, and put back if any
move fails. Leaving the job without a commit (an error, a cancel) removes every
temporary and every folder it created; temporaries of killed processes are removed by
:func:`clean_stale_temporaries`, which every job runs in its folders. A commit of
several files writes its journal first (:mod:`..io.commit_journal`): a process killed
between two moves leaves some files in place, and the next job in the folder moves the
rest, so that the files end all there, whole.

Names made from data (class names, feature keys) go through :func:`safe_name` and
:class:`NameMap`, so that they cannot leave the output folder or collide.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import shutil
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from ..io import commit_journal, file_writes

# the primitives of writing, below every layer that writes (their names are the output
# layer's too)
from ..io.file_writes import (
    TMP_SUFFIX as TMP_SUFFIX,
    ExportError as ExportError,
    create_temporary as create_temporary,
    open_temporary as open_temporary,
    temp_name as temp_name,
    write_atomic as write_atomic,
)

_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def clean_stale_temporaries(folder: str, keep: frozenset[str] = frozenset()) -> list[str]:
    """Finish the commits of several files that processes now gone cut short in
    ``folder`` (:mod:`..io.commit_journal`), then remove the temporaries such processes
    left there, except those in ``keep`` (real paths); return the paths removed."""
    commit_journal.finish_stale(folder)
    return file_writes.clean_stale_temporaries(folder, keep)


# -- identities ------------------------------------------------------------------------
def file_id(path: str) -> tuple[int, int] | None:
    """``(device, inode)`` of what ``path`` names (symlinks followed), or None."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def input_ids(paths: Iterable[str]) -> frozenset[tuple[int, int]]:
    """The identities of the local files among ``paths`` (URLs and missing files
    skipped), and of every file this process has read beside a dataset
    (:mod:`..io.inputs_read`): the inputs no output may replace."""
    from ..io.inputs_read import read_so_far
    from ..io.remote import is_url

    found = (file_id(p) for p in paths if not is_url(p))
    return frozenset(i for i in found if i is not None) | read_so_far()


def refuse_url(target: str) -> None:
    """Outputs are written to local files only: a URL is refused with what to do."""
    from ..io.remote import is_url

    if is_url(target):
        raise ExportError(
            f"{target}: writing to a URL is not supported; write to a local folder, then "
            "upload the files (for example with gcloud storage cp or aws s3 cp)"
        )


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def check_target(
    target: str,
    inputs: frozenset[tuple[int, int]],
    overwrite: bool,
    *,
    folder: bool = False,
    role: str = "output",
) -> None:
    """Raise :class:`ExportError` when ``target`` may not be written (see the module)."""
    refuse_url(target)
    if not target or target.endswith(("/", os.sep)):
        raise ExportError(
            f"{target or '(empty)'}: the {role} names a folder; give a file name, e.g. "
            f"{os.path.join(target or '.', 'out.tfrecord')}"
        )
    if "\x00" in target:
        raise ExportError(f"{target!r}: a file name cannot hold a NUL character")
    try:
        link = os.lstat(target)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ExportError(f"{target}: cannot look at the {role} ({exc.strerror or exc})") from None
    try:
        st = os.stat(target)
    except OSError:
        st = link  # a dangling symlink: the link itself is replaced
    if (st.st_dev, st.st_ino) in inputs:
        raise ExportError(
            f"{target}: refusing to write over a source of this command (it is the same "
            "file as one that is read, whatever its name); choose another output name"
        )
    if folder:
        raise ExportError(
            f"{target} exists already; a folder of outputs is never replaced: remove it "
            "first, or choose a new folder name"
        )
    if not stat.S_ISREG(st.st_mode):
        hint = (
            f"; name a file inside it, e.g. {os.path.join(target, 'out.tfrecord')}"
            if stat.S_ISDIR(st.st_mode)
            else ""
        )
        raise ExportError(
            f"{target} is {_what(st.st_mode)}; only a regular file can be an {role}, and "
            f"this one is never replaced{hint}"
        )
    if not overwrite:
        raise ExportError(
            f"{target} exists already; choose another name, or allow replacing it (--overwrite)"
        )


def existing_outputs(targets: Iterable[str]) -> list[str]:
    """The targets that exist already (for a question before replacing them)."""
    return [t for t in targets if os.path.lexists(t)]


# -- names made from data ----------------------------------------------------------------
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
NAME_LIMIT = 100


def safe_name(text: str, fallback: str = "_") -> str:
    """``text`` as one file name inside a folder: characters other than letters, digits,
    ``.``, ``_`` and ``-`` become ``_``; no leading dot (so never ``.`` or ``..``); at
    most :data:`NAME_LIMIT` characters (a longer name keeps a digest of the whole)."""
    name = _UNSAFE.sub("_", text)
    if name.startswith("."):
        name = "_" + name
    if not name:
        name = fallback
    if len(name) > NAME_LIMIT:
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        name = f"{name[: NAME_LIMIT - 13]}-{digest}"
    return name


class NameMap:
    """Safe names for texts, one each: two texts that would get the same name are
    refused (:class:`ExportError`), never written into one file or folder."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._by_name: dict[str, str] = {}

    def name(self, text: str) -> str:
        name = safe_name(text)
        other = self._by_name.setdefault(name, text)
        if other != text:
            raise ExportError(
                f"the {self.what} {other!r} and {text!r} would both be written as "
                f"{name!r}; nothing was written — rename one of them first"
            )
        return name


# -- writing errors -------------------------------------------------------------------------
@contextlib.contextmanager
def disk_errors(target: str) -> Iterator[None]:
    """A full disk (or quota, or file-size limit) while writing becomes one ExportError
    line; other OS errors say which file they hit."""
    try:
        yield
    except ExportError:
        raise
    except OSError as exc:
        folder = os.path.dirname(os.path.abspath(target))
        if exc.errno in _FULL:
            what = {errno.EDQUOT: "disk quota exceeded", errno.EFBIG: "file too large"}.get(
                exc.errno, "no space left on the device"
            )
            raise ExportError(
                f"{what} in {folder} while writing {target}; nothing was written — free "
                "some space or choose another folder"
            ) from None
        raise ExportError(
            f"cannot write {target}: {exc.strerror or exc}; nothing was written"
        ) from None


def save_file(
    target: str,
    data: bytes,
    *,
    inputs: Iterable[str] = (),
    overwrite: bool = False,
    role: str = "output",
) -> None:
    """Write one file through a job of its own: checked against ``inputs`` and the
    overwrite rule, then put in place at once. Raises :class:`ExportError`."""
    with OutputJob.over(inputs, overwrite) as job:
        job.plan(target, role=role)
        job.write_bytes(target, data)
        job.commit()


# -- a job ---------------------------------------------------------------------------------------
@dataclass
class _Planned:
    target: str
    folder: bool
    temp: str | None = None


@dataclass
class OutputJob:
    """Every file of one piece of work (see the module). Use as a context manager:
    leaving it without :meth:`commit` removes what it wrote."""

    inputs: frozenset[tuple[int, int]] = frozenset()
    overwrite: bool = False
    planned: dict[str, _Planned] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what the writers want said (warnings)
    _made_folders: list[str] = field(default_factory=list)
    _committed: bool = False

    @classmethod
    def over(cls, inputs: Iterable[str], overwrite: bool = False) -> OutputJob:
        """A job whose targets may not be any of the files ``inputs``."""
        return cls(input_ids(inputs), overwrite)

    def __enter__(self) -> OutputJob:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._committed:
            self.discard()

    def plan(self, target: str, *, folder: bool = False, role: str = "output") -> str:
        """Check ``target`` and add it to the job; returns it. A second target that is
        the same file is refused."""
        check_target(target, self.inputs, self.overwrite, folder=folder, role=role)
        key = os.path.normcase(os.path.abspath(target))
        if key in self.planned:
            raise ExportError(
                f"{target}: two outputs of this command have the same name; nothing was "
                "written (a name pattern needs a field that differs, such as {shard})"
            )
        self.planned[key] = _Planned(target, folder)
        return target

    def plan_all(self, targets: Iterable[str], *, role: str = "output") -> list[str]:
        """:meth:`plan` each target; the first problem is raised before anything is made."""
        return [self.plan(t, role=role) for t in targets]

    def _entry(self, target: str) -> _Planned:
        found = self.planned.get(os.path.normcase(os.path.abspath(target)))
        if found is None:
            raise ValueError(f"{target} was not planned")
        return found

    def _make_folder(self, target: str) -> None:
        folder = os.path.dirname(os.path.abspath(target))
        missing = []
        while folder and not os.path.isdir(folder):
            missing.append(folder)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        with disk_errors(target):
            for made in reversed(missing):
                os.mkdir(made)
                self._made_folders.append(made)

    def temporary(self, target: str) -> str:
        """Create the temporary of a planned file target; returns its path (empty)."""
        entry = self._entry(target)
        if entry.temp is None:
            self.create(target).close()
        return entry.temp  # type: ignore[return-value]

    def create(self, target: str) -> BinaryIO:
        """The temporary of a planned file target, open for writing in binary."""
        entry = self._entry(target)
        if entry.temp is not None:
            return open_temporary(entry.temp)
        self._make_folder(target)
        with disk_errors(target):
            entry.temp, fd = create_temporary(target)
        return os.fdopen(fd, "wb")

    def temporary_folder(self, target: str) -> str:
        """Create the temporary folder of a planned folder target; returns its path."""
        entry = self._entry(target)
        if entry.temp is None:
            self._make_folder(target)
            path = temp_name(target)
            with disk_errors(target):
                os.mkdir(path, 0o755)
            entry.temp = path
        return entry.temp

    def write_bytes(self, target: str, data: bytes) -> None:
        with disk_errors(target), self.create(target) as out:
            out.write(data)

    def write_text(self, target: str, text: str) -> None:
        self.write_bytes(target, text.encode("utf-8"))

    def clean_folders(self, keep: frozenset[str] = frozenset()) -> None:
        """Remove stale temporaries from the folders of the planned targets."""
        for folder in {os.path.dirname(os.path.abspath(p.target)) for p in self.planned.values()}:
            clean_stale_temporaries(folder, keep)

    def commit(self) -> None:
        """Move every temporary into place, or none (see the module)."""
        entries = [e for e in self.planned.values() if e.temp is not None]
        for e in entries:  # the targets may have changed since they were planned
            check_target(e.target, self.inputs, self.overwrite, folder=e.folder)
        backups = {
            id(e): temp_name(e.target)
            for e in entries
            if not e.folder and os.path.lexists(e.target)
        }
        journals: list[str] = []
        if len(entries) > 1:  # a process killed between two moves: the next job finishes
            moves = [
                commit_journal.Move(
                    e.target,
                    e.temp,  # type: ignore[arg-type]
                    backups.get(id(e)),
                    e.folder,
                    commit_journal.identity(e.target),
                )
                for e in entries
            ]
            with disk_errors(entries[0].target):
                journals = commit_journal.write(moves)
        done: list[tuple[_Planned, str | None]] = []
        try:
            for e in entries:
                backup = backups.get(id(e))
                if backup is not None:
                    try:
                        os.link(e.target, backup, follow_symlinks=False)
                    except OSError:
                        backup = None
                with disk_errors(e.target):
                    if e.folder:
                        if os.path.lexists(e.target):
                            raise ExportError(f"{e.target} appeared while writing; not replaced")
                        os.rename(e.temp, e.target)  # type: ignore[arg-type]
                    else:
                        os.replace(e.temp, e.target)  # type: ignore[arg-type]
                done.append((e, backup))
        except BaseException:
            commit_journal.remove(journals)  # undone here: no later job finishes it
            for e, backup in reversed(done):
                with contextlib.suppress(OSError):
                    if backup is not None:
                        os.replace(backup, e.target)
                    else:  # new: back to its temporary, which discard removes
                        os.rename(e.target, e.temp)  # type: ignore[arg-type]
            raise
        commit_journal.remove(journals)
        for _, backup in done:
            if backup is not None:
                with contextlib.suppress(OSError):
                    os.remove(backup)
        self._committed = True

    def discard(self) -> None:
        """Remove every temporary and every folder the job made."""
        for e in self.planned.values():
            if e.temp is None:
                continue
            with contextlib.suppress(OSError):
                if e.folder and os.path.isdir(e.temp) and not os.path.islink(e.temp):
                    shutil.rmtree(e.temp)
                else:
                    os.remove(e.temp)
            e.temp = None
        for folder in reversed(self._made_folders):
            with contextlib.suppress(OSError):
                os.rmdir(folder)  # only when empty
        self._made_folders = []

    @property
    def targets(self) -> list[str]:
        return [e.target for e in self.planned.values()]
