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


def test_csv_cells_a_spreadsheet_would_run_are_neutralised(tmp_path):
    """Text starting with = + - @ (and a header named like a formula) gets a ' before
    it; numbers stay numbers; --raw-cells writes them as they are."""
    import subprocess
    import sys

    from tests.tf_oracle import tf, tf_write

    t = tf().train

    def example(text: bytes, number: int) -> bytes:
        feature = {
            "note": t.Feature(bytes_list=t.BytesList(value=[text])),
            '=HYPERLINK("x")': t.Feature(int64_list=t.Int64List(value=[number])),
        }
        return t.Example(features=t.Features(feature=feature)).SerializeToString()

    attacks = [b"=cmd|' /C calc'!A0", b"+1+1", b"-2+3", b"@SUM(A1)", b"\tx", b"plain"]
    path = tf_write(tmp_path / "cells.tfrecord", [example(a, -i) for i, a in enumerate(attacks)])
    for flag, expect in (((), "'"), (("--raw-cells",), "")):
        out = tmp_path / f"out{len(flag)}.csv"
        run = subprocess.run(
            [sys.executable, "-m", "tfr_viewer", "export", str(path), "-o", str(out)]
            + ["--format", "csv", *flag],
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stderr
        rows = list(csv.reader(out.open(newline="")))
        header = rows[0]
        assert f'{expect}=HYPERLINK("x")' in header
        notes = [r[header.index("note")] for r in rows[1:]]
        assert notes[:5] == [expect + a.decode() for a in attacks[:5]]
        assert notes[5] == "plain"
        numbers = [r[header.index(f'{expect}=HYPERLINK("x")')] for r in rows[1:]]
        assert numbers == [str(-i) for i in range(len(attacks))]  # numbers are not text
