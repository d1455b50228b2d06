"""The window's commands as data: each :class:`Action` names its menu, its place there,
its shortcut, what it does and when it can be used; :func:`build_menus` makes the menu
bar from the whole table. Nothing else adds an action to a menu.

Menus are named by id: the top-level menus of :data:`MENUS` and submenus declared by
:class:`Submenu` entries (``"file/rows"``). Within a menu, items are in ascending
``group`` and, within a group, in ascending ``order``, then in the order of the table;
a separator stands between groups. Each action group of the window declares its own
entries beside its code; the window joins them into one table.

A handler or a condition is a callable, or an :class:`On`: a name of what lives on the
window (``On("navigator.goto_dialog")``), looked up each time it is used. A group
whose entries name it so is declared as data (its module's ``ACTIONS``) and made the
first time one of its commands runs: a window opens without making it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

Shortcut = str | QKeySequence.StandardKey

MENUS: tuple[tuple[str, str], ...] = (
    ("file", "&File"),
    ("go", "&Go"),
    ("view", "&View"),
    ("edit", "&Edit"),
    ("analyze", "&Analyze"),
    ("help", "&Help"),
)


@dataclass(frozen=True)
class Submenu:
    """A menu inside menu ``menu``, placed like an action."""

    id: str  # "parent/name"
    title: str
    group: int = 0
    tip: str = ""
    order: int = 0

    @property
    def menu(self) -> str:
        return self.id.rpartition("/")[0]


@dataclass(frozen=True)
class On:
    """What lives on the window at ``path`` (attribute names from the window, dotted:
    ``"edit_actions.exports.export_dialog"``). As a handler it is called with ``args``;
    as a condition it is read (called, when it is a method). Looked up each time, so the
    group it names is made only when one of its commands runs."""

    path: str
    args: tuple[Any, ...] = ()

    def resolve(self, root: object) -> Any:
        """The thing at ``path`` from ``root``."""
        found = root
        for name in self.path.split("."):
            found = getattr(found, name)
        return found

    def value(self, root: object) -> Any:
        """Call what is at ``path`` with ``args`` (a method), or read it (a value)."""
        found = self.resolve(root)
        return found(*self.args) if callable(found) else found


OPEN = On("session.is_open")  # a dataset is open


@dataclass(frozen=True)
class Action:
    """One command. ``handler`` runs on a click or the shortcut (never given
    ``triggered``'s ``checked``); ``enabled`` says whether it can run now (checked when
    its menu opens and when the window's session changes); ``provided`` is an action
    made elsewhere (a dock's Show/Hide, Undo), placed and given the shortcut here."""

    id: str
    title: str
    menu: str
    handler: Callable[[], object] | On | None = None
    shortcut: Shortcut | None = None
    group: int = 0
    enabled: Callable[[], bool] | On | None = None
    provided: QAction | None = None
    order: int = 0


Entry = Action | Submenu


class Menus:
    """The menu bar made from a table: ``menu(id)`` and ``action(id)`` find its parts.
    ``owner`` (the window) is where each :class:`On` is looked up."""

    def __init__(self, bar: QMenuBar, owner: QObject, table: Sequence[Entry]) -> None:
        self._owner = owner
        ids = [e.id for e in table]
        duplicates = {i for i in ids if ids.count(i) > 1}
        if duplicates:
            raise ValueError(f"actions declared twice: {sorted(duplicates)}")
        self._menus: dict[str, QMenu] = {}
        self._actions: dict[str, QAction] = {}
        self._enabled: list[tuple[QAction, Callable[[], bool]]] = []
        for key, title in MENUS:
            menu = self._menus[key] = bar.addMenu(title)
            menu.aboutToShow.connect(self.refresh)
        self._fill(owner, table)
        self.refresh()

    def _fill(self, owner: QObject, table: Sequence[Entry]) -> None:
        # submenus first, so that actions may be placed in them in any order
        for entry in table:
            if isinstance(entry, Submenu):
                sub = self._menus[entry.id] = QMenu(entry.title, self._menus[entry.menu])
                sub.setToolTip(entry.tip)
                sub.aboutToShow.connect(self.refresh)
        for key in self._menus:
            items = [e for e in table if e.menu == key]
            items.sort(key=lambda e: (e.group, e.order))  # stable: then the table's order
            menu = self._menus[key]
            last_group: int | None = None
            for entry in items:
                if last_group is not None and entry.group != last_group:
                    menu.addSeparator()
                last_group = entry.group
                if isinstance(entry, Submenu):
                    menu.addMenu(self._menus[entry.id])
                else:
                    menu.addAction(self._make(owner, entry))

    def _make(self, owner: QObject, a: Action) -> QAction:
        action = a.provided or QAction(a.title, owner)
        action.setText(a.title)
        if a.shortcut is not None:
            action.setShortcut(QKeySequence(a.shortcut))
        if a.handler is not None:
            handler = self._callable(a.handler)
            action.triggered.connect(lambda _checked=False: handler())
        if a.enabled is not None:
            self._enabled.append((action, self._callable(a.enabled)))
        self._actions[a.id] = action
        return action

    def _callable(self, given: Callable[[], Any] | On) -> Callable[[], Any]:
        if isinstance(given, On):
            return lambda: given.value(self._owner)
        return given

    def menu(self, id: str) -> QMenu:
        return self._menus[id]

    def action(self, id: str) -> QAction:
        return self._actions[id]

    def refresh(self) -> None:
        """Enable each action whose ``enabled`` holds now."""
        for action, enabled in self._enabled:
            action.setEnabled(bool(enabled()))


def build_menus(bar: QMenuBar, owner: QObject, table: Sequence[Entry]) -> Menus:
    """The menus of ``table`` on ``bar``; actions made here are children of ``owner``."""
    return Menus(bar, owner, table)
