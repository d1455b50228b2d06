"""The row at the top of an analysis panel: a button that runs the job, its progress
bar, Cancel, and a line of text that says what is going on."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget


class TaskStrip:
    """Widgets owned by ``parent``; ``row`` is the layout to place them in (more widgets
    may go between the button and the text with ``row.insertWidget``)."""

    def __init__(self, parent: QWidget, button: str, tip: str, idle_text: str, verb: str) -> None:
        self.verb = verb
        self.run_button = QPushButton(button, parent)
        self.run_button.setToolTip(tip)
        self.progress = QProgressBar(parent)
        self.progress.setMaximumWidth(160)
        self.progress.hide()
        self.cancel = QPushButton("Cancel", parent)
        self.cancel.hide()
        self.text = QLabel(idle_text, parent)
        self.text.setWordWrap(True)
        self.row = QHBoxLayout()
        self.row.setContentsMargins(0, 0, 0, 0)
        for w in (self.run_button, self.progress, self.cancel):
            self.row.addWidget(w)
        self.row.addWidget(self.text, 1)

    def running(self, done: int, total: int) -> None:
        """The job runs: ``done`` of ``total`` records."""
        self.run_button.setEnabled(False)
        self.progress.show()
        self.cancel.show()
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)
        self.text.setText(f"{self.verb}: {done:,} of {total:,} records")

    def stopped(self, message: str) -> None:
        """The job is not running (done, cancelled, failed); ``message`` says so."""
        self.run_button.setEnabled(True)
        self.progress.hide()
        self.cancel.hide()
        self.text.setText(message)
