"""The table a panel lists a report's rows in: read-only, whole rows selected, sorted
by a header click (unsorted at first: the report's order), the last column stretched."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget


def report_table(parent: QWidget, model: QAbstractItemModel) -> QTableView:
    """A table of ``model``'s rows, as the module says."""
    table = QTableView(parent)
    table.setModel(model)
    table.setSortingEnabled(True)
    table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    header = table.horizontalHeader()
    header.setStretchLastSection(True)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    return table
