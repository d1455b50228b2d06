"""Files that are not TFRecords are named for what they are, each written by its own
format's writer, in one line with what to do; the Python API raises the same error."""

from __future__ import annotations

import json
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tests.program import program
from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.user_error import UserError

DATA = Path(__file__).resolve().parents[2] / "data"


def _lfs(path: Path) -> None:
    path.write_text(
        "version https://git-lfs.github.com/spec/v1\n"
        "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e9ca24d17e2393\n"
        "size 104857600\n"
    )


def _riegeli(path: Path) -> None:
    # an ArrayRecord shard that tensorflow_datasets wrote (tests/tools/make_tfds_fixture.py)
    (shard,) = (DATA / "tfds_array_record" / "shapes" / "1.0.0").glob("*-train.array_record-*")
    path.write_bytes(shard.read_bytes())


def _recordio(path: Path) -> None:
    """MXNet's RecordIO: per record the magic, the length (flag 0), the data, padding
    to four bytes."""
    out = b""
    for data in (b"first record", b"second one"):
        out += struct.pack("<II", 0xCED7230A, len(data)) + data + b"\0" * (-len(data) % 4)
    path.write_bytes(out)


def _parquet(path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"label": [1, 2, 3]}), path)


def _hdf5(path: Path) -> None:
    h5py = pytest.importorskip("h5py")
    with h5py.File(path, "w") as f:
        f["images"] = np.zeros((2, 4, 4), dtype=np.uint8)


def _npy(path: Path) -> None:
    with open(path, "wb") as f:
        np.save(f, np.arange(10))


def _npz(path: Path) -> None:
    with open(path, "wb") as f:
        np.savez(f, x=np.arange(3), y=np.ones(2))


def _zip(path: Path) -> None:
    inner = tf_write(path.with_name("inner.tfrecord"), [b"a", b"b"])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(inner, "train.tfrecord")


def _one_example(path: Path) -> None:
    t = tf()
    example = t.train.Example(
        features=t.train.Features(
            feature={"label": t.train.Feature(int64_list=t.train.Int64List(value=[1]))}
        )
    )
    path.write_bytes(example.SerializeToString())


def _json(path: Path) -> None:
    path.write_text(json.dumps({"images": [{"id": 1, "file_name": "a.jpg"}], "annotations": []}))


def _csv(path: Path) -> None:
    path.write_text("filename,label\na.jpg,1\nb.jpg,2\n")


CASES = {
    "git_lfs": (_lfs, "a Git LFS pointer", "git lfs pull"),
    "riegeli": (_riegeli, "a Riegeli file (ArrayRecord", "array_record"),
    "recordio": (_recordio, "an MXNet RecordIO file", "mxnet.recordio"),
    "parquet": (_parquet, "a Parquet file", "pyarrow"),
    "hdf5": (_hdf5, "an HDF5 file", "h5py"),
    "npy": (_npy, "a NumPy .npy array", "numpy.load"),
    "npz": (_npz, "a NumPy .npz archive", "numpy.load"),
    "zip": (_zip, "a zip archive", "unpack it"),
    "one_example": (_one_example, "one serialized protobuf message", "TFRecordWriter"),
    "json": (_json, "JSON text", "tfr-viewer convert"),
    "csv": (_csv, "CSV text", "tfr-viewer convert"),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_look_alike_is_named_in_one_line_and_exits_2(tmp_path, kind):
    make, what, todo = CASES[kind]
    path = tmp_path / "data.tfrecord"
    make(path)
    for command in ("count", "verify", "info"):
        done = program(command, str(path))
        assert done.returncode == 2, (command, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr
        assert f"not a TFRecord file: it is {what}" in lines[0] and todo in lines[0]
        assert str(path) in lines[0]

    import tfr_viewer as tfv

    with pytest.raises(UserError, match=f"it is {what}".replace("(", r"\(").replace(".", r"\.")):
        tfv.open(str(path))


def test_a_damaged_tfrecord_is_still_called_damaged(tmp_path):
    whole = tf_write(tmp_path / "whole.tfrecord", [b"x" * 50] * 3).read_bytes()
    path = tmp_path / "damaged.tfrecord"
    path.write_bytes(whole[:20] + b"\xff" * 8 + whole[28:])  # the first payload hit
    done = program("verify", str(path))
    assert done.returncode == 1 and "not a TFRecord" not in done.stderr + done.stdout
