"""The Findings panel: data-QA findings of the open dataset, sortable, filtered by
severity and kind; double-click (or Enter) goes to the record, its feature and its box;
Export JSON writes what ``check --json`` would."""

from __future__ import annotations

import os
from collections import Counter

from PySide6.QtCore import QModelIndex, QSize, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...app.check import CheckReport
from ...core import json_text
from ...core.analyze.findings import SEVERITIES, Finding
from ...core.text import plural
from ...core.write.output import save_file
from .. import file_dialogs
from ..models.findings_model import COLUMNS, FindingsFilter, FindingsModel
from .report_table import report_table
from .task_strip import TaskStrip


class FindingsPanel(QWidget):
    """``run_requested()`` asks the window to run the checks; ``finding_activated(dict)``
    fires when a finding is opened; ``cancel_requested()`` stops a running check."""

    run_requested = Signal()
    cancel_requested = Signal()
    finding_activated = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = FindingsModel(self)
        self.proxy = FindingsFilter(self)
        self.proxy.setSourceModel(self.model)
        self.table = report_table(self, self.proxy)
        self.table.doubleClicked.connect(self._activated)
        self.table.activated.connect(self._activated)
        self.strip = TaskStrip(
            self,
            "Run Checks",
            "Check every record (Ctrl+Shift+K)",
            "Run the checks to list what is wrong with the data.",
            "checking",
        )
        self.strip.run_button.clicked.connect(self.run_requested.emit)
        self.strip.cancel.clicked.connect(self.cancel_requested.emit)
        self.count = self.strip.text
        self.severity = QComboBox(self)
        self.severity.currentIndexChanged.connect(self._severity_chosen)
        self.kind = QComboBox(self)
        self.kind.currentIndexChanged.connect(self._kind_chosen)
        for combo in (self.severity, self.kind):  # as wide as the kinds the checks find
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.notes = QCheckBox("Notes", self)
        self.notes.setToolTip(
            "Show the notes (info) too; they are folded away, as on the command line"
        )
        self.notes.toggled.connect(self._notes_toggled)
        self.export_button = QPushButton("Export JSON…", self)
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(self.export_dialog)
        row = self.strip.row
        row.removeWidget(self.count)  # the count has a line of its own, under the choices
        row.addStretch(1)
        row.insertWidget(1, self.severity)
        row.insertWidget(2, self.kind)
        row.insertWidget(3, self.notes)
        row.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.count)
        layout.addWidget(self.table, 1)
        self.report: CheckReport | None = None
        self.inputs: list[str] = []  # the files the findings are about: never written
        self._fill_choices()

    # -- state -------------------------------------------------------------------
    def running(self, done: int, total: int) -> None:
        self.strip.running(done, total)

    def stopped(self, message: str) -> None:
        """A check ended without findings to show (cancelled, failed, no dataset)."""
        self.strip.stopped(message)

    def set_report(self, report: CheckReport) -> None:
        """Show the findings of ``report``."""
        self.strip.stopped("")
        self.report = report
        self.model.set_findings(report.findings)
        self._fill_choices()
        self.export_button.setEnabled(True)
        self.table.resizeColumnsToContents()
        for col, limit in ((COLUMNS.index("file"), 220), (COLUMNS.index("feature"), 240)):
            self.table.setColumnWidth(col, min(self.table.columnWidth(col), limit))
        self._update_count()

    def clear(self) -> None:
        self.report = None
        self.model.set_findings([])
        self._fill_choices()
        self.export_button.setEnabled(False)
        self.stopped("Run the checks to list what is wrong with the data.")

    # -- choices -----------------------------------------------------------------
    def _fill_choices(self) -> None:
        findings = self.model.findings
        by_severity = Counter(f.severity for f in findings)
        by_kind = Counter(f.kind for f in findings)
        for combo, items in (
            (self.severity, [(s, by_severity[s]) for s in SEVERITIES]),
            (self.kind, sorted(by_kind.items())),
        ):
            combo.blockSignals(True)
            combo.clear()
            combo.addItem("all severities" if combo is self.severity else "all kinds", None)
            for name, n in items:
                combo.addItem(f"{name} ({n:,})", name)
            combo.blockSignals(False)
        self.proxy.set_severity(None)
        self.proxy.set_kind(None)

    def _severity_chosen(self, _index: int) -> None:
        self.proxy.set_severity(self.severity.currentData())
        self._update_count()

    def _notes_toggled(self, shown: bool) -> None:
        self.proxy.set_notes(shown)
        self._update_count()

    def _kind_chosen(self, _index: int) -> None:
        self.proxy.set_kind(self.kind.currentData())
        self._update_count()

    def _update_count(self) -> None:
        total = len(self.model.findings)
        shown = self.proxy.rowCount()
        records = self.report.records if self.report is not None else 0
        if not total:
            self.count.setText(f"no findings in {plural(records, 'record')}")
            return
        of = f"{shown:,} of " if shown != total else ""
        notes = sum(1 for f in self.model.findings if f.severity == "info")
        folded = (
            f" ({plural(notes, 'note')} folded away)"
            if notes and not self.notes.isChecked() and self.severity.currentData() != "info"
            else ""
        )
        self.count.setText(f"{of}{plural(total, 'finding')} in {plural(records, 'record')}{folded}")

    def sizeHint(self) -> QSize:  # noqa: N802
        """Tall enough for ten rows of findings, under its buttons and the header."""
        hint = super().sizeHint()
        rows = 10 * self.table.verticalHeader().defaultSectionSize()
        header = self.table.horizontalHeader().sizeHint().height()
        strip = self.strip.row.sizeHint().height() + self.count.heightForWidth(
            max(self.width(), hint.width()) - 8
        )
        scroll = self.table.horizontalScrollBar().sizeHint().height()
        frames = 2 * self.table.frameWidth() + 32  # the panel's margins and the dock's title
        return QSize(hint.width(), max(hint.height(), rows + header + strip + scroll + frames))

    # -- actions -----------------------------------------------------------------
    def _activated(self, index: QModelIndex) -> None:
        if index.isValid():
            source = self.proxy.mapToSource(index)
            self.finding_activated.emit(self.model.finding(source.row()))

    def shown_findings(self) -> list[Finding]:
        """The findings that pass the severity and kind choices, in the shown order."""
        rows = (
            self.proxy.mapToSource(self.proxy.index(r, 0)).row()
            for r in range(self.proxy.rowCount())
        )
        return [self.model.finding(r) for r in rows]

    def export_dialog(self) -> None:
        start = os.path.join(os.path.expanduser("~"), "findings.json")
        path = file_dialogs.save_file(self, "Export findings", start, "JSON (*.json)")
        if not path:
            return
        try:
            self.export(path)
        except OSError as exc:  # ExportError is one
            self.count.setText(f"cannot write {path}: {exc}")

    def export(self, path: str) -> None:
        """Write the shown findings as ``check --json`` does (atomically)."""
        findings = self.shown_findings()
        counts = Counter(f.severity for f in findings)
        report = self.report
        doc = {
            "records": report.records if report is not None else 0,
            "files": report.files if report is not None else 0,
            "findings": [f.to_json() for f in findings],
            "counts": {s: counts.get(s, 0) for s in SEVERITIES},
        }
        text = json_text.dumps(doc, indent=2) + "\n"
        # the file dialog asked before replacing a file; the dataset's files never are
        save_file(path, text.encode("utf-8"), inputs=self.inputs, overwrite=True)
