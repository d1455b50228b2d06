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
from typing import TYPE_CHECKING

import numpy as np

from .dataset import Dataset, open_path
from .framing import Compression
from .header_scan import header_scan, hops
from .index import scan
from .records import RecordStatus
from .source_errors import FileChanged

if TYPE_CHECKING:
    from .split_pool import Each

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
    checked: bool = False  # the statuses are those of a CRC pass

    def __len__(self) -> int:
        return len(self.offsets)

    @property
    def key(self) -> tuple[int, int]:
        """Where the split lies: ``(file_number, first)``, for putting results in order."""
        return self.file_number, self.first

    def dataset(self, verified: bool = False) -> Dataset:
        """The split as a dataset of one file (local record ``i`` is ``first + i``);
        ``verified`` when its statuses are those of a CRC pass."""
        return Dataset.from_arrays(
            [self.path], [(self.offsets, self.lengths, self.statuses)], verified=verified
        )

    def verified(self) -> Dataset:
        """:meth:`dataset` with every payload CRC checked (records the header pass found
        damaged keep their status)."""
        if self.checked:
            return self.dataset(verified=True)
        ds = self.dataset()
        try:
            for _ in ds.verify():
                pass
        except BaseException:
            ds.close()
            raise
        return ds


@dataclass(frozen=True)
class SplitRef:
    """A split named by where it lies, small enough to send to any worker: its records
    are found again by a header scan from byte ``start`` (:meth:`load`)."""

    file_number: int
    path: str
    first: int
    count: int
    start: int  # uncompressed offset of its first frame
    base: int = 0  # the dataset-wide number of its first record

    @property
    def key(self) -> tuple[int, int]:
        return self.file_number, self.first

    def __len__(self) -> int:
        return self.count

    def load(self, verify: bool = False) -> Split:
        """The split with its header index, as :func:`plan_splits` made it (from its frame
        headers alone where the file's records are large); with ``verify``, its payload
        CRCs checked in the same pass (the compiled scan)."""
        parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        found = 0
        if self.count:
            with open_path(self.path) as source:
                if not verify and hops(source):
                    chunks = header_scan(source, start=self.start, first_record=self.first)
                else:
                    chunks = scan(source, verify=verify, start=self.start, first_record=self.first)
                for chunk in chunks:
                    take = min(len(chunk), self.count - found)
                    parts.append((chunk.offsets[:take], chunk.lengths[:take], chunk.status[:take]))
                    found += take
                    if found >= self.count:
                        break
        if found != self.count:  # fewer (or other) records than were planned
            raise FileChanged.while_read(
                self.path,
                f"{found:,} records from byte {self.start:,} where {self.count:,} were planned",
            )
        if not parts:
            empty = np.zeros(0, dtype=np.uint64)
            return Split(
                self.file_number, self.path, self.first, empty, empty, empty.astype(np.uint8), True
            )
        offsets, lengths, statuses = (np.concatenate(c) for c in zip(*parts, strict=True))
        return Split(self.file_number, self.path, self.first, offsets, lengths, statuses, verify)


def plan_refs(ds: Dataset, **limits: int) -> list[SplitRef]:
    """:func:`plan_splits` as :class:`SplitRef` objects."""
    return [
        SplitRef(
            s.file_number,
            s.path,
            s.first,
            len(s),
            int(s.offsets[0]) if len(s) else 0,
            ds.start_of(s.file_number) + s.first,
        )
        for s in plan_splits(ds, **limits)
    ]


def plan_splits(
    ds: Dataset, max_records: int = SPLIT_RECORDS, max_bytes: int = SPLIT_BYTES
) -> list[Split]:
    """Cut every file of an indexed ``ds`` into splits, in dataset order. A compressed
    file is one split: reading from its middle means decoding from its start anyway."""
    out: list[Split] = []
    for number, f in enumerate(ds.files):
        offsets, lengths, statuses = f.index.offsets(), f.index.lengths(), f.index.statuses()
        if f.open().compression is not Compression.NONE:
            out.append(Split(number, f.path, 0, offsets, lengths, statuses))
            continue
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
    with split.verified() as ds:
        return ds.files[0].index.statuses()


def ref_statuses(ref: SplitRef) -> tuple[tuple[int, int], np.ndarray]:
    """``(split key, statuses)`` of a split found again from its reference, every
    payload CRC checked in its one read."""
    return ref.key, verify_split(ref.load(verify=True))


def verify_each(ds: Dataset, each: Each) -> None:
    """Check every payload CRC of a header-indexed ``ds``, split by split, by ``each``
    (processes here, or a Beam pipeline); afterwards its index is verified, exactly as a
    verifying scan leaves it."""
    for key, statuses in each(ref_statuses, plan_refs(ds)):
        apply_statuses(ds, key, statuses)
    mark_verified(ds)


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
