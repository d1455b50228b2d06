"""`--version` and the About box read versions from package metadata."""

from __future__ import annotations

import platform
import re
from importlib import metadata

from tests.program import program
from tfr_viewer import __version__
from tfr_viewer.core import fast
from tfr_viewer.versions import LIBRARIES, library_versions, version_text


def test_every_runtime_dependency_is_listed():
    requires = metadata.requires("tfr-viewer") or []
    runtime = {re.match(r"[A-Za-z0-9._-]+", r).group() for r in requires if "extra ==" not in r}
    assert {dist for _, dist in LIBRARIES} == runtime


def test_versions_match_the_installed_ones():
    rows = dict(library_versions())
    assert rows["Python"] == platform.python_version()
    for name, dist in LIBRARIES:
        assert rows[name] == metadata.version(dist)
    lines = version_text().splitlines()
    assert lines[0] == f"tfr-viewer {__version__}"
    assert lines[1].startswith("path: ")
    assert f"numpy {metadata.version('numpy')}" in lines


def test_a_missing_library_is_named_not_raised(monkeypatch):
    real = metadata.version

    def fake(dist: str) -> str:
        if dist == "rapidgzip":
            raise metadata.PackageNotFoundError(dist)
        return real(dist)

    monkeypatch.setattr(metadata, "version", fake)
    assert dict(library_versions())["rapidgzip"] == "not installed"


def test_the_version_names_the_path_in_use():
    fast.use(False)
    try:
        assert "pure Python" in version_text().splitlines()[1]
    finally:
        fast.use(fast.available())
    if fast.available():
        assert "compiled core (CRC32C: " in version_text().splitlines()[1]


def test_the_environment_variable_forces_the_pure_python_path():
    out = program("--version", env={"TFR_VIEWER_PURE_PYTHON": "1"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1].startswith("path: pure Python")
