"""The window's docks, made from :data:`.panels.registry.PANELS`: one dock per panel,
hidden at first, and a Show/Hide action for each in the action table."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from .actions import Action
from .panels.registry import PANELS, Panel

if TYPE_CHECKING:
    from .host import PanelHost  # docks.py is never imported by host.py

_AREAS = {
    "left": Qt.DockWidgetArea.LeftDockWidgetArea,
    "right": Qt.DockWidgetArea.RightDockWidgetArea,
    "bottom": Qt.DockWidgetArea.BottomDockWidgetArea,
}


class Docks:
    """The docks of ``window``; ``widget(id)`` is a panel, made on first use."""

    def __init__(self, window: QMainWindow, host: PanelHost) -> None:
        self._window, self._host = window, host
        self._docks: dict[str, QDockWidget] = {}
        self._panels: dict[str, Panel] = {p.id: p for p in PANELS}
        self._widgets: dict[str, QWidget] = {}
        for panel in PANELS:
            dock = self._docks[panel.id] = QDockWidget(panel.title, window)
            dock.setObjectName(panel.id)
            window.addDockWidget(_AREAS[panel.area], dock)
            dock.hide()
            if panel.lazy:
                dock.visibilityChanged.connect(
                    lambda shown, id=panel.id: self.widget(id) if shown else None
                )
            else:
                self.widget(panel.id)

    def dock(self, id: str) -> QDockWidget:
        return self._docks[id]

    def widget(self, id: str) -> QWidget:
        """The panel ``id``, made (and attached to the host) the first time."""
        made = self._widgets.get(id)
        if made is None:
            module, _, name = self._panels[id].widget.partition(":")
            cls = getattr(importlib.import_module(f".panels.{module}", __package__), name)
            made = self._widgets[id] = cls(self._window)
            self._docks[id].setWidget(made)
            attach = getattr(made, "attach", None)
            if attach is not None:
                attach(self._host)
        return made

    def made(self, id: str) -> bool:
        """Whether panel ``id`` exists yet (lazy panels wait to be shown)."""
        return id in self._widgets

    def show(self, id: str) -> None:
        dock = self._docks[id]
        dock.show()
        dock.raise_()

    def actions(self) -> list[Action]:
        """Each panel's Show/Hide action, for the action table."""
        out = []
        for panel in PANELS:
            toggle = self._docks[panel.id].toggleViewAction()
            out.append(
                Action(
                    f"panel.{panel.id}",
                    panel.menu_title,
                    panel.menu,
                    shortcut=panel.shortcut,
                    provided=toggle,
                    order=10,  # after the menu's own commands
                )
            )
        return out
