"""GZIP and ZLIB files that stop early, small and large: every record decoded before the
cut is kept, at least as many as TensorFlow reads before its error, and the same bytes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.tf_oracle import tf, tf_write
from tfr_viewer.core.io.dataset import Dataset
from tfr_viewer.core.io.records import RecordStatus


def _tf_read_until_error(path, compression: str) -> list[bytes]:
    t = tf()
    out = []
    try:
        for r in t.data.TFRecordDataset(str(path), compression_type=compression.upper()):
            out.append(bytes(r.numpy()))
    except t.errors.DataLossError:
        pass
    return out


def _payloads(count: int, size: int) -> list[bytes]:
    return [(b"%06d" % i) * (size // 6) for i in range(count)]


@pytest.mark.parametrize("compression", ["gzip", "zlib"])
@pytest.mark.parametrize(("count", "size"), [(1000, 30), (300, 20_000)])
@pytest.mark.parametrize("cut", ["last 10 bytes", "last 4 bytes", "two thirds", "half"])
def test_a_cut_stream_keeps_what_was_decoded(tmp_path, compression, count, size, cut):
    whole = tf_write(tmp_path / "whole.tfrecord", _payloads(count, size), compression)
    data = whole.read_bytes()
    end = {
        "last 10 bytes": len(data) - 10,
        "last 4 bytes": len(data) - 4,
        "two thirds": len(data) * 2 // 3,
        "half": len(data) // 2,
    }[cut]
    path = tmp_path / "cut.tfrecord"
    path.write_bytes(data[:end])
    theirs = _tf_read_until_error(path, compression)
    with Dataset([str(path)]) as ds:
        ds.index()
        ours = [ds.read(i) for i in range(len(ds)) if ds.read_verified(i)[1] is RecordStatus.OK]
    assert len(ours) >= len(theirs) > 0
    assert ours[: len(theirs)] == theirs
    run = [sys.executable, "-m", "tfr_viewer", "info", "--json", str(path)]
    info = subprocess.run(run, capture_output=True, text=True)
    assert info.returncode in (0, 1), info.stderr
    assert json.loads(info.stdout)["records"] >= len(theirs)
