"""The Python API against TensorFlow's reading of the same TensorFlow-written files:
counts, every feature of every record, pictures, filters, columns, and the analyses
as the command line's JSON gives them."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pytest

import tfr_viewer as tfv
from tests.planted_labels import labelled_dataset
from tests.program import program
from tests.tf_oracle import tf, tf_read, tf_write


def _cli(*args: str) -> dict:
    done = program(*args)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    return labelled_dataset(tmp_path_factory.mktemp("api") / "labels.tfrecord", True)


def test_records_are_what_tensorflow_parses(labelled):
    t = tf()
    payloads = tf_read(labelled)
    ds = tfv.open(str(labelled))
    assert len(ds) == len(payloads) == sum(1 for _ in t.data.TFRecordDataset(str(labelled)))
    for record, payload in zip(ds, payloads, strict=True):
        example = t.train.Example.FromString(payload)
        assert record.type == "example" and record.status == "ok" and record.payload == payload
        assert set(record.features) == set(example.features.feature)
        for key, feature in example.features.feature.items():
            kind = feature.WhichOneof("kind")
            want = list(getattr(feature, kind).value)
            got = record.features[key]
            if kind == "bytes_list":
                assert got == want
            else:
                dtype = np.float32 if kind == "float_list" else np.int64
                assert isinstance(got, np.ndarray) and got.dtype == dtype
                assert got.tolist() == np.asarray(want, dtype=dtype).tolist()
    last = ds[-1]
    assert last.index == len(ds) - 1 and last.offset == ds.record(last.index).offset
    with pytest.raises(IndexError):
        ds[len(ds)]


def test_a_record_s_picture_is_the_image_tensorflow_decodes(labelled):
    t = tf()
    ds = tfv.open(labelled)
    record = ds[3]
    spec = {"image/encoded": t.io.FixedLenFeature([], t.string)}
    encoded = t.io.parse_single_example(tf_read(labelled)[3], spec)["image/encoded"]
    pixels = t.io.decode_image(encoded).numpy()
    assert np.array_equal(np.asarray(record.image()), pixels)
    with pytest.raises(LookupError):
        record.image("image/nothing")


def test_filters_slices_and_columns(labelled):
    ds = tfv.open(labelled)
    expression = 'len(f["image/object/class/label"]) == 3'
    view = ds.filter(expression)
    listed = subprocess.run(
        [
            sys.executable,
            "-m",
            "tfr_viewer",
            "list",
            "--json",
            "--filter",
            expression,
            str(labelled),
        ],
        capture_output=True,
        text=True,
    )
    wanted = [json.loads(line)["index"] for line in listed.stdout.splitlines()]
    assert view.records.tolist() == wanted and 0 < len(view) < len(ds)
    assert [r.index for r in view] == wanted
    narrower = view.filter('f["image/object/class/label"][0] == 1')
    assert set(narrower.records.tolist()) <= set(wanted)
    assert ds[2:6].records.tolist() == [2, 3, 4, 5]

    t = tf()
    spec = {
        "image/object/bbox/xmin": t.io.VarLenFeature(t.float32),
        "image/height": t.io.FixedLenFeature([], t.int64),
    }
    frame = view.to_pandas(["image/object/bbox/xmin", "image/height"])
    assert list(frame.columns) == ["image/object/bbox/xmin", "image/height"]
    payloads = tf_read(labelled)
    for row, index in zip(frame.itertuples(index=False), wanted, strict=True):
        parsed = t.io.parse_single_example(payloads[index], spec)
        assert list(row[0]) == parsed["image/object/bbox/xmin"].values.numpy().tolist()
        assert row[1] == int(parsed["image/height"])
    table = ds.to_arrow()
    assert table.num_rows == len(ds) and "image/detection/score" in table.column_names
    with pytest.raises(KeyError, match="no record holds a feature 'nope'") as refused:
        ds.to_arrow(["nope"])
    assert isinstance(refused.value, tfv.UserError)


def test_the_analyses_are_the_command_line_s(labelled, tmp_path):
    ds = tfv.open(labelled)
    assert ds.stats().to_json() == _cli("stats", "--json", str(labelled))
    findings = ds.check()
    assert findings.to_json()["findings"] == _cli("check", "--json", str(labelled))["findings"]
    assert findings.to_pandas().shape[0] == len(findings)
    damaged = tmp_path / "damaged.tfrecord"
    data = bytearray(labelled.read_bytes())
    data[5000] ^= 0xFF  # a bit flip inside record 0's payload
    damaged.write_bytes(bytes(data))
    verified = tfv.open(damaged).verify()
    assert verified.to_json()["problems"] == _cli("verify", "--json", str(damaged))["problems"]
    assert len(verified) == 1 and verified.to_pandas()["kind"].tolist() == ["bad_data_crc"]


def test_a_view_is_checked_and_counted_on_its_own_records(labelled):
    ds = tfv.open(labelled)
    view = ds.filter('len(f["image/object/class/label"]) == 2')
    # a record's own findings are the same (those over the records depend on which)
    whole = {(f.kind, f.record) for f in ds.check(predictions=_features()) if f.evidence}
    part = {(f.kind, f.record) for f in view.check(predictions=_features()) if f.evidence}
    shown = set(view.records.tolist())
    assert part == {(k, r) for k, r in whole if r in shown} and part
    stats = view.stats().to_json()
    assert stats["records"] == len(view)
    heights = stats["features"]["image/object/bbox/xmin"]
    t = tf()
    spec = {"image/object/bbox/xmin": t.io.VarLenFeature(t.float32)}
    payloads = tf_read(labelled)
    values = np.concatenate(
        [
            t.io.parse_single_example(payloads[i], spec)["image/object/bbox/xmin"].values.numpy()
            for i in shown
        ]
    )
    assert heights["numeric"]["min"] == pytest.approx(float(values.min()))
    assert heights["numeric"]["max"] == pytest.approx(float(values.max()))


def _features():
    from tfr_viewer.core.analyze.label_checks import PredictionCheck
    from tfr_viewer.core.analyze.predictions import InRecords

    return PredictionCheck(InRecords())


def test_a_view_is_exported_and_tensorflow_reads_it(labelled, tmp_path):
    ds = tfv.open(labelled)
    view = ds[::3]
    summary = view.export(str(tmp_path / "every-third.tfrecord"))
    assert summary.records == len(view)
    assert tf_read(tmp_path / "every-third.tfrecord") == [r.payload for r in view]
    with pytest.raises(tfv.UserError, match="exists"):
        view.export(str(tmp_path / "every-third.tfrecord"))
    with pytest.raises(tfv.UserError):
        view.export(str(labelled), overwrite=True)  # never over a source


def test_what_a_user_gets_wrong_is_an_error_of_theirs(tmp_path):
    with pytest.raises(tfv.UserError):
        tfv.open(str(tmp_path / "missing-*.tfrecord"))
    path = tf_write(tmp_path / "text.tfrecord", [b"plain bytes", b"\x00\x01"])
    ds = tfv.open(path)
    assert [r.type for r in ds] == ["text", "bytes"] and ds[0].features == {}
    with pytest.raises(LookupError):
        ds[0].image()
    with pytest.raises(ValueError):
        ds.filter("label ==")
    assert io.StringIO(repr(ds)).read().startswith("<tfr_viewer dataset: 2 records")


def test_side_files_are_taken_by_their_path_as_the_command_line_takes_them(
    labelled, tmp_path, label_data
):
    """``check(label_map=PATH, predictions=PATH)`` reads them as ``check --label-map
    --predictions`` does: the same findings."""
    label_map = tmp_path / "label_map.pbtxt"
    label_map.write_text('item { id: 1 name: "cat" }\nitem { id: 2 name: "dog" }\n')
    plain, results = label_data["plain"], label_data["coco"]
    ds = tfv.open(plain)
    found = ds.check(label_map=str(label_map), predictions=results).to_json()["findings"]
    cli = _cli(
        "check", "--json", str(plain), "--label-map", str(label_map), "--predictions", str(results)
    )
    assert found == cli["findings"] and any(f["kind"].startswith("label_") for f in found)


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda ds, out: ds.export(out, compression="bogus"), "unknown compression 'bogus'"),
        (lambda ds, out: ds.export(out, compression=3), "compression is one of"),
        (lambda ds, out: ds.export(out, shards="2"), "shards is a whole number"),
        (lambda ds, out: ds.export(out, colour="red"), "export() takes no option colour"),
        (lambda ds, out: ds.check(label_map=3), "label_map is a label map's path"),
        (lambda ds, out: ds.check(label_map=str(out)), "label map"),
        (lambda ds, out: ds.check(predictions=42), "predictions is"),
        (lambda ds, out: ds.check(predictions=str(out)), "missing.json"),
        (lambda ds, out: ds.check(schema=["x"]), "schema is a schema file's path"),
        (lambda ds, out: ds.check(speed=2), "check() takes no option speed"),
        (lambda ds, out: ds.filter("f['a'] == '\ud800'"), "half of a character"),
    ],
)
def test_a_mistake_in_an_option_is_one_user_error(labelled, tmp_path, call, said):
    ds = tfv.open(labelled)
    with pytest.raises(tfv.UserError) as exc:
        call(ds, tmp_path / "missing.json")
    assert said in str(exc.value)
