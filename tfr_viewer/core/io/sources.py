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
import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

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


_STDERR_LOCK = threading.Lock()
_DEVNULL: list[int] = []


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """rapidgzip reports some failures on the process's stderr before raising; keep
    them off the user's terminal (the failure is reported as a problem instead)."""
    with _STDERR_LOCK:
        try:
            if not _DEVNULL:
                _DEVNULL.append(os.open(os.devnull, os.O_WRONLY))
            saved = os.dup(2)
        except OSError:
            yield  # no usable stderr: nothing to protect
            return
        os.dup2(_DEVNULL[0], 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


class CompressedSource(Source):
    """A GZIP or ZLIB file read through one owned rapidgzip reader.

    While reads only move forward from the start, a forward-only
    :class:`~.sequential.SequentialStream` serves them instead (ISA-L when the file
    compresses well, else rapidgzip with larger chunks); the first read that goes back,
    or any error, hands over to the random-access reader for good. ``seek_points``
    keeps that reader from the start, for callers that export its seek points.
    """

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
            self._reader: Any = rapidgzip.RapidgzipFile(
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
        # When rapidgzip refuses the stream, a sequential decoder keeps what it can
        # (see inflate.py) and every later read is served from it.
        self._inflated: Inflated | None = None
        self._checked: bool | str = False  # or what the end-of-stream check found
        self._stream: SequentialStream | None = None
        self._sequential = not seek_points  # may still read with ISA-L

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

    def _fall_back(self) -> Inflated:
        """Decode the stream sequentially, keeping every byte before a failure."""
        self._raise_network_error()
        if self._inflated is None:
            self._inflated = inflate(self._remote_input(), self.compression)
            self._raise_network_error()
        return self._inflated

    def _read_sequential(self, offset: int, view: memoryview) -> int | None:
        """Serve a forward read from the ISA-L stream; None when rapidgzip must."""
        if not self._sequential or self._inflated is not None:
            return None
        stream = self._stream
        if stream is None:
            if offset != 0:
                self._sequential = False
                return None
            isal = prefers_sequential(self._remote_input(), self.compression)
            try:
                with _quiet_stderr():
                    stream = SequentialStream(
                        self._remote_input(), self.compression, parallel=not isal
                    )
            except Exception:  # noqa: BLE001 - rapidgzip's own reader decides
                self._sequential = False
                return None
            self._stream = stream
        if offset < stream.position:  # going back: rapidgzip's seek points serve it
            self._stop_sequential()
            return None
        try:
            with _quiet_stderr():
                done = stream.readinto_at(offset, view)
        except Exception:  # noqa: BLE001 - damage: keep every byte decoded before it
            self._stop_sequential()
            data = self._fall_back().read_at(offset, len(view))
            view[: len(data)] = data
            return len(data)
        if stream.finished:
            if self.compression is Compression.ZLIB and not stream.parallel:
                self._checked = True  # to its end: checksum and nothing after it
            # GZIP readers skip zero padding after the last member silently, so the
            # end of a GZIP stream is still checked as usual (see end_problem)
            self._stop_sequential()
        return done

    def _stop_sequential(self) -> None:
        self._sequential = False
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def read_at(self, offset: int, n: int) -> bytes:
        """:meth:`readinto_at` into a new buffer (one way of reading, with one fallback)."""
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
            sequential = self._read_sequential(offset, view)
            if sequential is not None:
                if sequential < len(view):
                    self.size = offset + sequential
                return sequential
            done = 0
            if self._inflated is None:
                try:
                    with _quiet_stderr():
                        self._reader.seek(offset)
                        while done < len(view):
                            n = self._reader.readinto(view[done:])
                            if not n:
                                break
                            done += n
                except Exception:
                    self._fall_back()
            if self._inflated is not None:
                data = self._inflated.read_at(offset, len(view))
                view[: len(data)] = data
                done = len(data)
        if done < len(buf):
            self.size = offset + done
        return done

    def end_problem(self) -> str | None:
        """A stream rapidgzip refused, or one whose end does not check out: ZLIB streams
        are always checked to their trailer, GZIP ones when the length in the trailer
        does not match what was decoded (cut short, trailing bytes, several members)."""
        with self._lock:
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
        if self.size is None or self.compressed_size < 18:
            return False
        with open_input(self._remote_input()) as f:
            f.seek(-4, os.SEEK_END)
            return int.from_bytes(f.read(4), "little") == self.size & 0xFFFFFFFF

    def export_seek_points(self, path: str) -> bool:
        """Save rapidgzip's seek points (built while reading) to ``path``; False when
        there are none (rapidgzip refused the stream: readers decode it sequentially)."""
        self._check_open()
        with self._lock:
            if self._inflated is not None:
                return False
            self._reader.export_index(path)
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
            self._inflated = Inflated(open(path, "rb"), size, problem)  # noqa: SIM115

    def import_seek_points(self, path: str) -> None:
        """Load seek points saved by :meth:`export_seek_points` for the same file."""
        self._check_open()
        with self._lock:
            self._reader.import_index(path)

    @property
    def closed(self) -> bool:
        return self._reader is None

    def close(self) -> None:
        with self._lock:
            self._stop_sequential()
            reader, self._reader = self._reader, None
            inflated, self._inflated = self._inflated, None
        if reader is not None:
            reader.close()
        if inflated is not None:
            inflated.close()
        for f in self._opened:
            f.close()
        with _LIVE_LOCK:
            _LIVE.discard(self)


def open_source(path: str | os.PathLike[str], seek_points: bool = False) -> Source:
    """Open the local file ``path`` (for URLs too: :func:`~.remote_source.open_path`) for
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
