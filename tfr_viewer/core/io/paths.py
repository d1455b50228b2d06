"""Expand what a user names (files, globs, folders, ``name@N`` shard specs) into files.

Shard sets follow TensorFlow's ``name-00000-of-00008`` convention; missing members
are reported as warnings, never silently ignored. Files that sit beside shards but are
not records (:data:`SIDECARS`: indexes, label maps, metadata, text) are left out of a
folder or a pattern whatever their names, so ``train-00000-of-00004.tfindex`` is never
taken for a shard; a file named on its own is always read.
"""

from __future__ import annotations

import glob
import os
import re
import stat
from collections import defaultdict
from collections.abc import Iterable

from ..text import natural_key
from ..user_error import UserError
from .dataset_warnings import DatasetWarning
from .event_runs import is_event_file, log_files
from .look_alikes import RIEGELI, RIEGELI_SAID
from .remote import is_url
from .sniff import looks_like_tfrecord
from .source_errors import RemoteError
from .tfds_catalog import TfdsEntry, catalog, described

SHARD_RE = re.compile(r"^(?P<prefix>.*)-(?P<index>\d{5})-of-(?P<total>\d{5})(?P<suffix>[^/]*)$")
_RECORD_NAME_RE = re.compile(r"(\.tfrec(ord)?s?)(\.gz|\.zz|\.z|\.zlib)?$|-\d{5}-of-\d{5}", re.I)
_SPEC_RE = re.compile(r"^(?P<base>.+)@(?P<count>\d+)$")
_GLOB_CHARS = set("*?[")
# Suffixes of the files kept beside TFRecords that are never records themselves.
SIDECARS = frozenset(
    ".tfindex .idx .index .tfrindex .json .jsonl .pbtxt .txt .csv .tsv .md .rst .yaml .yml"
    " .toml .cfg .ini .py .sh .log .lock .sha256 .md5 .crc .xml .html .parquet .tar .zip"
    " .png .jpg .jpeg .gif .bmp .webp .tif .tiff".split()
)


class PathError(UserError, OSError):
    """A named path that matches nothing readable."""


def shards_of(base: str, count: int, names: Iterable[str]) -> list[str]:
    """Those of ``names`` (a listing of the folder) that are shards of ``base@count``:
    ``base-00003-of-00064``, in order. Work follows the listing, never ``count``, so
    ``x@99999999`` costs what the folder holds."""
    head, tail = f"{base}-", f"-of-{count:05d}"
    found = []
    for name in names:
        if name.startswith(head) and name.endswith(tail):
            index = name[len(head) : len(name) - len(tail)]
            if 5 <= len(index) <= 20 and index.isascii() and index.isdigit() and int(index) < count:
                found.append(name)
    return sorted(found, key=natural_key)


def _is_record_file(path: str) -> bool:
    """Named like a TFRecord file, or starting like one (whatever its name)."""
    if _RECORD_NAME_RE.search(os.path.basename(path)):
        return True
    try:
        with open(path, "rb") as f:
            return looks_like_tfrecord(f.read(4096))
    except OSError:
        return False


def is_sidecar(path: str) -> bool:
    """A file kept beside TFRecords that is not one (by its last suffix)."""
    return os.path.splitext(path.rsplit("/", 1)[-1])[1].lower() in SIDECARS


def _without_sidecars(paths: list[str]) -> list[str]:
    """``paths`` less the sidecars, unless nothing else is there (then the user named
    exactly those)."""
    records = [p for p in paths if not is_sidecar(p)]
    return records or paths


def _folder_files(folder: str, notes: list[DatasetWarning]) -> list[str]:
    """The TFRecord files of a folder, found by name or content, sidecars left out; the
    other files if none is. Files left out that are neither are named in ``notes``."""
    entries = [
        os.path.join(folder, name)
        for name in os.listdir(folder)
        if not name.startswith(".") and os.path.isfile(os.path.join(folder, name))
    ]
    candidates = _without_sidecars(entries)
    found = [p for p in candidates if _is_record_file(p)]
    others = sorted((p for p in candidates if p not in found), key=natural_key)
    if found and others:
        names = ", ".join(os.path.basename(p) for p in others[:5])
        more = f" and {len(others) - 5} more" if len(others) > 5 else ""
        notes.append(
            DatasetWarning(
                "left_out",
                folder,
                f"left out {len(others)} file{'s' if len(others) > 1 else ''} that "
                f"{'are' if len(others) > 1 else 'is'} not TFRecord ({names}{more}); "
                "name a file to read it anyway",
            )
        )
    return found or candidates


_SPECIAL_KINDS = (
    (stat.S_ISFIFO, "a FIFO (a named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def not_a_regular_file(path: str) -> str | None:
    """Why ``path`` (which exists) is not read as a file — it is a FIFO, a device or a
    socket, whose reads may block forever or never end — or None for a regular file or
    a folder. The file's kind is read without opening it."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # the caller's open says what is wrong
    for test, what in _SPECIAL_KINDS:
        if test(mode):
            return f"is {what}, not a file; give a TFRecord file, or copy the data into one"
    return None


def array_record_message(path: str) -> str | None:
    """Why ``path`` is not read when it is an ArrayRecord (Riegeli) file: known by its
    first bytes, whatever its name (a TFRecord named ``.array_record`` is read, an
    ArrayRecord named ``.tfrecord`` is named); a URL by its name, its bytes being a
    request away. None otherwise."""
    if is_url(path):
        name = os.path.basename(path)
        riegeli = ".array_record" in name or name.endswith(".arrayrecord")
    else:
        try:
            with open(path, "rb") as f:
                riegeli = f.read(len(RIEGELI)) == RIEGELI
        except OSError:
            riegeli = False
    if riegeli:
        return (
            f"{path}: not a TFRecord file: {RIEGELI_SAID} (TFDS writes TFRecord shards "
            "when asked: download_and_prepare(file_format='tfrecord'))"
        )
    return None


class TfdsChoice(PathError):
    """A folder of several TensorFlow Datasets datasets (or configs): which to open is
    the user's choice. ``entries`` lists them."""

    def __init__(self, folder: str, entries: list[TfdsEntry]) -> None:
        self.folder, self.entries = folder, entries
        shown = "; ".join(described(e) for e in entries[:8])
        more = f"; and {len(entries) - 8} more" if len(entries) > 8 else ""
        super().__init__(
            f"{folder}: a TensorFlow Datasets folder of {len(entries)} datasets: {shown}{more}; "
            "name one (NAME or NAME/VERSION) to open it, or run `tfr-viewer info` on the "
            "folder to see their splits"
        )


def _tfds_files(folder: str, notes: list[DatasetWarning]) -> list[str]:
    """The files of the newest version of the one TensorFlow Datasets dataset in
    ``folder`` (``NAME/``, ``NAME/CONFIG/``, or a data folder holding one), the other
    versions named in ``notes``. Raises :class:`TfdsChoice` for several datasets, and
    :class:`PathError` when the folder holds no file at all."""
    entries = catalog(folder)
    if not entries:
        raise PathError(f"{folder}: the folder holds no files")
    if len(entries) > 1:
        raise TfdsChoice(folder, entries)
    (entry,) = entries
    newest = entry.newest()
    if len(entry.versions) > 1:
        notes.append(
            DatasetWarning(
                "other_versions",
                folder,
                f"opened {entry.name} {entry.versions[0]}, the newest version; the folder "
                f"also holds {', '.join(entry.versions[1:])}: name {entry.name}/VERSION to "
                "open another",
            )
        )
    found = _folder_files(newest, notes)
    if not found:
        raise PathError(f"{newest}: the folder holds no files")
    return found


def _log_folder_files(folder: str, top: list[str]) -> list[str]:
    """The event files of ``folder`` run by run when it is a TensorBoard log folder
    (its tree holds event files, and every TFRecord file at its top is one), else
    none."""
    if any(not is_event_file(p) and _is_record_file(p) for p in top):
        return []
    return log_files(folder)


def expand(specs: Iterable[str], notes: list[DatasetWarning] | None = None) -> list[str]:
    """Resolve each spec to files, in natural order, without duplicates. What a folder
    leaves out that is neither a TFRecord nor a sidecar is said in ``notes``.

    Raises :class:`PathError` naming the first spec that matches nothing.
    """
    notes = [] if notes is None else notes
    out: list[str] = []
    seen: set[str] = set()
    for spec in specs:
        spec = os.fspath(spec)
        found: list[str]
        if is_url(spec):
            for url in _expand_url(spec):
                if (refused := array_record_message(url)) is not None:
                    raise PathError(refused)
                if url not in seen:
                    seen.add(url)
                    out.append(url)
            continue
        spec = os.path.expanduser(spec)
        m = _SPEC_RE.match(spec)
        ordered = False  # a log folder's files come in the order they were written
        if os.path.isdir(spec):
            found = _folder_files(spec, notes)
            logged = _log_folder_files(spec, found)
            if logged:
                found, ordered = logged, True
            else:
                found = found or _tfds_files(spec, notes)
        elif os.path.exists(spec):
            odd = not_a_regular_file(spec)
            if odd is not None:
                raise PathError(f"{spec}: {odd}")
            found = [spec]
        elif m:
            count = int(m["count"])
            folder = os.path.dirname(m["base"]) or "."
            try:
                with os.scandir(folder) as entries:
                    names = [os.path.join(folder, e.name) for e in entries]
            except OSError:
                names = []
            found = [p for p in shards_of(m["base"], count, names) if os.path.isfile(p)]
            if not found:
                raise PathError(f"{spec}: no shard of {m['base']}-NNNNN-of-{count:05d} exists")
        elif _GLOB_CHARS & set(spec):
            found = _without_sidecars([p for p in glob.glob(spec) if os.path.isfile(p)])
            if not found:
                raise PathError(f"{spec}: the pattern matches no file")
        elif os.path.islink(spec):
            raise PathError(
                f"{spec}: a link that leads nowhere (its target is missing, or it is a loop); "
                "name the file itself"
            )
        else:
            raise PathError(f"{spec}: no such file or folder")
        for path in found if ordered else sorted(found, key=natural_key):
            refused = array_record_message(path)
            if refused is not None:  # a known format, not a damaged TFRecord
                raise PathError(refused)
            key = os.path.abspath(path)
            if key not in seen:
                seen.add(key)
                out.append(path)
    return out


def _is_glob(url: str, path: str) -> bool:
    """Glob characters in a URL's path (for HTTP, ``?`` starts a query instead)."""
    if url.lower().startswith(("http://", "https://")):
        return bool(set("*[") & set(path.split("?", 1)[0]))
    return bool(_GLOB_CHARS & set(path))


def _expand_url(spec: str) -> list[str]:
    """A URL, a glob over a bucket (``gs://b/train-*``), a ``name@N`` spec or a folder
    (prefix) of TFRecord files, as full URLs in natural order."""
    from .remote import call, filesystem

    fs, path = filesystem(spec)
    m = _SPEC_RE.match(path)
    try:
        if m:
            count = int(m["count"])
            pattern = f"{glob.escape(m['base'])}-*-of-{count:05d}"
            listed = call(spec, "listing", lambda: fs.glob(pattern, detail=True))
            names = [p for p, info in listed.items() if info.get("type") != "directory"]
            found = shards_of(m["base"], count, names)
            if not found:
                raise PathError(f"{spec}: no shard of {m['base']}-NNNNN-of-{count:05d} exists")
        elif _is_glob(spec, path):
            listed = call(spec, "listing", lambda: fs.glob(path, detail=True))
            found = [p for p, info in listed.items() if info.get("type") != "directory"]
            found = _without_sidecars(found)
            if not found:
                raise PathError(f"{spec}: the pattern matches no object")
        else:
            folder = spec.endswith("/")  # HTTP cannot tell a folder otherwise
            if not folder:
                info = call(spec, "looking the object up", lambda: fs.info(path))
                folder = info.get("type") == "directory"
            if folder:
                listed = call(spec, "listing", lambda: fs.ls(path, detail=True))
                files = _without_sidecars(
                    [e["name"] for e in listed if e.get("type") != "directory"]
                )
                named = [p for p in files if _RECORD_NAME_RE.search(p.rsplit("/", 1)[-1])]
                found = named or files
                if not found:
                    raise PathError(f"{spec}: the folder holds no files")
            else:
                return [spec]
    except RemoteError as exc:
        if isinstance(exc.__cause__, FileNotFoundError):
            raise PathError(f"{spec}: no such file, object or bucket") from exc
        raise
    return [fs.unstrip_protocol(p) for p in sorted(found, key=natural_key)]


def shard_warnings(paths: Iterable[str]) -> list[DatasetWarning]:
    """Warnings for shard sets (``-NNNNN-of-NNNNN``) that miss members."""
    groups: dict[tuple[str, int, str], set[int]] = defaultdict(set)
    for path in paths:
        m = SHARD_RE.match(path)
        if m:
            groups[(m["prefix"], int(m["total"]), m["suffix"])].add(int(m["index"]))
    warnings: list[DatasetWarning] = []
    for (prefix, total, suffix), present in sorted(groups.items()):
        missing = sorted(set(range(total)) - present)
        if missing:
            shown = ", ".join(f"{i:05d}" for i in missing[:10])
            more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
            warnings.append(
                DatasetWarning(
                    "missing_shards",
                    f"{prefix}-NNNNN-of-{total:05d}{suffix}",
                    f"{len(missing)} of {total} shards missing ({shown}{more}); "
                    "the dataset is incomplete",
                )
            )
    return warnings
