"""`--version` and the About box read versions from package metadata."""

from __future__ import annotations

import platform
from importlib import metadata

from tfr_viewer import __version__
from tfr_viewer.versions import LIBRARIES, library_versions, version_text


def test_every_runtime_dependency_is_listed():
    requires = metadata.requires("tfr-viewer") or []
    runtime = {
        r.split(">")[0].split("=")[0].split("<")[0].strip() for r in requires if "extra ==" not in r
    }
    assert {dist for _, dist in LIBRARIES} == runtime


def test_versions_match_the_installed_ones():
    rows = dict(library_versions())
    assert rows["Python"] == platform.python_version()
    for name, dist in LIBRARIES:
        assert rows[name] == metadata.version(dist)
    lines = version_text().splitlines()
    assert lines[0] == f"tfr-viewer {__version__}"
    assert f"numpy {metadata.version('numpy')}" in lines


def test_a_missing_library_is_named_not_raised(monkeypatch):
    real = metadata.version

    def fake(dist: str) -> str:
        if dist == "rapidgzip":
            raise metadata.PackageNotFoundError(dist)
        return real(dist)

    monkeypatch.setattr(metadata, "version", fake)
    assert dict(library_versions())["rapidgzip"] == "not installed"
