"""The episode checks on an RLDS dataset TFDS writes, with one planted fault an
episode: every fault is found at its episode and step by ``check``, through the
command line; the clean episodes (and a clean twin of the whole dataset) have no
finding of any kind; ``--jobs`` does not change the findings."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tfr_viewer as tfv
from tests.program import program
from tests.rlds_data import Planned, planted_episodes, write_rlds
from tfr_viewer.core.analyze.episode_checks import check_episodes
from tfr_viewer.core.decode.episodes import Episode


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    splits, faults = planted_episodes()
    return write_rlds(tmp_path_factory.mktemp("planted"), splits), faults


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    splits, _ = planted_episodes()
    twins = {
        name: [
            Planned(max(p.length, 12), "pick up the red cup", seed=100 + 50 * i + n)
            for n, p in enumerate(plans)
        ]
        for i, (name, plans) in enumerate(splits.items())
    }
    return write_rlds(tmp_path_factory.mktemp("clean"), twins)


def _shards(folder):
    return sorted(str(p) for p in folder.glob("*.tfrecord-*"))


def _names(folder) -> dict[int, str]:
    """Each record's episode, by its metadata file (TFDS shuffles them in the shards)."""
    with tfv.open(_shards(folder)) as view:
        return {
            e.record: e.metadata["episode_metadata/file_path"][0].decode() for e in view.episodes()
        }


def _check(folder, *more):
    done = program("check", "--json", *more, *_shards(folder))
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_every_planted_fault_is_found_at_its_episode_and_step(planted):
    folder, faults = planted
    names = _names(folder)
    report = _check(folder)
    found: dict[str, list[tuple[str, int | None]]] = {}
    for f in report["findings"]:
        found.setdefault(names.get(f["record"], "?"), []).append((f["kind"], f.get("step")))
    # one episode twice in train: TFDS shuffles which of the two is read first
    twice = {"/robot/train/episode_20.npy", "/robot/train/episode_21.npy"}
    copies = [e for e in twice if ("episode_duplicate", None) in found.get(e, [])]
    assert len(copies) == 1, found
    faults = {**faults, copies[0]: ("episode_duplicate", None)}
    originals = {"/robot/train/episode_10.npy", *(twice - set(copies))}  # of the copies
    faulty = set(faults) | originals
    for episode, (kind, step) in faults.items():
        assert (kind, step) in found.get(episode, []), (episode, found.get(episode))
    assert len(faults) >= 21
    for episode, said in found.items():
        if episode not in faulty:
            raise AssertionError(f"a clean episode has findings: {episode} {said}")
    for episode, said in found.items():
        planted_kind = faults.get(episode, ("episode_duplicate", None))[0]
        assert {k for k, _ in said} <= {planted_kind}, (episode, said)
    assert report["failed"] and report["counts"]["error"] >= 4
    from tfr_viewer.core.analyze.findings import EPISODE_KINDS

    shown_elsewhere = {"camera_missing", "episode_shape"}  # below, on episodes made by hand
    assert {kind for kind, _ in faults.values()} | shown_elsewhere == set(EPISODE_KINDS)
    assert _check(folder, "--jobs", "2")["findings"] == report["findings"]


def test_a_clean_twin_has_no_finding(clean):
    report = _check(clean)
    assert report["findings"] == [] and not report["failed"]


def _episode(record, **steps) -> Episode:
    kinds = {n: ("image" if isinstance(v, list) else "tensor") for n, v in steps.items()}
    length = len(next(iter(steps.values())))
    return Episode(length, steps, kinds, record=record)


def test_a_camera_some_episodes_lack_and_steps_that_do_not_split():
    where = lambda record: ("data.tfrecord", record * 100)  # noqa: E731
    flags = np.array([True, False, False])
    last = np.array([False, False, True])
    with_camera = _episode(0, is_first=flags, is_last=last, cam=[b"a", b"b", b"c"])
    without = _episode(1, is_first=flags, is_last=last, reward=np.array([0.0, 0.0, 1.0]))
    odd = Episode(
        3,
        {"is_first": flags, "is_last": last},
        {"is_first": "tensor", "is_last": "tensor"},
        notes=("steps/action: 7 values do not split into 3 steps",),
        record=2,
    )
    found = check_episodes([with_camera, without, odd], where)
    kinds = sorted((f.kind, f.record, f.feature) for f in found)
    assert kinds == [
        ("camera_missing", 1, "steps/cam"),
        ("camera_missing", 2, "steps/cam"),
        ("episode_shape", 2, None),
    ]
    assert found[0].offset in (100, 200) and found[0].file == "data.tfrecord"


def test_shards_the_description_lists_but_the_folder_lacks(planted, tmp_path):
    """An RLDS folder whose ``dataset_info.json`` names a shard never written and gives
    another a wrong ``shardLengths``: ``check`` of the folder says both, beside the
    episode findings, and the episodes are still read."""
    import shutil

    folder = tmp_path / "robot_debug" / "1.0.0"
    shutil.copytree(planted[0], folder)
    info_path = folder / "dataset_info.json"
    info = json.loads(info_path.read_text())
    by_name = {s["name"]: s for s in info["splits"]}
    by_name["val"]["shardLengths"] = ["1", "3"]  # a second shard of val, never written
    by_name["train"]["shardLengths"] = [str(int(by_name["train"]["shardLengths"][0]) + 2)]
    info_path.write_text(json.dumps(info))
    done = program("check", "--json", str(folder))
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    kinds = {f["kind"]: f for f in report["findings"] if f["kind"].startswith("tfds_")}
    assert set(kinds) == {"tfds_shard_missing", "tfds_shard_length"}, kinds
    assert kinds["tfds_shard_missing"]["file"].endswith("robot_debug-val.tfrecord-00001-of-00002")
    assert "train" in kinds["tfds_shard_length"]["message"]
    assert any(f["kind"] == "camera_blank" for f in report["findings"])


def test_a_cut_picture_is_found_at_any_step_though_only_some_are_decoded(planted, tmp_path):
    """The record checks decode the pictures of the steps the camera checks judge (six
    a camera, spread over the episode) and, of the others, those whose bytes do not
    end as a whole picture's: a JPEG cut short at a step no check samples is still
    found, decoded whole, at its episode."""
    from tests.tf_oracle import tf, tf_write
    from tfr_viewer.core.decode.episodes import judged_steps

    folder, _ = planted
    shard = next(folder.glob("*-train.tfrecord-*"))
    first = next(iter(tf().data.TFRecordDataset([str(shard)]))).numpy()
    example = tf().train.Example.FromString(first)
    pictures = example.features.feature["steps/observation/image"].bytes_list.value
    length = len(pictures)
    unjudged = next(s for s in range(length) if s not in judged_steps(length))
    pictures[unjudged] = pictures[unjudged][: len(pictures[unjudged]) // 2]
    path = tf_write(tmp_path / "cut.tfrecord", [first, example.SerializeToString()])
    report = json.loads(program("check", "--json", str(path)).stdout)
    cut = [f for f in report["findings"] if f["kind"] == "image_undecodable"]
    assert [(f["record"], f["feature"]) for f in cut] == [(1, "steps/observation/image")]
