"""Run a compiled filter over blocks of records from an indexed dataset.

Payloads are parsed only when the filter reads features, once per block, and then
leniently, as TensorFlow's own parser would: a SequenceExample's context is seen as its
features, and a payload that is not an Example has none. Damaged records have no
features but can still be matched on ``status`` and the other record fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import numpy as np

from ..io import CancelToken, Dataset, RecordStatus, Source
from ..io.payload_block import PayloadBlock, read_block
from ..io.splits import Split, SplitRef
from .columns import Rag
from .extract import extract
from .language import Filter, compile_filter

_KINDS = np.array([s.kind for s in RecordStatus], dtype=object)


class RecordBlock:
    """Consecutive records of one file, as a filter :class:`~.query.Block`."""

    def __init__(
        self,
        first_index: int,
        path: str,
        offsets: np.ndarray,
        lengths: np.ndarray,
        statuses: np.ndarray,
        payloads: PayloadBlock | None,
    ) -> None:
        self.rows = len(offsets)
        self._first = first_index
        self._path = path
        self._offsets, self._lengths, self._statuses = offsets, lengths, statuses
        self._payloads = payloads
        self._keys: frozenset[str] = frozenset()
        self._cache: dict[str, tuple[Rag, np.ndarray]] = {}

    def want(self, keys: frozenset[str]) -> RecordBlock:
        """Declare the keys a filter will read, so that one pass extracts them all."""
        self._keys = keys
        return self

    def field(self, name: str) -> np.ndarray:
        if name == "index":
            return np.arange(self._first, self._first + self.rows, dtype=np.int64)
        if name == "offset":
            return self._offsets.astype(np.int64)
        if name == "length":
            return self._lengths.astype(np.int64)
        if name == "status":
            return _KINDS[self._statuses]
        if name == "file":
            return np.full(self.rows, self._path, dtype=object)
        raise KeyError(name)

    def _extract(self, keys: frozenset[str]) -> None:
        """One pass over the payloads pulling every needed key."""
        block = self._payloads
        if block is None:
            block = PayloadBlock.of([b""] * self.rows)
        _, columns = extract(block, keys)
        for key, column in columns.items():
            self._cache[key] = (column.rag, column.present)

    def feature(self, key: str) -> tuple[Rag, np.ndarray]:
        cached = self._cache.get(key)
        if cached is None:
            self._extract(self._keys | {key})
            cached = self._cache[key]
        return cached


def block_of(
    flt: Filter,
    source: Source,
    path: str,
    first_index: int,
    offsets: np.ndarray,
    lengths: np.ndarray,
    statuses: np.ndarray,
    edited: Mapping[int, bytes] | None = None,
) -> RecordBlock:
    """A block over the given records, reading payloads only if the filter needs them;
    ``edited`` payloads (by global number) replace what the file holds."""
    payloads = None
    if flt.keys:
        local = None
        if edited:
            hi = first_index + len(offsets)
            local = {i - first_index: p for i, p in edited.items() if first_index <= i < hi}
        payloads = read_block(source, offsets, lengths, statuses, local)
    return RecordBlock(first_index, path, offsets, lengths, statuses, payloads).want(flt.keys)


def filter_dataset(
    ds: Dataset,
    flt: Filter,
    *,
    cancel: CancelToken | None = None,
    progress: Callable[[int, int, int], None] | None = None,
    block: int = 1 << 14,
    edited: Mapping[int, bytes] | None = None,
    first: int = 0,
    whole: bool = True,
) -> Iterator[np.ndarray]:
    """Yield arrays of matching global record numbers, block by block, over an indexed
    dataset. ``progress(done, total, matches)`` is called after each block; the
    generator stops early when ``cancel`` is set. ``edited`` payloads are filtered
    instead of the file's. ``first`` is the number of the dataset's first record, when
    it is a part of a larger one (a split). A bare record column name in ``flt`` means
    the feature when ``ds`` has one by that name (:mod:`.names`); for a part of a larger
    dataset, give the text that :func:`.names.resolve_names` made over the whole, and
    ``whole`` False: a key that is no feature of any record is refused
    (:func:`.names.require_features`) over a whole dataset only."""
    from .names import require_features, resolved

    flt = resolved(ds, flt, cancel)
    if whole:
        require_features(ds, flt, cancel, edited)
    total = len(ds)
    done = matches = 0
    for number, f in enumerate(ds.files):
        count = len(f.index)
        if not count:
            continue
        source = f.open()
        start = first + ds.start_of(number)
        for lo in range(0, count, block):
            if cancel is not None and cancel.cancelled:
                return
            hi = min(lo + block, count)
            rb = block_of(
                flt,
                source,
                f.path,
                start + lo,
                f.index.offsets(lo, hi),
                f.index.lengths(lo, hi),
                f.index.statuses(lo, hi),
                edited,
            )
            hits = np.flatnonzero(flt.mask(rb)) + start + lo
            done += hi - lo
            matches += len(hits)
            if progress is not None:
                progress(done, total, matches)
            yield hits


def select_ref(
    ref: SplitRef, expression: str | None
) -> tuple[tuple[int, int], np.ndarray, np.ndarray]:
    """:func:`select_split` of a split found again from its reference, with its key."""
    statuses, chosen = select_split(ref.load(verify=True), ref.base, expression)
    return ref.key, statuses, chosen


def select_split(split: Split, base: int, expression: str | None) -> tuple[np.ndarray, np.ndarray]:
    """Verify the records of ``split`` (record ``base`` of the whole dataset is its
    first) and pick the ones an export takes: their statuses, and the global numbers of
    the records that match ``expression`` (every record without one), in order."""
    with split.verified() as ds:
        statuses = ds.files[0].index.statuses()
        if expression is None:
            return statuses, np.arange(base, base + len(ds), dtype=np.int64)
        parts = list(filter_dataset(ds, compile_filter(expression), first=base, whole=False))
        return statuses, np.concatenate(parts) if parts else np.zeros(0, np.int64)
