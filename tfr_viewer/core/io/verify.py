"""Check payload CRCs of an already indexed file in place.

After a header-only scan every record is ``UNVERIFIED``; :func:`verify_index` settles
each one to ``OK`` or ``BAD_DATA_CRC`` block by block, so a window can show rows at once
and let their status fill in.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..crc32c import value as _crc
from .file_index import FileIndex
from .framing import FOOTER_SIZE, HEADER_SIZE, mask
from .records import CancelToken, RecordStatus
from .sources import Source

_MASK = 0xA282EAD8


def _check_plain(arr: np.ndarray, offsets: list[int], lengths: list[int]) -> np.ndarray:
    starts = np.asarray(offsets, dtype=np.int64) + HEADER_SIZE
    ends = starts + np.asarray(lengths, dtype=np.int64)
    raw = np.fromiter(
        (_crc(arr[s:e]) for s, e in zip(starts.tolist(), ends.tolist(), strict=True)),
        dtype=np.uint64,
        count=len(offsets),
    )
    stored = arr[ends[:, None] + np.arange(FOOTER_SIZE)].copy().view("<u4").ravel()
    masked = ((((raw >> 15) | (raw << 17)) + _MASK) & 0xFFFFFFFF).astype(np.uint32)
    return masked == stored


_SPAN = 16 << 20  # bytes read at once when frames follow each other


def _check_stream(source: Source, offsets: list[int], lengths: list[int]) -> np.ndarray:
    """Check frames read from ``source``: runs of adjacent frames in one read each (a
    remote file streams in a few large requests instead of one per record)."""
    ok = np.zeros(len(offsets), dtype=bool)
    i = 0
    while i < len(offsets):
        start = offsets[i] + HEADER_SIZE
        j, end = i + 1, start + lengths[i] + FOOTER_SIZE
        while j < len(offsets) and offsets[j] == end:
            nxt = end + HEADER_SIZE + lengths[j] + FOOTER_SIZE
            if nxt - start > _SPAN:
                break
            j, end = j + 1, nxt
        data = np.frombuffer(source.read_at(start, end - start), dtype=np.uint8)
        for k in range(i, j):
            at = offsets[k] + HEADER_SIZE - start
            length = lengths[k]
            frame = data[at : at + length + FOOTER_SIZE]
            if len(frame) == length + FOOTER_SIZE:
                stored = int.from_bytes(frame[length:].tobytes(), "little")
                ok[k] = mask(_crc(frame[:length])) == stored
        i = j
    return ok


def verify_index(
    source: Source,
    index: FileIndex,
    *,
    cancel: CancelToken | None = None,
    block: int = 1 << 14,
) -> Iterator[tuple[int, int]]:
    """Settle every UNVERIFIED record; yield ``(records_done, bad_found)`` per block.
    Returns early, leaving the rest UNVERIFIED, when ``cancel`` is set."""
    arr = source.array()
    bad_total = 0
    for lo in range(0, len(index), block):
        if cancel is not None and cancel.cancelled:
            return
        hi = min(lo + block, len(index))
        statuses = index.statuses(lo, hi)
        todo = np.flatnonzero(statuses == RecordStatus.UNVERIFIED)
        if len(todo):
            offsets = index.offsets(lo, hi)[todo].tolist()
            lengths = index.lengths(lo, hi)[todo].tolist()
            if arr is not None:
                ok = _check_plain(arr, offsets, lengths)
            else:
                ok = _check_stream(source, offsets, lengths)
            for i, good in zip(todo.tolist(), ok.tolist(), strict=True):
                index.set_status(lo + i, RecordStatus.OK if good else RecordStatus.BAD_DATA_CRC)
            bad_total += int((~ok).sum())
        yield hi, bad_total
    index.verified = True
