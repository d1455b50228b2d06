"""The filter bar: an expression with key completion, run over the dataset in a worker."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, QThread, Signal, Slot
from PySide6.QtGui import QFontDatabase, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..app.filtering import FilterRequest
from ..app.jobs import operation_payload, operation_task
from ..app.task_state import Step, TaskState
from ..core.io import CancelToken, Dataset
from ..core.query import QueryError, compile_filter, lint_filter
from ..core.task_messages import Done, Failed, Partial, Progress
from ..core.text import plural
from ..core.user_error import UserError
from .process_task import ProcessTask
from .threads import stop_worker

DAMAGED = 'status in ["bad_length_crc", "bad_data_crc", "truncated"]'
# Above this many records a filter runs in a child process, so that the window keeps
# the interpreter lock to itself; below it a thread starts faster.
PROCESS_ABOVE = 100_000


class _ThreadState(TaskState):
    """A filter's progress in a thread: the worker's signal, with the matches so far;
    stopped by the worker's token."""

    def __init__(self, worker: FilterWorker) -> None:
        self._worker = worker
        self._matches = 0

    @property
    def cancelled(self) -> bool:
        return self._worker.token.cancelled

    @contextmanager
    def phase(self, label: str, total: int, unit: str = "records") -> Iterator[Step]:
        def step(done: int, now: int | None = None, /) -> None:
            self._worker.progress.emit(done, total if now is None else now, self._matches)

        yield step

    def partial(self, result: object) -> None:
        self._matches += len(result)  # type: ignore[arg-type]


class FilterWorker(QObject):
    progress = Signal(int, int, int)  # done, total, matches
    finished = Signal(object, str)  # np.ndarray of global numbers (None if cancelled), error

    def __init__(self, dataset: Dataset, text: str, edited: dict[int, bytes]) -> None:
        super().__init__()
        self.dataset = dataset
        self.text = text
        self.edited = edited
        self.token = CancelToken()

    @Slot()
    def run(self) -> None:
        try:
            request = FilterRequest(self.text, self.edited, block=4096, as_indexed=True)
            report = request.run(self.dataset, _ThreadState(self))
        except UserError as exc:  # a mistake in the filter, or a key no record has
            self.finished.emit(None, str(exc))
            return
        except Exception as exc:  # shown in the bar, never a traceback
            self.finished.emit(None, f"filter failed: {exc}")
            return
        if self.token.cancelled:
            self.finished.emit(None, "")
            return
        self.finished.emit(report.records, "")


# The window's shortcuts a line edit would take for itself under some key schemes (X11:
# Ctrl+E moves to the end of the line) although the field has End for that: Export….
PASS_TO_WINDOW = ("Ctrl+E",)


class FilterEdit(QLineEdit):
    """The expression field; Esc goes to the bar (clear), not to the completer; the
    window's Ctrl+E works here too (right after Enter on a filter, the focus is here)."""

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            pressed = QKeySequence(event.keyCombination())
            if any(
                pressed.matches(QKeySequence(k)) == QKeySequence.SequenceMatch.ExactMatch
                for k in PASS_TO_WINDOW
            ):
                event.ignore()  # not overridden: the window's shortcut runs
                return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        completer = self.completer()
        popup = completer.popup() if completer is not None else None
        if event.key() == Qt.Key.Key_Escape and not (popup is not None and popup.isVisible()):
            event.ignore()
            return
        super().keyPressEvent(event)


class FilterBar(QWidget):
    """Emits ``rows_changed(array or None)``: the matching records, or None for all."""

    rows_changed = Signal(object)
    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = FilterEdit(self)
        self.edit.setPlaceholderText(
            'Filter, e.g. label == 3 or has("image/encoded")  (Enter to apply, Esc to clear)'
        )
        self.edit.setClearButtonEnabled(True)
        self._keys = QStringListModel(self)
        completer = QCompleter(self._keys, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.edit.setCompleter(completer)
        self.damaged = QCheckBox("Only damaged", self)
        self.damaged.setToolTip("Damaged records, and the damaged regions that belong to no record")
        self.help_button = QToolButton(self)
        self.help_button.setText("?")
        self.help_button.setToolTip("The filter language, with examples (F1)")
        self.help_button.clicked.connect(self.show_help)
        self.problem = QLabel(self)  # an error (with its caret) or a warning
        self.problem.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.count = QLabel(self)
        self.progress = QProgressBar(self)
        self.progress.setMaximumWidth(120)
        self.progress.hide()
        self.cancel = QPushButton("Cancel", self)
        self.cancel.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for w in (
            self.edit,
            self.help_button,
            self.damaged,
            self.progress,
            self.cancel,
            self.count,
        ):
            row.addWidget(w, 1 if w is self.edit else 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.problem)
        self.edit.returnPressed.connect(self.apply)
        self.edit.textEdited.connect(self._edited)
        self.edit.textChanged.connect(self._text_changed)
        self.damaged.toggled.connect(self.apply)
        self.cancel.clicked.connect(self.stop)
        self.dataset: Dataset | None = None
        self._thread: QThread | None = None
        self._worker: FilterWorker | None = None
        self._task: ProcessTask | None = None
        self._hits: list[np.ndarray] = []
        # Edited payloads (global number -> bytes) that filters see instead of the file's.
        self.edited: Callable[[], dict[int, bytes]] = dict
        self._error = ""
        self._kinds: dict[str, str] = {}
        self._applied: str | None = None  # the expression whose rows are shown

    def set_dataset(self, dataset: Dataset | None) -> None:
        """A new dataset (or none): the filter is reset, so that rows, count and text
        agree; nothing of the previous dataset's filter carries over."""
        self.stop()
        self.dataset = dataset
        self._kinds = {}
        self._keys.setStringList([])
        self.reset()

    def reset(self) -> None:
        """Clear the text, "Only damaged", the count and any error (no signal)."""
        self.edit.blockSignals(True)
        self.damaged.blockSignals(True)
        self.edit.clear()
        self.damaged.setChecked(False)
        self.edit.blockSignals(False)
        self.damaged.blockSignals(False)
        self._applied = None
        self.count.clear()
        self._show_problem("")

    def focus_filter(self) -> None:
        self.edit.setFocus()
        self.edit.selectAll()

    def set_keys(self, keys: list[str], kinds: dict[str, str] | None = None) -> None:
        """Feature keys offered for completion, both bare and as f["..."]; their kinds
        (from a sample) let the bar warn about filters that cannot match."""
        bare = [k for k in keys if k.isidentifier()]
        self._keys.setStringList(sorted(bare) + [f'f["{k}"]' for k in sorted(keys)])
        self._kinds = dict(kinds or {})

    def applied_text(self) -> str:
        """The filter whose rows are shown ("Only damaged" named too), or ""."""
        if self._applied is None:
            return ""
        if self.damaged.isChecked():
            return f"{self._applied}, only damaged" if self._applied else "only damaged"
        return self._applied

    def includes_regions(self) -> bool:
        """Damaged regions (no record) are shown when no filter is applied, and with
        "Only damaged"."""
        return self._applied is None or self.damaged.isChecked()

    def expression(self) -> str:
        text = self.edit.text().strip()
        if self.damaged.isChecked():
            return f"({text}) and {DAMAGED}" if text else DAMAGED
        return text

    def show_help(self) -> None:
        from .dialogs.filter_help import FilterHelp

        FilterHelp(self.window()).open()

    def _show_problem(self, text: str, error: bool = False) -> None:
        colour = "#b42318" if error else "#8a5a00"
        self.problem.setStyleSheet(f"color: {colour}")
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    def _edited(self, _text: str) -> None:
        """Typing clears an old error; the count says the rows are not filtered yet."""
        self._show_problem("")
        if self._applied is not None and self.edit.text().strip() != self._applied:
            self.count.setText("Enter to apply")

    def _text_changed(self, text: str) -> None:
        if not text.strip() and self._applied:  # the clear button, or everything deleted
            self.apply()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Escape:
            self.reset()
            self.apply()
            return
        super().keyPressEvent(event)

    @Slot()
    def apply(self) -> None:
        self.stop()
        self._show_problem("")
        text = self.expression()
        if not text or self.dataset is None:
            self.count.clear()
            self._applied = None
            self.message.emit("")  # nothing to warn of: an earlier warning goes
            self.rows_changed.emit(None)
            return
        user = self.edit.text()
        try:
            if user.strip():
                compile_filter(user)  # errors point into what the user typed
            compile_filter(text)
        except QueryError as exc:
            self._applied = None
            self._show_problem(str(exc), error=True)
            self.message.emit(str(exc).replace("\n", "  "))
            total = len(self.dataset)
            self.count.setText(f"error — showing all {total:,}")
            self.rows_changed.emit(None)
            return
        warnings = lint_filter(user, self._kinds) if user.strip() and self._kinds else []
        self._show_problem("\n".join(f"warning: {w}" for w in warnings))
        for w in warnings:
            self.message.emit(f"filter warning: {w}")
        self._applied = user.strip()
        self.progress.setValue(0)
        self.progress.show()
        self.cancel.show()
        if len(self.dataset) > PROCESS_ABOVE:
            self._start_process(text)
            return
        self._thread = QThread(self)
        self._worker = FilterWorker(self.dataset, text, self.edited())
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        self._worker.progress.connect(self._on_progress)
        self._worker.finished.connect(self._on_finished)
        self._thread.start()

    def _start_process(self, text: str) -> None:
        ds = self.dataset
        assert ds is not None
        self._hits, self._error = [], ""
        request = FilterRequest(text, self.edited(), as_indexed=True)
        task = self._task = ProcessTask(operation_task, operation_payload(ds, request), parent=self)
        task.message.connect(lambda m, t=task: self._on_message(m) if t is self._task else None)
        task.ended.connect(lambda t=task: self._on_ended() if t is self._task else None)
        task.start()

    def _on_message(self, msg: object) -> None:
        match msg:
            case Progress(done, total):
                self._on_progress(done, total, sum(len(h) for h in self._hits))
            case Partial(records):
                self._hits.append(records)
            case Failed(_kind, message):
                self._error = message
            case Done(report):
                self._task = None
                self._on_finished(report.records, "")

    def _on_ended(self) -> None:
        if self._task is None:
            return  # finished normally, or stopped
        self._task = None
        self._on_finished(None, self._error or "the filter process stopped unexpectedly")

    def running(self) -> bool:
        return (self._thread is not None and self._thread.isRunning()) or self._task is not None

    @Slot()
    def stop(self) -> None:
        if self._task is not None:
            task, self._task = self._task, None
            task.cancel()
        stop_worker(self._worker, self._thread)
        self._thread = self._worker = None
        self.progress.hide()
        self.cancel.hide()

    def _on_progress(self, done: int, total: int, matches: int) -> None:
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)
        self.count.setText(f"{matches:,} matches so far")

    def _on_finished(self, rows: np.ndarray | None, error: str) -> None:
        self.progress.hide()
        self.cancel.hide()
        if self._thread is not None:
            self._thread.quit()
        if error:
            self._applied = None
            self.count.setText("error")
            self._show_problem(error, error=True)
            self.message.emit(error.replace("\n", "  "))
            return
        if rows is None:
            self.count.setText("cancelled")
            return
        total = len(self.dataset) if self.dataset is not None else 0
        regions = self.dataset.region_count() if self.dataset and self.damaged.isChecked() else 0
        more = f" + {plural(regions, 'damaged region')}" if regions else ""
        self.count.setText(f"{len(rows):,} of {total:,} match{more}")
        self.rows_changed.emit(rows)
