"""Without a working C compiler the build warns and succeeds: the package installs and
runs on the pure-Python path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

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
    assert not list((tmp_path / "tfr_viewer" / "core").glob("_fast*"))
    version = subprocess.run(
        [sys.executable, "-c", "from tfr_viewer.versions import engine; print(engine())"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(tmp_path)),
    )
    assert version.stdout.startswith("pure Python (the compiled core is not built"), version
