"""A persistent cache of complete file indexes, so a second look at a big file does not
scan it again.

Entries live in the platform's cache directory (``$XDG_CACHE_HOME/tfr-viewer/index`` on
Linux, ``~/Library/Caches/tfr-viewer/index`` on macOS, ``%LOCALAPPDATA%\\tfr-viewer\\
Cache\\index`` on Windows; ``TFR_VIEWER_CACHE_DIR`` overrides). An entry is keyed by the
file's real path, size, modification time and inode, and is used only while all four
still match. Only files of at least ``TFR_VIEWER_CACHE_MIN_BYTES`` (default 8 MB) are
cached; the whole cache is kept under ``TFR_VIEWER_CACHE_MB`` (default 2048), the least
recently used entries going first. ``TFR_VIEWER_NO_CACHE=1`` (the CLI's ``--no-cache``)
turns it off. A damaged or unreadable entry is ignored and rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from .file_index import FileIndex
from .index import IndexChunk
from .records import GarbageRegion

VERSION = 1
SUFFIX = ".tfrindex.npz"


def cache_dir() -> Path:
    """Where entries are kept (not created here)."""
    override = os.environ.get("TFR_VIEWER_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
        return base / "tfr-viewer" / "Cache" / "index"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "tfr-viewer" / "index"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tfr-viewer" / "index"


def enabled() -> bool:
    return os.environ.get("TFR_VIEWER_NO_CACHE", "").strip() in ("", "0")


def _int_env(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def _identity(path: str) -> dict | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return {
        "path": os.path.realpath(path),
        "size": st.st_size,
        "mtime_ns": st.st_mtime_ns,
        "inode": st.st_ino,
        "version": VERSION,
    }


def _entry(identity: dict) -> Path:
    digest = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:32]
    return cache_dir() / (digest + SUFFIX)


def entry_for(path: str) -> Path | None:
    """Where the entry of ``path`` as it is now would be kept."""
    identity = _identity(path)
    return None if identity is None else _entry(identity)


def load(path: str, verified: bool) -> tuple[FileIndex, int | None] | None:
    """The cached complete index of ``path`` (verified if asked) and the uncompressed
    stream size, or None."""
    if not enabled():
        return None
    identity = _identity(path)
    if identity is None or identity["size"] < _int_env("TFR_VIEWER_CACHE_MIN_BYTES", 8 << 20):
        return None
    entry = _entry(identity)
    try:
        with np.load(entry, allow_pickle=False) as data:
            meta = json.loads(bytes(data["meta"]).decode())
            if meta.get("identity") != identity or (verified and not meta["verified"]):
                return None
            offsets, lengths, status = data["offsets"], data["lengths"], data["status"]
            garbage = data["garbage"]
        os.utime(entry)  # recently used
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile):
        return None
    index = FileIndex()
    regions = tuple(GarbageRegion(int(o), int(s), int(b)) for o, s, b in garbage.tolist())
    index.add(
        IndexChunk(0, offsets, lengths, status, regions, meta["position"], meta["stream_error"])
    )
    index.finish(verified=bool(meta["verified"]))
    return index, meta.get("stream_size")


def store(path: str, index: FileIndex, stream_size: int | None) -> Path | None:
    """Save a complete index of ``path``; returns the entry, or None when not cached
    (off, too small, or the cache folder cannot be written: caching is best effort)."""
    if not enabled() or not index.complete:
        return None
    identity = _identity(path)
    if identity is None or identity["size"] < _int_env("TFR_VIEWER_CACHE_MIN_BYTES", 8 << 20):
        return None
    meta = {
        "identity": identity,
        "verified": index.verified,
        "position": index.position,
        "stream_error": index.stream_error,
        "stream_size": stream_size,
    }
    garbage = np.array(
        [(g.offset, g.size, g.before_record) for g in index.garbage], dtype=np.int64
    ).reshape(-1, 3)
    buf = io.BytesIO()
    np.savez(
        buf,
        meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
        offsets=index.offsets(),
        lengths=index.lengths(),
        status=index.statuses(),
        garbage=garbage,
    )
    entry = _entry(identity)
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=entry.parent, suffix=".part")
        with os.fdopen(fd, "wb") as out:
            out.write(buf.getbuffer())
        os.replace(tmp, entry)
        trim(_int_env("TFR_VIEWER_CACHE_MB", 2048) << 20)
    except OSError:
        return None
    return entry


def trim(limit_bytes: int) -> None:
    """Delete the least recently used entries until the cache is under the limit."""
    try:
        entries = [(p.stat().st_mtime, p.stat().st_size, p) for p in cache_dir().glob("*" + SUFFIX)]
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    for _, size, p in sorted(entries):
        if total <= limit_bytes:
            break
        try:
            p.unlink()
            total -= size
        except OSError:
            pass
