"""Going places: a record number or byte offset (Ctrl+G), and the list of problems
(the status bar's problem count, Ctrl+Shift+P), whose entries select their row."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QInputDialog

from ..core.io import Problem
from .actions import OPEN, Action, Entry, On
from .host import PanelHost

if TYPE_CHECKING:
    from .dialogs.problems_dialog import ProblemsDialog


class Navigator(QObject):
    """Go to a record or an offset, and the list of problems (the window's
    ``navigator``, made the first time one of :data:`ACTIONS` runs)."""

    def __init__(self, window: PanelHost) -> None:
        super().__init__(window.as_widget())
        self.window = window
        self.problems_dialog: ProblemsDialog | None = None

    def goto_dialog(self) -> None:
        if self.window.session.dataset is None:
            return
        text, ok = QInputDialog.getText(
            self.window.as_widget(),
            "Go to",
            "Record number, or a byte offset as @1234 or 0x4d2:",
        )
        if ok and text.strip():
            self.goto(text.strip())

    def goto(self, text: str) -> bool:
        """Select a record by number, or the record whose frame holds a byte offset
        (``@N`` or ``0x..``) in the current record's file; say why when it cannot."""
        w = self.window
        ds = w.session.dataset
        if ds is None:
            return False
        try:
            if text.startswith("@") or text.lower().startswith("0x"):
                offset = int(text[1:] if text.startswith("@") else text, 0)
                return self._goto_offset(offset)
            record = int(text.replace(",", "").replace("_", ""))
        except ValueError:
            w.show_error("Go to", f"{text!r} is not a record number or a byte offset")
            return False
        if not 0 <= record < len(ds):
            last = f"0 to {len(ds) - 1:,}" if len(ds) else "none: the dataset is empty"
            w.show_error("Go to", f"record {record:,} does not exist; the records are {last}")
            return False
        return w.select_record(record)

    def _goto_offset(self, offset: int) -> bool:
        w = self.window
        ds = w.session.dataset
        assert ds is not None
        number = ds.ref(w.session.current).file_number if w.session.current is not None else 0
        record = ds.record_at_offset(number, offset) if len(ds) else None
        if record is None:
            w.show_error("Go to", f"no record starts at or before byte {offset:,}")
            return False
        return w.select_record(record)

    def show_problems(self) -> None:
        """The list of problems: file, record, byte offset, kind, message, what to do
        (``verify``'s report of the dataset as the window indexed it)."""
        from ..app.verify import VerifyReport
        from .dialogs.problems_dialog import ProblemsDialog

        w = self.window
        if w.session.dataset is None:
            return
        report = VerifyReport.of(w.session.dataset)
        if not report.problems:
            w.statusBar().showMessage("no problems found", 10000)
            return
        self.problems_dialog = ProblemsDialog(report, self.go_to_problem, w.as_widget())
        self.problems_dialog.open()

    def go_to_problem(self, problem: Problem) -> bool:
        if problem.region:
            return self.window.select_region(problem)
        return self.window.select_record(problem.record)


# Go › Go to Record or Offset… and Problems…
ACTIONS: tuple[Entry, ...] = (
    Action(
        "go.record",
        "&Go to Record or Offset…",
        "go",
        On("navigator.goto_dialog"),
        "Ctrl+G",
        0,
        OPEN,
    ),
    Action(
        "go.problems",
        "&Problems…",
        "go",
        On("navigator.show_problems"),
        "Ctrl+Shift+P",
        0,
        OPEN,
        order=2,
    ),
)
