"""Work on a dataset's splits (:mod:`.splits`) in a pool of processes on this machine:
the local counterpart of a Beam job, for work that a single process cannot spread over
the cores. Processes are spawned (not forked), so no thread or open file of the caller
leaks into them."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any, TypeVar

from ..user_error import UserError

T = TypeVar("T")


Each = Callable[[Callable[[Any], Any], Sequence[Any]], Iterable[Any]]
"""``each(fn, items)``: ``fn(item)`` of every item, somewhere, in any order: the work of
a command's splits, tasks or batches, given to a pool of processes here
(:func:`pool_each`), or to a Beam pipeline (``tfr_viewer.beam.pipeline.beam_each``).
``fn`` is a module-level function and the items pickle."""


class WorkerLost(UserError):
    """A worker process of ``--jobs`` ended without finishing its work."""


# a module-level function and its arguments, run first in each worker process
Setup = tuple[Callable[..., None], tuple[Any, ...]]


def _weight(item: Any) -> int:
    """An item's share of the work: its records (or images), from ``len``."""
    try:
        return len(item)
    except TypeError:
        return 1


def batches(refs: Sequence[T], count: int) -> list[list[T]]:
    """``refs`` dealt into at most ``count`` batches of about equal work (largest
    first, each to the lightest batch so far; an item's work is its ``len``)."""
    out: list[list[T]] = [[] for _ in range(max(1, min(count, len(refs))))]
    load = [0] * len(out)
    for ref in sorted(refs, key=lambda r: -_weight(r)):
        lightest = load.index(min(load))
        out[lightest].append(ref)
        load[lightest] += _weight(ref) + 1
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


def _each_of(fn: Callable[[Any], Any], batch: list[Any]) -> list[Any]:
    return [fn(item) for item in batch]


def pool_each(
    jobs: int, progress: Callable[[int, int], None] | None = None, setup: Setup | None = None
) -> Each:
    """An :data:`Each` that runs on ``jobs`` processes of this machine (``progress`` in
    items), each set up by ``setup`` first (see :func:`map_splits`)."""

    def each(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
        out: list[Any] = []
        for found in map_splits(items, partial(_each_of, fn), jobs, progress, setup):
            out.extend(found)
        return out

    return each


def map_splits(
    refs: Sequence[Any],
    work: Callable[[list[Any]], T],
    jobs: int,
    progress: Callable[[int, int], None] | None = None,
    setup: Setup | None = None,
) -> Iterator[T]:
    """``work(batch)`` for batches of the splits (a few per process, so results
    travel back a few times rather than once per split), in the order they finish,
    computed by ``jobs`` processes (``work`` must be a module-level function), each of
    which first calls ``setup``'s function with its arguments (how the dataset's
    records are read there: a message type the user gave). A worker's exception is
    raised here, and the batches not started yet are cancelled. ``progress(done,
    total)`` counts splits."""
    import multiprocessing  # here: a command that runs no pool does not pay for it
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    jobs = usable_jobs(jobs)
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_worker_start, initargs=(setup,)
    )
    finished = False
    try:
        with _interrupts_ignored():  # the workers start (and stay) deaf to Ctrl+C
            futures = {pool.submit(work, batch): batch for batch in batches(refs, 2 * jobs)}
        done = 0
        try:
            for future in as_completed(futures):
                yield future.result()
                done += len(futures[future])
                if progress is not None:
                    progress(done, len(refs))
        except BrokenProcessPool:
            raise WorkerLost(
                "a worker process ended before its work was done (killed by a signal, or "
                "out of memory); nothing was written: run the command again, or without "
                "--jobs"
            ) from None
        finished = True
    finally:
        # a signal, an error or a caller that stopped early: the workers are ended now,
        # not once their batches end (the whole run, for a big split)
        processes = list((getattr(pool, "_processes", None) or {}).values())
        if not finished:
            for process in processes:
                _end(process)
        # waited for even then: the pool's own thread, left running past a worker that
        # died, would use its closed pipes as the interpreter ends (and print a traceback)
        pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """SIGINT ignored while the workers are started: a process started so keeps it
    ignored from its first instruction (Python leaves an ignored SIGINT alone), so a
    Ctrl+C while a worker is still importing cannot print its traceback. The command
    hears Ctrl+C again once they are started, and hears one that came meanwhile too:
    SIGINT is also blocked meanwhile, and a blocked signal is kept pending, not
    discarded, until it is unblocked (after the handler is back)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    masks = hasattr(signal, "pthread_sigmask")
    if masks:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:  # (None: a handler not set from Python, which cannot be put back)
        signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)
        if masks:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _worker_start(setup: Setup | None = None) -> None:
    """A worker leaves Ctrl+C to the command, which ends every worker and says so
    once (each would print its own traceback); then ``setup`` runs."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        setup[0](*setup[1])


def _end(process: Any) -> None:
    try:
        if process.is_alive():
            process.terminate()
    except (OSError, ValueError, AttributeError):
        pass
