"""The window's docks, made from :func:`.panels.registry.every_panel`: one dock per panel,
hidden at first, and a Show/Hide action for each in the action table.

The default arrangement keeps the records and the picture usable on a 1366×768 screen:
the docks of one side share it as tabs (a second dock opened there becomes a tab, not
a strip that squeezes the table), each side starts at a modest width, and the central
panes have minimum widths. The user's arrangement is remembered with the window's
state; View › Reset Layout puts every dock back (:meth:`Docks.reset`)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from .actions import Action
from .panels.registry import Panel, every_panel

if TYPE_CHECKING:
    from .host import PanelHost  # docks.py is never imported by host.py

_AREAS = {
    "left": Qt.DockWidgetArea.LeftDockWidgetArea,
    "right": Qt.DockWidgetArea.RightDockWidgetArea,
    "bottom": Qt.DockWidgetArea.BottomDockWidgetArea,
}
# the size a side's docks start at: a width for the left and right, a height below
_START = {"left": 240, "right": 330, "bottom": 170}


class Docks:
    """The docks of ``window``; ``widget(id)`` is a panel, made on first use (the first
    time its dock is shown, or its user asks for it)."""

    def __init__(self, window: QMainWindow, host: PanelHost) -> None:
        self._window, self._host = window, host
        self._docks: dict[str, QDockWidget] = {}
        self._all = every_panel()
        self._panels: dict[str, Panel] = {p.id: p for p in self._all}
        self._widgets: dict[str, QWidget] = {}
        # the side docks run the full height; the bottom ones sit under the records
        window.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        window.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        for panel in self._all:
            dock = self._docks[panel.id] = QDockWidget(panel.title, window)
            dock.setObjectName(panel.id)
            dock.hide()
            dock.visibilityChanged.connect(
                lambda shown, id=panel.id: self.widget(id) if shown else None
            )
            if panel.area == "bottom":
                dock.visibilityChanged.connect(
                    lambda shown, id=panel.id: self._tall_enough(id) if shown else None
                )
        self._place()

    def _tall_enough(self, id: str) -> None:
        """A dock below the records, shown: at least as tall as its panel asks (the
        Findings panel: ten rows), the records and the picture keeping their minimum."""
        dock = self._docks[id]
        wanted = self.widget(id).sizeHint().height()
        if dock.height() < wanted:
            self._window.resizeDocks([dock], [wanted], Qt.Orientation.Vertical)

    def _place(self) -> None:
        """Every dock at its side, the docks of a side tabbed together."""
        window = self._window
        first: dict[str, QDockWidget] = {}
        for panel in self._all:
            dock = self._docks[panel.id]
            window.addDockWidget(_AREAS[panel.area], dock)
            dock.setFloating(False)
            if panel.area in first:
                window.tabifyDockWidget(first[panel.area], dock)
            else:
                first[panel.area] = dock
        for area, dock in first.items():
            orientation = Qt.Orientation.Vertical if area == "bottom" else Qt.Orientation.Horizontal
            window.resizeDocks([dock], [_START[area]], orientation)

    def reset(self) -> None:
        """View › Reset Layout: every dock back at its side, tabbed as at first; the
        ones shown stay shown (the last one of a side in front)."""
        shown = [p.id for p in self._all if self._docks[p.id].isVisible()]
        for dock in self._docks.values():
            self._window.removeDockWidget(dock)
        self._place()
        for id in shown:
            self.show(id)

    def dock(self, id: str) -> QDockWidget:
        return self._docks[id]

    def widget(self, id: str) -> QWidget:
        """The panel ``id``, made (and attached to the host) the first time."""
        made = self._widgets.get(id)
        if made is None:
            module, _, name = self._panels[id].widget.partition(":")
            where = module if "." in module else f".panels.{module}"
            cls = getattr(importlib.import_module(where, __package__), name)
            made = self._widgets[id] = cls(self._window)
            self._docks[id].setWidget(made)
            attach = getattr(made, "attach", None)
            if attach is not None:
                attach(self._host)
        return made

    def made(self, id: str) -> bool:
        """Whether panel ``id`` exists yet (a panel waits to be shown or asked for)."""
        return id in self._widgets

    def show(self, id: str) -> None:
        dock = self._docks[id]
        dock.show()
        dock.raise_()

    def actions(self) -> list[Action]:
        """Each panel's Show/Hide action, and View › Reset Layout, for the action table."""
        out = [Action("view.reset_layout", "Reset &Layout", "view", self.reset, None, 2)]
        for panel in self._all:
            dock = self._docks[panel.id]
            toggle = dock.toggleViewAction()
            # shown from the menu: in front of the docks it shares its side with
            toggle.triggered.connect(lambda on, d=dock: d.raise_() if on else None)
            out.append(
                Action(
                    f"panel.{panel.id}",
                    panel.menu_title,
                    panel.menu,
                    shortcut=panel.shortcut or None,
                    provided=toggle,
                    order=10,  # after the menu's own commands
                )
            )
        return out
