"""TensorFlow Datasets folders, written by ``tensorflow_datasets`` itself
(``tests/data/tfds``: a tfrecord and an array_record build of one small builder, see
``tests/tools/make_tfds_fixture.py``): the splits and their lengths, the ClassLabel
names beside the labels, shards that disagree with ``dataset_info.json`` or are
missing, and ArrayRecord shards named as such."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tf_oracle import tf, tf_read
from tfr_viewer.core.io.tfds import read_info

DATA = Path(__file__).resolve().parents[2] / "data"
FOLDER = DATA / "tfds" / "shapes" / "1.0.0"
ARRAY_RECORD = DATA / "tfds_array_record" / "shapes" / "1.0.0"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *args], capture_output=True, text=True, timeout=120
    )


def test_the_folder_is_read_as_tfds_describes_it():
    info = read_info(str(FOLDER))
    assert info is not None and (info.name, info.version, info.file_format) == (
        "shapes",
        "1.0.0",
        "tfrecord",
    )
    assert [(s.name, s.shard_lengths) for s in info.splits] == [("train", (12,)), ("test", (5,))]
    assert info.class_names == {
        "label": (FOLDER / "label.labels.txt").read_text().split(),
        "objects/label": (FOLDER / "objects-label.labels.txt").read_text().split(),
    }
    shards = {str(p) for p in FOLDER.glob("shapes-*")}
    for split in info.splits:
        for path, length in info.shards(split, shards):
            assert os.path.exists(path) and len(tf_read(path)) == length, (path, split)
    assert read_info(str(DATA)) is None


def test_info_lists_the_splits_and_stats_names_the_classes():
    doc = json.loads(_run("info", "--json", str(FOLDER)).stdout)
    splits = {s["name"]: s for s in doc["tfds"]["splits"]}
    for name, split in splits.items():
        (shard,) = FOLDER.glob(f"shapes-{name}.tfrecord-*")
        assert split["records"] == split["records_found"] == len(tf_read(shard))
    stats = json.loads(_run("stats", "--json", str(FOLDER)).stdout)
    names = (FOLDER / "label.labels.txt").read_text().split()
    t = tf()
    spec = {"label": t.io.FixedLenFeature([], t.int64)}
    labels = [
        int(t.io.parse_single_example(r, spec)["label"])
        for s in FOLDER.glob("*.tfrecord-*")
        for r in tf_read(s)
    ]
    assert {c["id"]: (c["text"], c["count"]) for c in stats["classes"]["classes"]} == {
        i: (names[i], labels.count(i)) for i in set(labels)
    }
    assert {c["text"] for c in stats["object_classes"]["classes"]} == {"small", "large"}


def test_shards_that_disagree_with_dataset_info_are_findings(tmp_path):
    copy = tmp_path / "shapes"
    shutil.copytree(FOLDER, copy)
    info = json.loads((copy / "dataset_info.json").read_text())
    info["splits"][0]["shardLengths"] = ["13"]  # the train shard "should" hold 13
    info["splits"][1]["shardLengths"] = ["3", "2"]  # two test shards, neither present
    (copy / "dataset_info.json").write_text(json.dumps(info))
    done = _run("check", "--json", str(copy))
    assert done.returncode == 1
    found = [
        (f["kind"], os.path.basename(f["file"]))
        for f in json.loads(done.stdout)["findings"]
        if f["kind"].startswith("tfds_")
    ]
    assert sorted(found) == [
        ("tfds_shard_length", "shapes-train.tfrecord-00000-of-00001"),
        ("tfds_shard_missing", "shapes-test.tfrecord-00000-of-00002"),
        ("tfds_shard_missing", "shapes-test.tfrecord-00001-of-00002"),
    ]
    clean = _run("check", "--json", str(FOLDER))
    assert not [f for f in json.loads(clean.stdout)["findings"] if f["kind"].startswith("tfds_")]


@pytest.mark.parametrize("length", ["²", "\u0663", "1" * 5000, "-0", True, None, 1.5])
@pytest.mark.parametrize("command", ["info", "count", "check"])
def test_a_shard_length_that_is_no_number_counts_as_none(tmp_path, length, command):
    """``shardLengths`` as a hostile ``dataset_info.json`` writes them ("²", an
    Arabic-Indic digit, 5,000 digits): every command reads the records as they are,
    with no traceback."""
    copy = tmp_path / "shapes"
    shutil.copytree(FOLDER, copy)
    info = json.loads((copy / "dataset_info.json").read_text())
    info["splits"][0]["shardLengths"] = [length]
    (copy / "dataset_info.json").write_text(json.dumps(info))
    done = _run(command, "--json", str(copy))
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    json.loads(done.stdout)


def test_a_description_cannot_lead_out_of_its_folder(tmp_path):
    """Keys of features.json that are absolute or hold ``..`` name no label file, and a
    ``filepathTemplate`` of ``../../..`` no shard: nothing outside the folder is read
    or looked at."""
    copy = tmp_path / "data" / "shapes"
    shutil.copytree(FOLDER, copy)
    outside = tmp_path / "secret-label.labels.txt"
    outside.write_text("password\nhunter2\n")
    features = json.loads((copy / "features.json").read_text())
    top = features["featuresDict"]["features"]
    top["../../secret-label"] = top.pop("label")
    (copy / "features.json").write_text(json.dumps(features))
    info = json.loads((copy / "dataset_info.json").read_text())
    info["splits"][1]["filepathTemplate"] = "../../{DATASET}-escape-{SHARD_INDEX}"
    (copy / "dataset_info.json").write_text(json.dumps(info))
    (tmp_path / "shapes-escape-00000").write_bytes(b"")
    described = read_info(str(copy))
    assert described is not None and described.class_names == {
        "objects/label": (FOLDER / "objects-label.labels.txt").read_text().split()
    }
    test = described.splits[1]
    assert described.shard_path(test, 0) is None
    for command in ("stats", "check", "info"):
        done = _run(command, "--json", str(copy))
        assert done.returncode in (0, 1), done.stderr
        assert "hunter2" not in done.stdout and "escape" not in done.stdout, command


def test_two_million_shards_described_cost_what_the_folder_holds(tmp_path):
    """dataset_info.json lists 2,000,000 test shards; the folder holds none: one
    finding names twenty and counts the rest."""
    copy = tmp_path / "shapes"
    shutil.copytree(FOLDER, copy)
    for old in copy.glob("shapes-test.*"):
        old.unlink()
    info = json.loads((copy / "dataset_info.json").read_text())
    info["splits"][1]["shardLengths"] = ["1"] * 2_000_000
    (copy / "dataset_info.json").write_text(json.dumps(info))
    done = _run("check", "--json", str(copy))
    assert done.returncode == 1, done.stderr
    missing = [f for f in json.loads(done.stdout)["findings"] if f["kind"] == "tfds_shard_missing"]
    assert len(missing) == 21
    assert "and 1,999,980 more test shards" in missing[-1]["message"]


def _described(tmp_path, shards: int, template: str | None = None):
    """The fixture's folder described with a test split of ``shards`` shards (its own
    test shard is then named for one shard of one), and the folder's paths."""
    copy = tmp_path / "shapes"
    shutil.copytree(FOLDER, copy)
    info = json.loads((copy / "dataset_info.json").read_text())
    info["splits"][1]["shardLengths"] = ["1"] * shards
    if template is not None:
        info["splits"][1]["filepathTemplate"] = template
    (copy / "dataset_info.json").write_text(json.dumps(info))
    return read_info(str(copy)), {str(p) for p in copy.iterdir()}


def test_the_walk_of_two_million_shards_asks_for_the_names_the_folder_holds(tmp_path, monkeypatch):
    described, present = _described(tmp_path, 2_000_000)
    (test,) = [s for s in described.splits if s.name == "test"]
    last = described.shard_path(test, 1_999_999)
    open(last, "wb").close()  # the folder holds the last shard alone
    present.add(last)
    asked = []
    real = type(described).shard_name
    monkeypatch.setattr(
        type(described),
        "shard_name",
        lambda self, split, i: asked.append(i) or real(self, split, i),
    )
    walked = list(described.shards(test, present, named=3))
    named = [described.shard_path(test, i) for i in (0, 1, 2)]
    assert walked == [*((p, 1) for p in named), ("", 1_999_996), (last, 1)]
    assert len(asked) < 200  # the names tried are those the folder's numbers give


def test_a_template_that_leads_out_names_no_shard(tmp_path):
    described, present = _described(tmp_path, 2_000_000, "../{DATASET}-{SHARD_INDEX}")
    (test,) = [s for s in described.splits if s.name == "test"]
    assert list(described.shards(test, present, named=20)) == [("", 2_000_000)]


def test_array_record_shards_are_named_not_called_damaged():
    import tfr_viewer as tfv

    for command in ("info", "check", "stats"):
        done = _run(command, str(ARRAY_RECORD))
        assert done.returncode == 2 and "it is a Riegeli file (ArrayRecord" in done.stderr, (
            done.stderr
        )
        assert len(done.stderr.strip().splitlines()) == 1 and "damaged" not in done.stderr
    with pytest.raises(tfv.UserError, match="ArrayRecord"):
        tfv.open(str(ARRAY_RECORD))


def test_array_record_is_known_by_its_bytes_not_its_name(tmp_path):
    """A TFRecord named ``.array_record`` is read (TensorFlow reads it); an ArrayRecord
    file named ``.tfrecord`` is named for what it is, not called damaged."""
    shard = next(FOLDER.glob("shapes-train.tfrecord-*"))
    misnamed = tmp_path / "train.array_record-00000-of-00001"
    shutil.copy(shard, misnamed)
    done = _run("count", str(misnamed))
    assert done.returncode == 0 and done.stdout.split()[0] == str(len(tf_read(shard)))
    real = next(ARRAY_RECORD.glob("shapes-train.array_record-*"))
    disguised = tmp_path / "train.tfrecord"
    shutil.copy(real, disguised)
    for command in ("count", "verify", "info"):
        done = _run(command, str(disguised))
        assert done.returncode == 2 and "it is a Riegeli file (ArrayRecord" in done.stderr, (
            done.stderr
        )
        assert "CRC" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_description_that_is_not_one_is_left_alone(tmp_path):
    copy = tmp_path / "shapes"
    shutil.copytree(FOLDER, copy)
    for text in ("not json", "[1, 2]", '{"splits": "no"}', "[" * 100_000):
        (copy / "dataset_info.json").write_text(text)
        assert read_info(str(copy)) is None
        assert _run("check", str(copy)).returncode == 0
    (copy / "dataset_info.json").unlink()
    os.mkfifo(copy / "dataset_info.json")
    assert read_info(str(copy)) is None
    assert _run("info", str(copy)).returncode == 0
