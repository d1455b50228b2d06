"""A data-QA job in a child process, with progress: a request of the application layer
(statistics, checks, evaluation, comparison, reading predictions, writing a report).

``progress(done, total)`` and ``phase(text)`` report as it runs; ``finished(result,
error)`` fires once: the job's result, or None with the error text (empty when
cancelled). An operation's result is its typed report, the one the command line and
the Python API write as JSON, made by the same operation.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from ..app.jobs import Request, operation_payload, operation_task
from ..core.io import Dataset
from ..core.task_messages import Done, Failed, Phase, Progress
from .process_task import ProcessTask


class AnalysisJob(QObject):
    progress = Signal(int, int)
    phase = Signal(str)
    finished = Signal(object, str)

    def __init__(self, dataset: Dataset, request: Request, parent: QObject | None = None) -> None:
        """``request``: what to run on ``dataset`` as the window indexed it."""
        super().__init__(parent)
        self._task = ProcessTask(operation_task, operation_payload(dataset, request), parent=self)
        self._task.message.connect(self._on_message)
        self._task.ended.connect(self._on_ended)
        self._done = False

    def start(self) -> None:
        self._task.start()

    def cancel(self) -> None:
        if not self._done:
            self._done = True
            self._task.cancel()
            self.finished.emit(None, "")

    def _on_message(self, msg: object) -> None:
        if self._done:
            return
        match msg:
            case Progress(done, total):
                self.progress.emit(done, total)
            case Phase(text):
                self.phase.emit(text)
            case Done(result):
                self._done = True
                self.finished.emit(result, "")
            case Failed(_kind, message):
                self._done = True
                self.finished.emit(None, message)

    def _on_ended(self) -> None:
        if not self._done:
            self._done = True
            self.finished.emit(None, "the analysis process stopped unexpectedly")
