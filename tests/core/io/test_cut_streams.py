"""GZIP and ZLIB files that stop early, small and large: every record decoded before the
cut is kept, at least as many as TensorFlow reads before its error, and the same bytes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.program import program
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


def _random_payloads(count: int, size: int) -> list[bytes]:
    import random

    rng = random.Random(7)
    return [rng.randbytes(size) for _ in range(count)]


@pytest.mark.parametrize("compression", ["none", "gzip", "zlib"])
@pytest.mark.parametrize("data", ["compressible", "incompressible"])
def test_count_gives_the_whole_records_tensorflow_reads_and_exits_1(tmp_path, compression, data):
    """Counts are whole records: a frame cut by the end of the file is a problem (exit 1,
    named on stderr), not a record; a stream that hardly compresses (decoded by
    rapidgzip on every core) keeps every byte before its cut too."""
    make = _payloads if data == "compressible" else _random_payloads
    whole = tf_write(tmp_path / "whole.tfrecord", make(180, 300), compression)
    blob = whole.read_bytes()
    path = tmp_path / "cut.tfrecord"
    end = len(blob) - 60 if compression == "none" else len(blob) * 2 // 3
    path.write_bytes(blob[:end])
    theirs = len(_tf_read_until_error(path, compression))
    assert theirs > 0
    done = program("count", str(path))
    assert done.returncode == 1, done.stderr
    assert int(done.stdout) == theirs
    assert "truncated" in done.stderr and "Traceback" not in done.stderr
    as_json = program("count", "--json", str(path))
    assert as_json.returncode == 1
    out = json.loads(as_json.stdout)
    assert out["count"] == out["records"] == theirs
    assert {p["kind"] for p in out["problems"]} == {"truncated"}
    info = json.loads(program("info", "--json", str(path)).stdout)
    assert info["records"] == info["files"][0]["records"] == theirs
    whole_count = program("count", str(whole))
    assert (whole_count.returncode, int(whole_count.stdout)) == (0, 180)


def test_a_cut_frame_says_how_many_of_its_bytes_follow_its_header(tmp_path):
    """A cut frame has no data CRC: every byte after its header is its payload's."""
    whole = tf_write(tmp_path / "whole.tfrecord", [b"x" * 129] * 3)
    blob = whole.read_bytes()
    path = tmp_path / "cut.tfrecord"
    path.write_bytes(blob[:-60])  # the last frame: 12 header bytes, then 145 - 60 - 12
    with Dataset([str(path)]) as ds:
        ds.index()
        (problem,) = ds.problems()
    assert problem.kind == "truncated" and problem.record == 2
    assert "claims 129 payload bytes but only 73 follow" in problem.message
