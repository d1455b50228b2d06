"""TensorBoard event files as ``tf.summary`` writes them: scalars, images, histograms,
text and hyperparameters, in a log folder of their own."""

from __future__ import annotations

from pathlib import Path

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
