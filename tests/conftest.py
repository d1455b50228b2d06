"""Test configuration: headless Qt, quiet TensorFlow, and shared TensorFlow-made files."""

from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# Keep the GUI's remembered settings (recent files, geometry) out of the user's config.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="tfr-viewer-tests-")
# The persistent index cache of the tests is their own.
os.environ["TFR_VIEWER_CACHE_DIR"] = tempfile.mkdtemp(prefix="tfr-viewer-cache-")
# Launches in the tests never hand their files to an app the user has running.
os.environ["TFR_VIEWER_INSTANCE"] = f"tfr-viewer-tests-{os.getpid()}"

# Where the compiled core is not built, the pure-Python path is the only one, and the
# warning that says so on every command would only be noise in the tests' outputs.
if not __import__("tfr_viewer.core.fast", fromlist=["available"]).available():
    os.environ.setdefault("TFR_VIEWER_PURE_PYTHON", "1")

# the loopback servers and files of the remote-URL tests; the planted label errors
pytest_plugins = ["tests.remote_data", "tests.planted_labels"]


def pytest_report_header(config: pytest.Config) -> str:
    from tfr_viewer.core.fast import describe

    return f"tfr-viewer path: {describe()}"


@pytest.fixture(scope="session")
def qapp_cls():
    """Qt tests run under the app's own QApplication subclass (window icon, file-open
    events, the window list)."""
    from tfr_viewer.ui.app import Application

    return Application
