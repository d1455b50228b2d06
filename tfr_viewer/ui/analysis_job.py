"""A data-QA job in a child process, with progress: a request of the application layer
(statistics, checks, evaluation, comparison, reading predictions, writing a report).

``progress(done, total)`` and ``phase(text)`` report as it runs; ``finished(result,
error)`` fires once: the job's result, or None with the error text (empty when
cancelled). An operation's result is its report's JSON, the form of the reports the
panels also open from files (``stats --json``, ``check --json``): the command line's
and the Python API's, made by the same operation.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from ..app.check import CheckReport
from ..app.evaluate import EvaluateReport
from ..app.jobs import Request, operation_task
from ..core.io import Dataset
from ..core.task_messages import Done, Failed, Phase, Progress
from .process_task import ProcessTask


def _as_report(result: Any) -> Any:
    """A report in the form the panels read: ``check``'s and ``evaluate``'s typed
    reports; the JSON of the others (that of their saved reports); another job's result
    as it is."""
    if isinstance(result, CheckReport | EvaluateReport):
        return result
    to_json = getattr(result, "to_json", None)
    return to_json() if to_json is not None else result


class AnalysisJob(QObject):
    progress = Signal(int, int)
    phase = Signal(str)
    finished = Signal(object, str)

    def __init__(self, dataset: Dataset, request: Request, parent: QObject | None = None) -> None:
        """``request``: what to run on ``dataset`` as the window indexed it."""
        super().__init__(parent)
        payload = ([f.path for f in dataset.files], dataset.columns(), request)
        self._task = ProcessTask(operation_task, payload, parent=self)
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
                self.finished.emit(_as_report(result), "")
            case Failed(_kind, message):
                self._done = True
                self.finished.emit(None, message)

    def _on_ended(self) -> None:
        if not self._done:
            self._done = True
            self.finished.emit(None, "the analysis process stopped unexpectedly")
