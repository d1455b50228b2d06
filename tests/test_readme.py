"""The README is short, and every command in it runs: each ``tfr-viewer`` line of its
shell blocks (the window's with ``--screenshot``, offscreen) and its Python block, from
a folder that has the bundled samples; its links lead to files that exist; and the user
guide builds with ``mkdocs build --strict`` (a broken link or anchor fails it)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def test_the_readme_is_short_and_its_links_exist():
    assert len(README.splitlines()) <= 250
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if "://" not in target:
            assert (ROOT / target).exists(), target


def test_every_command_in_the_readme_runs(tmp_path):
    (tmp_path / "resources").symlink_to(ROOT / "resources")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TFR_VIEWER_NO_CACHE": "1"}
    ran = 0
    for block in _blocks("sh"):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if not words or words[0] != "tfr-viewer":
                continue
            args = words[1:]
            if args and args[0].startswith("resources/"):  # the window on a file
                args = ["open", *args, "--screenshot", str(tmp_path / "window.png")]
            done = subprocess.run(
                [sys.executable, "-m", "tfr_viewer", *args],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert done.returncode == 0, (line, done.stderr[-2000:])
            ran += 1
    assert ran >= 9
    assert (tmp_path / "window.png").stat().st_size > 0
    assert (tmp_path / "check.xml").exists() and (tmp_path / "pictures").is_dir()
    (python,) = _blocks("python")
    done = subprocess.run(
        [sys.executable, "-c", python + "\nprint(len(three), picture.size)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["9", "(160,", "120)"]


def test_the_user_guide_builds_with_every_link_and_anchor_found(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "python-api" / "index.html").exists()
