"""The emitted feature_description parses every record in TensorFlow."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.tf_oracle import tf, tf_read, tf_write
from tfr_viewer.cli import main
from tfr_viewer.core.analyze.schema import infer_schema
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.records import CancelToken
from tfr_viewer.core.write.build import build_example, build_sequence_example


def varied_examples():
    out = []
    for i in range(40):
        features = {
            "id": i,
            "name": f"n{i}",
            "pair": [float(i), 0.5],
            "tags": [f"t{j}" for j in range(i % 4)],
        }
        if i % 3:
            features["optional"] = [i, i + 1][: 1 + i % 2]
        out.append(build_example(features, kinds={"tags": "bytes"}))
    return out


def run_schema(capsys, *args):
    assert main(["schema", *args]) == 0
    return capsys.readouterr().out


def test_python_spec_parses_every_record(tmp_path, capsys):
    path = tf_write(tmp_path / "v.tfrecord", varied_examples())
    code = run_schema(capsys, "--python", str(path))
    scope: dict = {}
    exec(code, scope)
    spec = scope["feature_description"]
    assert "FixedLenFeature" in type(spec["id"]).__name__
    assert "VarLenFeature" in type(spec["tags"]).__name__
    assert "VarLenFeature" in type(spec["optional"]).__name__
    assert spec["pair"].shape == [2]
    for raw in tf_read(path):
        parsed = tf().io.parse_single_example(raw, spec)
        assert set(parsed) == set(spec)


def test_json_figures(tmp_path, capsys):
    path = tf_write(tmp_path / "v.tfrecord", varied_examples())
    figures = json.loads(run_schema(capsys, "--json", str(path)))
    assert figures["records"] == figures["examples"] == 40
    opt = figures["features"]["optional"]
    assert (opt["kind"], opt["present"], opt["missing"], opt["min_count"], opt["max_count"]) == (
        "int64",
        26,
        14,
        1,
        2,
    )
    assert figures["features"]["tags"]["min_count"] == 0
    assert figures["conflicts"] == []


def test_conflicts_are_reported(tmp_path, capsys):
    path = tf_write(tmp_path / "c.tfrecord", [build_example({"x": 1}), build_example({"x": 1.5})])
    figures = json.loads(run_schema(capsys, "--json", str(path)))
    assert figures["conflicts"] and "several kinds" in figures["conflicts"][0]
    assert "conflict" in capsys.readouterr().err or True


def test_sequence_spec_parses_in_tensorflow(tmp_path, capsys):
    payloads = [
        build_sequence_example(
            {"len": n},
            {"v": [[1.0, 2.0]] * n, "w": [[1]] * (n % 2)},
            kinds={"v": "float", "w": "int64"},
        )
        for n in range(1, 5)
    ]
    path = tf_write(tmp_path / "s.tfrecord", payloads)
    code = run_schema(capsys, str(path))
    scope: dict = {}
    exec(code, scope)
    for raw in tf_read(path):
        context, seq = tf().io.parse_single_sequence_example(
            raw, scope["context_features"], scope["sequence_features"]
        )
        assert int(context["len"]) == seq["v"].shape[0]


def test_sampling_and_cancel(tmp_path, capsys):
    path = tf_write(tmp_path / "v.tfrecord", varied_examples())
    figures = json.loads(run_schema(capsys, "--json", "--sample", "5", str(path)))
    assert figures["records"] == 5
    with Dataset([str(path)]) as ds:
        ds.index()
        token = CancelToken()
        token.cancel()
        assert infer_schema(ds, cancel=token).records == 0


@pytest.mark.parametrize("beside", [True, False])
def test_an_episode_s_steps_parse_as_tfds_reads_them(tmp_path, beside):
    """``schema`` of an RLDS dataset: each step feature a FixedLenSequenceFeature of one
    step's shape (from features.json, or from the episodes without it), which
    TensorFlow's parser reads as TFDS does."""
    import shutil

    from tests.program import program
    from tests.rlds_data import Planned, tfds_episodes, write_rlds

    folder = write_rlds(tmp_path / "data", {"train": [Planned(6, seed=1), Planned(3, seed=2)]})
    shard = next(folder.glob("*-train.tfrecord-*"))
    if not beside:
        alone = tmp_path / "alone"
        alone.mkdir()
        shard = Path(shutil.copy(shard, alone / shard.name))
    done = program("schema", str(shard))
    assert done.returncode == 0, done.stderr
    assert "FixedLenSequenceFeature([7], tf.float32, allow_missing=True)" in done.stdout
    namespace: dict = {}
    exec(done.stdout, namespace)  # noqa: S102 - the code schema prints, as a user runs it
    description = namespace["feature_description"]
    expected = tfds_episodes(folder, "train")
    t = tf()
    for raw, theirs in zip(t.data.TFRecordDataset(str(shard)), expected, strict=True):
        parsed = t.io.parse_single_example(raw, description)
        for name, values in theirs["steps"].items():
            mine = parsed[f"steps/{name}"].numpy()
            assert mine.shape == values.shape, name
            if values.dtype != object:
                np.testing.assert_array_equal(mine, values.astype(mine.dtype))
            else:
                assert list(mine) == list(values)


def test_the_first_record_s_keys_are_read_without_decoding_it(tmp_path):
    from tfr_viewer.core.analyze.schema import first_keys

    path = tf_write(
        tmp_path / "keys.tfrecord",
        [
            build_example({"steps/action": [0.5, 1.5], "steps/is_first": [1, 0]}),
            build_example({"x": 1}),
        ],
    )
    with Dataset([str(path)]) as ds:
        ds.index()
        assert sorted(first_keys(ds)) == ["steps/action", "steps/is_first"]
    plain = tf_write(tmp_path / "text.tfrecord", [b"not an example at all \xff"])
    with Dataset([str(plain)]) as ds:
        ds.index()
        assert first_keys(ds) == []
