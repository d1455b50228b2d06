"""Open Recent: datasets remembered in QSettings, offered in a menu."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu, QStyle

from ..core.io.remote import is_url
from .settings_values import read_texts

MAX_RECENT = 10
# between the paths of one entry; never in a path, and not in a URL either (os.pathsep
# is ":" on Linux and macOS, which every URL holds)
_SEPARATOR = "\n"


def _folder_text(path: str, most: int = 48) -> str:
    """The folder that holds ``path``, the home folder written ``~``, its middle cut
    when long."""
    folder = os.path.dirname(os.path.abspath(path.rstrip(os.sep)))
    home = os.path.expanduser("~")
    if folder == home or folder.startswith(home + os.sep):
        folder = "~" + folder[len(home) :]
    if len(folder) > most:
        folder = f"{folder[: most // 3]}…{folder[-(most - most // 3 - 1) :]}"
    return folder


def _split(entry: str) -> list[str]:
    """The paths of an entry (entries saved before URLs were kept used os.pathsep)."""
    if _SEPARATOR in entry or is_url(entry):
        return entry.split(_SEPARATOR)
    return entry.split(os.pathsep)


def last_dir(settings: QSettings) -> str:
    """Where file dialogs start: the folder of the last dataset opened, else here."""
    local = [e for e in read_texts(settings, "recent", MAX_RECENT) if not is_url(e)]
    return os.path.dirname(local[0].split(os.pathsep)[0]) if local else os.getcwd()


class RecentFiles:
    """Each entry is one opened dataset: its paths or URLs, one per line."""

    def __init__(
        self, settings: QSettings, menu: QMenu, open_paths: Callable[[list[str]], object]
    ) -> None:
        self._settings, self._menu, self._open = settings, menu, open_paths
        self.refresh_menu()

    def entries(self) -> list[str]:
        return read_texts(self._settings, "recent", MAX_RECENT)

    def last_dir(self) -> str:
        """Where file dialogs start: the folder of the last dataset, else here."""
        return last_dir(self._settings)

    def remember(self, specs: Sequence[str]) -> None:
        entry = _SEPARATOR.join(s if is_url(s) else os.path.abspath(s) for s in specs)
        recent = [entry] + [r for r in self.entries() if r != entry]
        self._settings.setValue("recent", recent[:MAX_RECENT])
        self.refresh_menu()

    def refresh_menu(self) -> None:
        self._menu.clear()
        for entry in self.entries():
            paths = _split(entry)
            self._menu.addAction(self._action_for(entry, paths))
        self._menu.setEnabled(bool(self.entries()))

    def _action_for(self, entry: str, paths: list[str]) -> QAction:
        """``name — ~/where/it/is`` for a file (two ``train.tfrecord`` of two folders are
        told apart), ``name/`` with a folder icon for a folder (shard sets are often
        opened as folders), ``(+N)`` for several paths, disabled when gone."""
        first = paths[0]
        remote = is_url(first)
        folder = not remote and os.path.isdir(first)
        name = os.path.basename(first.rstrip(os.sep)) or first
        if remote:  # the URL says where: gs://bucket/…/name
            name = first if len(first) <= 60 else f"{first[:24]}…{first[-32:]}"
        more = f" (+{len(paths) - 1})" if len(paths) > 1 else ""
        where = "" if remote else f"  —  {_folder_text(first)}"
        action = QAction(name + ("/" if folder else "") + more + where, self._menu)
        if folder:
            action.setIcon(QApplication.style().standardIcon(QStyle.StandardPixmap.SP_DirIcon))
        exists = all(
            is_url(p) or os.path.exists(p) or set("*?[@") & set(os.path.basename(p)) for p in paths
        )
        action.setEnabled(exists)
        action.setToolTip(entry if exists else f"{entry} (no longer there)")
        action.triggered.connect(lambda _=False, p=paths: self._open(p))
        return action
