"""Start-up of the desktop bundle: launch to first rows painted, against the same app run
from Python and against the time TensorFlow takes just to import (the floor for any viewer
built on it). Measured in one run.

Usage: ``python tests/benchmarks/bundle_startup.py [--bundle DIR] [--file PATH] [--runs N]``
(bundle from packaging/build.sh, default dist/tfr-viewer; file default: the 1.3 GB
large.tfrecord of run_benchmarks.py when present, else a sample).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def first_rows(command: list[str], path: Path) -> float:
    """Seconds from launch to the first rows painted (the app prints the moment)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TFR_VIEWER_TRACE_STARTUP": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        launch = time.time()
        done = subprocess.run(
            [*command, "open", str(path), "--screenshot", os.path.join(tmp, "s.png")],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    for line in done.stderr.splitlines():
        if line.startswith("first-rows-painted "):
            return float(line.split()[1]) - launch
    raise RuntimeError(f"no start-up trace in: {done.stderr}")


def command_time(command: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(
        command,
        capture_output=True,
        check=True,
        timeout=600,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"},
    )
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bundle", type=Path, default=ROOT / "dist" / "tfr-viewer")
    ap.add_argument("--file", type=Path)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    path = args.file
    if path is None:
        large = ROOT / "tests" / "benchmarks" / "data" / "large.tfrecord"
        path = large if large.exists() else ROOT / "resources/samples/shapes_odapi.tfrecord"
    exe = args.bundle / "tfr-viewer"
    size = path.stat().st_size / 1e6
    bundle = min(first_rows([str(exe)], path) for _ in range(args.runs))
    source = min(first_rows([sys.executable, "-m", "tfr_viewer"], path) for _ in range(args.runs))
    info = min(command_time([str(exe), "info", str(path)]) for _ in range(args.runs))
    tf_import = min(command_time([sys.executable, "-c", "import tensorflow"]) for _ in range(3))
    rows = [
        (
            f"bundle: launch to first rows painted, {size:,.0f} MB file (best of {args.runs})",
            bundle,
        ),
        (f"same, run from Python (best of {args.runs})", source),
        (f"bundle: `info` on the same file (best of {args.runs})", info),
        ("TensorFlow: `python -c 'import tensorflow'` alone (best of 3)", tf_import),
    ]
    print("| start-up | time | TensorFlow import ÷ ours |\n|---|---|---|")
    for name, seconds in rows:
        print(f"| {name} | {seconds * 1000:.0f} ms | {tf_import / seconds:.1f}x |")


if __name__ == "__main__":
    main()
