"""Which rows the table shows and in what order: the filter's records (with the damaged
regions when nothing is filtered out) in file order, or sorted in the background."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, Qt, Signal

from ..core.io import Problem
from .actions import Action, Entry
from .filter_bar import FilterBar
from .host import PanelHost
from .models.record_table import RecordTableModel
from .record_view import RecordTableView
from .sorter import Sorter


class TableOrder(QObject):
    """Keeps the selection across changes of the table's rows (a filter, a sort);
    ``rows_changed`` when other views of the rows should follow, ``emptied`` when the
    selection went away with nothing to show instead."""

    rows_changed = Signal()
    emptied = Signal()

    def __init__(self, window: PanelHost, table: RecordTableView, filter_bar: FilterBar) -> None:
        super().__init__(window.as_widget())
        self.window, self.table, self.filter_bar = window, table, filter_bar
        self.session = window.session
        self.filtered: np.ndarray | None = None  # the filter's records (None: all)
        self._sorter: Sorter | None = None

    @property
    def sorter(self) -> Sorter:
        """The sort of a column on its worker, made the first time a column is sorted."""
        if self._sorter is None:
            sorter = self._sorter = Sorter(self)
            sorter.finished.connect(self._sorted)
            sorter.progress.connect(
                lambda done, total: self.window.statusBar().showMessage(
                    f"sorting: {done:,} of {total:,}"
                )
            )
        return self._sorter

    def _stop_sorting(self) -> None:
        if self._sorter is not None:
            self._sorter.stop()

    def actions(self) -> list[Entry]:
        """View › Unsorted (File Order)."""
        return [
            Action("view.unsorted", "&Unsorted (File Order)", "view", self.unsort, None, 1, order=1)
        ]

    def forget(self) -> None:
        """The dataset goes away: no filter, no sort."""
        self._stop_sorting()
        self.filtered = None

    def _reselect(self, keep: int | None, region: Problem | None = None) -> bool:
        if self.session.model is None:
            return False
        row = self.session.model.row_of(keep) if keep is not None else None
        if row is None and region is not None:
            row = self.session.model.row_of_region(region)
        if row is not None:
            self.table.select_row(row)
        return row is not None

    def reveal(self, find_row: Callable[[RecordTableModel], int | None]) -> bool:
        """Select the row ``find_row`` finds in the table's model, clearing a filter or
        a sort that hides it (and saying so); False when there is none."""
        model = self.session.model
        if self.session.dataset is None or model is None:
            return False
        row = find_row(model)
        if row is None:
            hidden_by = self.filter_bar.applied_text()
            self.filter_bar.reset()
            self.show_rows(None)
            row = find_row(model)
            if row is not None:
                self.table.select_row(row)
                what = f"the filter {hidden_by!r}" if hidden_by else "the filter"
                self.window.statusBar().showMessage(
                    f"{what} hid it, so every record is shown again", 15000
                )
                return True
        if row is not None:
            self.table.select_row(row)
        return row is not None

    def show_rows(self, rows: np.ndarray | None) -> None:
        """Show the filter's records (None: all); a sort is dropped, the selection kept
        when it is still shown, else the first match shown (the panes cleared when
        nothing matches)."""
        if self.session.model is None:
            return
        keep, region = self.session.current, self.session.current_region
        self.filtered = rows
        self._stop_sorting()
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.session.model.set_rows(rows, regions=self.filter_bar.includes_regions())
        self.rows_changed.emit()
        if not self._reselect(keep, region):
            self.emptied.emit()
            if self.session.model.rowCount():
                self.table.select_row(0)

    def sort(self, column: str, descending: bool) -> None:
        """Sort the shown records by ``column`` in the background ("#" ascending is the
        file order)."""
        w = self.window
        ds = self.session.dataset
        if ds is None or self.session.model is None:
            return
        if column == "#" and not descending:
            self.unsort()
            return
        records = self.filtered if self.filtered is not None else np.arange(len(ds))
        w.statusBar().showMessage(f"sorting by {column}…")
        self.sorter.start(ds, records, column, descending, self.session.workspace.edits.payloads)

    def _sorted(self, order: np.ndarray | None, column: str, descending: bool, error: str) -> None:
        w = self.window
        if error or self.session.model is None:
            w.statusBar().showMessage(error, 15000)
            return
        keep = self.session.current
        self.session.model.set_rows(order, regions=False, sorted_order=True)
        self.rows_changed.emit()
        way = "descending" if descending else "ascending"
        w.statusBar().showMessage(f"sorted by {column} ({way}); View › Unsorted restores", 10000)
        self._reselect(keep)

    def show_order(self, order: np.ndarray, description: str) -> None:
        """Show the records in ``order`` (a sort worked out elsewhere), the selection
        kept; View › Unsorted goes back."""
        w = self.window
        if self.session.model is None:
            return
        self._stop_sorting()
        keep = self.session.current
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.session.model.set_rows(order, regions=False, sorted_order=True)
        self.rows_changed.emit()
        w.statusBar().showMessage(f"sorted: {description}; View › Unsorted restores", 10000)
        self._reselect(keep)

    def unsort(self) -> None:
        """Back to file order (the filter, if any, stays)."""
        self._stop_sorting()
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        if self.session.model is not None and self.session.model.is_sorted:
            keep = self.session.current
            self.session.model.set_rows(self.filtered, regions=self.filter_bar.includes_regions())
            self.rows_changed.emit()
            self._reselect(keep)
