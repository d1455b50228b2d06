"""Run a compiled filter over blocks of records from an indexed dataset.

Payloads are parsed only when the filter reads features, once per block, and then
leniently, as TensorFlow's own parser would: a SequenceExample's context is seen as its
features, and a payload that is not an Example has none. Damaged records have no
features but can still be matched on ``status`` and the other record fields. Records
read as a user's message type have field paths for keys (:mod:`.message_columns`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..io import CancelToken, Dataset, RecordStatus, Source
from ..io.payload_block import PayloadBlock, read_block
from ..io.splits import Split, SplitRef
from .columns import Rag
from .extract import extract
from .language import Filter, compile_filter

if TYPE_CHECKING:
    from ..decode.message_types import MessageType

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
        kind: MessageType | None = None,
    ) -> None:
        self.rows = len(offsets)
        self._kind = kind  # a user's message type the records are read as (key paths)
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
            result: np.ndarray = _KINDS[self._statuses]
            return result
        if name == "file":
            return np.full(self.rows, self._path, dtype=object)
        raise KeyError(name)

    def _extract(self, keys: frozenset[str]) -> None:
        """One pass over the payloads pulling every needed key."""
        block = self._payloads
        if block is None:
            block = PayloadBlock.of([b""] * self.rows)
        if self._kind is not None:
            from .message_columns import message_columns

            _, columns = message_columns(block, keys, self._kind)
        else:
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
    kind: MessageType | None = None,
) -> RecordBlock:
    """A block over the given records, reading payloads only if the filter needs them;
    ``edited`` payloads (by global number) replace what the file holds; ``kind``, the
    user's message type they are read as (the filter's keys are then field paths)."""
    payloads = None
    if flt.keys:
        local = None
        if edited:
            hi = first_index + len(offsets)
            local = {i - first_index: p for i, p in edited.items() if first_index <= i < hi}
        payloads = read_block(source, offsets, lengths, statuses, local)
    block = RecordBlock(first_index, path, offsets, lengths, statuses, payloads, kind)
    return block.want(flt.keys)


@dataclass(frozen=True)
class Matched:
    """One block of records of file ``file`` (the first numbered ``first``, with their
    ``offsets``, ``lengths`` and ``statuses``) and the positions ``keep`` in it of those
    a filter matched."""

    file: int
    first: int
    offsets: np.ndarray
    lengths: np.ndarray
    statuses: np.ndarray
    keep: np.ndarray

    @property
    def records(self) -> np.ndarray:
        """The global numbers of the matching records."""
        return self.keep + self.first


def matching(
    ds: Dataset,
    flt: Filter | None,
    *,
    verified: bool = True,
    cancel: CancelToken | None = None,
    edited: Mapping[int, bytes] | None = None,
    first: int = 0,
    whole: bool = True,
    block: int = 1 << 14,
    as_indexed: bool = False,
) -> Iterator[Matched]:
    """The one filter driver: per block, the records ``flt`` matches (every record,
    without a filter). A file indexed already (its CRCs checked, when ``verified``)
    gives its blocks from its index, without touching ``ds``'s state; the others come
    from a verifying scan as it goes, so that the first matches are out before the last
    file is read. ``edited`` payloads are filtered instead of the file's. ``first`` is
    the number of ``ds``'s first record when it is a part of a larger dataset (a
    split): give then the text :func:`.names.resolve_names` made over the whole, and
    ``whole`` False. A bare record column name means the feature when ``ds`` has one by
    that name (:mod:`.names`), and a key that is no feature of any record is refused
    (:func:`.names.require_features`, over a whole dataset): both read the index, so a
    filter that reads features needs ``ds`` indexed first (:func:`needs_index`).
    ``as_indexed``: the records indexed so far, as their statuses stand, and never a
    scan (a front end showing a dataset while it is indexed: its index grows on the
    front end's own thread)."""
    from .names import require_features, resolved

    if flt is not None:
        flt = resolved(ds, flt, cancel)
        if whole:
            require_features(ds, flt, cancel, edited)
    blocks = _blocks(ds, verified, cancel, block, as_indexed)
    for number, lo, offsets, lengths, statuses in blocks:
        if cancel is not None and cancel.cancelled:
            return
        f = ds.files[number]
        start = first + ds.start_of(number) + lo
        if flt is None:
            keep = np.arange(len(offsets))
        else:
            kind = None
            if flt.keys and ds.message_type is not None:
                from ..decode.file_payloads import message_type_of

                kind = message_type_of(ds, number)
            rb = block_of(flt, f.open(), f.path, start, offsets, lengths, statuses, edited, kind)
            keep = np.flatnonzero(flt.mask(rb))
        yield Matched(number, start, offsets, lengths, statuses, keep)


def needs_index(flt: Filter | None) -> bool:
    """Whether ``flt`` means something only over the whole index (it reads features,
    or a bare name that may be a feature's)."""
    return flt is not None and bool(flt.keys or flt.record_names and not flt.resolved)


def _blocks(
    ds: Dataset, verified: bool, cancel: CancelToken | None, block: int, as_indexed: bool
) -> Iterator[tuple[int, int, np.ndarray, np.ndarray, np.ndarray]]:
    """``(file number, first local number, offsets, lengths, statuses)`` per block."""
    if as_indexed or all(f.index.complete and (f.index.verified or not verified) for f in ds.files):
        for number, f in enumerate(ds.files):
            count = len(f.index)
            for lo in range(0, count, block):
                hi = min(lo + block, count)
                index = f.index
                offsets, lengths = index.offsets(lo, hi), index.lengths(lo, hi)
                yield number, lo, offsets, lengths, index.statuses(lo, hi)
        return
    for number, chunk in ds.scan(verify=True, cancel=cancel):
        if len(chunk):
            yield number, chunk.start, chunk.offsets, chunk.lengths, chunk.status


def matches_of(parts: Iterator[Matched]) -> np.ndarray:
    """The global numbers of every match, in order."""
    found = [m.records for m in parts]
    return np.concatenate(found) if found else np.zeros(0, np.int64)


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
        flt = compile_filter(expression)
        return statuses, matches_of(matching(ds, flt, first=base, whole=False))
