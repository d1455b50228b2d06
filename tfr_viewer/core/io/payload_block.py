"""The payloads of many consecutive records, read at once into one buffer.

A :class:`PayloadBlock` is a uint8 buffer with an int64 start and length per record
(start ``-1`` for a record whose payload cannot be read: damaged, or missing). Plain
files give a zero-copy view of their mapping; compressed ones one read per group of
records. Column extraction then works on the buffer without a Python object per record.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .. import kernels
from .framing import FRAME_OVERHEAD, HEADER_SIZE
from .records import RecordStatus
from .source_errors import FileChanged
from .sources import Source

READABLE = (RecordStatus.OK, RecordStatus.UNVERIFIED)
GROUP_BYTES = 64 << 20  # a read spans at most this much, unless one record is larger


@dataclass(frozen=True)
class PayloadBlock:
    """``payload(r)`` is ``buf[starts[r] : starts[r] + lengths[r]]``, or empty."""

    buf: np.ndarray  # uint8
    starts: np.ndarray  # int64, -1 when unreadable
    lengths: np.ndarray  # int64

    @property
    def rows(self) -> int:
        return len(self.starts)

    def payload(self, r: int) -> bytes:
        start = int(self.starts[r])
        if start < 0:
            return b""
        return self.buf[start : start + int(self.lengths[r])].tobytes()

    @classmethod
    def of(cls, payloads: list[bytes]) -> PayloadBlock:
        """A block over payloads held in memory (edited records, tests)."""
        lengths = np.array([len(p) for p in payloads], dtype=np.int64)
        starts = np.zeros(len(payloads), dtype=np.int64)
        if len(payloads) > 1:
            starts[1:] = np.cumsum(lengths[:-1])
        buf = np.frombuffer(b"".join(payloads), dtype=np.uint8)
        return cls(buf, starts, lengths)


def _within(source: Source, offsets: np.ndarray, lengths: np.ndarray) -> None:
    """:class:`FileChanged` when an intact record of the index lies past the end of the
    source as it is now: the file was cut after it was indexed (by another process, or
    by this one's planned jobs), and what is read of it cannot be trusted."""
    if source.size is None or not len(offsets):
        return
    if int((offsets + FRAME_OVERHEAD + lengths).max()) > source.size:
        raise FileChanged.of(source.path, source.size)


def read_block(
    source: Source,
    offsets: np.ndarray,
    lengths: np.ndarray,
    statuses: np.ndarray,
    edited: Mapping[int, bytes] | None = None,
    spare: list[np.ndarray] | None = None,
) -> PayloadBlock:
    """The payloads of the given frames (stream order) of one open source. Only intact
    or unverified records are read; one past the source's end is :class:`FileChanged`.
    ``edited`` maps a row to the payload that replaces what the file holds. ``spare``
    holds a buffer to read into when it is large enough (and receives the one used): for
    callers done with a block before the next."""
    offsets = np.asarray(offsets, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    readable = (statuses == READABLE[0]) | (statuses == READABLE[1])
    _within(source, offsets[readable], lengths[readable])
    if edited:
        return _with_edits(source, offsets, lengths, readable, edited)
    starts = np.full(len(offsets), -1, dtype=np.int64)
    rows = np.flatnonzero(readable)
    if not len(rows):
        return PayloadBlock(np.zeros(0, dtype=np.uint8), starts, lengths)
    ends = offsets[rows] + FRAME_OVERHEAD + lengths[rows]
    whole = source.array()
    if whole is not None and int(ends.max()) <= len(whole):
        starts[rows] = offsets[rows] + HEADER_SIZE
        return PayloadBlock(whole, starts, lengths)
    # one buffer for the whole block, each group read straight into its place
    groups: list[tuple[int, int, int]] = []  # (first row, last row, stream offset)
    first = total = 0
    while first < len(rows):
        lo = int(offsets[rows[first]])
        # every record that ends within GROUP_BYTES of the first (at least one)
        last = max(first + 1, int(np.searchsorted(ends, lo + GROUP_BYTES, side="right")))
        groups.append((first, last, lo))
        total += int(ends[last - 1]) - lo
        first = last
    if spare and len(spare[0]) >= total:
        buf = spare[0][:total]
    else:
        buf = np.empty(total, dtype=np.uint8)
        if spare is not None:
            spare[:] = [buf]
    base = 0
    for first, last, lo in groups:
        size = int(ends[last - 1]) - lo
        got = source.readinto_at(lo, buf.data[base : base + size])
        group = rows[first:last]
        starts[group] = offsets[group] - lo + HEADER_SIZE + base
        # a stream that ends early leaves the records past its end unreadable
        short = offsets[group] + HEADER_SIZE + lengths[group] - lo > got
        starts[group[short]] = -1
        base += size
    return PayloadBlock(buf, starts, lengths)


def _with_edits(
    source: Source,
    offsets: np.ndarray,
    lengths: np.ndarray,
    readable: np.ndarray,
    edited: Mapping[int, bytes],
) -> PayloadBlock:
    """Payloads copied into memory, the edited ones replaced (an unreadable record is an
    empty payload: it has no features either way)."""
    read = source.reader()
    payloads = [
        edited[r] if r in edited else read(offset + HEADER_SIZE, length) if ok else b""
        for r, (offset, length, ok) in enumerate(
            zip(offsets.tolist(), lengths.tolist(), readable.tolist(), strict=True)
        )
    ]
    return PayloadBlock.of(payloads)


def payload_crcs(block: PayloadBlock, rows: np.ndarray) -> np.ndarray:
    """Whether the stored CRC of each of ``rows`` of a block read from a file (its buffer
    holds whole frames, so each payload's CRC follows it) matches its payload; False for
    an unreadable row."""
    starts = np.full(block.rows, -1, dtype=np.int64)
    starts[rows] = block.starts[rows]
    result: np.ndarray = kernels.payload_crcs(block.buf, starts, block.lengths)[rows]
    return result


BLOCK_BYTES = 32 << 20  # a block holds at most this many payload bytes (or one record)
# buffers of finished reusing passes, for the next one: a pass per split would otherwise
# have the system zero a fresh buffer, page by page, for every split
_SPARES: list[np.ndarray] = []
_SPARES_MOST = 2
_SPARES_LOCK = threading.Lock()


def lend_spare() -> list[np.ndarray]:
    with _SPARES_LOCK:
        return [_SPARES.pop()] if _SPARES else []


def return_spare(spare: list[np.ndarray]) -> None:
    with _SPARES_LOCK:
        if spare and len(_SPARES) < _SPARES_MOST and len(spare[0]) <= 2 * BLOCK_BYTES:
            _SPARES.append(spare[0])


def prefetch_frames(source: Source, offsets: np.ndarray, lengths: np.ndarray) -> None:
    """Ask ``source`` to fetch the frames of the next block: from its first frame, as
    far as :func:`read_block` reads in one go (no further: a block of scattered records
    is fetched up to that bound, as it is read)."""
    first = int(offsets.min())
    end = int((offsets + FRAME_OVERHEAD + lengths).max())
    source.prefetch(first, min(end, first + GROUP_BYTES) - first)


def block_spans(
    lengths: np.ndarray, size: int, most_bytes: int | None = None
) -> list[tuple[int, int]]:
    """Consecutive ``(lo, hi)`` ranges of at most ``size`` records and, past its first
    record, at most ``most_bytes`` (default :data:`BLOCK_BYTES`) of payload."""
    most_bytes = BLOCK_BYTES if most_bytes is None else most_bytes
    out = []
    ends = np.cumsum(lengths, dtype=np.int64)
    lo = 0
    while lo < len(lengths):
        before = int(ends[lo - 1]) if lo else 0
        fit = int(np.searchsorted(ends, before + most_bytes, side="right"))
        hi = min(lo + size, max(fit, lo + 1), len(lengths))
        out.append((lo, hi))
        lo = hi
    return out
