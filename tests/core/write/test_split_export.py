"""An export whose work runs in processes here (the functions Beam runs): the files of
an export in this process, and nothing left behind when a worker fails."""

from __future__ import annotations

import os

import pytest

from tests.tf_oracle import tf_read, tf_write
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.split_pool import pool_each
from tfr_viewer.core.write import ExportError, ExportOptions
from tfr_viewer.core.write.export import export
from tfr_viewer.core.write.split_export import export_each, write_numbered


@pytest.fixture
def shards(tmp_path, monkeypatch) -> list[str]:
    monkeypatch.setenv("TFR_VIEWER_NO_CACHE", "1")
    paths = []
    for k in range(3):
        path = tmp_path / f"in-{k}.tfrecord"
        tf_write(path, [bytes([k, i]) * (50 + i) for i in range(40)])
        paths.append(str(path))
    return paths


def test_the_files_of_an_export_in_one_process(shards, tmp_path):
    with Dataset(shards) as ds:
        ds.index(verify=True)
        here = export(ds, range(len(ds)), ExportOptions(str(tmp_path / "here" / "o"), shards=2))
    with Dataset(shards) as ds:
        ds.index(verify=False)
        options = ExportOptions(str(tmp_path / "pool" / "o"), shards=2)
        pooled = export_each(ds, None, options, pool_each(2))
    assert [os.path.basename(f) for f in pooled.files] == [os.path.basename(f) for f in here.files]
    for a, b in zip(here.files, pooled.files, strict=True):
        assert tf_read(a) == tf_read(b)
    assert pooled.records == here.records == 120


def test_a_worker_that_fails_leaves_no_file(shards, tmp_path):
    """A source cut after the splits were checked: the worker writing from it says that
    the file changed, the error is raised here, and no output or temporary is left."""
    pool = pool_each(2)

    def each(fn, items):  # noqa: ANN001, ANN202
        if fn is write_numbered:
            os.truncate(shards[1], 100)
        return pool(fn, items)

    out = tmp_path / "out"
    out.mkdir()
    with Dataset(shards) as ds, pytest.raises(ExportError, match="in-1.tfrecord changed while"):
        ds.index(verify=False)
        export_each(ds, None, ExportOptions(str(out / "o"), shards=3), each)
    assert list(out.iterdir()) == []
