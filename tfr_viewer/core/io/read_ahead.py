"""Index the remote files of a dataset concurrently, while the scan yields in order.

A remote file costs round trips rather than disk bandwidth, so indexing the shards of a
bucket one after another would leave the connection idle most of the time. While the
dataset's scan streams its first pending file, :class:`ReadAhead` indexes the other
remote files (or loads their cached indexes) on up to ``TFR_VIEWER_REMOTE_WORKERS``
threads (default 32: a header scan spends its time waiting on round trips); the scan
takes each result in file order.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from . import index_cache
from .file_index import FileIndex
from .header_scan import header_scan, hops
from .index import IndexChunk, scan
from .records import CancelToken
from .remote import forget, unchanged
from .sources import Source


class DatasetFile(Protocol):
    """What is used of :class:`~.dataset.DatasetFile` (not imported: it imports this)."""

    path: str

    def open(self) -> Source: ...


def file_chunks(source: Source, verify: bool, cancel: CancelToken | None) -> Iterator[IndexChunk]:
    """The index scan of one source: header hops for a remote file when the payloads
    are not checked, else the streaming scan. A remote object is asked for its version
    again once read through: :class:`~.source_errors.FileChanged` when it changed."""
    if not verify and hops(source):
        chunks = header_scan(source, cancel=cancel)
    else:
        chunks = scan(source, verify=verify, cancel=cancel)
    return chunks if source.stat is None else _confirmed(source, chunks, cancel)


def _confirmed(
    source: Source, chunks: Iterator[IndexChunk], cancel: CancelToken | None
) -> Iterator[IndexChunk]:
    yield from chunks
    if source.stat is not None and (cancel is None or not cancel.cancelled):
        unchanged(source.path, source.stat)


@dataclass
class Indexed:
    """A complete index made off the scan's thread."""

    index: FileIndex
    stream_size: int | None
    cached: bool  # loaded from the persistent cache (so not to be stored again)


class _Either(CancelToken):
    """Cancelled when either of two tokens is."""

    def __init__(self, other: CancelToken | None) -> None:
        super().__init__()
        self._other = other

    @property
    def cancelled(self) -> bool:
        return self._event.is_set() or (self._other is not None and self._other.cancelled)


def _index(f: DatasetFile, verify: bool, cancel: CancelToken) -> Indexed | None:
    forget(f.path)  # the lookup and the reads share one fresh answer
    cached = index_cache.load(f.path, verify)
    source = f.open()  # here too when cached: opening a remote file costs round trips
    if cached is not None:
        return Indexed(cached[0], cached[1], True)
    index = FileIndex()
    for chunk in file_chunks(source, verify, cancel):
        index.add(chunk)
    if cancel.cancelled:
        return None
    index.finish(verified=verify)
    return Indexed(index, source.size, False)


def workers() -> int:
    try:
        return max(1, int(os.environ.get("TFR_VIEWER_REMOTE_WORKERS", 32)))
    except ValueError:
        return 32


class ReadAhead:
    """Index ``files[n]`` for each ``n`` of ``numbers`` in the background."""

    def __init__(
        self,
        files: list[DatasetFile],
        numbers: list[int],
        verify: bool,
        cancel: CancelToken | None,
    ) -> None:
        self._cancel = _Either(cancel)
        self._pool = ThreadPoolExecutor(
            max_workers=min(workers(), max(1, len(numbers))), thread_name_prefix="tfr-remote"
        )
        self._futures: dict[int, Future[Indexed | None]] = {
            n: self._pool.submit(_index, files[n], verify, self._cancel) for n in numbers
        }

    def __contains__(self, number: int) -> bool:
        return number in self._futures

    def take(self, number: int) -> Indexed | None:
        """The index of file ``number`` (waiting for it); None when cancelled. Raises
        what indexing it raised (a RemoteError names the file and what to do)."""
        return self._futures.pop(number).result()

    def close(self) -> None:
        """Stop what has not started, ask running scans to stop, and do not wait."""
        self._cancel.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
