"""Statistics of splits merged in any order equal the local statistics of the whole
dataset, bit for bit, with damaged and empty files among TensorFlow-written ones."""

from __future__ import annotations

import copy
import json
import random

from tfr_viewer.core.analyze.stats import dataset_stats, split_stats
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.splits import plan_splits

NAMES = ("damaged.tfrecord", "empty.tfrecord", "small.tfrecord", "train-00001-of-00003")


def test_split_statistics_merge_to_the_local_ones_in_any_order(remote_root, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = [str(remote_root / n) for n in NAMES]
    with Dataset(paths) as ds:
        ds.index(verify=True)
        local = json.dumps(dataset_stats(ds).to_json(), sort_keys=True)
    with Dataset(paths) as ds:
        ds.index(verify=False)
        parts = [split_stats(s) for s in plan_splits(ds, max_records=450, max_bytes=4 << 20)]
    assert len(parts) > 8
    rng = random.Random(7)
    for _ in range(3):
        pool = [copy.deepcopy(p) for p in parts]
        while len(pool) > 1:  # a random merge tree, as a distributed combine makes
            a = pool.pop(rng.randrange(len(pool)))
            b = pool.pop(rng.randrange(len(pool)))
            pool.append(a.merge(b))
        assert json.dumps(pool[0].to_json(), sort_keys=True) == local
    assert json.loads(local)["files"] == len(NAMES)


def test_stats_jobs_gives_the_local_json(remote_root, tmp_path):
    """``stats --jobs 2`` (processes on this machine) prints what one process prints."""
    import os
    import subprocess
    import sys

    paths = [str(remote_root / n) for n in (*NAMES, "small.tfrecord.gz")]
    env = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}

    def run(*extra: str) -> str:
        out = subprocess.run(
            [sys.executable, "-m", "tfr_viewer", "stats", "--json", *extra, *paths],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert run("--jobs", "2") == run()
    refused = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "stats", "--jobs", "0", *paths],
        capture_output=True,
        text=True,
        env=env,
    )
    assert refused.returncode == 2 and "--jobs 0" in refused.stderr
    many = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "stats", "--jobs", "1000", *paths],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    cores = len(os.sched_getaffinity(0))
    assert many.returncode == 0, many.stderr
    if cores < 1000:  # said once, in one line; the statistics are the same
        assert f"--jobs 1000 runs {cores:,} process" in many.stderr
    assert run("--jobs", "1000") == run()


def test_stats_without_jobs_uses_the_cores_for_a_large_dataset(remote_root, monkeypatch, capsys):
    """From POOL_BYTES of local data on (here made tiny), ``stats`` runs on a process
    pool by itself, and prints what one process prints."""
    from tfr_viewer.cli import main
    from tfr_viewer.core.analyze import stats
    from tfr_viewer.core.io import split_pool

    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = [str(remote_root / n) for n in NAMES]
    assert main(["stats", "--json", *paths]) == 0
    alone = capsys.readouterr().out
    pooled: list[int] = []
    real = stats.pooled_stats
    monkeypatch.setattr(split_pool, "POOL_BYTES", 1)
    monkeypatch.setattr(
        stats, "pooled_stats", lambda ds, jobs, p=None: pooled.append(jobs) or real(ds, jobs, p)
    )
    assert main(["stats", "--json", *paths]) == 0
    assert capsys.readouterr().out == alone
    assert pooled == [split_pool.usable_jobs(1 << 16)] or split_pool.usable_jobs(1 << 16) == 1
