"""The record-sizes analysis in the window: one line and a row per large record."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QListWidget, QVBoxLayout, QWidget

from .report import RecordSizesReport


class RecordSizesPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.line = QLabel("Not run yet.", self)
        self.rows = QListWidget(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.line)
        layout.addWidget(self.rows)
        self.report: RecordSizesReport | None = None

    def set_report(self, report: RecordSizesReport) -> None:
        self.report = report
        self.line.setText(report.to_text())
        self.rows.clear()
        self.rows.addItems([f"record {r.record}: {r.length:,} bytes" for r in report.largest])
