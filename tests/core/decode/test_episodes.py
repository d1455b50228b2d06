"""RLDS episodes read without TensorFlow: each step feature shaped as ``features.json``
says, or as the step count ``steps/is_first`` gives without it; TFDS's own reading of
the folder is the oracle."""

from __future__ import annotations

import numpy as np
import pytest

from tests.rlds_data import Planned, tfds_episodes, write_rlds
from tfr_viewer.core.decode import decode, features_of
from tfr_viewer.core.decode.episodes import read_episode
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.io.tfds import read_info


@pytest.fixture(scope="module")
def rlds(tmp_path_factory):
    folder = write_rlds(
        tmp_path_factory.mktemp("rlds"),
        {
            "train": [Planned(5, seed=1), Planned(9, seed=2), Planned(1, seed=3)],
            "val": [Planned(4, "open the drawer", seed=4)],
        },
    )
    return folder


def _ours(folder, split, with_spec=True):
    info = read_info(str(folder))
    assert info is not None
    shards = sorted(folder.glob(f"*-{split}.tfrecord-*"))
    with Dataset.open([str(p) for p in shards]) as ds:
        ds.index()
        return [
            read_episode(
                features_of(decode(ds.read(i)).payload), info.features if with_spec else None
            )
            for i in range(len(ds))
        ]


@pytest.mark.parametrize("split", ["train", "val"])
@pytest.mark.parametrize("with_spec", [True, False])
def test_each_step_feature_is_shaped_as_tfds_reads_it(rlds, split, with_spec):
    theirs = tfds_episodes(rlds, split)
    ours = _ours(rlds, split, with_spec)
    assert len(ours) == len(theirs)
    for episode, expected in zip(ours, theirs, strict=True):
        steps = expected["steps"]
        assert episode.length == len(steps["is_first"])
        assert sorted(episode.steps) == sorted(steps)
        assert episode.notes == ()
        for name, values in steps.items():
            mine = episode.steps[name]
            if values.dtype == object:  # pictures and texts: one bytes value a step
                assert mine == list(values), name
                assert episode.kinds[name] == ("image" if "image" in name else "text")
            else:
                mine = np.asarray(mine)
                assert mine.shape == values.shape, name
                if with_spec or values.dtype == bool:
                    assert mine.dtype == values.dtype, name
                np.testing.assert_array_equal(mine, values)
        assert episode.cameras == ["observation/image", "observation/wrist_image"]
        assert episode.flag("is_first").tolist() == steps["is_first"].tolist()
        assert episode.metadata["episode_metadata/file_path"] == [
            expected["episode_metadata"]["file_path"]
        ]


def _features(**values):
    from tfr_viewer.core.decode.payload_types import FeatureData

    out = {}
    for key, v in values.items():
        key = key.replace("__", "/")
        if isinstance(v, list) and v and isinstance(v[0], bytes):
            out[key] = FeatureData("bytes", v)
        elif isinstance(v, list) and v and isinstance(v[0], float):
            out[key] = FeatureData("float", np.array(v, np.float32))
        else:
            out[key] = FeatureData("int64", np.array(v, np.int64))
    return out


def test_without_features_json_the_flags_count_the_steps():
    episode = read_episode(
        _features(
            steps__is_last=[0, 0, 1],
            steps__action=[0.0, 1.0, 2.0, 3.0, 4.0, 5.0],
            steps__language_instruction=[b"go", b"go", b"go"],
            episode_metadata__id=[7],
        )
    )
    assert episode.length == 3
    assert episode.steps["action"].shape == (3, 2)
    assert episode.steps["is_last"].dtype == bool
    assert episode.kinds["language_instruction"] == "text"
    assert episode.flag("is_first") is None
    assert episode.metadata["episode_metadata/id"].tolist() == [7]


def test_what_does_not_split_into_steps_is_kept_and_said():
    episode = read_episode(
        _features(steps__is_first=[1, 0, 0], steps__action=[0.5] * 7, steps__frames=[b"a", b"b"])
    )
    assert episode.length == 3
    assert episode.kinds["action"] == "values" and len(episode.steps["action"]) == 7
    assert episode.kinds["frames"] == "values"
    assert any("steps/action" in n for n in episode.notes)
    assert any("steps/frames: 2 values for 3 steps" in n for n in episode.notes)


def test_a_record_without_steps_is_no_episode():
    assert read_episode(_features(label=[1], image__encoded=[b"x"])) is None


def test_an_open_dimension_of_features_json_is_worked_out():
    from tfr_viewer.core.io.tfds_features import FeatureSpec

    spec = FeatureSpec("steps/points", "tensor", "float32", (None, 2), sequence="steps")
    flags = FeatureSpec("steps/is_first", "tensor", "bool", (), sequence="steps")
    episode = read_episode(
        _features(steps__is_first=[1, 0], steps__points=[float(i) for i in range(12)]),
        {"steps/points": spec, "steps/is_first": flags},
    )
    assert episode.steps["points"].shape == (2, 3, 2)
    assert episode.flag("is_first").tolist() == [True, False]


def test_an_episode_of_no_steps_is_read_and_checked_without_failing():
    """Empty step lists that features.json describes: an episode of no steps, whose
    flags are empty and which the checks pass over without a traceback."""
    from tfr_viewer.core.analyze.episode_checks import check_episodes
    from tfr_viewer.core.io.tfds_features import FeatureSpec

    specs = {
        "steps/is_first": FeatureSpec("steps/is_first", "tensor", "bool", (), sequence="steps"),
        "steps/action": FeatureSpec("steps/action", "tensor", "float32", (7,), sequence="steps"),
        "steps/reward": FeatureSpec("steps/reward", "tensor", "float32", (), sequence="steps"),
    }
    episode = read_episode(_features(steps__is_first=[], steps__action=[], steps__reward=[]), specs)
    assert episode.length == 0 and episode.steps["action"].shape == (0, 7)
    assert episode.flag("is_first").tolist() == [] and episode.reward(0) is None
    assert check_episodes([episode], lambda record: ("f", 0)) == []
