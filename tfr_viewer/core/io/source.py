"""The interface every source of records offers: random access to the uncompressed
bytes of one file (:class:`Source`). The plain, compressed and remote sources implement
it (:mod:`.plain_source`, :mod:`.sources`, :mod:`.remote_source`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .framing import Compression
from .source_errors import SourceError

if TYPE_CHECKING:
    from .remote import RemoteStat


class Source(ABC):
    """Random access to the uncompressed bytes of one file. Thread-safe reads.

    ``size`` is the uncompressed size when known (always for plain files; for compressed
    files once a scan has reached the end). ``compressed_size`` is the size on disk.
    """

    path: str
    compression: Compression
    compressed_size: int
    size: int | None
    stat: RemoteStat | None = None  # a remote object: its size and version when opened
    # reads of the next bytes cost nothing extra while others run (a plain local file):
    # a scan then reads ahead on a thread while it checks what it has
    concurrent_reads: bool = False
    # bytes a scan reads at a time: many for a remote object (a request each), few where
    # a read costs no round trip (they stay in the processor's cache while checked)
    window_bytes: int = 32 << 20

    @abstractmethod
    def read_at(self, offset: int, n: int) -> bytes:
        """Up to ``n`` bytes from uncompressed ``offset``; fewer only at end of stream."""

    def array(self) -> np.ndarray | None:
        """A zero-copy uint8 view of the whole stream, or None if not available."""
        return None

    def readinto_at(self, offset: int, buf: Any) -> int:
        """Fill writable ``buf`` from uncompressed ``offset``; return the bytes read."""
        data = self.read_at(offset, len(buf))
        buf[: len(data)] = data
        return len(data)

    def reader(self) -> Callable[[int, int], bytes]:
        """``read(offset, n)`` for tight loops: checks skipped, so use while open."""
        return self.read_at

    def advise_random(self, random: bool) -> None:  # noqa: B027 - optional hook
        """Hint that reads will hop (``random``: no read-ahead) or stream (the default)."""

    def prefetch(self, offset: int, n: int) -> None:  # noqa: B027 - optional hook
        """Hint that bytes ``[offset, offset + n)`` are read next, so that a pass can
        start fetching the next block while it works on the one it has (a plain local
        file asks the system to read them into its cache); a hint only, never an error."""

    def hop_headers(
        self, pos: int, limit: int, min_frame: int
    ) -> tuple[np.ndarray, np.ndarray, int] | None:
        """Frame headers read one after another from ``pos`` by compiled code, the
        payloads skipped: ``(offsets, lengths, stop)`` of up to ``limit`` frames whose
        header CRC verifies, of at least ``min_frame`` bytes, that fit in the file;
        ``stop`` is the header not taken. None where this source has no such reader
        (the caller reads the headers itself)."""
        return None

    def end_problem(self) -> str | None:
        """Called when a scan has read to the end: what is wrong with the stream itself
        (a compressed stream cut short, a bad checksum, bytes after its end), if anything."""
        return None

    @abstractmethod
    def close(self) -> None:
        """Release the file. Idempotent."""

    @property
    @abstractmethod
    def closed(self) -> bool:
        """True once closed."""

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self.closed:
            raise SourceError(f"{self.path}: the file was closed")
