"""The episode table (the ``episodes`` analysis) on an RLDS dataset TFDS writes, with
planted faults: each row's split, length, instruction, flags and reward as
``tensorflow_datasets`` reads the episode; its findings those ``check`` gives the
episode; the filter language chooses rows; the command line, the API and the window's
request give one report; a wrong filter is one line and exit 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tfr_viewer as tfv
from tests.program import program
from tests.rlds_data import planted_episodes, tfds_episodes, write_rlds
from tfr_viewer.core.analyze.findings import EPISODE_KINDS


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    splits, _ = planted_episodes()
    return write_rlds(tmp_path_factory.mktemp("planted"), splits)


def _episodes(folder, *more):
    done = program("episodes", "--json", *more, str(folder))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_each_row_is_the_episode_tfds_reads(planted):
    report = _episodes(planted)
    rows = report["episodes"]
    theirs = [("train", e) for e in tfds_episodes(planted, "train")]
    theirs += [("val", e) for e in tfds_episodes(planted, "val")]
    assert report["count"] == report["matched"] == len(rows) == len(theirs)
    for row, (split, episode) in zip(rows, theirs, strict=True):
        steps = episode["steps"]
        assert row["split"] == split
        assert row["length"] == len(steps["is_first"])
        assert row["instruction"] == steps["language_instruction"][0].decode()
        assert row["ends"] == bool(steps["is_last"][-1])
        assert row["terminal"] == bool(steps["is_terminal"][-1])
        total = float(np.sum(steps["reward"], dtype=np.float64))
        assert float(row["reward"]) == pytest.approx(total, nan_ok=True)  # "NaN" in JSON
        final = float(steps["reward"][-1])
        assert row["success"] == (final > 0 if np.isfinite(final) else None)


def test_each_row_has_the_kinds_check_finds_at_its_episode(planted):
    rows = _episodes(planted)["episodes"]
    done = program("check", "--json", str(planted))
    kinds: dict[int, set[str]] = {}
    for f in json.loads(done.stdout)["findings"]:
        if f["kind"] in EPISODE_KINDS:
            kinds.setdefault(f["record"], set()).add(f["kind"])
    assert {r["record"]: set(r["findings"]) for r in rows if r["findings"]} == kinds
    assert len(kinds) >= 20


def test_the_filter_chooses_rows_and_every_front_end_agrees(planted):
    short = _episodes(planted, "--filter", "len(steps) < 5")
    assert [r["length"] for r in short["episodes"]] == [1, 2]
    assert short["matched"] == 2 and short["filter"] == "len(steps) < 5"
    empty = _episodes(planted, "--filter", 'instruction == ""')
    assert [r["instruction"] for r in empty["episodes"]] == [""]
    val = _episodes(planted, "--filter", 'split == "val" and "episode_duplicate" in findings')
    assert [r["split"] for r in val["episodes"]] == ["val"]
    with tfv.open(str(planted)) as view:
        api = view.analyze("episodes", filter="len(steps) < 5").to_json()
    assert api == short


def test_a_wrong_filter_is_one_line_and_exit_2(planted):
    done = program("episodes", "--filter", "len(stepz) < 5", str(planted))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "no column 'stepz'" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout


def test_a_dataset_without_episodes_says_so(tmp_path):
    from tests.tf_oracle import tf, tf_write

    feature = tf().train.Feature(int64_list=tf().train.Int64List(value=[1]))
    example = tf().train.Example(features=tf().train.Features(feature={"label": feature}))
    path = tf_write(tmp_path / "plain.tfrecord", [example.SerializeToString()] * 3)
    done = program("episodes", str(path))
    assert done.returncode == 0, done.stderr
    assert "holds no robot-learning episodes" in done.stdout
