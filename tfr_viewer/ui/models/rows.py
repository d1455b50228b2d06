"""Which record (or damaged region) each table row shows; plain numpy, no Qt.

Rows are the shown records, in record order or in a sorted order, with the damaged
regions that belong to no record (garbage, a broken compressed stream) interleaved
where they lie when the order is the file order. Every lookup is O(log n) or O(1), so
10 million rows cost nothing until they are looked at.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.io import Problem


class RowMap:
    """``records`` None means every record ``0..count-1``; ``sorted_order`` says that
    ``records`` is a permutation (a sort), in which case regions are not shown."""

    def __init__(
        self,
        count: int,
        records: np.ndarray | None = None,
        regions: Sequence[Problem] = (),
        sorted_order: bool = False,
    ) -> None:
        self.count = count
        self.records = None if records is None else np.asarray(records, dtype=np.int64)
        self.permuted = sorted_order
        self.regions: list[Problem] = [] if sorted_order else list(regions)
        before = np.array([r.record for r in self.regions], dtype=np.int64)
        if self.records is None:
            self._ins = np.minimum(before, count)
        else:
            self._ins = np.searchsorted(self.records, before, side="left").astype(np.int64)
        self._pos = self._ins + np.arange(len(self.regions), dtype=np.int64)
        self._inverse: np.ndarray | None = None

    def record_count(self) -> int:
        return self.count if self.records is None else len(self.records)

    def __len__(self) -> int:
        return self.record_count() + len(self.regions)

    def nth_record(self, k: int) -> int:
        """The k-th shown record (regions not counted)."""
        return k if self.records is None else int(self.records[k])

    def shown_records(self) -> np.ndarray:
        if self.records is None:
            return np.arange(self.count, dtype=np.int64)
        return self.records

    def region_at(self, row: int) -> Problem | None:
        if not self.regions:
            return None
        j = int(np.searchsorted(self._pos, row))
        return self.regions[j] if j < len(self._pos) and self._pos[j] == row else None

    def record_at(self, row: int) -> int | None:
        """The record shown in ``row``, or None for a region row."""
        if not self.regions:  # the usual case, on the painting path
            return self.nth_record(row)
        j = int(np.searchsorted(self._pos, row))
        if j < len(self._pos) and self._pos[j] == row:
            return None
        return self.nth_record(row - j)

    def position_of(self, record: int) -> int | None:
        """``k`` such that ``nth_record(k) == record``, or None when it is not shown."""
        if self.records is None:
            return record if 0 <= record < self.count else None
        if self.permuted:
            if self._inverse is None:
                size = int(self.records.max()) + 1 if len(self.records) else 0
                self._inverse = np.full(size, -1, dtype=np.int64)
                self._inverse[self.records] = np.arange(len(self.records))
            if 0 <= record < len(self._inverse) and self._inverse[record] >= 0:
                return int(self._inverse[record])
            return None
        k = int(np.searchsorted(self.records, record))
        return k if k < len(self.records) and self.records[k] == record else None

    def row_of(self, record: int) -> int | None:
        k = self.position_of(record)
        if k is None:
            return None
        return k + int(np.searchsorted(self._ins, k, side="right"))

    def row_of_region(self, region: Problem) -> int | None:
        for j, r in enumerate(self.regions):
            if r == region:
                return int(self._pos[j])
        return None
