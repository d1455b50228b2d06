"""The header-only scan of a remote file: one small range request per frame header.

Without payload CRCs to check, a scan needs only the 12 header bytes of each frame, so
for files of large records (images) it transfers a tiny part of the file. It hops from
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
FLUSH_SECONDS = 0.2
FIRST_ROWS = 16  # records yielded one by one, so that the first rows show at once


def hops(source: Source) -> bool:
    """Whether ``source`` reads exact ranges cheaply enough for a header-only scan."""
    return callable(getattr(source, "fetch", None)) and source.size is not None


def header_scan(
    source: Source,
    *,
    cancel: CancelToken | None = None,
    chunk_records: int = CHUNK_RECORDS,
) -> Iterator[IndexChunk]:
    """Yield the index of ``source`` (a :func:`hops` source) with every record
    ``UNVERIFIED``, as :func:`~.index.scan` with ``verify=False`` would."""
    size = source.size
    assert size is not None
    pos = record = chunk_start = 0
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

    while pos < size:
        if cancel is not None and cancel.cancelled:
            return
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
        if (
            record <= FIRST_ROWS
            or len(offsets) >= chunk_records
            or time.monotonic() - flushed >= FLUSH_SECONDS
        ):
            yield flush()
    if offsets or pos >= size:
        yield flush()
    if pos < size:
        yield from scan(
            source,
            verify=False,
            cancel=cancel,
            chunk_records=chunk_records,
            start=pos,
            first_record=record,
        )
