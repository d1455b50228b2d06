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

An entry is one file: a magic line, the length of a JSON header, the header (identity,
flags, the name, type and size of each array) and the raw arrays, all covered by a
CRC32C at the end. Offsets are kept only where a frame does not follow the one before,
so an entry is about 5 bytes a record and loads with one read.
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from pathlib import Path

import numpy as np
from google_crc32c import value as crc32c

from .file_index import FileIndex
from .framing import FRAME_OVERHEAD
from .index import IndexChunk
from .records import GarbageRegion

VERSION = 2
SUFFIX = ".tfrindex"
EXTRA = ".tfrextra"  # other per-file results (statistics), kept by the same rules
MAGIC = b"tfr-viewer index\n"


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
    """What must still match for an entry to be used; None when it cannot be told (a
    missing file, a remote object whose server gives no version tag)."""
    from .remote import is_url

    if is_url(path):
        from .remote import stat

        found = stat(path)
        if found.tag is None:
            return None
        return {"url": path, "size": found.size, "tag": found.tag, "version": VERSION}
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


def _worth_keeping(identity: dict | None) -> bool:
    """Local files from ``TFR_VIEWER_CACHE_MIN_BYTES`` on; remote ones always (every
    scan of them costs requests)."""
    if identity is None:
        return False
    return "url" in identity or identity["size"] >= _int_env("TFR_VIEWER_CACHE_MIN_BYTES", 8 << 20)


def _entry(identity: dict) -> Path:
    """The entry's name: a digest of the identity (a collision only costs a rescan,
    since the identity stored inside is compared on load)."""
    key = json.dumps(identity, sort_keys=True).encode()
    digest = f"{zlib.crc32(key):08x}{crc32c(key):08x}{zlib.adler32(key):08x}"
    return cache_dir() / (digest + SUFFIX)


def _encode(meta: dict, arrays: dict[str, np.ndarray]) -> bytes:
    parts = [np.ascontiguousarray(a) for a in arrays.values()]
    layout = [[name, a.dtype.str, len(a)] for name, a in zip(arrays, parts, strict=True)]
    head = json.dumps({**meta, "arrays": layout}).encode()
    body = MAGIC + len(head).to_bytes(8, "little") + head + b"".join(p.tobytes() for p in parts)
    return body + crc32c(body).to_bytes(4, "little")


def _decode(data: bytes) -> tuple[dict, dict[str, np.ndarray]] | None:
    """The header and arrays of an entry, or None when it is not a whole, intact one."""
    if len(data) < len(MAGIC) + 12 or not data.startswith(MAGIC):
        return None
    if crc32c(data[:-4]) != int.from_bytes(data[-4:], "little"):
        return None
    at = len(MAGIC) + 8
    end = at + int.from_bytes(data[len(MAGIC) : at], "little")
    meta = json.loads(data[at:end])
    arrays = {}
    for name, dtype, size in meta["arrays"]:
        arrays[name] = np.frombuffer(data, dtype=np.dtype(dtype), count=int(size), offset=end)
        end += arrays[name].nbytes
    if end != len(data) - 4:
        return None
    return meta, arrays


def _pack(offsets: np.ndarray, lengths: np.ndarray) -> dict[str, np.ndarray]:
    """Lengths (4 bytes each when they fit) and the offsets as the few places where a
    frame does not start right after the one before (garbage, resynchronisation)."""
    steps = np.zeros(len(offsets), dtype=np.uint64)
    steps[1:] = offsets[:-1] + np.uint64(FRAME_OVERHEAD) + lengths[:-1]
    gaps = offsets - steps  # wraps modulo 2**64, as the sum in _unpack does
    at = np.flatnonzero(gaps)
    small = not len(lengths) or int(lengths.max()) < 1 << 32
    return {
        "lengths": lengths.astype(np.uint32 if small else np.uint64),
        "gap_at": at.astype(np.int64),
        "gap": gaps[at],
    }


def _unpack(arrays: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    lengths = arrays["lengths"].astype(np.uint64)
    steps = np.zeros(len(lengths), dtype=np.uint64)
    steps[1:] = lengths[:-1] + np.uint64(FRAME_OVERHEAD)
    steps[arrays["gap_at"]] += arrays["gap"]
    return np.cumsum(steps, dtype=np.uint64), lengths


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
    if not _worth_keeping(identity):
        return None
    entry = _entry(identity)
    try:
        with open(entry, "rb") as f:
            decoded = _decode(f.read())
        if decoded is None:
            return None
        meta, arrays = decoded
        if meta.get("identity") != identity or (verified and not meta["verified"]):
            return None
        os.utime(entry)  # recently used
        garbage = arrays["garbage"].reshape(-1, 3)
        regions = tuple(GarbageRegion(int(o), int(s), int(b)) for o, s, b in garbage.tolist())
        offsets, lengths = _unpack(arrays)
        chunk = IndexChunk(
            0,
            offsets,
            lengths,
            arrays["status"].copy(),  # statuses change when records are re-verified
            regions,
            int(meta["position"]),
            meta["stream_error"],
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    index = FileIndex()
    index.add(chunk)
    index.finish(verified=bool(meta["verified"]))
    return index, meta.get("stream_size")


def store(path: str, index: FileIndex, stream_size: int | None) -> Path | None:
    """Save a complete index of ``path``; returns the entry, or None when not cached
    (off, too small, or the cache folder cannot be written: caching is best effort)."""
    if not enabled() or not index.complete:
        return None
    identity = _identity(path)
    if not _worth_keeping(identity):
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
    data = _encode(
        meta,
        {
            **_pack(index.offsets(), index.lengths()),
            "status": index.statuses(),
            "garbage": garbage.ravel(),
        },
    )
    return _write(_entry(identity), data)


def _write(entry: Path, data: bytes) -> Path | None:
    """Put an entry in place atomically and keep the cache under its size; None when the
    folder cannot be written (caching is best effort)."""
    tmp = entry.with_name(f"{entry.name}.{os.getpid()}.part")
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as out:
            out.write(data)
        os.replace(tmp, entry)
        trim(_int_env("TFR_VIEWER_CACHE_MB", 2048) << 20)
    except OSError:
        return None
    return entry


def _read(entry: Path) -> tuple[dict, dict[str, np.ndarray]] | None:
    """A whole, intact entry (marked as recently used), or None."""
    try:
        with open(entry, "rb") as f:
            decoded = _decode(f.read())
        if decoded is not None:
            os.utime(entry)
        return decoded
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _extra_entry(kind: str, identity: dict) -> Path:
    key = json.dumps({**identity, "kind": kind}, sort_keys=True).encode()
    return cache_dir() / f"{zlib.crc32(key):08x}{crc32c(key):08x}{zlib.adler32(key):08x}{EXTRA}"


def store_extra(kind: str, path: str, meta: dict, arrays: dict[str, np.ndarray]) -> Path | None:
    """Keep other results about ``path`` as it is now (``kind`` names them, with their
    format's version), under the same rules as indexes; best effort."""
    if not enabled():
        return None
    identity = _identity(path)
    if not _worth_keeping(identity):
        return None
    data = _encode({"identity": identity, "kind": kind, "meta": meta}, arrays)
    return _write(_extra_entry(kind, identity), data)


def load_extra(kind: str, path: str) -> tuple[dict, dict[str, np.ndarray]] | None:
    """What :func:`store_extra` kept for ``path`` as it is now, or None."""
    if not enabled():
        return None
    identity = _identity(path)
    if identity is None:
        return None
    found = _read(_extra_entry(kind, identity))
    if found is None or found[0].get("identity") != identity or found[0].get("kind") != kind:
        return None
    return found[0]["meta"], found[1]


def trim(limit_bytes: int) -> None:
    """Delete the least recently used entries until the cache is under the limit."""
    try:
        entries = [
            (p.stat().st_mtime, p.stat().st_size, p)
            for suffix in (SUFFIX, EXTRA)
            for p in cache_dir().glob("*" + suffix)
        ]
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
