"""``tfr-viewer install-desktop``: on Linux, the pip-installed command becomes the
program that opens TFRecord files, as the bundle's ``install.sh`` makes the bundle.

:func:`install` writes, under ``$XDG_DATA_HOME`` (``~/.local/share``):

- ``applications/tfr-viewer.desktop``, the package's desktop entry whose ``Exec`` runs
  this environment's command by its full path (so it works whatever the desktop
  session's ``PATH``);
- ``mime/packages/tfr-viewer.xml``, the MIME type ``application/x-tfrecord``;
- ``icons/hicolor/SIZE/{apps,mimetypes}/…png``, rendered from the one drawing of the
  window's icon;

then runs the freedesktop tools that read them (``update-mime-database``,
``update-desktop-database``, ``gtk-update-icon-cache``) and makes the entry the default
for the type (``xdg-mime``). A tool that is missing is named in a note, never an error.
The files written are listed in ``tfr-viewer/desktop-files``; :func:`uninstall` removes
exactly those and the default it set. Every file goes through the output layer, so a
link or a FIFO planted at one of the names is replaced or refused, never written
through.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..core.user_error import UserError
from ..core.write.output import OutputJob

ENTRY = "tfr-viewer.desktop"
MIME_TYPE = "application/x-tfrecord"
MIME_ICON = "application-x-tfrecord"
MANIFEST = Path("tfr-viewer") / "desktop-files"
TOOL_TIMEOUT = 120  # seconds for each freedesktop tool


class DesktopError(UserError):
    """Desktop integration cannot be installed or removed here."""


@dataclass
class Outcome:
    """What :func:`install` or :func:`uninstall` did: the files, and notes for the user
    (a tool that is missing, a folder not on ``PATH``)."""

    files: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def data_home(env: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_DATA_HOME``, else ``~/.local/share`` (an absolute path, as the spec says)."""
    given = env.get("XDG_DATA_HOME", "")
    if given and os.path.isabs(given):
        return Path(given)
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".local" / "share"


def launcher() -> list[str]:
    """The command that opens files in this environment: its ``tfr-viewer`` script
    beside the interpreter, else the interpreter running the package."""
    beside = Path(sys.executable).parent / "tfr-viewer"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside.absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "tfr_viewer"]


def _exec_quoted(word: str) -> str:
    """One argument of a desktop entry's ``Exec`` (the spec's quoting rules)."""
    if not any(c in word for c in " \t\n\"'\\><~|&;$*?#()`%"):
        return word
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in word).replace("%", "%%")
    return f'"{escaped}"'


def desktop_entry(command: list[str]) -> str:
    """The package's desktop entry with ``Exec`` and ``TryExec`` set to ``command``."""
    text = (resources.files(__package__) / ENTRY).read_text(encoding="utf-8")
    lines = []
    for line in text.splitlines():
        if line.startswith("Exec="):
            line = "Exec=" + " ".join(_exec_quoted(w) for w in command) + " %F"
        elif line.startswith("TryExec="):
            line = "TryExec=" + command[0]
        lines.append(line)
    return "\n".join(lines) + "\n"


def mime_xml() -> bytes:
    return (resources.files(__package__) / "tfr-viewer-mime.xml").read_bytes()


def icon_pngs() -> dict[int, bytes]:
    """The window's icon at each hicolor size, as PNG bytes (drawn by the window's
    layer, the one place that loads Qt)."""
    from ..ui import app_icon

    try:
        return app_icon.pngs()
    except OSError as exc:
        raise DesktopError(str(exc)) from None


def _linux_only() -> None:
    if not sys.platform.startswith("linux"):
        where = {"win32": "Windows", "darwin": "macOS"}.get(sys.platform, sys.platform)
        raise DesktopError(
            f"install-desktop registers the program on Linux desktops; on {where}, install "
            "the bundle (see docs/install.md), which registers .tfrecord files"
        )


def install(env: Mapping[str, str] = os.environ, command: list[str] | None = None) -> Outcome:
    """Write the desktop entry, MIME type and icons and register them (see the module).
    Raises :class:`DesktopError` (or the output layer's error) when a file cannot be
    written; nothing is left half-written."""
    _linux_only()
    data = data_home(env)
    command = command or launcher()
    files: dict[Path, bytes] = {
        data / "applications" / ENTRY: desktop_entry(command).encode(),
        data / "mime" / "packages" / "tfr-viewer.xml": mime_xml(),
    }
    for size, png in icon_pngs().items():
        folder = data / "icons" / "hicolor" / f"{size}x{size}"
        files[folder / "apps" / "tfr-viewer.png"] = png
        files[folder / "mimetypes" / f"{MIME_ICON}.png"] = png
    manifest = data / MANIFEST
    listing = "".join(f"{p}\n" for p in files).encode()
    try:
        for path in [*files, manifest]:
            path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DesktopError(f"cannot make {exc.filename}: {exc.strerror or exc}") from None
    writes = [*files.items(), (manifest, listing)]
    with OutputJob.over((), True) as job:
        for path, _ in writes:  # every name checked before anything is written
            job.plan(str(path), role="desktop file")
        for path, content in writes:
            job.write_bytes(str(path), content)
        job.commit()
    outcome = Outcome(files=[*files, manifest])
    _refresh(data, env, outcome)
    _set_default(env, outcome)
    bin_folder = os.path.dirname(command[0])
    if command[1:2] != ["-m"] and bin_folder not in env.get("PATH", "").split(os.pathsep):
        outcome.notes.append(
            f"{bin_folder} is not on PATH; the menu entry and double-click work, but to type "
            "tfr-viewer add it to PATH"
        )
    return outcome


def uninstall(env: Mapping[str, str] = os.environ) -> Outcome:
    """Remove what :func:`install` wrote (as its list says) and the default it set."""
    _linux_only()
    data = data_home(env)
    manifest = data / MANIFEST
    try:
        listed = manifest.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise DesktopError(
            f"nothing to remove: {manifest} is not there (install-desktop was not run "
            "for this user, or was undone)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DesktopError(f"cannot read {manifest}: {exc}") from None
    outcome = Outcome()
    for line in listed:
        path = Path(line)
        if not path.is_absolute() or data not in path.parents:
            continue  # the list names only files under the data folder
        if path.is_symlink() or path.is_file():
            path.unlink()
            outcome.files.append(path)
    manifest.unlink()
    outcome.files.append(manifest)
    if manifest.parent.is_dir() and not any(manifest.parent.iterdir()):
        manifest.parent.rmdir()
    _refresh(data, env, outcome)
    _unset_default(env)
    return outcome


# -- the freedesktop tools -------------------------------------------------------------
def _tool(name: str, *args: str, env: Mapping[str, str], outcome: Outcome, package: str) -> bool:
    found = shutil.which(name, path=env.get("PATH"))
    if found is None:
        outcome.notes.append(f"{name} was not found (package {package}); it was not run")
        return False
    try:
        done = subprocess.run(
            [found, *args],
            env=dict(env),
            capture_output=True,
            text=True,
            timeout=TOOL_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        outcome.notes.append(f"{name} did not run: {exc}")
        return False
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        outcome.notes.append(f"{name} failed: {said[-1] if said else done.returncode}")
        return False
    return True


def _refresh(data: Path, env: Mapping[str, str], outcome: Outcome) -> None:
    if (data / "mime").is_dir():
        _tool(
            "update-mime-database",
            str(data / "mime"),
            env=env,
            outcome=outcome,
            package="shared-mime-info",
        )
    if (data / "applications").is_dir():
        _tool(
            "update-desktop-database",
            "-q",
            str(data / "applications"),
            env=env,
            outcome=outcome,
            package="desktop-file-utils",
        )
    icons = data / "icons" / "hicolor"
    if icons.is_dir() and shutil.which("gtk-update-icon-cache", path=env.get("PATH")):
        quiet = Outcome()  # a theme without an index is fine: the icons are found anyway
        _tool(
            "gtk-update-icon-cache",
            "-q",
            "-t",
            "-f",
            str(icons),
            env=env,
            outcome=quiet,
            package="gtk",
        )


def _set_default(env: Mapping[str, str], outcome: Outcome) -> None:
    _tool(
        "xdg-mime",
        "default",
        ENTRY,
        MIME_TYPE,
        env=env,
        outcome=outcome,
        package="xdg-utils",
    )


def _unset_default(env: Mapping[str, str]) -> None:
    """The line ``install`` made in ``mimeapps.list``, and no other."""
    config = env.get("XDG_CONFIG_HOME", "")
    home = env.get("HOME") or os.path.expanduser("~")
    folder = Path(config) if config and os.path.isabs(config) else Path(home) / ".config"
    listing = folder / "mimeapps.list"
    try:
        lines = listing.read_text(encoding="utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError):
        return
    ours = f"{MIME_TYPE}={ENTRY}"
    kept = [line for line in lines if line.strip().rstrip(";") != ours]
    if kept != lines:
        with OutputJob.over((), True) as job:
            job.plan(str(listing), role="desktop file")
            job.write_bytes(str(listing), "".join(kept).encode())
            job.commit()


def describe(outcome: Outcome, installed: bool, command: list[str] | None = None) -> str:
    """The lines the command prints."""
    if installed:
        head = (
            f"installed: {len(outcome.files)} files under {outcome.files[0].parents[1]}; "
            f".tfrecord files now open with {shlex.join(command or launcher())}"
        )
    else:
        head = f"removed: {len(outcome.files)} files"
    return "\n".join([head, *(f"note: {n}" for n in outcome.notes)])
