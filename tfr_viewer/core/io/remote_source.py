"""Remote TFRecord files as :class:`~.sources.Source` objects.

An uncompressed remote file is read by range requests: small reads through an LRU block
cache (``BLOCK`` bytes a block, at most ``MAX_BLOCKS`` held, so memory and repeated
transfers stay bounded), reads of ``DIRECT`` bytes or more as one request each, and
frame headers one by one for the header-only scan (:mod:`.header_scan`). A GZIP or ZLIB
file must be decoded from its start: rapidgzip reads it through a read-ahead file object
and keeps seek points as it goes, so after the first pass any record is read again with
a few requests.
"""

from __future__ import annotations

import threading

from .framing import Compression
from .remote import Fetcher, RemoteFile, RemoteStat, Transfer, stat
from .sources import CompressedSource, Source, detect_compression

BLOCK = 1 << 20
MAX_BLOCKS = 64
DIRECT = 64 << 10  # reads from this size on are one request each, not cached
_SNIFF_BYTES = 64


class RemoteSource(Source):
    """An uncompressed file behind a URL. Thread-safe reads."""

    remote = True
    size: int  # always known: the object's size

    def __init__(self, url: str, info: RemoteStat, fetcher: Fetcher, head: bytes = b"") -> None:
        """``head``: the file's first bytes, already read (to judge its compression)."""
        from fsspec.caching import BlockCache

        self.path = url
        self.compression = Compression.NONE
        self.compressed_size = self.size = info.size
        self.stat = info
        self.transfer: Transfer = fetcher.transfer
        self._fetcher = fetcher
        self._cache = BlockCache(BLOCK, fetcher, info.size, maxblocks=MAX_BLOCKS)
        self._lock = threading.Lock()
        self._closed = False
        self._head = head

    def read_at(self, offset: int, n: int) -> bytes:
        self._check_open()
        end = min(offset + max(n, 0), self.size)
        if offset >= end:
            return b""
        if end - offset >= DIRECT:
            return self._fetcher(offset, end)  # a long read: one request, not cached
        with self._lock:
            result: bytes = self._cache._fetch(offset, end)
            return result

    def fetch(self, offset: int, n: int) -> bytes:
        """Exactly bytes ``[offset, offset + n)`` (fewer at the end) in one request,
        bypassing the cache: for reads that will not be repeated, such as headers."""
        self._check_open()
        end = min(offset + n, self.size)
        if end <= len(self._head):
            return self._head[offset:end]
        return self._fetcher(offset, end)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._closed = True
        self._cache = None


class RemoteCompressedSource(CompressedSource):
    """A GZIP or ZLIB file behind a URL, decoded by rapidgzip from range requests."""

    remote = True

    def __init__(self, url: str, compression: Compression, info: RemoteStat, fetch: Fetcher):
        super().__init__(
            url,
            compression,
            seek_points=True,
            remote=(lambda: RemoteFile(fetch), info.size),
        )
        self.stat = info
        self.transfer: Transfer = fetch.transfer


def open_remote(url: str) -> Source:
    """Open ``url`` for random access to its uncompressed bytes; compression is judged
    from its first bytes, as for local files. Raises RemoteError when it cannot be
    reached, with what to do."""
    info = stat(url)
    fetcher = Fetcher(url, info.size, info.etag)
    head = fetcher(0, _SNIFF_BYTES)
    compression = detect_compression(head)
    if compression is Compression.NONE:
        return RemoteSource(url, info, fetcher, head)
    return RemoteCompressedSource(url, compression, info, fetcher)
