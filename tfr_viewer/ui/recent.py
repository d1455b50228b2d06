"""Open Recent: datasets remembered in QSettings, offered in a menu."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu, QStyle

MAX_RECENT = 10


class RecentFiles:
    """Each entry is one opened dataset: its paths joined with ``os.pathsep``."""

    def __init__(
        self, settings: QSettings, menu: QMenu, open_paths: Callable[[list[str]], object]
    ) -> None:
        self._settings, self._menu, self._open = settings, menu, open_paths
        self.refresh_menu()

    def entries(self) -> list[str]:
        value = self._settings.value("recent", [])
        return [value] if isinstance(value, str) else list(value or [])

    def last_dir(self) -> str:
        """Where file dialogs start: the folder of the last dataset, else here."""
        entries = self.entries()
        return os.path.dirname(entries[0]) if entries else os.getcwd()

    def remember(self, specs: Sequence[str]) -> None:
        entry = os.pathsep.join(os.path.abspath(s) for s in specs)
        recent = [entry] + [r for r in self.entries() if r != entry]
        self._settings.setValue("recent", recent[:MAX_RECENT])
        self.refresh_menu()

    def refresh_menu(self) -> None:
        self._menu.clear()
        for entry in self.entries():
            paths = entry.split(os.pathsep)
            self._menu.addAction(self._action_for(entry, paths))
        self._menu.setEnabled(bool(self.entries()))

    def _action_for(self, entry: str, paths: list[str]) -> QAction:
        """``name`` for a file, ``name/`` with a folder icon for a folder (shard sets are
        often opened as folders), ``(+N)`` for several paths, disabled when gone."""
        first = paths[0]
        folder = os.path.isdir(first)
        name = os.path.basename(first.rstrip(os.sep)) or first
        more = f" (+{len(paths) - 1})" if len(paths) > 1 else ""
        action = QAction(name + ("/" if folder else "") + more, self._menu)
        if folder:
            action.setIcon(QApplication.style().standardIcon(QStyle.StandardPixmap.SP_DirIcon))
        exists = all(os.path.exists(p) or set("*?[@") & set(os.path.basename(p)) for p in paths)
        action.setEnabled(exists)
        action.setToolTip(entry if exists else f"{entry} (no longer there)")
        action.triggered.connect(lambda _=False, p=paths: self._open(p))
        return action
