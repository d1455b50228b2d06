"""Check payload CRCs of an already indexed file in place.

After a header-only scan every record is ``UNVERIFIED``; :func:`verify_index` settles
each one to ``OK`` or ``BAD_DATA_CRC`` block by block, so a window can show rows at once
and let their status fill in. The frames of a block are read into one buffer, reused
for the next block, and checked there (by the compiled core where it is built), so
memory holds one block per thread. :func:`verify_files` reads several files at once,
and cuts a large file into parts read side by side when there are fewer files than
threads.
"""

from __future__ import annotations

import math
import os
import queue
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .file_index import FileIndex
from .payload_block import block_spans, payload_crcs, prefetch_frames, read_block
from .records import CancelToken, RecordStatus
from .sources import Source

PART_BYTES = 64 << 20  # a file is cut into parts of at least this much payload
VERIFY_BLOCK_BYTES = 4 << 20  # payload read at a time by one thread: checked while in cache


def verify_index(
    source: Source,
    index: FileIndex,
    *,
    lo: int = 0,
    hi: int | None = None,
    cancel: CancelToken | None = None,
    block: int = 1 << 14,
) -> Iterator[tuple[int, int]]:
    """Settle every UNVERIFIED record of ``lo .. hi`` (default: all); yield each block's
    ``(first, end)`` once settled (at most ``block`` records and about
    :data:`VERIFY_BLOCK_BYTES`). Returns early, leaving the rest UNVERIFIED, when
    ``cancel`` is set. A record whose frame the file no longer holds in full is
    ``BAD_DATA_CRC``. The caller marks the index verified when every part is done."""
    hi = len(index) if hi is None else hi
    spare: list[np.ndarray] = []
    spans = [
        (a + lo, b + lo) for a, b in block_spans(index.lengths(lo, hi), block, VERIFY_BLOCK_BYTES)
    ]

    def facts(span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Offsets, lengths and statuses of a block (each read once: a block's are read
        one block early, to fetch it; only this part's thread settles them)."""
        return index.offsets(*span), index.lengths(*span), index.statuses(*span)

    if not spans:
        return
    ahead = facts(spans[0])
    for k, (first, end) in enumerate(spans):
        if cancel is not None and cancel.cancelled:
            return
        offsets, lengths, statuses = ahead
        if k + 1 < len(spans):  # the next block is fetched while this one is checked
            ahead = facts(spans[k + 1])
            if (ahead[2] == RecordStatus.UNVERIFIED).any():
                prefetch_frames(source, ahead[0], ahead[1])
        todo = np.flatnonzero(statuses == RecordStatus.UNVERIFIED)
        every = len(todo) == end - first  # as after a header pass: no fancy indexing
        if len(todo):
            if not every:
                offsets, lengths, statuses = offsets[todo], lengths[todo], statuses[todo]
            frames = read_block(source, offsets, lengths, statuses, None, spare)
            ok = payload_crcs(frames, np.arange(len(todo)))
            settled = np.where(ok, RecordStatus.OK, RecordStatus.BAD_DATA_CRC).astype(np.uint8)
            if every:
                index.set_statuses(first, settled)
            else:
                index.set_statuses_at(todo + first, settled)
        yield first, end


FINISHED = -1  # ``first`` and ``end`` of the message that says a file is verified


def parts(
    files: Sequence[tuple[int, Source, FileIndex]], at_once: int
) -> list[tuple[int, int, int]]:
    """The work of :func:`verify_files` as ``(file position, lo, hi)`` record ranges, in
    file order: a whole file each, unless there are fewer files than ``at_once``; then a
    file that reads concurrently is cut into up to ``ceil(threads / files)`` parts of
    at least :data:`PART_BYTES`, ``threads`` being ``at_once`` or the number of cores
    if fewer (the parts of a file read from the page cache are bound by the cores), so
    that every thread has a share."""
    out: list[tuple[int, int, int]] = []
    share = math.ceil(min(at_once, os.cpu_count() or 1) / max(1, len(files)))
    for k, (_number, source, index) in enumerate(files):
        n = len(index)
        cuts = 1
        if share > 1 and source.concurrent_reads and n > 1:
            ends = np.cumsum(index.lengths(), dtype=np.int64)
            cuts = max(1, min(share, int(ends[-1]) // PART_BYTES, n))
            bounds = [0, *np.searchsorted(ends, ends[-1] * np.arange(1, cuts) / cuts), n]
        else:
            bounds = [0, n]
        out.extend((k, int(a), int(b)) for a, b in zip(bounds, bounds[1:], strict=False))
    return [p for p in out if p[1] < p[2] or len(files[p[0]][2]) == 0]


@dataclass(frozen=True)
class _PartDone:
    """A part of file position ``file`` (in ``files``) is settled."""

    file: int


def verify_files(
    files: Sequence[tuple[int, Source, FileIndex]],
    at_once: int,
    cancel: CancelToken | None = None,
) -> Iterator[tuple[int, int, int]]:
    """:func:`verify_index` of each ``(number, source, index)``, ``at_once`` parts at a
    time on threads (:func:`parts`: a disk answers a few sequential readers about as
    fast as one, and the CRC of one part is computed while the others wait on it).
    Yields ``(number, first, end)`` as blocks are settled, in the order they are, and
    ``(number, FINISHED, FINISHED)`` once all of a file is, when the index is marked
    verified. A file's error is raised here; the parts not started by then are not.
    Stopping the iteration stops the threads after their current block. Cancelled, no
    file is said to be done that is not."""
    messages: queue.Queue[Any] = queue.Queue()
    stop = threading.Event()
    work_list = parts(files, at_once)
    left = [0] * len(files)
    for k, _lo, _hi in work_list:
        left[k] += 1

    def work(k: int, lo: int, hi: int) -> None:
        number, source, index = files[k]
        try:
            for first, end in verify_index(source, index, lo=lo, hi=hi, cancel=cancel):
                messages.put((number, first, end))
                if stop.is_set():
                    return
            if cancel is None or not cancel.cancelled:
                messages.put(_PartDone(k))
        except BaseException as exc:  # raised in the caller's thread
            messages.put(exc)
        finally:
            messages.put(None)

    from concurrent.futures import ThreadPoolExecutor  # loaded only for a pass in parts

    with ThreadPoolExecutor(max(1, min(at_once, len(work_list))), "tfr-verify") as pool:
        futures = [pool.submit(work, *p) for p in work_list]
        try:
            for _ in futures:  # each part's work ends with None
                while (message := messages.get()) is not None:
                    if isinstance(message, BaseException):
                        raise message
                    if isinstance(message, _PartDone):
                        k = message.file
                        left[k] -= 1
                        if not left[k]:
                            files[k][2].verified = True
                            yield files[k][0], FINISHED, FINISHED
                        continue
                    yield message
        finally:
            stop.set()
            for future in futures:
                future.cancel()
