"""Every scalar point of event files as TensorBoard's own loader reads them, with
nothing sampled: TensorFlow 2's scalars (``tf.summary.scalar``, tensors of the scalars
plugin) and TensorFlow 1's (``simple_value``), more points than TensorBoard's default
reservoir keeps."""

from __future__ import annotations

import numpy as np

from tests.tf_oracle import tf
from tfr_viewer.core.analyze.event_scalars import scalar_points
from tfr_viewer.core.io import Dataset


def _tensorboard(folder) -> dict[str, list[tuple[int, float, float]]]:
    """Every scalar of the run in ``folder`` as TensorBoard loads it, keeping all."""
    from tensorboard.backend.event_processing.plugin_event_accumulator import (
        EventAccumulator,
    )

    loader = EventAccumulator(str(folder), size_guidance={"tensors": 0})
    loader.Reload()
    out = {}
    for tag in loader.Tags()["tensors"]:
        events = loader.Tensors(tag)
        if loader.SummaryMetadata(tag).plugin_data.plugin_name != "scalars":
            continue
        out[tag] = [(e.step, e.wall_time, float(tf().make_ndarray(e.tensor_proto))) for e in events]
    return out


def _ours(folder) -> dict[str, list[tuple[int, float, float]]]:
    paths = [str(p) for p in sorted(folder.glob("events.out.tfevents.*"))]
    with Dataset(paths) as ds:
        ds.index(verify=True)
        points = scalar_points((r, ds.read(r)) for r in range(len(ds)))
    out: dict[str, list[tuple[int, float, float]]] = {}
    for p in points:
        out.setdefault(p.tag, []).append((p.step, p.wall_time, p.value))
    return out


def test_every_point_of_tensorflow_2_scalars_as_tensorboard_reads_them(tmp_path):
    t = tf()
    writer = t.summary.create_file_writer(str(tmp_path))
    rng = np.random.default_rng(1)
    with writer.as_default():
        for step in range(1_500):  # past the 1,000 points TensorBoard keeps by default
            t.summary.scalar("loss", float(rng.random()), step=step)
            if step % 3 == 0:
                t.summary.scalar("eval/accuracy", step / 1_500, step=step)
        t.summary.histogram("weights", rng.normal(size=50), step=0)  # no scalar
    writer.close()
    ours = _ours(tmp_path)
    assert ours == _tensorboard(tmp_path)
    assert len(ours["loss"]) == 1_500 and len(ours["eval/accuracy"]) == 500


def test_tensorflow_1_simple_values_as_tensorboard_reads_them(tmp_path):
    t = tf()
    summary = t.compat.v1.Summary
    with t.io.TFRecordWriter(str(tmp_path / "events.out.tfevents.1.host")) as out:
        version = t.compat.v1.Event(wall_time=1.0, file_version="brain.Event:2")
        out.write(version.SerializeToString())
        for step in range(20):
            values = [summary.Value(tag="lr", simple_value=0.1 / (step + 1))]
            event = t.compat.v1.Event(
                wall_time=2.0 + step, step=step, summary=summary(value=values)
            )
            out.write(event.SerializeToString())
    ours = _ours(tmp_path)
    assert ours == _tensorboard(tmp_path)
    assert [s for s, _, _ in ours["lr"]] == list(range(20))
