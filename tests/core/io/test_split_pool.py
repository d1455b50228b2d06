"""A pool of processes over splits: batches balanced by records, every split in one
batch, and a worker's error raised in the caller with its message."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from tfr_viewer.core.io.split_pool import batches, map_splits, pool_each
from tfr_viewer.core.io.splits import SplitRef


def _refs(counts: list[int]) -> list[SplitRef]:
    return [SplitRef(i, f"f{i}", 0, n, 0, 0) for i, n in enumerate(counts)]


def test_batches_hold_every_split_once_and_balance_records():
    refs = _refs([100, 90, 10, 10, 10, 50, 40, 0])
    out = batches(refs, 3)
    assert len(out) == 3
    assert sorted(r.file_number for b in out for r in b) == list(range(len(refs)))
    loads = [sum(r.count for r in b) for b in out]
    assert max(loads) - min(loads) <= 20, loads
    assert batches(refs[:2], 8) == [[refs[0]], [refs[1]]]  # no empty batch


def _records(refs: list[SplitRef]) -> int:
    return sum(r.count for r in refs)


def _fail(refs: list[SplitRef]) -> int:
    raise ValueError(f"cannot read {refs[0].path}")


def test_map_splits_sums_in_processes_and_raises_a_workers_error():
    refs = _refs([5, 7, 11, 13])
    seen: list[tuple[int, int]] = []
    total = sum(map_splits(refs, _records, 2, lambda d, t: seen.append((d, t))))
    assert total == 36
    assert seen[-1] == (4, 4)
    with pytest.raises(ValueError, match="cannot read f"):
        list(map_splits(refs, _fail, 2))


def test_more_jobs_than_cores_start_one_process_a_core(monkeypatch):
    import concurrent.futures
    import os

    from tfr_viewer.core.io import split_pool

    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    def counting(workers: int, **kw):
        started.append(workers)
        return real(workers, **kw)

    # the pool module imports it when it starts a pool
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", counting)
    refs = _refs([5] * 40)
    assert sum(map_splits(refs, _records, 1000)) == 200
    assert started == [min(1000, len(os.sched_getaffinity(0)))]
    assert split_pool.usable_jobs(0) == 1


def _double(n: int) -> int:
    return 2 * n


def _refuse(n: int) -> int:
    raise ValueError(f"item {n} refused")


def test_pool_each_gives_every_items_result_once_and_raises_a_workers_error():
    seen: list[tuple[int, int]] = []
    each = pool_each(2, lambda d, t: seen.append((d, t)))
    assert sorted(each(_double, list(range(25)))) == [2 * n for n in range(25)]
    assert seen[-1] == (25, 25)
    with pytest.raises(ValueError, match="item \\d+ refused"):
        pool_each(2)(_refuse, [1, 2, 3])


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks")
def test_a_ctrl_c_while_workers_start_is_heard_once_they_are_started():
    """The workers start deaf to Ctrl+C; a Ctrl+C that comes meanwhile is kept and
    heard by the command as soon as they are started, never lost (the command would
    run to its end)."""
    code = (
        "import os, signal, subprocess, sys, time\n"
        "from tfr_viewer.core.io.split_pool import _interrupts_ignored\n"
        "try:\n"
        "    with _interrupts_ignored():\n"
        "        child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3)'])\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "        os.kill(child.pid, signal.SIGINT)\n"
        "        time.sleep(0.1)\n"
        "        print('deaf while starting', flush=True)\n"
        "    time.sleep(30)\n"
        "    print('never heard')\n"
        "except KeyboardInterrupt:\n"
        "    print('heard after', child.wait(), flush=True)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == ["deaf while starting", "heard after 0"], done.stderr
