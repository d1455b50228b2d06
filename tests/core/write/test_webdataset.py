"""TFRecords to WebDataset shards: GNU tar files whose samples hold the record's image
bytes, its class and its other features."""

from __future__ import annotations

import json
import subprocess
import tarfile
from pathlib import Path

from tests.program import program
from tfr_viewer.core.decode import decode, features_of
from tfr_viewer.core.io import Dataset

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


def _run(*args: str) -> subprocess.CompletedProcess:
    return program("convert", *args)


def test_samples_hold_the_records_images_classes_and_features(tmp_path):
    source = SAMPLES / "classes_tutorial.tfrecord"
    pattern = str(tmp_path / "wds" / "shards-%05d.tar")
    done = _run(str(source), "-o", pattern, "--webdataset", "--shard-records", "7", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    with Dataset([str(source)]) as ds:
        ds.index()
        expected = [features_of(decode(ds.read(i)).payload) for i in range(len(ds))]
    assert doc["samples"] == len(expected) and doc["without_image"] == 0
    assert len(doc["files"]) == -(-len(expected) // 7)
    seen = 0
    for path in doc["files"]:
        assert open(path, "rb").read(512)[257:265] == b"ustar  \x00"  # the GNU format
        with tarfile.open(path) as tar:
            members = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}
        keys = sorted({name.split(".", 1)[0] for name in members})
        for key in keys:
            record = expected[int(key)]
            assert members[f"{key}.png"] == record["image_raw"].values[0]
            assert int(members[f"{key}.cls"]) == int(record["label"].values[0])
            meta = json.loads(members[f"{key}.json"])
            assert meta["__key__"] == key and meta["height"] == int(record["height"].values[0])
            seen += 1
    assert seen == len(expected)


def test_records_without_an_image_are_counted_and_outputs_kept(tmp_path):
    out = str(tmp_path / "one.tar")
    done = _run(str(SAMPLES), "-o", out, "--webdataset")
    assert done.returncode == 0, done.stderr
    assert "8 records without an image" in done.stdout
    again = _run(str(SAMPLES), "-o", out, "--webdataset")
    assert again.returncode == 2 and "--overwrite" in again.stderr


def test_a_feature_named_like_webdatasets_own_fields_is_renamed(tmp_path):
    from tests.planted_faults import clean_record, example_of
    from tests.tf_oracle import tf_write

    records = []
    for i in range(3):
        r = clean_record(i)
        r["__key__"], r["__url__"] = [b"not-the-key"], [b"http://elsewhere"]
        records.append(r)
    source = tf_write(tmp_path / "reserved.tfrecord", [example_of(r) for r in records])
    out = tmp_path / "one.tar"
    done = _run(str(source), "-o", str(out), "--webdataset", "--json")
    assert done.returncode == 0, done.stderr
    with tarfile.open(out) as tar:
        metas = {
            m.name.split(".")[0]: json.loads(tar.extractfile(m).read())
            for m in tar.getmembers()
            if m.name.endswith(".json")
        }
    assert len(metas) == 3
    for key, meta in metas.items():
        assert meta["__key__"] == key and "__url__" not in meta
        assert meta["feature:__key__"] == "not-the-key"
        assert meta["feature:__url__"] == "http://elsewhere"
