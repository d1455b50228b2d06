"""One read of a log folder's event files into an :class:`~..core.analyze.event_log.
EventLog`: every intact record, block by block, its payload CRC checked in the bytes
read; damaged records are counted (and said once), never read as events. What the
run view, the size breakdown and the scalar, histogram and hyperparameter tables
show all come from this one read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.analyze.event_log import EventLog
from ..core.io import Dataset
from ..core.io.event_runs import run_names
from ..core.io.records import RecordStatus
from .task_state import QUIET, TaskState


@dataclass(frozen=True)
class ReadLog:
    """The log; the records that could not be read (``damaged``: cut short, the way a
    file still being written ends); ``end``: the records before it were read (the
    dataset's length, unless the read was cancelled); ``flagged``: the records read
    although their CRC is wrong (other writers' files; their values may be wrong)."""

    log: EventLog
    damaged: int
    end: int = 0
    flagged: tuple[int, ...] = ()


def read_log(
    ds: Dataset,
    state: TaskState = QUIET,
    *,
    scalars: bool = True,
    each_block: Callable[[EventLog], None] | None = None,
    log: EventLog | None = None,
    start: int = 0,
) -> ReadLog:
    """Every record of ``ds`` from record ``start`` on read once, in order, into an
    :class:`EventLog` (the dataset indexed first): ``log``, which holds the records
    before ``start`` (a read of the first part of a file still being indexed, read on),
    or a new one, gathering scalar points when ``scalars`` is true; ``each_block`` is
    called with the log after each block (a writer taking the points as they come);
    stops early, with what was read, when ``state`` is cancelled.

    A record whose payload CRC (or length CRC) is wrong but whose bytes are all there
    is read all the same and flagged, and said; a record cut short is left out and
    named (a file still being written ends so)."""
    from ..core.io.dataset_blocks import iter_blocks
    from ..core.io.payload_block import PayloadBlock
    from .indexing import index

    index(ds, verify=False, state=state)
    if log is None:
        log = EventLog(run_names([f.path for f in ds.files]), scalars=scalars)
    records = np.arange(start, len(ds), dtype=np.int64)
    files, _ = ds.locate_many(records) if len(records) else (records, records)
    handled = 0  # the records at positions before it are read (or left out)
    flagged: list[int] = []
    cut: list[int] = []

    def apart(upto: int) -> None:
        """The records at positions ``handled`` to ``upto`` no block held: damaged."""
        for record in records[handled:upto].tolist():
            ref = ds.ref(record)
            if ref.status in (RecordStatus.BAD_DATA_CRC, RecordStatus.BAD_LENGTH_CRC):
                log.add(record, ref.file_number, ds.read(record))
                flagged.append(record)
            else:
                cut.append(record)

    with state.phase("reading events", len(records)) as step:
        for positions, block in iter_blocks(ds, records, verify=True, reuse=True):
            if state.cancelled:
                break
            if not len(positions):
                continue
            cuts = (np.flatnonzero(np.diff(positions) != 1) + 1).tolist()
            for lo, hi in zip([0, *cuts], [*cuts, len(positions)], strict=True):
                apart(int(positions[lo]))
                part = PayloadBlock(block.buf, block.starts[lo:hi], block.lengths[lo:hi])
                log.add_block(records[positions[lo:hi]], int(files[positions[lo]]), part)
                handled = int(positions[hi - 1]) + 1
            if each_block is not None:
                each_block(log)
            step(handled)
        else:
            apart(len(records))
            handled = len(records)
            if flagged and each_block is not None:
                each_block(log)  # the points of the last records read apart
    _say(ds, state, flagged, cut)
    return ReadLog(log, len(cut), start + handled, tuple(flagged))


def _say(ds: Dataset, state: TaskState, flagged: list[int], cut: list[int]) -> None:
    """Warn of the records read despite a bad CRC and of those cut short."""
    from ..core.text import plural

    if flagged:
        first = ds.ref(flagged[0])
        state.warn(
            f"{plural(len(flagged), 'record')} read although {_its(len(flagged))} CRC is "
            f"wrong, and flagged: {_its(len(flagged))} values may be wrong (the first: "
            f"{first.file}, record "
            f"{first.local} at byte {first.offset:,}); `tfr-viewer verify` lists each"
        )
    for record in cut:
        ref = ds.ref(record)
        state.warn(
            f"{ref.file} ends in a record cut short at byte {ref.offset:,}: a writer still "
            "writing it, or one that stopped mid-write; every event before it is read"
        )


def _its(count: int) -> str:
    return "its" if count == 1 else "their"
