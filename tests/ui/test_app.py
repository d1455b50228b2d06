"""The `open --screenshot` contract, run as a user would: a separate process."""

from __future__ import annotations

import os
import subprocess
import sys

from PySide6.QtGui import QImage

from tests.program import program
from tests.ui.conftest import SAMPLES


def run_open(*args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    return program("open", *args, env={"QT_QPA_PLATFORM": "offscreen"}, timeout=timeout)


def test_screenshot_of_a_selected_record(tmp_path):
    out = tmp_path / "shot.png"
    run = run_open(
        str(SAMPLES / "shapes_odapi.tfrecord"), "--select", "2", "--screenshot", str(out)
    )
    assert run.returncode == 0, run.stderr
    image = QImage(str(out))
    assert not image.isNull() and image.width() > 400 and image.height() > 300
    assert out.stat().st_size > 10_000


def test_screenshot_of_a_compressed_shard_set(tmp_path):
    out = tmp_path / "gz.png"
    run = run_open(
        str(SAMPLES / "shapes_gzip.tfrecord@3"), "--select", "17", "--screenshot", str(out)
    )
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size > 10_000


def test_screenshot_of_a_missing_record_or_an_empty_file_is_still_taken(tmp_path):
    """A record that does not exist is a warning: the window is saved as it is."""
    out = tmp_path / "x.png"
    run = run_open(str(SAMPLES / "sequences.tfrecord"), "--select", "99", "--screenshot", str(out))
    assert run.returncode == 0, run.stderr
    assert "warning: record 99 does not exist" in run.stderr and out.stat().st_size > 10_000
    empty = tmp_path / "empty.tfrecord"
    empty.write_bytes(b"")
    shot = tmp_path / "empty.png"
    run = run_open(str(empty), "--select", "0", "--screenshot", str(shot))
    assert run.returncode == 0, run.stderr
    assert not QImage(str(shot)).isNull()


def test_screenshot_errors(tmp_path):
    run = run_open(str(tmp_path / "missing.tfrecord"), "--screenshot", str(tmp_path / "y.png"))
    assert run.returncode == 2 and "missing.tfrecord" in run.stderr


def test_a_screenshot_leaves_the_remembered_window_size_alone(tmp_path):
    config = tmp_path / "config"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(config)}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tfr_viewer",
            "open",
            str(SAMPLES / "sequences.tfrecord"),
            "--screenshot",
            str(tmp_path / "s.png"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    settings = (config / "tfr-viewer" / "tfr-viewer.conf").read_text()
    assert "sequences.tfrecord" in settings  # the file was remembered as recent
    assert "geometry" not in settings


def test_screenshot_of_image_and_tensor_bombs(tmp_path):
    from tests.ui.test_file_types import bombs

    path = bombs(tmp_path)
    for select in ("0", "4"):
        out = tmp_path / f"bomb{select}.png"
        run = run_open(str(path), "--select", select, "--screenshot", str(out), timeout=60)
        assert run.returncode == 0, run.stderr
        assert "Traceback" not in run.stderr and out.stat().st_size > 10_000


def test_the_start_up_trace_says_when_rows_show_every_record_is_counted_and_verified():
    """What the window benchmarks read: the first rows painted, then every record counted
    (as many as TensorFlow reads), then the indexing over, and the window closes."""
    from tests.tf_oracle import tf_read

    path = SAMPLES / "shapes_odapi.tfrecord"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TFR_VIEWER_TRACE_STARTUP": "exit"}
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "open", "--new-instance", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    marks = {}
    for line in run.stderr.splitlines():
        words = line.split()
        if words and words[0] in ("first-rows-painted", "counted", "indexed"):
            marks[words[0]] = words[1:]
    assert set(marks) == {"first-rows-painted", "counted", "indexed"}
    assert int(marks["counted"][1]) == len(tf_read(path))
    times = [float(marks[k][0]) for k in ("counted", "indexed")]
    assert times == sorted(times)


def test_a_screenshot_on_a_real_display_says_its_warnings_in_a_line(tmp_path):
    """On an X display a warning of the window would be a message box; the screenshot
    mode has nobody to answer it, so it prints the line and goes on."""
    from tests.ui.x11 import xvfb_run
    from tfr_viewer.core.io.framing import encode_frame

    path = tmp_path / "many.tfrecord"
    path.write_bytes(encode_frame(b"r" * 20) * 200_000)
    out = tmp_path / "shot.png"
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "xcb",
        "TFR_VIEWER_WARN_RECORDS": "5",
        "TFR_VIEWER_NO_CACHE": "1",
    }
    run = subprocess.run(
        [
            *xvfb_run(),
            sys.executable,
            "-m",
            "tfr_viewer",
            "open",
            str(path),
            "--screenshot",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stderr.splitlines() if "A very large dataset" in line]
    assert len(said) == 1 and "more than 5 records" in said[0]
    assert out.stat().st_size > 10_000


def test_a_screenshot_of_a_bad_path_on_a_real_display_ends_at_once(tmp_path):
    from tests.ui.x11 import xvfb_run

    env = {**os.environ, "QT_QPA_PLATFORM": "xcb"}
    run = subprocess.run(
        [
            *xvfb_run(),
            sys.executable,
            "-m",
            "tfr_viewer",
            "open",
            str(tmp_path / "nowhere"),
            "--screenshot",
            str(tmp_path / "y.png"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert run.returncode == 2
    lines = [line for line in run.stderr.splitlines() if line.startswith("tfr-viewer")]
    assert len(lines) == 1 and "nowhere" in lines[0]
