"""Check payload CRCs of an already indexed file in place.

After a header-only scan every record is ``UNVERIFIED``; :func:`verify_index` settles
each one to ``OK`` or ``BAD_DATA_CRC`` block by block, so a window can show rows at once
and let their status fill in. The frames of a block are read into one buffer, reused
for the next block, and checked there (by the compiled core where it is built), so
memory holds one block per file being read. :func:`verify_files` reads several files
at once.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .file_index import FileIndex
from .payload_block import block_spans, payload_crcs, read_block
from .records import CancelToken, RecordStatus
from .sources import Source


def verify_index(
    source: Source,
    index: FileIndex,
    *,
    cancel: CancelToken | None = None,
    block: int = 1 << 14,
) -> Iterator[tuple[int, int]]:
    """Settle every UNVERIFIED record; yield ``(records_done, bad_found)`` per block
    (at most ``block`` records and about :data:`~.payload_block.BLOCK_BYTES`). Returns
    early, leaving the rest UNVERIFIED, when ``cancel`` is set. A record whose frame
    the file no longer holds in full is ``BAD_DATA_CRC``."""
    spare: list[np.ndarray] = []
    bad_total = 0
    for lo, hi in block_spans(index.lengths(), block):
        if cancel is not None and cancel.cancelled:
            return
        statuses = index.statuses(lo, hi)
        todo = np.flatnonzero(statuses == RecordStatus.UNVERIFIED)
        if len(todo):
            offsets = index.offsets(lo, hi)[todo]
            lengths = index.lengths(lo, hi)[todo]
            frames = read_block(source, offsets, lengths, statuses[todo], None, spare)
            ok = payload_crcs(frames, np.arange(len(todo)))
            settled = np.where(ok, RecordStatus.OK, RecordStatus.BAD_DATA_CRC)
            index.set_statuses_at(todo + lo, settled.astype(np.uint8))
            bad_total += int((~ok).sum())
        yield hi, bad_total
    index.verified = True


_FINISHED = -1  # ``done`` of the message that says a file is verified


def verify_files(
    files: Sequence[tuple[int, Source, FileIndex]],
    at_once: int,
    cancel: CancelToken | None = None,
) -> Iterator[tuple[int, int, int]]:
    """:func:`verify_index` of each ``(number, source, index)``, ``at_once`` files at a
    time on threads (a disk answers a few sequential readers about as fast as one, and
    the CRC of one file is computed while the others wait on it). Yields ``(number,
    records_done, bad_found)`` as blocks are settled, in the order they are, and
    ``(number, -1, bad_found)`` when a file is done. A file's error is raised here;
    the files not started by then are not. Stopping the iteration stops the threads
    after their current block. Cancelled, a file's last block is followed by no
    message that it is done."""
    messages: queue.Queue = queue.Queue()
    stop = threading.Event()

    def work(number: int, source: Source, index: FileIndex) -> None:
        try:
            bad = 0
            for done, bad in verify_index(source, index, cancel=cancel):
                messages.put((number, done, bad))
                if stop.is_set():
                    return
            if cancel is None or not cancel.cancelled:
                messages.put((number, _FINISHED, bad))
        except BaseException as exc:  # raised in the caller's thread
            messages.put(exc)
        finally:
            messages.put(None)

    with ThreadPoolExecutor(max(1, min(at_once, len(files))), "tfr-verify") as pool:
        futures = [pool.submit(work, *f) for f in files]
        try:
            for _ in futures:  # each file's work ends with None
                while (message := messages.get()) is not None:
                    if isinstance(message, BaseException):
                        raise message
                    yield message
        finally:
            stop.set()
            for future in futures:
                future.cancel()
