"""Make the README's picture of a remote dataset: the bundled object-detection sample
served over loopback HTTP and opened by URL, with the transfer figures and Verify CRCs
in the status bar. ``python tests/tools/remote_screenshot.py OUT``"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main(out: str) -> None:
    from tests.remote_server import serving

    with serving(ROOT / "resources" / "samples") as server:
        url = server.url("shapes_odapi.tfrecord")
        env = {**os.environ, "TFR_VIEWER_NO_CACHE": "1"}
        run = [sys.executable, "-m", "tfr_viewer", "open", url, "--select", "5"]
        done = subprocess.run([*run, "--screenshot", out], env=env, timeout=120)
    sys.exit(done.returncode)


if __name__ == "__main__":
    main(sys.argv[1])
