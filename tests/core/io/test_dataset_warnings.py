"""Dataset warnings are located facts (kind, where, what) that read as the text the
JSON outputs have always listed; they survive a trip to a worker process."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

from tests.tf_oracle import tf_write
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.dataset_warnings import DatasetWarning


def test_each_kind_of_warning_says_where_and_what(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    for k in (0, 2):
        tf_write(folder / f"train-{k:05d}-of-00004", [b"x%d" % k])
    tf_write(folder / "train-00003-of-00004", [])  # empty
    (folder / "stray-notes").write_bytes(b"\xff\xd8\xff\xe0 not a record")
    stray = tmp_path / "stray.bin"
    stray.write_bytes(b"\x07" * 64)
    with Dataset.open([str(folder), str(stray)]) as ds:
        ds.index()
        warnings = ds.file_warnings()
    by_kind = {w.kind: w for w in warnings}
    assert set(by_kind) == {"missing_shards", "left_out", "empty_file", "not_tfrecord"}
    assert by_kind["missing_shards"].where == str(folder / "train-NNNNN-of-00004")
    assert by_kind["missing_shards"].what.startswith("1 of 4 shards missing (00001)")
    assert by_kind["left_out"].where == str(folder) and "stray-notes" in by_kind["left_out"].what
    assert by_kind["empty_file"].about(str(folder / "train-00003-of-00004"))
    assert by_kind["not_tfrecord"].about(str(stray))
    assert not by_kind["missing_shards"].about(str(folder / "train-00000-of-00004"))
    for w in warnings:
        assert w == f"{w.where}: {w.what}"  # the text is made of its parts

    # the command line lists the same texts
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "count", "--json", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    listed = [str(w) for w in warnings if w.kind != "not_tfrecord"]
    assert json.loads(run.stdout)["warnings"] == listed


def test_a_warning_keeps_its_parts_through_pickle():
    w = DatasetWarning("empty_file", "/data/a.tfrecord", "is empty (0 records)")
    back = pickle.loads(pickle.dumps(w))
    assert (back.kind, back.where, back.what) == (w.kind, w.where, w.what)
    assert back == "/data/a.tfrecord: is empty (0 records)" and isinstance(back, DatasetWarning)
