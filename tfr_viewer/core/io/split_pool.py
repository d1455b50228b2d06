"""Work on a dataset's splits (:mod:`.splits`) in a pool of processes on this machine:
the local counterpart of a Beam job, for work that a single process cannot spread over
the cores. Processes are spawned (not forked), so no thread or open file of the caller
leaks into them."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import TypeVar

from .splits import SplitRef

T = TypeVar("T")


def batches(refs: Sequence[SplitRef], count: int) -> list[list[SplitRef]]:
    """``refs`` dealt into at most ``count`` batches of about equal records (largest
    first, each to the lightest batch so far)."""
    out: list[list[SplitRef]] = [[] for _ in range(max(1, min(count, len(refs))))]
    load = [0] * len(out)
    for ref in sorted(refs, key=lambda r: -r.count):
        lightest = load.index(min(load))
        out[lightest].append(ref)
        load[lightest] += ref.count + 1
    return [b for b in out if b]


def usable_jobs(jobs: int) -> int:
    """``jobs`` clamped to 1 .. the cores this process may use: more processes than
    cores only cost memory and start-up time."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(jobs, cores))


POOL_BYTES = 1 << 30  # from this many bytes on, a command without --jobs uses every core


def default_jobs(nbytes: int) -> int:
    """The processes a command uses without ``--jobs``: one per core for a dataset of
    :data:`POOL_BYTES` or more (starting a pool then costs far less than the work), one
    below. Results do not depend on it."""
    return usable_jobs(1 << 16) if nbytes >= POOL_BYTES else 1


def map_splits(
    refs: Sequence[SplitRef],
    work: Callable[[list[SplitRef]], T],
    jobs: int,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[T]:
    """``work(batch)`` for batches of the splits (a few per process, so results
    travel back a few times rather than once per split), in the order they finish,
    computed by ``jobs`` processes (``work`` must be a module-level function). A
    worker's exception is raised here, and the batches not started yet are cancelled.
    ``progress(done, total)`` counts splits."""
    jobs = usable_jobs(jobs)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context) as pool:
        futures = {pool.submit(work, batch): batch for batch in batches(refs, 2 * jobs)}
        done = 0
        try:
            for future in as_completed(futures):
                yield future.result()
                done += len(futures[future])
                if progress is not None:
                    progress(done, len(refs))
        finally:
            for future in futures:
                future.cancel()
