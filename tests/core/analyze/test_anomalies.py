"""A schema inferred from one dataset, and the records of another that break it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.analyze import anomalies
from tfr_viewer.core.analyze.checks import check_dataset
from tfr_viewer.core.analyze.stats import dataset_stats
from tfr_viewer.core.io.dataset import Dataset

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


def _example(**features) -> bytes:
    t = tf().train
    out = {}
    for key, values in features.items():
        if isinstance(values[0], bytes):
            out[key] = t.Feature(bytes_list=t.BytesList(value=values))
        elif isinstance(values[0], float):
            out[key] = t.Feature(float_list=t.FloatList(value=values))
        else:
            out[key] = t.Feature(int64_list=t.Int64List(value=values))
    return t.Example(features=t.Features(feature=out)).SerializeToString()


def _row(i: int, **changes) -> bytes:
    row = {"id": [i], "animal": [[b"cat", b"dog"][i % 2]], "vec": [0.5, float(i)], "score": [0.25]}
    row.update(changes)
    return _example(**{k: v for k, v in row.items() if v is not None})


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("anomalies")
    train = tf_write(folder / "train.tfrecord", [_row(i) for i in range(30)])
    serving = tf_write(
        folder / "serving.tfrecord",
        [
            _row(0, id=None),
            _row(1, score=[3]),
            _row(2, vec=[1.0, 2.0, 3.0]),
            _row(3, animal=[b"cta"]),
            _row(4, extra=[1]),
            *[_row(i) for i in range(5, 20)],
        ],
    )
    return train, serving


def _schema(path) -> dict:
    with Dataset([str(path)]) as ds:
        ds.index()
        return anomalies.infer(dataset_stats(ds))


def test_the_inferred_schema(files):
    train, _ = files
    schema = _schema(train)
    f = schema["features"]
    assert f["animal"] == {
        "kind": "bytes",
        "required": True,
        "presence": 1.0,
        "value_count": {"min": 1, "max": 1},
        "domain": ["cat", "dog"],
    }
    assert f["vec"]["kind"] == "float" and f["vec"]["value_count"] == {"min": 2, "max": 2}
    assert "domain" not in f["id"]


def test_records_that_break_the_schema_are_reported_at_their_record(files):
    train, serving = files
    schema = _schema(train)
    with Dataset([str(serving)]) as ds:
        ds.index()
        found = check_dataset(ds, schema=schema)
    got = {(f.kind, f.record, f.feature) for f in found if f.kind.startswith("schema_")}
    assert got == {
        ("schema_missing", 0, "id"),
        ("schema_kind", 1, "score"),
        ("schema_value_count", 2, "vec"),
        ("schema_domain", 3, "animal"),
        ("schema_unexpected", 4, "extra"),
    }
    with Dataset([str(train)]) as ds:
        ds.index()
        assert check_dataset(ds, schema=schema) == []


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *map(str, args)], capture_output=True, text=True
    )


def test_schema_infer_and_check_schema_from_the_command_line(files, tmp_path):
    train, serving = files
    out_file = tmp_path / "schema.json"
    done = _cli("schema", "--infer", "-o", out_file, train)
    assert done.returncode == 0, done.stderr
    assert json.loads(out_file.read_text())["features"]["animal"]["domain"] == ["cat", "dog"]
    again = _cli("schema", "--infer", "-o", out_file, train)
    assert again.returncode == 2 and "--overwrite" in again.stderr
    assert _cli("check", "--schema", out_file, train).returncode == 0
    checked = _cli("check", "--json", "--schema", out_file, serving)
    assert checked.returncode == 1
    kinds = {f["kind"] for f in json.loads(checked.stdout)["findings"]}
    assert {"schema_missing", "schema_kind", "schema_value_count", "schema_domain"} <= kinds
    not_a_schema = tmp_path / "other.json"
    not_a_schema.write_text('{"a": 1}')
    refused = _cli("check", "--schema", not_a_schema, train)
    assert refused.returncode == 2 and "not a tfr-viewer schema" in refused.stderr


HOSTILE_SCHEMAS = {
    "a list": "[1, 2]",
    "null features": '{"format": "%s", "features": null}',
    "features a list": '{"format": "%s", "features": [1]}',
    "an entry that is null": '{"format": "%s", "features": {"a": null}}',
    "a kind that is a list": '{"format": "%s", "features": {"a": {"kind": ["int64"]}}}',
    "a text value count": (
        '{"format": "%s", "features": {"a": {"kind": "int64", "required": true, '
        '"value_count": {"min": "1", "max": 2}}}}'
    ),
    "a count past int64": (
        '{"format": "%s", "features": {"a": {"kind": "int64", "required": true, '
        '"value_count": {"min": 0, "max": 99999999999999999999999}}}}'
    ),
    "min above max": (
        '{"format": "%s", "features": {"a": {"kind": "int64", "required": false, '
        '"value_count": {"min": 3, "max": 1}}}}'
    ),
    "required a text": '{"format": "%s", "features": {"a": {"kind": "int64", "required": "y"}}}',
    "a domain of numbers": (
        '{"format": "%s", "features": {"a": {"kind": "bytes", "required": true, '
        '"value_count": {"min": 1, "max": 1}, "domain": [1, 2]}}}'
    ),
    "deep nesting": "[" * 100_000 + "]" * 100_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE_SCHEMAS))
def test_a_hostile_schema_file_is_one_line_and_exit_2(tmp_path, name):
    from tfr_viewer.core.analyze.anomalies import FORMAT

    text = HOSTILE_SCHEMAS[name]
    schema = tmp_path / "schema.json"
    schema.write_text(text.replace("%s", FORMAT) if "%s" in text else text)
    data = SAMPLES / "shapes_odapi.tfrecord"
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "check", "--schema", str(schema), str(data)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.splitlines()) == 1
    assert str(schema) in run.stderr
