"""Open a TFRecord file as random-access bytes of its uncompressed stream.

Compression is detected from the content, never from the name. Plain files are read
with ``pread`` (:mod:`.plain_source`); GZIP and ZLIB files are read through rapidgzip,
which keeps seek points as it decodes, so any offset can be read again quickly after one
pass. Every rapidgzip reader is owned by a :class:`CompressedSource` and closed
deterministically (``close``, the context manager, or at interpreter exit at the
latest), because rapidgzip aborts the interpreter when a reader is still open at shutdown.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Callable
from typing import Any

from .compressed_readers import (
    ForwardReader,
    Handover,
    InflatedReader,
    Reader,
    SeekableReader,
)
from .framing import Compression
from .inflate import Inflated, Input, check_stream, inflate, open_input
from .plain_source import PlainSource
from .sequential import SequentialStream, prefers_sequential
from .sniff import detect_compression, looks_like_tfrecord, sniff
from .source import Source
from .source_errors import FileChanged, RemoteError, SourceError

__all__ = [
    "FileChanged",
    "PlainSource",
    "RemoteError",
    "Source",
    "SourceError",
    "detect_compression",
    "looks_like_tfrecord",
    "sniff",
]  # defined apart, so that remote.py can raise them

# rapidgzip's decode unit and seek-point spacing: 2 MiB measured best here for both a
# full scan and random reads (4 MiB scans slightly faster but doubles read latency).
CHUNK_SIZE = 2 << 20


_LIVE: set[CompressedSource] = set()
_LIVE_LOCK = threading.Lock()


@atexit.register
def _close_all() -> None:
    with _LIVE_LOCK:
        live = list(_LIVE)
    for source in live:
        source.close()


class CompressedSource(Source):
    """A GZIP or ZLIB file read through one owned rapidgzip reader.

    Reads go to one of three readers (:mod:`.compressed_readers`), one at a time: while
    reads only move forward from the start, a forward-only stream serves them; the
    first read that goes back moves to rapidgzip's random access for good; damage moves
    to a sequential decode that keeps every byte before it. ``seek_points`` starts with
    random access, for callers that export its seek points.
    """

    window_bytes = 4 << 20

    def __init__(
        self,
        path: str,
        compression: Compression,
        threads: int | None = None,
        seek_points: bool = False,
        remote: tuple[Callable[[], Any], int] | None = None,
    ) -> None:
        """``remote``: ``(open a new file object, compressed size)`` for a file that is
        not on a local disk; ``path`` then only names it."""
        import rapidgzip  # heavy: imported only when a compressed file is opened

        self.path = path
        self.compression = compression
        self._input: Input = path if remote is None else remote[0]
        self._opened: list[Any] = []  # remote file objects, whose network errors count
        self.compressed_size = os.path.getsize(path) if remote is None else remote[1]
        self.size = None
        self._lock = threading.Lock()
        try:
            self._rapidgzip: Any = rapidgzip.RapidgzipFile(
                self._open_input(),
                parallelization=threads or os.cpu_count() or 1,
                chunk_size=CHUNK_SIZE,
            )
        except Exception as exc:  # rapidgzip raises several types for bad input
            self._raise_network_error()
            raise SourceError(
                f"{path}: cannot open the {compression.value} stream ({exc}); "
                "the file may be damaged or not compressed"
            ) from exc
        with _LIVE_LOCK:
            _LIVE.add(self)
        self._checked: bool | str = False  # or what the end-of-stream check found
        self._reader: Reader = (
            SeekableReader(self._rapidgzip)
            if seek_points
            else ForwardReader(self._forward_stream, compression)
        )

    def _forward_stream(self) -> SequentialStream:
        isal = prefers_sequential(self._remote_input(), self.compression)
        return SequentialStream(self._remote_input(), self.compression, parallel=not isal)

    def _open_input(self) -> Any:
        """What rapidgzip reads: the path, or a new remote file object."""
        if isinstance(self._input, str):
            return self._input
        f = self._input()
        self._opened.append(f)
        return f

    def _remote_input(self) -> Input:
        """:attr:`_input` for the decoders of :mod:`.sequential` and :mod:`.inflate`,
        with remote file objects remembered so that their failures are seen."""
        return self._input if isinstance(self._input, str) else self._open_input

    def _raise_network_error(self) -> None:
        """A decoder turned a network failure into its own error: raise the real one."""
        for f in self._opened:
            if getattr(f, "error", None) is not None:
                raise f.error

    def _hand_over(self, to: Handover) -> None:
        """The one switch between readers (under the lock)."""
        self._note_checked()
        self._reader.close()
        if to is Handover.SEEKABLE:
            self._reader = SeekableReader(self._rapidgzip)
            return
        self._raise_network_error()
        inflated = inflate(self._remote_input(), self.compression)
        self._reader = InflatedReader(inflated)
        self._raise_network_error()

    def _note_checked(self) -> None:
        """The forward stream decoded to the end and checked it: the end needs no check."""
        reader = self._reader
        if isinstance(reader, ForwardReader) and reader.checked and self._checked is False:
            self._checked = True

    @property
    def _inflated(self) -> Inflated | None:
        reader = self._reader
        return reader.inflated if isinstance(reader, InflatedReader) else None

    def read_at(self, offset: int, n: int) -> bytes:
        """:meth:`readinto_at` into a new buffer."""
        self._check_open()
        if n <= 0:
            return b""
        buf = bytearray(n)
        got = self.readinto_at(offset, buf)
        return bytes(buf) if got == n else bytes(buf[:got])

    def readinto_at(self, offset: int, buf: Any) -> int:
        self._check_open()
        view = memoryview(buf)
        with self._lock:
            got = self._read(offset, view)
            if got < len(view) and self._inflated is None and not self._sound_end(offset + got):
                # rapidgzip ends a stream cut short quietly, dropping the bytes of its
                # last chunk: the forgiving decoder keeps every byte before the cut
                self._hand_over(Handover.INFLATED)
                got = self._read(offset, view)
        if got < len(view):
            self.size = offset + got
        return got

    def _read(self, offset: int, view: memoryview) -> int:
        """Read through the reader that serves ``offset`` (under the lock)."""
        got = self._reader.readinto_at(offset, view)
        while isinstance(got, Handover):
            self._hand_over(got)
            got = self._reader.readinto_at(offset, view)
        return got

    def end_problem(self) -> str | None:
        """A stream rapidgzip refused, or one whose end does not check out: ZLIB streams
        are always checked to their trailer, GZIP ones when the length in the trailer
        does not match what was decoded (cut short, trailing bytes, several members)."""
        with self._lock:
            self._note_checked()
            if self._inflated is not None:
                problem = self._inflated.problem
            elif self._checked is False:
                problem = None
                if self.compression is Compression.ZLIB or not self._gzip_size_matches():
                    problem = check_stream(self._remote_input(), self.compression)
                self._checked = problem or True
            else:
                problem = self._checked if isinstance(self._checked, str) else None
        return f"{self.path}: {problem}" if problem else None

    def _gzip_size_matches(self) -> bool:
        return self.size is not None and self._gzip_trailer_says(self.size)

    def _gzip_trailer_says(self, size: int) -> bool:
        """Whether the last GZIP member's trailer gives ``size`` (modulo 2**32)."""
        if self.compressed_size < 18:
            return False
        with open_input(self._remote_input()) as f:
            f.seek(-4, os.SEEK_END)
            return int.from_bytes(f.read(4), "little") == size & 0xFFFFFFFF

    def _sound_end(self, size: int) -> bool:
        """Whether a reader that stopped after ``size`` decoded bytes may have reached
        the stream's true end: a GZIP trailer that agrees, or a ZLIB stream that checks
        out to its end (ISA-L checks it as it reads; a check made here is kept for
        :meth:`end_problem`, which would make it anyway)."""
        if self.compression is Compression.GZIP:
            return self._gzip_trailer_says(size)
        self._note_checked()
        if self._checked is False:
            self._checked = check_stream(self._remote_input(), self.compression) or True
        return self._checked is True

    def export_seek_points(self, path: str) -> bool:
        """Save rapidgzip's seek points (built while reading) to ``path``; False when
        there are none (rapidgzip refused the stream: readers decode it sequentially)."""
        self._check_open()
        with self._lock:
            if self._inflated is not None:
                return False
            self._rapidgzip.export_index(path)
            return True

    def export_inflated(self, path: str) -> tuple[int, str | None] | None:
        """When the stream was decoded sequentially (rapidgzip refused it), copy the
        decoded bytes to ``path`` and return ``(size, problem)`` for
        :meth:`import_inflated`, so that another process need not decode it again."""
        self._check_open()
        with self._lock:
            inflated = self._inflated
            kept = None if inflated is None else inflated.kept
            if inflated is None or kept is None:
                return None
            with open(path, "wb") as out:
                kept.seek(0)
                import shutil

                shutil.copyfileobj(kept, out, 1 << 22)
            return inflated.size, inflated.problem

    def import_inflated(self, path: str, size: int, problem: str | None) -> None:
        """Read from bytes decoded by another process (see :meth:`export_inflated`)."""
        self._check_open()
        with self._lock:
            self._reader.close()
            self._reader = InflatedReader(Inflated(open(path, "rb"), size, problem))  # noqa: SIM115

    def import_seek_points(self, path: str) -> None:
        """Load seek points saved by :meth:`export_seek_points` for the same file."""
        self._check_open()
        with self._lock:
            self._rapidgzip.import_index(path)

    @property
    def closed(self) -> bool:
        return self._rapidgzip is None

    def close(self) -> None:
        with self._lock:
            self._reader.close()
            rapidgzip, self._rapidgzip = self._rapidgzip, None
        if rapidgzip is not None:
            rapidgzip.close()
        for f in self._opened:
            f.close()
        with _LIVE_LOCK:
            _LIVE.discard(self)


def open_source(path: str | os.PathLike[str], seek_points: bool = False) -> Source:
    """Open the local file ``path`` (for URLs too: :func:`~.dataset.open_path`) for
    random access to its uncompressed bytes (``seek_points``: a
    compressed file is read through rapidgzip from the start, see
    :class:`CompressedSource`).

    Raises :class:`SourceError` with the path and the reason when it cannot be read.
    """
    path = os.fspath(path)
    from .paths import not_a_regular_file

    odd = not_a_regular_file(path)
    if odd is not None:
        raise SourceError(f"{path}: {odd}")
    try:
        compression = sniff(path)
        if compression is Compression.NONE:
            return PlainSource(path)
        return CompressedSource(path, compression, seek_points=seek_points)
    except SourceError:
        raise
    except IsADirectoryError as exc:
        raise SourceError(f"{path}: is a folder, not a TFRecord file") from exc
    except OSError as exc:
        raise SourceError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
