"""TensorBoard event files as their writers make them (``tf.summary`` for TensorFlow
2's scalars, images, histograms, text and hyperparameters; ``Summary`` protos written
with ``TFRecordWriter`` for TensorFlow 1's), and TensorBoard's own loader of a log
folder, keeping everything, as the oracle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.tf_oracle import tf


def write_summaries(folder: Path, steps: int = 5) -> Path:
    """The one event file ``tf.summary`` writes into ``folder``."""
    import numpy as np
    from tensorboard.plugins.hparams import api as hp

    t = tf()
    writer = t.summary.create_file_writer(str(folder))
    rng = np.random.default_rng(3)
    with writer.as_default():
        hp.hparams({"learning_rate": 0.01, "optimizer": "adam"})
        for step in range(steps):
            t.summary.scalar("loss", 1.0 / (step + 1), step=step)
            t.summary.histogram("weights", rng.normal(size=100), step=step)
            t.summary.text("note", f"step {step}", step=step)
        t.summary.image("samples", rng.random((2, 16, 12, 3)), step=0, max_outputs=2)
    writer.close()
    (path,) = folder.glob("events.out.tfevents.*")
    return path


def write_tf1_summaries(
    path: Path, steps: int = 5, start: float = 1.0, graph_nodes: int = 1
) -> Path:
    """An event file as TensorFlow 1 wrote them: a file version, a graph of
    ``graph_nodes`` nodes, then a summary of two ``simple_value``s and a
    ``HistogramProto`` (empty buckets at both ends) a step, and a session log."""
    t = tf()
    summary = t.compat.v1.Summary
    path.parent.mkdir(parents=True, exist_ok=True)
    with t.io.TFRecordWriter(str(path)) as out:
        out.write(
            t.compat.v1.Event(wall_time=start, file_version="brain.Event:2").SerializeToString()
        )
        graph = t.compat.v1.GraphDef()
        for i in range(graph_nodes):
            graph.node.add(name=f"layer_{i}/kernel", op="VariableV2")
        out.write(
            t.compat.v1.Event(
                wall_time=start, graph_def=graph.SerializeToString()
            ).SerializeToString()
        )
        for step in range(steps):
            histo = t.compat.v1.HistogramProto(
                min=-1.0 - step,
                max=2.0 + step,
                num=6,
                sum=3.0,
                sum_squares=9.0,
                bucket_limit=[-5.0, 0.0, 1.0, 4.0, 1e300],
                bucket=[0.0, 2.0, 3.0, 1.0, 0.0],
            )
            values = [
                summary.Value(tag="lr", simple_value=0.1 / (step + 1)),
                summary.Value(tag="acc", simple_value=step / steps),
                summary.Value(tag="dist", histo=histo),
            ]
            e = t.compat.v1.Event(
                wall_time=start + 1 + step, step=step, summary=summary(value=values)
            )
            out.write(e.SerializeToString())
        log = t.compat.v1.SessionLog(status=t.compat.v1.SessionLog.STOP)
        out.write(
            t.compat.v1.Event(wall_time=start + steps + 2, session_log=log).SerializeToString()
        )
    return path


def tensorboard_log(logdir: Path) -> Any:
    """TensorBoard's loader of every run of ``logdir``, loaded, keeping every point."""
    from tensorboard.backend.event_processing.plugin_event_multiplexer import (
        EventMultiplexer,
    )

    loader = EventMultiplexer(size_guidance={"tensors": 0, "scalars": 0, "histograms": 0})
    loader.AddRunsFromDirectory(str(logdir))
    loader.Reload()
    return loader


def tensorboard_tensors(logdir: Path, plugin: str) -> dict[tuple[str, str], list[Any]]:
    """``(run, tag)`` to the tensor events TensorBoard keeps of ``plugin``'s tags."""
    loader = tensorboard_log(logdir)
    out = {}
    for run, tags in loader.Runs().items():
        for tag in tags["tensors"]:
            if loader.SummaryMetadata(run, tag).plugin_data.plugin_name == plugin:
                out[(run, tag)] = loader.Tensors(run, tag)
    return out
