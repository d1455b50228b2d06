"""Two tables of the run view: the hyperparameters and metrics of each run, a row a
run (the ``hparams`` table of :mod:`~...app.event_tables`), and why the files are as
big as they are: each run's bytes by kind of event and by plugin (the ``runs``
report), largest first, with their shares of all the bytes."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from ...app.event_runs import RunsReport
from ...app.event_tables import EventTable
from ...core.text import human_bytes, plural

_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def _cell(value: Any) -> QTableWidgetItem:
    if isinstance(value, float):
        item = QTableWidgetItem(f"{value:.6g}")
    elif value is None:
        item = QTableWidgetItem("—")
    else:
        item = QTableWidgetItem(str(value))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        item.setTextAlignment(_RIGHT)
        item.setData(Qt.ItemDataRole.UserRole, value)
    return item


class HParamsTable(QTableWidget):
    """A row a run that logged hyperparameters: their values, then its metrics."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 0, parent)
        self.verticalHeader().hide()
        self.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.setSortingEnabled(True)

    def show_table(self, table: EventTable | None) -> None:
        self.setSortingEnabled(False)
        self.clear()
        columns = table.columns if table is not None and table.rows else ()
        self.setColumnCount(len(columns))
        self.setHorizontalHeaderLabels(list(columns))
        rows = [
            [block[c][i] for c in columns]  # type: ignore[index]
            for block in (table.blocks if table is not None else ())
            for i in range(len(block[columns[0]]) if columns else 0)
        ]
        self.setRowCount(len(rows))
        for r, values in enumerate(rows):
            for c, value in enumerate(values):
                self.setItem(r, c, _cell(value))
        self.resizeColumnsToContents()
        self.setSortingEnabled(True)


class SizeTree(QTreeWidget):
    """Each run, then its bytes by kind of event and by plugin."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(["run / what", "count", "bytes", "share"])
        header = self.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)

    def show_report(self, report: RunsReport | None) -> None:
        self.clear()
        if report is None:
            return
        for run in report.runs:
            top = self._item(
                f"run {run.name}", plural(run.records, "record"), run.bytes, report.share(run.bytes)
            )
            kinds = QTreeWidgetItem(top, ["events by kind"])
            for k in run.kinds:
                self._item(k.name, plural(k.count, "event"), k.bytes, k.share, kinds)
            if run.plugins:
                plugins = QTreeWidgetItem(top, ["summaries by plugin"])
                for p in run.plugins:
                    self._item(p.name, plural(p.count, "tag"), p.bytes, p.share, plugins)
            self.addTopLevelItem(top)
        self.expandAll()
        for column in (1, 2, 3):
            self.resizeColumnToContents(column)

    def _item(
        self, name: str, count: str, size: int, share: float, parent: QTreeWidgetItem | None = None
    ) -> QTreeWidgetItem:
        item = QTreeWidgetItem([name, count, human_bytes(size), f"{share:.1%}"])
        if parent is not None:
            parent.addChild(item)
        item.setToolTip(2, f"{size:,} bytes")
        for column in (1, 2, 3):
            item.setTextAlignment(column, _RIGHT)
        return item
