"""The window's part of the registry's analyses (:mod:`..app.analyses`): each one with
a panel has a dock (made by :class:`~.docks.Docks` from the registry, shown from the
Analyze menu) and Analyze › Run TITLE (declared with the Analyze menu's commands, in
:mod:`.analysis_actions`), which runs its request, its options at their
defaults, on the open dataset as indexed, in the standby process with progress in the
status bar and Cancel by running it again or closing the dataset; the report goes to
the panel's ``set_report``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..app import analyses
from ..app.analyses import Analysis
from .analysis_job import AnalysisJob

if TYPE_CHECKING:
    from .host import PanelHost, PanelLookup


def dock_id(analysis: Analysis) -> str:
    """The dock of ``analysis``' panel."""
    return f"analysis-{analysis.name}"


class RegisteredAnalyses:
    """Runs the registry's analyses for the window ``host``; ``docks`` holds their
    panels."""

    def __init__(self, host: PanelHost, docks: PanelLookup) -> None:
        self.host, self.docks = host, docks
        self.jobs: dict[str, AnalysisJob] = {}
        host.session.closed.connect(self.cancel_all)

    def run(self, name: str) -> None:
        """Run the analysis ``name`` on the open dataset (the one running is stopped
        first)."""
        analysis = analyses.named(name)
        host = self.host
        ds = host.session.dataset
        if ds is None:
            return
        self.cancel(analysis.name)
        try:
            request = analysis.make_request({})
        except Exception as exc:  # a request that needs options the window cannot give
            host.show_error(f"Cannot run {analysis.title}", str(exc))
            return
        dock = self.docks.dock(dock_id(analysis))
        dock.show()
        dock.raise_()
        job = self.jobs[analysis.name] = AnalysisJob(ds, request, parent=host.as_widget())
        status = host.statusBar()
        job.progress.connect(
            lambda done, total: status.showMessage(f"{analysis.title}: {done:,} of {total:,}…")
        )
        job.finished.connect(
            lambda result, error, j=job: self._finished(analysis, j, result, error)
        )
        status.showMessage(f"{analysis.title}: starting…")
        job.start()

    def cancel(self, name: str) -> None:
        job = self.jobs.pop(name, None)
        if job is not None:
            job.cancel()

    def cancel_all(self) -> None:
        for name in list(self.jobs):
            self.cancel(name)

    def _finished(self, analysis: Analysis, job: AnalysisJob, result: Any, error: str) -> None:
        if self.jobs.get(analysis.name) is not job:
            return  # cancelled or replaced
        del self.jobs[analysis.name]
        status = self.host.statusBar()
        if result is None:
            status.showMessage(f"{analysis.title}: {error or 'cancelled'}", 15000)
            if error:
                self.host.show_error(f"{analysis.title} failed", error)
            return
        panel: Any = self.docks.widget(dock_id(analysis))
        panel.set_report(result)
        status.showMessage(f"{analysis.title}: done", 15000)
