"""Index the files of a dataset concurrently, while the scan yields in order.

A remote file costs round trips rather than disk bandwidth, and a header-only scan of a
local file of large records costs one small random read per record: scanning the shards
one after another would leave the connection, or the disk's queue, idle most of the
time. While the dataset's scan streams its first pending file, :class:`ReadAhead`
indexes the others (or loads their cached indexes) on up to ``TFR_VIEWER_REMOTE_WORKERS``
threads for remote files (default 32: a header scan spends its time waiting on round
trips) or ``TFR_VIEWER_LOCAL_WORKERS`` for local ones (default 64: many reads in flight
is what a disk needs to answer small random reads fast); the scan takes each result in
file order.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from . import index_cache
from .file_index import FileIndex
from .header_scan import header_scan, hops, hops_far
from .index import IndexChunk, scan
from .records import CancelToken
from .remote import forget, is_url, unchanged
from .sources import Source

if TYPE_CHECKING:  # the pool's module is loaded when there is more than one file
    from concurrent.futures import Future


class DatasetFile(Protocol):
    """What is used of :class:`~.dataset.DatasetFile` (not imported: it imports this)."""

    path: str

    def open(self) -> Source: ...


def file_chunks(
    source: Source, verify: bool, cancel: CancelToken | None, alone: bool = True
) -> Iterator[IndexChunk]:
    """The index scan of one source: header hops for a remote file when the payloads
    are not checked, else the streaming scan, which reads ahead on a thread when the
    file is scanned ``alone`` (with other files read at once, the disk has enough to
    do). A remote object is asked for its version again once read through:
    :class:`~.source_errors.FileChanged` when it changed."""
    if not verify and hops(source):
        chunks = header_scan(source, cancel=cancel)
    else:
        chunks = scan(source, verify=verify, cancel=cancel, read_ahead=alone)
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
    identity: dict[str, Any] | None = None  # a local file's identity when its scan began


class _Either(CancelToken):
    """Cancelled when either of two tokens is."""

    def __init__(self, other: CancelToken | None) -> None:
        super().__init__()
        self._other = other

    @property
    def cancelled(self) -> bool:
        return self._event.is_set() or (self._other is not None and self._other.cancelled)


def _index(f: DatasetFile, verify: bool, cancel: CancelToken) -> Indexed | None:
    remote = is_url(f.path)
    if remote:
        forget(f.path)  # the lookup and the reads share one fresh answer
    cached = index_cache.load(f.path, verify)
    # taken before the scan: an entry is kept only if nothing changed since
    identity = None if remote else index_cache.identity(f.path)
    source = f.open()  # here too when cached: opening a remote file costs round trips
    if cached is not None:
        return Indexed(cached[0], cached[1], True)
    index = FileIndex()
    for chunk in file_chunks(source, verify, cancel, alone=False):
        index.add(chunk)
    if cancel.cancelled:
        return None
    index.finish(verified=verify)
    return Indexed(index, source.size, False, identity)


def workers(remote: bool = True) -> int:
    name = "TFR_VIEWER_REMOTE_WORKERS" if remote else "TFR_VIEWER_LOCAL_WORKERS"
    default = 32 if remote else 64
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        return default


def streams() -> int:
    """Local files read through at once by a verifying scan (``TFR_VIEWER_LOCAL_STREAMS``,
    default 3): a disk answers a few sequential readers about as fast as one, and the CRC
    of one file is computed while the others wait on the disk."""
    try:
        return max(1, int(os.environ.get("TFR_VIEWER_LOCAL_STREAMS", 3)))
    except ValueError:
        return 3


def ahead_of_scan(files: Sequence[DatasetFile], todo: list[int], verify: bool) -> list[int]:
    """Which of the files to index (``todo``, in order) go to :class:`ReadAhead`: the
    remote ones after the first; for a verifying scan of local files, every one after
    the first (read :func:`streams` at a time); for a header-only scan of local files
    whose first file holds large records (a header scan hops over them), every one
    after the first. Other files of small records are streamed one after another, as
    reading them whole is cheaper than a read per record."""
    remote = [n for n in todo if is_url(files[n].path)]
    if remote:
        return remote[1:]
    if len(todo) < 2:
        return []
    if verify:
        return todo[1:] if streams() > 1 else []
    return todo[1:] if hops_far(files[todo[0]].open()) else []


class ReadAhead:
    """Index ``files[n]`` for each ``n`` of ``numbers`` in the background."""

    def __init__(
        self,
        files: Sequence[DatasetFile],
        numbers: list[int],
        verify: bool,
        cancel: CancelToken | None,
    ) -> None:
        self._cancel = _Either(cancel)
        remote = any(is_url(files[n].path) for n in numbers)
        # the scan's own thread streams one file: the pool the others
        most = workers(remote) if remote or not verify else streams() - 1
        from concurrent.futures import ThreadPoolExecutor

        self._pool = ThreadPoolExecutor(
            max_workers=max(1, min(most, len(numbers))), thread_name_prefix="tfr-ahead"
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
