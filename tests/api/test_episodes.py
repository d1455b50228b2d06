"""``tfv.open(folder).episodes()``: an RLDS dataset's episodes with their steps shaped
as TFDS reads them (``features.json`` beside the shards)."""

from __future__ import annotations

import numpy as np
import pytest

import tfr_viewer as tfv
from tests.rlds_data import Planned, tfds_episodes, write_rlds


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_rlds(
        tmp_path_factory.mktemp("rlds"),
        {"train": [Planned(6, seed=1), Planned(3, "wipe the table", seed=2)]},
    )


def test_episodes_are_shaped_as_tfds_reads_them(folder):
    expected = tfds_episodes(folder, "train")
    with tfv.open(sorted(str(p) for p in folder.glob("*-train.tfrecord-*"))) as view:
        episodes = list(view.episodes())
        assert [e.record for e in episodes] == [0, 1]
        for episode, theirs in zip(episodes, expected, strict=True):
            action = episode.steps["action"]
            assert action.shape == (len(theirs["steps"]["is_first"]), 7)
            np.testing.assert_array_equal(action, theirs["steps"]["action"])
            assert episode.steps["observation/image"] == list(theirs["steps"]["observation/image"])
            assert episode.steps["language_instruction"] == list(
                theirs["steps"]["language_instruction"]
            )
        assert list(view[1:].episodes())[0].record == 1  # a view's episodes are its own


def test_a_dataset_of_plain_examples_has_no_episodes(tmp_path):
    from tests.tf_oracle import tf_write
    from tfr_viewer.core.write.build import build_example

    path = tf_write(tmp_path / "plain.tfrecord", [build_example({"label": 1})])
    with tfv.open(str(path)) as view:
        assert list(view.episodes()) == []
