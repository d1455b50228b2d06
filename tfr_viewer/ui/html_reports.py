"""Analyze › Save Findings as HTML…, Save Statistics as HTML… and Save Comparison as
HTML…: the same self-contained report ``check --html``, ``stats --html`` and
``compare --html`` write, of what the panels show; the findings' and statistics' are
written by a child process (the records' pictures are read there), every one through
the output layer."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..app.html_report import HtmlReportRequest
from . import file_dialogs
from .actions import Action, Entry, On
from .analysis_job import AnalysisJob
from .recent import last_dir

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from .analysis_actions import AnalysisActions
    from .host import PanelHost


class HtmlReports:
    def __init__(self, w: PanelHost, analysis: AnalysisActions, settings: QSettings) -> None:
        """``analysis``: the reports it has made; a report is suggested in the folder of
        the dataset last opened (``settings``)."""
        self.w, self.analysis, self.settings = w, analysis, settings
        self.job: AnalysisJob | None = None
        self.ask = True  # a save dialog asks where (tests set ``target`` instead)
        self.target = ""

    def save_comparison(self) -> None:
        """The comparison the Compare dialog shows, as ``compare --html`` writes it."""
        from ..core.report.charts import ReportUnavailable
        from ..core.report.compare_report import compare_html
        from ..core.report.page import as_bytes
        from ..core.user_error import UserError
        from ..core.write.output import save_file

        dialog = self.analysis.compare_dialog
        if dialog is None or dialog.comparison is None or dialog.report is None:
            return
        out = self._target("comparison")
        if not out:
            return
        try:
            text = compare_html(dialog.report.to_json(), "Comparison")
            inputs = [*dialog.comparison.a.files, *dialog.comparison.b.files]
            save_file(out, as_bytes(text), inputs=inputs, overwrite=True, role="report")
        except (ReportUnavailable, UserError) as exc:
            self.w.show_error("Cannot save the report", str(exc))
            return
        self.w.statusBar().showMessage(f"saved {out}", 15000)

    def _target(self, kind: str) -> str:
        """Where the report goes: asked in a save dialog (or ``target``, in tests)."""
        if not self.ask:
            return self.target

        ds = self.w.session.dataset
        name = os.path.basename(ds.files[0].path) if ds is not None and ds.files else "dataset"
        suggested = os.path.join(last_dir(self.settings), f"{name}-{kind}.html")
        return file_dialogs.save_file(
            self.w.as_widget(), "Save the report", suggested, "HTML (*.html)"
        )

    def save(self, kind: str) -> None:
        """Write the report of the findings (``check``) or the statistics (``stats``)."""
        from ..core.report.charts import ReportUnavailable, require

        ds = self.w.session.dataset
        shown = self.analysis.check_report
        stats = self.analysis.stats
        report: Any = None
        if kind == "check" and shown is not None:
            report = [f.to_json() for f in shown.findings]
        elif kind == "stats" and stats is not None:
            report = stats.to_json()
        if ds is None or not report:
            return
        if kind == "stats":
            try:
                require()
            except ReportUnavailable as exc:
                self.w.show_error("Cannot save the report", str(exc))
                return
        name = os.path.basename(ds.files[0].path) if ds.files else "dataset"
        out = self._target(kind)
        if not out:
            return
        what = "Data-quality findings" if kind == "check" else "Statistics"
        request = HtmlReportRequest(kind, report, out, f"{what}: {name}")
        job = self.job = AnalysisJob(ds, request, parent=self.w.as_widget())
        job.finished.connect(lambda result, error: self._saved(job, result, error))
        self.w.statusBar().showMessage(f"writing {out}…")
        job.start()

    def _saved(self, job: AnalysisJob, result: Any, error: str) -> None:
        if job is not self.job:
            return
        self.job = None
        if result is None:
            if error:
                self.w.show_error("Cannot save the report", error)
            return
        self.w.statusBar().showMessage(f"saved {result}", 15000)


# Analyze › Save Findings, Statistics or Comparison as HTML…, each while it is shown
ACTIONS: tuple[Entry, ...] = (
    Action(
        "analyze.save_findings_html",
        "Save &Findings as HTML…",
        "analyze",
        On("html_reports.save", ("check",)),
        None,
        3,
        On("analysis.shows_findings"),
    ),
    Action(
        "analyze.save_stats_html",
        "Save &Statistics as HTML…",
        "analyze",
        On("html_reports.save", ("stats",)),
        None,
        3,
        On("analysis.shows_stats"),
        order=1,
    ),
    Action(
        "analyze.save_compare_html",
        "Save &Comparison as HTML…",
        "analyze",
        On("html_reports.save_comparison"),
        None,
        3,
        On("analysis.shows_comparison"),
        order=2,
    ),
)
