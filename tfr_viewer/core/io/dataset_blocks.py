"""The payloads of chosen records of a dataset, block by block: the reading every pass
over many records' payloads (checks, statistics, filters with features, sorting,
tables) goes through. A block is a :class:`~.payload_block.PayloadBlock` of one file."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

import numpy as np

from .payload_block import (
    PayloadBlock,
    block_spans,
    lend_spare,
    payload_crcs,
    prefetch_frames,
    read_block,
    return_spare,
)
from .records import RecordStatus
from .sources import Source

if TYPE_CHECKING:
    from .dataset import Dataset


def _checked(
    ds: Dataset, number: int, records: np.ndarray, statuses: np.ndarray, block: PayloadBlock
) -> np.ndarray:
    """Check the payload CRCs of the block's unverified rows, settle their statuses in
    the file's index, and return which rows are intact."""
    todo = np.flatnonzero(statuses == RecordStatus.UNVERIFIED)
    good = (statuses == RecordStatus.OK) | (statuses == RecordStatus.UNVERIFIED)
    if len(todo):
        ok = payload_crcs(block, todo)
        good[todo] = ok
        settled = np.where(ok, RecordStatus.OK, RecordStatus.BAD_DATA_CRC).astype(np.uint8)
        ds.files[number].index.set_statuses_at(records[todo] - ds.start_of(number), settled)
    result: np.ndarray = good
    return result


def iter_blocks(
    ds: Dataset,
    records: np.ndarray,
    size: int = 1 << 14,
    edited: Mapping[int, bytes] | None = None,
    verify: bool = False,
    reuse: bool = False,
) -> Iterator[tuple[np.ndarray, PayloadBlock]]:
    """The payloads of ``records`` (global numbers, any order) of an indexed dataset, as
    ``(positions, block)``: row ``i`` of ``block`` is record ``records[positions[i]]``.
    Each block holds at most ``size`` records of one file (and about
    :data:`BLOCK_BYTES`), read in stream order.
    ``edited`` (by global number) replaces what the files hold. With ``verify``, the
    payload CRCs of unverified records are checked in the bytes just read (one read of
    the file for both), their statuses settled in the dataset's index, and records found
    damaged left out of the blocks (``positions`` then skips them). With ``reuse``, one
    buffer serves every block and then the process's next reusing pass, so a block must
    not be kept past the next one, nor past the pass."""
    records = np.asarray(records, dtype=np.int64)
    if not len(records):
        return
    numbers, offsets, lengths, statuses = ds.frame_facts(records)
    spare: list[np.ndarray] | None = lend_spare() if reuse else None
    sources: dict[int, Source] = {}

    def source(number: int) -> Source:
        if number not in sources:
            sources[number] = ds.files[number].open()
        return sources[number]

    groups = [  # (lo, hi): the records of one block in one file
        (a, b)
        for lo, hi in block_spans(lengths, size)
        for a, b in itertools.pairwise(
            [lo, *(np.flatnonzero(np.diff(numbers[lo:hi])) + 1 + lo).tolist(), hi]
        )
    ]
    try:
        for k, (a, b) in enumerate(groups):
            order = np.argsort(offsets[a:b], kind="stable") + a
            local = None
            if edited:
                chosen = records[order].tolist()
                local = {i: edited[r] for i, r in enumerate(chosen) if r in edited}
            number = int(numbers[a])
            block = read_block(
                source(number), offsets[order], lengths[order], statuses[order], local, spare
            )
            if k + 1 < len(groups):  # fetched while this block is worked on
                na, nb = groups[k + 1]
                prefetch_frames(source(int(numbers[na])), offsets[na:nb], lengths[na:nb])
            if verify and not local:
                good = _checked(ds, number, records[order], statuses[order], block)
                if not good.all():
                    order = order[good]
                    block = PayloadBlock(block.buf, block.starts[good], block.lengths[good])
            yield order, block
    finally:
        if spare is not None:
            return_spare(spare)
