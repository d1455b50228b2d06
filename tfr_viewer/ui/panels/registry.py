"""The registry of the window's docked panels: one entry per panel, read by
:mod:`..docks`, which makes each panel's dock and its Show/Hide action in the menus.
Adding a panel is one module under this package and one entry here.

A panel is a ``QWidget`` made as ``Class(parent)``. When it has a method
``attach(host)``, it is called once with the window's :class:`~..host.PanelHost`: the
panel subscribes there to the session's announcements (``opened``, ``indexed``,
``selected``, ``edited``, ``closed``) and selects records through the host. Panels fed
by an action group (the analysis panels, Pending Edits) are looked up by that group.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Area = Literal["left", "right", "bottom"]


@dataclass(frozen=True)
class Panel:
    """``widget`` is ``"module:Class"`` under this package (or a whole module path, with
    a dot), imported and made the first time the dock is shown or its user asks for it
    (the statistics load pyqtgraph then): a window opens without making its panels."""

    id: str  # the dock's object name, kept with the window's layout
    title: str  # the dock's title
    menu_title: str  # its Show/Hide action
    menu: str  # the menu of that action (see ..actions.MENUS)
    shortcut: str
    area: Area
    widget: str


PANELS: tuple[Panel, ...] = (
    Panel(
        "pending-edits",
        "Pending edits",
        "&Pending Edits",
        "view",
        "Ctrl+3",
        "bottom",
        "pending_edits:PendingEdits",
    ),
    Panel(
        "statistics",
        "Statistics",
        "&Statistics",
        "analyze",
        "Ctrl+4",
        "right",
        "stats_panel:StatisticsPanel",
    ),
    Panel(
        "classes", "Classes", "C&lasses", "analyze", "Ctrl+5", "left", "classes_panel:ClassesPanel"
    ),
    Panel(
        "findings",
        "Findings",
        "&Findings",
        "analyze",
        "Ctrl+6",
        "bottom",
        "findings_panel:FindingsPanel",
    ),
    Panel("files", "Files", "F&iles", "view", "Ctrl+7", "left", "files_panel:FilesPanel"),
    Panel(
        "episode",
        "Episode",
        "&Episode Player",
        "view",
        "Ctrl+8",
        "bottom",
        "episode_player:EpisodePlayer",
    ),
    Panel("runs", "Runs", "&Runs", "view", "Ctrl+9", "bottom", "run_view:RunView"),
    Panel("sql", "SQL", "S&QL", "analyze", "Ctrl+0", "bottom", "sql_panel:SqlPanel"),
)


def every_panel() -> tuple[Panel, ...]:
    """:data:`PANELS`, then the panel of each analysis of the application's registry
    (:mod:`tfr_viewer.app.analyses`) that has one, shown from the Analyze menu."""
    from ...app.analyses import ANALYSES

    registered = tuple(
        Panel(f"analysis-{a.name}", a.title, a.title, "analyze", "", a.area, a.panel)
        for a in ANALYSES
        if a.panel is not None
    )
    return PANELS + registered
