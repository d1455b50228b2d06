"""``index --check IDX PATH``: an index the PyTorch ``tfrecord`` package writes (the
format NVIDIA DALI reads too) fits its file; a misaligned one is named line by line,
exit 1; what cannot be checked is one line, exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.tf_oracle import tf_write


def _check(idx, path, *more: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "index", "--check", str(idx), str(path), *more],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def data(tmp_path):
    path = tf_write(tmp_path / "data.tfrecord", [bytes([i]) * (10 + 7 * i) for i in range(30)])
    idx = tmp_path / "data.idx"
    # in a process of its own: the package's protos clash with TensorFlow's in one
    code = (
        "import sys; from tfrecord.tools.tfrecord2idx import create_index; "
        "create_index(*sys.argv[1:])"
    )
    made = subprocess.run([sys.executable, "-c", code, str(path), str(idx)], capture_output=True)
    assert made.returncode == 0, made.stderr
    return path, idx


def test_an_index_the_tfrecord_package_writes_fits(data, tmp_path):
    path, idx = data
    done = _check(idx, path, "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["valid"] is True and doc["records"] == 30 and doc["problems"] == []
    ours = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "index", "--tfindex", str(path)],
        capture_output=True,
        text=True,
    )
    assert ours.returncode == 0
    assert (tmp_path / "data.tfrecord.tfindex").read_text() == idx.read_text()


def test_a_misaligned_index_is_named_line_by_line(data, tmp_path):
    path, idx = data
    lines = idx.read_text().splitlines()
    cases = {
        "shifted": [f"{int(a) + 4} {b}" for a, b in (line.split() for line in lines)],
        "short": lines[:-3],
        "long": [*lines, lines[-1]],
        "garbage": [lines[0], "12 x", *lines[2:]],
        "sizes": [lines[0], f"{lines[1].split()[0]} 99", *lines[2:]],
        "digits": [lines[0], f"{'9' * 5000} 12", *lines[2:]],
    }
    said = {
        "shifted": ("wrong_offset", 1, "record 0 starts at 0"),
        "short": ("missing_records", None, "first missing is record 27"),
        "long": ("extra_lines", 31, "lists 31 records"),
        "garbage": ("unreadable_line", 2, "line 2 is not two whole numbers"),
        "sizes": ("wrong_size", 2, "its frame takes"),
        "digits": ("unreadable_line", 2, "line 2 is not two whole numbers"),
    }
    for name, content in cases.items():
        bad = tmp_path / f"{name}.idx"
        bad.write_text("\n".join(content) + "\n", encoding="utf-8")
        done = _check(bad, path, "--json")
        assert done.returncode == 1, (name, done.stderr)
        first = json.loads(done.stdout)["problems"][0]
        kind, line, words = said[name]
        assert (first["kind"], first["line"]) == (kind, line) and words in first["message"], first
    for digits in ("\u0661\u0662 \u0663", "12 ²"):  # digits to str.isdigit, not to an index
        odd = tmp_path / "odd.idx"
        odd.write_text("\n".join([lines[0], digits, *lines[2:]]) + "\n", encoding="utf-8")
        done = _check(odd, path)
        assert done.returncode == 2 and "is not a text index" in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    text = _check(tmp_path / "shifted.idx", path)
    assert "does not fit" in text.stdout.splitlines()[-1]
    assert "… and 10 more problems" in text.stdout  # 30 wrong lines: 20 named


def test_what_cannot_be_checked_is_one_line(data, tmp_path):
    path, idx = data
    fifo = tmp_path / "pipe.idx"
    os.mkfifo(fifo)
    gz = tf_write(tmp_path / "data.tfrecord.gz", [b"abc"], compression="gzip")
    binary = tmp_path / "binary.idx"
    binary.write_bytes(b"\xff\xfe\x00")
    for idx_path, target, words in (
        (fifo, path, "FIFO"),
        (idx, gz, "compressed"),
        (binary, path, "not a text index"),
        (tmp_path / "missing.idx", path, "cannot read"),
    ):
        done = _check(idx_path, target)
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    two = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "index", "--check", str(idx), str(path), str(gz)],
        capture_output=True,
        text=True,
    )
    assert two.returncode == 2 and "one TFRecord file" in two.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_hundred_megabyte_index_is_checked_line_by_line(data, tmp_path):
    """A 100 MB index (7,000,000 lines) is read line by line: the process never holds
    it as millions of strings (its peak memory stays within a few copies of the file)."""
    path, _ = data
    big = tmp_path / "big.idx"
    big.write_bytes(b"123456789 1234\n" * 7_000_000)
    code = (  # VmHWM: the process's own peak (ru_maxrss would count the parent's)
        "import sys\n"
        "from tfr_viewer.cli import main\n"
        "rc = main(['index', '--check', sys.argv[1], sys.argv[2]])\n"
        "peak = next(l for l in open('/proc/self/status') if l.startswith('VmHWM'))\n"
        "print(peak.split()[1], rc, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(big), str(path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    peak_kb, rc = done.stderr.strip().splitlines()[-1].split()
    assert rc == "1" and "… and " in done.stdout and "more problems" in done.stdout
    assert int(peak_kb) < 400_000, f"peak {int(peak_kb) / 1024:.0f} MB"
