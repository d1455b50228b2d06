"""``check`` by processes on this machine gives the findings of one process, with the
splits checked by the survey of the whole dataset and their statuses settled."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.planted_faults import clean_record, example_of, planted_dataset
from tests.tf_oracle import tf_write
from tfr_viewer.core.analyze.checks import check_dataset
from tfr_viewer.core.analyze.split_check import check_each
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.split_pool import pool_each


def _files(folder) -> list[str]:
    """A shard whose image key never holds a picture (checked alone, it is no image
    key), a shard with one planted fault per record (a damaged one among them) and an
    empty shard."""
    no_pictures = []
    for i in range(4):
        record = clean_record(i)
        record["image/encoded"] = [b"not a picture at all"]
        no_pictures.append(example_of(record))
    first = tf_write(folder / "part-0.tfrecord", no_pictures)
    planted = folder / "part-1.tfrecord"
    planted_dataset(planted)
    empty = folder / "part-2.tfrecord"
    empty.write_bytes(b"")
    return [str(first), str(planted), str(empty)]


def test_pooled_findings_and_statuses_are_those_of_one_process(tmp_path, monkeypatch):
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = _files(tmp_path)
    with Dataset(paths) as ds:
        ds.index(verify=False)
        want = [f.to_json() for f in check_dataset(ds)]
        statuses = [f.index.statuses().tolist() for f in ds.files]
    undecodable = {f["record"] for f in want if f["kind"] == "image_undecodable"}
    assert {0, 1, 2, 3} <= undecodable  # the first shard, by the dataset's survey
    with Dataset(paths) as ds:
        ds.index(verify=False)
        assert [f.to_json() for f in check_each(ds, pool_each(2))] == want
        assert [f.index.statuses().tolist() for f in ds.files] == statuses
        assert all(f.index.verified for f in ds.files)


def test_check_jobs_prints_what_one_process_prints(tmp_path):
    paths = _files(tmp_path)
    env = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}

    def run(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "tfr_viewer", "check", "--json", *extra, *paths],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )

    one, two = run("--jobs", "1"), run("--jobs", "2")
    assert one.returncode == two.returncode == 1, one.stderr + two.stderr
    assert two.stdout == one.stdout
    refused = run("--jobs", "0")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "--jobs 0" in refused.stderr
