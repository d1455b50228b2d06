"""Images into class folders, JSON Lines and CSV exports of real sample records."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import numpy as np
import pytest

from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.write.output import ExportError
from tfr_viewer.core.write.writers import write

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


@pytest.fixture
def tutorial():
    with Dataset([str(SAMPLES / "classes_tutorial.tfrecord")]) as ds:
        ds.index()
        yield ds


def test_images_go_to_per_class_folders(tmp_path, tutorial):
    folder = tmp_path / "images"
    assert write("images", tutorial, range(30), str(folder)) == 30
    classes = sorted(os.listdir(folder))
    assert set(classes) <= {"0", "1", "2"} and len(classes) >= 2
    files = [f for c in classes for f in os.listdir(folder / c)]
    assert len(files) == 30 and all(f.endswith(".png") for f in files)
    first = folder / classes[0] / sorted(os.listdir(folder / classes[0]))[0]
    assert first.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ExportError, match="never replaced"):
        write("images", tutorial, range(2), str(folder), overwrite=True)


def test_jsonl_matches_show(tmp_path, tutorial):
    from tfr_viewer.commands.decode import show_record

    path = tmp_path / "out.jsonl"
    assert write("jsonl", tutorial, [3, 5], str(path)) == 2
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    from tfr_viewer.core.json_text import dumps

    want = {k: v for k, v in json.loads(dumps(show_record(tutorial, 5))).items() if k != "decoder"}
    assert rows[1] == want


def test_csv_of_scalar_features(tmp_path, tutorial):
    path = tmp_path / "out.csv"
    assert write("csv", tutorial, range(30), str(path)) == 30
    columns = next(csv.reader(path.open()))
    assert columns[:3] == ["index", "file", "offset"]
    assert "label" in columns and "image_raw" in columns
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 30 and rows[0]["height"] == "48"
    assert rows[0]["image_raw"].startswith("<png image, ")  # described, not dumped


def test_csv_writes_list_features_as_json_arrays(tmp_path):
    from tests.tf_oracle import tf

    path = tmp_path / "out.csv"
    with Dataset([str(SAMPLES / "shapes_odapi.tfrecord")]) as ds:
        ds.index()
        write("csv", ds, range(len(ds)), str(path))
        columns = next(csv.reader(path.open()))
        examples = [tf().train.Example.FromString(ds.read(i)) for i in range(len(ds))]
    assert "image/object/bbox/xmin" in columns and "image/object/class/text" in columns
    rows = list(csv.DictReader(path.open()))
    many = next(
        i
        for i, e in enumerate(examples)
        if len(e.features.feature["image/object/bbox/xmin"].float_list.value) > 1
    )
    want = examples[many].features.feature
    xmin = json.loads(rows[many]["image/object/bbox/xmin"])
    assert [float(np.float32(v)) for v in xmin] == list(
        want["image/object/bbox/xmin"].float_list.value
    )
    texts = json.loads(rows[many]["image/object/class/text"])
    assert texts == [t.decode() for t in want["image/object/class/text"].bytes_list.value]
