"""TFRecords to Parquet: every value pyarrow reads back equals what TensorFlow parses from
the same records; datasets that do not flatten are refused with a clear message."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from tests.program import program
from tests.tf_oracle import tf, tf_read, tf_write
from tfr_viewer.core.io import Dataset
from tfr_viewer.core.write.parquet import ParquetError, require_pyarrow
from tfr_viewer.core.write.writers import write

pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is the optional parquet extra")


def _examples():
    t = tf().train
    rng = np.random.default_rng(5)
    out = []
    for i in range(50):
        feature = {
            "id": t.Feature(int64_list=t.Int64List(value=[i])),
            "score": t.Feature(float_list=t.FloatList(value=[rng.normal()])),
            "name": t.Feature(bytes_list=t.BytesList(value=[f"n{i}".encode()])),
            "tags": t.Feature(int64_list=t.Int64List(value=list(range(i % 4)))),
            "blob": t.Feature(bytes_list=t.BytesList(value=[bytes([255, i % 256, 0])])),
        }
        if i % 3:
            feature["maybe"] = t.Feature(float_list=t.FloatList(value=[0.5] * (i % 3)))
        out.append(t.Example(features=t.Features(feature=feature)).SerializeToString())
    return out


def _tf_rows(path) -> list[dict]:
    """What TensorFlow parses: VarLen for every key, dense values per record."""
    t = tf()
    spec = {
        "id": t.io.VarLenFeature(t.int64),
        "score": t.io.VarLenFeature(t.float32),
        "name": t.io.VarLenFeature(t.string),
        "tags": t.io.VarLenFeature(t.int64),
        "blob": t.io.VarLenFeature(t.string),
        "maybe": t.io.VarLenFeature(t.float32),
    }
    rows = []
    for record in tf_read(path):
        parsed = t.io.parse_single_example(record, spec)
        rows.append({k: v.values.numpy().tolist() for k, v in parsed.items()})
    return rows


def test_parquet_values_equal_what_tensorflow_parses(tmp_path):
    path = tf_write(tmp_path / "data.tfrecord", _examples())
    out = tmp_path / "data.parquet"
    with Dataset([str(path)]) as ds:
        ds.index()
        _, rows, columns = write("parquet", ds, range(len(ds)), str(out))
    assert rows == 50
    assert columns["id"] == ("int64", True) and columns["score"] == ("float32", True)
    assert columns["name"] == ("string", True) and columns["blob"] == ("binary", True)
    assert columns["tags"] == ("int64", False) and columns["maybe"] == ("float32", False)
    table = pq.read_table(out).to_pylist()
    for got, want in zip(table, _tf_rows(path), strict=True):
        assert [got["id"]] == want["id"]
        assert np.float32(got["score"]) == np.float32(want["score"][0])
        assert got["name"].encode() == want["name"][0] and got["blob"] == want["blob"][0]
        assert got["tags"] == want["tags"]
        if want["maybe"]:
            assert got["maybe"] == want["maybe"]
        else:
            assert got["maybe"] is None  # the key is absent, not an empty list


def _convert(*args):
    return program("convert", *map(str, args))


def test_sequences_and_tensors_are_refused_with_a_clear_message(tmp_path):
    from tfr_viewer.core.write import build_sequence_example

    t = tf()
    tensors = tf_write(
        tmp_path / "tensors.tfrecord",
        [t.io.serialize_tensor(t.constant([[1.0, 2.0]])).numpy() for _ in range(3)],
    )
    sequences = tf_write(
        tmp_path / "seq.tfrecord", [build_sequence_example({"id": 1}, {"step": [[1], [2]]})]
    )
    done = _convert(tensors, "-o", tmp_path / "t.parquet")
    assert done.returncode == 2 and "do not flatten to columns" in done.stderr
    done = _convert(sequences, "-o", tmp_path / "s.parquet")
    assert done.returncode == 2 and "SequenceExamples" in done.stderr
    assert not (tmp_path / "t.parquet").exists() and not (tmp_path / "s.parquet").exists()


def test_without_pyarrow_the_extra_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ParquetError, match=r"tfr-viewer\[parquet\]"):
        require_pyarrow()


def test_the_parquet_file_loads_with_hugging_face_datasets(tmp_path):
    datasets = pytest.importorskip("datasets", reason="Hugging Face datasets is not installed")
    path = tf_write(tmp_path / "data.tfrecord", _examples())
    done = _convert(path, "-o", tmp_path / "data.parquet")
    assert done.returncode == 0, done.stderr
    loaded = datasets.load_dataset("parquet", data_files=str(tmp_path / "data.parquet"))["train"]
    assert len(loaded) == 50 and loaded[3]["tags"] == [0, 1, 2]
