"""An episode from a record's bytes: an Example with steps is read as its episode (its
record number kept, its steps shaped), any other bytes are no episode."""

from __future__ import annotations

from tests.tf_oracle import tf
from tfr_viewer.core.decode.episode_bytes import episode_in


def _example(features: dict) -> bytes:
    t = tf().train
    return t.Example(features=t.Features(feature=features)).SerializeToString()


def test_an_example_with_steps_is_its_episode_and_others_are_none():
    t = tf().train
    data = _example(
        {
            "steps/is_first": t.Feature(int64_list=t.Int64List(value=[1, 0, 0])),
            "steps/is_last": t.Feature(int64_list=t.Int64List(value=[0, 0, 1])),
            "steps/action": t.Feature(float_list=t.FloatList(value=[0.0, 1.0] * 3)),
        }
    )
    episode = episode_in(memoryview(data), None, 7)
    assert episode is not None and episode.record == 7 and episode.length == 3
    assert episode.steps["action"].shape == (3, 2)
    plain = _example({"label": t.Feature(int64_list=t.Int64List(value=[1]))})
    assert episode_in(plain) is None
    assert episode_in(b"\xff\x00 not a message") is None
