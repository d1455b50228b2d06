"""The command line as a subprocess, its JSON read back."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def cli_json(*args: str) -> tuple[int, dict]:
    """``tfr-viewer ARGS`` (uncached): its exit code (0 or 1) and its JSON."""
    env = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)
