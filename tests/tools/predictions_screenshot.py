"""Make the README's picture of labels against a model's predictions: the shapes
sample with predictions written into its records (its own boxes, a little off, scores
0.80 to 0.98), one label made wrong (record 5's circle labelled a square), the checks
run, the records in order of suspicion, and the label error opened: its box chosen in
the picture beside the dashed prediction that contradicts it.
``python tests/tools/predictions_screenshot.py OUT``"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
from picture_window import SAMPLES, opened

CORNERS = ("xmin", "ymin", "xmax", "ymax")
WRONG = 5  # the record whose label is made wrong
BOX = "image/object/bbox/"


def with_predictions(out: Path) -> Path:
    """The sample, each record with ``image/detection/*`` lists, record 5 mislabelled."""
    from tfr_viewer.core.decode import decode, features_of
    from tfr_viewer.core.io import Dataset
    from tfr_viewer.core.io.framing import RecordWriter
    from tfr_viewer.core.write.build import build_example

    rng = np.random.default_rng(7)
    with (
        Dataset([str(SAMPLES / "shapes_odapi.tfrecord")]) as ds,
        RecordWriter(open(out, "wb")) as writer,
    ):
        ds.index()
        for r in range(len(ds)):
            features = features_of(decode(ds.read(r)).payload)
            assert features is not None
            values = {k: fd.values for k, fd in features.items()}
            kinds = {k: fd.kind for k, fd in features.items()}
            boxes = np.array([list(values[BOX + c]) for c in CORNERS], dtype=np.float64).T
            labels = list(values["image/object/class/label"])
            for i, c in enumerate(CORNERS):
                values[f"image/detection/bbox/{c}"] = [
                    float(v) for v in boxes[:, i] + rng.uniform(-0.01, 0.01, len(boxes))
                ]
                kinds[f"image/detection/bbox/{c}"] = "float"
            values["image/detection/label"] = labels
            values["image/detection/score"] = [
                float(s) for s in rng.uniform(0.8, 0.98, len(labels))
            ]
            kinds |= {"image/detection/label": "int64", "image/detection/score": "float"}
            if r == WRONG:  # the circle (box 1) labelled a square
                values["image/object/class/label"] = [
                    2 if k == 1 else v for k, v in enumerate(labels)
                ]
                texts = list(values["image/object/class/text"])
                texts[1] = b"square"
                values["image/object/class/text"] = texts
            writer.write(build_example(values, kinds))
    return out


def main(out: str) -> None:
    from PySide6.QtWidgets import QApplication

    folder = Path(tempfile.mkdtemp())
    path = with_predictions(folder / "shapes_predicted.tfrecord")
    app, w = opened([str(path)], (1366, 768))
    w.menus.action("view.suspicious").trigger()  # runs the checks, then orders the records
    panel = w.analysis.findings
    while not panel.model.findings:
        app.processEvents()
    for _ in range(50):
        app.processEvents()
    finding = next(f for f in panel.model.findings if f.kind == "label_class")
    w.analysis.open_finding(finding)
    for _ in range(30):
        app.processEvents()
    QApplication.processEvents()
    w.grab().save(out)
    w.close()


if __name__ == "__main__":
    main(sys.argv[1])
