"""The Analyze menu and its panels: Statistics, Classes and Findings docks, and Compare.

Statistics and checks run in a child process (:class:`~.analysis_job.AnalysisJob`) once
the dataset is indexed; a request made while indexing runs when the index is done.
Clicking a bar or a class filters the table; opening a finding selects its record, its
feature in the tree and its box in the image view.
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QObject, Signal

from ..app import analyses
from ..app.check import CheckOptions, CheckReport, CheckRequest
from ..app.compare import CompareRequest
from ..app.stats import StatsRequest
from ..core.analyze.stats_summary import StatsSummary
from ..core.io.event_runs import all_event_files
from . import file_dialogs
from .actions import OPEN, Action, Entry, On
from .analysis_job import AnalysisJob
from .panels.classes_panel import ClassesPanel
from .panels.findings_panel import FindingsPanel
from .registered_analyses import RegisteredAnalyses

if TYPE_CHECKING:
    from ..core.analyze.findings import Finding
    from ..core.io import Dataset
    from .dialogs.compare_dialog import CompareDialog
    from .host import AnalysisHost
    from .panels.episode_player import EpisodePlayer
    from .panels.stats_panel import StatisticsPanel


class AnalysisActions(QObject):
    """Owns the analysis jobs of one main window ``w`` and feeds its analysis docks
    (Statistics, Classes, Findings: made by the window's :class:`~.docks.Docks` the
    first time they are shown or fed). ``checked`` gives each check report shown (None
    when a check stopped without one)."""

    checked = Signal(object)

    def __init__(self, w: AnalysisHost) -> None:
        super().__init__(w.as_widget())
        self.w = w
        self.jobs: dict[str, AnalysisJob] = {}
        self.waiting: set[str] = set()  # asked for before the index was complete
        self.stats: StatsSummary | None = None
        self.check_report: CheckReport | None = None  # the findings shown
        self.sampled_classes: list[tuple[int | None, str | None]] = []  # of the first records
        docks = w.docks
        self._findings: FindingsPanel | None = None
        self._classes: ClassesPanel | None = None
        self.findings_dock = docks.dock("findings")
        self.findings_dock.visibilityChanged.connect(lambda shown: self.findings if shown else None)
        self.classes_dock = docks.dock("classes")
        self.classes_dock.visibilityChanged.connect(lambda shown: self._shown("classes", shown))
        self.stats_panel: StatisticsPanel | None = None  # made on first use: pyqtgraph loads then
        self.stats_dock = docks.dock("statistics")
        self.stats_dock.visibilityChanged.connect(lambda shown: self._shown("stats", shown))
        self.compare_dialog: CompareDialog | None = None
        self.compare_job: AnalysisJob | None = None
        self._cleared: tuple[int | None, str] = (None, "")  # a filter cleared for a record
        w.session.indexed.connect(lambda _state: self.dataset_indexed())
        w.session.opened.connect(self.dataset_opened)
        w.session.closed.connect(self.dataset_closed)

    @cached_property
    def registered(self) -> RegisteredAnalyses:
        """Runs the registry's analyses, each into its panel (made on first use)."""
        return RegisteredAnalyses(self.w, self.w.docks)

    @property
    def findings(self) -> FindingsPanel:
        """The Findings panel, made and wired the first time it is asked for."""
        if self._findings is None:
            panel = self._findings = cast(FindingsPanel, self.w.docks.widget("findings"))
            panel.run_requested.connect(lambda: self.request("check"))
            panel.cancel_requested.connect(lambda: self.cancel("check"))
            panel.finding_activated.connect(self.open_finding)
            self.w.session.edited.connect(panel.model.mark_edited)  # perhaps fixed now
        return self._findings

    @property
    def classes(self) -> ClassesPanel:
        """The Classes panel, made, wired and given the statistics known the first time
        it is asked for."""
        if self._classes is None:
            panel = self._classes = cast(ClassesPanel, self.w.docks.widget("classes"))
            panel.filter_requested.connect(self.apply_filter)
            panel.hidden_changed.connect(self.w.set_hidden_classes)
            panel.set_classes(self.stats)
        return self._classes

    def actions(self) -> list[Entry]:
        """The Analyze menu's commands (its panels' Show/Hide come from the docks)."""
        w = self.w
        opened = lambda: w.session.is_open  # noqa: E731
        return [
            Action(
                "analyze.open_report",
                "Open &Report…",
                "analyze",
                self.open_report_dialog,
                "Ctrl+Shift+J",
                1,
                order=1,
            ),
            Action(
                "analyze.checks",
                "Run &Checks",
                "analyze",
                self.run_checks,
                "Ctrl+Shift+K",
                1,
                order=2,
            ),
            Action(
                "analyze.compare",
                "&Compare With…",
                "analyze",
                self.compare_dialog_open,
                "Ctrl+Shift+M",
                1,
                opened,
                order=3,
            ),
            *(
                Action(
                    f"analyze.{a.name}",
                    f"Run {a.title}",
                    "analyze",
                    On("analysis.registered.run", (a.name,)),
                    None,
                    1,
                    OPEN,
                    order=4,
                )
                for a in analyses.ANALYSES
                if a.panel is not None
            ),
        ]

    def shows_findings(self) -> bool:
        """Whether the Findings panel shows findings of the open dataset."""
        shown = self.check_report
        return shown is not None and bool(shown.findings) and self.w.session.is_open

    def shows_stats(self) -> bool:
        """Whether the statistics of the open dataset are known."""
        return self.stats is not None and self.w.session.is_open

    def shows_comparison(self) -> bool:
        """Whether the Compare dialog shows a comparison."""
        return self.compare_dialog is not None and self.compare_dialog.report is not None

    def known_classes(self) -> list[tuple[int | None, str | None]]:
        """Every class this dataset is known to have: its label map (opened, or found
        beside the data), its TensorFlow Datasets names, its statistics when they were
        computed, the classes of the records sampled when it opened, and the picture's
        boxes."""
        images = self.w.preview.images
        known: list[tuple[int | None, str | None]] = list(images.class_names.items())
        found = self.stats.class_counts if self.stats is not None else None
        known += [(c.id, c.text) for c in found.classes] if found is not None else []
        known += self.sampled_classes
        known += [(b.label, b.text) for b in images.picker.boxes]
        return known

    # -- jobs --------------------------------------------------------------------
    def _shown(self, panel: str, shown: bool) -> None:
        """The Statistics or the Classes panel shown: made, and the statistics computed
        when they are not known yet."""
        if not shown:
            return
        if panel == "classes":
            self.classes  # noqa: B018 - made and wired
        if self.stats is None and "stats" not in self.jobs:
            self.request("stats")

    def _stats_panel(self) -> StatisticsPanel:
        if self.stats_panel is None:
            panel = self.stats_panel = cast("StatisticsPanel", self.w.docks.widget("statistics"))
            panel.filter_requested.connect(self.apply_filter)
            panel.run_requested.connect(lambda: self.request("stats"))
            panel.cancel_requested.connect(lambda: self.cancel("stats"))
        return self.stats_panel

    def _panel(self, job: str) -> FindingsPanel | StatisticsPanel:
        return self.findings if job == "check" else self._stats_panel()

    def run_checks(self) -> None:
        self.findings_dock.show()
        self.findings_dock.raise_()
        self.request("check")

    def request(self, job: str) -> None:
        """Run ``job`` (``stats`` or ``check``) now, or once the index is complete."""
        w = self.w
        panel = self._panel(job)
        if w.session.dataset is None:
            panel.stopped("Open a dataset first.")
            return
        if w.session.indexer is not None and w.session.indexer.running:
            self.waiting.add(job)
            panel.stopped("Waiting for the index to finish…")
            return
        self.cancel(job)
        work: StatsRequest | CheckRequest = StatsRequest()
        if job == "check":
            # the records as the user has them now (a fixed box's finding goes away),
            # the labels weighed against the window's predictions
            edits = w.session.workspace.edits or None
            work = CheckRequest(
                CheckOptions(predictions=w.predictions.check),
                edited=dict(edits.payloads) if edits else {},
                deleted=frozenset(edits.deleted_records()) if edits else frozenset(),
            )
        run = self.jobs[job] = AnalysisJob(w.session.dataset, work, parent=w.as_widget())
        run.progress.connect(lambda done, total, r=run: self._progress(job, r, done, total))
        run.finished.connect(lambda result, error, r=run: self._finished(job, r, result, error))
        panel.running(0, len(w.session.dataset))
        run.start()

    def cancel(self, job: str) -> None:
        """Stop ``job`` if it runs; its panel says so."""
        run = self.jobs.pop(job, None)
        if run is None:
            return
        run.cancel()
        if job != "stats" or self.stats_panel is not None:
            self._panel(job).stopped("cancelled")

    def cancel_compare(self) -> None:
        """Stop the comparison if it runs; its dialog says so."""
        run, self.compare_job = self.compare_job, None
        if run is not None:
            run.cancel()
            if self.compare_dialog is not None:
                self.compare_dialog.failed("Cancelled.")

    def _progress(self, job: str, run: AnalysisJob, done: int, total: int) -> None:
        if self.jobs.get(job) is run:
            self._panel(job).running(done, total)

    def _finished(self, job: str, run: AnalysisJob, result: Any, error: str) -> None:
        if self.jobs.get(job) is not run:
            return  # cancelled or replaced
        del self.jobs[job]
        panel = self._panel(job)
        if result is None:
            panel.stopped(f"stopped: {error}" if error else "cancelled")
            if error:
                self.w.show_error("Analysis failed", error)
            if job == "check":
                self.checked.emit(None)
            return
        ds = self.w.session.dataset
        images = self.w.preview.images
        if job == "stats":
            self.stats = result.summary()
            self._stats_panel().set_stats(self.stats)
            if self._classes is not None:
                self._classes.set_classes(self.stats)
            named = {i: t for i, t in self.known_classes() if i is not None and t}
        else:
            self._show_findings(result, [f.path for f in ds.files] if ds else [])
            named = dict(n for f in result.findings if (n := f.predicted_name) is not None)
        if named:  # the predictions' classes by name in the picture
            images.class_names = {**images.class_names, **named}
            images.refresh()

    def _show_findings(self, report: CheckReport, inputs: list[str]) -> None:
        """``report``'s findings in the Findings panel (``inputs``: the files its
        findings may name), and ``checked`` said."""
        self.check_report = report
        self.findings.inputs = inputs
        self.findings.set_report(report)
        self.checked.emit(report)

    # -- the window's dataset --------------------------------------------------------
    def dataset_opened(self, ds: Dataset) -> None:
        """A log folder or event files: the Runs dock shown, its panel reading them as
        they are indexed."""
        if all_event_files([f.path for f in ds.files]):
            runs = self.w.docks.dock("runs")
            runs.show()
            runs.raise_()

    def dataset_indexed(self) -> None:
        """The index is complete: run what was asked for meanwhile, and the statistics
        when their panel is open."""
        wanted = set(self.waiting)
        self.waiting.clear()

        if self.stats_dock.isVisible() or self.classes_dock.isVisible():
            wanted.add("stats")
        for job in sorted(wanted):
            if job not in self.jobs:
                self.request(job)

    def dataset_closed(self) -> None:
        for job in list(self.jobs):
            self.cancel(job)
        self.cancel_compare()
        self.waiting.clear()
        self.stats = None
        self.sampled_classes = []
        self.w.preview.images.class_names = {}
        self.check_report = None
        if self._findings is not None:
            self._findings.clear()
        if self.stats_panel is not None:
            self.stats_panel.clear()
        if self._classes is not None:
            self._classes.set_classes(None)
        if self.compare_dialog is not None:
            self.compare_dialog.close()
            self.compare_dialog = None

    # -- going to records ----------------------------------------------------------
    def apply_filter(self, expression: str) -> None:
        bar = self.w.filter_bar
        bar.damaged.setChecked(False)
        bar.edit.setText(expression)
        self.w.left_tabs.setCurrentIndex(0)
        bar.apply()

    def open_report_dialog(self) -> None:
        path = file_dialogs.open_file(
            self.w.as_widget(),
            "Open a stats or check report",
            self.w.recent.last_dir(),
            "JSON (*.json)",
        )
        if path:
            self.open_report(path)

    def open_report(self, path: str) -> None:
        """Show a saved ``stats --json`` or ``check --json`` report (for instance from a
        Beam job) in its panel; its findings lead to records while their files are open."""
        from ..app.saved_reports import ReportError, load_report

        try:
            report = load_report(path)
        except ReportError as exc:
            self.w.show_error("Cannot open the report", str(exc))
            return
        if isinstance(report, StatsSummary):
            self.stats = report
            self._stats_panel().set_stats(report)
            if self._classes is not None:
                self._classes.set_classes(report)
            self.stats_dock.show()
            self.stats_dock.raise_()
        else:
            ds = self.w.session.dataset
            self._show_findings(report, [path, *(f.path for f in ds.files)] if ds else [path])
            self.findings_dock.show()
            self.findings_dock.raise_()
        self.w.statusBar().showMessage(f"report: {path}", 15000)

    def _is_open(self, path: str) -> bool:
        """Whether ``path`` (as a report names it) is a file of the window's dataset."""
        ds = self.w.session.dataset
        if ds is None:
            return False
        norm = os.path.abspath if "://" not in path else str
        return norm(path) in {norm(f.path) for f in ds.files}

    def open_finding(self, f: Finding) -> None:
        """Select the finding's record, its feature in the tree and its box."""
        w = self.w
        where = f.file
        if where is not None and not self._is_open(where):
            w.statusBar().showMessage(
                f"{f.kind}: {f.message} (open {where} to go to the record)", 30000
            )
            return
        if f.record is None:
            region = (
                next(
                    (
                        p
                        for p in w.session.dataset.regions()
                        if p.file == f.file and p.offset == f.offset
                    ),
                    None,
                )
                if w.session.dataset is not None
                else None
            )
            if region is not None:
                w.select_region(region)
            w.statusBar().showMessage(f"{f.kind}: {f.message}", 30000)
            return
        record = f.record
        applied = w.filter_bar.applied_text()
        if not w.select_record(record):
            return
        if applied and not w.filter_bar.applied_text():
            self._cleared = (record, f" (the filter {applied!r} hid the record and was cleared)")
        elif self._cleared[0] != record or w.filter_bar.applied_text():
            self._cleared = (None, "")
        # a double-click activates twice: the second time, the filter is gone already
        cleared = self._cleared[1]
        if f.feature:
            index = w.tree_model.index_of_key(f.feature, f.box if f.box is not None else f.step)
            if index.isValid():
                w.tree.setCurrentIndex(index)
                w.tree.scrollTo(index)
                w.tree.resizeColumnToContents(0)
        if f.step is not None:  # a step of an episode: the player shows it
            dock = w.docks.dock("episode")
            dock.show()
            dock.raise_()
            cast("EpisodePlayer", w.docks.widget("episode")).show_step(record, f.step)
        images = w.preview.images
        predicted = f.prediction
        if f.box is not None:  # the box chosen, ready to fix with the mouse or keys
            w.preview.setCurrentWidget(images)
            images.highlight_box(f.box)
            images.picker.select(f.box)
            images.view.setFocus()
        elif predicted is not None:  # an unlabelled object
            w.preview.setCurrentWidget(images)
            images.highlight_prediction(int(predicted))
            images.view.setFocus()
        w.statusBar().showMessage(f"{f.kind}: {f.message} — {f.hint}{cleared}", 30000)

    # -- compare -------------------------------------------------------------------
    def compare_dialog_open(self) -> None:
        w = self.w
        if w.session.dataset is None:
            w.show_error("Compare", "Open a dataset first: it is compared with another.")
            return
        paths = file_dialogs.open_files(
            w.as_widget(),
            "Compare with (choose the files of the other dataset)",
            w.recent.last_dir(),
        )
        if paths:
            self.compare_with(paths)

    def compare_with(self, paths: list[str], threshold: float = 0.1) -> None:
        """Compare the open dataset with ``paths`` in the background; the dialog shows it."""
        from .dialogs.compare_dialog import CompareDialog

        w = self.w
        if w.session.dataset is None:
            return
        if self.compare_dialog is None:
            self.compare_dialog = CompareDialog(w.select_record, w.as_widget())
            self.compare_dialog.cancel.clicked.connect(self.cancel_compare)
        dialog = self.compare_dialog
        dialog.show()
        dialog.raise_()
        self.cancel_compare()
        run = self.compare_job = AnalysisJob(
            w.session.dataset,
            CompareRequest(tuple(paths), threshold),
            parent=w.as_widget(),
        )
        run.phase.connect(lambda text: dialog.running(0, 1, text))
        run.progress.connect(lambda done, total: dialog.running(done, total))

        def finished(result: Any, error: str, r: AnalysisJob = run) -> None:
            if self.compare_job is not r:
                return  # cancelled or replaced
            self.compare_job = None
            if result is None:
                dialog.failed(f"The comparison stopped: {error}" if error else "Cancelled.")
            else:
                dialog.set_report(result)

        run.finished.connect(finished)
        dialog.running(0, 1, "starting")
        run.start()
