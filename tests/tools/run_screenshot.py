"""Make the pictures of a log folder in the run view: three runs written by
``tf.summary`` (scalars, histograms, text, images, hyperparameters) opened in the
window, two runs' losses smoothed on one plot (OUT), and a histogram tag over its steps
(HISTOGRAMS). ``python tests/tools/run_screenshot.py OUT HISTOGRAMS``"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
from picture_window import ROOT

sys.path.insert(0, str(ROOT))


def written(root: Path) -> Path:
    import tensorflow as tf
    from tensorboard.plugins.hparams import api as hp

    rng = np.random.default_rng(11)
    for run, rate in (("adam-1e-3", 1e-3), ("adam-3e-4", 3e-4), ("sgd-1e-2", 1e-2)):
        writer = tf.summary.create_file_writer(str(root / run))
        with writer.as_default():
            hp.hparams({"learning_rate": rate, "optimizer": run.split("-")[0], "batch": 64})
            speed = 400 * 1e-3 / rate
            for step in range(2_000):
                loss = 2.5 * np.exp(-step / speed) + 0.2 + rng.normal(0, 0.08)
                tf.summary.scalar("train/loss", loss, step=step)
                if step % 50 == 0:
                    tf.summary.scalar("eval/accuracy", 1 - loss / 3, step=step)
                    tf.summary.histogram(
                        "dense/kernel", rng.normal(0, 1 + step / 2_000, 500), step=step
                    )
                    tf.summary.text("notes", f"{run}: checkpoint at step {step}", step=step)
            tf.summary.image("samples", rng.random((3, 32, 32, 3)), step=1_999, max_outputs=3)
        writer.close()
    return root


def main(out: str, histograms_out: str) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from tfr_viewer.ui.main_window import MainWindow

    folder = written(Path(tempfile.mkdtemp()))
    app = QApplication.instance() or QApplication([])
    w = MainWindow()
    w.edit_actions.discard_answer = True
    w.remember_geometry = False
    w.resize(1366, 768)
    w.show()
    w.open_paths([str(folder)])
    while not w.docks.made("runs") or w.docks.widget("runs").log is None:
        app.processEvents()
    view = w.docks.widget("runs")
    w.resizeDocks([w.docks.dock("runs")], [430], Qt.Orientation.Vertical)
    rows = [
        r
        for r in range(view.proxy.rowCount())
        if view.proxy.entry(view.proxy.index(r, 0)).tag == "train/loss"
    ]
    view.select_rows(rows[:2])
    view.smoothing.setValue(900)
    for _ in range(60):
        app.processEvents()
    w.grab().save(out)
    hist = next(
        r
        for r in range(view.proxy.rowCount())
        if view.proxy.entry(view.proxy.index(r, 0)).tag == "dense/kernel"
    )
    view.select_rows([hist])
    for _ in range(60):
        app.processEvents()
    w.grab().save(histograms_out)
    if len(sys.argv) > 3:  # the image tag's steps, to look at
        images = next(
            r
            for r in range(view.proxy.rowCount())
            if view.proxy.entry(view.proxy.index(r, 0)).tag == "samples"
        )
        view.select_rows([images])
        for _ in range(60):
            app.processEvents()
        w.grab().save(sys.argv[3])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
