"""The real bundle: built by packaging/build.sh from a clean virtual environment, then run
as a user would. Slow (a venv install and a PyInstaller build, 1 to 3 minutes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from tests.packaging.conftest import PACKAGING, ROOT, need, need_linux
from tfr_viewer.ui.instance import hand_off
from tfr_viewer.versions import LIBRARIES

pytestmark = pytest.mark.slow

# The one-folder bundle must stay under this (docs/install.md, "Install"). Its floor is set by the
# wheels it carries: ICU data for Qt (38 MB) and OpenBLAS for numpy (26 MB).
SIZE_LIMIT_MB = 200
SAMPLE = ROOT / "resources" / "samples" / "shapes_odapi.tfrecord"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("bundle")
    build(work)
    return work / "dist" / "tfr-viewer"


def build(work: Path, *options: str) -> None:
    """Run packaging/build.sh into ``work``/dist, as a user would."""
    if sys.platform == "win32":
        pytest.skip("build.sh is for Linux and macOS; Windows uses build.ps1")
    command = [
        str(PACKAGING / "build.sh"),
        *options,
        "--dist",
        str(work / "dist"),
        "--work",
        str(work / "w"),
        "--python",
        sys.executable,
    ]
    built = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-5000:]
    assert "size:" in built.stdout


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", **extra}


def run(exe: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(exe), *args], capture_output=True, text=True, timeout=300, env=env(**extra)
    )


def test_screenshot_from_the_bundle(bundle, tmp_path):
    out = tmp_path / "out.png"
    shot = run(
        bundle / "tfr-viewer", "open", str(SAMPLE), "--select", "0", "--screenshot", str(out)
    )
    assert shot.returncode == 0, shot.stderr
    image = QImage(str(out))
    assert not image.isNull() and image.width() >= 1000 and out.stat().st_size > 10_000


def test_info_json_from_the_bundle(bundle):
    info = run(bundle / "tfr-viewer", "info", "--json", str(SAMPLE))
    assert info.returncode == 0, info.stderr
    report = json.loads(info.stdout)
    source = json.loads(
        subprocess.run(
            [sys.executable, "-m", "tfr_viewer", "info", "--json", str(SAMPLE)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert report == source and report["records"] == 24


def test_the_bundle_reads_an_http_url(bundle):
    from tests.remote_server import serving

    with serving(SAMPLE.parent) as server:
        info = run(bundle / "tfr-viewer", "info", "--json", server.url(SAMPLE.name))
    assert info.returncode == 0, info.stderr
    assert json.loads(info.stdout)["records"] == 24


def test_version_lists_the_bundled_libraries(bundle):
    out = run(bundle / "tfr-viewer", "--version")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].endswith("(bundle)")
    # name and path, Python, then one line per library
    assert len(lines) == 3 + len(LIBRARIES) and not any(
        "not installed" in line for line in lines
    ), lines
    from tfr_viewer.core import fast

    if fast.available():  # the compiled core built here must be in the bundle
        assert lines[1].startswith("path: compiled core"), lines[1]


def test_a_regex_filter_runs_in_the_bundle(bundle):
    """RE2 is imported only when a filter uses match(): it must be in the bundle."""
    out = run(
        bundle / "tfr-viewer",
        "count",
        str(SAMPLE),
        "--filter",
        'match(f["image/filename"], "^shape_1_000[0-3]")',
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "4"


def test_bundle_size_and_contents(bundle):
    report = json.loads(
        subprocess.run(
            [sys.executable, str(PACKAGING / "size_report.py"), str(bundle.parent), "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert report["bytes"] < SIZE_LIMIT_MB * 1e6, report["largest"]
    names = [str(p.relative_to(bundle)).lower() for p in bundle.rglob("*")]
    assert not [n for n in names if "tensorflow" in n or "qtqml" in n or "qt6quick" in n]
    assert (bundle / "linux" / "install.sh").is_file()


def test_second_launch_hands_off_in_the_bundle(bundle):
    name = f"tfr-viewer-test-{uuid.uuid4().hex[:12]}"
    first = subprocess.Popen(
        [str(bundle / "tfr-viewer")],
        env=env(TFR_VIEWER_INSTANCE=name),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        pid = wait_for_instance(name, first)
        assert pid == first.pid
        second = run(bundle / "tfr-viewer", str(SAMPLE), TFR_VIEWER_INSTANCE=name)
        assert second.returncode == 0 and f"(process {first.pid})" in second.stderr
    finally:
        first.terminate()
        first.wait(30)


def wait_for_instance(name: str, proc: subprocess.Popen | None = None, timeout=60.0) -> int:
    """The pid of the app serving ``name``, once it answers (an empty-window request)."""
    deadline = time.monotonic() + timeout
    while True:
        reply = hand_off([], None, name=name)
        if reply is not None:
            return reply.pid
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"the app exited with {proc.returncode}: {proc.stderr.read()}")
        assert time.monotonic() < deadline, "the app never started serving"
        time.sleep(0.2)


def test_xdg_open_starts_the_installed_bundle(bundle, tmp_path, desktop_env):
    need_linux()
    need("update-mime-database", "update-desktop-database", "xdg-mime", "xdg-open", "mimetype")
    name = f"tfr-viewer-test-{uuid.uuid4().hex[:12]}"
    desktop_env = {**desktop_env, "QT_QPA_PLATFORM": "offscreen", "TFR_VIEWER_INSTANCE": name}
    subprocess.run(
        [str(bundle / "linux" / "install.sh")],
        env=desktop_env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    installed = Path(desktop_env["XDG_DATA_HOME"]) / "tfr-viewer" / "app" / "tfr-viewer"
    assert installed.is_file()
    target = tmp_path / "some.tfrecord"
    target.write_bytes(SAMPLE.read_bytes())
    opener = subprocess.Popen(
        ["xdg-open", str(target)],
        env=desktop_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        pid = wait_for_instance(name)
        exe = Path(os.readlink(f"/proc/{pid}/exe"))
        assert exe == installed.resolve()  # the installed bundle, started by xdg-open
        os.kill(pid, 15)
        opener.wait(60)
    finally:
        if opener.poll() is None:
            opener.kill()
    subprocess.run(
        [str(installed.parent / "linux" / "uninstall.sh")],
        env=desktop_env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert not installed.exists()


def test_one_file_variant(tmp_path):
    build(tmp_path, "--onefile")
    exe = tmp_path / "dist" / "tfr-viewer"
    assert exe.is_file() and exe.stat().st_size < SIZE_LIMIT_MB * 1e6
    info = run(exe, "info", "--json", str(SAMPLE))
    assert info.returncode == 0, info.stderr
    assert json.loads(info.stdout)["records"] == 24
    out = tmp_path / "one.png"
    shot = run(exe, "open", str(SAMPLE), "--select", "1", "--screenshot", str(out))
    assert shot.returncode == 0, shot.stderr
    assert not QImage(str(out)).isNull()
