"""Pending edits: every edited or deleted record, what changed, and a way to revert one,
so that a user can review the edits before exporting them."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.text import plural

MAX_LISTED = 2000


class PendingEdits(QWidget):
    """``record_activated(record)`` selects a record; ``revert_requested(records)`` asks
    for records to be put back as the file has them."""

    record_activated = Signal(int)
    revert_requested = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QTreeWidget(self)
        self.list.setHeaderLabels(["record", "change"])
        self.list.setRootIsDecorated(False)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.itemActivated.connect(
            lambda item, _c: self.record_activated.emit(item.data(0, Qt.ItemDataRole.UserRole))
        )
        self.summary = QLabel("No pending edits.", self)
        self.revert = QPushButton("Revert Selected", self)
        self.revert.setToolTip("Put the selected records back as the file has them (undoable)")
        self.revert.clicked.connect(self._revert_selected)
        self.revert.setEnabled(False)
        self.list.itemSelectionChanged.connect(
            lambda: self.revert.setEnabled(bool(self.list.selectedItems()))
        )
        bar = QHBoxLayout()
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.revert)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.list, 1)

    def set_edits(self, records: list[int], describe: Callable[[int], str]) -> None:
        """List ``records`` (edited or deleted), each described by ``describe``."""
        self.list.clear()
        for record in records[:MAX_LISTED]:
            item = QTreeWidgetItem([f"{record:,}", describe(record)])
            item.setData(0, Qt.ItemDataRole.UserRole, record)
            item.setTextAlignment(0, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(1, item.text(1))
            self.list.addTopLevelItem(item)
        more = f" (first {MAX_LISTED:,} listed)" if len(records) > MAX_LISTED else ""
        self.summary.setText(
            f"{plural(len(records), 'record')} with pending edits{more}"
            if records
            else "No pending edits."
        )
        self.list.resizeColumnToContents(0)

    def _revert_selected(self) -> None:
        records = [i.data(0, Qt.ItemDataRole.UserRole) for i in self.list.selectedItems()]
        if records:
            self.revert_requested.emit(sorted(records))
