"""How the main window follows its session: its own panes (the table, the filter bar,
the gallery, the status bar) change when the session announces a dataset opened,
edited or closed, and the window's view of the session is read-only. A mixin of
:class:`~.main_window.MainWindow`, which makes every attribute declared here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QLabel, QPushButton

from .status_widgets import show_warnings

if TYPE_CHECKING:
    from ..core.io import Dataset, Problem
    from .actions import Menus
    from .filter_bar import FilterBar
    from .indexer import Indexer
    from .models.feature_tree import FeatureTreeModel
    from .models.record_table import RecordTableModel
    from .panels.gallery import Gallery
    from .record_view import RecordTableView
    from .session import Session
    from .table_order import TableOrder
    from .viewers.preview import PreviewPane


class WindowSession:
    """The window's side of its :class:`~.session.Session` (``self`` is the window)."""

    session: Session
    menus: Menus
    table: RecordTableView
    order: TableOrder
    filter_bar: FilterBar
    gallery: Gallery
    tree_model: FeatureTreeModel
    preview: PreviewPane
    counts: QLabel
    problems_button: QPushButton
    warnings_button: QPushButton

    if TYPE_CHECKING:  # the window's methods this mixin calls

        def show_record(self, record: int) -> None: ...
        def update_title(self) -> None: ...
        def clear_panes(self) -> None: ...
        def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None: ...

    def _follow_session(self) -> None:
        """The window's own panes follow the session like every panel."""
        session = self.session
        session.opened.connect(self._opened)
        session.closed.connect(self._closed)
        session.edited.connect(self._edited)
        for signal in (session.opened, session.indexed, session.selected, session.closed):
            signal.connect(lambda *_: self.menus.refresh())

    def _opened(self, dataset: Dataset) -> None:
        model = self.session.model
        assert model is not None
        self.table.setModel(model)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        model.sort_requested.connect(self.order.sort)
        self.table.fit_columns()
        self.filter_bar.set_dataset(dataset)
        self.gallery.set_dataset(dataset, model)
        self.tree_model.class_names = model.class_names
        # the names of the boxes' classes: a ClassLabel under a sequence (objects/label)
        nested = [names for key, names in model.class_names.items() if "/" in key]
        top = [names for key, names in model.class_names.items() if "/" not in key]
        self.preview.images.class_names = dict(enumerate(nested[0])) if nested else {}
        self.gallery.thumbs.set_class_names(
            dict(enumerate(top[0])) if top else {}, self.preview.images.class_names
        )
        show_warnings(self.warnings_button, dataset.warnings)

    def _closed(self) -> None:
        self.filter_bar.set_dataset(None)
        self.gallery.set_dataset(None, None)
        self.order.forget()
        self.table.known_keys = []
        self.clear_panes()
        self.counts.clear()
        self.problems_button.hide()
        self.warnings_button.hide()

    def _edited(self, records: list[int]) -> None:
        if self.model is not None:
            self.model.records_changed(records)
        if self.current in records:
            self.show_record(self.current)
        self.update_title()

    # -- the session's state, read-only: the session changes it ----------------------
    @property
    def dataset(self) -> Dataset | None:
        return self.session.dataset

    @property
    def model(self) -> RecordTableModel | None:
        return self.session.model

    @property
    def indexer(self) -> Indexer | None:
        return self.session.indexer

    @property
    def current(self) -> int | None:
        return self.session.current

    @property
    def current_region(self) -> Problem | None:
        """The damaged region whose row is selected, if one is."""
        return self.session.current_region
