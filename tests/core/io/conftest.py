"""Every test here runs on both paths (compiled core and pure Python)."""

from tests.both_paths import hot_path  # noqa: F401 - an autouse fixture
