"""The three ways a :class:`~.sources.CompressedSource` reads its stream, one object
each; the source holds one at a time and moves to the next when it hands over:

- :class:`ForwardReader`: reads that only move forward from the start, served by a
  forward-only :class:`~.sequential.SequentialStream` (ISA-L when the file compresses
  well, else rapidgzip with larger chunks). A read that goes back hands over to the
  seekable reader; damage hands over to the inflated one.
- :class:`SeekableReader`: rapidgzip's random access, with the seek points it keeps as
  it decodes. Damage hands over to the inflated reader.
- :class:`InflatedReader`: the stream decoded sequentially once, every byte before a
  failure kept (:mod:`.inflate`). It never hands over.

``readinto_at(offset, view)`` returns the bytes read, or a :class:`Handover` naming
the reader that must serve the read instead. Calls come under the source's lock.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from .framing import Compression
from .inflate import Inflated
from .quiet_stderr import quiet_stderr
from .sequential import SequentialStream


class Handover(enum.Enum):
    SEEKABLE = "seekable"  # a read went back, or the forward stream cannot start
    INFLATED = "inflated"  # the stream is damaged: decode it sequentially


class ForwardReader:
    """A forward-only stream, opened by ``opens()`` at the first read (at offset 0)."""

    def __init__(self, opens: Callable[[], SequentialStream], compression: Compression) -> None:
        self._opens = opens
        self._compression = compression
        self._stream: SequentialStream | None = None
        self.finished = False  # the stream was read to its end
        self.checked = False  # ... and its end checked out

    def readinto_at(self, offset: int, view: memoryview) -> int | Handover:
        stream = self._stream
        if stream is None:
            if offset != 0 or self.finished:
                return Handover.SEEKABLE  # not from the start, or after the end
            try:
                with quiet_stderr():
                    stream = self._stream = self._opens()
            except Exception:  # noqa: BLE001 - rapidgzip's own reader decides
                return Handover.SEEKABLE
        if offset < stream.position:  # going back: rapidgzip's seek points serve it
            return Handover.SEEKABLE
        try:
            with quiet_stderr():
                done = stream.readinto_at(offset, view)
        except Exception:  # noqa: BLE001 - damage: keep every byte decoded before it
            return Handover.INFLATED
        if stream.finished:
            # ISA-L checks a ZLIB stream to its end: its checksum and nothing after it.
            # GZIP readers skip zero padding after the last member silently, so the end
            # of a GZIP stream is still checked as usual (see end_problem)
            self.checked = self._compression is Compression.ZLIB and not stream.parallel
            self.finished = True
            self.close()  # later reads hand over
        return done

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None


class SeekableReader:
    """rapidgzip's random access through ``reader`` (owned by the source)."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader

    def readinto_at(self, offset: int, view: memoryview) -> int | Handover:
        done = 0
        try:
            with quiet_stderr():
                self.reader.seek(offset)
                while done < len(view):
                    n = self.reader.readinto(view[done:])
                    if not n:
                        break
                    done += n
        except Exception:  # noqa: BLE001 - rapidgzip raises several types for damage
            return Handover.INFLATED
        return done

    def close(self) -> None:
        """The source closes the rapidgzip reader itself (it serves seek points too)."""


class InflatedReader:
    """Reads from a stream decoded sequentially (:class:`~.inflate.Inflated`)."""

    def __init__(self, inflated: Inflated) -> None:
        self.inflated = inflated

    def readinto_at(self, offset: int, view: memoryview) -> int:
        data = self.inflated.read_at(offset, len(view))
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self.inflated.close()


Reader = ForwardReader | SeekableReader | InflatedReader
