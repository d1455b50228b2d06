"""TensorFlow Datasets folders as tensorflow_datasets lays them out, ``DATA/NAME/VERSION/``
(the shards of ``tests/data/tfds`` were written by it): ``NAME/`` opens its newest
version and names the others; a data folder of several datasets is listed by ``info``
and named in one line by the other commands (the window asks which to open:
``tests/ui/dialogs/test_tfds_choice.py``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.program import program
from tests.tf_oracle import tf_read

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "tfds" / "shapes" / "1.0.0"


def data_folder(tmp_path: Path) -> Path:
    """``data/shapes/{1.0.0,1.1.0}`` (the newer with its train split cut to 7 records)
    and ``data/other/1.0.0``."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURE, data / "shapes" / "1.0.0")
    newer = data / "shapes" / "1.1.0"
    shutil.copytree(FIXTURE, newer)
    info = json.loads((newer / "dataset_info.json").read_text())
    info["version"] = "1.1.0"
    (newer / "dataset_info.json").write_text(json.dumps(info))
    (test_shard,) = newer.glob("shapes-test.tfrecord-*")
    test_shard.unlink()  # 1.1.0 holds its train split only
    shutil.copytree(FIXTURE, data / "other" / "1.0.0")
    return data


def test_a_dataset_folder_opens_its_newest_version(tmp_path):
    data = data_folder(tmp_path)
    newest = data / "shapes" / "1.1.0"
    theirs = len(tf_read(sorted(str(p) for p in newest.glob("*.tfrecord-*"))))
    done = program("count", str(data / "shapes"))
    assert done.returncode == 0 and int(done.stdout) == theirs == 12
    assert "opened shapes 1.1.0, the newest version" in done.stderr
    assert "also holds 1.0.0" in done.stderr
    older = program("count", str(data / "shapes" / "1.0.0"))
    assert int(older.stdout) == 17


def test_a_data_folder_is_listed_by_info_and_named_by_the_others(tmp_path):
    data = data_folder(tmp_path)
    listing = program("info", "--json", str(data))
    assert listing.returncode == 0
    found = {d["name"]: d for d in json.loads(listing.stdout)["tfds_datasets"]}
    assert found["shapes"]["versions"] == ["1.1.0", "1.0.0"]
    assert [(s["name"], s["records"]) for s in found["other"]["splits"]] == [
        ("train", 12),
        ("test", 5),
    ]
    text = program("info", str(data)).stdout
    assert "shapes  versions 1.1.0, 1.0.0" in text
    count = program("count", str(data))
    assert count.returncode == 2
    (line,) = count.stderr.strip().splitlines()
    assert "a TensorFlow Datasets folder of 2 datasets" in line and "shapes (1.1.0" in line
