"""One read of event files: every scalar point past TensorBoard's default reservoir,
as TensorBoard's own loader keeping everything reads them; each tag's points, steps
and bytes; the bytes of each kind of event adding up to the files'."""

from __future__ import annotations

import os

import numpy as np

from tests.summary_files import tensorboard_tensors, write_tf1_summaries
from tests.tf_oracle import tf
from tfr_viewer.core.analyze.event_log import OTHER, EventLog
from tfr_viewer.core.io import Dataset


def _log(paths, runs=None) -> EventLog:
    with Dataset(paths) as ds:
        ds.index(verify=True)
        log = EventLog(runs or ["."] * len(paths))
        for r in range(len(ds)):
            log.add(r, ds.locate(r)[0], ds.read(r))
    return log


def test_every_point_past_the_reservoir_as_tensorboard_reads_them(tmp_path):
    t = tf()
    writer = t.summary.create_file_writer(str(tmp_path))
    rng = np.random.default_rng(1)
    with writer.as_default():
        for step in range(1_500):  # past the 1,000 points TensorBoard keeps by default
            t.summary.scalar("loss", float(rng.random()), step=step)
            if step % 3 == 0:
                t.summary.scalar("eval/accuracy", step / 1_500, step=step)
    writer.close()
    paths = [str(p) for p in tmp_path.glob("events.out.tfevents.*")]
    log = _log(paths)
    s, cols = log.scalars, log.scalars.arrays()
    got: dict = {}
    for tag, step, wall, value in zip(
        cols["tag"], cols["step"], cols["wall_time"], cols["value"], strict=True
    ):
        got.setdefault((".", s.tags[tag]), []).append((step, wall, value))
    expected = {
        key: [(e.step, e.wall_time, float(t.make_ndarray(e.tensor_proto))) for e in events]
        for key, events in tensorboard_tensors(tmp_path, "scalars").items()
    }
    assert got == expected
    assert len(got[(".", "loss")]) == 1_500 and len(got[(".", "eval/accuracy")]) == 500
    loss = log.tags[(".", "loss")]
    assert (loss.plugin, loss.points, loss.first_step, loss.last_step) == (
        "scalars",
        1_500,
        0,
        1_499,
    )


def test_the_bytes_of_tags_and_kinds_add_up_to_the_files(tmp_path):
    path = write_tf1_summaries(tmp_path / "events.out.tfevents.5.host", steps=6)
    log = _log([str(path)])
    assert round(log.total_bytes()) == os.path.getsize(path)
    kinds = {kind: counts for (_, kind), counts in log.kinds.items()}
    assert kinds["summary"][0] == 6 and kinds["graph_def"][0] == 1
    assert {"file_version", "session_log"} <= set(kinds) and OTHER not in kinds
    summary_bytes = sum(e.bytes for e in log.tags.values())
    assert abs(summary_bytes - kinds["summary"][1]) < 1e-6
    assert {e.tag: e.plugin for e in log.tags.values()} == {
        "lr": "scalars",
        "acc": "scalars",
        "dist": "histograms",
    }
    # a histogram takes more room than a scalar in the same events
    assert log.tags[(".", "dist")].bytes > 3 * log.tags[(".", "lr")].bytes
