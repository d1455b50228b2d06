"""Versions of the app and of the libraries it runs on (``--version``, the About box)."""

from __future__ import annotations

import platform
import sys
from importlib import metadata

from . import __version__

# (name shown, distribution whose metadata holds the version)
LIBRARIES = (
    ("numpy", "numpy"),
    ("protobuf", "protobuf"),
    ("Pillow", "Pillow"),
    ("PySide6", "PySide6-Essentials"),
    ("google-crc32c", "google-crc32c"),
    ("rapidgzip", "rapidgzip"),
    ("isal", "isal"),
    ("google-re2", "google-re2"),
    ("imagehash", "ImageHash"),
    ("pyqtgraph", "pyqtgraph"),
    ("fsspec", "fsspec"),
    ("aiohttp", "aiohttp"),
)


def library_versions() -> list[tuple[str, str]]:
    """``(name, version)`` for Python and each runtime library; "not installed" when a
    library's metadata is missing. Imports none of the libraries."""
    rows = [("Python", platform.python_version())]
    for name, dist in LIBRARIES:
        try:
            rows.append((name, metadata.version(dist)))
        except metadata.PackageNotFoundError:
            rows.append((name, "not installed"))
    return rows


def engine() -> str:
    """Which implementation of the hot loops runs: the compiled core or pure Python."""
    from .core.fast import describe

    return describe()


def version_text() -> str:
    """``tfr-viewer X.Y.Z`` on the first line, the path in use (``path: compiled core ...``
    or ``path: pure Python ...``) on the second, then one ``name version`` line per
    library."""
    build = " (bundle)" if getattr(sys, "frozen", False) else ""
    lines = [f"tfr-viewer {__version__}{build}", f"path: {engine()}"]
    lines += [f"{name} {version}" for name, version in library_versions()]
    return "\n".join(lines)
