"""Range reads from lying servers on 127.0.0.1: one that sends a byte every second, one
that ignores Range and never stops sending, one that replaces the object while it is
read (under a new ETag, or the same one): each ends in one line and exit 2, bounded in
time and memory, and nothing it sent is cached."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.commands.test_remote_urls import cli
from tests.remote_data import example
from tests.remote_server import serving
from tests.tf_oracle import tf_write


def _cli(*argv: str, **env: str) -> subprocess.CompletedProcess:
    return cli(*argv, **{"TFR_VIEWER_REMOTE_RETRIES": "1", **env})


def _one_line(run: subprocess.CompletedProcess) -> str:
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1
    return run.stderr


def test_a_server_that_trickles_is_cut_off_by_the_deadline(tmp_path):
    tf_write(tmp_path / "a.tfrecord", [example(i) for i in range(200)])
    with serving(tmp_path) as server:
        server.faults.trickle = 0.5  # a byte every half second: the idle timeout never fires
        started = time.monotonic()
        run = _cli(
            "info",
            server.url("a.tfrecord"),
            TFR_VIEWER_REMOTE_TIMEOUT="5",
            TFR_VIEWER_REMOTE_DEADLINE="3",
            TFR_VIEWER_NO_CACHE="1",
        )
        assert "longer than 3 s" in _one_line(run)
        assert time.monotonic() - started < 60


_PEAK = (
    "import sys\n"
    "from tfr_viewer.cli import main\n"
    "rc = main(sys.argv[1:])\n"
    "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
    "print('peak', int(hwm) // 1024, file=sys.stderr)\n"
    "sys.exit(rc)\n"
)


def test_a_server_that_ignores_range_and_never_stops_is_read_no_further(tmp_path):
    tf_write(tmp_path / "a.tfrecord", [example(i) for i in range(200)])
    with serving(tmp_path) as server:
        server.faults.endless = True
        run = subprocess.run(
            [sys.executable, "-c", _PEAK, "info", server.url("a.tfrecord")],
            capture_output=True,
            text=True,
            timeout=180,
            env={**os.environ, "TFR_VIEWER_REMOTE_RETRIES": "1", "TFR_VIEWER_NO_CACHE": "1"},
        )
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    message, peak = run.stderr.strip().splitlines()
    assert "ignores range requests" in message
    assert int(peak.split()[1]) < 400  # MB: the endless body was never held


def _replaced_while_read(tmp_path: Path, same_etag: bool) -> tuple:
    """A 40-record object replaced by a 20-record one after the scan's first requests."""
    first = [example(i, 300_000) for i in range(40)]
    second = [example(i + 100, 300_000) for i in range(20)]
    tf_write(tmp_path / "v1", first)
    tf_write(tmp_path / "v2", second)
    shutil.copy(tmp_path / "v1", tmp_path / "a.tfrecord")
    cache = tmp_path / "cache"
    env = {
        "TFR_VIEWER_CACHE_DIR": str(cache),
        "TFR_VIEWER_CACHE_MIN_BYTES": "0",
        "TFR_VIEWER_NO_CACHE": "",
    }
    with serving(tmp_path) as server:
        if same_etag:
            server.faults.fixed_etag = '"one-tag-for-every-version"'
        server.faults.latency = 0.05

        def replace() -> None:
            while server.range_requests < 1:
                time.sleep(0.01)
            # at once, as a bucket replaces an object (a copy in place would be read
            # half-written: an answer cut short, not a changed object)
            shutil.copy(tmp_path / "v2", tmp_path / "a.next")
            os.replace(tmp_path / "a.next", tmp_path / "a.tfrecord")

        swap = threading.Thread(target=replace, daemon=True)
        swap.start()
        run = _cli("info", server.url("a.tfrecord"), **env)
        swap.join(30)
        server.faults.latency = 0
        again = _cli("count", server.url("a.tfrecord"), **env)
    return run, again


def test_an_object_replaced_under_a_new_etag_is_reported_not_cached(tmp_path):
    run, again = _replaced_while_read(tmp_path, same_etag=False)
    assert "changed while it was being read" in _one_line(run)
    assert again.returncode == 0 and again.stdout.strip() == "20", again.stderr


def test_an_object_replaced_under_the_same_etag_is_reported_not_cached(tmp_path):
    run, again = _replaced_while_read(tmp_path, same_etag=True)
    assert "changed while it was being read" in _one_line(run)
    assert again.returncode == 0 and again.stdout.strip() == "20", again.stderr
