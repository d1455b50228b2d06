"""``check``'s arguments are checked at the boundary: a setting or a file that does
not fit is refused in one line, exit 2, before the dataset is opened (a FIFO that would
block any reader shows it)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--quality", "shiny=2"], "no threshold 'shiny'"),
        (["--quality", "dark=very"], "'very' is not a number"),
        (["--label-map", "MISSING.pbtxt"], "MISSING.pbtxt"),
        (["--schema", "MISSING.json"], "MISSING.json"),
    ],
)
def test_check_refuses_a_misfit_before_the_dataset_is_opened(tmp_path, extra, said):
    fifo = tmp_path / "input.tfrecord"
    os.mkfifo(fifo)
    run = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", "check", str(fifo), *extra],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert run.returncode == 2
    assert said in run.stderr and run.stderr.count("\n") == 1
