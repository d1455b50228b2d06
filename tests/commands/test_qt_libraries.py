"""``open`` on Linux names the X11 libraries Qt needs that are missing, in one line with
the packages to install, before Qt is loaded (instead of Qt's abort)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tfr_viewer.commands.qt_libraries import LIBRARIES, missing

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "shapes_odapi.tfrecord"


def test_each_library_that_cannot_be_loaded_is_named_by_its_package():
    def load(name: str) -> object:
        if name in ("libxcb-cursor.so.0", "libxcb-shape.so.0"):
            raise OSError(f"{name}: cannot open shared object file")
        return object()

    assert missing(load) == ["libxcb-cursor0", "libxcb-shape0"]
    assert missing(lambda name: object()) == []
    assert "libxcb-cursor0" in LIBRARIES.values()


def test_open_says_which_are_missing_before_loading_qt(tmp_path):
    """The real command, in a process whose loader cannot find libxcb-cursor (a
    sitecustomize hides it, as a machine without the package would)."""
    (tmp_path / "sitecustomize.py").write_text(
        "import ctypes\n"
        "real = ctypes.CDLL\n"
        "class Hidden(real):\n"
        "    def __init__(self, name, *a, **k):\n"
        "        if 'xcb-cursor' in str(name):\n"
        "            raise OSError(str(name) + ': cannot open shared object file')\n"
        "        super().__init__(name, *a, **k)\n"
        "ctypes.CDLL = Hidden\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env |= {"PYTHONPATH": str(tmp_path), "DISPLAY": ":77"}
    code = (
        "import sys\nfrom tfr_viewer.cli import main\n"
        f"rc = main(['open', {str(SAMPLE)!r}])\n"
        "print('QT', any(m.startswith('PySide6') for m in sys.modules), rc, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    lines = done.stderr.strip().splitlines()
    assert lines[-1] == "QT False 2", done.stderr
    assert "libxcb-cursor0" in lines[0] and "apt-get install libxcb-cursor0" in lines[0]
    assert len(lines) == 2
