"""The header-only scan of a file: one small read (a range request for a remote file)
per frame header.

Without payload CRCs to check, a scan needs only the 12 header bytes of each frame, so
for files of large records (images) it reads a tiny part of the file; a local file is
read without read-ahead meanwhile (which would read everything). It hops from
header to header while frames are at least ``HOP_MIN`` bytes; a smaller frame means the
headers are too close together for one request each to pay, and the rest of the file is
scanned by streaming it in windows (:func:`~.index.scan`), which also takes over at the
first damaged header, since resynchronising needs the bytes around it. The first
``FIRST_ROWS`` records are yielded one by one, then chunks at least every
``FLUSH_SECONDS``, so that rows show while the scan goes on.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from .framing import FRAME_OVERHEAD, HEADER_SIZE, decode_header
from .index import CHUNK_RECORDS, IndexChunk, scan
from .records import CancelToken, RecordStatus
from .sources import Source

HOP_MIN = 64 << 10
HOP_BATCH = 512  # headers read by one call of compiled code
FLUSH_SECONDS = 0.2
FIRST_ROWS = 16  # records yielded one by one, so that the first rows show at once


def hops(source: Source) -> bool:
    """Whether ``source`` reads exact ranges cheaply enough for a header-only scan."""
    return callable(getattr(source, "fetch", None)) and source.size is not None


def hops_far(source: Source) -> bool:
    """Whether a header-only scan of ``source`` would hop: it :func:`hops`, and its
    first frame is at least ``HOP_MIN`` bytes (one small read of its first header)."""
    if not hops(source) or not source.size:
        return False
    head = source.fetch(0, HEADER_SIZE)  # type: ignore[attr-defined]
    if len(head) < HEADER_SIZE:
        return False  # shorter than a header: the streaming scan says what it is
    length, ok = decode_header(head)
    return ok and FRAME_OVERHEAD + length >= HOP_MIN


def header_scan(
    source: Source,
    *,
    cancel: CancelToken | None = None,
    chunk_records: int = CHUNK_RECORDS,
    start: int = 0,
    first_record: int = 0,
) -> Iterator[IndexChunk]:
    """Yield the index of ``source`` (a :func:`hops` source) with every record
    ``UNVERIFIED``, as :func:`~.index.scan` with ``verify=False`` would; from byte
    ``start``, where record ``first_record`` begins, when given."""
    size = source.size
    assert size is not None
    source.advise_random(True)
    try:
        yield from _hop(source, size, cancel, chunk_records, start, first_record)
    finally:
        source.advise_random(False)


def _hop(
    source: Source,
    size: int,
    cancel: CancelToken | None,
    chunk_records: int,
    start: int,
    first_record: int,
) -> Iterator[IndexChunk]:
    pos, record, chunk_start = start, first_record, first_record
    offsets: list[int] = []
    lengths: list[int] = []
    flushed = time.monotonic()

    def flush() -> IndexChunk:
        nonlocal chunk_start, flushed, offsets, lengths
        n = len(offsets)
        chunk = IndexChunk(
            chunk_start,
            np.array(offsets, dtype=np.uint64),
            np.array(lengths, dtype=np.uint64),
            np.full(n, RecordStatus.UNVERIFIED, dtype=np.uint8),
            position=pos,
        )
        chunk_start += n
        offsets, lengths = [], []
        flushed = time.monotonic()
        return chunk

    def due() -> bool:  # rows one by one at first, then chunks by size or by time
        return (
            record <= FIRST_ROWS
            or len(offsets) >= chunk_records
            or time.monotonic() - flushed >= FLUSH_SECONDS
        )

    while pos < size:
        if cancel is not None and cancel.cancelled:
            return
        hopped = source.hop_headers(pos, 1 if record < FIRST_ROWS else HOP_BATCH, HOP_MIN)
        if hopped is not None and len(hopped[0]):
            offsets.extend(hopped[0].tolist())
            lengths.extend(hopped[1].tolist())
            record += len(hopped[0])
            pos = hopped[2]
            if due():
                yield flush()
            continue
        # one header here: where a compiled hop stopped, or for sources without one
        header = source.fetch(pos, HEADER_SIZE)  # type: ignore[attr-defined]
        if len(header) < HEADER_SIZE:
            break  # a cut header: the window scan reports it
        length, ok = decode_header(header)
        frame = FRAME_OVERHEAD + length
        if not ok or frame < HOP_MIN or pos + frame > size:
            break  # damage, small frames or a cut frame: stream the rest
        offsets.append(pos)
        lengths.append(length)
        record += 1
        pos += frame
        if due():
            yield flush()
    if offsets or pos >= size:
        yield flush()
    if pos < size:
        source.advise_random(False)
        yield from scan(
            source,
            verify=False,
            cancel=cancel,
            chunk_records=chunk_records,
            start=pos,
            first_record=record,
        )
