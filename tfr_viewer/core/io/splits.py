"""Record ranges of a dataset's files, as self-contained units of work for other processes
or machines (the Apache Beam transforms in :mod:`tfr_viewer.beam`).

A :class:`Split` carries a file's path and the header index of a run of its records, so a
worker reads exactly those frames without scanning anything. :func:`plan_splits` cuts every
file of a header-indexed dataset into splits of at most ``max_records`` records and
``max_bytes`` bytes, so a 10 GB shard does not hold up a job; every file has at least
one split, even an empty one, so that per-file counts come out as a local run's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .dataset import Dataset
from .records import RecordStatus

SPLIT_RECORDS = 1 << 20
SPLIT_BYTES = 1 << 30


@dataclass(frozen=True)
class Split:
    """Records ``first .. first + len(offsets)`` of file ``file_number`` (``path``)."""

    file_number: int
    path: str
    first: int
    offsets: np.ndarray
    lengths: np.ndarray
    statuses: np.ndarray

    def __len__(self) -> int:
        return len(self.offsets)

    @property
    def key(self) -> tuple[int, int]:
        """Where the split lies: ``(file_number, first)``, for putting results in order."""
        return self.file_number, self.first

    def dataset(self) -> Dataset:
        """The split as a dataset of one file (local record ``i`` is ``first + i``)."""
        return Dataset.from_arrays(
            [self.path], [(self.offsets, self.lengths, self.statuses)], verified=False
        )


def plan_splits(
    ds: Dataset, max_records: int = SPLIT_RECORDS, max_bytes: int = SPLIT_BYTES
) -> list[Split]:
    """Cut every file of an indexed ``ds`` into splits, in dataset order."""
    out: list[Split] = []
    for number, f in enumerate(ds.files):
        offsets, lengths, statuses = f.index.offsets(), f.index.lengths(), f.index.statuses()
        if not len(offsets):
            out.append(Split(number, f.path, 0, offsets, lengths, statuses))
            continue
        lo = 0
        while lo < len(offsets):
            hi = min(lo + max_records, len(offsets))
            # cut where the bytes from ``lo`` first exceed ``max_bytes`` (at least one record)
            ends = offsets[lo:hi] + lengths[lo:hi] - offsets[lo]
            over = int(np.searchsorted(ends, max_bytes, side="right"))
            hi = lo + max(1, min(over, hi - lo))
            out.append(
                Split(
                    number,
                    f.path,
                    lo,
                    offsets[lo:hi].copy(),
                    lengths[lo:hi].copy(),
                    statuses[lo:hi].copy(),
                )
            )
            lo = hi
    return out


def verify_split(split: Split) -> np.ndarray:
    """The statuses of the split's records with every payload CRC checked (records the
    header pass found damaged keep their status)."""
    with split.dataset() as ds:
        for _ in ds.verify():
            pass
        return ds.files[0].index.statuses()


def apply_statuses(ds: Dataset, split_key: tuple[int, int], statuses: np.ndarray) -> None:
    """Write a verified split's statuses back into the header index of ``ds``."""
    number, first = split_key
    index = ds.files[number].index
    if len(statuses):
        index.set_statuses(first, statuses)


def mark_verified(ds: Dataset) -> None:
    """Every split's statuses are in: the dataset's index counts as verified."""
    for f in ds.files:
        f.index.verified = True
        remaining = f.index.statuses() == RecordStatus.UNVERIFIED
        if remaining.any():
            raise ValueError(f"{f.path}: {int(remaining.sum())} records were not verified")
