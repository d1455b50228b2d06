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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..crc32c import extend as crc32c_extend, value as crc32c
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
    turn_off,
    worth_keeping,
)
from .file_index import BLOCK, FileIndex
from .framing import FRAME_OVERHEAD, HEADER_SIZE, Compression, decode_header
from .index import IndexChunk
from .records import GarbageRegion, RecordStatus
from .sniff import sniff

__all__ = [
    "SUFFIX",
    "cache_dir",
    "enabled",
    "entry_for",
    "identity",
    "kept",
    "load",
    "store",
    "trim",
    "turn_off",
]


@dataclass(frozen=True)
class Blocks:
    """A column made piece by piece while it is written: ``count`` values of ``dtype``."""

    dtype: np.dtype
    count: int
    pieces: Callable[[], Iterator[np.ndarray]]


Column = np.ndarray | list[np.ndarray] | Blocks


def _blocks(column: Column) -> Blocks:
    """Any column as :class:`Blocks` (a list of arrays has at least one, maybe empty)."""
    if isinstance(column, Blocks):
        return column
    parts = column if isinstance(column, list) else [column]
    return Blocks(parts[0].dtype, sum(map(len, parts)), parts.__iter__)


def _encoded(meta: dict[str, Any], arrays: dict[str, Column]) -> Iterator[bytes]:
    """An entry as consecutive pieces, the CRC last. A column given as :class:`Blocks`
    is made while it is written, so no copy of a whole index is ever held."""
    columns = {name: _blocks(a) for name, a in arrays.items()}
    layout = [[name, np.dtype(c.dtype).str, c.count] for name, c in columns.items()]
    head = json.dumps({**meta, "arrays": layout}).encode()
    first = MAGIC + len(head).to_bytes(8, "little") + head
    crc = crc32c(first)
    yield first
    for column in columns.values():
        for piece in column.pieces():
            data = np.ascontiguousarray(piece, dtype=column.dtype).tobytes()
            crc = crc32c_extend(crc, data)
            yield data
    yield crc.to_bytes(4, "little")


def _encode(meta: dict[str, Any], arrays: dict[str, Column]) -> bytes:
    """An entry as one ``bytes``."""
    return b"".join(_encoded(meta, arrays))


def _decode(data: bytes) -> tuple[dict[str, Any], dict[str, np.ndarray]] | None:
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


def _pack(index: FileIndex) -> dict[str, Column]:
    """Lengths (4 bytes each when they fit) and the offsets as the few places where a
    frame does not start right after the one before (garbage, resynchronisation), made
    block by block."""
    blocks = range(0, len(index), BLOCK)
    small = all(int(index.lengths(lo, lo + BLOCK).max()) < 1 << 32 for lo in blocks)
    gap_at: list[np.ndarray] = [np.zeros(0, np.int64)]
    gap: list[np.ndarray] = [np.zeros(0, np.uint64)]
    expected = np.uint64(0)  # where the next frame starts if it follows the one before
    for lo in blocks:
        offsets, sizes = index.offsets(lo, lo + BLOCK), index.lengths(lo, lo + BLOCK)
        steps = np.empty(len(offsets), dtype=np.uint64)
        steps[0] = expected
        steps[1:] = offsets[:-1] + np.uint64(FRAME_OVERHEAD) + sizes[:-1]
        gaps = offsets - steps  # wraps modulo 2**64, as the sum in _unpack does
        at = np.flatnonzero(gaps)
        gap_at.append((at + lo).astype(np.int64))
        gap.append(gaps[at])
        expected = offsets[-1] + np.uint64(FRAME_OVERHEAD) + sizes[-1]
    lengths = Blocks(
        np.dtype(np.uint32 if small else np.uint64),
        len(index),
        lambda: (index.lengths(lo, lo + BLOCK) for lo in blocks),
    )
    return {"lengths": lengths, "gap_at": gap_at, "gap": gap}


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


def kept(path: str) -> Path | None:
    """The entry the cache holds for ``path`` as it is now, or None (none, or the cache
    is off). Whether it still fits the file is for :func:`load` to say."""
    entry = entry_for(path) if enabled() else None
    try:
        return entry if entry is not None and entry.is_file() else None
    except OSError:  # a cache folder this user may not look into (left by another)
        return None


def load(path: str, verified: bool) -> tuple[FileIndex, int | None] | None:
    """The cached complete index of ``path`` and the uncompressed stream size, or None.

    The cache holds offsets, never verdicts: a verifying scan (``verified``) always
    reads the bytes, and a loaded index has every payload ``UNVERIFIED`` (its CRC is
    checked when the record is read or verified). An entry is used only when it
    parses, its identity matches the file and it fits the file (:func:`_fits`);
    anything else is rebuilt, never raised."""
    if verified or not enabled():
        return None
    try:
        ident = identity(path)
        if not worth_keeping(ident):
            return None
        entry = entry_path(ident)  # type: ignore[arg-type]
        with open(entry, "rb") as f:
            decoded = _decode(f.read())
        if decoded is None:
            return None
        meta, arrays = decoded
        if meta.get("identity") != ident:
            return None
        garbage = arrays["garbage"].reshape(-1, 3)
        regions = tuple(GarbageRegion(int(o), int(s), int(b)) for o, s, b in garbage.tolist())
        offsets, lengths = _unpack(arrays)
        status = arrays["status"].astype(np.uint8)  # a copy: statuses change when verified
        if len(status) != len(offsets):
            return None
        payload_verdict = (status == RecordStatus.OK) | (status == RecordStatus.BAD_DATA_CRC)
        status[payload_verdict] = RecordStatus.UNVERIFIED
        stream_size = meta.get("stream_size")
        position = int(meta["position"])
        fits = _fits(path, ident, stream_size, position, offsets, lengths, status, regions)  # type: ignore[arg-type]
        if not fits:
            return None
        chunk = IndexChunk(0, offsets, lengths, status, regions, position, meta["stream_error"])
        index = FileIndex()
        index.add(chunk)
        index.finish(verified=False)
        os.utime(entry)  # recently used
    except Exception:  # noqa: BLE001 - a cache entry is never trusted, nor fatal
        return None
    return index, stream_size


SAMPLED_HEADERS = 16


def _fits(
    path: str,
    ident: dict[str, Any],
    stream_size: int | None,
    position: int,
    offsets: np.ndarray,
    lengths: np.ndarray,
    status: np.ndarray,
    regions: tuple[GarbageRegion, ...] = (),
) -> bool:
    """Whether an entry can describe ``path``: the scan reached the end of the stream,
    every whole frame lies inside it, its frames and skipped regions reach the end of
    the stream (an entry of ten records does not describe a file of nine thousand),
    and, for a local uncompressed file, a sample of headers read now give the entry's
    lengths with a good length CRC."""
    if stream_size is None or position != stream_size:
        return False
    whole = status != RecordStatus.TRUNCATED
    ends = offsets[whole] + np.uint64(FRAME_OVERHEAD) + lengths[whole]
    if len(ends) and int(ends.max()) > stream_size:
        return False
    reach = max([int(ends.max()) if len(ends) else 0] + [g.offset + g.size for g in regions])
    if not whole.all():
        reach = stream_size  # a frame cut by the end of the stream runs to it
    if reach != stream_size:
        return False
    if "path" not in ident or stream_size != ident["size"] or not len(offsets):
        return True  # compressed or remote: the CRC of each read settles the rest
    if sniff(path) is not Compression.NONE:
        return True
    headed = np.flatnonzero(status != RecordStatus.BAD_LENGTH_CRC)
    picks = headed[np.linspace(0, len(headed) - 1, min(len(headed), SAMPLED_HEADERS)).astype(int)]
    fd = os.open(path, os.O_RDONLY)
    try:
        for i in picks.tolist():
            length, ok = decode_header(
                os.pread(fd, HEADER_SIZE, int(offsets[i])).ljust(HEADER_SIZE)
            )
            if not ok or length != int(lengths[i]):
                return False
    finally:
        os.close(fd)
    return True


def store(
    path: str, index: FileIndex, stream_size: int | None, before: dict[str, Any] | None = None
) -> Path | None:
    """Save a complete index of ``path``; returns the entry, or None when not cached
    (off, too small, the file changed since ``before`` — its identity when the scan
    began — or the cache folder cannot be written: caching is best effort). A remote
    object whose scan found a problem is not cached: its version tag says nothing of
    what a server sent while it changed, or cut short, and the next look reads it
    again."""
    if not enabled() or not index.complete:
        return None
    ident = identity(path)
    if ident is None or not worth_keeping(ident) or (before is not None and ident != before):
        return None
    if "url" in ident and index.problem_count():
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
    blocks = range(0, len(index), BLOCK)
    statuses = Blocks(
        np.dtype(np.uint8), len(index), lambda: (index.statuses(lo, lo + BLOCK) for lo in blocks)
    )
    data = _encoded(meta, {**_pack(index), "status": statuses, "garbage": garbage.ravel()})
    return _write(entry_path(ident), data)


def _write(entry: Path, data: bytes | Iterator[bytes]) -> Path | None:
    """Put an entry in place atomically and keep the cache under its size (and free of
    the temporaries of processes that died while writing); None when the folder cannot
    be written (caching is best effort)."""
    from .file_writes import clean_stale_temporaries, write_atomic

    try:
        entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_atomic(str(entry), data, mode=0o600)
        clean_stale_temporaries(str(entry.parent))  # writes of processes that were killed
        trim(int_env("TFR_VIEWER_CACHE_MB", 2048) << 20)
    except OSError:
        return None
    return entry


def _read(entry: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]] | None:
    """A whole, intact entry (marked as recently used), or None."""
    try:
        with open(entry, "rb") as f:
            decoded = _decode(f.read())
        if decoded is not None:
            os.utime(entry)
        return decoded
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _extra_entry(kind: str, ident: dict[str, Any]) -> Path:
    return entry_path({**ident, "kind": kind}, EXTRA)


def store_extra(
    kind: str, path: str, meta: dict[str, Any], arrays: dict[str, np.ndarray]
) -> Path | None:
    """Keep other results about ``path`` as it is now (``kind`` names them, with their
    format's version), under the same rules as indexes; best effort."""
    if not enabled():
        return None
    ident = identity(path)
    if ident is None or not worth_keeping(ident):
        return None
    data = _encoded({"identity": ident, "kind": kind, "meta": meta}, dict(arrays))
    return _write(_extra_entry(kind, ident), data)


def load_extra(kind: str, path: str) -> tuple[dict[str, Any], dict[str, np.ndarray]] | None:
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
