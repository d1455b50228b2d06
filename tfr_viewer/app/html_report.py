"""A ``check`` or ``stats`` report written as one self-contained HTML file, through the
output layer, as ``check --html`` and ``stats --html`` write it; the window saves its
panels' reports so (File › Save … as HTML)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.io import Dataset
from .task_state import QUIET, TaskState


@dataclass(frozen=True)
class HtmlReportRequest:
    """``report`` (``check``'s findings or ``stats``' figures, as their ``--json``
    gives them: ``kind`` says which) written to ``out`` under ``title``; ``out`` may be
    replaced (the save dialog asked), never a file the dataset reads."""

    kind: str
    report: Any
    out: str
    title: str

    def run(self, ds: Dataset, state: TaskState = QUIET) -> str:
        """The path written."""
        from ..core.write.output import save_file

        inputs = [f.path for f in ds.files]
        if self.kind == "check":
            from ..core.report.check_report import check_html

            meta = {"records": len(ds), "files": len(ds.files)}
            text = check_html(self.report, meta, ds.read, self.title, inputs)
        else:
            from ..core.report.stats_report import stats_html

            text = stats_html(self.report, self.title)
        save_file(self.out, text.encode("utf-8"), inputs=inputs, overwrite=True, role="report")
        return self.out
