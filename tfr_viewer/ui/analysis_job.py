"""A data-QA job (statistics, checks, comparison) in a child process, with progress.

``progress(done, total)`` and ``phase(text)`` report as it runs; ``finished(result,
error)`` fires once: the job's result, or None with the error text (empty when
cancelled). The panels take the statistics and findings in the form of the reports
they also open from files (``stats --json``, ``check --json``). The analysis
describes the files as they are, without pending edits.
"""

from __future__ import annotations

from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from PySide6.QtCore import QObject, Signal

from ..core.io import Dataset
from ..core.task_messages import Done, Failed, Phase, Progress
from ..core.tasks import (
    check_task,
    compare_task,
    evaluate_task,
    predictions_task,
    report_task,
    stats_task,
)
from .process_task import ProcessTask

JOBS: dict[str, Callable[[Connection], None]] = {
    "stats": stats_task,
    "check": check_task,
    "compare": compare_task,
    "predictions": predictions_task,
    "evaluate": evaluate_task,
    "report": report_task,
}


def _as_report(job: str, result: Any) -> Any:
    """The result in the form the panels read (that of the saved reports)."""
    if job == "stats":
        return result.to_json()
    if job == "check":
        return [f.to_json() for f in result]
    if job == "evaluate":
        return result.to_json()
    return result


class AnalysisJob(QObject):
    progress = Signal(int, int)
    phase = Signal(str)
    finished = Signal(object, str)

    def __init__(
        self,
        dataset: Dataset,
        job: str,
        options: dict[str, Any] | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``job``: one of :data:`JOBS`."""
        super().__init__(parent)
        self._job = job
        payload = ([f.path for f in dataset.files], dataset.columns(), options or {})
        self._task = ProcessTask(JOBS[job], payload, parent=self)
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
                self.finished.emit(_as_report(self._job, result), "")
            case Failed(_kind, message):
                self._done = True
                self.finished.emit(None, message)

    def _on_ended(self) -> None:
        if not self._done:
            self._done = True
            self.finished.emit(None, "the analysis process stopped unexpectedly")
