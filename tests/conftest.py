"""Test configuration: headless Qt, quiet TensorFlow, and shared TensorFlow-made files."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
