"""Images out with their boxes: Pascal VOC and COCO files read back by convert give the
same boxes (within float32), and YOLO's lines are the boxes' centres and sizes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tfr_viewer.core.decode import decode, features_of, recognise
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.write import ExportOptions
from tfr_viewer.core.write.convert import ConvertOptions, convert
from tfr_viewer.core.write.convert_detection import coco_json, voc_folder

SAMPLE = Path(__file__).resolve().parents[3] / "resources" / "samples" / "shapes_odapi.tfrecord"


def _source_boxes() -> dict[int, list[tuple[float, ...]]]:
    """Record number -> [(xmin, ymin, xmax, ymax, label)] of the sample, in fractions."""
    out = {}
    with Dataset([str(SAMPLE)]) as ds:
        ds.index()
        for i in range(len(ds)):
            (ann,) = recognise(features_of(decode(ds.read(i)).payload))
            out[i] = [(b.xmin, b.ymin, b.xmax, b.ymax, b.label) for b in ann.boxes]
    return out


def _export(tmp_path: Path, kind: str) -> Path:
    folder = tmp_path / kind
    run = [sys.executable, "-m", "tfr_viewer", "export", str(SAMPLE), "-o", str(folder)]
    done = subprocess.run(
        [*run, "--format", "images", "--boxes", kind], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return folder


def _read_back(listing, tmp_path: Path) -> dict[int, list[tuple[float, ...]]]:
    summary = convert(
        listing, ConvertOptions(ExportOptions(str(tmp_path / "back.tfrecord")), "odapi")
    )
    out = {}
    with Dataset(list(summary.files)) as ds:
        ds.index()
        for i in range(len(ds)):
            features = features_of(decode(ds.read(i)).payload)
            name = features["image/filename"].values[0].decode()
            record = int(Path(name).stem.split("-")[1])
            (ann,) = recognise(features)
            out[record] = [(b.xmin, b.ymin, b.xmax, b.ymax, b.label) for b in ann.boxes]
    return out


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k in a:
        assert np.allclose(np.array(a[k], dtype=float), np.array(b[k], dtype=float), atol=1e-6), k


@pytest.mark.parametrize("kind", ["voc", "coco"])
def test_boxes_read_back_equal_the_source(tmp_path, kind):
    folder = _export(tmp_path, kind)
    listing = (
        voc_folder(str(folder)) if kind == "voc" else coco_json(str(folder / "annotations.json"))
    )
    _same(_read_back(listing, tmp_path), _source_boxes())


def test_yolo_lines_are_centres_and_sizes(tmp_path):
    folder = _export(tmp_path, "yolo")
    names = (folder / "classes.txt").read_text().split()
    assert names == ["circle", "square", "triangle"]
    for record, boxes in _source_boxes().items():
        lines = (folder / f"record-{record}.txt").read_text().split("\n")[:-1]
        got = np.array([[float(v) for v in line.split()] for line in lines])
        want = np.array(
            [
                [label - 1, (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0]
                for x0, y0, x1, y1, label in boxes
            ]
        )
        assert np.allclose(got, want, atol=1e-5)


@pytest.mark.parametrize("kind", ["voc", "yolo", "coco"])
def test_boxes_that_are_not_finite_numbers_are_left_out_and_counted(tmp_path, kind):
    import json

    from tests.planted_faults import clean_record, example_of
    from tests.tf_oracle import tf_write

    box = "image/object/bbox/"
    records = [clean_record(i) for i in range(3)]
    for r in records:
        for side, values in (("xmin", [0.1, 0.2]), ("ymin", [0.1, 0.2]), ("xmax", [0.5, 0.6])):
            r[box + side] = values
        r[box + "ymax"] = [0.5, 0.6]
        r["image/object/class/label"] = [1, 2]
        r["image/object/class/text"] = [b"circle", b"square"]
    records[0][box + "xmax"] = [float("nan"), 0.6]
    records[1][box + "ymin"] = [0.1, float("-inf")]
    source = tf_write(tmp_path / "nan.tfrecord", [example_of(r) for r in records])
    out = tmp_path / "images"
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "export", str(source), "-o", str(out)]
        + ["--format", "images", "--boxes", kind, "--json"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert any("2 box(es)" in w and "not a finite number" in w for w in doc["warnings"])
    written = "".join(
        p.read_text() for p in out.rglob("*") if p.suffix in (".xml", ".txt", ".json")
    ).lower()
    assert "nan" not in written and "inf" not in written
    if kind == "coco":
        annotations = json.loads((out / "annotations.json").read_text())["annotations"]
        assert len(annotations) == 4  # 6 boxes, 2 left out
