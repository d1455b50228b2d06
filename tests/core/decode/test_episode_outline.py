"""An RLDS record in the window's tree: one ``steps`` node of its steps, each step
feature with one step's shape and a child a step, as TFDS reads the values."""

from __future__ import annotations

import pytest

from tests.rlds_data import Planned, tfds_episodes, write_rlds
from tfr_viewer.core.decode import decode
from tfr_viewer.core.decode.payloads import payload_outline
from tfr_viewer.core.io import Dataset


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_rlds(tmp_path_factory.mktemp("rlds"), {"train": [Planned(5, seed=1)]})


def _find(node, *path):
    for name in path:
        node = next(c for c in node.children if c.name == name)
    return node


def test_the_steps_are_one_node_with_each_feature_per_step(folder):
    from tfr_viewer.core.decode.outline import Outline

    theirs = tfds_episodes(folder, "train")[0]["steps"]
    shard = next(folder.glob("*-train.tfrecord-*"))
    with Dataset.open([str(shard)]) as ds:
        ds.index()
        nodes = payload_outline(decode(ds.read(0)))
    top = Outline("", children=nodes)
    steps = _find(top, "steps")
    assert (steps.kind, steps.count, steps.value) == ("episode", "5 steps", "pick up the red cup")
    action = _find(steps, "action")
    assert (action.kind, action.count) == ("float", "7 × 5 steps")
    assert [c.name for c in action.children] == ["[0]", "[1]", "[2]", "[3]", "[4]"]
    first = [float(v) for v in action.children[1].value.strip("[]").split(", ")]
    assert first == pytest.approx(theirs["action"][1].tolist(), rel=1e-6)
    flags = _find(steps, "is_last")
    assert (flags.kind, [c.value for c in flags.children]) == (
        "bool",
        ["false", "false", "false", "false", "true"],
    )
    image = _find(steps, "observation", "image")
    assert image.kind == "jpeg" and image.count == "5 steps"
    assert image.value.startswith("<jpeg 64×64")
    assert _find(steps, "observation").count == "3 keys"
    assert _find(top, "episode_metadata", "file_path").value == "/robot/train/episode_0.npy"
