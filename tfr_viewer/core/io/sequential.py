"""Forward-only decoding of whole GZIP and ZLIB files with ISA-L, for passes that read a
stream once from its start (the index scan, verify, count, a filter's payload reads).

ISA-L (the ``isal`` package) inflates about twice as fast as zlib on one core, and a
GZIP file is decoded on a thread of its own while the caller scans the bytes. rapidgzip
decodes on every core, which wins when the data hardly compresses (JPEG, raw pixels) and
loses when it compresses well (small Examples); :func:`prefers_sequential` tells the two
apart from the first compressed mebibyte. A forward pass through rapidgzip uses larger
chunks than its random reads do (fewer hand-overs between its threads).

A :class:`SequentialStream` checks what ISA-L checks (each GZIP member's CRC-32 and
length, ZLIB's Adler-32, nothing after the end) and raises on anything else: the caller
then decodes the stream its forgiving way (rapidgzip, then :mod:`.inflate`), which keeps
every byte before a failure and says where it is.
"""

from __future__ import annotations

import io
from typing import Any

from .framing import Compression
from .inflate import Input, open_input

SAMPLE = 1 << 20  # compressed bytes looked at to judge how well a file compresses
MIN_RATIO = 3.0  # decoded bytes per compressed byte from which ISA-L beats rapidgzip
_BLOCK = 1 << 20


def available() -> bool:
    """Whether ISA-L imports (it is a dependency, but a platform may lack a wheel)."""
    try:
        import isal.isal_zlib  # noqa: F401
    except ImportError:
        return False
    return True


def prefers_sequential(path: Input, compression: Compression) -> bool:
    """Whether ISA-L on one core should decode ``path`` rather than rapidgzip on all:
    true when its first mebibyte decodes to at least ``MIN_RATIO`` times its size."""
    if not available():
        return False
    from isal import isal_zlib

    with open_input(path) as f:
        sample = f.read(SAMPLE)
    wbits = 31 if compression is Compression.GZIP else 15
    try:
        d = isal_zlib.decompressobj(wbits)
        out = d.decompress(sample, int(SAMPLE * MIN_RATIO))
    except Exception:  # damaged at once: the forgiving decoders will say how
        return False
    used = len(sample) - len(d.unconsumed_tail) - len(d.unused_data)
    return used > 0 and len(out) >= MIN_RATIO * used


class _ZlibReader(io.RawIOBase):
    """A ZLIB stream decoded with ISA-L; raises at a bad checksum, a cut or extra bytes."""

    def __init__(self, path: Input) -> None:
        from isal import isal_zlib

        self._file = open_input(path)
        self._d = isal_zlib.decompressobj()
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buf: Any) -> int:
        view = memoryview(buf).cast("B")
        while not self._pending:
            if self._d.eof:
                if self._d.unused_data or self._file.read(1):
                    raise ValueError("bytes follow the end of the ZLIB stream")
                return 0
            data = self._d.unconsumed_tail or self._file.read(_BLOCK)
            if not data:
                raise EOFError("the ZLIB stream ends before its end marker")
            self._pending = self._d.decompress(data, _BLOCK)
        n = min(len(view), len(self._pending))
        view[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n

    def close(self) -> None:
        self._file.close()
        super().close()


def _name_or_file(src: Input) -> Any:
    """What rapidgzip and ISA-L open: a path as it is, else a new file object."""
    return src if isinstance(src, str) else src()


PARALLEL_CHUNK = 16 << 20  # rapidgzip's chunk for a forward pass


class SequentialStream:
    """The decoded bytes of a whole file, read strictly forward: with ISA-L, or with
    rapidgzip on every core when ``parallel``."""

    def __init__(self, path: Input, compression: Compression, parallel: bool = False) -> None:
        if parallel:
            import os

            import rapidgzip

            self._reader: Any = rapidgzip.RapidgzipFile(
                _name_or_file(path), parallelization=os.cpu_count() or 1, chunk_size=PARALLEL_CHUNK
            )
        elif compression is Compression.GZIP:
            from isal import igzip_threaded

            self._reader = igzip_threaded.open(_name_or_file(path), "rb", threads=1)
        else:
            self._reader = _ZlibReader(path)
        self.parallel = parallel
        self.position = 0
        self.finished = False  # the end was reached (ISA-L: and the stream checked out)

    def readinto_at(self, offset: int, buf: Any) -> int:
        """Fill ``buf`` with the bytes from ``offset`` (at or after :attr:`position`;
        bytes skipped on the way are decoded and dropped); fewer only at the end."""
        if offset < self.position:
            raise ValueError("a sequential stream cannot go back")
        while self.position < offset:
            skipped = self._reader.read(min(offset - self.position, 16 << 20))
            if not skipped:
                self.finished = True
                return 0
            self.position += len(skipped)
        view = memoryview(buf).cast("B")
        done = 0
        while done < len(view):
            n = self._reader.readinto(view[done:])
            if not n:
                self.finished = True
                break
            done += n
        self.position += done
        return done

    def close(self) -> None:
        self._reader.close()
