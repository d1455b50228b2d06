"""``tfr-viewer install-desktop`` as a pip user runs it: afterwards the desktop says a
``.tfrecord`` is a TFRecord file, opens it with this environment's command, shows the
icon; ``--uninstall`` takes back exactly that. Checked with the freedesktop tools."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.packaging.conftest import need, need_linux
from tests.packaging.linux.test_linux_files import wait_for

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux desktops")

COMMAND = Path(sys.executable).parent / "tfr-viewer"


def cli(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfr_viewer", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def tool(*args: str, env: dict) -> str:
    return subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout.strip()


def test_install_then_the_desktop_knows_the_type_then_uninstall(tmp_path, desktop_env):
    need_linux()
    need("update-mime-database", "update-desktop-database", "xdg-mime", "desktop-file-validate")
    done = cli("install-desktop", env=desktop_env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("installed: 19 files under ")
    data = Path(desktop_env["XDG_DATA_HOME"])
    entry = data / "applications" / "tfr-viewer.desktop"
    valid = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
    assert valid.returncode == 0 and not valid.stdout.strip(), valid.stdout
    text = entry.read_text()
    launcher = str(COMMAND) if COMMAND.is_file() else f"{sys.executable} -m tfr_viewer"
    assert f"Exec={launcher} %F" in text and "MimeType=application/x-tfrecord;" in text
    assert (data / "icons/hicolor/48x48/apps/tfr-viewer.png").read_bytes()[
        :8
    ] == b"\x89PNG\r\n\x1a\n"
    assert (data / "icons/hicolor/256x256/mimetypes/application-x-tfrecord.png").is_file()

    shard = tmp_path / "train.tfrecord-00001-of-00010"
    shard.write_bytes(b"\x00" * 16)
    assert tool("xdg-mime", "query", "filetype", str(shard), env=desktop_env) == (
        "application/x-tfrecord"
    )
    assert tool("xdg-mime", "query", "default", "application/x-tfrecord", env=desktop_env) == (
        "tfr-viewer.desktop"
    )
    again = cli("install-desktop", env=desktop_env)  # a second time replaces its own files
    assert again.returncode == 0, again.stderr

    gone = cli("install-desktop", "--uninstall", env=desktop_env)
    assert gone.returncode == 0 and gone.stdout.startswith("removed: 19 files"), gone.stderr
    assert not entry.exists() and not list((data / "icons").rglob("tfr-viewer.png"))
    assert not (data / "mime" / "packages" / "tfr-viewer.xml").exists()
    assert tool("xdg-mime", "query", "filetype", str(shard), env=desktop_env) != (
        "application/x-tfrecord"
    )
    mimeapps = Path(desktop_env["XDG_CONFIG_HOME"]) / "mimeapps.list"
    assert "tfr-viewer" not in mimeapps.read_text()

    twice = cli("install-desktop", "--uninstall", env=desktop_env)
    assert twice.returncode == 2 and "nothing to remove" in twice.stderr
    assert len(twice.stderr.strip().splitlines()) == 1 and "Traceback" not in twice.stderr


def test_a_double_click_opens_the_file_with_the_command(tmp_path, desktop_env, monkeypatch):
    """xdg-open (what a file manager runs) starts the entry's command with the file."""
    need_linux()
    need("update-mime-database", "update-desktop-database", "xdg-mime", "xdg-open")
    from tfr_viewer.desktop import linux

    fake = tmp_path / "bin" / "tfr-viewer"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\nprintf "%s\\n" "$@" >> "$(dirname "$0")/opened"\n')
    fake.chmod(0o755)
    for name, value in desktop_env.items():
        monkeypatch.setenv(name, value)
    linux.install(desktop_env, command=[str(fake)])
    record = tmp_path / "a b.tfrecord"
    record.write_bytes(b"\x00" * 16)
    subprocess.run(["xdg-open", str(record)], env=desktop_env, check=True, timeout=120)
    assert wait_for(fake.parent / "opened").splitlines() == [str(record)]


def test_a_link_planted_at_a_name_is_replaced_not_written_through(tmp_path, desktop_env):
    need_linux()
    data = Path(desktop_env["XDG_DATA_HOME"])
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    entry = data / "applications" / "tfr-viewer.desktop"
    entry.parent.mkdir(parents=True)
    entry.symlink_to(victim)
    done = cli("install-desktop", env=desktop_env)
    assert done.returncode == 0, done.stderr
    assert victim.read_text() == "keep me"
    assert not entry.is_symlink() and "Exec=" in entry.read_text()


def test_a_fifo_at_a_name_is_refused_and_nothing_is_written(tmp_path, desktop_env):
    need_linux()
    data = Path(desktop_env["XDG_DATA_HOME"])
    mime = data / "mime" / "packages" / "tfr-viewer.xml"
    mime.parent.mkdir(parents=True)
    os.mkfifo(mime)
    done = cli("install-desktop", env=desktop_env)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "FIFO" in done.stderr, done.stderr
    assert not (data / "applications" / "tfr-viewer.desktop").exists()
    assert not (data / "tfr-viewer" / "desktop-files").exists()


def test_exec_quotes_a_path_as_the_desktop_entry_spec_says():
    from tfr_viewer.desktop.linux import desktop_entry

    text = desktop_entry(["/home/a b/venv/bin/tfr-viewer"])
    assert 'Exec="/home/a b/venv/bin/tfr-viewer" %F' in text
    text = desktop_entry(["/opt/py$3/bin/python", "-m", "tfr_viewer"])
    assert 'Exec="/opt/py\\$3/bin/python" -m tfr_viewer %F' in text
    assert "TryExec=/opt/py$3/bin/python" in text
