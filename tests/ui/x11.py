"""Running a window test on a real X server (Xvfb), where Qt uses the X11 keyboard
scheme (in which, for one, a line edit takes Ctrl+E to move to the end of the line): the
offscreen platform of the other tests does not. The test runs itself again under
``xvfb-run``; without Xvfb it is skipped, unless CI says it must be there."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSIDE = "TFR_VIEWER_UNDER_XVFB"
REQUIRED = os.environ.get("TFR_VIEWER_REQUIRE_DESKTOP_TOOLS") == "1"


def on_x11(node_id: str) -> bool:
    """True when the calling test is already running on the X server; otherwise run
    ``node_id`` there (failing when it fails) and return False."""
    if os.environ.get(INSIDE):
        return True
    if shutil.which("xvfb-run") is None:
        if REQUIRED:
            pytest.fail("xvfb-run is missing (apt: xvfb and the xcb libraries)")
        pytest.skip("xvfb-run is missing: the X11 keyboard scheme cannot be tried")
    env = {**os.environ, INSIDE: "1", "QT_QPA_PLATFORM": "xcb"}
    run = subprocess.run(
        ["xvfb-run", "-a", sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", node_id],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    return False


def xvfb_run() -> list[str]:
    """The command prefix that runs a program on a fresh Xvfb display (skipped without
    Xvfb, unless CI says it must be there)."""
    if shutil.which("xvfb-run") is None:
        if REQUIRED:
            pytest.fail("xvfb-run is missing (apt: xvfb and the xcb libraries)")
        pytest.skip("xvfb-run is missing")
    return ["xvfb-run", "-a"]


@contextlib.contextmanager
def xvfb_display(size: str = "1366x768x24") -> Iterator[str]:
    """A fresh Xvfb server of its own for the block: its display name (``:N``, the first
    free number, as the server itself chose it). Skipped without Xvfb, unless CI says it
    must be there."""
    if shutil.which("Xvfb") is None:
        if REQUIRED:
            pytest.fail("Xvfb is missing (apt: xvfb)")
        pytest.skip("Xvfb is missing")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", size, "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as said:
            number = said.readline().strip()  # written once the server accepts clients
        assert number.isdigit(), f"Xvfb did not start (exit {server.poll()})"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(30)
