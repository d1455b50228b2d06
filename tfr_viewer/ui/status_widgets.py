"""The status bar's permanent widgets: record count, problem count (a button that opens
the list of problems), warning count (a button that lists the warnings about the files:
empty, missing shards, not TFRecords), progress and Cancel, and a note when the compiled
core is missing and the slower pure-Python path runs."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QStatusBar

from ..core.fast import fallback_warning
from ..core.text import plural


class StatusWidgets:
    def __init__(self, status: QStatusBar) -> None:
        self.counts = QLabel(status)
        self.problems = QPushButton(status)
        self.problems.setFlat(True)
        self.problems.setStyleSheet("color: #b42318; font-weight: bold")
        self.problems.setToolTip("Show the list of problems (Ctrl+Shift+P)")
        self.problems.hide()
        self.warnings = QPushButton(status)
        self.warnings.setFlat(True)
        self.warnings.setStyleSheet("color: #b54708; font-weight: bold")
        self.warnings.hide()
        self.progress = QProgressBar(status)
        self.progress.setMaximumWidth(200)
        self.progress.hide()
        self.cancel = QPushButton("Cancel", status)
        self.cancel.hide()
        self.slow = QLabel("pure-Python path", status)
        self.slow.setStyleSheet("color: #b54708")
        warning = fallback_warning()
        self.slow.setToolTip(f"Slower than usual: {warning}." if warning else "")
        self.slow.setVisible(warning is not None)
        shown = (self.counts, self.problems, self.warnings, self.progress, self.cancel, self.slow)
        for widget in shown:
            status.addPermanentWidget(widget)


def show_problem_count(button: QPushButton, problems: int) -> None:
    """``1 problem``, ``3 problems``; hidden when there are none."""
    button.setText(plural(problems, "problem"))
    button.setVisible(problems > 0)


def show_warnings(button: QPushButton, texts: Sequence[str]) -> None:
    """``1 warning``, ``3 warnings``, with their texts as the tooltip; hidden when there
    are none."""
    button.setText(plural(len(texts), "warning"))
    button.setToolTip("\n".join(" ".join(text.split()) for text in texts))
    button.setVisible(bool(texts))
