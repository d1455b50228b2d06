"""The status bar's permanent widgets: record count, problem count (a button that opens
the list of problems), progress and Cancel."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QStatusBar

from ..core.text import plural


class StatusWidgets:
    def __init__(self, status: QStatusBar) -> None:
        self.counts = QLabel(status)
        self.problems = QPushButton(status)
        self.problems.setFlat(True)
        self.problems.setStyleSheet("color: #b42318; font-weight: bold")
        self.problems.setToolTip("Show the list of problems (Ctrl+Shift+P)")
        self.problems.hide()
        self.progress = QProgressBar(status)
        self.progress.setMaximumWidth(200)
        self.progress.hide()
        self.cancel = QPushButton("Cancel", status)
        self.cancel.hide()
        for widget in (self.counts, self.problems, self.progress, self.cancel):
            status.addPermanentWidget(widget)


def show_problem_count(button: QPushButton, problems: int) -> None:
    """``1 problem``, ``3 problems``; hidden when there are none."""
    button.setText(plural(problems, "problem"))
    button.setVisible(problems > 0)
