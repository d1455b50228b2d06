"""Read one record of plain local files straight from their persistent index entries.

A second ``show`` of a record in a big file needs its offset, length and status, which
the cache entries of that file and of the files before it hold. Building a
:class:`~.dataset.Dataset` index from them costs numpy's import, which is most of a
quick command's time; this module finds the record with plain Python instead and reads
it as :meth:`~.dataset.Dataset.read_verified` does (the same bytes and status).

It answers only when the answer is the dataset's: every file up to the record's is a
local, uncompressed file with a whole entry of its current state, the record is intact
or unverified, and the files hold at most :data:`MAX_RECORDS` records up to it (summing
more lengths in Python costs more than the import). Otherwise :func:`find` returns None
and the caller indexes the dataset as usual, which also gives every error message.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Literal

from . import cache_entry
from .framing import (
    FOOTER_SIZE,
    FRAME_OVERHEAD,
    HEADER_SIZE,
    Compression,
    decode_header,
    masked_crc,
)
from .records import RecordStatus
from .remote import is_url
from .sniff import sniff

MAX_RECORDS = 1 << 20
_CODES: dict[str, Literal["I", "Q", "q", "B"]] = {"<u4": "I", "<u8": "Q", "<i8": "q", "|u1": "B"}
# (little-endian machines only)


@dataclass(frozen=True)
class CachedRecord:
    """Global record ``index``: local record ``local`` of ``file``, its frame and
    status, and its payload (what there is of it when the data CRC fails)."""

    index: int
    file: str
    local: int
    offset: int
    length: int
    status: RecordStatus
    payload: bytes


class _Entry:
    """The arrays of one file's entry, as memoryviews over its bytes."""

    def __init__(self, data: bytes, layout: list[tuple[str, str, int, int]]) -> None:
        self.arrays = {}
        for name, dtype, count, at in layout:
            code = _CODES.get(dtype)
            if code is None:
                raise ValueError(f"unexpected array type {dtype}")
            size = count * memoryview(b"").cast(code).itemsize
            self.arrays[name] = memoryview(data)[at : at + size].cast(code)
        self.count = len(self.arrays["lengths"])
        if len(self.arrays["status"]) != self.count or len(self.arrays["gap_at"]) != len(
            self.arrays["gap"]
        ):
            raise ValueError("arrays of different lengths")

    def frame(self, local: int) -> tuple[int, int, RecordStatus]:
        """Offset, length and status of record ``local``: the sum of the frames before
        it plus the gaps (garbage, resynchronisation) at or before it, modulo 2**64 as
        the index cache stores them."""
        lengths = self.arrays["lengths"]
        gaps = sum(
            gap
            for at, gap in zip(self.arrays["gap_at"], self.arrays["gap"], strict=True)
            if at <= local
        )
        offset = (sum(lengths[:local]) + FRAME_OVERHEAD * local + gaps) % (1 << 64)
        return offset, lengths[local], RecordStatus(self.arrays["status"][local])


def _entry(path: str) -> _Entry | None:
    """The entry of a local, uncompressed ``path`` as it is now, or None."""
    if is_url(path):
        return None
    ident = cache_entry.identity(path)
    if not cache_entry.worth_keeping(ident):
        return None
    entry = cache_entry.entry_path(ident)  # type: ignore[arg-type]
    try:
        with open(entry, "rb") as f:
            data = f.read()
        parsed = cache_entry.parse(data)
        if parsed is None or parsed[0].get("identity") != ident:
            return None
        if sniff(path) is not Compression.NONE:
            return None
        found = _Entry(data, parsed[1])
        os.utime(entry)  # recently used, as a load of the index marks it
    except Exception:  # noqa: BLE001 - a cache entry is never trusted, nor fatal
        return None
    return found


def find(paths: list[str], index: int) -> CachedRecord | None:
    """Global record ``index`` of the files ``paths`` (already expanded), read and with
    its CRCs checked (the entries hold no verdicts); None when the entries cannot tell (see
    the module's contract)."""
    if sys.byteorder != "little" or not cache_entry.enabled() or index < 0:
        return None
    before = 0
    for path in paths:
        found = _entry(path)
        if found is None or before + found.count > MAX_RECORDS:
            return None
        if index < before + found.count:
            return _read(path, found, index, index - before)
        before += found.count
    return None


def _read(path: str, found: _Entry, index: int, local: int) -> CachedRecord | None:
    offset, length, status = found.frame(local)
    if status in (RecordStatus.BAD_LENGTH_CRC, RecordStatus.TRUNCATED):
        return None  # its readable length depends on the records and garbage after it
    try:  # the cache holds offsets, never verdicts: the CRCs are checked here
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read(HEADER_SIZE + length + FOOTER_SIZE)
    except (OSError, OverflowError, ValueError):
        return None
    if decode_header(data[:HEADER_SIZE].ljust(HEADER_SIZE, b"\0")) != (length, True):
        return None  # the entry does not describe the file: the dataset decides
    payload, footer = data[HEADER_SIZE:-FOOTER_SIZE], data[-FOOTER_SIZE:]
    whole = len(data) == HEADER_SIZE + length + FOOTER_SIZE
    ok = whole and masked_crc(payload) == int.from_bytes(footer, "little")
    status = RecordStatus.OK if ok else RecordStatus.BAD_DATA_CRC
    return CachedRecord(
        index, path, local, offset, length, status, payload if whole else data[HEADER_SIZE:]
    )
