"""TFRecords to an Arrow IPC file (``export --format arrow``): what pyarrow, pandas and
a memory map read back equals what TensorFlow parses; the output layer's rules hold."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from tests.core.write.test_parquet import _examples, _tf_rows
from tests.program import program
from tests.tf_oracle import tf, tf_write

pa = pytest.importorskip("pyarrow", reason="pyarrow is the optional parquet extra")


def _export(*args):
    return program("export", *map(str, args))


def _read(path):
    with pa.memory_map(str(path)) as source:  # the file maps without a copy
        return pa.ipc.open_file(source).read_all()


def test_arrow_values_equal_what_tensorflow_parses(tmp_path):
    path = tf_write(tmp_path / "data.tfrecord", _examples())
    out = tmp_path / "data.arrow"
    run = _export(path, "-o", out, "--format", "arrow", "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["format"] == "arrow" and report["written"] == 50
    table = _read(out)
    assert table.schema.field("id").type == pa.int64()
    assert table.schema.field("score").type == pa.float32()
    assert table.schema.field("tags").type == pa.large_list(pa.int64())
    for got, want in zip(table.to_pylist(), _tf_rows(path), strict=True):
        assert [got["id"]] == want["id"]
        assert np.float32(got["score"]) == np.float32(want["score"][0])
        assert got["name"].encode() == want["name"][0] and got["blob"] == want["blob"][0]
        assert got["tags"] == want["tags"]
        assert got["maybe"] == (want["maybe"] or None)
    # the text form names the rows, as the registry counts them
    text = _export(path, "-o", tmp_path / "again.arrow", "--format", "arrow")
    assert text.returncode == 0 and text.stdout.strip().endswith(": 50 rows")


def test_arrow_export_follows_the_filter_and_leaves_damage_out(tmp_path):
    path = tf_write(tmp_path / "data.tfrecord", _examples())
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF  # the last record's payload: its CRC fails
    path.write_bytes(bytes(data))
    out = tmp_path / "some.arrow"
    run = _export(path, "-o", out, "--format", "arrow", "--filter", "id % 2 == 0", "--json")
    assert run.returncode == 0, run.stderr
    ids = _read(out).column("id").to_pylist()
    assert ids == list(range(0, 50, 2))  # 0..48: the damaged record 49 is odd anyway
    damaged = _export(path, "-o", tmp_path / "all.arrow", "--format", "arrow", "--json")
    report = json.loads(damaged.stdout)
    assert report["skipped_damaged"] == 1 and report["written"] == 49


def test_arrow_export_refuses_what_the_output_layer_refuses(tmp_path):
    path = tf_write(tmp_path / "data.tfrecord", _examples())
    out = tmp_path / "data.arrow"
    out.write_bytes(b"keep me")
    run = _export(path, "-o", out, "--format", "arrow")
    assert run.returncode == 2 and out.read_bytes() == b"keep me"
    assert run.stderr.count("\n") == 1 and "--overwrite" in run.stderr
    # a symlink at the output's name that points at the source is refused, even so
    link = tmp_path / "link.arrow"
    os.symlink(path, link)
    before = path.read_bytes()
    run = _export(path, "-o", link, "--format", "arrow", "--overwrite")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert path.read_bytes() == before


def test_arrow_export_of_tensors_says_what_they_are(tmp_path):
    tensor = tf().make_tensor_proto(np.arange(6, dtype=np.float32)).SerializeToString()
    path = tf_write(tmp_path / "t.tfrecord", [tensor] * 3)
    out = tmp_path / "t.arrow"
    run = _export(path, "-o", out, "--format", "arrow")
    assert run.returncode == 2 and not out.exists()
    assert run.stderr.count("\n") == 1 and "tfr-viewer show" in run.stderr
