"""An export whose work is spread by an :data:`~..io.split_pool.Each`: processes on this
machine (``export --jobs``) or a Beam pipeline (``export --runner``). The splits are
checked and filtered where the work runs, then each output file is written and verified
there, and the command moves them into place: the same files as :func:`.export.export`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial

import numpy as np

from ..io import Dataset
from ..io.split_pool import Each
from ..io.splits import apply_statuses, mark_verified, plan_refs
from ..query.filtering import select_ref
from .export import (
    ExportOptions,
    ExportSummary,
    FileTask,
    commit,
    discard,
    plan_export,
    summary_of,
    write_task,
)


def write_numbered(task: FileTask) -> tuple[int, int]:
    """``(task number, bytes written)`` of :func:`write_task`."""
    return task.number, write_task(task)


def export_each(
    ds: Dataset,
    expression: str | None,
    options: ExportOptions,
    each: Each,
    records: Sequence[int] | None = None,
) -> ExportSummary:
    """Export the records of a header-indexed ``ds`` that match ``expression`` (or the
    given ``records``) as :func:`export` does, the work given to ``each`` (processes
    here, or a Beam pipeline): first the splits are checked and filtered, then each
    output is written and verified under a temporary name; the outputs are moved into
    place when all are written, and removed otherwise. Targets may be URLs."""
    t0 = time.perf_counter()
    chosen = {}
    for key, statuses, picked in each(partial(select_ref, expression=expression), plan_refs(ds)):
        apply_statuses(ds, key, statuses)
        chosen[key] = picked
    mark_verified(ds)
    if records is None:
        parts = [chosen[key] for key in sorted(chosen)]
        wanted: Sequence[int] | np.ndarray = (
            np.concatenate(parts) if parts else np.zeros(0, np.int64)
        )
    else:
        wanted = records
    ep = plan_export(ds, wanted, options, remote=True)
    try:
        written = dict(each(write_numbered, ep.tasks)) if ep.tasks else {}
        commit(ep)
    except BaseException:
        discard(ep)
        raise
    return summary_of(ep, sum(written.values()), t0)
