"""Which rows the table shows and in what order: the filter's records (with the damaged
regions when nothing is filtered out) in file order, or sorted in the background."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Qt

from ..core.io import Problem
from .actions import Action, Entry
from .host import ViewHost
from .sorter import Sorter


class TableOrder(QObject):
    """Keeps the selection across changes, and clears the panes when it goes away."""

    def __init__(self, window: ViewHost) -> None:
        super().__init__(window.as_widget())
        self.window = window
        self.filtered: np.ndarray | None = None  # the filter's records (None: all)
        self.sorter = Sorter(self)
        self.sorter.finished.connect(self._sorted)
        self.sorter.progress.connect(
            lambda done, total: window.statusBar().showMessage(f"sorting: {done:,} of {total:,}")
        )

    def actions(self) -> list[Entry]:
        """View › Unsorted (File Order)."""
        return [
            Action("view.unsorted", "&Unsorted (File Order)", "view", self.unsort, None, 1, order=1)
        ]

    def forget(self) -> None:
        """The dataset goes away: no filter, no sort."""
        self.sorter.stop()
        self.filtered = None

    def _reselect(self, keep: int | None, region: Problem | None = None) -> bool:
        w = self.window
        if w.model is None:
            return False
        row = w.model.row_of(keep) if keep is not None else None
        if row is None and region is not None:
            row = w.model.row_of_region(region)
        if row is not None:
            w.select_row(row)
        return row is not None

    def show_rows(self, rows: np.ndarray | None) -> None:
        """Show the filter's records (None: all); a sort is dropped, the selection kept
        when it is still shown, else the first match shown (the panes cleared when
        nothing matches)."""
        w = self.window
        if w.model is None:
            return
        keep, region = w.current, w.current_region
        self.filtered = rows
        self.sorter.stop()
        w.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        w.model.set_rows(rows, regions=w.filter_bar.includes_regions())
        w.refresh_views()
        if not self._reselect(keep, region):
            w.clear_panes()
            if w.model.rowCount():
                w.select_row(0)

    def sort(self, column: str, descending: bool) -> None:
        """Sort the shown records by ``column`` in the background ("#" ascending is the
        file order)."""
        w = self.window
        ds = w.dataset
        if ds is None or w.model is None:
            return
        if column == "#" and not descending:
            self.unsort()
            return
        records = self.filtered if self.filtered is not None else np.arange(len(ds))
        w.statusBar().showMessage(f"sorting by {column}…")
        self.sorter.start(ds, records, column, descending, w.edited_payloads())

    def _sorted(self, order, column: str, descending: bool, error: str) -> None:  # noqa: ANN001
        w = self.window
        if error or w.model is None:
            w.statusBar().showMessage(error, 15000)
            return
        keep = w.current
        w.model.set_rows(order, regions=False, sorted_order=True)
        w.refresh_views()
        way = "descending" if descending else "ascending"
        w.statusBar().showMessage(f"sorted by {column} ({way}); View › Unsorted restores", 10000)
        self._reselect(keep)

    def show_order(self, order: np.ndarray, description: str) -> None:
        """Show the records in ``order`` (a sort worked out elsewhere), the selection
        kept; View › Unsorted goes back."""
        w = self.window
        if w.model is None:
            return
        self.sorter.stop()
        keep = w.current
        w.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        w.model.set_rows(order, regions=False, sorted_order=True)
        w.refresh_views()
        w.statusBar().showMessage(f"sorted: {description}; View › Unsorted restores", 10000)
        self._reselect(keep)

    def unsort(self) -> None:
        """Back to file order (the filter, if any, stays)."""
        w = self.window
        self.sorter.stop()
        w.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        if w.model is not None and w.model.is_sorted:
            keep = w.current
            w.model.set_rows(self.filtered, regions=w.filter_bar.includes_regions())
            w.refresh_views()
            self._reselect(keep)
