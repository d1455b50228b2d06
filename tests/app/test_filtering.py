"""A filter runs one way: the command line's ``list --filter`` and ``count --filter``,
the Python API's ``filter``, the window's request in its child (told block by block)
and in a thread all give the records the filter's meaning picks, read from the records
as they were written; a mistake is one ``Failed`` in the child."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import tfr_viewer as tfv
from tests.child_jobs import collect
from tfr_viewer.app.filtering import FilterRequest, matches
from tfr_viewer.app.jobs import operation_task
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.task_messages import Done, Failed, Partial, Phase, Progress
from tfr_viewer.core.write.build import build_example

LABELS = [i % 5 for i in range(120)]
WANTED = [i for i, label in enumerate(LABELS) if label == 3]


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    folder = tmp_path_factory.mktemp("filtering")
    paths = []
    for k, part in enumerate((LABELS[:70], LABELS[70:])):
        path = folder / f"f-0000{k}-of-00002.tfrecord"
        first = 0 if k == 0 else 70
        path.write_bytes(
            b"".join(
                encode_frame(build_example({"label": label, "id": first + i}))
                for i, label in enumerate(part)
            )
        )
        paths.append(str(path))
    return paths


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={"TFR_VIEWER_NO_CACHE": "1", "PATH": ""},
    )


def test_every_front_end_picks_the_same_records(shards):
    listed = _cli("list", "--json", "--filter", "label == 3", *shards)
    assert listed.returncode == 0, listed.stderr
    cli = [json.loads(line)["index"] for line in listed.stdout.splitlines()]
    counted = _cli("count", "--json", "--filter", "label == 3", *shards)
    api = tfv.open(shards).filter("label == 3")
    with Dataset(shards) as ds:
        ds.index()
        window = FilterRequest("label == 3").run(ds).records.tolist()
        messages = collect(
            operation_task, (shards, ds.columns(), FilterRequest("label == 3"), None)
        )
    assert cli == window == WANTED
    assert json.loads(counted.stdout)["count"] == len(WANTED)
    assert api.records.tolist() == WANTED
    assert [r.features["id"].tolist() for r in api] == [[i] for i in WANTED]
    done = messages[-1]
    assert isinstance(done, Done) and done.result.records.tolist() == WANTED
    parts = [m.result for m in messages if isinstance(m, Partial)]
    assert np.concatenate(parts).tolist() == WANTED
    assert any(isinstance(m, Phase) for m in messages)
    assert [m for m in messages if isinstance(m, Progress)][-1] == Progress(120, 120)


def test_a_filter_on_features_indexes_a_dataset_first(shards):
    with Dataset(shards) as ds:  # never indexed: the meaning of a key is the whole set's
        found = [m.records for m in matches(ds, "label == 3 and id > 60")]
        assert np.concatenate(found).tolist() == [i for i in WANTED if i > 60]
        assert all(f.index.complete and f.index.verified for f in ds.files)


def test_edited_payloads_are_filtered_instead_of_the_files(shards):
    edited = {0: build_example({"label": 3, "id": 0})}  # record 0 relabelled 0 -> 3
    with Dataset(shards) as ds:
        ds.index()
        report = FilterRequest("label == 3", edited).run(ds)
    assert report.records.tolist() == [0, *WANTED]


def test_a_mistake_in_the_filter_is_one_failure(shards):
    with Dataset(shards) as ds:
        ds.index()
        columns = ds.columns()
    messages = collect(operation_task, (shards, columns, FilterRequest("label ="), None))
    failed = messages[-1]
    assert isinstance(failed, Failed) and failed.kind == "input"
    unknown = collect(operation_task, (shards, columns, FilterRequest("colour == 3"), None))
    assert isinstance(unknown[-1], Failed) and "colour" in unknown[-1].message


def test_a_dataset_still_indexed_is_filtered_as_far_as_it_is_indexed(shards, monkeypatch):
    """The window filters while its indexer works on its own thread: the records found
    so far are filtered, and the filter never scans the dataset itself."""
    with Dataset(shards) as ds:
        for _number, _chunk in ds.scan(verify=True):
            break  # the first file's first records are indexed, the second file not yet
        found_so_far = len(ds.files[0].index)
        assert found_so_far and not ds.files[1].index.complete

        def scanned(*_args, **_kwargs):
            raise AssertionError("a filter of the window scanned the dataset")

        monkeypatch.setattr(ds, "scan", scanned)
        report = FilterRequest("label == 3 and id >= 0", as_indexed=True).run(ds)
    assert report.records.tolist() == [i for i in WANTED if i < found_so_far]
