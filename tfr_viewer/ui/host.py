"""What the window's action groups need of the window, and of each other, as protocols,
so that none of them imports the main window."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from PySide6.QtWidgets import QStatusBar, QWidget

from ..core.io import Problem
from .filter_bar import FilterBar
from .session import Session

if TYPE_CHECKING:
    from collections.abc import Sequence

    from PySide6.QtWidgets import (
        QDockWidget,
        QTabWidget,
        QTreeView,
    )

    from ..core.analyze.label_checks import PredictionCheck
    from .dialogs.convert_dialog import ConvertDialog
    from .models.feature_tree import FeatureTreeModel
    from .recent import RecentFiles
    from .record_view import RecordTableView
    from .viewers.preview import PreviewPane


class PanelHost(Protocol):
    """What a docked panel (and a part of the window given its own widgets: the label
    maps, the record panes) may use of the window: its session, selecting, and telling
    the user."""

    @property
    def session(self) -> Session: ...

    def statusBar(self) -> QStatusBar: ...  # noqa: N802
    def as_widget(self) -> QWidget: ...
    def select_record(self, record: int) -> bool: ...
    def select_region(self, region: Problem) -> bool: ...
    def show_error(self, title: str, text: str) -> None: ...
    def export_records(self, fmt: str, records: Sequence[int]) -> None: ...


class EditState(Protocol):
    """The edit actions as the export actions see them."""

    def selected_records(self) -> list[int]: ...
    def exported(self, records: np.ndarray) -> None: ...


class PanelLookup(Protocol):
    """The window's docks as their users see them (:class:`~.docks.Docks`)."""

    def widget(self, id: str) -> QWidget: ...
    def dock(self, id: str) -> QDockWidget: ...


class PredictionsInUse(Protocol):
    """The window's predictions, as the checks take them."""

    @property
    def check(self) -> PredictionCheck: ...


class AnalysisHost(Protocol):
    """What the analysis actions need of the window."""

    @property
    def session(self) -> Session: ...
    @property
    def docks(self) -> PanelLookup: ...
    @property
    def filter_bar(self) -> FilterBar: ...
    @property
    def left_tabs(self) -> QTabWidget: ...
    @property
    def recent(self) -> RecentFiles: ...
    @property
    def preview(self) -> PreviewPane: ...
    @property
    def tree(self) -> QTreeView: ...
    @property
    def tree_model(self) -> FeatureTreeModel: ...
    @property
    def predictions(self) -> PredictionsInUse: ...

    def statusBar(self) -> QStatusBar: ...  # noqa: N802
    def as_widget(self) -> QWidget: ...
    def show_error(self, title: str, text: str) -> None: ...
    def select_record(self, record: int) -> bool: ...
    def select_region(self, region: Problem) -> bool: ...
    def export_records(self, fmt: str, records: Sequence[int]) -> None: ...
    def set_hidden_classes(self, hidden: set[tuple[int | None, str | None]]) -> None: ...


class WindowHost(Protocol):
    """What the window's own actions (:mod:`.window_menus`) need of it."""

    convert_dialog: ConvertDialog | None

    @property
    def session(self) -> Session: ...
    @property
    def recent(self) -> RecentFiles: ...
    @property
    def filter_bar(self) -> FilterBar: ...
    @property
    def preview(self) -> PreviewPane: ...
    @property
    def left_tabs(self) -> QTabWidget: ...
    @property
    def table(self) -> RecordTableView: ...

    def as_widget(self) -> QWidget: ...
    def open_paths(self, specs: Sequence[str], files: Sequence[str] | None = None) -> bool: ...
    def new_window(self) -> None: ...
    def close(self) -> bool: ...
    def copy_selection(self) -> None: ...
    def copy_from_tree(self, value: bool) -> None: ...
    def about(self) -> None: ...


class RecordReads(Protocol):
    """The edit actions as the panes see them: a record's payload as edited, and
    whether it is deleted."""

    def payload(self, record: int) -> bytes: ...
    def is_deleted(self, record: int) -> bool: ...


class OffThread(Protocol):
    """The remote actions as the panes see them: a read of a remote file, off the
    window's thread (False for a local dataset: the caller reads)."""

    def off_thread(self, fn: Callable[[], Any], then: Callable[[Any, Any], None]) -> bool: ...
