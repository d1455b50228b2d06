"""A detection dataset written by TensorFlow with four label errors planted, and a
model's predictions made from the clean labels with a little noise, in the three forms
``check --predictions`` reads: in the records, a COCO results file, and a second
dataset. ``PLANTED`` says where each error is: (record, kind, box or None)."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

from tests.planted_faults import example_of
from tests.tf_oracle import tf_write

RECORDS = 24
W, H = 96, 64
NAMES = {1: "cat", 2: "dog", 3: "bird"}
DETECTION = "image/detection/"

# record -> (kind, the box at fault: an index of the record's labelled boxes, or None)
PLANTED = {
    3: ("label_missed", None),  # a box taken out of the labels
    7: ("label_class", 1),  # box 1's class swapped
    11: ("label_location", 0),  # box 0 shifted off its object
    15: ("label_spurious", 3),  # a box invented where nothing is (after its three)
}


def _png(i: int) -> bytes:
    from PIL import Image

    pixels = np.random.default_rng(i).integers(0, 255, (H, W, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "PNG")
    return out.getvalue()


def clean_boxes(i: int) -> list[tuple[tuple[float, float, float, float], int]]:
    """Two or three boxes that do not touch, in fractions, with their classes."""
    rng = np.random.default_rng(1000 + i)
    out = []
    for k in range(2 + i % 2):
        x0 = 0.05 + 0.32 * k + rng.uniform(0, 0.04)
        y0 = rng.uniform(0.05, 0.4)
        out.append(((x0, y0, x0 + 0.22, y0 + rng.uniform(0.3, 0.5)), int(rng.integers(1, 4))))
    return out


def _noisy(boxes, i: int) -> list[tuple[tuple[float, ...], int, float]]:
    """The clean boxes as a good model predicts them: a little off, scores 0.8 to 0.99,
    and a weak stray prediction that weighs nothing."""
    rng = np.random.default_rng(2000 + i)
    out = []
    for corners, label in boxes:
        jitter = rng.uniform(-0.01, 0.01, 4)
        out.append(
            (
                tuple(float(c + j) for c, j in zip(corners, jitter, strict=True)),
                label,
                float(rng.uniform(0.8, 0.99)),
            )
        )
    out.append(((0.9, 0.9, 0.97, 0.98), 2, 0.07))
    return out


def _labels(i: int):
    """The labels as the dataset has them: clean, or with the record's planted error."""
    boxes = clean_boxes(i)
    kind = PLANTED.get(i, (None, None))[0]
    if kind == "label_missed":
        boxes = boxes[:1] + boxes[2:] if len(boxes) > 2 else boxes[:1]
    elif kind == "label_class":
        corners, label = boxes[1]
        boxes[1] = (corners, label % 3 + 1)
    elif kind == "label_location":
        (x0, y0, x1, y1), label = boxes[0]
        shift = (x1 - x0) * 0.55
        boxes[0] = ((x0 + shift, y0, x1 + shift, y1), label)
    elif kind == "label_spurious":
        boxes.append(((0.4, 0.86, 0.55, 0.97), 1))
    return boxes


def ids(i: int) -> dict[str, bytes]:
    image = _png(i)
    return {
        "image/source_id": str(500 + i).encode(),
        "image/key/sha256": hashlib.sha256(image).hexdigest().encode(),
        "image/filename": f"img_{i:03d}.png".encode(),
    }


def _features(i: int, with_predictions: bool) -> dict:
    boxes = _labels(i)
    features = {
        "image/encoded": [_png(i)],
        "image/format": [b"png"],
        "image/height": [H],
        "image/width": [W],
        **{k: [v] for k, v in ids(i).items()},
    }
    for s, side in enumerate(("xmin", "ymin", "xmax", "ymax")):
        features[f"image/object/bbox/{side}"] = [float(c[s]) for c, _ in boxes]
    features["image/object/class/label"] = [label for _, label in boxes]
    features["image/object/class/text"] = [NAMES[label].encode() for _, label in boxes]
    if with_predictions:
        features.update(detection_features(i))
    return features


def predictions(i: int) -> list[tuple[tuple[float, ...], int, float]]:
    return _noisy(clean_boxes(i), i)


def detection_features(i: int) -> dict:
    found = predictions(i)
    out: dict = {}
    for s, side in enumerate(("xmin", "ymin", "xmax", "ymax")):
        out[f"{DETECTION}bbox/{side}"] = [float(c[s]) for c, _, _ in found]
    out[f"{DETECTION}label"] = [label for _, label, _ in found]
    out[f"{DETECTION}score"] = [score for _, _, score in found]
    return out


def labelled_dataset(path: Path, with_predictions: bool = False) -> Path:
    """The dataset (TensorFlow writes it); with its predictions in its records."""
    return tf_write(path, [example_of(_features(i, with_predictions)) for i in range(RECORDS)])


def coco_results(path: Path, skip: int | None = None, extra: str | None = None) -> Path:
    """The predictions as a COCO results file, by ``image/source_id`` (pixels); without
    record ``skip``'s, and with one for an image id ``extra`` no record has."""
    results = []
    for i in range(RECORDS):
        if i == skip:
            continue
        for (x0, y0, x1, y1), label, score in predictions(i):
            box = [x0 * W, y0 * H, (x1 - x0) * W, (y1 - y0) * H]
            results.append({"image_id": 500 + i, "category_id": label, "bbox": box, "score": score})
    if extra is not None:
        results.append({"image_id": extra, "category_id": 1, "bbox": [1, 1, 5, 5], "score": 0.9})
    path.write_text(json.dumps(results))
    return path


def prediction_dataset(path: Path, id_key: str = "image/key/sha256") -> Path:
    """The predictions as a second dataset: detection lists and one id per record."""
    payloads = []
    for i in reversed(range(RECORDS)):  # another order than the labels'
        features = {id_key: [ids(i)[id_key]], **detection_features(i)}
        payloads.append(example_of(features))
    return tf_write(path, payloads)


@pytest.fixture(scope="session")
def label_data(tmp_path_factory):
    """The labelled dataset with and without its predictions, and the predictions as a
    results file and as datasets matched by SHA-256 and by file name (a fixture of
    every test, through tests/conftest.py)."""
    root = tmp_path_factory.mktemp("labels")
    return {
        "with": labelled_dataset(root / "with.tfrecord", with_predictions=True),
        "plain": labelled_dataset(root / "plain.tfrecord"),
        "coco": coco_results(root / "results.json"),
        "by_sha": prediction_dataset(root / "preds_sha.tfrecord"),
        "by_name": prediction_dataset(root / "preds_name.tfrecord", "image/filename"),
        "root": root,
    }
