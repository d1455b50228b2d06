"""Rows: records with the damaged regions interleaved where they lie, filtered or sorted."""

from __future__ import annotations

import numpy as np

from tfr_viewer.core.io import Problem
from tfr_viewer.ui.models.rows import RowMap


def region(before: int) -> Problem:
    return Problem("f", before, 100 * before, "garbage", "m", before, region=True, size=7)


def test_regions_sit_before_the_record_that_follows_them():
    rows = RowMap(10, None, [region(0), region(4), region(10)])
    assert len(rows) == 13
    assert rows.region_at(0) == region(0) and rows.record_at(1) == 0
    assert rows.record_at(4) == 3 and rows.region_at(4) is None
    assert rows.region_at(5) == region(4) and rows.record_at(6) == 4
    assert rows.region_at(12) == region(10)
    assert [rows.row_of(r) for r in (0, 3, 4, 9)] == [1, 4, 6, 11]
    assert rows.row_of_region(region(4)) == 5


def test_filtered_and_sorted_rows():
    filtered = RowMap(10, np.array([2, 5, 8]), [region(4)])
    assert [filtered.record_at(r) for r in (0, 2, 3)] == [2, 5, 8]
    assert filtered.region_at(1) == region(4) and filtered.row_of(5) == 2
    assert filtered.row_of(3) is None
    ordered = RowMap(10, np.array([9, 1, 5]), [region(4)], sorted_order=True)
    assert len(ordered) == 3 and ordered.region_at(0) is None
    assert ordered.row_of(5) == 2 and ordered.row_of(2) is None
    assert ordered.shown_records().tolist() == [9, 1, 5]
