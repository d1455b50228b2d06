"""Mergeable accumulators for statistics: one per shard, merged in any grouping.

Every accumulator has ``merge(other)`` (in place), and merging the accumulators of the
parts of a dataset gives what one accumulator over the whole would hold: counts, sums,
extremes and category counts exactly; mean and standard deviation up to float rounding
(Chan's parallel formula); quantiles and histograms exactly while a key has at most
:data:`SAMPLE_SIZE` values, and beyond that from a uniform sample that is the same
however the data was split, because each value is sampled by a hash of where it is
(its file's content, record, position), not by the order in which it was seen nor by how
the file's path is spelled.
"""

from __future__ import annotations

import math
import zlib
from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from ..crc32c import value as crc32c
from .exact_sum import exact_int_moments, exact_moments, mean_of, std_of

SAMPLE_SIZE = 1 << 16  # values kept per key for quantiles and histograms
TOP_LIMIT = 10_000  # distinct values counted exactly before a key counts as high-cardinality
QUANTILES = (0.0, 0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1.0)
BINS = 20
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a well-spread uint64 per input (vectorised, wraps)."""
    with np.errstate(over="ignore"):
        z = x.astype(np.uint64)
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
        result: np.ndarray = z ^ (z >> np.uint64(31))
        return result


SEED_BYTES = 1 << 16


def file_seed(source: Any) -> int:
    """A file's part of its values' sample keys: the CRC32C of the first
    :data:`SEED_BYTES` of its (uncompressed) stream. A function of the data only: the
    same for any spelling of the path, any working folder, a split in another process
    or on another machine, and the cache."""
    return int(crc32c(source.read_at(0, SEED_BYTES)))


def place_hashes(seed: int, records: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """A hash per value from its file's :func:`file_seed`, record number in that file and
    position in the record's list: the sample key, independent of how the data is
    split."""
    with np.errstate(over="ignore"):
        keyed = (records.astype(np.uint64) << np.uint64(24)) + positions.astype(np.uint64)
        return mix(keyed + np.uint64(seed << 20))


class Numeric:
    """Count, extremes, mean and spread, zeros, NaN and infinities of numbers, and a
    hash-keyed sample for quantiles and the histogram. While every value added is an
    integer type, the figures stay integers (extremes, sums, quantiles, the sample):
    an id of 2**53 + 1 is never rounded to a float."""

    def __init__(self) -> None:
        self.count = 0  # finite values
        self.total = 0  # their exact sum and sum of squares (see exact_sum)
        self.squares = 0
        self.min: float | int = math.inf
        self.max: float | int = -math.inf
        self.zeros = 0
        self.nan = 0
        self.inf = 0
        self.integers = True  # every value so far was of an integer type
        self._keys = np.zeros(0, dtype=np.uint64)
        self._values: np.ndarray = np.zeros(0, dtype=np.int64)

    def add(self, values: np.ndarray, keys: np.ndarray) -> None:
        """Add ``values`` (any numeric dtype) with their sample keys (:func:`place_hashes`)."""
        values = np.asarray(values)
        if not len(values):
            return
        other = Numeric()
        exact = values.dtype.kind in "ib" or (
            values.dtype.kind == "u" and int(values.max()) < 1 << 63
        )
        if exact:
            values = values.astype(np.int64)
            other.total, other.squares = exact_int_moments(values)
            other.min, other.max = int(values.min()), int(values.max())
        else:
            values = values.astype(np.float64)
            finite = np.isfinite(values)
            nan = np.isnan(values)
            self.nan += int(nan.sum())
            self.inf += int((~finite & ~nan).sum())
            if not finite.all():
                values, keys = values[finite], keys[finite]
            if not len(values):
                return
            other.integers = False
            other.total, other.squares = exact_moments(values)
            other.min, other.max = float(values.min()), float(values.max())
        other.count = len(values)
        other.zeros = int((values == 0).sum())
        other._keys, other._values = keys, values
        self.merge(other)

    def merge(self, other: Numeric) -> None:
        self.count += other.count
        self.total += other.total
        self.squares += other.squares
        self.min, self.max = min(self.min, other.min), max(self.max, other.max)
        self.zeros += other.zeros
        self.nan += other.nan
        self.inf += other.inf
        self.integers = self.integers and other.integers
        self._keys = np.concatenate([self._keys, other._keys])
        dtype = np.int64 if self.integers else np.float64
        self._values = np.concatenate([self._values.astype(dtype), other._values.astype(dtype)])
        if len(self._keys) > 4 * SAMPLE_SIZE:  # pruned now and then: the same sample
            self._prune()

    def _prune(self) -> None:
        """Keep the values of the :data:`SAMPLE_SIZE` smallest keys (the sample)."""
        if len(self._keys) > SAMPLE_SIZE:
            keep = np.argpartition(self._keys, SAMPLE_SIZE - 1)[:SAMPLE_SIZE]
            self._keys, self._values = self._keys[keep], self._values[keep]

    def sample(self) -> np.ndarray:
        """The sampled values (all of them up to :data:`SAMPLE_SIZE`)."""
        self._prune()
        return self._values

    @property
    def sampled(self) -> bool:
        return self.count > len(self.sample())

    def histogram(self, bins: int = BINS) -> dict[str, Any]:
        """Equal-width bins from min to max; counts scaled to the whole when sampled.
        Integers that span fewer than ``bins`` values get one bin per integer."""
        if not self.count:
            return {"edges": [], "counts": [], "sampled": False}
        lo, hi = self.min, self.max
        if (
            float(lo).is_integer()
            and float(hi).is_integer()
            and hi - lo < bins
            and (self.integers or self._all_integers())
        ):
            edges = np.arange(lo, hi + 2) - 0.5
        else:
            edges = np.linspace(lo, hi if hi > lo else lo + 1, bins + 1)
        counts, _ = np.histogram(self.sample().astype(np.float64), edges)
        if self.sampled:
            counts = np.round(counts * (self.count / len(self._values))).astype(np.int64)
        return {"edges": edges.tolist(), "counts": counts.tolist(), "sampled": self.sampled}

    def _all_integers(self) -> bool:
        values = self.sample()
        return bool(np.all(values == np.round(values)))

    def to_json(self) -> dict[str, Any]:
        empty = not self.count
        # Integers: the value at each quantile (never a point between two of them).
        method: Literal["inverted_cdf", "linear"] = "inverted_cdf" if self.integers else "linear"
        qs = [] if empty else np.quantile(self.sample(), list(QUANTILES), method=method).tolist()
        return {
            "count": self.count,
            "min": None if empty else self.min,
            "max": None if empty else self.max,
            "mean": None if empty else mean_of(self.total, self.count),
            "std": None if empty else std_of(self.total, self.squares, self.count),
            "zeros": self.zeros,
            "nan": self.nan,
            "inf": self.inf,
            "quantiles": {f"{q:g}": v for q, v in zip(QUANTILES, qs, strict=False)},
            "histogram": self.histogram(),
        }


class Categories:
    """Exact counts of hashable values while there are at most ``limit`` distinct ones;
    past that, only that there were more (``overflow``). Merging keeps both exact: a
    union past the limit overflows, as one pass over everything would have."""

    def __init__(self, limit: int = TOP_LIMIT) -> None:
        self.limit = limit
        self.counts: Counter[Any] = Counter()
        self.overflow = False

    def add(self, values: Any) -> None:
        if not self.overflow:
            self.counts.update(values)
            self._check()

    def add_counts(self, counts: dict[Any, int]) -> None:
        if not self.overflow:
            self.counts.update(counts)
            self._check()

    def merge(self, other: Categories) -> None:
        if other.overflow:
            self.overflow, self.counts = True, Counter()
        else:
            self.add_counts(other.counts)

    def _check(self) -> None:
        if len(self.counts) > self.limit:
            self.overflow, self.counts = True, Counter()

    def top(self, n: int = 20) -> list[tuple[Any, int]]:
        """The ``n`` most common values (ties by value), or none past the limit."""
        return sorted(self.counts.items(), key=lambda kv: (-kv[1], str(kv[0])))[:n]


class Distinct:
    """An estimate of the number of distinct values: the k-minimum-values sketch over
    64-bit hashes of the values (exact below ``k`` distinct values)."""

    def __init__(self, k: int = 4096) -> None:
        self.k = k
        self._mins = np.zeros(0, dtype=np.uint64)

    def add_hashes(self, hashes: np.ndarray) -> None:
        merged = np.union1d(self._mins, hashes.astype(np.uint64))
        self._mins = merged[: self.k]

    def merge(self, other: Distinct) -> None:
        self.add_hashes(other._mins)

    def estimate(self) -> int:
        if len(self._mins) < self.k:
            return len(self._mins)
        kth = float(self._mins[self.k - 1]) / 2.0**64
        return round((self.k - 1) / kth)


def bytes_hashes(values: Sequence[bytes], crcs: Sequence[int] | None = None) -> np.ndarray:
    """A 64-bit hash per bytes value, stable across runs and processes: the CRC32C of the
    whole value (the CPU's CRC instruction; ``crcs`` when the caller has them) beside a
    CRC-32 of its first 256 bytes and its length."""
    whole = crcs if crcs is not None else [crc32c(v) for v in values]
    out = np.fromiter(
        (
            (c << 32) | (zlib.crc32(v[:256]) ^ len(v)) & 0xFFFFFFFF
            for v, c in zip(values, whole, strict=True)
        ),
        dtype=np.uint64,
        count=len(values),
    )
    return mix(out)
