"""A persistent cache of complete file indexes, so a second look at a big file does not
scan it again.

Where entries live, how they are named and keyed (the file's real path, size,
modification time and inode) and their format are in :mod:`.cache_entry`. Only files
of at least ``TFR_VIEWER_CACHE_MIN_BYTES`` (default 8 MB) are cached; the whole cache
is kept under ``TFR_VIEWER_CACHE_MB`` (default 2048), the least recently used entries
going first. A damaged or unreadable entry is ignored and rebuilt, never trusted.
Offsets are kept only where a frame does not follow the one before, so an entry is
about 5 bytes a record and loads with one read.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
from google_crc32c import value as crc32c

from .cache_entry import (
    EXTRA,
    MAGIC,
    SUFFIX,
    cache_dir,
    enabled,
    entry_path,
    identity,
    int_env,
    parse,
    worth_keeping,
)
from .file_index import FileIndex
from .framing import FRAME_OVERHEAD
from .index import IndexChunk
from .records import GarbageRegion

__all__ = ["SUFFIX", "cache_dir", "enabled", "entry_for", "load", "store", "trim"]


def _encode(meta: dict, arrays: dict[str, np.ndarray]) -> bytes:
    parts = [np.ascontiguousarray(a) for a in arrays.values()]
    layout = [[name, a.dtype.str, len(a)] for name, a in zip(arrays, parts, strict=True)]
    head = json.dumps({**meta, "arrays": layout}).encode()
    body = MAGIC + len(head).to_bytes(8, "little") + head + b"".join(p.tobytes() for p in parts)
    return body + crc32c(body).to_bytes(4, "little")


def _decode(data: bytes) -> tuple[dict, dict[str, np.ndarray]] | None:
    """The header and arrays of an entry, or None when it is not a whole, intact one."""
    parsed = parse(data)
    if parsed is None:
        return None
    meta, layout = parsed
    arrays = {
        name: np.frombuffer(data, dtype=np.dtype(dtype), count=size, offset=at)
        for name, dtype, size, at in layout
    }
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
    ident = identity(path)
    return None if ident is None else entry_path(ident)


def load(path: str, verified: bool) -> tuple[FileIndex, int | None] | None:
    """The cached complete index of ``path`` (verified if asked) and the uncompressed
    stream size, or None."""
    if not enabled():
        return None
    ident = identity(path)
    if not worth_keeping(ident):
        return None
    entry = entry_path(ident)
    try:
        with open(entry, "rb") as f:
            decoded = _decode(f.read())
        if decoded is None:
            return None
        meta, arrays = decoded
        if meta.get("identity") != ident or (verified and not meta["verified"]):
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
    ident = identity(path)
    if not worth_keeping(ident):
        return None
    meta = {
        "identity": ident,
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
    return _write(entry_path(ident), data)


def _write(entry: Path, data: bytes) -> Path | None:
    """Put an entry in place atomically and keep the cache under its size; None when the
    folder cannot be written (caching is best effort)."""
    from ..write.output import write_atomic

    try:
        entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_atomic(str(entry), data, mode=0o600)
        trim(int_env("TFR_VIEWER_CACHE_MB", 2048) << 20)
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


def _extra_entry(kind: str, ident: dict) -> Path:
    return entry_path({**ident, "kind": kind}, EXTRA)


def store_extra(kind: str, path: str, meta: dict, arrays: dict[str, np.ndarray]) -> Path | None:
    """Keep other results about ``path`` as it is now (``kind`` names them, with their
    format's version), under the same rules as indexes; best effort."""
    if not enabled():
        return None
    ident = identity(path)
    if not worth_keeping(ident):
        return None
    data = _encode({"identity": ident, "kind": kind, "meta": meta}, arrays)
    return _write(_extra_entry(kind, ident), data)


def load_extra(kind: str, path: str) -> tuple[dict, dict[str, np.ndarray]] | None:
    """What :func:`store_extra` kept for ``path`` as it is now, or None."""
    if not enabled():
        return None
    ident = identity(path)
    if ident is None:
        return None
    found = _read(_extra_entry(kind, ident))
    if found is None or found[0].get("identity") != ident or found[0].get("kind") != kind:
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
