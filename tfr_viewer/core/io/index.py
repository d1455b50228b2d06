"""Scan the frames of one source into index chunks, checking both CRCs.

:func:`scan` is a generator of :class:`IndexChunk`; a window can show the first rows
before the scan ends, and a :class:`CancelToken` stops it between chunks. A length is
trusted only after its CRC verifies and its frame fits in the stream; no buffer is ever
sized from an unverified length. When a header fails, the scan resynchronises on the next
offset whose header verifies and whose frame fits, and reports what it skipped.
"""

from __future__ import annotations

import mmap
import struct
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from .. import kernels
from ..crc32c import extend as _crc_extend, value as _crc
from .framing import FOOTER_SIZE, FRAME_OVERHEAD, HEADER_SIZE, decode_header, mask
from .records import CancelToken, GarbageRegion, RecordStatus
from .resync import find_next_frame
from .sources import FileChanged, RemoteError, Source, SourceError

CHUNK_RECORDS = 1 << 16
_MAX_WINDOW = 256 << 20  # frames larger than this are checked by streaming
_STREAM_BLOCK = 8 << 20
_SMALL_PAYLOAD = 2048  # below this, slicing to bytes beats a numpy view for the CRC
_U64 = struct.Struct("<Q")


@dataclass(frozen=True)
class IndexChunk:
    """Records found since the previous chunk (``start`` is the first local number)."""

    start: int
    offsets: np.ndarray  # uint64, frame offsets in the uncompressed stream
    lengths: np.ndarray  # uint64, payload sizes as the header claims
    status: np.ndarray  # uint8, RecordStatus values
    garbage: tuple[GarbageRegion, ...] = ()
    position: int = 0  # uncompressed bytes scanned so far
    stream_error: str | None = None  # why a compressed stream stopped decoding

    def __len__(self) -> int:
        return len(self.offsets)


@dataclass
class _Window:
    """Bytes ``[base, base + len(data))`` of the stream; ``eof`` if the stream ends there."""

    base: int
    data: bytes | mmap.mmap | _Shifted  # anything that slices to bytes
    arr: np.ndarray
    eof: bool

    @property
    def end(self) -> int:
        return self.base + len(self.arr)


class _Shifted:
    """The bytes of ``buffer`` from ``start`` on, sliced to ``bytes`` as a window's data
    (a window read ahead begins past its buffer's start, where the tail it carries goes)."""

    __slots__ = ("buffer", "start")

    def __init__(self, buffer: mmap.mmap, start: int) -> None:
        self.buffer, self.start = buffer, start

    def __getitem__(self, part: slice) -> bytes:
        return self.buffer[self.start + part.start : self.start + part.stop]


class _Ahead:
    """A read of ``buffer``'s second half from stream offset ``pos``, on a thread of its
    own; the first half takes the tail of the window before it."""

    def __init__(self, source: Source, pos: int, buffer: mmap.mmap) -> None:
        self.pos, self.buffer = pos, buffer
        self._got: int | None = None
        view = memoryview(buffer)[len(buffer) // 2 :]

        def read() -> None:
            try:
                self._got = source.readinto_at(pos, view)
            except Exception:  # noqa: BLE001 - read again on the scan's thread, which reports it
                self._got = None
            finally:
                view.release()

        self._thread = threading.Thread(target=read, name="tfr-read-ahead", daemon=True)
        self._thread.start()

    def wait(self) -> int | None:
        """The bytes read, or None when the read failed."""
        self._thread.join()
        return self._got


@dataclass
class _Batch:
    """Records found since the last chunk, as runs of arrays in stream order."""

    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=list)
    count: int = 0
    garbage: list[GarbageRegion] = field(default_factory=list)

    def __len__(self) -> int:
        return self.count

    def add_run(self, offsets: np.ndarray, lengths: np.ndarray, status: np.ndarray) -> None:
        if len(offsets):
            self.parts.append((offsets, lengths, status))
            self.count += len(offsets)

    def add_settled(self, offset: int, length: int, status: RecordStatus) -> None:
        """A record whose status is already known."""
        self.add_run(
            np.array([offset], dtype=np.uint64),
            np.array([length], dtype=np.uint64),
            np.array([status], dtype=np.uint8),
        )


class _Scanner:
    def __init__(self, source: Source, verify: bool, read_ahead: bool = True) -> None:
        self.source = source
        self.verify = verify
        self.header_cache: dict[bytes, int] = {}
        self.stream_error: str | None = None
        self._buffer: mmap.mmap | None = None
        self._window: _Window | None = None
        # a plain file's next bytes, read on a thread while the window is scanned
        self._ahead: _Ahead | None = None
        self._spare: mmap.mmap | None = None  # a buffer for the next read ahead
        self._reads_ahead = read_ahead and source.concurrent_reads
        self.window_bytes = source.window_bytes

    def close(self) -> None:
        """Wait for a read ahead still running (its buffer is then dropped)."""
        if self._ahead is not None:
            self._ahead.wait()
            self._ahead = None

    # -- windows -------------------------------------------------------------------
    def window_at(self, pos: int, need: int = 0) -> _Window:
        old = self._window
        carry = old is not None and old.base <= pos < old.end and not old.eof
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            taken = self._take_ahead(ahead, old, pos, need, carry)
            if taken is not None:
                self._window = taken
                self._read_ahead()
                return taken
        self._read_at(pos, need, old, carry)
        self._read_ahead()
        return self._window  # type: ignore[return-value]

    def _take_ahead(
        self, ahead: _Ahead, old: _Window | None, pos: int, need: int, carry: bool
    ) -> _Window | None:
        """The window at ``pos`` from the bytes read ahead, when they follow on from it
        (the old window's unread tail copied in front of them); None otherwise."""
        got = ahead.wait()
        keep = old.end - pos if carry and old is not None else 0
        half = self.window_bytes
        if got is None or ahead.pos != pos + keep or keep > half or keep + half < need:
            self._spare = ahead.buffer
            return None
        start = half - keep
        if keep:
            ahead.buffer[start:half] = old.arr[pos - old.base :].tobytes()  # type: ignore[union-attr]
        if old is not None and isinstance(old.data, _Shifted):
            self._spare = old.data.buffer  # free once its tail is copied
        arr = np.frombuffer(ahead.buffer, dtype=np.uint8, count=keep + got, offset=start)
        return _Window(pos, _Shifted(ahead.buffer, start), arr, got < half)

    def _read_ahead(self) -> None:
        """Start reading the bytes after the window, when the source allows it."""
        win = self._window
        if not self._reads_ahead or win is None or win.eof:
            return
        buffer, self._spare = self._spare, None
        if buffer is None:
            buffer = mmap.mmap(-1, 2 * self.window_bytes)
        self._ahead = _Ahead(self.source, win.end, buffer)

    def _read_at(self, pos: int, need: int, old: _Window | None, carry: bool) -> None:
        """The window at ``pos``, read here into the scanner's own buffer."""
        want = max(self.window_bytes, min(need, _MAX_WINDOW))
        keep = 0
        if carry and old is not None and old.data is not self._buffer:
            keep = old.end - pos  # from a window read ahead
            tail = old.arr[pos - old.base :].tobytes()
            if self._buffer is None or len(self._buffer) < max(want, keep):
                self._buffer = mmap.mmap(-1, max(want, keep))
            self._buffer[:keep] = tail
            carry = False
        if self._buffer is None or len(self._buffer) < want:
            # An anonymous mapping: reused across windows, slices to bytes, no page
            # faults after the first fill. Bytes past ``n`` are stale: ``arr`` is exact.
            buffer = mmap.mmap(-1, want)
            if carry:
                keep = old.end - pos  # type: ignore[union-attr]
                buffer[:keep] = old.arr[pos - old.base :].tobytes()  # type: ignore[union-attr]
            self._buffer = buffer
        elif carry:
            # Carry the unread tail over instead of seeking back, so that the decoder
            # only ever moves forward.
            keep = old.end - pos  # type: ignore[union-attr]
            self._buffer.move(0, pos - old.base, keep)  # type: ignore[union-attr]
        try:
            n = keep + self.source.readinto_at(pos + keep, memoryview(self._buffer)[keep:want])
        except (RemoteError, FileChanged):
            raise  # not damage in the file: the caller reports it (a retry may work)
        except SourceError as exc:
            self.stream_error = str(exc)
            n = keep
        arr = np.frombuffer(self._buffer, dtype=np.uint8, count=n)
        self._window = _Window(pos, self._buffer, arr, n < want)

    # -- the fast path -------------------------------------------------------------
    def fast(self, win: _Window, pos: int, batch: _Batch, limit: int) -> int:
        """Append consecutive good frames from ``pos`` until a problem, the window end
        or ``limit`` records; return where it stopped."""
        want = limit - len(batch)
        if want <= 0:
            return pos
        if not kernels.compiled_in_use():
            return self._fast_python(win, pos, batch, want)
        offsets = np.empty(want, dtype=np.uint64)
        lengths = np.empty(want, dtype=np.uint64)
        status = np.empty(want, dtype=np.uint8)
        run = kernels.scan_frames(
            win.arr, pos - win.base, want, self.verify, win.base, offsets, lengths, status
        )
        if run is None:  # the compiled core was switched off meanwhile
            return self._fast_python(win, pos, batch, want)
        n = run.count
        batch.add_run(offsets[:n], lengths[:n], status[:n])
        return win.base + run.stop

    def _fast_python(self, win: _Window, pos: int, batch: _Batch, want: int) -> int:
        data, arr, base = win.data, win.arr, win.base
        size = len(arr)
        cache = self.header_cache
        verify = self.verify
        offsets: list[int] = []
        lengths: list[int] = []
        crcs: list[int] = []
        q = pos - base
        while len(offsets) < want:
            header = data[q : q + HEADER_SIZE]
            length = cache.get(header)
            if length is None:
                if len(header) < HEADER_SIZE:
                    break
                length, ok = decode_header(header)
                if not ok:
                    break
                if len(cache) > 4096:
                    cache.clear()
                cache[header] = length
            start = q + HEADER_SIZE
            end = start + length
            if end + FOOTER_SIZE > size:
                break
            offsets.append(base + q)
            lengths.append(length)
            if verify:
                if length < _SMALL_PAYLOAD:
                    crcs.append(_crc(data[start:end]))
                else:
                    crcs.append(_crc(arr[start:end]))
            q = end + FOOTER_SIZE
        offs = np.array(offsets, dtype=np.uint64)
        lens = np.array(lengths, dtype=np.uint64)
        batch.add_run(offs, lens, self._data_status(win, offs, lens, crcs))
        return base + q

    def _data_status(
        self, win: _Window, offsets: np.ndarray, lengths: np.ndarray, crcs: list[int]
    ) -> np.ndarray:
        """Compare the payload CRCs of whole frames in the window in one vector op."""
        if not self.verify:
            return np.full(len(offsets), RecordStatus.UNVERIFIED, dtype=np.uint8)
        status = np.zeros(len(offsets), dtype=np.uint8)
        if not len(offsets):
            return status
        ends = offsets - np.uint64(win.base) + np.uint64(HEADER_SIZE) + lengths
        stored = win.arr[ends.astype(np.int64)[:, None] + np.arange(4)].copy()
        stored32 = stored.view("<u4").ravel()
        raw = np.array(crcs, dtype=np.uint64)
        masked = ((((raw >> 15) | (raw << 17)) + 0xA282EAD8) & 0xFFFFFFFF).astype(np.uint32)
        status[masked != stored32] = RecordStatus.BAD_DATA_CRC
        return status

    def seal(self, batch: _Batch, start: int, position: int) -> IndexChunk:
        """Turn a batch into a chunk."""
        if batch.parts:
            offsets, lengths, status = (np.concatenate(p) for p in zip(*batch.parts, strict=True))
        else:
            offsets = np.zeros(0, dtype=np.uint64)
            lengths = np.zeros(0, dtype=np.uint64)
            status = np.zeros(0, dtype=np.uint8)
        return IndexChunk(
            start, offsets, lengths, status, tuple(batch.garbage), position, self.stream_error
        )

    def end_of_stream(self) -> None:
        """The scan reached the end: ask the source whether the stream itself is sound."""
        if self.stream_error is None:
            self.stream_error = self.source.end_problem()

    # -- slow paths ----------------------------------------------------------------
    def stream_crc(self, offset: int, length: int) -> RecordStatus:
        """Check a frame too large for a window by reading it in blocks."""
        crc = 0
        pos = offset + HEADER_SIZE
        remaining = length
        while remaining:
            block = self.source.read_at(pos, min(remaining, _STREAM_BLOCK))
            if not block:
                return RecordStatus.TRUNCATED
            crc = _crc_extend(crc, block)
            pos += len(block)
            remaining -= len(block)
        footer = self.source.read_at(pos, FOOTER_SIZE)
        if len(footer) < FOOTER_SIZE:
            return RecordStatus.TRUNCATED
        if not self.verify:
            return RecordStatus.UNVERIFIED
        ok = mask(crc) == int.from_bytes(footer, "little")
        return RecordStatus.OK if ok else RecordStatus.BAD_DATA_CRC


def scan(
    source: Source,
    *,
    verify: bool = True,
    cancel: CancelToken | None = None,
    chunk_records: int = CHUNK_RECORDS,
    start: int = 0,
    first_record: int = 0,
    read_ahead: bool = True,
) -> Iterator[IndexChunk]:
    """Yield the index of ``source`` chunk by chunk, in stream order.

    With ``verify`` both CRCs are checked; otherwise only the length CRC, and records
    are ``UNVERIFIED``. The generator returns early when ``cancel`` is set; what it
    yielded up to then is correct. ``start`` and ``first_record`` continue a scan that
    another reader began: the frame at offset ``start`` is record ``first_record``.
    ``read_ahead`` false keeps a plain file's reads on this thread.
    """
    sc = _Scanner(source, verify, read_ahead)
    try:
        yield from _scan(sc, source, cancel, chunk_records, start, first_record)
    finally:
        sc.close()


def _written_without_crcs(source: Source, pos: int, header: bytes) -> RecordStatus | None:
    """How the frame at ``pos`` of an event file (``*tfevents*``) stands when a writer
    that leaves its CRCs zero wrote it: a length CRC of zero, a length above zero, then
    ``BAD_LENGTH_CRC`` for a whole frame (a payload CRC of zero, and after it the end of
    the stream, a good frame header or another such header) and ``TRUNCATED`` for one
    that runs past the end (a frame still being written); None for anything else. Only
    the stream's bytes at those places are read: no buffer is sized from the unverified
    length."""
    from .event_runs import is_event_file

    size = source.size
    if len(header) < HEADER_SIZE or header[8:12] != bytes(4) or size is None:
        return None
    length = _U64.unpack_from(header)[0]
    if length == 0 or not is_event_file(source.path):
        return None
    end = pos + FRAME_OVERHEAD + length
    if end > size:
        return RecordStatus.TRUNCATED
    if source.read_at(end - FOOTER_SIZE, FOOTER_SIZE) != bytes(4):
        return None
    if end == size:
        return RecordStatus.BAD_LENGTH_CRC
    after = source.read_at(end, HEADER_SIZE)
    if len(after) < HEADER_SIZE:
        return RecordStatus.BAD_LENGTH_CRC if after[8:] == bytes(len(after[8:])) else None
    following, ok = decode_header(after)
    if ok or (after[8:12] == bytes(4) and following > 0):
        return RecordStatus.BAD_LENGTH_CRC
    return None


def _scan(
    sc: _Scanner,
    source: Source,
    cancel: CancelToken | None,
    chunk_records: int,
    start: int,
    first_record: int,
) -> Iterator[IndexChunk]:
    pos = start
    record = first_record
    win = sc.window_at(start)
    batch = _Batch()
    chunk_start = first_record

    def rewindow(at: int, need: int = 0) -> _Window:
        """Move the window."""
        nonlocal win
        win = sc.window_at(at, need)
        return win

    def flush() -> IndexChunk:
        nonlocal batch, chunk_start
        chunk = sc.seal(batch, chunk_start, pos)
        chunk_start = record
        batch = _Batch()
        return chunk

    while True:
        if cancel is not None and cancel.cancelled:
            return
        before = len(batch)
        pos = sc.fast(win, pos, batch, chunk_records)
        record += len(batch) - before
        if len(batch) >= chunk_records:
            yield flush()
            continue
        if pos >= win.end and win.eof:
            break  # clean end of stream
        q = pos - win.base
        header = win.arr[q : q + HEADER_SIZE].tobytes()
        if len(header) == HEADER_SIZE:
            length, ok = decode_header(header)
        else:
            length, ok = 0, False
        frame_end = pos + FRAME_OVERHEAD + length
        if not win.eof and (len(header) < HEADER_SIZE or (ok and frame_end > win.end)):
            if len(batch):
                yield flush()
            if ok and length + FRAME_OVERHEAD > _MAX_WINDOW:
                status = sc.stream_crc(pos, length)
                if status is not RecordStatus.TRUNCATED:
                    batch.add_settled(pos, length, status)
                    record += 1
                    pos = frame_end
                    yield flush()
                    rewindow(pos)
                    continue
            else:
                rewindow(pos, length + FRAME_OVERHEAD if ok else 0)
                continue
        crcless = _written_without_crcs(source, pos, header)
        if crcless is RecordStatus.BAD_LENGTH_CRC:
            # a writer that leaves its CRCs zero: the frame is taken, flagged
            length = _U64.unpack_from(header)[0]
            batch.add_settled(pos, length, crcless)
            record += 1
            pos += FRAME_OVERHEAD + length
            if pos >= win.end and not win.eof:
                rewindow(pos)
            continue
        # A damaged frame at ``pos``: find where the next good frame starts.
        if len(batch):
            yield flush()
        if not win.eof:
            rewindow(pos)
        nxt = find_next_frame(win.arr, win.base, pos + 1, source.size, win.eof)
        while nxt is None and not win.eof:
            # Keep a header's worth of overlap, then slide on.
            rewindow(max(pos + 1, win.end - HEADER_SIZE + 1))
            nxt = find_next_frame(win.arr, win.base, win.base, source.size, win.eof)
        stop = nxt if nxt is not None else win.end
        if ok or len(header) < HEADER_SIZE:
            # A verified length that runs past the end, or an incomplete header.
            if len(header) >= 8:
                length = _U64.unpack_from(header)[0]
            batch.add_settled(pos, length, RecordStatus.TRUNCATED)
            record += 1
        elif pos + FRAME_OVERHEAD + length == stop:
            # The length agrees with the next good frame: only its CRC is damaged.
            batch.add_settled(pos, length, RecordStatus.BAD_LENGTH_CRC)
            record += 1
        elif nxt is None and crcless is RecordStatus.TRUNCATED:
            # the last frame of a writer without CRCs, still being written
            batch.add_settled(pos, _U64.unpack_from(header)[0], RecordStatus.TRUNCATED)
            record += 1
        else:
            batch.garbage.append(GarbageRegion(pos, stop - pos, record))
        pos = stop
        if nxt is None:
            sc.end_of_stream()
        yield flush()
        if nxt is None:
            return
        if pos >= win.end and not win.eof:
            rewindow(pos)
    sc.end_of_stream()
    if len(batch) or batch.garbage or record == first_record or sc.stream_error:
        yield flush()
