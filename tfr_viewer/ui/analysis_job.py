"""A data-QA job in a child process, with progress: an operation of the application
layer (a request: statistics, checks, evaluation, comparison), or one of the window's
own jobs by name (reading predictions, writing a report).

``progress(done, total)`` and ``phase(text)`` report as it runs; ``finished(result,
error)`` fires once: the job's result, or None with the error text (empty when
cancelled). An operation's result is its report's JSON, the form of the reports the
panels also open from files (``stats --json``, ``check --json``): the command line's
and the Python API's, made by the same operation.
"""

from __future__ import annotations

from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from PySide6.QtCore import QObject, Signal

from ..app.check import CheckReport
from ..app.jobs import Request, operation_task
from ..core.io import Dataset
from ..core.task_messages import Done, Failed, Phase, Progress
from ..core.tasks import predictions_task, report_task
from .process_task import ProcessTask

JOBS: dict[str, Callable[[Connection], None]] = {
    "predictions": predictions_task,
    "report": report_task,
}


def _as_report(result: Any) -> Any:
    """A report in the form the panels read (that of the saved reports: the findings'
    list for ``check``, the JSON of the others); another job's result as it is."""
    if isinstance(result, CheckReport):
        return result.to_json()["findings"]
    to_json = getattr(result, "to_json", None)
    return to_json() if to_json is not None else result


class AnalysisJob(QObject):
    progress = Signal(int, int)
    phase = Signal(str)
    finished = Signal(object, str)

    def __init__(
        self,
        dataset: Dataset,
        job: str | Request,
        options: dict[str, Any] | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``job``: a request of the application layer, or one of :data:`JOBS` (with
        its ``options``)."""
        super().__init__(parent)
        paths, columns = [f.path for f in dataset.files], dataset.columns()
        if isinstance(job, str):
            self._task = ProcessTask(JOBS[job], (paths, columns, options or {}), parent=self)
        else:
            self._task = ProcessTask(operation_task, (paths, columns, job), parent=self)
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
