"""``tfr-viewer index``: the cached index, ``--tfindex`` files that the PyTorch tfrecord
package reads, ``--no-cache``, and a pipe closed early."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from tfr_viewer.core.io import write_records
from tfr_viewer.core.io.framing import encode_frame
from tfr_viewer.core.write.build import build_example


def _run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *args], capture_output=True, text=True, env=env
    )


@pytest.fixture
def env(tmp_path):
    return dict(
        os.environ,
        TFR_VIEWER_CACHE_DIR=str(tmp_path / "cache"),
        TFR_VIEWER_CACHE_MIN_BYTES="0",
    )


def test_index_caches_and_writes_a_tfindex_the_tfrecord_package_reads(tmp_path, env):
    path = tmp_path / "a.tfrecord"
    write_records(path, [build_example({"id": i, "name": f"n{i}"}) for i in range(40)])
    run = _run("index", "--tfindex", "--json", str(path), env=env)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    (item,) = out["files"]
    assert item["records"] == 40 and item["problems"] == 0
    assert item["cache"] and os.path.exists(item["cache"])
    assert item["tfindex"] == str(path) + ".tfindex"
    lines = (tmp_path / "a.tfrecord.tfindex").read_text().splitlines()
    assert len(lines) == 40
    start, size = map(int, lines[1].split())
    assert start == int(lines[0].split()[1]) and start + size == int(lines[2].split()[0])

    if importlib.util.find_spec("tfrecord") is None:
        pytest.skip("the PyTorch tfrecord package is not installed")
    # in a process of its own: its generated messages clash with TensorFlow's if both load
    code = (
        "import sys; from tfrecord.reader import tfrecord_loader\n"
        "rows = tfrecord_loader(sys.argv[1], sys.argv[1] + '.tfindex', None, shard=(1, 4))\n"
        "print([int(r['id'][0]) for r in rows])\n"
    )
    read = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert read.returncode == 0, read.stderr
    assert read.stdout.strip() == str(list(range(10, 20)))


def test_damaged_records_stay_out_of_the_tfindex(tmp_path, env):
    path = tmp_path / "d.tfrecord"
    frames = [encode_frame(build_example({"id": i})) for i in range(5)]
    bad = bytearray(frames[2])
    bad[14] ^= 0xFF
    path.write_bytes(b"".join(frames[:2]) + bytes(bad) + b"".join(frames[3:]))
    run = _run("index", "--tfindex", str(path), env=env)
    assert run.returncode == 0
    assert "1 damaged record left out" in run.stderr
    assert len((tmp_path / "d.tfrecord.tfindex").read_text().splitlines()) == 4


def test_no_tfindex_for_a_compressed_file(tmp_path, env):
    path = tmp_path / "g.tfrecord.gz"
    write_records(path, [b"abc"] * 3, compression="gzip")
    run = _run("index", "--tfindex", str(path), env=env)
    assert run.returncode == 1
    assert "decompress it first" in run.stderr
    assert not (tmp_path / "g.tfrecord.gz.tfindex").exists()


def test_no_cache_writes_nothing(tmp_path, env):
    path = tmp_path / "n.tfrecord"
    write_records(path, [b"abc"] * 3)
    assert _run("count", "--no-cache", str(path), env=env).stdout.strip() == "3"
    assert not (tmp_path / "cache").exists()
    assert _run("count", str(path), env=env).stdout.strip() == "3"
    assert len(list((tmp_path / "cache").iterdir())) == 1


def test_a_reader_that_stops_early_is_not_an_error(tmp_path, env):
    path = tmp_path / "many.tfrecord"
    write_records(path, [b"x" * 10] * 50_000)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tfr_viewer", "list", "--json", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout.readline().startswith(b'{"index": 0')
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in proc.stderr.read()


def test_commands_give_the_same_answers_from_the_cache(tmp_path, env):
    path = tmp_path / "f.tfrecord"
    write_records(path, [build_example({"label": i % 5}) for i in range(500)])
    for _ in range(2):  # the first run fills the cache, the second reads it
        assert _run("count", "--filter", "label == 3", str(path), env=env).stdout == "100\n"
        listed = _run("list", "--filter", "label == 3", "--json", str(path), env=env).stdout
        assert len(listed.splitlines()) == 100
        assert "500 records in 1 file: OK" in _run("verify", str(path), env=env).stdout
        assert '"label"' in _run("schema", "--json", str(path), env=env).stdout
    assert len(list((tmp_path / "cache").iterdir())) == 1
