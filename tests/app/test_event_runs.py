"""Why an event file is as big as it is: each run's tags with their points and steps
as TensorBoard's loader counts them, the bytes of tags, plugins and kinds of event
adding up to the files', in ``runs`` and in ``info --json``."""

from __future__ import annotations

import json
import os

import pytest

import tfr_viewer as tfv
from tests.program import program
from tests.summary_files import tensorboard_log, write_summaries, write_tf1_summaries
from tests.tf_oracle import tf
from tfr_viewer.app.event_runs import RunsRequest
from tfr_viewer.core.io import Dataset


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("logs")
    write_summaries(root / "train", steps=8)
    # a graph far larger than the summaries
    write_tf1_summaries(root / "old" / "events.out.tfevents.1.host", steps=5, graph_nodes=400)
    return root


def _report(logdir):
    with Dataset.open([str(logdir)]) as ds:
        return RunsRequest().run(ds)


def test_each_runs_tags_and_points_as_tensorboard_counts_them(logdir):
    report = _report(logdir)
    loader = tensorboard_log(logdir)
    assert [r.name for r in report.runs] == sorted(loader.Runs())
    for run in report.runs:
        theirs = {
            tag: loader.Tensors(run.name, tag)
            for tag in loader.Runs()[run.name]["tensors"]
            if tag != "__run_graph__"  # TensorBoard's name for the graph, no summary
        }
        assert {t.tag: t.points for t in run.tags} == {tag: len(e) for tag, e in theirs.items()}
        for t in run.tags:
            steps = [e.step for e in theirs[t.tag]]
            assert (t.first_step, t.last_step) == (steps[0], steps[-1])
            plugin = loader.SummaryMetadata(run.name, t.tag).plugin_data.plugin_name
            assert t.plugin == plugin


def test_the_bytes_add_up_to_the_files_and_the_largest_comes_first(logdir):
    report = _report(logdir)
    sizes = {
        os.path.basename(os.path.dirname(p)): os.path.getsize(p)
        for p in logdir.rglob("events.out.tfevents.*")
    }
    assert report.bytes == sum(sizes.values())
    for run in report.runs:
        assert run.bytes == sizes[run.name]
        assert sum(k.bytes for k in run.kinds) == run.bytes
        summary = next(k for k in run.kinds if k.name == "summary")
        assert abs(sum(t.bytes for t in run.tags) - summary.bytes) < 1e-6
        assert abs(sum(p.bytes for p in run.plugins) - summary.bytes) <= len(run.plugins)
        assert [k.bytes for k in run.kinds] == sorted((k.bytes for k in run.kinds), reverse=True)
    old = next(r for r in report.runs if r.name == "old")
    assert old.kinds[0].name == "graph_def" and old.kinds[0].count == 1
    shares = sum(k.share for r in report.runs for k in r.kinds)
    assert abs(shares - 1.0) < 1e-9


def test_info_json_of_event_files_says_their_runs_as_runs_does(logdir, tmp_path):
    done = program("info", str(logdir), "--json")
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    runs = program("runs", str(logdir), "--json")
    assert said["events"] == json.loads(runs.stdout)
    with tfv.open(str(logdir)) as view:
        assert view.analyze("runs").to_json() == said["events"]
    text = program("info", str(logdir)).stdout
    assert "run old:" in text and "graph_def" in text
    other = tmp_path / "data.tfrecord"
    tf().io.TFRecordWriter(str(other)).close()
    with tf().io.TFRecordWriter(str(other)) as w:
        w.write(b"x")
    assert "events" not in json.loads(program("info", str(other), "--json").stdout)
