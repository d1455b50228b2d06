"""Compare the open dataset (A) with another (B): drift per feature, both distributions
on one chart, keys in one only, classes side by side and images found in both."""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.analyze.compare_summary import CompareSummary
from ...core.text import plural

if TYPE_CHECKING:
    from ...app.compare import CompareReport

COLUMNS = ("feature", "type", "L-infinity", "Jensen–Shannon", "presence A", "presence B")
_EXCEEDS = QColor(255, 220, 215)


def _number(v: float | None) -> str:
    return "—" if v is None else f"{v:.4f}"


class CompareDialog(QDialog):
    """Shows a comparison result; ``go_to(record)`` is called for a leaked image of A."""

    def __init__(self, go_to: Callable[[int], object], parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle("Compare datasets")
        self.go_to = go_to
        # the comparison shown (named as QDialog's method, which this dialog never uses)
        self.report: CompareReport | None = None
        self.comparison: CompareSummary | None = None
        self.header = QLabel("Choose the dataset to compare with…", self)
        self.header.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.cancel = QPushButton("Cancel", self)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.currentCellChanged.connect(lambda row, *_: self._show_feature(row))
        from ..panels.bar_chart import BarChart

        self.chart = BarChart(self, height=200)
        self.legend = QLabel(
            '<span style="color:#4285f4">■</span> A &nbsp; '
            '<span style="color:#ea8628">■</span> B &nbsp; (share of values)',
            self,
        )
        self.details = QTableWidget(0, 2, self)
        self.details.setHorizontalHeaderLabels(("what", "where"))
        self.details.verticalHeader().hide()
        self.details.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.details.horizontalHeader().setStretchLastSection(True)
        self.details.cellDoubleClicked.connect(self._detail_activated)
        right = QWidget(self)
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.chart)
        column.addWidget(self.legend)
        column.addWidget(self.details, 1)
        split = QSplitter(self)
        split.addWidget(self.table)
        split.addWidget(right)
        split.setSizes([560, 520])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.progress)
        row.addWidget(self.cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addLayout(row)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        self._detail_records: list[int | None] = []
        self.resize(1150, 620)

    def running(self, done: int, total: int, phase: str = "") -> None:
        self.progress.show()
        self.cancel.show()
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)
        if phase:
            self.header.setText(phase + "…")

    def failed(self, message: str) -> None:
        self.progress.hide()
        self.cancel.hide()
        self.header.setText(message or "Cancelled.")

    def set_report(self, report: CompareReport) -> None:
        """Show ``compare``'s report."""
        self.report = report
        self.comparison = c = report.summary()
        self.progress.hide()
        self.cancel.hide()
        verdict = (
            "<b style='color:#b42318'>failed</b>: " + html.escape("; ".join(c.reasons))
            if c.failed
            else f"passed: no feature drifts past {c.threshold:g}"
        )
        names = [os.path.basename(f) for f in c.b.files]
        self.header.setText(
            f"A: {plural(c.a.records, 'record')} · B: "
            f"{plural(c.b.records, 'record')} ({', '.join(names[:3])}"
            f"{'…' if len(names) > 3 else ''}) — {verdict}; "
            f"{plural(len(c.exact) + len(c.near), 'image')} in both."
        )
        self.table.setRowCount(len(c.features))
        for row, f in enumerate(c.features):
            cells = (
                f.key,
                f.type,
                _number(f.linf),
                _number(f.js),
                f"{100 * f.presence_a:.1f}%",
                f"{100 * f.presence_b:.1f}%",
            )
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if f.key in c.exceeded:
                    item.setBackground(QBrush(_EXCEEDS))
                if col >= 2:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(row, col, item)
        self.table.resizeColumnsToContents()
        self._fill_details(c)
        if c.features:
            self.table.setCurrentCell(0, 0)

    def _fill_details(self, c: CompareSummary) -> None:
        rows: list[tuple[str, str, int | None]] = []
        rows += [("only in A", key, None) for key in c.only_in_a]
        rows += [("only in B", key, None) for key in c.only_in_b]
        for leak in (*c.exact, *c.near):
            what = "same image" if leak.distance is None else f"near image ({leak.distance} bits)"
            where = f"A record {leak.a.record} · B record {leak.b.record}"
            rows.append((what, where, leak.a.record))
        for shift in c.classes:
            name = f"{shift.id} {shift.text or ''}".strip()
            rows.append((f"class {name}", f"A {shift.a:,} · B {shift.b:,}", None))
        self.details.setRowCount(len(rows))
        self._detail_records = [r for _, _, r in rows]
        for i, (what, where, _) in enumerate(rows):
            self.details.setItem(i, 0, QTableWidgetItem(what))
            self.details.setItem(i, 1, QTableWidgetItem(where))
        self.details.resizeColumnToContents(0)

    def _show_feature(self, row: int) -> None:
        if self.comparison is None or not 0 <= row < self.table.rowCount():
            return
        item = self.table.item(row, 0)
        feature = self.comparison.feature(item.text()) if item is not None else None
        dist = feature.distribution if feature is not None else None
        if dist is None:
            self.chart.clear()
            return
        ta, tb = sum(dist.a) or 1, sum(dist.b) or 1
        share_a, share_b = [n / ta for n in dist.a], [n / tb for n in dist.b]
        if dist.edges:
            self.chart.set_histogram(dist.edges, share_a, share_b)
        else:
            labels = [str(v) for v in dist.values][:30]
            self.chart.set_categories(labels, share_a[:30], share_b[:30])

    def _detail_activated(self, row: int, _col: int) -> None:
        record = self._detail_records[row] if 0 <= row < len(self._detail_records) else None
        if record is not None:
            self.go_to(record)
