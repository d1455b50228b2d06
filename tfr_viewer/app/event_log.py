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
from .task_state import QUIET, TaskState


@dataclass(frozen=True)
class ReadLog:
    """The log, the records that could not be read (damaged or cut short), and
    ``end``: the records before it were read (the dataset's length, unless the read
    was cancelled)."""

    log: EventLog
    damaged: int
    end: int = 0


def read_log(
    ds: Dataset,
    state: TaskState = QUIET,
    *,
    scalars: bool = True,
    each_block: Callable[[EventLog], None] | None = None,
    log: EventLog | None = None,
    start: int = 0,
) -> ReadLog:
    """Every intact record of ``ds`` from record ``start`` on read once into an
    :class:`EventLog` (the dataset indexed first): ``log``, which holds the records
    before ``start`` (a read of the first part of a file still being indexed, read on),
    or a new one, gathering scalar points when ``scalars`` is true; ``each_block`` is
    called with the log after each block (a writer taking the points as they come);
    stops early, with what was read, when ``state`` is cancelled."""
    from ..core.io.dataset_blocks import iter_blocks
    from .indexing import index

    index(ds, verify=False, state=state)
    if log is None:
        log = EventLog(run_names([f.path for f in ds.files]), scalars=scalars)
    wanted = np.arange(start, len(ds), dtype=np.int64)
    records = ds.undamaged(wanted)
    files, _ = ds.locate_many(records) if len(records) else (records, records)
    read, end = 0, len(ds)
    with state.phase("reading events", len(records)) as step:
        for positions, block in iter_blocks(ds, records, verify=True, reuse=True):
            if state.cancelled:
                end = start if not len(positions) else int(records[positions[0]])
                break
            if len(positions):
                log.add_block(records[positions], int(files[positions[0]]), block)
                if each_block is not None:
                    each_block(log)
            read += len(positions)
            step(read)
    damaged = len(wanted) - len(ds.undamaged(wanted))
    if damaged:
        from ..core.text import plural

        state.warn(
            f"{plural(damaged, 'damaged record')} left out (`tfr-viewer verify` names "
            "each with its file and offset)"
        )
    return ReadLog(log, damaged, end)
