"""Sort records by a column: a record field or a feature's first value.

Runs on the index arrays (offset, length, status, file) or, for a feature, on columns
extracted block by block as the filter does (one parse per record, no per-record Python
objects kept). Ties keep record order (a stable sort), records without the feature come
last, and the work stops early when cancelled (returning None).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from ..io import CancelToken, Dataset, RecordStatus
from ..io.dataset_blocks import iter_blocks
from .columns import Rag
from .extract import extract
from .names import column_feature

FIELDS = ("#", "index", "file", "offset", "length", "status")
# Damaged first when sorting by status ascending: what a user looks for.
_STATUS_RANK = {
    RecordStatus.BAD_LENGTH_CRC: 0,
    RecordStatus.BAD_DATA_CRC: 1,
    RecordStatus.TRUNCATED: 2,
    RecordStatus.UNVERIFIED: 3,
    RecordStatus.OK: 4,
}


def _field_keys(ds: Dataset, records: np.ndarray, column: str) -> np.ndarray:
    numbers, offsets, lengths, statuses = ds.frame_facts(records)
    if column in ("#", "index"):
        return records
    if column == "file":
        return numbers.astype(np.int64) * (1 << 48) + offsets.astype(np.int64)
    if column == "offset":
        return offsets
    if column == "length":
        return lengths
    rank = np.zeros(len(RecordStatus), dtype=np.int64)
    for status, value in _STATUS_RANK.items():
        rank[status] = value
    result: np.ndarray = rank[statuses]
    return result


def _feature_keys(
    ds: Dataset,
    records: np.ndarray,
    key: str,
    cancel: CancelToken | None,
    progress: Callable[[int, int], None] | None,
    edited: Mapping[int, bytes] | None,
    block: int,
) -> tuple[np.ndarray, np.ndarray] | None:
    """First value of ``key`` per record and whether it has one."""
    firsts: list[np.ndarray] = []
    present: list[np.ndarray] = []
    where: list[np.ndarray] = []
    done = 0
    for positions, payloads in iter_blocks(ds, records, block, edited):
        if cancel is not None and cancel.cancelled:
            return None
        first, has = _first_values(extract(payloads, [key])[1][key].rag)
        firsts.append(first)
        present.append(has)
        where.append(positions)
        done += len(positions)
        if progress is not None:
            progress(done, len(records))
    if not firsts:
        return np.zeros(0), np.zeros(0, dtype=bool)
    if any(f.dtype == object for f in firsts):
        firsts = [f.astype(object) for f in firsts]
    order = np.argsort(np.concatenate(where), kind="stable")
    return np.concatenate(firsts)[order], np.concatenate(present)[order]


def _first_values(rag: Rag) -> tuple[np.ndarray, np.ndarray]:
    """Each row's first value (0 or b"" when it has none) and whether it has one."""
    has = np.diff(rag.splits) > 0
    starts = rag.splits[:-1]
    values = rag.values
    first = np.empty(rag.rows, dtype=values.dtype if values.dtype != object else object)
    if len(values):
        first[has] = values[starts[has]]
    if values.dtype == object or values.dtype.kind in "SU":
        first = first.astype(object)
        first[~has] = b""
    else:
        first[~has] = 0
    return first, has


def sort_records(
    ds: Dataset,
    records: np.ndarray,
    column: str,
    *,
    descending: bool = False,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int], None] | None = None,
    edited: Mapping[int, bytes] | None = None,
    block: int = 4096,
) -> np.ndarray | None:
    """``records`` (global numbers) ordered by ``column``: a name from :data:`FIELDS`, a
    feature's column id (``f["key"]``, :mod:`.names`) or a feature key. None when
    cancelled."""
    records = np.asarray(records, dtype=np.int64)
    feature = column_feature(column)
    if feature is None and column in FIELDS:
        keys = _field_keys(ds, records, column)
        present = np.ones(len(records), dtype=bool)
    else:
        key = column if feature is None else feature
        got = _feature_keys(ds, records, key, cancel, progress, edited, block)
        if got is None:
            return None
        keys, present = got
    if keys.dtype == object:  # bytes and mixed values: sort their text
        keys = np.array([bytes(k) if isinstance(k, bytes) else str(k).encode() for k in keys])
    order = _stable_descending(keys) if descending else np.argsort(keys, kind="stable")
    ordered = records[order]
    missing = ~present[order]
    return np.concatenate([ordered[~missing], ordered[missing]])


def _stable_descending(keys: np.ndarray) -> np.ndarray:
    """Indices ordering ``keys`` from largest to smallest, ties in their original order."""
    rank = np.unique(keys, return_inverse=True)[1].reshape(-1)
    return np.lexsort((np.arange(len(keys)), -rank))
