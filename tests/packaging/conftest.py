"""Helpers for the packaging tests: the packaging folder on sys.path, and desktop tools
that skip a test when absent, unless CI says they must be there."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
LINUX = PACKAGING / "linux"
DESKTOP_FILES = ROOT / "tfr_viewer" / "desktop"  # the desktop entry and the MIME type
sys.path.insert(0, str(PACKAGING))

# .ci/run installs the tools and sets this, so a missing tool fails there instead of skipping.
REQUIRED = os.environ.get("TFR_VIEWER_REQUIRE_DESKTOP_TOOLS") == "1"


def need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if not missing:
        return
    if REQUIRED:
        pytest.fail(f"missing desktop tools: {', '.join(missing)}")
    pytest.skip(f"missing desktop tools: {', '.join(missing)}")


def need_linux() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("Linux desktop integration")


@pytest.fixture
def desktop_env(tmp_path) -> dict[str, str]:
    """A private home: the install goes under it, and nothing the user has is touched."""
    home = tmp_path / "home"
    home.mkdir()
    return {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_DIRS": "/usr/share",
        "XDG_CURRENT_DESKTOP": "",
        "DISPLAY": ":0",  # xdg-open only opens files when it believes a screen is there
    }
