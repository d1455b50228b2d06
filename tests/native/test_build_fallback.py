"""Without a working C compiler the build warns and succeeds: the package installs and
runs on the pure-Python path, and every command says so on stderr unless the user chose
that path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tfr_viewer.core.io.framing import encode_frame

ROOT = Path(__file__).resolve().parents[2]


def test_a_build_without_a_compiler_warns_and_succeeds(tmp_path):
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "native", tmp_path / "native")
    shutil.copytree(
        ROOT / "tfr_viewer",
        tmp_path / "tfr_viewer",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    env = dict(os.environ, CC="/nonexistent/cc", LDSHARED="/nonexistent/cc -shared")
    run = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "the compiled core of tfr-viewer could not be built" in run.stderr
    built = (tmp_path / "tfr_viewer" / "core").glob("_fast*")
    assert not [p for p in built if p.suffix != ".pyi"]  # the stub is a source file
    version = subprocess.run(
        [sys.executable, "-c", "from tfr_viewer.versions import engine; print(engine())"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(tmp_path)),
    )
    assert version.stdout.startswith("pure Python (the compiled core is not built"), version

    # pip hides a build's output, so the commands warn each time
    sample = tmp_path / "a.tfrecord"
    sample.write_bytes(encode_frame(b"x") * 3)
    env = {k: v for k, v in os.environ.items() if k != "TFR_VIEWER_PURE_PYTHON"}
    env["PYTHONPATH"] = str(tmp_path)
    command = [sys.executable, "-m", "tfr_viewer", "count", str(sample)]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=env)
    assert run.returncode == 0 and run.stdout.strip() == "3", run
    assert "warning: the compiled core is not built" in run.stderr
    assert "TFR_VIEWER_PURE_PYTHON=1" in run.stderr
    env["TFR_VIEWER_PURE_PYTHON"] = "1"  # chosen: no warning
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=env)
    assert run.returncode == 0 and run.stdout.strip() == "3" and run.stderr == "", run
