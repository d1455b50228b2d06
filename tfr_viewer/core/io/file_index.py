"""The index of one file: offsets, lengths and statuses in fixed-size numpy blocks.

Blocks of ``BLOCK`` records are filled as chunks arrive and never reallocated, so the
index costs 17 bytes a record (uint64 offset, uint64 length, uint8 status) plus one
partly filled block, and record ``i`` is found in O(1). Readers may use it while a scan
is still appending.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .index import IndexChunk
from .records import GarbageRegion, RecordStatus

BLOCK = 1 << 16


class FileIndex:
    """Append-only record index for one file."""

    def __init__(self) -> None:
        self._offsets: list[np.ndarray] = []
        self._lengths: list[np.ndarray] = []
        self._status: list[np.ndarray] = []
        self._count = 0
        self.garbage: list[GarbageRegion] = []
        self.complete = False
        self.verified = False
        self.position = 0
        self.stream_error: str | None = None

    def __len__(self) -> int:
        return self._count

    def add(self, chunk: IndexChunk) -> None:
        """Append a chunk from :func:`tfr_viewer.core.io.index.scan` (in order)."""
        self.garbage.extend(chunk.garbage)
        self.position = chunk.position
        if chunk.stream_error:
            self.stream_error = chunk.stream_error
        done = 0
        n = len(chunk)
        while done < n:
            slot = self._count % BLOCK
            if slot == 0 and n - done >= BLOCK:
                # A whole block: keep views of the chunk's offsets and lengths (never
                # written again) and a copy of its statuses (re-verification writes them).
                self._offsets.append(np.asarray(chunk.offsets[done : done + BLOCK], np.uint64))
                self._lengths.append(np.asarray(chunk.lengths[done : done + BLOCK], np.uint64))
                self._status.append(chunk.status[done : done + BLOCK].copy())
                self._count += BLOCK
                done += BLOCK
                continue
            if slot == 0:
                self._offsets.append(np.zeros(BLOCK, dtype=np.uint64))
                self._lengths.append(np.zeros(BLOCK, dtype=np.uint64))
                self._status.append(np.zeros(BLOCK, dtype=np.uint8))
            take = min(BLOCK - slot, n - done)
            self._offsets[-1][slot : slot + take] = chunk.offsets[done : done + take]
            self._lengths[-1][slot : slot + take] = chunk.lengths[done : done + take]
            self._status[-1][slot : slot + take] = chunk.status[done : done + take]
            self._count += take
            done += take

    def chunks(self, size: int = BLOCK) -> Iterator[IndexChunk]:
        """The index as chunks of ``size`` records, as a scan would have yielded them
        (each garbage region in the chunk of the record after it, or the last)."""
        count = self._count
        starts = list(range(0, count, size)) or [0]
        for k, lo in enumerate(starts):
            hi = min(lo + size, count)
            last = k == len(starts) - 1
            garbage = tuple(
                g
                for g in self.garbage
                if lo <= g.before_record < hi or (last and g.before_record >= hi)
            )
            position = self.position if last else self.offset(hi)
            yield IndexChunk(
                lo,
                self.offsets(lo, hi),
                self.lengths(lo, hi),
                self.statuses(lo, hi),
                garbage,
                position,
                self.stream_error if last else None,
            )

    def settle_verified(self) -> None:
        """Mark a complete index verified when none of its records is left unverified
        (after a pass that checked the payload CRCs as it read them)."""
        if self.complete and not self.verified:
            self.verified = not (self.statuses() == RecordStatus.UNVERIFIED).any()

    def finish(self, verified: bool) -> None:
        """Mark the scan as having reached the end of the stream."""
        self.complete = True
        self.verified = verified

    def _check(self, i: int) -> tuple[int, int]:
        if not 0 <= i < self._count:
            raise IndexError(f"record {i} is out of range (0..{self._count - 1})")
        return divmod(i, BLOCK)

    def offset(self, i: int) -> int:
        b, s = self._check(i)
        return int(self._offsets[b][s])

    def length(self, i: int) -> int:
        b, s = self._check(i)
        return int(self._lengths[b][s])

    def status(self, i: int) -> RecordStatus:
        b, s = self._check(i)
        return RecordStatus(int(self._status[b][s]))

    def set_status(self, i: int, status: RecordStatus) -> None:
        b, s = self._check(i)
        self._status[b][s] = status

    def set_statuses(self, start: int, statuses: np.ndarray) -> None:
        """Overwrite the statuses of records ``start .. start + len(statuses)``."""
        done = 0
        while done < len(statuses):
            b, s = self._check(start + done)
            take = min(BLOCK - s, len(statuses) - done)
            self._status[b][s : s + take] = statuses[done : done + take]
            done += take

    def set_statuses_at(self, records: np.ndarray, statuses: np.ndarray) -> None:
        """Overwrite the statuses of the records numbered ``records`` (any order)."""
        records = np.asarray(records, dtype=np.int64)
        if len(records) and not (0 <= records.min() and records.max() < self._count):
            raise IndexError(f"records out of range (0..{self._count - 1})")
        if len(records) and int(records[-1]) - int(records[0]) == len(records) - 1:
            if len(records) == 1 or (np.diff(records) == 1).all():  # a run: as slices
                self.set_statuses(int(records[0]), np.asarray(statuses))
                return
        blocks = records // BLOCK
        for b in np.unique(blocks).tolist():
            mask = blocks == b
            self._status[b][records[mask] - b * BLOCK] = statuses[mask]

    def _column(self, blocks: list[np.ndarray], start: int, stop: int) -> np.ndarray:
        stop = min(stop, self._count)
        if start >= stop:
            return blocks[0][:0].copy() if blocks else np.zeros(0, dtype=np.uint64)
        parts = []
        b0, b1 = start // BLOCK, (stop - 1) // BLOCK
        for b in range(b0, b1 + 1):
            lo = start - b * BLOCK if b == b0 else 0
            hi = stop - b * BLOCK if b == b1 else BLOCK
            parts.append(blocks[b][lo:hi])
        return np.concatenate(parts)

    def offsets(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """A copy of the offsets of records ``[start, stop)``."""
        return self._column(self._offsets, start, self._count if stop is None else stop)

    def lengths(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        return self._column(self._lengths, start, self._count if stop is None else stop)

    def statuses(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        return self._column(self._status, start, self._count if stop is None else stop)

    def damaged_records(self) -> Iterator[int]:
        """Local numbers of records whose status is a problem, in order."""
        for b, block in enumerate(self._status):
            valid = block[: min(BLOCK, self._count - b * BLOCK)]
            bad = np.flatnonzero((valid != RecordStatus.OK) & (valid != RecordStatus.UNVERIFIED))
            for s in bad:
                yield b * BLOCK + int(s)

    def whole_records(self) -> int:
        """The file's records: its entries less the :meth:`fragments`."""
        return self._count - self.fragments()

    def fragments(self) -> int:
        """Entries that are not whole frames: a frame cut by the end of the file (or by
        the next valid frame), or one whose length field's CRC fails. They hold a record
        number, so that they can be listed, but are no records: a count leaves them out,
        as TensorFlow's reader and ``recover`` do."""
        cut = (RecordStatus.TRUNCATED, RecordStatus.BAD_LENGTH_CRC)
        count = 0
        for b, block in enumerate(self._status):
            valid = block[: min(BLOCK, self._count - b * BLOCK)]
            count += int(np.isin(valid, cut).sum())
        return count

    def problem_count(self) -> int:
        damaged = sum(1 for _ in self.damaged_records())
        return damaged + len(self.garbage) + (1 if self.stream_error else 0)

    def nbytes(self) -> int:
        """Memory held by the arrays."""
        return sum(a.nbytes for col in (self._offsets, self._lengths, self._status) for a in col)
