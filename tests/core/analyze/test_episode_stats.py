"""``stats --json`` of an RLDS dataset: ``episodes`` gives the lengths, each dimension
of the action, the state and the reward over every step, and the instructions, as
numpy figures them over TFDS's reading; the command line and the API agree."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tfr_viewer as tfv
from tests.program import program
from tests.rlds_data import Planned, tfds_episodes, write_rlds


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_rlds(
        tmp_path_factory.mktemp("rlds"),
        {
            "train": [
                Planned(7, seed=1),
                Planned(3, "open the drawer", seed=2),
                Planned(5, "", seed=3),
                Planned(4, seed=4, changes={"action": {2: np.full(7, np.nan, np.float32)}}),
            ]
        },
    )


def test_the_episodes_figures_agree_with_tfds(folder):
    shards = sorted(str(p) for p in folder.glob("*.tfrecord-*"))
    done = program("stats", "--json", *shards)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)["episodes"]
    theirs = tfds_episodes(folder, "train")
    lengths = [len(e["steps"]["is_first"]) for e in theirs]
    assert figures["episodes"] == 4 and figures["steps"] == sum(lengths)
    assert (figures["length"]["min"], figures["length"]["max"]) == (min(lengths), max(lengths))
    assert sum(figures["length"]["histogram"]["counts"]) == 4
    action = np.concatenate([e["steps"]["action"] for e in theirs]).astype(np.float64)
    assert len(figures["signals"]["action"]) == 7
    for dim, f in enumerate(figures["signals"]["action"]):
        column = action[:, dim][np.isfinite(action[:, dim])]
        assert f["min"] == pytest.approx(column.min()) and f["max"] == pytest.approx(column.max())
        assert f["mean"] == pytest.approx(column.mean()) and f["non_finite"] == 1
        assert sum(f["histogram"]["counts"]) == len(column)
    assert len(figures["signals"]["observation/state"]) == 8
    assert figures["signals"]["reward"][0]["max"] == 1.0
    assert figures["instructions"] == {
        "distinct": 3,
        "empty": 1,
        "top": [["pick up the red cup", 2], ["", 1], ["open the drawer", 1]],
    }
    with tfv.open(shards) as view:
        assert view.stats().to_json()["episodes"] == figures


def test_a_dataset_of_plain_examples_has_no_episodes_figures(tmp_path):
    from tests.tf_oracle import tf_write
    from tfr_viewer.core.write.build import build_example

    path = tf_write(tmp_path / "plain.tfrecord", [build_example({"label": 1})])
    done = program("stats", "--json", str(path))
    assert "episodes" not in json.loads(done.stdout)
