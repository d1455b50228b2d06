"""Episodes of an RLDS dataset TFDS wrote, exported as a TFDS folder: the clean ones
(``--episodes 'len(findings) == 0'``), or every one cut into new splits by episode;
``tensorflow_datasets`` loads the folder (``builder_from_directory``) and reads each
episode as it read it in the source; ``check`` finds nothing in the clean export.
Mistakes (an output folder that exists, files of no TFDS folder, an option TFDS
shards do not take, a wrong episode filter) are one line and exit 2, nothing written."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.program import program
from tests.rlds_data import planted_episodes, tfds_episodes, write_rlds


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    splits, _ = planted_episodes()
    return write_rlds(tmp_path_factory.mktemp("planted"), splits)


def _same(a, b) -> bool:
    """Two episodes as TFDS reads them: every step feature equal (NaN equal to NaN)."""
    if set(a["steps"]) != set(b["steps"]):
        return False
    for name, values in a["steps"].items():
        other = b["steps"][name]
        if values.dtype == object:
            if list(values) != list(other):
                return False
        elif not np.array_equal(values, other, equal_nan=values.dtype.kind == "f"):
            return False
    return True


def _key(episode) -> bytes:
    return episode["episode_metadata"]["file_path"]


def _export(*argv):
    done = program("export", "--format", "tfds", "--json", *argv)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_clean_episodes_load_in_tfds_as_they_were(planted, tmp_path):
    import tensorflow_datasets as tfds

    rows = json.loads(program("episodes", "--json", str(planted)).stdout)["episodes"]
    clean = {r["record"] for r in rows if not r["findings"]}
    out = tmp_path / "clean" / "robot_debug" / "1.0.0"
    report = _export(str(planted), "-o", str(out), "--episodes", "len(findings) == 0")
    assert report["written"] == len(clean) >= 5
    assert report["warnings"] == [
        "no chosen record is of the val split, so the folder has no val split"
    ]

    builder = tfds.builder_from_directory(str(out))
    assert list(builder.info.splits) == ["train"]
    assert builder.info.splits["train"].num_examples == len(clean)
    source = tfds_episodes(planted, "train")
    wanted = [source[r] for r in sorted(clean)]  # train is records 0.. of the source
    theirs = tfds_episodes(out, "train")
    assert [_key(e) for e in theirs] == [_key(e) for e in wanted]
    assert all(_same(a, b) for a, b in zip(theirs, wanted, strict=True))
    assert (out / "features.json").read_bytes() == (planted / "features.json").read_bytes()

    done = program("check", "--json", str(out))
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout)["findings"] == []


def test_new_splits_are_cut_by_episode(planted, tmp_path):
    import tensorflow_datasets as tfds

    out = tmp_path / "resplit"
    report = _export(
        str(planted), "-o", str(out), "--split", "train=0.75,test=0.25", "--shuffle", "5"
    )
    assert report["written"] == 29
    builder = tfds.builder_from_directory(str(out))
    counts = {name: split.num_examples for name, split in builder.info.splits.items()}
    assert counts == {"train": 22, "test": 7}
    before = {_key(e): e for s in ("train", "val") for e in tfds_episodes(planted, s)}
    after = [e for s in ("train", "test") for e in tfds_episodes(out, s)]
    # every episode whole, in one split; the copy in val and its original both kept
    assert sorted(_key(e) for e in after) == sorted(
        _key(e) for s in ("train", "val") for e in tfds_episodes(planted, s)
    )
    assert all(_same(e, before[_key(e)]) for e in after)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--compression", "gzip"], "drop --compression"),
        (["--episodes", "len(stepz) < 5"], "no column 'stepz'"),
    ],
)
def test_options_tfds_does_not_take_are_refused(planted, tmp_path, argv, said):
    out = tmp_path / "out"
    done = program("export", "--format", "tfds", str(planted), "-o", str(out), *argv)
    assert done.returncode == 2 and said in done.stderr
    assert done.stderr.count("\n") == 1 and not out.exists()


def test_an_existing_folder_and_files_of_no_tfds_folder_are_refused(planted, tmp_path):
    import shutil

    out = tmp_path / "taken"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    done = program("export", "--format", "tfds", str(planted), "-o", str(out))
    assert done.returncode == 2 and "never replaced" in done.stderr
    assert [p.name for p in out.iterdir()] == ["keep.txt"]

    loose = tmp_path / "loose"
    loose.mkdir()
    shard = next(planted.glob("*-val.tfrecord-*"))
    shutil.copy(shard, loose / "episodes.tfrecord")
    done = program("export", "--format", "tfds", str(loose), "-o", str(tmp_path / "new"))
    assert done.returncode == 2 and "no dataset_info.json" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "new").exists()


@pytest.mark.parametrize(("field", "value"), [("split", "../../escaped"), ("name", "../a/b")])
def test_a_description_whose_names_lead_out_of_the_folder_writes_nothing(
    planted, tmp_path, field, value
):
    """A ``dataset_info.json`` whose dataset or split name would put a shard outside
    the new folder (``../``, a separator): refused in one line, nothing written
    anywhere."""
    import shutil

    source = tmp_path / "hostile" / "1.0.0"
    shutil.copytree(planted, source)
    info_path = source / "dataset_info.json"
    info = json.loads(info_path.read_text())
    if field == "name":
        info["name"] = value
    else:
        info["splits"][0]["name"] = value
        info["splits"][0]["filepathTemplate"] = "{DATASET}-train.{FILEFORMAT}-{SHARD_X_OF_Y}"
    info_path.write_text(json.dumps(info))
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    out = tmp_path / "out" / "deep" / "1.0.0"
    new_splits = ["--split", "train=1"] if field == "name" else []  # else in no split
    done = program("export", "--format", "tfds", str(source), "-o", str(out), *new_splits)
    assert done.returncode == 2 and "no file of the folder" in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
