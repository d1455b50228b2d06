"""What the window's action groups need of the window, and of each other, as protocols,
so that none of them imports the main window."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QStatusBar, QTableView

from ..core.io import Dataset, Problem
from .editing import Editor
from .filter_bar import FilterBar
from .models.feature_tree import Node
from .models.record_table import RecordTableModel
from .panels.pending_edits import PendingEdits


class EditHost(Protocol):
    """What the edit actions need of the window that hosts them."""

    dataset: Dataset | None
    current: int | None
    model: RecordTableModel
    table: QTableView
    filter_bar: FilterBar
    pending: PendingEdits
    edit_menu: QMenu
    file_menu: QMenu
    quit_action: QAction

    def statusBar(self) -> QStatusBar: ...  # noqa: N802
    def show_record(self, record: int) -> None: ...
    def update_title(self) -> None: ...
    def selected_tree_node(self) -> Node | None: ...
    def show_error(self, title: str, text: str) -> None: ...
    def add_action(
        self, menu: QMenu, text: str, slot: Callable[[], object], shortcut: object = None
    ) -> QAction: ...


class EditState(Protocol):
    """The edit actions as the export actions see them."""

    editor: Editor | None

    def selected_records(self) -> list[int]: ...
    def exported(self, records: np.ndarray) -> None: ...


class ViewHost(Protocol):
    """What ordering the rows and navigating need of the window."""

    dataset: Dataset | None
    model: RecordTableModel | None
    current: int | None
    current_region: Problem | None
    table: QTableView
    filter_bar: FilterBar

    def statusBar(self) -> QStatusBar: ...  # noqa: N802
    def select_row(self, row: int) -> None: ...
    def select_record(self, record: int) -> bool: ...
    def select_region(self, region: Problem) -> bool: ...
    def clear_panes(self) -> None: ...
    def refresh_views(self) -> None: ...
    def edited_payloads(self) -> dict[int, bytes]: ...
    def show_error(self, title: str, text: str) -> None: ...
