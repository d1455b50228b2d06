"""Hostile input on the command line, run as a subprocess: image and tensor bombs,
catastrophic regular expressions, division by zero, and a full disk."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from tests.commands.test_first_hour import ODAPI, cli
from tests.hostile.files import BOMBS, tensor_claiming
from tfr_viewer.core.io.framing import write_records
from tfr_viewer.core.write import build_example


@pytest.fixture
def bombs(tmp_path):
    path = tmp_path / "bombs.tfrecord"
    records = [
        build_example({"image/encoded": [BOMBS[n]()], "label": [i]})
        for i, n in enumerate(sorted(BOMBS))
    ]
    write_records(path, records + [tensor_claiming(2**31)])
    return path


def test_show_reports_bombs_and_exits_0(bombs):
    for index in range(len(BOMBS)):
        for flag in ((), ("--json",)):
            run = cli("show", str(index), str(bombs), *flag)
            assert run.returncode == 0, run.stderr
            assert "too large to decode" in run.stdout and "Traceback" not in run.stderr
    run = cli("show", str(len(BOMBS)), str(bombs), "--json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["shape"] == [2**31] and "not expanded" in record["note"]


def test_jsonl_export_of_bombs(bombs, tmp_path):
    out = tmp_path / "rows.jsonl"
    run = cli("export", str(bombs), "-o", str(out), "--format", "jsonl")
    assert run.returncode == 0, run.stderr
    assert len(out.read_text().splitlines()) == len(BOMBS) + 1


def test_a_catastrophic_regex_finishes_at_once(tmp_path):
    path = tmp_path / "names.tfrecord"
    write_records(path, [build_example({"name": [b"a" * 32 + b"!"]})] * 50)
    start = time.monotonic()
    run = cli("count", str(path), "--filter", 'match(name, "^(a|a)*$")')
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "0" and time.monotonic() - start < 20
    refused = cli("count", str(path), "--filter", 'match(name, "(?=a)a")')
    assert refused.returncode == 2 and "linear-time engine (RE2)" in refused.stderr
    assert "re2.cc" not in refused.stderr  # the engine's own log stays quiet


def test_division_by_zero_matches_nothing():
    assert cli("count", ODAPI, "--filter", 'f["image/height"] / 0 > 1').stdout.strip() == "0"
    assert cli("count", ODAPI, "--filter", 'f["image/height"] % 0 == 0').stdout.strip() == "0"


def test_a_full_disk_is_one_line_and_exit_2(tmp_path):
    """A real full disk: a 64 KiB tmpfs (when this machine lets us mount one)."""
    tiny = tmp_path / "tiny"
    tiny.mkdir()
    mount = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(tiny)], capture_output=True
    )
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mount.stderr.decode().strip()}")
    try:
        samples = str(ODAPI).rsplit("/", 1)[0]
        for extra in ((), ("--format", "jsonl")):
            out = tiny / f"out{len(extra)}"
            run = cli("export", samples, "-o", str(out), *extra)
            assert run.returncode == 2, run.stderr
            lines = run.stderr.strip().splitlines()
            assert len(lines) == 1 and "no space left on the device" in lines[0]
            assert "nothing was written" in lines[0] and "Traceback" not in run.stderr
            assert list(tiny.iterdir()) == []  # no temporary file left behind
    finally:
        subprocess.run(["umount", str(tiny)], check=False)


def test_a_full_disk_in_process(tmp_path, monkeypatch, capsys):
    """The same through ENOSPC from the writer, where no tmpfs can be mounted."""
    import errno

    from tfr_viewer.cli import main
    from tfr_viewer.core.io import framing

    real = framing.RecordWriter.write_frame
    calls = []

    def full(self, frame):
        calls.append(1)
        if len(calls) > 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(self, frame)

    monkeypatch.setattr(framing.RecordWriter, "write_frame", full)
    assert main(["export", str(ODAPI), "-o", str(tmp_path / "o.tfrecord")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no space left on the device" in err[0]
    assert list(tmp_path.iterdir()) == []


def test_ten_million_floats_in_bounded_memory(tmp_path):
    """A 40 MB record of 10M floats: show and show --json stream their values."""
    import numpy as np

    path = tmp_path / "floats.tfrecord"
    values = np.random.default_rng(3).random(10_000_000).astype(np.float32)
    write_records(path, [build_example({"x": values})])
    # VmHWM is this process's own peak (ru_maxrss would carry the parent's across exec)
    code = (
        "import sys\n"
        "from tfr_viewer.cli import main\n"
        "rc = main(sys.argv[1:])\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
        "print(rc, int(hwm) // 1024, file=sys.stderr)\n"
    )
    for flag in ("--json", None):
        out = tmp_path / f"out{flag}.txt"
        with open(out, "w") as sink:
            run = subprocess.run(
                [sys.executable, "-c", code, "show", "0", str(path), *([flag] if flag else [])],
                stdout=sink,
                stderr=subprocess.PIPE,
                text=True,
                timeout=300,
            )
        rc, peak_mb = (int(v) for v in run.stderr.split()[-2:])
        assert rc == 0 and peak_mb < 400, run.stderr
    shown = json.loads((tmp_path / "out--json.txt").read_text())["features"]["x"]["values"]
    assert len(shown) == 10_000_000
    assert np.array_equal(np.asarray(shown, dtype=np.float32), values)
    assert "(10000000 values)" in (tmp_path / "outNone.txt").read_text()


def test_a_tiny_file_with_millions_of_records_is_warned_about(tmp_path):
    """2 MB of GZIP can hold 67M records: past a limit, say so (and go on)."""
    import gzip
    import os

    from tfr_viewer.core.io.framing import encode_frame

    path = tmp_path / "many.tfrecord.gz"
    path.write_bytes(gzip.compress(encode_frame(b"") * 300_000, 9))
    assert path.stat().st_size < 20_000
    env = {**os.environ, "TFR_VIEWER_WARN_RECORDS": "100000"}
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "count", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0 and run.stdout.strip() == "300000"
    assert "warning: more than 100,000 records" in run.stderr


@pytest.mark.parametrize("command", [["info"], ["list"], ["show", "0"], ["verify"], ["count"]])
def test_a_file_name_that_is_not_utf8_prints_on_a_strict_terminal(tmp_path, command):
    """A name holding the byte 0xff, printed to a stdout that only takes UTF-8: escaped,
    never a UnicodeEncodeError."""
    import os

    name = os.fsdecode(tmp_path / os.fsdecode(b"bad\xff.tfrecord"))
    write_records(name, [build_example({"label": i}) for i in range(3)])
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *command, name],
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert b"Traceback" not in run.stderr
    if command[0] in ("info", "list", "show"):
        assert b"bad\\udcff" in run.stdout or b"bad\\xff" in run.stdout


@pytest.mark.parametrize("text", ['f["\\ud800"] == 1', 'label == "a\\udfff"', 'has("\\ud800")'])
def test_a_filter_with_a_lone_surrogate_is_a_filter_error(tmp_path, text):
    path = tmp_path / "a.tfrecord"
    write_records(path, [build_example({"label": i}) for i in range(3)])
    run = cli("count", "--filter", text, str(path))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "is not a character" in run.stderr


@pytest.mark.parametrize("command", [["info"], ["verify"], ["show", "0"], ["stats"], ["check"]])
def test_a_fifo_given_as_a_dataset_is_refused_at_once(tmp_path, command):
    import os

    fifo = tmp_path / "records.tfrecord"
    os.mkfifo(fifo)
    run = cli(*command, str(fifo))  # a read would wait for a writer forever
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "FIFO" in run.stderr and len(run.stderr.splitlines()) == 1
