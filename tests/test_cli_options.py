"""``--jobs N`` on verify, export and convert (processes on this machine, the same split
functions as Beam) gives what one process gives: the same JSON, and outputs TensorFlow
reads record for record; a bad ``--jobs`` is one line and exit 2."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.tf_oracle import tf_read, tf_write


def _cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
    )


def _example(i: int) -> bytes:
    from tests.planted_faults import example_of

    return example_of({"label": [i % 4], "name": [f"r{i}".encode()], "score": [i / 7]})


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> list[str]:
    """Three TensorFlow-written shards and a GZIP one; a payload byte flipped in one."""
    folder = tmp_path_factory.mktemp("jobs")
    paths = []
    for k in range(3):
        path = folder / f"data-{k:05d}-of-00004"
        tf_write(path, [_example(100 * k + i) for i in range(60)])
        paths.append(path)
    tf_write(folder / "data-00003-of-00004", [_example(300 + i) for i in range(40)], "gzip")
    paths.append(folder / "data-00003-of-00004")
    data = bytearray(paths[1].read_bytes())
    data[12 + 4] ^= 0x20  # the first record's payload: its data CRC fails
    paths[1].write_bytes(bytes(data))
    return [str(p) for p in paths]


def test_verify_jobs_gives_the_json_of_one_process(shards):
    one, two = (
        _cli("verify", "--json", "--jobs", "1", *shards),
        _cli("verify", "--json", "--jobs", "2", *shards),
    )
    assert one.returncode == two.returncode == 1, one.stderr + two.stderr
    assert json.loads(two.stdout) == json.loads(one.stdout)
    assert [p["record"] for p in json.loads(one.stdout)["problems"]] == [60]


@pytest.mark.parametrize("extra", [[], ["--filter", "label == 2"], ["--shards", "3"]])
def test_export_jobs_writes_what_one_process_writes(shards, tmp_path, extra):
    outs = {}
    for jobs in ("1", "2"):
        target = (
            tmp_path / jobs / ("part-{shard}.tfrecord" if "--shards" in extra else "out.tfrecord")
        )
        done = _cli("export", *shards, "-o", str(target), "--jobs", jobs, "--json", *extra)
        assert done.returncode == 0, done.stderr
        doc = json.loads(done.stdout)
        files = doc["files"]
        outs[jobs] = (
            [tf_read(f) for f in files],
            doc["records"],
            doc["skipped_damaged"],
            [os.path.basename(f) for f in files],
        )
    assert outs["2"] == outs["1"]
    ids = [100 * k + i for k in range(3) for i in range(60)] + [300 + i for i in range(40)]
    intact = [v for v in ids if v != 100]  # record 60 is damaged
    if extra[:1] == ["--filter"]:
        assert outs["1"][1:3] == (sum(1 for v in intact if v % 4 == 2), 0)
    else:
        assert outs["1"][1:3] == (len(intact), 1)


def test_export_jobs_refuses_to_write_over_its_input(shards):
    done = _cli("export", shards[0], "-o", shards[0], "--jobs", "2", "--overwrite")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert tf_read(shards[0])  # untouched


def _pictures(root) -> None:
    from PIL import Image

    for c, name in enumerate(("cat", "dog")):
        (root / name).mkdir(parents=True)
        for i in range(6):
            pixels = np.random.default_rng(10 * c + i).integers(0, 255, (20, 30, 3), np.uint8)
            out = io.BytesIO()
            Image.fromarray(pixels).save(out, "PNG" if i == 5 else "JPEG")
            suffix = "png" if i == 5 else "jpg"
            (root / name / f"{i}.{suffix}").write_bytes(out.getvalue())
    (root / "dog" / "broken.jpg").write_bytes(b"\xff\xd8\xff not a picture")


def test_convert_jobs_writes_what_one_process_writes(tmp_path):
    root = tmp_path / "pets"
    _pictures(root)
    docs, read = {}, {}
    for jobs in ("1", "2"):
        out = tmp_path / jobs / "pets.tfrecord"
        done = _cli("convert", str(root), "-o", str(out), "--jobs", jobs, "--json")
        assert done.returncode == 0, done.stderr
        doc = json.loads(done.stdout)
        read[jobs] = [tf_read(f) for f in doc["files"]]
        doc["label_files"] = [os.path.basename(f) for f in doc["label_files"]]
        docs[jobs] = {k: v for k, v in doc.items() if k not in ("files", "seconds")}
    assert docs["2"] == docs["1"] and read["2"] == read["1"]
    assert docs["1"]["records"] == 12 and len(docs["1"]["skipped"]) == 1
    refused = _cli(
        "convert",
        str(tmp_path / "1" / "pets.tfrecord"),
        "--images",
        "-o",
        str(tmp_path / "pics"),
        "--jobs",
        "2",
    )
    assert refused.returncode == 2 and "--jobs" in refused.stderr


@pytest.mark.parametrize("command", ["verify", "export", "check", "stats"])
def test_a_bad_jobs_is_one_line_and_exit_2(shards, tmp_path, command):
    extra = ["-o", str(tmp_path / "x.tfrecord")] if command == "export" else []
    done = _cli(command, shards[0], *extra, "--jobs", "0")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--jobs 0" in done.stderr
    assert not (tmp_path / "x.tfrecord").exists()


def _slow_shards(folder) -> list[str]:
    """Enough records that the workers are still busy when the test acts."""
    from tfr_viewer.core.io import write_records

    paths = []
    for k in range(4):
        path = folder / f"big-{k:05d}-of-00004"
        write_records(path, [_example(i) for i in range(60_000)])
        paths.append(str(path))
    return paths


def _workers(pid: int) -> list[int]:
    """The pool's processes: children of the command that run the spawned worker."""
    import time

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    command = f.read()
            except OSError:
                continue
            if parent == pid and b"spawn_main" in command:
                found.append(int(entry))
        if len(found) >= 2:
            return found
        time.sleep(0.05)
    raise AssertionError("the workers never started")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", ["killed", "ctrl_c", "sigterm"])
def test_a_worker_killed_or_ctrl_c_is_one_line(tmp_path, how):
    """A worker killed by a signal (the OOM killer, say) ends the command with one line
    and exit 2, not "problems found"; Ctrl+C (SIGINT to the whole process group, as a
    terminal sends it) ends it with exit 130 and one line, not a traceback a worker."""
    import signal

    paths = _slow_shards(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tfr_viewer", "stats", "--json", "--jobs", "2", *paths],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TFR_VIEWER_NO_CACHE": "1"},
        start_new_session=True,
    )
    try:
        workers = _workers(proc.pid)
        if how == "killed":
            os.kill(workers[0], signal.SIGKILL)
        elif how == "ctrl_c":
            os.killpg(proc.pid, signal.SIGINT)
        else:  # the command alone, as a supervisor stops it: it ends now, workers too
            os.kill(proc.pid, signal.SIGTERM)
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert "Traceback" not in err, err
    if how == "killed":
        assert proc.returncode == 2 and "a worker process ended" in err, (proc.returncode, err)
    else:
        assert proc.returncode in (130, 143), (proc.returncode, err)
    assert len(lines) <= 2, err  # the line (and the progress line it ends)
    for pid in workers:  # no worker is left behind
        assert not os.path.exists(f"/proc/{pid}") or "Z" in open(f"/proc/{pid}/stat").read()


_CUT_AFTER_PLANNING = """
import os, sys
from tfr_viewer.core.io import splits
from tfr_viewer.core.analyze import split_check, stats
from tfr_viewer.core.write import split_export
from tfr_viewer.cli import main

victim = sys.argv[1]
planned = splits.plan_refs


def plan_then_cut(ds, **limits):
    refs = planned(ds, **limits)
    with open(victim, "r+b") as f:  # another program cuts the shard once jobs are planned
        f.truncate(os.path.getsize(victim) // 3)
    return refs


for module in (splits, split_check, stats, split_export):
    module.plan_refs = plan_then_cut
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("command", ["stats", "check", "verify", "export"])
def test_a_shard_cut_after_the_jobs_were_planned_is_one_line_and_exit_2(tmp_path, command):
    paths = []
    for k in range(2):
        path = tmp_path / f"cut-{k:05d}-of-00002"
        tf_write(path, [_example(100 * k + i) for i in range(400)])
        paths.append(str(path))
    before = [open(p, "rb").read() for p in paths]
    argv = [command, *paths, "--jobs", "2"]
    out = tmp_path / "out.tfrecord"
    if command == "export":
        argv += ["-o", str(out)]
    env = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _CUT_AFTER_PLANNING, paths[1], *argv],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("tfr-viewer")]
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(lines) == 1 and "changed while it was being read" in lines[0], done.stderr
    assert paths[1] in lines[0]
    assert open(paths[0], "rb").read() == before[0]  # the other shard is left as it was
    assert not out.exists() and not list(tmp_path.glob(".*"))  # no output, no temporary
