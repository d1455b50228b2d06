"""Test configuration: headless Qt, quiet TensorFlow, and shared TensorFlow-made files."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# Keep the GUI's remembered settings (recent files, geometry) out of the user's config.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="tfr-viewer-tests-")
