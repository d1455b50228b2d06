"""Installing without a compiler: the sdist and the wheel build here (``python -m
build``); the sdist carries the compiled core's sources; the wheel, installed into a
fresh environment, runs its compiled core (``tfr-viewer --version`` says so), from the
environment's own copy of the package. The cibuildwheel configuration covers Linux,
macOS (x86-64 and arm64) and Windows, and checks each wheel the same way."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_installs_and_runs_its_compiled_core(tmp_path):
    out = tmp_path / "dist"
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--no-isolation",
            "--sdist",
            "--wheel",
            "--outdir",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = out.glob("tfr_viewer-*.whl")
    (sdist,) = out.glob("tfr_viewer-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
    assert any(n.endswith("native/crc32c.c") or "/native/" in n and n.endswith(".c") for n in names)
    with zipfile.ZipFile(wheel) as zf:
        assert any("core/_fast" in n for n in zf.namelist()), "the compiled core is in the wheel"

    fresh = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(fresh)], check=True, timeout=300)
    python = fresh / ("Scripts" if os.name == "nt" else "bin") / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-index", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    # the dependencies from the test environment; the package from the fresh one
    env = {**os.environ, "PYTHONPATH": sysconfig.get_paths()["purelib"]}
    code = "import tfr_viewer, sys; print(tfr_viewer.__file__)"
    where = subprocess.run(
        [str(python), "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert where.returncode == 0 and str(fresh) in where.stdout, where.stdout + where.stderr
    script = fresh / ("Scripts" if os.name == "nt" else "bin") / "tfr-viewer"
    version = subprocess.run(
        [str(script), "--version"], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert version.returncode == 0, version.stderr
    assert "path: compiled core" in version.stdout, version.stdout


def test_cibuildwheel_builds_for_every_platform():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cibuildwheel"]
    assert {"x86_64", "aarch64"} <= set(config["linux"]["archs"])
    assert {"x86_64", "arm64"} <= set(config["macos"]["archs"])
    assert "AMD64" in config["windows"]["archs"]
    assert "compiled_in_use" in config["test-command"] and "--version" in config["test-command"]
    for release in ("cp310", "cp311", "cp312", "cp313"):
        assert release in config["build"]
