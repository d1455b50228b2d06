"""A data-QA job (statistics, checks, comparison) in a child process, with progress.

``progress(done, total)`` and ``phase(text)`` report as it runs; ``finished(result,
error)`` fires once: the job's plain-data result, or None with the error text (empty
when cancelled). The analysis describes the files as they are, without pending edits.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from ..core.io import Dataset
from ..core.tasks import analyze_task
from .process_task import ProcessTask


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
        super().__init__(parent)
        payload = ([f.path for f in dataset.files], dataset.columns(), job, options or {})
        self._task = ProcessTask(analyze_task, payload, parent=self)
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

    def _on_message(self, msg: tuple) -> None:
        if self._done:
            return
        if msg[0] == "progress":
            self.progress.emit(int(msg[1]), int(msg[2]))
        elif msg[0] == "phase":
            self.phase.emit(str(msg[1]))
        elif msg[0] in ("result", "error"):
            self._done = True
            self.finished.emit(
                msg[1] if msg[0] == "result" else None, "" if msg[0] == "result" else str(msg[1])
            )

    def _on_ended(self) -> None:
        if not self._done:
            self._done = True
            self.finished.emit(None, "the analysis process stopped unexpectedly")
