"""The Linux desktop files: valid by the freedesktop tools, and an install that makes
`xdg-open some.tfrecord` start tfr-viewer."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from tests.packaging.conftest import DESKTOP_FILES, LINUX, ROOT, need, need_linux

SCHEMA = LINUX / "shared-mime-info.xsd"
MIME = DESKTOP_FILES / "tfr-viewer-mime.xml"
DESKTOP = DESKTOP_FILES / "tfr-viewer.desktop"


def run(*args: str, env: dict | None = None, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, env=env, check=check, timeout=120)


def test_desktop_entry_is_valid():
    need_linux()
    need("desktop-file-validate")
    result = run("desktop-file-validate", str(DESKTOP), check=False)
    assert result.returncode == 0 and result.stdout.strip() == "", result.stdout
    text = DESKTOP.read_text()
    assert "MimeType=application/x-tfrecord;" in text and "Exec=tfr-viewer %F" in text


def test_mime_xml_is_valid_against_the_schema(tmp_path):
    need("xmllint")
    result = run("xmllint", "--noout", "--schema", str(SCHEMA), str(MIME), check=False)
    assert result.returncode == 0, result.stderr
    broken = tmp_path / "broken.xml"  # the schema can fail: an unknown element is refused
    broken.write_text(
        MIME.read_text().replace("<acronym>", "<acronymn>").replace("</acronym>", "</acronymn>")
    )
    result = run("xmllint", "--noout", "--schema", str(SCHEMA), str(broken), check=False)
    assert result.returncode != 0 and "acronymn" in result.stderr


def fake_bundle(folder: Path) -> Path:
    """A stand-in executable that records the files it is asked to open."""
    folder.mkdir()
    exe = folder / "tfr-viewer"
    exe.write_text('#!/bin/sh\nprintf "%s\\n" "$@" >> "$(dirname "$0")/opened"\n')
    exe.chmod(0o755)
    return folder


def wait_for(path: Path, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while not path.exists() or not path.read_text():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)
    return path.read_text()


def test_install_then_xdg_open_then_uninstall(tmp_path, desktop_env):
    need_linux()
    need("update-mime-database", "update-desktop-database", "xdg-mime", "xdg-open", "mimetype")
    bundle = fake_bundle(tmp_path / "bundle")
    done = run(str(LINUX / "install.sh"), "--bundle", str(bundle), env=desktop_env)
    assert "installed" in done.stdout
    data = Path(desktop_env["XDG_DATA_HOME"])
    app = data / "tfr-viewer" / "app"
    entry = (data / "applications" / "tfr-viewer.desktop").read_text()
    assert f"Exec={app}/tfr-viewer %F" in entry
    assert (data / "icons/hicolor/48x48/apps/tfr-viewer.png").is_file()
    assert (data / "icons/hicolor/256x256/mimetypes/application-x-tfrecord.png").is_file()
    assert (Path(desktop_env["HOME"]) / ".local/bin/tfr-viewer").resolve() == app / "tfr-viewer"

    files = {}
    for name in (
        "a.tfrecord",
        "b.tfrecords",
        "c.tfrec",
        "d.tfrecord.gz",
        "e.tfrecord-00001-of-00010",
    ):
        files[name] = tmp_path / name
        files[name].write_bytes(b"\x00" * 16)
    for name, path in files.items():
        kind = run("xdg-mime", "query", "filetype", str(path), env=desktop_env).stdout.strip()
        assert kind == "application/x-tfrecord", name
    default = run("xdg-mime", "query", "default", "application/x-tfrecord", env=desktop_env)
    assert default.stdout.strip() == "tfr-viewer.desktop"

    run("xdg-open", str(files["a.tfrecord"]), env=desktop_env)
    assert wait_for(app / "opened").splitlines() == [str(files["a.tfrecord"])]

    run(
        str(app / "linux" / "uninstall.sh")
        if (app / "linux").exists()
        else str(LINUX / "uninstall.sh"),
        env=desktop_env,
    )
    assert not app.exists()
    assert not (data / "applications" / "tfr-viewer.desktop").exists()
    assert not (data / "mime" / "packages" / "tfr-viewer.xml").exists()
    assert not list((data / "icons").rglob("tfr-viewer.png"))
    kind = run("xdg-mime", "query", "filetype", str(files["a.tfrecord"]), env=desktop_env)
    assert kind.stdout.strip() != "application/x-tfrecord"
    mimeapps = Path(desktop_env["XDG_CONFIG_HOME"]) / "mimeapps.list"
    assert "tfr-viewer" not in mimeapps.read_text()


def test_shard_names_without_an_extension(tmp_path, desktop_env):
    """train-00000-of-01024 is matched by a character-class glob, which GLib reads."""
    need_linux()
    need("update-mime-database", "gio")
    mime = Path(desktop_env["XDG_DATA_HOME"]) / "mime"
    (mime / "packages").mkdir(parents=True)
    (mime / "packages" / "tfr-viewer.xml").write_text(MIME.read_text())
    run("update-mime-database", str(mime), env=desktop_env)
    shard = tmp_path / "train-00000-of-01024"
    shard.write_bytes((ROOT / "resources/samples/sequences.tfrecord").read_bytes())
    info = run("gio", "info", "-a", "standard::content-type", str(shard), env=desktop_env)
    assert "application/x-tfrecord" in info.stdout
    other = tmp_path / "notes-00000-of-01024.txt"
    other.write_text("text\n")
    info = run("gio", "info", "-a", "standard::content-type", str(other), env=desktop_env)
    assert "application/x-tfrecord" not in info.stdout


def test_install_without_a_bundle_says_what_to_do(tmp_path, desktop_env):
    need_linux()
    result = run(
        str(LINUX / "install.sh"),
        "--bundle",
        str(tmp_path / "nothing"),
        env=desktop_env,
        check=False,
    )
    assert result.returncode == 2 and "packaging/build.sh" in result.stderr


@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh"])
def test_scripts_reject_unknown_options(script, desktop_env):
    need_linux()
    result = run(str(LINUX / script), "--frobnicate", env=desktop_env, check=False)
    assert result.returncode == 2 and "unknown option" in result.stderr
