"""The tables of a log folder (scalars, histograms, hyperparameters) against
TensorBoard's own loader keeping every point: every run, tag and point, value for
value, for TensorFlow 2's ``tf.summary`` files and TensorFlow 1's ``Summary`` protos
in one log folder; written as CSV, JSON, JSON lines and Parquet through the output
layer, and read back the same."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from tests.summary_files import (
    tensorboard_log,
    tensorboard_tensors,
    write_summaries,
    write_tf1_summaries,
)
from tests.tf_oracle import tf
from tfr_viewer.app.event_tables import TableRequest
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.user_error import UserError


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("logs")
    write_summaries(root / "tf2" / "train", steps=12)
    write_summaries(root / "tf2" / "train" / "validation", steps=4)
    write_tf1_summaries(root / "tf1" / "events.out.tfevents.10.host", steps=9)
    return root


def _table(logdir, name):
    with Dataset.open([str(logdir)]) as ds:
        return TableRequest(name).run(ds).table.to_pandas()


def test_every_scalar_point_of_every_run_and_tag_as_tensorboard_reads_it(logdir):
    ours = _table(logdir, "scalars")
    expected = {
        key: [(e.step, e.wall_time, float(tf().make_ndarray(e.tensor_proto))) for e in events]
        for key, events in tensorboard_tensors(logdir, "scalars").items()
    }
    got: dict = {}
    for row in ours.itertuples():
        got.setdefault((row.run, row.tag), []).append((row.step, row.wall_time, row.value))
    assert got == expected
    assert set(got) == {
        ("tf2/train", "loss"),
        ("tf2/train/validation", "loss"),
        ("tf1", "lr"),
        ("tf1", "acc"),
    }


def test_every_histogram_bucket_as_tensorboard_reads_it(logdir):
    ours = _table(logdir, "histograms")
    expected = tensorboard_tensors(logdir, "histograms")
    assert {(r, t) for r, t in zip(ours.run, ours.tag, strict=True)} == set(expected)
    for (run, tag), events in expected.items():
        mine = ours[(ours.run == run) & (ours.tag == tag)]
        assert sorted(set(mine.step)) == [e.step for e in events]
        for e in events:
            buckets = mine[mine.step == e.step][["left", "right", "count"]].to_numpy()
            theirs = tf().make_ndarray(e.tensor_proto)
            # TensorBoard keeps TensorFlow 1's buckets as float32; TensorFlow 2's as written
            np.testing.assert_array_equal(buckets.astype(theirs.dtype), theirs)
            assert set(mine[mine.step == e.step].wall_time) == {e.wall_time}


def test_each_runs_hyperparameters_and_metrics(logdir):
    from tensorboard.plugins.hparams import plugin_data_pb2

    ours = _table(logdir, "hparams").set_index("run")
    loader = tensorboard_log(logdir)
    runs = [
        r for r, tags in loader.Runs().items() if "_hparams_/session_start_info" in tags["tensors"]
    ]
    assert sorted(ours.index) == sorted(runs)
    for run in runs:
        content = loader.SummaryMetadata(run, "_hparams_/session_start_info").plugin_data.content
        start = plugin_data_pb2.HParamsPluginData.FromString(content).session_start_info
        for name, value in start.hparams.items():
            kind = value.WhichOneof("kind")
            assert ours.loc[run, name] == getattr(value, kind)
    last = tensorboard_tensors(logdir, "scalars")[("tf2/train", "loss")][-1]
    assert ours.loc["tf2/train", "loss"] == float(tf().make_ndarray(last.tensor_proto))
    below = tensorboard_tensors(logdir, "scalars")[("tf2/train/validation", "loss")][-1]
    assert ours.loc["tf2/train", "validation/loss"] == float(tf().make_ndarray(below.tensor_proto))


@pytest.mark.parametrize("suffix", [".csv", ".json", ".jsonl", ".parquet"])
def test_a_written_table_reads_back_as_the_table(logdir, tmp_path, suffix):
    target = tmp_path / f"scalars{suffix}"
    with Dataset.open([str(logdir)]) as ds:
        report = TableRequest("scalars", str(target)).run(ds)
        expected = TableRequest("scalars").run(ds).table.to_pandas()
    if suffix == ".csv":
        back = pd.read_csv(target)
    elif suffix == ".json":
        back = pd.DataFrame(json.loads(target.read_text()))
    elif suffix == ".jsonl":
        back = pd.read_json(target, lines=True, dtype=False, precise_float=True)
    else:
        back = pd.read_parquet(target)
    assert report.rows == len(expected) == len(back) > 0
    assert list(back.columns) == ["run", "tag", "step", "wall_time", "value", "record"]
    for column in back.columns:
        assert back[column].tolist() == expected[column].tolist(), column


def test_no_table_replaces_a_file_or_an_input(logdir, tmp_path):
    target = tmp_path / "s.csv"
    target.write_text("mine")
    with Dataset.open([str(logdir)]) as ds:
        with pytest.raises(UserError, match="exists"):
            TableRequest("scalars", str(target)).run(ds)
        source = ds.files[0].path
        link = tmp_path / "events.csv"  # the event file itself, by another name
        link.symlink_to(source)
        before = open(source, "rb").read()
        with pytest.raises(UserError, match="read"):
            TableRequest("scalars", str(link), overwrite=True).run(ds)
    assert target.read_text() == "mine"
    assert open(source, "rb").read() == before
    with pytest.raises(UserError, match=r"\.csv, \.json"):
        TableRequest("scalars", str(tmp_path / "s.xlsx"))
    with pytest.raises(UserError, match="no table"):
        TableRequest("images")
