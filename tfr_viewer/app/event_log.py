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
from .task_state import QUIET, Step, TaskState


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
    :class:`EventLog`: ``log``, which holds the records before ``start`` (a read of the
    first part of a file still being indexed, read on), or a new one, gathering scalar
    points when ``scalars`` is true; ``each_block`` is called with the log after each
    block (a writer taking the points as they come); stops early, with what was read,
    when ``state`` is cancelled. A dataset not yet indexed is indexed first, or, when
    its files allow it, on a thread ahead of the read (:mod:`.index_ahead`: the disk
    read once).

    A record whose payload CRC (or length CRC) is wrong but whose bytes are all there
    is read all the same and flagged, and said; a record cut short is left out and
    named (a file still being written ends so)."""
    from .index_ahead import index_ahead, indexes_ahead
    from .indexing import index

    if log is None:
        log = EventLog(run_names([f.path for f in ds.files]), scalars=scalars)
    reading = _Reading(ds, log, state, each_block, start)
    with state.phase("reading events", 0) as step:
        if indexes_ahead(ds):
            with index_ahead(ds, state) as counts:
                for upto in counts:
                    if not reading.read(upto, step):
                        break
        else:
            index(ds, verify=False, state=state)
            reading.read(len(ds), step)
    _say(ds, state, reading.flagged, reading.cut)
    return ReadLog(log, len(reading.cut), reading.handled, tuple(reading.flagged))


class _Reading:
    """The records of ``ds`` from ``start`` on read into ``log`` range by range, as
    far as the index reaches: ``handled`` is the first record not read yet."""

    def __init__(
        self,
        ds: Dataset,
        log: EventLog,
        state: TaskState,
        each_block: Callable[[EventLog], None] | None,
        start: int,
    ) -> None:
        self.ds, self.log, self.state, self.each_block = ds, log, state, each_block
        self.handled = start
        self.flagged: list[int] = []
        self.cut: list[int] = []

    def read(self, upto: int, step: Step) -> bool:
        """Read the records from ``handled`` to ``upto`` (indexed); False when
        ``state`` was cancelled meanwhile (``handled`` then says how far it got)."""
        from ..core.io.dataset_blocks import iter_blocks
        from ..core.io.payload_block import PayloadBlock

        ds, log = self.ds, self.log
        records = np.arange(self.handled, upto, dtype=np.int64)
        if not len(records):
            return not self.state.cancelled
        files, _ = ds.locate_many(records)
        flagged = len(self.flagged)
        for positions, block in iter_blocks(ds, records, verify=True, reuse=True):
            if self.state.cancelled:
                return False
            if not len(positions):
                continue
            cuts = (np.flatnonzero(np.diff(positions) != 1) + 1).tolist()
            for lo, hi in zip([0, *cuts], [*cuts, len(positions)], strict=True):
                self._apart(int(records[positions[lo]]))
                part = PayloadBlock(block.buf, block.starts[lo:hi], block.lengths[lo:hi])
                log.add_block(records[positions[lo:hi]], int(files[positions[lo]]), part)
                self.handled = int(records[positions[hi - 1]]) + 1
            if self.each_block is not None:
                self.each_block(log)
            step(self.handled, upto)
        self._apart(upto)
        if len(self.flagged) > flagged and self.each_block is not None:
            self.each_block(log)  # the points of the records read apart
        step(self.handled, upto)
        return not self.state.cancelled

    def _apart(self, upto: int) -> None:
        """The records from ``handled`` to ``upto`` that no block held: damaged ones,
        read apart when their bytes are all there (flagged), else cut short."""
        ds = self.ds
        for record in range(self.handled, upto):
            ref = ds.ref(record)
            if ref.status in (RecordStatus.BAD_DATA_CRC, RecordStatus.BAD_LENGTH_CRC):
                self.log.add(record, ref.file_number, ds.read(record))
                self.flagged.append(record)
            else:
                self.cut.append(record)
        self.handled = max(self.handled, upto)


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
