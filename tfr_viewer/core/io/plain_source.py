"""An uncompressed local file as a :class:`~.source.Source`, read with ``pread``."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import kernels
from .framing import Compression
from .source import Source
from .source_errors import FileChanged, SourceError


class PlainSource(Source):
    """An uncompressed file, read with ``pread`` from one descriptor. Nothing is memory
    mapped, so a file that shrinks while it is read raises :class:`FileChanged` (a
    mapping would kill the process with SIGBUS), and memory holds only what is read."""

    concurrent_reads = True
    window_bytes = 4 << 20
    size: int  # always known: the file's size

    def __init__(self, path: str) -> None:
        self.path = path
        self.compression = Compression.NONE
        self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        self.compressed_size = self.size = os.fstat(self._fd).st_size
        self._closed = False
        if self.size == 0 and os.pread(self._fd, 1, 0):
            self.close()
            raise SourceError(
                f"{path}: not a TFRecord file: it says it holds 0 bytes, yet reading it gives "
                "data (a file the system makes up as it is read, like those under /proc)"
            )
        if hasattr(os, "posix_fadvise"):
            with contextlib.suppress(OSError):
                os.posix_fadvise(self._fd, 0, 0, os.POSIX_FADV_SEQUENTIAL)

    def _changed(self) -> FileChanged:
        try:
            now: int | None = os.fstat(self._fd).st_size
        except OSError:
            now = None
        return FileChanged.of(self.path, now)

    def read_at(self, offset: int, n: int) -> bytes:
        self._check_open()
        n = min(n, self.size - offset)
        if n <= 0 or offset < 0:
            return b""
        data = os.pread(self._fd, n, offset)
        if len(data) < n:
            data += self._read_rest(offset + len(data), n - len(data))
        return data

    def _read_rest(self, offset: int, n: int) -> bytes:
        parts = []
        while n > 0:
            got = os.pread(self._fd, n, offset)
            if not got:
                raise self._changed()
            parts.append(got)
            offset += len(got)
            n -= len(got)
        return b"".join(parts)

    def readinto_at(self, offset: int, buf: Any) -> int:
        self._check_open()
        view = memoryview(buf).cast("B")
        n = min(len(view), self.size - offset)
        done = 0
        while done < n:
            got = os.preadv(self._fd, [view[done:n]], offset + done)
            if got <= 0:
                raise self._changed()
            done += got
        return max(done, 0)

    def fetch(self, offset: int, n: int) -> bytes:
        """Exactly bytes ``[offset, offset + n)`` (fewer at the end): what the header-only
        scan reads, a frame header at a time."""
        return self.read_at(offset, n)

    def hop_headers(
        self, pos: int, limit: int, min_frame: int
    ) -> tuple[np.ndarray, np.ndarray, int] | None:
        if not kernels.compiled_in_use():
            return None
        self._check_open()
        hop = kernels.hop_frames(self._fd, self.size, pos, limit, min_frame)
        return None if hop is None else (hop.offsets, hop.lengths, hop.stop)

    def prefetch(self, offset: int, n: int) -> None:
        if self._closed or n <= 0 or not hasattr(os, "posix_fadvise"):
            return  # macOS has no such advice: its own read-ahead serves sequential passes
        if self._cached(offset + n - 1):
            return  # in memory already: asking would cost a walk over every page of it
        with contextlib.suppress(OSError):
            os.posix_fadvise(self._fd, offset, n, os.POSIX_FADV_WILLNEED)

    def _cached(self, offset: int) -> bool:
        """Whether the byte at ``offset`` is in the system's cache (a read that would
        wait for the disk returns at once, empty-handed); False where nobody can tell."""
        nowait = getattr(os, "RWF_NOWAIT", 0)
        if not nowait:
            return False
        try:
            return os.preadv(self._fd, [bytearray(1)], offset, nowait) == 1
        except OSError:  # BlockingIOError: on the disk; others: not supported here
            return False

    def advise_random(self, random: bool) -> None:
        # A header-only scan reads 12 bytes a frame: read-ahead would read everything.
        if self._closed:
            return
        if hasattr(os, "posix_fadvise"):
            advice = os.POSIX_FADV_RANDOM if random else os.POSIX_FADV_SEQUENTIAL
            with contextlib.suppress(OSError):
                os.posix_fadvise(self._fd, 0, 0, advice)
        elif sys.platform == "darwin":
            import fcntl

            with contextlib.suppress(OSError):
                fcntl.fcntl(self._fd, getattr(fcntl, "F_RDAHEAD", 45), 0 if random else 1)

    def reader(self) -> Callable[[int, int], bytes]:
        return self.read_at

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        os.close(self._fd)
