"""The list of problems of the open dataset: file, record, byte offset, kind, what is
wrong and what to do; double-click (or Enter) goes to the record or region."""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...app.verify import VerifyReport
from ...core.io import STATUS_HELP, Problem

COLUMNS = ("file", "record", "byte offset", "kind", "what is wrong", "what to do")
_FIX = "run `tfr-viewer recover -o OUT`"


def split_message(problem: Problem) -> tuple[str, str]:
    """What is wrong (without the file's name), and what to do in the window."""
    what = problem.what or problem.message.removeprefix(f"{problem.file}: ")
    if not problem.savable:
        return what, "Nothing can be saved: no record of this file is intact"
    advice = "File › Save Intact Records As… keeps every intact record (CLI: " + _FIX + ")"
    return what, advice


class ProblemsDialog(QDialog):
    """The problems of ``report`` (``verify``'s); ``go_to(problem)`` is called when a
    row is activated."""

    def __init__(
        self, report: VerifyReport, go_to: Callable[[Problem], object], parent: QWidget
    ) -> None:
        super().__init__(parent)
        problems = list(report.problems)
        self.setWindowTitle(f"Problems ({len(problems)})")
        self.report = report
        self.problems = problems
        self.table = QTableWidget(len(problems), len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        for row, p in enumerate(problems):
            what, todo = split_message(p)
            cells = (
                os.path.basename(p.file),
                "— (no record)" if p.region else f"{p.record:,}",
                f"{p.offset:,}",
                p.kind,
                what,
                todo,
            )
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{p.file}\n\n{STATUS_HELP.get(p.kind, '')}\n\n{p.message}")
                if col in (1, 2):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(row, col, item)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setWordWrap(True)
        for col, limit in ((4, 420), (5, 300)):
            self.table.setColumnWidth(col, min(self.table.columnWidth(col), limit))
        self.table.resizeRowsToContents()
        self.table.cellActivated.connect(lambda row, _col: go_to(self.problems[row]))
        self.table.cellDoubleClicked.connect(lambda row, _col: go_to(self.problems[row]))
        note = QLabel(
            "Double-click a problem to select its record or region. "
            "The source files are never changed.",
            self,
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.resize(1200, 380)
