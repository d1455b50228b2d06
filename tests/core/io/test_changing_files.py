"""Files that change during and between commands: a file cut short while read is an
error (never SIGBUS), a file appended to while scanned is not cached, and a bit flip
under a restored mtime is found because the cache holds offsets, never verdicts. Each
runs on the compiled and the pure-Python path (this folder's conftest)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import numpy as np
import pytest

from tfr_viewer.core.io import Dataset, index_cache, write_records
from tfr_viewer.core.io.source_errors import FileChanged


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache" / "index"
    monkeypatch.setenv("TFR_VIEWER_CACHE_DIR", str(folder))
    monkeypatch.setenv("TFR_VIEWER_CACHE_MIN_BYTES", "0")
    monkeypatch.delenv("TFR_VIEWER_NO_CACHE", raising=False)
    return folder


def test_a_file_cut_short_while_read_is_an_error_not_a_crash(tmp_path):
    path = tmp_path / "cut.tfrecord"
    write_records(path, [bytes([i % 256]) * 500 for i in range(2000)])
    with Dataset([str(path)]) as ds:
        ds.index(verify=False)
        last = len(ds) - 1
        os.truncate(path, os.path.getsize(path) // 2)
        with pytest.raises(
            FileChanged, match=r"changed while it was being read \(now [\d,]+ bytes"
        ):
            ds.read(last)
        with pytest.raises(FileChanged):
            for _ in ds.verify():
                pass


def test_an_index_taken_before_the_file_was_cut_reads_as_changed_not_damaged(tmp_path):
    """A split (a worker's part of a job) is read by a source opened after the cut, whose
    size is the cut one: records of the index past that end are a changed file."""
    from tfr_viewer.core.analyze.stats import split_stats
    from tfr_viewer.core.io.splits import plan_refs

    path = tmp_path / "cut.tfrecord"
    write_records(path, [bytes([i % 256]) * 500 for i in range(2000)])
    with Dataset([str(path)]) as ds:
        ds.index(verify=False)
        (ref,) = plan_refs(ds)
    split = ref.load()
    os.truncate(path, os.path.getsize(path) // 2)
    with pytest.raises(FileChanged, match=r"changed while it was being read \(now [\d,]+ bytes"):
        split_stats(split)
    with pytest.raises(FileChanged, match=r"\d+ records from byte 0 where 2,000 were planned"):
        ref.load()


def test_the_cli_says_a_file_changed_and_exits_2(tmp_path, hot_path):
    """A file cut after its index was cached: the next command reads past the new end
    (the entry is rejected, so this is a fresh scan that finds a truncated record) and
    a read of a vanished record says so; never exit 135."""
    path = tmp_path / "cut.tfrecord"
    write_records(path, [bytes([i % 256]) * 300 for i in range(500)])
    env = {**os.environ, "TFR_VIEWER_PURE_PYTHON": "1" if hot_path == "python" else "0"}
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "tfr_viewer", *a], capture_output=True, text=True, env=env
    )
    assert run("verify", str(path)).returncode == 0
    os.truncate(path, os.path.getsize(path) - 1000)
    got = run("verify", "--json", str(path))
    assert got.returncode == 1 and "Traceback" not in got.stderr
    kinds = {p["kind"] for p in json.loads(got.stdout)["problems"]}
    assert kinds == {"truncated"}


def test_a_file_appended_to_during_a_scan_is_not_cached(tmp_path):
    path = tmp_path / "grow.tfrecord"
    write_records(path, [b"r%d" % i for i in range(70_000)])  # more than one chunk
    with Dataset([str(path)]) as ds:
        for n, _ in enumerate(ds.scan(verify=True)):
            if n == 0:
                with open(path, "ab") as out:
                    from tfr_viewer.core.io.framing import encode_frame

                    out.write(b"".join(encode_frame(b"new") for _ in range(50)))
        assert len(ds) == 70_000  # what was there when it was opened
    assert index_cache.load(str(path), False) is None  # nothing kept for the new file
    with Dataset([str(path)]) as ds:
        ds.index(verify=False)
        assert len(ds) == 70_050


def test_a_bit_flip_under_a_restored_mtime_is_found(tmp_path, hot_path):
    path = tmp_path / "rot.tfrecord"
    payloads = [bytes([i % 256]) * 200 for i in range(400)]
    write_records(path, payloads)
    env = {**os.environ, "TFR_VIEWER_PURE_PYTHON": "1" if hot_path == "python" else "0"}
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "tfr_viewer", *a], capture_output=True, text=True, env=env
    )
    assert run("verify", str(path)).returncode == 0
    assert run("count", str(path)).stdout.strip() == "400"  # from the cache now
    st = os.stat(path)
    with open(path, "r+b") as f:  # one bit of record 123's payload
        f.seek(123 * 216 + 12 + 50)
        byte = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([byte[0] ^ 0x10]))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    got = run("verify", "--json", str(path))
    assert got.returncode == 1, got.stderr
    problems = json.loads(got.stdout)["problems"]
    assert [(p["record"], p["kind"]) for p in problems] == [(123, "bad_data_crc")]
    shown = json.loads(run("show", "123", str(path), "--json").stdout)
    assert shown["status"] == "bad_data_crc"


def test_an_entry_that_does_not_fit_its_file_is_rebuilt(tmp_path, cache):
    path = tmp_path / "lie.tfrecord"
    write_records(path, [b"abc"] * 50)
    with Dataset([str(path)]) as ds:
        ds.index()
    (entry,) = cache.glob("*" + index_cache.SUFFIX)
    meta, arrays = index_cache._decode(entry.read_bytes())
    lying = {k: np.array(v) for k, v in arrays.items()}
    lying["lengths"][0] += 1  # a record one byte longer, the next where it was
    lying["gap_at"] = np.array([1], dtype=np.int64)
    lying["gap"] = np.array([2**64 - 1], dtype=np.uint64)
    entry.write_bytes(index_cache._encode({k: v for k, v in meta.items() if k != "arrays"}, lying))
    assert index_cache.load(str(path), False) is None  # its header says otherwise
    too_long = {**lying, "lengths": arrays["lengths"] + 1, "gap_at": arrays["gap_at"]}
    too_long["gap"] = arrays["gap"]
    entry.write_bytes(
        index_cache._encode({k: v for k, v in meta.items() if k != "arrays"}, too_long)
    )
    assert index_cache.load(str(path), False) is None  # its frames overrun the file
    entry.write_bytes(index_cache.MAGIC + b"\xff" * 40)  # does not parse
    assert index_cache.load(str(path), False) is None
    with Dataset([str(path)]) as ds:
        ds.index(verify=False)
        assert len(ds) == 50 and ds.read(10) == b"abc"


def test_the_cache_folder_is_private(tmp_path, cache):
    path = tmp_path / "p.tfrecord"
    write_records(path, [b"abc"] * 5)
    with Dataset([str(path)]) as ds:
        ds.index()
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700
